"""The tensorflow backend: unigrad's tape (`unigrad.tape`) over TensorFlow ops, each
primitive differentiated by ``tf.GradientTape`` (``unigrad.tape._tensorflow``).

Why the tape and not a recording ``tf.GradientTape`` managed by ``watch``: a
``tf.GradientTape`` must be recording before the forward pass, fixes ``persistent`` at
creation, gives ``None`` for every unreachable or unwatched source, and has no
``create_graph``, ``no_grad_vars`` or ``is_grads_batched``; the tape already implements
each rule of the contract once (consumed graphs, ``create_graph`` to any order, seeds,
``no_grad_vars``, batched seeds, the structural rules) for jax and numpy, and needs from
a framework only a VJP of a pure function, which ``tf.GradientTape`` gives (nested tapes
make that VJP differentiable again). See ARCHITECTURE.md, "The tensorflow backend".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf

from .._compile import in_step
from .._errors import CompiledStepError, NotDifferentiableError, message
from ..tape import Tensor
from ..tape._tensorflow import TensorflowTensor, tensorflow_engine
from ._base import Capabilities, FunctionalImpl, GradRequest, Kind
from ._tape import TapeBackend

__all__ = ["BACKEND", "TensorflowBackend"]


def _np_dtype(dtype: Any) -> Any:
    return np.dtype(getattr(dtype, "as_numpy_dtype", dtype))


def _value(x: Any) -> Any:
    return x._value if isinstance(x, Tensor) else x


class TensorflowBackend(TapeBackend):
    """Adapter for ``tf.Tensor`` values (and ``tf.Variable``, read at `watch`) and
    `TensorflowTensor`."""

    name = "tensorflow"
    framework = "tensorflow"
    engine = tensorflow_engine
    tensor_cls = TensorflowTensor
    capabilities = Capabilities(
        max_order=None,
        native_batched=False,
        backward_create_graph=True,
        leaf_hooks_in_grad=False,
        float16_cpu=True,
        functional=True,
        standard_arrays=False,
        compiles_steps=True,
    )

    def compile(
        self,
        fn: Callable[..., Any],
        static_argnums: tuple[int, ...],
        static_argnames: tuple[str, ...],
    ) -> Callable[[tuple[Any, ...], dict[str, Any]], Any] | None:
        """The whole step as one ``tf.function`` (`unigrad.tape.CompiledStep`, with
        `unigrad.tape._tensorflow`'s hooks: numbers static, TensorFlow's read errors)."""
        from ..tape import CompiledStep
        from ._tape import _STEP_RULES

        return CompiledStep(self, fn, static_argnums, static_argnames, _STEP_RULES)

    def grad(self, request: GradRequest) -> list[Any | None]:
        """The tape's gradients; with ``create_graph``, a result without history (a
        constant derivative) is a constant tape tensor, not a plain ``tf.Tensor``: the
        caller computes on with it, and a plain ``tf.Tensor`` is not an array of the
        standard (no ``.T``, no integer-array or tape-tensor mask indexing,
        tensorflow#50438), where the other tapes' plain arrays are. Test:
        test_divergences_tf.py::test_a_constant_create_graph_result_takes_the_standards_indexing."""
        grads = super().grad(request)
        if not request.create_graph:
            return grads
        cls = self.tensor_cls
        return [g if g is None or isinstance(g, Tensor) else cls._constant(g) for g in grads]

    def functional(self) -> FunctionalImpl:
        from ..functional import _tensorflow

        return _tensorflow

    def _array_types(self) -> tuple[type, ...]:
        return (tf.Tensor, tf.Variable)

    def kind(self, x: Any) -> Kind:
        dt = _np_dtype(x.dtype)
        if dt.kind == "c":
            return "c"
        if dt.kind == "f" or "float" in str(dt):
            return "f"
        if dt.kind == "b":
            return "b"
        if dt.kind in "iu":
            return "i"
        return "?"

    def same_dtype(self, a: Any, b: Any) -> bool:
        return bool(_np_dtype(a.dtype) == _np_dtype(b.dtype))

    def dtype_name(self, x: Any) -> str:
        return str(_np_dtype(x.dtype))

    def versions(self) -> dict[str, str]:
        return {"tensorflow": str(tf.__version__)}

    def cast(self, x: Any, like: Any) -> Any:
        from ..tape import record

        dtype = _np_dtype(like.dtype)
        if isinstance(x, Tensor):
            return record(self.tensor_cls, _cast, x, dtype)
        return tf.cast(x, dtype)

    def ones_like(self, x: Any) -> Any:
        return tf.ones_like(_value(x))

    def watch(self, x: Any) -> Any:
        if isinstance(x, tf.Variable):
            x = tf.convert_to_tensor(x)
        if isinstance(x, tf.Tensor) and not hasattr(x, "numpy") and not in_step():
            msg = message(
                "watch() got a symbolic tf.Tensor (inside tf.function or a Keras graph)",
                expected="an eager tf.Tensor",
                got=f"a graph tensor {x!r}",
                fix="Call unigrad.watch and unigrad.grad eagerly, or compile the whole "
                "step with unigrad.jit (which runs it as a tf.function).",
            )
            raise NotDifferentiableError(msg)
        return super().watch(x)

    def to_numpy(self, x: Any) -> Any:
        v = _value(x)
        if isinstance(v, tf.Tensor) and not hasattr(v, "numpy") and in_step():
            from ..tape._step import STEP_READ

            raise CompiledStepError(STEP_READ)  # a graph tensor of a unigrad.jit step
        out = np.array(v.numpy() if hasattr(v, "numpy") else v, copy=True)
        if out.dtype.name == "bfloat16":  # ml_dtypes' type: float32 holds it exactly
            out = out.astype(np.float32)
        return out


def _cast(x: Any, dtype: Any) -> Any:
    return tf.cast(x, dtype)


def _reflect_comparisons() -> None:
    """``tf_tensor < tape_tensor`` (and ``<=``, ``>``, ``>=``, ``==``, ``!=``) as the
    tape tensor's reflected comparison, as with any other framework's arrays.

    TensorFlow 2.21's comparison operators (``tensor_math_operator_overrides.py``) call
    ``gen_math_ops.less`` and the others directly, with no ``NotImplemented`` and no
    reflected fallback (its arithmetic operators have one), so the tape tensor was
    converted to a ``tf.Tensor``: a `unigrad.TapeError` for one that requires grad.
    Those ops consult their fallback dispatchers when an argument does not convert (the
    ``TypeError``): one registered here answers for a tape tensor on the right and
    declines everything else, so TensorFlow's own types are untouched. (The public
    ``tf.experimental.dispatch_for_api`` dispatches on ``CompositeTensor`` types only.)
    Test: test_divergences_tf.py::test_comparison_with_a_plain_tensor_on_the_left.
    """
    from tensorflow.python.ops import gen_math_ops

    class Reflected(tf.__internal__.dispatch.OpDispatcher):  # type: ignore[misc]
        def __init__(self, op: str) -> None:
            self.op = op

        def handle(self, args: Any, kwargs: Any) -> Any:
            x, y = (*args, *kwargs.values())[:2]  # (x, y) or ==/!='s (self, other)
            if isinstance(y, TensorflowTensor) and not isinstance(x, Tensor):
                return getattr(y, self.op)(x)
            return self.NOT_SUPPORTED

    operators = tf.__operators__  # == and != (tensor_equals, tensor_not_equals)
    for api, op in (
        (gen_math_ops.less, "__gt__"),
        (gen_math_ops.less_equal, "__ge__"),
        (gen_math_ops.greater, "__lt__"),
        (gen_math_ops.greater_equal, "__le__"),
        (operators.eq, "__eq__"),
        (operators.ne, "__ne__"),
    ):
        Reflected(op).register(api)


_reflect_comparisons()


BACKEND = TensorflowBackend()
