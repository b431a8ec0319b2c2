"""The numpy backend: unigrad's tape (`unigrad.tape`) differentiated with HIPS
``autograd`` (``autograd.make_vjp``); ``is_grads_batched`` is a loop over the seeds."""

from __future__ import annotations

import sys

import autograd  # noqa: F401  (fail early when autograd is missing)
import numpy as np

from ..tape import NumpyTensor, numpy_engine
from ._base import Capabilities, FunctionalImpl
from ._tape import TapeBackend

__all__ = ["BACKEND", "NumpyBackend"]

if "jax" in sys.modules:  # jax is in use: numpy tape tensors handed to it raise TapeError
    import unigrad.backends.jax  # noqa: F401  (registers both tapes' tensors with jax)


class NumpyBackend(TapeBackend):
    """Adapter for ``numpy.ndarray`` values and `NumpyTensor`."""

    name = "numpy"
    framework = "numpy"
    engine = numpy_engine
    tensor_cls = NumpyTensor
    capabilities = Capabilities(
        max_order=None,
        native_batched=False,
        backward_create_graph=True,
        leaf_hooks_in_grad=False,
        float16_cpu=True,
        functional=True,
    )

    def _array_types(self) -> tuple[type, ...]:
        return (np.ndarray, np.generic)

    def functional(self) -> FunctionalImpl:
        from ..functional import _numpy

        return _numpy

    def versions(self) -> dict[str, str]:
        from importlib.metadata import version

        return {"numpy": str(np.__version__), "autograd": version("autograd")}


BACKEND = NumpyBackend()
