"""The backend adapter shared by jax and numpy: the `Backend` methods on tape tensors.

`unigrad.backends.jax` and `unigrad.backends.numpy` pick the engine and the tensor
class. The tape (`unigrad.tape`) is a layer below: this module uses it through the
names ``unigrad.tape`` exports, and, when it is imported (before any tape tensor
exists), hands the tape what it needs from the layers above (`unigrad.tape._hooks`):
the full-range rule, rule 6's stamps, ``unigrad.backward`` and the dispatcher's
``owner``.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any, ClassVar

from .. import _compile, tape
from .._dispatch import owner
from .._errors import NotDifferentiableError, UnsupportedDtypeError, message
from .._grad import backward as _backward
from ..contract import GraphView, Record, attach, record_of
from ..tape import Engine, Tensor, any_full_slices, is_full_slice, record, record_call
from ._base import Backend, BackwardRequest, GradRequest, Kind

__all__ = ["TapeBackend"]

tape.install_hooks(
    backward=_backward,
    owner=owner,
)

#: What a `unigrad.jit` step on the tape takes from ``unigrad.jit``'s front.
_STEP_RULES = tape.StepRules(
    step_scope=_compile.step_scope,
    history_error=_compile.history_error,
    unhashable_error=_compile.unhashable_error,
)

_KINDS: dict[Any, Kind] = {}


def _kind(dtype: Any) -> Kind:
    k = _KINDS.get(dtype)
    if k is None:
        import numpy as np

        dt = getattr(dtype, "as_numpy_dtype", dtype)  # TensorFlow's tf.DType
        try:
            if np.issubdtype(dt, np.complexfloating):
                k = "c"
            elif np.issubdtype(dt, np.floating) or "float" in str(dtype):
                k = "f"
            elif np.issubdtype(dt, np.bool_):
                k = "b"
            elif np.issubdtype(dt, np.integer):
                k = "i"
            else:
                k = "?"
        except TypeError:
            k = "f" if "float" in str(dtype) else "?"
        _KINDS[dtype] = k
    return k


def _value(x: Any) -> Any:
    return x._value if isinstance(x, Tensor) else x


def _cast_op(x: Any, dtype: Any) -> Any:
    return x.astype(dtype)


#: id(array) -> the leaf watching it, while that leaf lives (it holds the array, so the
#: id cannot be reused meanwhile): ``watch`` twice on one array gives one leaf, as torch.
_WATCHED: dict[int, weakref.ref[Tensor]] = {}


def _forget(key: int) -> Callable[[weakref.ref[Tensor]], None]:
    def callback(ref: weakref.ref[Tensor]) -> None:
        if _WATCHED.get(key) is ref:
            del _WATCHED[key]

    return callback


# ---- derivatives through a create_graph gradient (see `unigrad.contract._ambiguous`) ----
#: The node of each create_graph result -> the records of the calls that returned it.
_RECORDS: weakref.WeakKeyDictionary[Any, list[Record]] = weakref.WeakKeyDictionary()


def _start(t: Any) -> Any:
    """A tensor's place in the graph: its node, or the leaf itself."""
    return t._node if t._node is not None else t


def _ident(item: Any) -> Any:
    return id(item) if isinstance(item, Tensor) else item


def _kids(item: Any) -> list[Any]:
    if isinstance(item, Tensor):
        return []
    out = []
    for p in tape.parents_of(item):
        if isinstance(p, Tensor):
            out.append(_start(p))
        elif isinstance(p, tape.Ref) and p.node is not None:  # a consumed node's
            out.append(p.node)
    return out


def _records(item: Any) -> Any:
    return () if isinstance(item, Tensor) else _RECORDS.get(item, ())


def _record_call(outputs: Any, inputs: Any, seeds: Any, grads: Any) -> None:
    """Attach the call's `Record` to each differentiable result's node."""
    attach(_GRAPH, record_of(_GRAPH, inputs, outputs, seeds, Record), grads)


class _TapeGraph(GraphView):
    """The tape's graph for the contract's structural rules: `Node` objects, a leaf
    named by its tensor, the records in `_RECORDS`."""

    def node(self, t: Any) -> Any:
        return t._node if isinstance(t, Tensor) else None

    children = staticmethod(_kids)

    ident = staticmethod(_ident)

    records = staticmethod(_records)

    def keep(self, node: Any, record: Record, position: int, result: Any) -> None:
        recs = _RECORDS.get(node)
        if recs is None:
            _RECORDS[node] = recs = []
        recs.append(record.at(position))

    def recording(self) -> bool:
        return bool(_RECORDS)

    full_slice = staticmethod(is_full_slice)

    def may_have_full_slices(self) -> bool:
        return any_full_slices()


_GRAPH = _TapeGraph()


class TapeBackend(Backend):
    """A backend whose tensors are unigrad tape tensors over ``engine``'s arrays."""

    engine: ClassVar[Engine]
    tensor_cls: ClassVar[type[Tensor]]
    graph = _GRAPH

    def _array_types(self) -> tuple[type, ...]:
        raise NotImplementedError

    def owns(self, cls: type) -> bool:
        return issubclass(cls, (self.tensor_cls, *self._array_types()))

    def kind(self, x: Any) -> Kind:
        return _kind(x.dtype)

    def shape(self, x: Any) -> tuple[int, ...]:
        return tuple(x.shape)

    def same_dtype(self, a: Any, b: Any) -> bool:
        return bool(a.dtype == b.dtype)

    def dtype_name(self, x: Any) -> str:
        return str(x.dtype)

    def requires_grad(self, x: Any) -> bool:
        return isinstance(x, Tensor) and x.requires_grad  # constants do not

    def has_history(self, x: Any) -> bool:
        return isinstance(x, Tensor) and x._node is not None and x.requires_grad

    def compile(
        self,
        fn: Callable[..., Any],
        static_argnums: tuple[int, ...],
        static_argnames: tuple[str, ...],
    ) -> Callable[[tuple[Any, ...], dict[str, Any]], Any] | None:
        if not self.engine.compiles:  # autograd runs a step as it is written
            return None
        return tape.CompiledStep(self, fn, static_argnums, static_argnames, _STEP_RULES)

    def cast(self, x: Any, like: Any) -> Any:
        if isinstance(x, Tensor):
            return record(self.tensor_cls, _cast_op, x, like.dtype)
        return self.engine.cast(x, like.dtype)

    def asarray(self, data: Any, dtype: str) -> Any:
        return self.engine.asarray(data, dtype)

    def ones_like(self, x: Any) -> Any:
        return self.engine.np.ones_like(_value(x))

    def zeros_like(self, x: Any, batch: int | None = None) -> Any:
        v = _value(x)
        if batch is None:
            return self.engine.zeros_like(v)
        return self.engine.zeros((batch, *v.shape), v.dtype)

    def add(self, a: Any, b: Any) -> Any:
        return a + b

    def grad(self, request: GradRequest) -> list[Any | None]:
        grads = tape.grad(
            self.tensor_cls,
            request.outputs,
            request.inputs,
            request.seeds,
            retain_graph=request.retain_graph,
            create_graph=request.create_graph,
            batched=request.batched,
            no_grad_vars=request.no_grad_vars,
        )
        if request.create_graph:
            _record_call(request.outputs, request.inputs, request.seeds, grads)
        return grads

    def backward(self, request: BackwardRequest) -> None:
        targets = request.inputs
        if request.create_graph and targets is None:  # (before the pass consumes them)
            targets = tuple(tape.leaves_of(request.outputs))
        tape.backward(
            self.tensor_cls,
            request.outputs,
            request.seeds,
            retain_graph=request.retain_graph,
            create_graph=request.create_graph,
            inputs=request.inputs,
        )
        if request.create_graph and targets is not None:  # as torch's (grad's results)
            grads = [getattr(x, "grad", None) for x in targets]
            _record_call(request.outputs, targets, request.seeds, grads)

    def watch(self, x: Any) -> Any:
        cls = self.tensor_cls
        if isinstance(x, cls):
            return x
        if not self.engine.is_array(x):
            msg = message(
                "watch() needs an array",
                expected=f"a {self.name} array",
                got=type(x).__name__,
                fix="Convert the value to an array of the framework first.",
            )
            raise NotDifferentiableError(msg)
        x = self.engine.canon(x)
        if _kind(x.dtype) not in "fc":
            msg = message(
                "only floating-point and complex arrays can be watched",
                expected="a float or complex array",
                got=f"dtype {x.dtype}",
                fix="Cast it first, e.g. x.astype('float32').",
            )
            raise NotDifferentiableError(msg)
        if not self.engine.differentiates(x.dtype):
            msg = message(
                f"{self.name}'s autodiff engine cannot differentiate {x.dtype}",
                expected="a float16/float32/float64 or complex array",
                got=f"dtype {x.dtype}",
                fix="Compute in float32 (x.astype('float32')) and cast the result.",
            )
            raise UnsupportedDtypeError(msg)
        key = id(x)
        ref = _WATCHED.get(key)
        leaf = None if ref is None else ref()
        if leaf is not None and leaf._node is None and leaf._v is x:
            return leaf
        leaf = cls(x)
        _WATCHED[key] = weakref.ref(leaf, _forget(key))
        return leaf

    def detach(self, x: Any) -> Any:
        """A tape tensor's framework array (``t.detach()``); an array as it is."""
        return _value(x)

    def to_numpy(self, x: Any) -> Any:
        import numpy as np

        out = np.array(_value(x), copy=True)
        if out.dtype.name == "bfloat16":  # ml_dtypes' type: float32 holds it exactly
            out = out.astype(np.float32)
        return out

    def namespace(self) -> Any:
        return tape.namespace_for(self.tensor_cls)

    def lift(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        cls = self.tensor_cls

        @functools.wraps(fn)
        def lifted(*args: Any, **kwargs: Any) -> Any:
            return record_call(cls, fn, args, kwargs, compile_eager=True)

        return lifted
