"""The tape over TensorFlow: an `Engine` whose primitive VJPs are ``tf.GradientTape``'s.

TensorFlow tensors (``tf.Tensor``) hold the values; every recorded op is a TensorFlow
op (``tf.experimental.numpy`` names, or the namespace of
``unigrad._array_api._tensorflow``). ``vjp`` runs the rebuilt function under a
persistent ``tf.GradientTape`` that watches the primals, and its pullback is the tape's
``gradient``: a pullback called while an outer ``tf.GradientTape`` records (the next
order's ``vjp``) is itself recorded, so the tape's ``create_graph`` works to any order
from TensorFlow's own nested tapes. Everything else of the contract (consumed graphs,
``no_grad_vars``, ``is_grads_batched``, seeds, errors) is the tape's.

Conventions translated here, once:

* dtypes are NumPy's: a tape tensor's ``dtype`` and `Engine.dtype_of` give
  ``numpy.dtype`` objects (``tf.DType.as_numpy_dtype``), so the tape's dtype rules read
  TensorFlow values as they read jax's and NumPy's.
* complex numbers: ``tf.GradientTape.gradient`` returns ``conj(J^T conj(v))`` for a
  holomorphic op (torch's convention, ``tensorflow/python/eager/backprop.py``), the tape
  expects the plain VJP ``J^T v`` (jax's) and applies torch's convention itself: the
  pullback conjugates in and out.
* ``tf.IndexedSlices`` (the gradient of a gather) become dense tensors.

TensorFlow is imported when the engine is first used, never by ``import unigrad``.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from typing import Any

from ._engine import Engine, _flatten, _unflatten
from ._tensor import Tensor

__all__ = ["TensorflowTensor", "tensorflow_engine", "tensorflow_trace"]


def _np_dtype(dtype: Any) -> Any:
    """A ``tf.DType`` as its ``numpy.dtype``; anything else as it is."""
    to_np = getattr(dtype, "as_numpy_dtype", None)
    if to_np is None:
        return dtype
    import numpy as np

    return np.dtype(to_np)


class _TensorflowEngine(Engine):
    name = "tensorflow"
    compiles = False

    @functools.cached_property
    def _tf(self) -> Any:
        import tensorflow as tf

        return tf

    @functools.cached_property
    def np(self) -> Any:
        from .._array_api import _tensorflow

        return _tensorflow.prims()

    @functools.cached_property
    def _array_types(self) -> tuple[type, ...]:
        tf = self._tf
        return (tf.Tensor, tf.Variable)

    @functools.cached_property
    def _np_types(self) -> tuple[type, ...]:
        import numpy as np

        return (np.ndarray, np.generic)

    def is_array(self, v: Any) -> bool:
        return isinstance(v, (*self._array_types, *self._np_types))

    def canon(self, v: Any) -> Any:
        tf = self._tf
        if isinstance(v, tf.Tensor):
            return v
        if isinstance(v, (tf.Variable, *self._np_types)):
            return tf.convert_to_tensor(v)
        return v

    def flatten(self, tree: Any, is_leaf: Callable[[Any], bool]) -> tuple[list[Any], Any]:
        leaves: list[Any] = []
        treedef = _flatten(tree, is_leaf, leaves)
        return leaves, treedef

    def unflatten(self, treedef: Any, leaves: Sequence[Any]) -> Any:
        return _unflatten(treedef, iter(leaves))

    def vjp(self, fn: Callable[..., Any], primals: Sequence[Any]) -> tuple[Any, Any, Any]:
        tf = self._tf
        primals = _distinct([self.canon(p) for p in primals], tf)
        with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
            for p in primals:
                if p.dtype.is_floating or p.dtype.is_complex:
                    tape.watch(p)
            outs, aux = fn(*primals)
        outs = tuple(self.canon(o) for o in outs)
        zero = tf.UnconnectedGradients.ZERO

        def pullback(cts: Sequence[Any]) -> Any:
            sources = [p for p in primals if p.dtype.is_floating or p.dtype.is_complex]
            if not sources:
                return tuple(tf.zeros_like(p) for p in primals)
            targets, grads_in = [], []
            for o, ct in zip(outs, cts, strict=True):
                if not (o.dtype.is_floating or o.dtype.is_complex):
                    continue  # (an integer output has no cotangent)
                ct = self.canon(ct)
                if ct.dtype.is_complex:
                    ct = tf.math.conj(ct)
                if ct.dtype != o.dtype:
                    ct = tf.cast(ct, o.dtype)
                targets.append(o)
                grads_in.append(ct)
            if not targets:
                return tuple(tf.zeros_like(p) for p in primals)
            if len(targets) == 1 and len(sources) == 1:
                # one target and one source as tensors, not lists: TensorFlow 2.21's
                # gradient() repacks list structures through nest (runtime Protocol
                # isinstance checks), about a tenth of a trivial call
                gs = (
                    tape.gradient(
                        targets[0],
                        sources[0],
                        output_gradients=grads_in[0],
                        unconnected_gradients=zero,
                    ),
                )
            else:
                gs = tape.gradient(
                    targets, sources, output_gradients=grads_in, unconnected_gradients=zero
                )
            it = iter(gs)
            result = []
            for p in primals:
                if not (p.dtype.is_floating or p.dtype.is_complex):
                    result.append(tf.zeros_like(p))
                    continue
                g = next(it)
                if isinstance(g, tf.IndexedSlices):
                    g = tf.convert_to_tensor(g)
                if g.dtype.is_complex:
                    g = tf.math.conj(g)
                result.append(g)
            return tuple(result)

        return outs, pullback, tuple(aux)

    def batched(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        tf = self._tf

        def loop(ins: Any, consts: Any, seeds: Any) -> Any:
            batch = next(s.shape[0] for s in seeds if s is not None)
            rows = [
                fn(ins, consts, tuple(None if s is None else s[b] for s in seeds))
                for b in range(batch)
            ]
            if not rows:
                return tuple(
                    tf.zeros((0, *x.shape), x.dtype) for x in ins
                )  # (an empty batch: no row to stack)
            return tuple(tf.stack([r[i] for r in rows]) for i in range(len(rows[0])))

        return loop

    @functools.cached_property
    def _inside_function(self) -> Callable[[], bool]:
        return self._tf.inside_function  # type: ignore[no-any-return]

    def defers(self) -> bool:
        """Not while a ``tf.function`` traces (`unigrad.jit`): there each op is a graph
        op already, and a pending value would have to be traced again."""
        return not self._inside_function()

    def evaluating(self, *groups: Sequence[Any]) -> Any:
        """Inside a ``tf.function`` trace (`unigrad.jit`), with no graph tensor among
        ``groups``: eagerly (``tf.init_scope``), so that a tensor recorded outside the
        step never receives a graph tensor of the step's function."""
        tf = self._tf
        if not self._inside_function():
            return contextlib.nullcontext()
        for values in groups:
            for v in values:
                if isinstance(v, tf.Tensor) and not hasattr(v, "numpy"):
                    return contextlib.nullcontext()
        return tf.init_scope()

    def describe(self, v: Any) -> tuple[tuple[int, ...], Any, bool]:
        return (tuple(v.shape), _np_dtype(v.dtype), False)

    #: Python numbers are static in a `unigrad.jit` step, where jax traces them:
    #: TensorFlow does not promote a tensor of one dtype against another
    #: (``float64 * float32`` is an error), so a number stays a weakly typed Python
    #: operand inside the step, as it is outside; a new value traces the step again (a
    #: learning rate that changes is passed as a tensor).
    static_numbers = True

    def compile_step(self, body: Callable[[list[Any]], list[Any]]) -> Callable[..., Any]:
        """One ``tf.function`` of the step (no autograph: the step's Python runs once, as
        written). Inside its trace the tape computes every value at once (`defers`) and
        `unigrad.watch` of a graph tensor is allowed."""
        return self._tf.function(  # type: ignore[no-any-return]
            body, autograph=False, reduce_retracing=False
        )

    def is_step_read(self, err: BaseException) -> bool:
        """TensorFlow's refusal of a value read while it traces (a graph tensor used as a
        Python bool, converted to NumPy, or read with ``.numpy()``)."""
        if isinstance(err, self._tf.errors.OperatorNotAllowedInGraphError):
            return True
        text = str(err)
        return isinstance(err, (NotImplementedError, AttributeError, TypeError)) and (
            "numpy" in text or "symbolic" in text.lower() or "graph tensor" in text
        )

    def dtype_of(self, v: Any) -> Any:
        d = getattr(v, "dtype", None)
        return None if d is None else _np_dtype(d)

    def to_numpy(self, v: Any) -> Any:
        import numpy as np

        return np.asarray(v.numpy() if hasattr(v, "numpy") else v)

    def asarray(self, data: Any, dtype: str) -> Any:
        import numpy as np

        return self._tf.constant(np.asarray(data, dtype=dtype))

    def differentiates(self, dtype: Any) -> bool:
        import numpy as np

        # TensorFlow's gradients cover float16/bfloat16/float32/float64 and complex
        return "float" in str(dtype) or bool(np.issubdtype(_np_dtype(dtype), np.complexfloating))

    def zeros(self, shape: tuple[int, ...], dtype: Any) -> Any:
        return self._tf.zeros(tuple(shape), dtype=_np_dtype(dtype))

    def zeros_like(self, v: Any) -> Any:
        return self._tf.zeros_like(v)

    def ones_of(self, v: Any) -> Any:
        """``tf.ones_like``: ``OnesLike`` is not differentiable (array_grad.py), so an
        outer recording tape sees a constant; one op, where ``tnp.ones(shape, dtype)``
        converts the shape and dtype first (TensorFlow 2.21: about five times the cost)."""
        return self._tf.ones_like(v)

    def cast(self, x: Any, dtype: Any) -> Any:
        return self._tf.cast(x, _np_dtype(dtype))


tensorflow_engine = _TensorflowEngine()


def _distinct(vals: list[Any], tf: Any) -> list[Any]:
    """``vals`` with each float or complex tensor replaced by a copy of its own
    (``tf.identity``), the sources a ``tf.GradientTape`` watches. The tape identifies a
    source by its tensor object, and TensorFlow 2.21 hands an input object back from
    ops that change nothing (``conj`` and ``real`` of a real tensor, a ``cast`` to its own
    dtype): a constant the rebuilt function closes over (a ``no_grad_vars`` cut,
    ``conj(x)`` of a real ``x``) was then the watched source itself, and the cut let
    the gradient through (seed 31, program 38); one tensor at two positions (one seed
    for two outputs) got the sum of both positions' gradients and each position the
    other's dependence. Tests: test_divergences_tf.py::test_one_tensor_at_two_positions_of_a_pass,
    test_divergences_tf.py::test_a_cut_at_an_op_that_returns_its_input."""
    return [
        tf.identity(v)
        if isinstance(v, tf.Tensor) and (v.dtype.is_floating or v.dtype.is_complex)
        else v
        for v in vals
    ]


# ---- the tensor methods that read array methods TensorFlow's tensors lack ----------
def _astype(x: Any, dtype: Any) -> Any:
    import tensorflow as tf

    return tf.cast(x, _np_dtype(dtype))


def _reshape(x: Any, shape: Any) -> Any:
    import tensorflow as tf

    return tf.reshape(x, shape)


def _transpose_T(x: Any) -> Any:
    import tensorflow as tf

    return tf.transpose(x)


def _mT(x: Any) -> Any:
    return tensorflow_engine.np.matrix_transpose(x)


def _getitem(x: Any, idx: Any) -> Any:
    return tensorflow_engine.np.getitem(x, idx)


class TensorflowTensor(Tensor):
    """A tape tensor over a ``tf.Tensor``, differentiated with ``tf.GradientTape``."""

    __slots__ = ()
    __unigrad_backend__ = "tensorflow"

    def __getitem__(self, idx: Any) -> Any:
        from ._operators import _integer_masks
        from ._record import record_call
        from ._slices import mark_if_full_slice

        out = record_call(type(self), _getitem, (self, _integer_masks(idx)), {})
        mark_if_full_slice(out, self, idx)
        return out

    @property
    def T(self) -> Any:
        from ._record import record

        return record(type(self), _transpose_T, self)

    @property
    def mT(self) -> Any:
        from ._record import record

        return record(type(self), _mT, self)

    def astype(self, dtype: Any) -> Any:
        from ._record import record

        return record(type(self), _astype, self, dtype)

    def reshape(self, *shape: Any) -> Any:
        from ._record import record_call

        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return record_call(type(self), _reshape, (self, tuple(shape)), {})

    def __setitem__(self, key: Any, value: Any, /) -> None:
        """``x[key] = value`` on a constant: a new tensor through a host copy
        (``tf.Tensor`` has no item assignment); refused on a tensor with history, as on
        the other tapes."""
        if self.requires_grad or (isinstance(value, Tensor) and value.requires_grad):
            super().__setitem__(key, value)  # (the tape's refusal)
        import numpy as np
        import tensorflow as tf

        def host(v: Any) -> Any:
            if isinstance(v, Tensor):
                v = v._value
            if isinstance(v, tf.Tensor):
                return v.numpy()
            if type(v) is tuple:
                return tuple(host(e) for e in v)
            return v

        new = np.array(self._value.numpy(), copy=True)
        new[host(key)] = host(value)
        self._value = tf.constant(new)

    def __dlpack__(
        self,
        /,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        cpu = self._value.__dlpack_device__()[0] == 1
        if self.requires_grad or not cpu or (copy is not True and dl_device is None):
            return super().__dlpack__(
                stream=stream, max_version=max_version, dl_device=dl_device, copy=copy
            )
        # tf.Tensor.__dlpack__ refuses copy=True and any dl_device (TensorFlow 2.21): a
        # host tensor's export through a NumPy array (a copy, or a view of the host value)
        import numpy as np

        if dl_device is not None and tuple(dl_device) != (1, 0):
            msg = f"a CPU tensor cannot be exported to DLPack device {dl_device!r}"
            raise BufferError(msg)
        host = np.array(self._value.numpy(), copy=True)
        return host.__dlpack__(max_version=max_version, copy=copy is True or None)

    def _element(self, what: str) -> Any:
        import numpy as np

        v = np.asarray(self._value.numpy())
        if v.size != 1:
            from .._errors import not_one_element

            raise not_one_element(what, tuple(v.shape), int(v.size))
        return v.reshape(())

    def tolist(self) -> Any:
        return self._value.numpy().tolist()

    def __index__(self) -> int:
        return int(self._value.numpy().__index__())

    def __format__(self, spec: str) -> str:
        v = self._value.numpy()
        if spec and v.ndim == 0:
            return format(v.item(), spec)
        return format(v, spec)

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        if self.requires_grad:
            from .._errors import TapeError
            from ._operators import _NO_CONVERSION

            raise TapeError(_NO_CONVERSION)
        import numpy as np

        return np.asarray(self._value.numpy(), *args, **kwargs)

    @property
    def device(self) -> Any:
        return self._value.device

    def to_device(self, device: Any, /, *, stream: Any = None) -> Any:
        if stream is not None or device not in (None, "cpu", self._value.device):
            from .._errors import message

            msg = message(
                "to_device on a tensorflow tape tensor",
                expected="device=x.device (or 'cpu') and stream=None",
                got=f"device={device!r}, stream={stream!r}",
                fix="Place the array with tf.device(...) before unigrad.watch.",
            )
            raise ValueError(msg)
        return self


TensorflowTensor._engine = tensorflow_engine


def tensorflow_trace(
    fn: Callable[..., Any], vals: Sequence[Any]
) -> tuple[tuple[Any, ...], list[frozenset[int]]]:
    """``fn(*vals)`` and, per output, the argument positions it depends on
    differentiably: one run under a persistent ``tf.GradientTape`` watching the float
    and complex arguments, and each float output's connected sources
    (``unconnected_gradients=NONE``: ``None`` where no recorded path, or only ops whose
    gradient TensorFlow registers as none, such as ``floor`` and ``round``, join them)."""
    import tensorflow as tf

    eng = tensorflow_engine
    vals = _distinct([eng.canon(v) for v in vals], tf)
    watched = [
        i
        for i, v in enumerate(vals)
        if isinstance(v, tf.Tensor) and (v.dtype.is_floating or v.dtype.is_complex)
    ]
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        for i in watched:
            tape.watch(vals[i])
        outs = tuple(eng.canon(o) for o in fn(*vals))
    deps: list[frozenset[int]] = []
    sources = [vals[i] for i in watched]
    for o in outs:
        if not sources or not (
            isinstance(o, tf.Tensor) and (o.dtype.is_floating or o.dtype.is_complex)
        ):
            deps.append(frozenset())
            continue
        gs = tape.gradient(o, sources, unconnected_gradients=tf.UnconnectedGradients.NONE)
        deps.append(frozenset(i for i, g in zip(watched, gs, strict=True) if g is not None))
    return outs, deps
