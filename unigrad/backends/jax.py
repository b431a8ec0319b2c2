"""The jax backend: unigrad's tape (`unigrad.tape`) differentiated with ``jax.vjp``.

Tape tensors hold ``jax.Array`` values (tracers under ``jax.jit``); ``grad`` rebuilds
the recorded graph as one pure function, compiles it with ``jax.jit`` (cached by the
graph's structure) and maps ``is_grads_batched`` with ``jax.vmap``.
"""

from __future__ import annotations

from typing import Any, NoReturn

import jax

from .._errors import CompiledStepError, TapeError, UnsupportedFeatureError, message
from ..tape import STEP_READ, JaxTensor, NumpyTensor, Tensor, jax_engine
from ._base import BackwardRequest, Capabilities, FunctionalImpl, GradRequest
from ._tape import TapeBackend

__all__ = ["BACKEND", "JaxBackend"]

_ACROSS_JIT = message(
    "a tape tensor cannot be handed to a jax function or transformation",
    expected="the tape's own functions, which record: xp.sin(t) with "
    "xp = unigrad.namespace(t), or a jax function wrapped as unigrad.lift(fn)(t); across "
    "jax.jit/vmap, tape tensors made, differentiated and converted inside one "
    "transformed function (or entirely outside)",
    got="a tape tensor passed to a jax.numpy function (jnp.sin(t)), or into or out of jax.jit/vmap",
    fix="Write xp.sin(t) (xp = unigrad.namespace(t)) or unigrad.lift(jnp.sin)(t), which "
    "record; inside jax.jit, call unigrad.grad in the jitted function and return plain "
    "arrays (t.value, or the gradients), or watch the arrays outside jit.",
)
_TRACER = message(
    "this tape was recorded inside jax.jit/vmap and differentiated outside it",
    expected="unigrad.grad called inside the transformed function that recorded the tape",
    got="tape values that are tracers of a finished trace",
    fix="Move the unigrad.grad call into the jitted function and return its gradients.",
)


_TRACED_READ = message(
    "unigrad.to_numpy was given a value that a jax transformation is tracing",
    expected="a concrete value: to_numpy copies it to the host, and inside the caller's "
    "jax.jit / jax.grad / jax.vmap a value is abstract until the function returns",
    got="a jax tracer (a tape tensor's value or a jax array inside the transformed function)",
    fix="Inside the function keep jax values: t.value or t.detach() (a jax array the "
    "caller's jax.grad still differentiates), or unigrad.detach(t) (cut from it too); "
    "return what you want to read and call unigrad.to_numpy on the result outside, or "
    "print it inside with jax.debug.print.",
)


def _no_flatten(t: Tensor) -> NoReturn:
    raise TapeError(_ACROSS_JIT)


def _no_unflatten(aux: Any, children: Any) -> NoReturn:  # pragma: no cover - unreachable
    raise TapeError(_ACROSS_JIT)


# jax flattens what enters and leaves jit/vmap, and every jax.numpy function is
# jitted: a tape tensor there says so clearly, instead of jax's TypeError (unigrad's own
# flattening treats tape tensors as leaves and never gets here). Both tapes' tensors: a
# numpy tape tensor handed to jax.numpy is the same mistake.
for _cls in (JaxTensor, NumpyTensor):
    jax.tree_util.register_pytree_node(_cls, _no_flatten, _no_unflatten)

_PLAIN_INDEXED = message(
    "a plain jax array was indexed by a tape tensor",
    expected="an index jax's indexing reads: an int, a slice, a jax or NumPy array, or a list",
    got="a tape tensor (jax 0.10's indexing takes no other array object; a tape tensor "
    "that requires grad cannot be an index anyway)",
    fix="Index the tape's array instead, xp.asarray(a)[m] with xp = unigrad.namespace(m) "
    "(a constant here, differentiable where a is a tape tensor), or give jax the index's "
    "value: a[m.value] for a constant m (a mask, an argmax).",
)


def _no_abstract_value(t: Tensor) -> NoReturn:
    raise UnsupportedFeatureError(_PLAIN_INDEXED)


# jax 0.10.2's indexing (`jax._src.numpy.indexing.IndexType.from_index`) asks
# `core.typeof` whether an unknown index is a boolean array, catching its TypeError, and
# then raises a bare IndexError ("only integers, slices ... are valid indices"), also
# for a constant mask `jnp_array[t > 0]` where numpy, torch and paddle answer. jax asks
# for a tape tensor's abstract value nowhere else before the pytree registration above
# refuses it (jnp.sin, jit, device_put), so this names the mistake and the fix there; an
# UnsupportedFeatureError is no TypeError, which jax would catch. No upstream issue:
# jax's indexing accepts only its own arrays, NumPy's and lists by design.
# (a private table: where a jax release lacks it, jax's own IndexError stays)
_AVALS = getattr(getattr(getattr(jax, "_src", None), "core", None), "pytype_aval_mappings", None)
if isinstance(_AVALS, dict):
    for _cls in (JaxTensor, NumpyTensor):
        _AVALS[_cls] = _no_abstract_value


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
        compiles_steps=True,
    )

    def _array_types(self) -> tuple[type, ...]:
        return (jax.Array, jax.core.Tracer)

    def functional(self) -> FunctionalImpl:
        from ..functional import _jax

        return _jax

    def grad(self, request: GradRequest) -> list[Any | None]:
        try:
            return super().grad(request)
        except jax.errors.UnexpectedTracerError as err:
            raise TapeError(_TRACER) from err

    def backward(self, request: BackwardRequest) -> None:
        try:
            super().backward(request)
        except jax.errors.UnexpectedTracerError as err:
            raise TapeError(_TRACER) from err

    def versions(self) -> dict[str, str]:
        import jaxlib

        return {"jax": str(jax.__version__), "jaxlib": str(getattr(jaxlib, "__version__", "?"))}

    def detach(self, x: Any) -> Any:
        v = x._value if isinstance(x, JaxTensor) else x
        # a tracer of the caller's transformation (jax.grad, jax.jit): cut from it too;
        # a concrete array has no history to cut
        return jax.lax.stop_gradient(v) if isinstance(v, jax.core.Tracer) else v

    def to_numpy(self, x: Any) -> Any:
        import numpy as np

        v = x._value if isinstance(x, JaxTensor) else x
        if isinstance(v, jax.core.Tracer):
            from .._compile import in_step

            if in_step():  # a unigrad.jit step's own trace: the step's refusal
                raise CompiledStepError(STEP_READ)
            raise TapeError(_TRACED_READ)
        out = np.array(jax.device_get(v), copy=True)
        if out.dtype.name == "bfloat16":  # ml_dtypes' type: float32 holds it exactly
            out = out.astype(np.float32)
        return out


BACKEND = JaxBackend()
