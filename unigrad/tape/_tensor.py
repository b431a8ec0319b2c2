"""Tape tensors and nodes: values plus a record of the pure functions that made them.

A `Tensor` holds a framework array (``_value``, pending until it is needed: see
``_lazy``) and, unless it is a leaf, the `Node` that produced it. A node is a pure
function of its parents' values (``fn``), the parents (tape tensors, or plain arrays
that enter as constants), and a hashable ``key`` that identifies the function up to its
parents' values: the op plus every static argument. Nodes point at their outputs only
weakly, so a graph is a DAG of plain references that dies with its last tensor.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .._errors import BackendError, InplaceModifiedError, TapeError, message
from ..contract import full_range
from . import _lazy
from ._array_object import ArrayObject
from ._engine import is_inexact as _inexact

if TYPE_CHECKING:
    from ._engine import Engine

__all__ = ["JaxTensor", "Node", "NumpyTensor", "Tensor", "constants", "record", "record_call"]


class Node:
    """One recorded step: ``fn(*parent_values)`` returns a tuple of ``n_out`` arrays.

    ``saved`` pairs each NumPy array the step read that the tape does not own (a
    watched array, a constant operand) with a copy taken when the step was recorded:
    NumPy has no version counter, so `check_saved` compares them before a
    gradient recomputes the step (torch's "modified by an inplace operation").
    """

    __slots__ = (
        "__weakref__",
        "carried_at",
        "carries",
        "consumed",
        "consumed_at",
        "fn",
        "key",
        "n_out",
        "outs",
        "parents",
        "saved",
        "serial",
    )

    def __init__(
        self, fn: Callable[..., Any], key: Any, parents: tuple[Any, ...], n_out: int
    ) -> None:
        self.fn: Callable[..., Any] | None = fn
        self.key = key
        self.parents: tuple[Any, ...] = parents
        self.n_out = n_out
        self.consumed = False
        #: The stamp of the pass that consumed it (`unigrad.contract._carried`).
        self.consumed_at = 0
        #: A create_graph result's node: the forward nodes it carries (rule 6) and the
        #: stamp it was made at; None for every other node.
        self.carries: tuple[Node, ...] | None = None
        self.carried_at = 0
        #: Weak references to the outputs of a multi-output node recorded pending: a
        #: consumed graph must compute the ones still held (``_lazy``).
        self.outs: tuple[weakref.ref[Any], ...] = ()
        self.saved = _snapshots(parents)
        #: When the node was recorded (`recorded_before_step`).
        self.serial = _next_serial()

    def __repr__(self) -> str:
        op = self.key[0] if isinstance(self.key, tuple) and self.key else self.key
        name = getattr(op, "__name__", op)
        state = ", consumed" if self.consumed else ""
        return f"<unigrad tape node {name}{state}>"


_next_serial = itertools.count().__next__

#: Per thread: the serial at which the `unigrad.jit` step being traced began (a stack).
_STEP_STARTS = threading.local()


class tracing_step:  # (a context manager, named as one)
    """Marks the nodes recorded from now on as the traced step's own."""

    __slots__ = ()

    def __enter__(self) -> None:
        starts = getattr(_STEP_STARTS, "stack", None)
        if starts is None:
            starts = _STEP_STARTS.stack = []
        starts.append(_next_serial())

    def __exit__(self, *exc: object) -> None:
        _STEP_STARTS.stack.pop()


def in_traced_step() -> bool:
    """Whether this thread is tracing a `unigrad.jit` step (jax's values are abstract)."""
    return bool(getattr(_STEP_STARTS, "stack", None))


def recorded_before_step(nodes: Sequence[Node]) -> bool:
    """Whether a `unigrad.jit` step is being traced and one of ``nodes`` was recorded
    before it began (outside the step: its graph outlives the trace)."""
    starts = getattr(_STEP_STARTS, "stack", None)
    if not starts:
        return False
    start = starts[-1]
    return any(n.serial < start for n in nodes)


_ndarray: Any = None  # numpy.ndarray, once a node exists

#: ``id -> weak reference`` of the tensors made by a full-range index of another
#: (``x[0:n]``, ``x[...]``): refused as inputs or cuts, as on paddle
#: (`unigrad.contract._slices`). (Not a WeakSet: it compares tensors with ``==``.)
_FULL_SLICES: dict[int, weakref.ref[Any]] = {}


def is_full_slice(t: Any) -> bool:
    """Whether ``t`` was made by a full-range index of another tensor and requires
    grad."""
    ref = _FULL_SLICES.get(id(t))
    return ref is not None and t._node is not None and ref() is t


def _mark_full_slice(t: Any) -> None:
    key = id(t)

    def forget(ref: weakref.ref[Any]) -> None:
        if _FULL_SLICES.get(key) is ref:
            del _FULL_SLICES[key]

    _FULL_SLICES[key] = weakref.ref(t, forget)


def any_full_slices() -> bool:
    return bool(_FULL_SLICES)


#: The nodes of full-range slices: no pass consumes them. paddle gives such a slice no
#: node of its own (it is its source to paddle's autograd), so nothing there can be
#: consumed, and torch's node for it saves nothing (semantics, rule 17).
KEPT_NODES: weakref.WeakSet[Node] = weakref.WeakSet()


def _snapshots(parents: tuple[Any, ...]) -> tuple[tuple[Any, Any], ...]:
    """(array, copy) for every writeable NumPy array among the parents' values.

    Values the tape computed are read-only (`Tensor._make`), so what is left is
    the user's: watched arrays and constant operands. jax arrays are immutable.
    """
    nd = _ndarray
    if nd is None:  # the first node: numpy is imported (by jax or autograd) by now
        nd = _track_numpy()
    out: tuple[tuple[Any, Any], ...] = ()
    for p in parents:
        # a pending tensor's value will be the tape's own (read-only): nothing to save
        v = p._v if isinstance(p, Tensor) else p
        if type(v) is nd and v.flags.writeable:
            verified = getattr(_VERIFIED, "pairs", None)
            pair = None if verified is None else verified.get(id(v))
            out += (_snapshot(v) if pair is None or pair[0] is not v else pair,)
    return out


#: id(array) -> (weak reference to the array, weak reference to its latest snapshot).
#: A step reads the same watched arrays (a layer's weight, a batch) in several nodes; a
#: node that reads an array equal to its latest snapshot shares that copy (one
#: comparison instead of a new copy: the copy is then a snapshot of now, exactly).
_LATEST: dict[int, tuple[Any, Any]] = {}
_LATEST_MAX = 256


def _snapshot(v: Any) -> tuple[Any, Any]:
    """``(v, copy of v)``, sharing the latest copy of ``v`` when ``v`` still equals it."""
    entry = _LATEST.get(id(v))
    if entry is not None:
        copy = entry[1]()
        if (
            copy is not None
            and entry[0]() is v
            and copy.shape == v.shape
            and copy.dtype == v.dtype
            and _equal(v, copy)
        ):
            return (v, copy)
    copy = _copy(v)
    if len(_LATEST) >= _LATEST_MAX:  # a bound; forgetting only costs a copy
        _LATEST.clear()
    _LATEST[id(v)] = (weakref.ref(v), weakref.ref(copy))
    return (v, copy)


#: (shape, dtype) -> copies of large arrays that snapshots recycle: a step reads the same
#: arrays every time, and a fresh copy of a large array is a fresh allocation (pages the
#: kernel maps and zeroes, then unmaps when the step's graph dies). A copy whose only
#: holder is this pool (CPython's reference count) takes the next snapshot.
_POOL: dict[tuple[Any, Any], list[Any]] = {}
_POOL_MIN_BYTES = 1 << 16
_POOL_DEPTH = 8  # copies kept per (shape, dtype)
_POOL_KEYS = 64  # (shape, dtype) pairs kept; beyond, the pool starts over
_POOL_BYTES_MAX = 1 << 28  # what the pool may keep in all (256 MiB)
_POOL_BYTES = [0]


def _free_refcount() -> int:
    """What `_copy` reads for a pooled copy held by nothing but the pool (0: no pool,
    outside CPython)."""
    getrefcount = getattr(sys, "getrefcount", None)
    if getrefcount is None:
        return 0
    bufs = [object()]
    for b in bufs:
        return int(getrefcount(b))
    return 0


def _copy(v: Any) -> Any:
    """``v.copy()``, in a recycled buffer when ``v`` is large and one is free."""
    if v.nbytes < _POOL_MIN_BYTES or not _FREE or v.dtype.kind not in "biufc":
        return v.copy()
    key = (v.shape, v.dtype)
    bufs = _POOL.get(key)
    if bufs is None:
        if len(_POOL) >= _POOL_KEYS:
            _POOL.clear()
            _POOL_BYTES[0] = 0
        bufs = _POOL[key] = []
    for b in bufs:  # (the loop variable holds b: another thread cannot take it too)
        if sys.getrefcount(b) <= _FREE:
            b[...] = v
            return b
    copy = v.copy()
    if len(bufs) < _POOL_DEPTH and _POOL_BYTES[0] + copy.nbytes <= _POOL_BYTES_MAX:
        bufs.append(copy)
        _POOL_BYTES[0] += copy.nbytes
    return copy


_FREE = _free_refcount()


#: Per thread: a boolean buffer reused by `_equal`, so that comparing a large array
#: does not allocate (and fault in) a fresh result array each time.
_SCRATCH = threading.local()
_SCRATCH_MAX = 1 << 22  # elements; larger arrays are compared with a fresh result


#: Arrays up to this many bytes are compared by their bytes first (`_equal`).
_BYTES_MAX = 1 << 16


def _equal(arr: Any, copy: Any) -> bool:
    """Whether ``arr`` still holds what ``copy`` saved (NaNs equal)."""
    # A small numeric array: equal bytes are equal values (a NaN equals itself here, as
    # with equal_nan), twenty times faster than a NumPy comparison of a few elements.
    # Bytes that differ may still be equal values (0.0 and -0.0, two NaN payloads): the
    # comparisons below decide those.
    if (
        copy.nbytes <= _BYTES_MAX
        and arr.shape == copy.shape
        and arr.dtype == copy.dtype
        and copy.dtype.kind in "biufc"
        and arr.tobytes() == copy.tobytes()
    ):
        return True
    import numpy as np

    # plain equality first: ten times faster than equal_nan=True, which is only
    # needed when the arrays differ somewhere (same answer either way)
    if _plain_equal(np, arr, copy):
        return True
    return bool(np.array_equal(arr, copy, equal_nan=True))


def _plain_equal(np: Any, arr: Any, copy: Any) -> bool:
    n = copy.size
    if arr.shape != copy.shape or copy.dtype.kind not in "biufc" or not 0 < n <= _SCRATCH_MAX:
        return bool(np.array_equal(arr, copy))
    buf = getattr(_SCRATCH, "buf", None)
    if buf is None or buf.size < n:
        buf = _SCRATCH.buf = np.empty(n, dtype=bool)
    out = buf[:n].reshape(copy.shape)
    np.equal(arr, copy, out=out)
    return bool(out.all())


#: Per thread, while `sharing_snapshots` is active: id(array) -> (array, copy) pairs
#: that `check_saved` has just found equal.
_VERIFIED = threading.local()


class sharing_snapshots:  # (a context manager, named as one)
    """Nodes recorded inside reuse the snapshots of ``nodes`` instead of copying again.

    For the nodes of a ``create_graph`` gradient, recorded by the same ``grad`` call that
    has just compared ``nodes``' snapshots with their arrays (`check_saved`): an array
    equal to its copy then is unchanged since, so the copy is a snapshot of now.
    (A class rather than a generator: it is entered on every ``create_graph`` call.)
    """

    __slots__ = ("pairs",)

    def __init__(self, nodes: Sequence[Node]) -> None:
        self.pairs = {id(pair[0]): pair for node in nodes for pair in node.saved}

    def __enter__(self) -> None:
        if self.pairs:
            _VERIFIED.pairs = self.pairs

    def __exit__(self, *exc: object) -> None:
        if self.pairs:
            _VERIFIED.pairs = None


def check_saved(nodes: Sequence[Node]) -> None:
    """Raise `InplaceModifiedError` if an array a node read changed since."""
    seen: set[int] = set()
    for node in nodes:
        for arr, copy in node.saved:
            if id(copy) in seen:  # a snapshot shared by two nodes (`sharing_snapshots`)
                continue
            seen.add(id(copy))
            if not _equal(arr, copy):
                msg = message(
                    "an array used by the forward pass was modified in place",
                    expected="watched arrays and constant operands unchanged between "
                    "the forward pass and the gradient",
                    got=f"an in-place change of a {arr.dtype} array of shape {arr.shape}",
                    fix="Use out-of-place updates (w = w - lr * g), or copy the array "
                    "before modifying it, or recompute the forward pass.",
                )
                raise InplaceModifiedError(msg)


def _owned(value: Any) -> Any:
    """A value the tape computed, as the tensor keeps it: a NumPy array becomes a
    read-only view, so that an in-place change through ``t.value`` / ``t.detach()``
    fails at once (the op's own result object stays as it was, in case a lifted
    function returned a user's array)."""
    if type(value) is _ndarray:
        value = value.view()
        value.flags.writeable = False
    return value


def _track_numpy() -> Any:
    """The NumPy array type, remembered for `_snapshots` and `Tensor._make`."""
    global _ndarray
    import numpy as np

    _ndarray = np.ndarray
    return np.ndarray


#: Tokens for keys that must never match another: never reused, unlike id().
fresh_token = itertools.count().__next__


def _skey(v: Any) -> Any:
    """A hashable key for a static argument (type included: 1 == 1.0 == True).

    Keys select compiled functions from caches that outlive the argument, so equal keys
    must mean equal values. Containers are keyed by content; an opaque unhashable object
    (which may be mutated between calls) gets a fresh token: never a cache hit.
    """
    if isinstance(v, slice):
        return (slice, _skey(v.start), _skey(v.stop), _skey(v.step))
    if isinstance(v, (tuple, list)):
        return (type(v), tuple(_skey(e) for e in v))
    if isinstance(v, dict):
        return (dict, tuple((_skey(k), _skey(e)) for k, e in v.items()))
    try:
        hash(v)
    except TypeError:
        return ("unhashable", fresh_token())
    return (type(v), v)


def _is_tensor(v: Any) -> bool:
    return isinstance(v, Tensor)


def _wrong_engine(cls: type[Tensor], v: Tensor) -> BackendError:
    msg = message(
        "one computation mixes tape tensors of two frameworks",
        expected=f"{cls.__unigrad_backend__} tape tensors only",
        got=f"a {type(v).__unigrad_backend__} tape tensor",
        fix="Convert one side first (unigrad.to_numpy gives a host copy).",
    )
    return BackendError(msg)


def _wrap_outputs(
    cls: type[Tensor],
    node_fn: Callable[..., Any],
    key: Any,
    parents: tuple[Any, ...],
    out: Any,
) -> Any:
    engine = cls._engine
    if engine.is_array(out):
        value = engine.canon(out)
        if not _inexact(value.dtype):
            return cls._constant(value)

        def fn1(*vals: Any) -> tuple[Any, ...]:
            return (node_fn(*vals),)

        node = Node(fn1, key, parents, 1)
        return cls._make(value, node, 0)
    leaves, treedef = engine.flatten(out, engine.is_array)

    def fnn(*vals: Any) -> tuple[Any, ...]:
        return tuple(engine.flatten(node_fn(*vals), engine.is_array)[0])

    node = Node(fnn, key, parents, len(leaves))
    wrapped = []
    for i, v in enumerate(leaves):
        if engine.is_array(v):
            v = engine.canon(v)
            wrapped.append(cls._make(v, node, i) if _inexact(v.dtype) else cls._constant(v))
            continue
        wrapped.append(v)
    return engine.unflatten(treedef, wrapped)


def _spec_of(engine: Engine, out: Any) -> Any:
    """What a deferred call of the same signature returns (see ``_lazy``), or EAGER."""
    if engine.is_array(out):
        a = engine.aval(engine.canon(out))
        return _lazy.EAGER if a is None else ("one", a)
    leaves, treedef = engine.flatten(out, engine.is_array)
    avals = []
    for v in leaves:
        a = engine.aval(engine.canon(v)) if engine.is_array(v) else None
        if a is None:
            return _lazy.EAGER
        avals.append(a)
    return ("tree", treedef, tuple(avals))


def emit(cls: type[Tensor], node_fn: Callable[..., Any], key: Any, parents: tuple[Any, ...]) -> Any:
    """The result of ``node_fn(*parents)`` as tape tensors, deferred when the call's
    output spec is known (``_lazy``), else computed now."""
    engine = cls._engine
    sig = _lazy.signature(engine, key, parents, cls)
    spec = None if sig is None else _lazy.spec_for(sig)
    if spec is None or spec is _lazy.EAGER:
        _lazy.materialize(cls, [p for p in parents if isinstance(p, Tensor)])
        out = node_fn(*[p._v if isinstance(p, Tensor) else p for p in parents])
        if sig is not None:
            _lazy.remember(sig, _spec_of(engine, out))
        return _wrap_outputs(cls, node_fn, key, parents, out)
    if spec[0] == "one":

        def fn1(*vals: Any) -> tuple[Any, ...]:
            return (node_fn(*vals),)

        return cls._pending(Node(fn1, key, parents, 1), 0, spec[1])
    _, treedef, avals = spec

    def fnn(*vals: Any) -> tuple[Any, ...]:
        return tuple(engine.flatten(node_fn(*vals), engine.is_array)[0])

    node = Node(fnn, key, parents, len(avals))
    outs = [cls._pending(node, i, a) for i, a in enumerate(avals)]
    node.outs = tuple(weakref.ref(t) for t in outs)
    return engine.unflatten(treedef, outs)


def _classify(
    cls: type[Tensor], engine: Engine, items: Sequence[Any], scalars: bool = False
) -> tuple[list[Any], list[int], list[Any], int]:
    """Split a call's arguments: array parents (tape tensors and plain arrays) with their
    positions, static values with their cache keys, and whether any tape tensor is there
    (0: none, 1: constants only, 2: one that requires grad).

    With ``scalars``, Python numbers (not bools) are parents too (constants of the rebuilt
    function, not part of its cache key): see `record`.
    """
    parents: list[Any] = []
    slots: list[int] = []
    statics: list[Any] = []
    tracked = 0
    for i, a in enumerate(items):
        if isinstance(a, Tensor):
            if not isinstance(a, cls):
                raise _wrong_engine(cls, a)
            if a._index >= 0:
                tracked = 2
                parents.append(a)
            else:  # a constant enters by its current value: later assignment is not seen
                tracked = max(tracked, 1)
                parents.append(a._value)
            slots.append(i)
        elif engine.is_array(a) or (scalars and type(a) in _TRACED_SCALARS):
            parents.append(a)
            slots.append(i)
        else:
            statics.append((i, _skey(a)))
    return parents, slots, statics, tracked


def constants(cls: type[Tensor], out: Any) -> Any:
    """Every framework array in ``out`` as a constant tape tensor (no history)."""
    engine = cls._engine
    if engine.is_array(out):
        return cls._constant(engine.canon(out))
    if isinstance(out, tuple) and hasattr(out, "_fields"):
        return type(out)(*(constants(cls, v) for v in out))
    if type(out) in (list, tuple):
        return type(out)(constants(cls, v) for v in out)
    return out


#: Operator operands passed to a compiled replay as (weakly typed) arguments rather than
#: baked into it: ``x * lr`` or ``x + step`` with a new value every step does not
#: recompile. Not bools, and not an int exponent (``x ** 3`` is exact repeated
#: multiplication only with a static exponent): see `record`.
_TRACED_SCALARS = (float, complex, int)
_INT_STATIC_OPS = frozenset({"power", "rpower", "float_power", "rfloat_power"})


def record(cls: type[Tensor], op: Callable[..., Any], *args: Any) -> Any:
    """Record ``op(*args)`` for flat positional arguments (the operators' fast path).

    On a compiling engine, Python number operands are constants of the rebuilt function
    (jax traces them weakly typed, so dtypes are as in eager mode), so a value that
    changes every step reuses the compiled function; an int exponent stays static.
    """
    engine = cls._engine
    scalars = engine.compiles and not (
        getattr(op, "__name__", "") in _INT_STATIC_OPS and any(type(a) is int for a in args)
    )
    parents, slots, statics, tracked = _classify(cls, engine, args, scalars)
    if not tracked:
        return op(*args)
    if not statics:
        fn = op
        key: Any = (op, len(args))
    else:
        template = list(args)
        for i in slots:
            template[i] = None
        slots_t = tuple(slots)

        def fn(*pv: Any) -> Any:
            full = template.copy()
            for i, v in zip(slots_t, pv, strict=True):
                full[i] = v
            return op(*full)

        key = (op, len(args), tuple(statics))
    if tracked == 1:  # constants only: compute, record nothing
        return constants(cls, fn(*parents))
    return emit(cls, fn, key, tuple(parents))


def record_call(
    cls: type[Tensor],
    op: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    compile_eager: bool = False,
) -> Any:
    """Record ``op(*args, **kwargs)``, where tape tensors may sit anywhere in pytrees."""
    engine = cls._engine
    if not compile_eager and _flat(engine, args, kwargs):
        return _record_flat(cls, op, args, kwargs)
    leaves, treedef = engine.flatten((args, kwargs), _is_tensor)
    parents, slots, statics, tracked = _classify(cls, engine, leaves)
    if not tracked:
        return op(*args, **kwargs)
    template = list(leaves)
    for i in slots:
        template[i] = None
    slots_t = tuple(slots)

    def fn(*pv: Any) -> Any:
        full = template.copy()
        for i, v in zip(slots_t, pv, strict=True):
            full[i] = v
        a, k = engine.unflatten(treedef, full)
        return op(*a, **k)

    key = (op, treedef, tuple(statics), slots_t)
    if compile_eager and engine.compiles:
        fn = _compiled(engine, key, fn)
    if tracked == 1:  # constants only: compute, record nothing
        return constants(cls, fn(*parents))
    return emit(cls, fn, key, tuple(parents))


#: Static arguments that are certainly not containers (pytree nodes) of arrays.
_SCALARS = frozenset({int, float, bool, complex, str, type(None), slice})


def _flat(engine: Engine, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether no argument is a container: the pytree flattening can be skipped."""
    for a in args:
        if type(a) not in _SCALARS and not isinstance(a, Tensor) and not engine.is_array(a):
            return False
    for v in kwargs.values():
        if type(v) not in _SCALARS and not (
            type(v) is tuple and all(type(e) in _SCALARS for e in v)
        ):
            return False
    return True


def _record_flat(
    cls: type[Tensor], op: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    """`record_call` without the pytree: every argument is an array or a static
    (Python numbers included: a namespace function's numbers may have to be static,
    an axis, unlike an operator's operands)."""
    parents, slots, statics, tracked = _classify(cls, cls._engine, args)
    if not tracked:
        return op(*args, **kwargs)
    if not statics and not kwargs:  # arrays only: the op itself is the function
        if tracked == 1:
            return constants(cls, op(*parents))
        return emit(cls, op, (op, len(args), (), ()), tuple(parents))
    template = list(args)
    for i in slots:
        template[i] = None
    slots_t = tuple(slots)
    kw = dict(kwargs)

    def fn(*pv: Any) -> Any:
        full = template.copy()
        for i, v in zip(slots_t, pv, strict=True):
            full[i] = v
        return op(*full, **kw)

    key = (op, len(args), tuple(statics), _skey(kw) if kw else ())
    if tracked == 1:  # constants only: compute, record nothing
        return constants(cls, fn(*parents))
    return emit(cls, fn, key, tuple(parents))


_COMPILED: OrderedDict[Any, Callable[..., Any]] = OrderedDict()
_COMPILED_MAX = [32]  # set by unigrad.tape.set_cache_size


def set_lift_cache_size(n: int) -> None:
    """Bound the compiled functions ``unigrad.lift`` keeps (least recently used go)."""
    _COMPILED_MAX[0] = n
    while len(_COMPILED) > n:
        _COMPILED.popitem(last=False)


def _compiled(engine: Engine, key: Any, fn: Callable[..., Any]) -> Callable[..., Any]:
    try:
        hit = _COMPILED.get(key)
    except TypeError:
        return engine.jit(fn)
    if hit is not None:
        with contextlib.suppress(KeyError):  # another thread may have evicted it
            _COMPILED.move_to_end(key)
        return hit
    hit = engine.jit(fn)
    if _COMPILED_MAX[0]:
        _COMPILED[key] = hit
        while len(_COMPILED) > _COMPILED_MAX[0]:
            with contextlib.suppress(KeyError):
                _COMPILED.popitem(last=False)
    return hit


# ---- operator helpers: module-level so that node keys are stable ----------------
def _getitem(x: Any, idx: Any) -> Any:
    return x[idx]


_STATIC_INDEX = frozenset({int, type(None), type(Ellipsis)})


def _static_index(idx: tuple[Any, ...]) -> bool:
    """Whether an index tuple holds only ints, None, ``...`` and slices of ints."""
    for e in idx:
        t = type(e)
        if t is slice:
            if not (
                type(e.start) in _STATIC_INDEX
                and type(e.stop) in _STATIC_INDEX
                and type(e.step) in _STATIC_INDEX
            ):
                return False
        elif t not in _STATIC_INDEX:
            return False
    return True


class _StaticIndex:
    """The tag of an index tuple's key in `_record_static_index` (never instantiated, so
    no key `_skey` makes carries it)."""


def _record_static_index(cls: type[Tensor], x: Tensor, idx: tuple[Any, ...]) -> Any:
    """``x[idx]`` for an index that `_static_index` accepts, keyed by the index itself.

    Its elements are exactly ints (not bools), None, ``...`` and slices of those, so a
    slice written as its ``(start, stop, step)`` is told apart from every other element,
    and equal keys are equal indices. The key is laid out as `_record_flat`'s (the
    index is argument 1), under a tag of its own.
    """
    if x._index < 0:  # a constant: compute, record nothing
        return constants(cls, x._value[idx])
    skey = tuple((e.start, e.stop, e.step) if type(e) is slice else e for e in idx)

    def fn(v: Any) -> Any:
        return v[idx]

    return emit(cls, fn, (_getitem, 2, ((1, (_StaticIndex, skey)),), ()), (x,))


def _is_mask(v: Any) -> bool:
    dtype = getattr(v, "dtype", None)
    return dtype is not None and getattr(v, "ndim", 0) > 0 and str(dtype) == "bool"


def _integer_masks(idx: Any) -> Any:
    """A concrete boolean mask in an index as the integer indices it selects.

    ``x[mask]`` is documented for tape tensors, but the rebuilt function is traced
    (``jax.jit``), where a boolean mask has no static shape. Its ``nonzero`` indices are
    integer arrays, which trace. A tape tensor used as a mask (``x[x > 0]``) has a
    concrete value outside a compiled step (a comparison runs eagerly): its value is
    read the same way. A mask that is itself a tracer (inside `unigrad.jit` or the
    caller's ``jax.jit``) is left alone, and the trace raises (`unigrad.jit`: a
    `CompiledStepError`, as for any value read while tracing).
    """
    items = idx if isinstance(idx, tuple) else (idx,)
    if not any(_is_mask(i) for i in items):
        return idx
    import numpy as np

    out: list[Any] = []
    for i in items:
        if _is_mask(i):
            try:
                host = np.asarray(i._value if isinstance(i, Tensor) else i)
            except Exception:  # a tracer under a jit: keep the mask
                out.append(i)
                continue
            out.extend(np.nonzero(host))
        else:
            out.append(i)
    return tuple(out)


def _transpose_T(x: Any) -> Any:
    return x.T


def _mT(x: Any) -> Any:
    return x.swapaxes(-1, -2)


def _astype(x: Any, dtype: Any) -> Any:
    return x.astype(dtype)


def _reshape(x: Any, shape: Any) -> Any:
    return x.reshape(shape)


def _rev(op: Callable[..., Any]) -> Callable[..., Any]:
    def rop(a: Any, b: Any) -> Any:
        return op(b, a)

    rop.__name__ = f"r{getattr(op, '__name__', 'op')}"
    return rop


_REV_CACHE: dict[Any, Callable[..., Any]] = {}


def _reverse(op: Callable[..., Any]) -> Callable[..., Any]:
    r = _REV_CACHE.get(op)
    if r is None:
        r = _REV_CACHE[op] = _rev(op)
    return r


#: (engine name, function name) -> the function an operator records (`_operator`).
_OPERATORS: dict[tuple[str, str], Callable[..., Any]] = {}


def _operator(cls: type[Tensor], name: str) -> Callable[..., Any]:
    """The engine's function ``name`` as an operator records it.

    Every recorded op's key is hashed a few times per step (the output spec cache, the
    compiled-function cache). ``jax.numpy``'s ufuncs (``jnp.add``, ...) hash in Python,
    ~0.8 us each: on jax an operator records a plain function calling the ufunc (same
    name, same result), which hashes by identity. autograd's functions hash cheaply and
    run on every pass, so numpy's are recorded as they are.
    """
    engine = cls._engine
    op = _OPERATORS.get((engine.name, name))
    if op is None:
        fn = getattr(engine.np, name)
        if (engine.name, name) == ("numpy", "abs"):
            # the namespace's abs, differentiated through sign (rule 14: its gradient is
            # a constant; autograd's own reads x / |x|)
            from .._array_api import _autograd

            fn = _autograd.build().abs
        op = fn
        hash_of: Any = type(fn).__hash__
        if engine.compiles and hash_of is not object.__hash__:

            def op(*args: Any) -> Any:
                return fn(*args)

            op.__name__ = op.__qualname__ = name
        _OPERATORS[(engine.name, name)] = op
    return op


_PLAIN_OPERANDS = (int, float, complex, bool)


def _check_operand(cls: type[Tensor], other: Any, name: str) -> None:
    """Refuse another framework's tensor as an operator's operand (torch and paddle
    tensors would be converted through NumPy, or fail with the framework's own error).
    Plain arrays of the tape's framework, and NumPy arrays, stay accepted."""
    if isinstance(other, (Tensor, *_PLAIN_OPERANDS)) or cls._engine.is_array(other):
        return
    from .._dispatch import owner

    be = owner(other)
    if be is None or be.name in ("jax", "numpy"):
        return
    mine = cls.__unigrad_backend__
    msg = message(
        f"the operator {name!r} mixes two frameworks",
        expected=f"operands of one framework ({mine} tape tensors, {mine} arrays or "
        f"Python numbers)",
        got=f"a {mine} tape tensor and a {be.name} tensor "
        f"({type(other).__module__}.{type(other).__qualname__})",
        fix="Convert one side first: unigrad.to_numpy(t) gives a host copy, from which "
        "the other framework makes its tensor.",
    )
    raise BackendError(msg)


def _binop(name: str) -> Callable[[Tensor, Any], Any]:
    def method(self: Tensor, other: Any) -> Any:
        cls = type(self)
        _check_operand(cls, other, name)
        return record(cls, _operator(cls, name), self, other)

    method.__name__ = f"__{name}__"
    return method


def _rbinop(name: str) -> Callable[[Tensor, Any], Any]:
    def method(self: Tensor, other: Any) -> Any:
        cls = type(self)
        _check_operand(cls, other, name)
        return record(cls, _reverse(_operator(cls, name)), self, other)

    method.__name__ = f"__r{name}__"
    return method


def _unop(name: str) -> Callable[[Tensor], Any]:
    def method(self: Tensor) -> Any:
        cls = type(self)
        return record(cls, _operator(cls, name), self)

    method.__name__ = f"__{name}__"
    return method


def _value_of(v: Any) -> Any:
    return v._value if isinstance(v, Tensor) else v


_NO_CONVERSION = message(
    "a tape tensor cannot be converted to a plain array implicitly",
    expected="an explicit conversion, which drops the tensor's history",
    got="an implicit one (np.asarray, jnp.asarray, __array__)",
    fix="Use unigrad.to_numpy(t) for a host copy, or t.detach() (or t.value) for the "
    "framework array; write the computation with operators, unigrad.namespace(t) or "
    "unigrad.lift(fn) to keep it differentiable.",
)

_METHOD_ALIASES = {"flatten": "ravel"}


def _np_diagonal(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """``x.diagonal(...)`` (NumPy's method: axes 0 and 1 by default) through the numpy
    tape's differentiable diagonal: autograd's own VJP supports only the last two axes."""
    import autograd.numpy as anp

    from .._array_api._autograd import _Prims

    return _Prims(anp).diagonal(x, offset, axis1, axis2)


#: Methods an engine's own function cannot differentiate: (engine, name) -> function.
_ENGINE_METHODS: dict[tuple[str, str], Callable[..., Any]] = {("numpy", "diagonal"): _np_diagonal}


class Tensor(ArrayObject):
    """A value of jax or numpy with the tape history that made it.

    Created by `unigrad.watch` (a leaf) and by every recorded operation on tape
    tensors. Supports the Python operators, indexing, ``.T``, ``.shape``, ``.dtype``,
    ``.ndim``, the framework's array methods (``sum``, ``mean``, ``reshape``, ...),
    and `unigrad.namespace` for everything else. Converting to a plain array is
    explicit: `detach` (or `value`) and `unigrad.to_numpy`.

    Examples:
        >>> import numpy as np, unigrad
        >>> x = unigrad.watch(np.array([1.0, 2.0]))
        >>> y = (x * x).sum()
        >>> unigrad.grad(y, x)
        (array([2., 4.]),)
    """

    __slots__ = ("__weakref__", "_aval", "_index", "_node", "_v", "grad")
    __unigrad_backend__: ClassVar[str] = "?"
    _engine: ClassVar[Engine]
    __array_priority__ = 1_000_000

    def __init__(self, value: Any) -> None:
        """Prefer `unigrad.watch`: this makes a leaf holding ``value``."""
        self._v: Any = value  # None while pending (see ``_lazy``)
        self._aval: Any = self._engine.describe(value)  # (shape, dtype, weak_type)
        self._node: Node | None = None
        self._index = 0
        self.grad: Any = None

    @classmethod
    def _make(cls, value: Any, node: Node | None, index: int) -> Tensor:
        t = cls.__new__(cls)
        t._v = _owned(value)
        t._aval = cls._engine.describe(value)
        t._node = node
        t._index = index
        t.grad = None
        return t

    @classmethod
    def _pending(cls, node: Node, index: int, aval: Any) -> Tensor:
        t = cls.__new__(cls)
        t._v = None
        t._aval = aval
        t._node = node
        t._index = index
        t.grad = None
        return t

    @classmethod
    def _constant(cls, value: Any) -> Tensor:
        """A tensor without history that does not require grad (index -1 marks it)."""
        return cls._make(value, None, -1)

    def _store(self, value: Any) -> None:
        """Give a pending tensor the value the tape computed for it."""
        self._v = _owned(type(self)._engine.canon(value))

    @property
    def _value(self) -> Any:
        """The framework array, computed now if it is pending."""
        if self._v is None:
            _lazy.materialize(type(self), (self,))
        return self._v

    @_value.setter
    def _value(self, value: Any) -> None:  # a constant's assignment (x[key] = v)
        self._v = value
        self._aval = type(self)._engine.describe(value)

    # ---- explicit conversion --------------------------------------------------
    @property
    def value(self) -> Any:
        """The framework array (a ``jax.Array`` / ``numpy.ndarray``), cut from unigrad's
        tape. Under a caller's ``jax.grad`` / ``jax.jit`` / ``jax.vmap`` it is the
        caller's tracer, still differentiable by the caller (`unigrad.detach` cuts
        both)."""
        return self._value

    def detach(self) -> Any:
        """The framework array, cut from unigrad's tape (as `value`: under a caller's
        jax transformation still a value of its trace; `unigrad.detach` cuts both)."""
        return self._value

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        if self.requires_grad:
            raise TapeError(_NO_CONVERSION)
        import numpy as np

        return np.asarray(self._value, *args, **kwargs)

    # ---- autograd attributes --------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        """Whether gradients flow to this tensor: False only for constants.

        A watched leaf and every floating or complex result computed from one require
        grad. Integer and bool results, and the arrays that the namespace creates from
        plain data (``xp.asarray``, ``xp.zeros``, ...), are constants: no history, no
        gradient, and they convert to plain arrays freely.
        """
        return self._index >= 0

    @property
    def is_leaf(self) -> bool:
        """Whether the tensor was made by `unigrad.watch` (not by an operation)."""
        return self._node is None

    def backward(
        self,
        gradient: Any = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Any = None,
    ) -> None:
        """``unigrad.backward(self, gradient, ...)``: accumulate into leaves' ``.grad``."""
        from .._grad import backward

        backward(self, gradient, retain_graph, create_graph, inputs)

    # ---- metadata ---------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._aval[0])

    @property
    def dtype(self) -> Any:
        return self._aval[1]

    @property
    def ndim(self) -> int:
        return len(self._aval[0])

    @property
    def size(self) -> int:
        return math.prod(self._aval[0])

    def __len__(self) -> int:
        shape = self._aval[0]
        if not shape:
            msg = "len() of unsized object"
            raise TypeError(msg)
        return int(shape[0])

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        kind = "const" if not self.requires_grad else "leaf" if self._node is None else "tape"
        return f"{type(self).__name__}({self._value!r}, {kind})"

    # scalar conversions are explicit calls: they drop the history knowingly. One rule
    # (torch's): the one element of a one-element tensor of any rank (docs/tape.md)
    def __float__(self) -> float:
        return float(self._element("float"))

    def __int__(self) -> int:
        return int(self._element("int"))

    def __complex__(self) -> complex:
        return complex(self._element("complex"))

    def __bool__(self) -> bool:
        return bool(self._element("bool"))

    __hash__ = object.__hash__

    # ---- recorded views and methods -------------------------------------------
    def __getitem__(self, idx: Any) -> Any:
        cls = type(self)
        if type(idx) is tuple and _static_index(idx):  # x[:, 0]: no pytree to walk
            out = _record_static_index(cls, self, idx)
        else:
            out = record_call(cls, _getitem, (self, _integer_masks(idx)), {})
        if (type(idx) is slice or type(idx) is tuple or idx is Ellipsis) and full_range(
            idx, self.shape
        ):
            _mark_full_slice(out)
            if out._node is not None:
                KEPT_NODES.add(out._node)
        return out

    @property
    def T(self) -> Any:
        return record(type(self), _transpose_T, self)

    @property
    def mT(self) -> Any:
        return record(type(self), _mT, self)

    @property
    def real(self) -> Any:
        cls = type(self)
        return record(cls, cls._engine.np.real, self)

    @property
    def imag(self) -> Any:
        cls = type(self)
        return record(cls, cls._engine.np.imag, self)

    def conj(self) -> Any:
        cls = type(self)
        return record(cls, cls._engine.np.conj, self)

    conjugate = conj

    def astype(self, dtype: Any) -> Any:
        return record(type(self), _astype, self, dtype)

    def reshape(self, *shape: Any) -> Any:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return record_call(type(self), _reshape, (self, tuple(shape)), {})

    def transpose(self, *axes: Any) -> Any:
        cls = type(self)
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        if not axes:
            return record(cls, _transpose_T, self)
        return record_call(cls, cls._engine.np.transpose, (self, tuple(axes)), {})

    def __getattr__(self, name: str) -> Any:
        # Array methods (sum, mean, max, clip, cumsum, ...) record the namespace function
        # of the same name with the tensor as first argument.
        if name.startswith("_"):
            raise AttributeError(name)
        cls = type(self)
        fn = _ENGINE_METHODS.get((cls._engine.name, name))
        if fn is None:
            fn = getattr(cls._engine.np, _METHOD_ALIASES.get(name, name), None)
        if fn is None or not callable(fn):
            msg = f"{cls.__name__} has no attribute {name!r}"
            raise AttributeError(msg)

        def method(*args: Any, **kwargs: Any) -> Any:
            return record_call(cls, fn, (self, *args), kwargs)

        method.__name__ = name
        return method

    # ---- operators --------------------------------------------------------------
    __add__ = _binop("add")
    __radd__ = _rbinop("add")
    __sub__ = _binop("subtract")
    __rsub__ = _rbinop("subtract")
    __mul__ = _binop("multiply")
    __rmul__ = _rbinop("multiply")
    __truediv__ = _binop("true_divide")
    __rtruediv__ = _rbinop("true_divide")

    def __floordiv__(self, other: Any) -> Any:
        # the namespace's floor_divide: a real result depends on nothing (rule 14)
        _check_operand(type(self), other, "floor_divide")
        from ._namespace import namespace_for

        return namespace_for(type(self)).floor_divide(self, other)

    def __rfloordiv__(self, other: Any) -> Any:
        _check_operand(type(self), other, "floor_divide")
        from ._namespace import namespace_for

        return namespace_for(type(self)).floor_divide(other, self)

    __mod__ = _binop("mod")
    __rmod__ = _rbinop("mod")
    __pow__ = _binop("power")
    __rpow__ = _rbinop("power")
    __matmul__ = _binop("matmul")
    __rmatmul__ = _rbinop("matmul")
    __neg__ = _unop("negative")
    __pos__ = _unop("positive")
    __abs__ = _unop("abs")

    __and__ = _binop("bitwise_and")
    __rand__ = _rbinop("bitwise_and")
    __or__ = _binop("bitwise_or")
    __ror__ = _rbinop("bitwise_or")
    __xor__ = _binop("bitwise_xor")
    __rxor__ = _rbinop("bitwise_xor")
    __lshift__ = _binop("left_shift")
    __rlshift__ = _rbinop("left_shift")
    __rshift__ = _binop("right_shift")
    __rrshift__ = _rbinop("right_shift")
    __invert__ = _unop("invert")

    # comparisons: bool tensors without history (nothing to differentiate)
    __lt__ = _binop("less")
    __le__ = _binop("less_equal")
    __gt__ = _binop("greater")
    __ge__ = _binop("greater_equal")
    __eq__ = _binop("equal")
    __ne__ = _binop("not_equal")


class JaxTensor(Tensor):
    """A tape tensor over a ``jax.Array`` (it may hold a tracer under ``jax.jit``)."""

    __slots__ = ()
    __unigrad_backend__ = "jax"


class NumpyTensor(Tensor):
    """A tape tensor over a ``numpy.ndarray``, differentiated with HIPS autograd."""

    __slots__ = ()
    __unigrad_backend__ = "numpy"


def _attach_engines() -> None:
    from ._engine import jax_engine, numpy_engine

    JaxTensor._engine = jax_engine
    NumpyTensor._engine = numpy_engine


_attach_engines()
