"""Cut, rebuild, differentiate: how ``grad`` runs on the tape.

1. :func:`analyse` walks back from the outputs (never through ``no_grad_vars``) and
   finds the *live* nodes: those with an input upstream. Everything else a live node
   reads (untracked arrays, tensors that do not depend on an input, cut tensors) is a
   constant.
2. The live nodes become one pure function ``forward(inputs, constants)``. A non-leaf
   input ``h`` is both computed (so gradients flow through it to inputs upstream, as in
   torch) and perturbed by a zero argument whose gradient is the gradient for ``h``.
3. ``run(inputs, constants, seeds)`` takes the VJP of ``forward`` with the engine's own
   autodiff (``jax.vjp`` / ``autograd.make_vjp``) and applies the torch convention for
   complex numbers, ``conj(vjp(conj(seed)))``. On jax it is ``jax.jit``-compiled and
   cached by the graph's structure; ``is_grads_batched`` maps it over the seeds.
4. With ``create_graph=True`` the gradients are tape tensors whose node is ``run``
   itself, so differentiating them again is the same mechanism, to any order.
5. With ``retain_graph=False`` the live nodes are consumed: they drop their function
   and hold their parents only weakly (values are released), and a later pass that
   needs them raises :class:`~unigrad.GraphFreedError`.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from .._errors import GraphFreedError, message
from ._tensor import Node, Tensor, fresh_token

__all__ = ["analyse", "grad", "leaves_of"]

_FREED = message(
    "the graph was consumed",
    expected="a graph that was not differentiated with retain_graph=False",
    got="a differentiation through tape nodes already consumed (their values were released)",
    fix="Pass retain_graph=True to the earlier grad/backward call that used this graph, "
    "or recompute the forward pass.",
)


class _Ref:
    """A consumed node's parent: a weak reference plus where it came from."""

    __slots__ = ("index", "node", "ref")

    def __init__(self, t: Tensor) -> None:
        self.ref = weakref.ref(t)
        self.node = t._node
        self.index = t._index


def _parents(node: Node) -> tuple[Any, ...]:
    if not node.consumed:
        return node.parents
    out: list[Any] = []
    for p in node.parents:
        if isinstance(p, _Ref):
            t = p.ref()
            out.append(p if t is None else t)
        else:
            out.append(None)
    return tuple(out)


def _consume(nodes: Sequence[Node]) -> None:
    for node in nodes:
        if node.consumed:
            continue
        node.parents = tuple(_Ref(p) if isinstance(p, Tensor) else None for p in node.parents)
        node.fn = None
        node.consumed = True


class Analysis:
    """The cut subgraph: live nodes in order, where inputs are reached, the leaves."""

    __slots__ = ("leaves", "live", "order", "reached")

    def __init__(self) -> None:
        self.live: dict[Node, bool] = {}
        self.order: list[Node] = []
        self.reached: list[bool] = []
        self.leaves: dict[int, Tensor] = {}


def analyse(
    outputs: Sequence[Any],
    inputs: Sequence[Tensor],
    cut: set[int],
    *,
    collect_leaves: bool = False,
) -> Analysis:
    """Walk back from ``outputs``; raise :class:`GraphFreedError` on a consumed live node."""
    a = Analysis()
    in_pos = {id(t): i for i, t in enumerate(inputs)}
    reached = a.reached = [False] * len(inputs)
    live = a.live
    leaves = a.leaves
    seen: set[Node] = set()
    stack: list[tuple[Node, bool]] = []
    for y in outputs:
        if isinstance(y, Tensor) and id(y) not in cut:
            i = in_pos.get(id(y))
            if i is not None:
                reached[i] = True
            if y._node is not None:
                stack.append((y._node, False))
            elif collect_leaves:
                leaves[id(y)] = y
    while stack:
        node, expanded = stack.pop()
        if expanded:
            is_live = False
            for p in _parents(node):
                if isinstance(p, Tensor):
                    pid = id(p)
                    if pid in cut:
                        continue
                    i = in_pos.get(pid)
                    if i is not None:
                        reached[i] = True
                        is_live = True
                    elif p._node is None:
                        if collect_leaves:
                            leaves[pid] = p
                    elif live[p._node]:
                        is_live = True
                elif isinstance(p, _Ref) and p.node is not None and live[p.node]:
                    is_live = True
            live[node] = is_live
            if is_live:
                if node.consumed:
                    raise GraphFreedError(_FREED)
                a.order.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        stack.append((node, True))
        for p in _parents(node):
            if isinstance(p, Tensor):
                if id(p) in cut:
                    continue
                n = p._node
            elif isinstance(p, _Ref):
                n = p.node
            else:
                continue
            if n is not None and n not in seen:
                stack.append((n, False))
    return a


def leaves_of(outputs: Sequence[Any]) -> list[Tensor]:
    """Every watched leaf the outputs depend on (for ``backward`` without ``inputs``)."""
    return list(analyse(outputs, (), set(), collect_leaves=True).leaves.values())


# ---- rebuilding ---------------------------------------------------------------
class Plan:
    """A rebuilt pure function and what to call it with."""

    __slots__ = ("consts", "deltas", "key", "n_slots", "out_srcs", "steps")

    def __init__(self) -> None:
        self.steps: list[
            tuple[
                Callable[..., Any],
                tuple[tuple[int, int], ...],
                int,
                int,
                tuple[tuple[int, int], ...],
            ]
        ] = []
        self.consts: list[Any] = []
        self.out_srcs: tuple[tuple[int, int], ...] = ()
        self.deltas: frozenset[int] = frozenset()
        self.n_slots = 0
        self.key: Any = None


def build(a: Analysis, outputs: Sequence[Any], inputs: Sequence[Tensor], cut: set[int]) -> Plan:
    plan = Plan()
    in_pos = {id(t): i for i, t in enumerate(inputs)}
    live = a.live
    base: dict[Node, int] = {}
    const_pos: dict[int, int] = {}
    consts = plan.consts
    delta_at: dict[Node, list[tuple[int, int]]] = {}
    deltas: set[int] = set()
    for i, x in enumerate(inputs):
        n = x._node
        if n is not None and live.get(n) and id(x) not in cut:
            delta_at.setdefault(n, []).append((x._index, i))
            deltas.add(i)

    def source(p: Any) -> tuple[int, int]:
        if isinstance(p, Tensor):
            pid = id(p)
            if pid not in cut:
                n = p._node
                if n is not None and live.get(n):
                    return (2, base[n] + p._index)
                i = in_pos.get(pid)
                if i is not None:
                    return (0, i)
        j = const_pos.get(id(p))
        if j is None:
            j = const_pos[id(p)] = len(consts)
            consts.append(p)
        return (1, j)

    keys = []
    n_slots = 0
    for node in a.order:
        srcs = tuple(source(p) for p in node.parents)
        base[node] = n_slots
        ds = tuple((n_slots + k, i) for k, i in delta_at.get(node, ()))
        if node.fn is None:  # analyse raises first; kept as a real check
            raise GraphFreedError(_FREED)
        plan.steps.append((node.fn, srcs, n_slots, node.n_out, ds))
        keys.append((node.key, srcs, ds))
        n_slots += node.n_out
    plan.n_slots = n_slots
    plan.out_srcs = tuple(source(y) for y in outputs)
    plan.deltas = frozenset(deltas)
    plan.key = (tuple(keys), plan.out_srcs, len(inputs), len(consts), plan.deltas)
    return plan


def _forward(plan: Plan) -> Callable[..., tuple[Any, ...]]:
    steps = tuple(plan.steps)
    out_srcs = plan.out_srcs
    n_slots = plan.n_slots

    def forward(ins: Sequence[Any], consts: Sequence[Any]) -> tuple[Any, ...]:
        slots: list[Any] = [None] * n_slots
        srcs_of = (ins, consts, slots)
        for fn, srcs, b, n_out, ds in steps:
            outs = fn(*[srcs_of[k][i] for k, i in srcs])
            slots[b : b + n_out] = outs
            for s, i in ds:
                slots[s] = slots[s] + ins[i]
        return tuple(srcs_of[k][i] for k, i in out_srcs)

    return forward


def _is_complex(v: Any) -> bool:
    import numpy as np

    try:
        return bool(np.issubdtype(v.dtype, np.complexfloating))
    except TypeError:
        return False


def make_run(engine: Any, plan: Plan, seed_none: tuple[bool, ...]) -> Callable[..., Any]:
    """``run(ins, consts, seeds) -> one gradient per input``, in the torch convention."""
    forward = _forward(plan)
    deltas = plan.deltas
    xnp = engine.np

    def run(ins: Sequence[Any], consts: Sequence[Any], seeds: Sequence[Any]) -> tuple[Any, ...]:
        # zeros(shape)/ones(shape) rather than *_like(x): autograd records zeros_like
        # as a function of x, which would make gradients "depend" on what they do not
        primals = tuple(
            xnp.zeros(x.shape, x.dtype) if i in deltas else x for i, x in enumerate(ins)
        )

        def f(*p: Any) -> tuple[Any, ...]:
            return forward(p, consts)

        outs, pull = engine.vjp(f, primals)
        cts = tuple(
            xnp.ones(o.shape, o.dtype) if none else (xnp.conj(s) if _is_complex(s) else s)
            for o, s, none in zip(outs, seeds, seed_none, strict=True)
        )
        gs = pull(cts)
        result = []
        for x, g in zip(primals, gs, strict=True):
            if _is_complex(g):
                g = xnp.conj(g)
            if g.dtype != x.dtype:
                g = engine.cast(g, x.dtype)
            result.append(g)
        return tuple(result)

    return run


_CACHE: OrderedDict[Any, Callable[..., Any]] = OrderedDict()
_CACHE_SIZE = 512


def compiled_run(
    engine: Any, plan: Plan, seed_none: tuple[bool, ...], batched: bool
) -> tuple[Callable[..., Any], Any]:
    """The (cached, on jax compiled) run function for this plan, and its cache key."""
    key: Any = (plan.key, seed_none, batched)
    if engine.compiles:
        try:
            fn = _CACHE.get(key)
        except TypeError:  # an unhashable static argument: no cache
            fn, key = None, None
        if fn is not None:
            _CACHE.move_to_end(key)
            return fn, key
    run = make_run(engine, plan, seed_none)
    if batched:
        run = engine.batched(run)
    if engine.compiles:
        run = engine.jit(run)
        if key is not None:
            _CACHE[key] = run
            if len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    return run, key


def cache_info() -> dict[str, int]:
    """Size of the compiled-function cache (for tests and benchmarks)."""
    return {"size": len(_CACHE), "max": _CACHE_SIZE}


def grad(
    cls: type[Tensor],
    outputs: Sequence[Any],
    inputs: Sequence[Tensor],
    seeds: Sequence[Any],
    *,
    retain_graph: bool,
    create_graph: bool,
    batched: bool,
    no_grad_vars: Sequence[Any] = (),
) -> list[Any | None]:
    """One gradient per input (None where unreachable); see the module docstring."""
    engine = cls._engine
    cut = {id(v) for v in no_grad_vars if isinstance(v, Tensor)}
    a = analyse(outputs, inputs, cut)
    result: list[Any | None] = [None] * len(inputs)
    if not any(a.reached):
        if not retain_graph:
            _consume(a.order)
        return result
    plan = build(a, outputs, inputs, cut)
    seed_none = tuple(s is None for s in seeds)
    run, key = compiled_run(engine, plan, seed_none, batched)
    consts = plan.consts
    if not create_graph:
        gs = run(
            tuple(x._value for x in inputs),
            tuple(c._value if isinstance(c, Tensor) else c for c in consts),
            tuple(s._value if isinstance(s, Tensor) else s for s in seeds),
        )
        for i, g in enumerate(gs):
            if a.reached[i]:
                result[i] = engine.canon(g)
    else:
        result = _differentiable(cls, run, key, inputs, consts, seeds, a.reached)
    if not retain_graph:
        _consume(a.order)
    return result


_DEPS: OrderedDict[Any, list[frozenset[int]]] = OrderedDict()


def _dependencies(
    engine: Any, key: Any, fn: Callable[..., Any], vals: Sequence[Any]
) -> tuple[tuple[Any, ...], list[frozenset[int]]]:
    """``fn(*vals)`` and, per output, the argument positions it depends on (cached by
    the graph's structure: the dependence does not depend on the values)."""
    from . import _deps

    deps = None
    if key is not None:
        try:
            deps = _DEPS.get(key)
        except TypeError:
            key = None
    if engine.name == "numpy" and deps is None:
        values, deps = _deps.numpy_trace(fn, vals)
    else:
        values = tuple(fn(*vals))
        if deps is None:
            deps = _deps.jax_dependencies(fn, vals)
    if key is not None:
        _DEPS[key] = deps
        if len(_DEPS) > _CACHE_SIZE:
            _DEPS.popitem(last=False)
    return values, deps


def _output(fn: Callable[..., Any], i: int) -> Callable[..., tuple[Any]]:
    def one(*vals: Any) -> tuple[Any]:
        return (fn(*vals)[i],)

    return one


def _differentiable(
    cls: type[Tensor],
    run: Callable[..., Any],
    key: Any,
    inputs: Sequence[Tensor],
    consts: Sequence[Any],
    seeds: Sequence[Any],
    reached: Sequence[bool],
) -> list[Any | None]:
    """Gradients as tape tensors whose node is ``run``: differentiable to any order.

    Each gradient's node holds, as tape parents, only the tensors it really depends on
    (the others enter as constants): a gradient that depends on nothing that requires
    grad is a plain array, and a later ``grad`` finds an input it does not depend on
    unused, as torch does (``docs/semantics.md``, structure follows torch).
    """
    n_in, n_c = len(inputs), len(consts)
    seed_idx = tuple(i for i, s in enumerate(seeds) if s is not None)
    n_s = len(seeds)

    def fn(*vals: Any) -> tuple[Any, ...]:
        full: list[Any] = [None] * n_s
        for j, i in enumerate(seed_idx):
            full[i] = vals[n_in + n_c + j]
        return tuple(run(vals[:n_in], vals[n_in : n_in + n_c], tuple(full)))

    parents = (*inputs, *consts, *(seeds[i] for i in seed_idx))
    node_key = ("vjp", key) if key is not None else ("vjp-uncached", fresh_token())
    plain = [p._value if isinstance(p, Tensor) else p for p in parents]
    engine = cls._engine
    values, deps = _dependencies(engine, None if key is None else node_key, fn, plain)
    out: list[Any | None] = []
    for i, v in enumerate(values):
        if not reached[i]:
            out.append(None)
            continue
        tracked = frozenset(j for j in deps[i] if isinstance(parents[j], Tensor))
        if not tracked:  # a constant: it requires no grad (torch's answer)
            out.append(engine.canon(v))
            continue
        own = tuple(p if j in tracked else plain[j] for j, p in enumerate(parents))
        node = Node(_output(fn, i), (node_key, i, tracked), own, 1)
        out.append(cls._make(engine.canon(v), node, 0))
    return out


def backward(
    cls: type[Tensor],
    outputs: Sequence[Any],
    seeds: Sequence[Any],
    *,
    retain_graph: bool,
    create_graph: bool,
    inputs: Sequence[Tensor] | None,
) -> None:
    """Accumulate into ``.grad`` of the given tensors, or of every leaf."""
    targets = leaves_of(outputs) if inputs is None else list(inputs)
    if not targets:
        # nothing to accumulate into; still consume the graph as torch would
        if not retain_graph:
            _consume(analyse(outputs, (), set()).order)
        return
    grads = grad(
        cls,
        outputs,
        targets,
        seeds,
        retain_graph=retain_graph,
        create_graph=create_graph,
        batched=False,
    )
    for t, g in zip(targets, grads, strict=True):
        if g is None:
            continue
        t.grad = g if t.grad is None else t.grad + g
