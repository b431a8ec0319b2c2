"""The float64 reference of the contract: ``grad`` and ``backward`` on reference values.

``grad`` replays the live nodes between outputs and inputs afresh and differentiates
them with their closed forms (`_closed_forms`). Rule 6's ruling (issue 23): a
create_graph result carries the forward nodes of the pass that made it (and,
transitively, those carried by the create_graph results that pass ran through); a
later pass that runs through it raises ``GraphFreedError`` once any carried node was
consumed. Errors follow the front's precedence (``docs/semantics.md``) and are raised
as `ContractError` naming the class. The refusal rules are the oracle's own
(`_rules`): nothing here is imported from the code under test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._closed_forms import (
    RV,
    ContractError,
    Degenerate,
    Node,
    add,
    const,
    getitem,
    leaf,
    stack,
)
from ._rules import Call, refused

__all__ = ["RV", "ContractError", "Degenerate", "backward", "const", "grad", "leaf", "op"]


def op(name: str, args: Sequence[RV], p: dict[str, Any]) -> RV:
    """Evaluate program op ``name``: `_ops.OPS`'s oracle (the one op table)."""
    from ._ops import OPS

    spec = OPS.get(name)
    if spec is None:
        msg = f"unknown op {name!r}"
        raise ValueError(msg)
    if spec.min_nd > 0 and args and np.ndim(args[0].v) == 0:
        # outside the op's domain (an axis of a 0-d value, `unigrad.AxisError` on every
        # backend: docs/semantics.md, "An axis out of range"). The generator draws no such
        # op (`min_nd`; a zero-size leaf keeps its shape since differential seed 2027
        # program 2600, whose (0, n) leaf read back as (0,)); a program that reaches one
        # raises in an op, which the tester does not compare: degenerate
        msg = f"{name} of a 0-d value (it needs an axis)"
        raise Degenerate(msg)
    return spec.oracle(list(args), p)


# ---- grad and backward, with the contract's errors ---------------------------------------
def _live(
    outputs: Sequence[RV], inputs: Sequence[RV], cut: set[int]
) -> tuple[list[Node], list[bool], dict[int, bool]]:
    """Live nodes in topological order (parents first) and which inputs are reached."""
    pos = {x.key: i for i, x in enumerate(inputs)}
    reached = [False] * len(inputs)
    live: dict[int, bool] = {}
    order: list[Node] = []
    for y in outputs:
        if y.key in cut:
            continue
        if y.key in pos:
            reached[pos[y.key]] = True

    def visit(r: RV) -> bool:
        """Whether ``r`` leads to an input (is one, or its node is live)."""
        if r.key in cut:
            return False
        hit = False
        if r.key in pos:
            reached[pos[r.key]] = True
            hit = True
        n = r.node
        if n is not None:
            if id(n) not in live:
                live[id(n)] = False  # placeholder against revisits; DAG so no cycles
                flag = False
                for p in n.parents:
                    if visit(p):
                        flag = True
                live[id(n)] = flag
                if flag:
                    order.append(n)
            if live[id(n)]:
                return True
        return hit

    for y in outputs:
        if y.key not in cut and y.node is not None:
            visit(y)
    return order, reached, live


def _replay_grad(
    outputs: Sequence[RV],
    inputs: Sequence[RV],
    seeds: Sequence[RV],
    order: list[Node],
    live: dict[int, bool],
    cut: set[int],
    fresh_cuts: bool = False,
) -> list[RV | None]:
    """Replay the live nodes afresh from the inputs, then run their VJPs backwards.

    With ``fresh_cuts`` (a consuming create_graph call), a cut value whose history
    reaches a live node is replayed afresh too, over the fresh live values (no
    cotangent flows into it): the call's own consumption does not count (rule 6), and a
    later pass through its results runs the cut's history (rule 15a: the engines run
    it), while a plain pass through the cut value itself meets the consumed originals
    (differential seed 93, program 610)."""
    out_of: dict[int, RV] = {}
    rep_parents: dict[int, tuple[RV, ...]] = {}
    fresh: dict[int, RV] = {}

    def replay(n: Node) -> RV:
        """A live node's fresh output (computed now when a cut's history needs it)."""
        got = out_of.get(id(n))
        if got is None:
            ps = tuple(rep(p) for p in n.parents)
            rep_parents[id(n)] = ps
            got = out_of[id(n)] = n.apply(*ps)
        return got

    def refresh(r: RV) -> RV:
        """``r`` over the fresh live values, or ``r`` where its history reaches none."""
        got = fresh.get(r.key)
        if got is None:
            n = r.node
            got = r
            if n is not None and live.get(id(n)):
                got = replay(n)
            elif n is not None and not n.consumed:
                ps = tuple(refresh(p) for p in n.parents)
                if any(a is not b for a, b in zip(ps, n.parents, strict=True)):
                    got = n.apply(*ps)
            fresh[r.key] = got
        return got

    def rep(r: RV) -> RV:
        if r.key in cut:
            n = r.node
            if fresh_cuts and n is not None and not live.get(id(n)):
                return refresh(r)
            return r
        n = r.node
        if n is not None and live.get(id(n)):
            return replay(n)
        return r

    for n in order:
        replay(n)
    wanted = {x.key for x in inputs} | {r.key for r in out_of.values()}
    cts: dict[int, RV] = {}

    def acc(r: RV, c: RV) -> None:
        prev = cts.get(r.key)
        cts[r.key] = c if prev is None else add(prev, c)

    for y, s in zip(outputs, seeds, strict=True):
        if y.key not in cut:
            acc(rep(y), s)
    for n in reversed(order):
        c = cts.get(out_of[id(n)].key)
        if c is None:
            continue
        ps = rep_parents[id(n)]
        for p, pc in zip(ps, n.vjp(c, *ps), strict=True):
            if pc is not None and p.key not in cut and p.key in wanted:
                acc(p, pc)
    return [cts.get(rep(x).key) for x in inputs]


def _seed_rv(y: RV, s: RV | None) -> RV:
    if s is None:
        return const(np.ones(y.shape), y.dtype)
    return RV(s.v if y.is_complex else s.v.real, y.dtype)


def _errors_front(
    outputs: Sequence[RV],
    seeds: Sequence[RV | None],
    batched: bool,
) -> None:
    for i, y in enumerate(outputs):
        if not y.rg:
            raise ContractError("NotDifferentiableError", f"outputs[{i}] does not require grad")
    for i, (y, s) in enumerate(zip(outputs, seeds, strict=True)):
        if s is None:
            if batched:
                raise ContractError("GradOutputsError", f"grad_outputs[{i}] None when batched")
            if y.is_complex:
                raise ContractError("GradOutputsError", f"grad_outputs[{i}] None, complex")
            continue
        want = y.shape
        got = s.shape[1:] if batched else s.shape
        if got != want or (batched and s.v.ndim != y.v.ndim + 1):
            raise ContractError("GradOutputsError", f"grad_outputs[{i}] shape {s.shape}")
        if s.is_complex and not y.is_complex:
            raise ContractError("GradOutputsError", f"grad_outputs[{i}] complex")
    if batched:
        sizes = {s.shape[0] for s in seeds if s is not None}
        if len(sizes) > 1:
            raise ContractError("GradOutputsError", "batch sizes differ")


def _ambiguous(outputs: Sequence[RV], inputs: Sequence[RV], cuts: Sequence[RV]) -> None:
    """Row 16's refusal (`_rules.refused`) of a non-leaf input or cut behind a
    create_graph call the outputs reach."""
    cands = [(f"inputs[{i}]", x) for i, x in enumerate(inputs) if x.node is not None]
    cands += [(f"no_grad_vars[{i}]", v) for i, v in enumerate(cuts) if v.node is not None]
    if cands:
        found = refused(outputs, cands)
        if found is not None:
            raise ContractError("UnsupportedFeatureError", f"{found} is ambiguous")


def _full_slices(tensors: Sequence[RV], what: str) -> None:
    """The contract's refusal of a full-range slice (``x[0:n]``) that requires grad as
    an input or cut (`unigrad.contract._slices`)."""
    for i, x in enumerate(tensors):
        if x.full_slice and x.rg:
            raise ContractError("UnsupportedFeatureError", f"{what}[{i}] is a full-range slice")


def _record(
    outputs: Sequence[RV],
    inputs: Sequence[RV],
    seeds: Sequence[RV | None],
    results: Sequence[RV | None],
    order: Sequence[Node],
) -> None:
    """Attach the call's `_rules.Call` view to each result, and (rule 6) the forward
    nodes it carries: the pass's and those its create_graph results carried."""
    token = object()
    now = _CALLS[0]
    # what the pass ran: its own nodes and (rule 6) those the results it ran through
    # carry, all stamped now: the call's own consumption of them is not *since*
    carried: set[tuple[Node, int]] = {(n, now) for n in _ran(order)}
    frozen = frozenset(carried)
    for g in results:
        if g is not None:
            g.records = ()
    for i, g in enumerate(results):
        if g is not None and g.node is not None:
            call = Call(
                token, tuple(inputs), tuple(outputs), tuple(s for s in seeds if s is not None), i
            )
            g.records = (*g.records, call)
            g.node.carried = g.node.carried | frozen


#: The number of the current grad/backward call (rule 6 asks what was consumed since).
_CALLS = [0]


def _ran(order: Sequence[Node], inputs: Sequence[RV] | None = None) -> list[Node]:
    """The nodes a pass over ``order`` runs (rule 6): its live nodes and the forward
    nodes carried by the create_graph results among them (a gradient's graph runs
    through the forward nodes it was computed through, on torch and paddle literally);
    with ``inputs``, only the carried nodes that lead to one of them (the engines run
    only what leads to the inputs)."""
    ran = dict.fromkeys(order)
    extra = dict.fromkeys(c for n in order for c, _ in n.carried if c not in ran)
    if inputs is not None and extra:
        keys = {x.key for x in inputs}
        memo: dict[int, bool] = {}
        extra = dict.fromkeys(c for c in extra if _leads(c, keys, memo))
    ran.update(extra)
    return list(ran)


def _leads(node: Node, keys: set[int], memo: dict[int, bool]) -> bool:
    """Whether ``node`` has an input (a value keyed in ``keys``) upstream."""
    got = memo.get(id(node))
    if got is not None:
        return got
    memo[id(node)] = False  # a DAG: no cycles; guards revisits
    hit = any(
        p.key in keys or (p.node is not None and _leads(p.node, keys, memo)) for p in node.parents
    )
    memo[id(node)] = hit
    return hit


def _consume(order: Sequence[Node], inputs: Sequence[RV]) -> None:
    """A ``retain_graph=False`` pass consumes the nodes it ran (`_ran`; not a full
    slice's), stamped with the call's number (a node consumed again takes the later
    stamp: it was consumed since any result made between the two passes)."""
    for n in _ran(order, inputs):
        if not n.kept:
            n.consumed = True
            n.consumed_by = _CALLS[0]


def _consumed(order: list[Node]) -> None:
    for n in order:
        if n.consumed:
            raise ContractError("GraphFreedError", "through a consumed node")
        if any(c.consumed_by is not None and c.consumed_by > made for c, made in n.carried):
            raise ContractError(
                "GraphFreedError",
                "through a create_graph result whose pass ran through a consumed node",
            )


def grad(
    outputs: Sequence[RV],
    inputs: Sequence[RV],
    seeds: Sequence[RV | None],
    *,
    retain_graph: bool | None,
    create_graph: bool,
    allow_unused: bool | None,
    materialize_grads: bool,
    no_grad_vars: Sequence[RV] | None,
    batched: bool,
) -> tuple[RV | None, ...]:
    """``unigrad.grad`` on reference values, by the contract."""
    _CALLS[0] += 1
    retain = create_graph if retain_graph is None else retain_graph
    if materialize_grads and allow_unused is False:
        raise ContractError("GradArgumentError", "materialize_grads with allow_unused=False")
    _errors_front(outputs, seeds, batched)
    # duplicated outputs contribute twice: keep them (the sum below adds both)
    distinct_in: list[RV] = []
    for x in inputs:
        if x.rg and all(x is not d for d in distinct_in):
            distinct_in.append(x)
    if distinct_in:  # no input requires grad: no pass, so no backend check (rule 16)
        _full_slices(inputs, "inputs")
        _full_slices(no_grad_vars or (), "no_grad_vars")
        _ambiguous(outputs, inputs, no_grad_vars or ())
    cut = {v.key for v in no_grad_vars or ()}
    order, reached, live = _live(outputs, distinct_in, cut)
    if cut:
        # no_grad_vars never excuse a consumed graph: the pass's check is the uncut
        # pass's (toward the inputs that are not themselves cut)
        kept = [x for x in distinct_in if x.key not in cut]
        uncut, hit, _ = _live(outputs, kept, set())
        if any(hit):
            _consumed(uncut)
    elif any(reached):
        _consumed(order)
    grads: list[RV | None] = [None] * len(distinct_in)
    fresh_cuts = bool(cut) and create_graph and not retain
    if any(reached):
        if batched:
            batch = next(s.shape[0] for s in seeds if s is not None)
            rows = []
            for b in range(batch):
                row_seeds = [
                    _seed_rv(y, getitem(s, b) if s is not None else None)
                    for y, s in zip(outputs, seeds, strict=True)
                ]
                rows.append(
                    _replay_grad(outputs, distinct_in, row_seeds, order, live, cut, fresh_cuts)
                )
            for i in range(len(distinct_in)):
                if reached[i]:
                    grads[i] = stack([_zero_if_none(r[i], distinct_in[i]) for r in rows], 0)
        else:
            sd = [_seed_rv(y, s) for y, s in zip(outputs, seeds, strict=True)]
            got = _replay_grad(outputs, distinct_in, sd, order, live, cut, fresh_cuts)
            for i in range(len(distinct_in)):
                if reached[i]:
                    grads[i] = _zero_if_none(got[i], distinct_in[i])
    if not retain:
        _consume(order, [x for x in distinct_in if x.key not in cut])
    out: list[RV | None] = []
    batch_n = next((s.shape[0] for s in seeds if s is not None), 0) if batched else None
    # a duplicated input gets the same gradient, one tensor (torch returns one object:
    # a no_grad_vars cut on one occurrence cuts the other); materialized zeros are a new
    # leaf per occurrence (rules 9a and 14b; torch's `g[0] is g[1]` is False there), so a
    # later call that uses one occurrence leaves the other unused (differential seed 401
    # program 882)
    same: dict[int, RV | None] = {}
    for i, x in enumerate(inputs):
        if id(x) in same:
            g = same[id(x)]
        else:
            g = None
            if x.rg:
                j = next(j for j, d in enumerate(distinct_in) if d is x)
                g = grads[j]
            if g is not None:
                g = RV(g.v, x.dtype, node=g.node, rg=g.rg) if create_graph else RV(g.v, x.dtype)
            same[id(x)] = g
        if g is None:
            if materialize_grads:
                shape = x.shape if batch_n is None else (batch_n, *x.shape)
                g = leaf(np.zeros(shape), x.dtype, watched=create_graph)
            elif not allow_unused:
                raise ContractError("UnusedInputError", f"inputs[{i}] is unused")
        out.append(g)
    if create_graph:
        _record(outputs, inputs, seeds, out, order)
    return tuple(out)


def _zero_if_none(g: RV | None, x: RV) -> RV:
    return const(np.zeros(x.shape), x.dtype) if g is None else g


def backward(
    outputs: Sequence[RV],
    seeds: Sequence[RV | None],
    leaves: Sequence[RV],
    *,
    retain_graph: bool | None,
    create_graph: bool,
    inputs: Sequence[RV] | None,
) -> None:
    """``unigrad.backward``: accumulate into ``.grad`` of ``inputs`` or every leaf."""
    _CALLS[0] += 1
    _errors_front(outputs, seeds, False)
    if inputs is not None:
        for i, x in enumerate(inputs):
            if not x.rg:
                raise ContractError("UnusedInputError", f"inputs[{i}] does not require grad")
        _full_slices(inputs, "inputs")
        _ambiguous(outputs, inputs, ())
        targets: list[RV] = []
        for x in inputs:
            if all(x is not t for t in targets):
                targets.append(x)
    else:
        targets = [v for v in leaves if v.watched]
    retain = create_graph if retain_graph is None else retain_graph
    order, reached, live = _live(outputs, targets, set())
    if any(reached):
        _consumed(order)
        sd = [_seed_rv(y, s) for y, s in zip(outputs, seeds, strict=True)]
        got = _replay_grad(outputs, targets, sd, order, live, set())
        for t, g, hit in zip(targets, got, reached, strict=True):
            if not hit:
                continue
            g = _zero_if_none(g, t)
            g = RV(g.v, t.dtype, node=g.node, rg=g.rg) if create_graph else RV(g.v, t.dtype)
            t.grad = g if t.grad is None else add(t.grad, g)
        if create_graph:  # the .grad results, as grad(create_graph=True)'s
            results = [t.grad if hit else None for t, hit in zip(targets, reached, strict=True)]
            _record(outputs, targets, seeds, results, order)
    if not retain:
        _consume(order, targets)
