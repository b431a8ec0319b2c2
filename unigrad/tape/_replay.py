"""Cut, rebuild, differentiate: how ``grad`` runs on the tape.

1. `analyse` (``_analyse``) walks back from the outputs (never through ``no_grad_vars``) and
   finds the *live* nodes: those with an input upstream. Everything else a live node
   reads (untracked arrays, tensors that do not depend on an input, cut tensors) is a
   constant.
2. The live nodes become one pure function (``_plan``) ``forward(inputs, constants)``. A non-leaf
   input ``h`` is both computed (so gradients flow through it to inputs upstream, as in
   torch) and perturbed by a zero argument whose gradient is the gradient for ``h``.
3. ``run(inputs, constants, seeds)`` takes the VJP of ``forward`` with the engine's own
   autodiff (``jax.vjp`` / autograd's reverse mode, one root per input) and applies the
   torch convention for complex numbers, ``conj(vjp(conj(seed)))``. On jax it is
   ``jax.jit``-compiled and cached by the graph's structure; ``is_grads_batched`` maps
   it over the seeds.
4. With ``create_graph=True`` the gradients are tape tensors whose node is ``run``
   itself, so differentiating them again is the same mechanism, to any order.
5. With ``retain_graph=False`` the live nodes are consumed: they drop their function
   and hold their parents only weakly (values are released), and a later pass that
   needs them raises `GraphFreedError`.
6. Values are deferred (``_lazy``): the pass of step 3 also returns the values of the
   outputs and, before a consumption, of every pending tensor of the graph that is
   still held elsewhere, so that no value is computed twice and none is lost.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

from .._errors import CompiledStepError, message
from . import _deps, _lazy
from ._analyse import Analysis, analyse, carried_by, carry, consume, leaves_of, pending_carriers
from ._caches import CACHES
from ._node import Node, fresh_token, recorded_before_step
from ._plan import Plan, build, compiled_run
from ._record import emit, spec_of, wrap_outputs
from ._snapshots import SharingSnapshots, check_saved
from ._tensor import Tensor

__all__ = ["backward", "grad"]


_OUTSIDE = message(
    "a unigrad.jit step consumes a graph recorded outside it",
    expected="retain_graph=True for a pass, inside a compiled step, through tensors the "
    "step closes over (or a step that records its whole graph itself)",
    got="a retain_graph=False pass through nodes recorded before the step: a compiled "
    "step would release them once, while jax traces it, and never again",
    fix="Pass retain_graph=True, or pass the leaves as arguments and compute from them "
    "inside the step.",
)


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
    if cut:
        # no_grad_vars never excuse a consumed graph (rule 15): the uncut pass's walk
        # toward the inputs that are not themselves cut raises where it would
        analyse(outputs, [x for x in inputs if id(x) not in cut], set())
    a = analyse(outputs, inputs, cut)
    kept_inputs = [x for x in inputs if id(x) not in cut] if cut else inputs
    if not retain_graph and recorded_before_step(a.order):
        raise CompiledStepError(_OUTSIDE)
    result: list[Any | None] = [None] * len(inputs)
    if not any(a.reached):
        if not retain_graph:
            _consume_keeping_values(cls, a, outputs, kept_inputs)
        return result
    check_saved(a.order)
    # The pass that computes the gradients also computes the values still wanted: the
    # outputs', and, when the graph is consumed, those of pending tensors held elsewhere.
    values = not create_graph and not batched
    keep = _held(a, outputs) if values and not retain_graph else []
    plan = build(a, outputs, inputs, cut, keep)
    seed_none = tuple(s is None for s in seeds)
    run, key = compiled_run(engine, plan, seed_none, batched, values)
    consts = plan.consts
    _lazy.materialize(cls, _pending_arguments(plan, inputs, seeds))
    if not create_graph:
        args = (
            tuple(_primal(engine, x) for x in inputs),
            tuple(c._v if isinstance(c, Tensor) else c for c in consts),
            tuple(s._v if isinstance(s, Tensor) else s for s in seeds),
        )
        # (inside a trace, a graph recorded outside it stays concrete: see `evaluating`)
        with engine.evaluating(*args):
            gs = run(*args)
        if values:
            gs, outs, kept = gs
            for y, v in zip(outputs, outs, strict=True):
                if isinstance(y, Tensor) and y._v is None:
                    y._store(v)
            for t, v in zip(keep, kept, strict=True):
                t._store(v)
        for i, g in enumerate(gs):
            if a.reached[i]:
                result[i] = engine.canon(g)
        if (
            values
            and not retain_graph
            and not carried_by(a.order, kept_inputs)
            and not pending_carriers(a.order)
        ):
            consume(a.order)  # the pass above returned every value still held
        elif not retain_graph:
            _consume_keeping_values(cls, a, outputs, kept_inputs)
    else:
        if cut and not retain_graph:
            consts = _private_cut_histories(cls, consts, set(a.order))
        with SharingSnapshots(a.order):  # checked above: no array copied twice
            result = _differentiable(cls, run, key, inputs, consts, seeds, a.reached)
        if not retain_graph:
            _consume_keeping_values(cls, a, outputs, kept_inputs)
        carry(a, result)
    return result


def _private_cut_histories(
    cls: type[Tensor], consts: Sequence[Any], doomed: set[Node]
) -> list[Any]:
    """Rule 6 with rule 15: the constants of a consuming ``create_graph`` call, each cut
    tensor whose history reaches a node the call consumes (``doomed``) replaced by a
    copy of that history (new nodes over the same functions and values, down to the
    nodes that reach none of ``doomed``).

    The call's own consumption does not count: its results stay differentiable, and a
    later pass through them runs the cut tensor's history too (torch's and paddle's
    gradient graphs read it). The copies are the results' alone: a plain pass through
    the cut tensor itself still meets the consumed originals and raises (differential
    seed 93, program 610: ``v6 = v5[1:2]`` cut, ``v5`` consumed by the call).
    """
    reaches: dict[Node, bool] = {}
    order: list[Node] = []
    stack: list[tuple[Node, bool]] = [
        (c._node, False) for c in consts if isinstance(c, Tensor) and c._node is not None
    ]
    while stack:  # post-order: a node is decided once its parents are
        node, done = stack.pop()
        ups = [p._node for p in node.parents if isinstance(p, Tensor) and p._node is not None]
        if done:
            reaches[node] = node.fn is not None and (node in doomed or any(reaches[u] for u in ups))
            order.append(node)
            continue
        if node in reaches:
            continue
        reaches[node] = False  # a DAG: guards revisits until decided
        stack.append((node, True))
        stack.extend((u, False) for u in ups if u not in reaches)
    if not any(reaches.values()):
        return list(consts)
    copies: dict[Node, Node] = {}
    tensors: dict[int, Tensor] = {}

    def copy_of(t: Any) -> Any:
        if not isinstance(t, Tensor) or t._node is None or not reaches[t._node]:
            return t
        c = tensors.get(id(t))
        if c is None:
            c = tensors[id(t)] = cls._make(t._value, copies[t._node], t._index)
        return c

    for node in order:
        if reaches[node] and node not in copies:
            assert node.fn is not None  # (reaches says so)
            n = Node(node.fn, node.key, tuple(copy_of(p) for p in node.parents), node.n_out)
            n.carries, n.carried_at = node.carries, node.carried_at
            copies[node] = n
    return [copy_of(c) for c in consts]


def _pending_arguments(plan: Plan, inputs: Sequence[Tensor], seeds: Sequence[Any]) -> list[Any]:
    """The pending values the rebuilt function takes as arguments: constants, seeds, and
    inputs that it does not compute itself."""
    pending = [c for c in plan.consts if isinstance(c, Tensor) and c._v is None]
    for s in seeds:
        if isinstance(s, Tensor) and s._v is None:
            pending.append(s)
    deltas = plan.deltas
    for i, x in enumerate(inputs):
        if x._v is None and i not in deltas:
            pending.append(x)
    return pending


def _primal(engine: Any, x: Tensor) -> Any:
    """An input's value; zeros for a pending non-leaf input (it only gives the shape:
    the rebuilt function computes the input itself and adds this as a perturbation)."""
    if x._v is not None:
        return x._v
    shape, dtype, _ = x._aval
    return engine.zeros(shape, dtype)


def _held(a: Analysis, outputs: Sequence[Any]) -> list[Tensor]:
    """Pending outputs of the live nodes that something outside the graph still holds:
    they need their values before ``_consume`` drops the recipes."""
    candidates, occurrences = _candidates(a, {id(y) for y in outputs})
    return _lazy.held_elsewhere(candidates, occurrences)


def _candidates(a: Analysis, out_ids: set[int]) -> tuple[dict[int, Tensor], dict[int, int]]:
    # A function of its own: its loop variables must not hold a candidate when the
    # references are counted.
    live = a.live
    candidates: dict[int, Tensor] = {}
    occurrences: dict[int, int] = {}
    for node in a.order:
        for p in node.parents:
            if (
                isinstance(p, Tensor)
                and p._v is None
                and p._node is not None
                and live.get(p._node)
                and id(p) not in out_ids
            ):
                candidates[id(p)] = p
                occurrences[id(p)] = occurrences.get(id(p), 0) + 1
        for ref in node.outs:
            t = ref()
            if t is not None and t._v is None and id(t) not in out_ids:
                candidates[id(t)] = t
                occurrences.setdefault(id(t), 0)
    return candidates, occurrences


def _consume_keeping_values(
    cls: type[Tensor], a: Analysis, outputs: Sequence[Any], inputs: Sequence[Any]
) -> None:
    """Consume the live nodes (and, rule 6, the nodes the results among them carry that
    lead to ``inputs``), after computing the pending values that are held elsewhere
    (the path of passes that did not return them: create_graph, batched)."""
    rest = _held(a, ())
    rest += [y for y in outputs if isinstance(y, Tensor) and y._v is None and _live(a, y)]
    # (rule 6) the forward nodes the create_graph results among them carry are consumed
    # too: the pending values of their outputs still held are computed first
    extra = carried_by(a.order, inputs)
    for node in extra:
        if not node.consumed:
            rest += [t for t in (r() for r in node.outs) if t is not None and t._v is None]
    # and the pending results of earlier create_graph calls that read what is consumed
    rest += pending_carriers([*a.order, *extra])
    _lazy.materialize(cls, rest)
    consume([*a.order, *extra])


def _live(a: Analysis, t: Tensor) -> bool:
    return t._node is not None and bool(a.live.get(t._node))


def _dependencies(
    engine: Any, key: Any, fn: Callable[..., Any], vals: Sequence[Any]
) -> tuple[tuple[Any, ...], list[frozenset[int]]]:
    """``fn(*vals)`` and, per output, the argument positions it depends on, learned by
    one run and kept under ``key`` in the ``dependences`` cache (the dependence does not
    depend on the values, only on the graph's structure, shapes and dtypes, unless the
    run went through a zero-size value: then nothing is kept).

    The values are ``fn``'s on the plain arrays, as every later (deferred) call of the
    structure computes them, never the dependence trace's: on numpy the trace boxes the
    arrays, and a boxed array takes other NumPy paths than a plain one (``y ** 2`` of a
    plain complex array is ``square``, of autograd's box ``power``: the last bits differ),
    so the first call of a structure gave other bits than the next (issue 28, seed 42
    program 2692, seed 27 program 8828)."""
    deps = _deps.dependencies(engine.name, fn, vals)
    values = tuple(fn(*vals))
    # (a numpy trace through a zero-size value learned the dependence of these shapes
    # only: see `_deps.trace_saw_empty`)
    if key is not None and not (engine.name == "numpy" and _deps.trace_saw_empty()):
        with contextlib.suppress(TypeError):  # an unhashable key: nothing to keep it by
            CACHES.dependences.put(key, deps)
    return values, deps


def _cached_dependencies(key: Any) -> list[frozenset[int]] | None:
    if key is None:
        return None
    try:
        return CACHES.dependences.get(key)  # type: ignore[no-any-return]
    except TypeError:
        return None


def _aval_of(p: Any) -> Any:
    """``p``'s shape and dtype (the dependence cache's key holds them)."""
    if isinstance(p, Tensor):
        return p._aval[0], p._aval[1]
    return getattr(p, "shape", None), getattr(p, "dtype", type(p))


def _output(fn: Callable[..., Any], i: int) -> Callable[..., Any]:
    def one(*vals: Any) -> Any:
        return fn(*vals)[i]

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

    The first pass of a graph structure computes the gradients now (the dependence
    analysis runs on values: autograd's trace on numpy); once the dependence is cached,
    the gradients are pending (``_lazy``) like any other recorded op.
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
    engine = cls._engine
    # the dependence follows the dtypes (real abs's gradient is a constant, complex abs's
    # is z/|z|) and the shapes (the k-th derivative of a product of n factors is a
    # constant from k = n on: the prod of 2 elements' second derivative, kept for the
    # structure, detached that of 3 elements, and which answer a program got depended
    # on what ran before it): the cache key holds them besides the graph's structure
    deps_key = None if key is None else (node_key, tuple(_aval_of(p) for p in parents))
    deps = _cached_dependencies(deps_key)
    plain: list[Any] | None = None
    values: tuple[Any, ...] | None = None
    if deps is None:  # first time: compute now, and learn the dependence
        plain = [p._value if isinstance(p, Tensor) else p for p in parents]
        values, deps = _dependencies(engine, deps_key, fn, plain)
    out: list[Any | None] = []
    for i, r in enumerate(reached):
        if not r:
            out.append(None)
            continue
        tracked = frozenset(j for j in deps[i] if isinstance(parents[j], Tensor))
        if not tracked:  # a constant: it requires no grad (torch's answer)
            if values is None:
                plain = [p._value if isinstance(p, Tensor) else p for p in parents]
                values = tuple(fn(*plain))
            out.append(engine.canon(values[i]))
            continue
        own = tuple(
            p if j in tracked else (p._value if isinstance(p, Tensor) else p)
            for j, p in enumerate(parents)
        )
        node_fn = _output(fn, i)
        sub_key = (node_key, i, tracked)
        if values is None:  # deferred once the call's spec is known
            out.append(emit(cls, node_fn, sub_key, own))
            continue
        sig = _lazy.signature(engine, sub_key, own, cls)
        if sig is not None:
            _lazy.remember(sig, spec_of(engine, values[i]))
        out.append(wrap_outputs(cls, node_fn, sub_key, own, values[i]))
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
            consume(analyse(outputs, (), set()).order)
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
