"""Recording: how an operation on tape tensors becomes a node.

`record` (flat positional arguments: the operators' fast path), `record_call` (tape
tensors anywhere in pytrees, keyword arguments) and `emit` turn ``op(*args)`` into a
`unigrad.tape._node.Node` whose function takes the array arguments (the *parents*) and
whose key is the op plus every static argument (`skey`). The result is deferred when the
call's output spec is known (``_lazy``), else computed now. A call with no tensor that
requires grad records nothing: it computes, and its arrays become constants.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .._errors import BackendError, message
from . import _lazy
from ._caches import CACHES
from ._engine import is_inexact as _inexact
from ._node import Node, TensorBase, fresh_token, in_traced_step

if TYPE_CHECKING:
    from ._engine import Engine
    from ._tensor import Tensor

__all__ = ["constants", "emit", "record", "record_call", "skey", "spec_of", "wrap_outputs"]


def skey(v: Any) -> Any:
    """A hashable key for a static argument (type included: 1 == 1.0 == True).

    Keys select compiled functions from caches that outlive the argument, so equal keys
    must mean equal values. Containers are keyed by content; an opaque unhashable object
    (which may be mutated between calls) gets a fresh token: never a cache hit.
    """
    if isinstance(v, slice):
        return (slice, skey(v.start), skey(v.stop), skey(v.step))
    if isinstance(v, (tuple, list)):
        return (type(v), tuple(skey(e) for e in v))
    if isinstance(v, dict):
        return (dict, tuple((skey(k), skey(e)) for k, e in v.items()))
    try:
        hash(v)
    except TypeError:
        return ("unhashable", fresh_token())
    return (type(v), v)


def _is_tensor(v: Any) -> bool:
    return isinstance(v, TensorBase)


def _wrong_engine(cls: type[Tensor], v: TensorBase) -> BackendError:
    msg = message(
        "one computation mixes tape tensors of two frameworks",
        expected=f"{cls.__unigrad_backend__} tape tensors only",
        got=f"a {type(v).__unigrad_backend__} tape tensor",
        fix="Convert one side first (unigrad.to_numpy gives a host copy).",
    )
    return BackendError(msg)


def wrap_outputs(
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


def spec_of(engine: Engine, out: Any) -> Any:
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
        _lazy.materialize(cls, [p for p in parents if isinstance(p, TensorBase)])
        out = node_fn(*[p._v if isinstance(p, TensorBase) else p for p in parents])
        if sig is not None:
            _lazy.remember(sig, spec_of(engine, out))
        return wrap_outputs(cls, node_fn, key, parents, out)
    if spec[0] == "one":

        def fn1(*vals: Any) -> tuple[Any, ...]:
            return (node_fn(*vals),)

        node = Node(fn1, key, parents, 1)
        out = cls._pending(node, 0, spec[1])
        node.outs = (weakref.ref(out),)
        return out
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
        if isinstance(a, TensorBase):
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
            statics.append((i, skey(a)))
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


def _computed(cls: type[Tensor], fn: Callable[..., Any], parents: list[Any]) -> Any:
    """``fn(*parents)`` of constants only, computed now and recorded nothing.

    Inside a `unigrad.jit` step, with every parent concrete (constants the step made
    from data), it is computed eagerly (`Engine.evaluating`), as plain data is in the
    namespace: its values stay concrete, so ``nonzero`` of a mask the step builds has a
    known size. TensorFlow stages every op inside a ``tf.function``, concrete inputs or
    not, so ``nonzero``'s result had the unknown shape ``(None,)`` and a ``grad`` seed
    of that shape could not be made (seed 7, programs 1 and 58 at 656a2ce). Test:
    test_compile.py::test_a_mask_the_step_closes_over_stays_concrete.
    """
    if in_traced_step():
        with cls._engine.evaluating(parents):
            return constants(cls, fn(*parents))
    return constants(cls, fn(*parents))


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
        return _computed(cls, fn, parents)
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
        fn = _lifted(engine, key, fn)
    if tracked == 1:  # constants only: compute, record nothing
        return _computed(cls, fn, parents)
    return emit(cls, fn, key, tuple(parents))


#: Static arguments that are certainly not containers (pytree nodes) of arrays.
_SCALARS = frozenset({int, float, bool, complex, str, type(None), slice})


def _flat(engine: Engine, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether no argument is a container: the pytree flattening can be skipped."""
    for a in args:
        if type(a) not in _SCALARS and not isinstance(a, TensorBase) and not engine.is_array(a):
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
            return _computed(cls, op, parents)
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

    key = (op, len(args), tuple(statics), skey(kw) if kw else ())
    if tracked == 1:  # constants only: compute, record nothing
        return _computed(cls, fn, parents)
    return emit(cls, fn, key, tuple(parents))


def _lifted(engine: Engine, key: Any, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``unigrad.lift``'s compiled function for ``key`` (the ``lifted`` cache)."""
    lifted = CACHES.lifted
    try:
        hit = lifted.get(key)
    except TypeError:
        return engine.jit(fn)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    hit = engine.jit(fn)
    lifted.put(key, hit)
    return hit
