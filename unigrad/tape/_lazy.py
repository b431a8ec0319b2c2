"""Deferred values: a tape op is recorded before (and usually instead of) being computed.

A step of a training loop records the same ops on arrays of the same shapes every time.
The first time an op is seen with given parent shapes and dtypes it runs eagerly, as
numpy or jax would, and its output *spec* (tree structure, shapes, dtypes) is remembered
under the node's key and its parents' avals. From then on the op is only recorded: the
tensor knows its shape and dtype, and its value is pending.

Pending values are computed in one of two places, never twice:

* inside ``grad``: the rebuilt function computes the forward once, inside the engine's
  VJP, and hands back the values the caller still holds (`held_elsewhere`);
* when a value is read (``float(t)``, ``repr``, ``to_numpy``, a comparison, a constant
  of a ``grad``): `materialize` runs the pending subgraph as one function, on jax
  one ``jax.jit``-compiled function cached by the subgraph's structure.

The specs only say what the op already said on real data, so shape errors are raised by
the first, eager call, at the same call as before. An op whose result is not a float or
complex array (an ``argmax``, a boolean mask, a Python scalar) always runs eagerly: its
value is what the caller gets. On numpy, plain integer or boolean arrays among the
parents (index arrays, masks) may decide the output shape by their values: such calls
run eagerly. So do calls made while numpy raises on floating-point errors
(``np.seterr``) or jax checks for NaNs (``jax_debug_nans``): the error must come from
the op that made it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .._errors import GraphFreedError, message
from ._caches import CACHES
from ._snapshots import check_saved

if TYPE_CHECKING:
    from ._engine import Engine
    from ._tensor import Tensor

__all__ = [
    "EAGER",
    "held_elsewhere",
    "materialize",
    "remember",
    "signature",
    "spec_for",
]

#: The spec of a call that must always run eagerly (a non-float output, ...).
EAGER: Any = ("eager",)

_PY_SCALARS = frozenset({int, float, complex})


def signature(engine: Engine, key: Any, parents: Sequence[Any], tensor_cls: type) -> Any:
    """The spec-cache key of ``key`` applied to ``parents``, or None: compute eagerly."""
    if not engine.defers():
        return None
    avals: list[Any] = []
    for p in parents:
        if isinstance(p, tensor_cls):
            avals.append(p._aval)  # type: ignore[attr-defined]
        elif type(p) in _PY_SCALARS:  # an operand passed in, weakly typed: its type counts
            avals.append(type(p))
        else:
            a = engine.aval(p)
            if a is None:
                return None
            avals.append(a)
    return (key, tuple(avals))


def spec_for(sig: Any) -> Any:
    """The remembered output spec of a signature (the ``specs`` cache), or None."""
    try:
        return CACHES.specs.peek(sig)
    except TypeError:  # an unhashable static in the key: nothing to remember it by
        return None


def remember(sig: Any, spec: Any) -> None:
    """Remember ``spec`` for ``sig`` (an op that always runs eagerly is told once)."""
    specs = CACHES.specs
    try:
        if spec is EAGER and specs.peek(sig) is EAGER:
            return
        specs.put(sig, spec)
    except TypeError:  # an unhashable static in the key: nothing to remember it by
        return


def materialize(cls: type[Tensor], tensors: Sequence[Any]) -> None:
    """Compute the pending values of ``tensors`` as one function of what is known."""
    targets: list[Tensor] = []
    seen_t: set[int] = set()
    for t in tensors:
        if t._v is None and id(t) not in seen_t:
            seen_t.add(id(t))
            targets.append(t)
    if not targets:
        return
    engine = cls._engine
    # post-order over the pending nodes, iteratively (chains may be long)
    base: dict[Any, int] = {}
    order: list[Any] = []
    stack: list[tuple[Any, bool]] = [(t._node, False) for t in targets]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            if node not in base:
                base[node] = -1  # placeholder, numbered below
                order.append(node)
            continue
        if node in base:
            continue
        if node.fn is None:
            raise GraphFreedError(_LOST)
        stack.append((node, True))
        for p in node.parents:
            if isinstance(p, cls) and p._v is None and p._node not in base:
                stack.append((p._node, False))
    check_saved(order)  # an array changed in place since: raise, as grad does
    args: list[Any] = []
    arg_pos: dict[int, int] = {}
    steps = []
    keys = []
    n_slots = 0
    for node in order:
        srcs = []
        for p in node.parents:
            if isinstance(p, cls) and p._v is None:
                srcs.append((1, base[p._node] + p._index))
                continue
            j = arg_pos.get(id(p))
            if j is None:
                j = arg_pos[id(p)] = len(args)
                args.append(p._v if isinstance(p, cls) else p)
            srcs.append((0, j))
        base[node] = n_slots
        s = tuple(srcs)
        steps.append((node.fn, s, n_slots, node.n_out))
        keys.append((node.key, s))
        n_slots += node.n_out
    outs = tuple((1, base[t._node] + t._index) for t in targets)
    fn = _forward(engine, (tuple(keys), outs, len(args)), tuple(steps), outs, n_slots)
    with engine.evaluating(args):  # (a recording from outside a trace stays concrete)
        values = fn(tuple(args))
    for t, v in zip(targets, values, strict=True):
        t._store(v)


_LOST = message(
    "a pending tape value can no longer be computed",
    expected="a tensor whose recording is intact",
    got="a tensor whose nodes were consumed by retain_graph=False before it was computed",
    fix="This is a unigrad bug: please report it with the code that produced it.",
)


def _forward(
    engine: Engine,
    key: Any,
    steps: tuple[tuple[Callable[..., Any], tuple[tuple[int, int], ...], int, int], ...],
    outs: tuple[tuple[int, int], ...],
    n_slots: int,
) -> Callable[..., Any]:
    forwards = CACHES.forwards
    if engine.compiles:
        try:
            hit = forwards.get(key)
        except TypeError:
            hit, key = None, None
        if hit is not None:
            return hit  # type: ignore[no-any-return]

    def forward(args: Sequence[Any]) -> tuple[Any, ...]:
        slots: list[Any] = [None] * n_slots
        srcs_of = (args, slots)
        for fn, srcs, b, n_out in steps:
            slots[b : b + n_out] = fn(*[srcs_of[k][i] for k, i in srcs])
        return tuple(srcs_of[k][i] for k, i in outs)

    if not engine.compiles:
        return forward
    fn = engine.jit(forward)
    if key is not None:
        forwards.put(key, fn)
    return fn


# ---- who else holds a pending tensor ----------------------------------------------
def _refcount_base() -> int:
    """What `held_elsewhere` counts for a tensor held by nothing but the graph.

    Measured once through the same code path, so that interpreter differences in how
    arguments and list items are counted cancel out.
    """

    class Probe:
        pass

    holder = (Probe(),)  # the graph's one reference
    return _extra_refs([holder[0]], [1])[0]


def _extra_refs(tensors: list[Any], internal: list[int]) -> list[int]:
    getrefcount = getattr(sys, "getrefcount", None)
    if getrefcount is None:  # not CPython: assume everything is held
        return [1] * len(tensors)
    return [getrefcount(tensors[k]) - internal[k] for k in range(len(tensors))]


_BASE = _refcount_base()


def held_elsewhere(candidates: dict[int, Any], occurrences: dict[int, int]) -> list[Any]:
    """The pending tensors among ``candidates`` that something outside the graph holds.

    ``occurrences[id(t)]`` is how often ``t`` appears among the parents of the nodes
    about to be consumed. A tensor referenced by nothing else dies with the graph and
    needs no value; one that a variable, a container or another node still holds must
    get its value before its recipe is released (CPython's reference count is the only
    exact way to tell the two apart; elsewhere every candidate counts as held).
    """
    tensors = list(candidates.values())
    candidates.clear()
    internal = [occurrences[id(t)] for t in tensors]
    extra = _extra_refs(tensors, internal)
    return [t for t, e in zip(tensors, extra, strict=True) if e > _BASE]
