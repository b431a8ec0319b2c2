"""The jax backend: unigrad's tape (`unigrad.tape`) differentiated with ``jax.vjp``.

Tape tensors hold ``jax.Array`` values (tracers under ``jax.jit``); ``grad`` rebuilds
the recorded graph as one pure function, compiles it with ``jax.jit`` (cached by the
graph's structure) and maps ``is_grads_batched`` with ``jax.vmap``.
"""

from __future__ import annotations

from typing import Any

import jax

from ..tape._backend import TapeBackend
from ..tape._engine import jax_engine
from ..tape._tensor import JaxTensor
from ._base import Capabilities

__all__ = ["BACKEND", "JaxBackend"]


class JaxBackend(TapeBackend):
    """Adapter for ``jax.Array`` values and `JaxTensor`."""

    name = "jax"
    framework = "jax"
    engine = jax_engine
    tensor_cls = JaxTensor
    capabilities = Capabilities(
        max_order=None,
        native_batched=True,
        backward_create_graph=True,
        leaf_hooks_in_grad=False,
        float16_cpu=True,
        functional=True,
    )

    def _array_types(self) -> tuple[type, ...]:
        return (jax.Array, jax.core.Tracer)

    def versions(self) -> dict[str, str]:
        import jaxlib

        return {"jax": str(jax.__version__), "jaxlib": str(getattr(jaxlib, "__version__", "?"))}

    def to_numpy(self, x: Any) -> Any:
        import numpy as np

        v = x._value if isinstance(x, JaxTensor) else x
        return np.array(jax.device_get(v), copy=True)


BACKEND = JaxBackend()
