"""What a paddle ``create_graph`` gradient really depends on (semantics row 14).

paddle builds one double-grad node per forward node, shared by the gradients of all
that node's inputs, with edges to every tensor any of those gradients reads: the graph
of ``g = d(x*a)/dx`` (which is ``a``) reaches ``x`` too, and paddle exposes neither a
gradient's output slot nor the tensors a node saved. The dependence is read instead
from the forward graph and a table of backward formulas (`_formulas.READS`), the way torch's
``derivatives.yaml`` states them: the gradient of input ``i`` is a product, along every
path from the outputs to ``i``, of each node's formula for the edge the path takes, so
it depends on the seeds and, for each such (node, edge), on what that formula reads
besides the incoming gradient. "Reads input ``j``" is everything the node's edge ``j``
reaches (the tensor and its graph); "reads its output" is everything the node reaches.

A result whose dependence is smaller than what paddle's graph of it reaches gets a
record: its node (one of its own, `_own_node`, when paddle shares it with another
result) maps to the nodes its formulas read (the roots), and every later walk
(`edges`) goes to the roots instead of paddle's edges. The values do not change: along
the spurious edges paddle's numbers are zeros. An unknown node reads everything (its
own node is a root): at worst a spurious dependence, paddle's own answer, never a
missing one. A record lives as long as its result tensor (a weak reference, as
`unigrad.backends.paddle._records._Calls`); no hook is put on a double-grad node (they leak).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import paddle

from . import _formulas as F
from . import _polynomials as P
from ._engine import _PASS
from ._formulas import CUT_NODES
from ._nodes import (
    forgetter,
    hold,
    kids,
    memo,
    name,
    peek,
    reach,
    remember,
)
from ._refcounts import _grad_fn

__all__ = ["CUT_NODES", "edges", "own_shared_nodes", "recorded", "seed_copies", "structure"]


class _Decided:
    """What `structure` decided about live create_graph results and their seeds: one
    registry for the life of the process (`DECIDED`), changed under the engine's lock.
    Each entry lives as long as a result tensor (a weak reference whose callback
    deletes it, `forgetter`); then paddle's own graph holds again: a spurious
    dependence, never a missing one.

    Attributes:
        roots: ``result's node -> (a weak reference to the result, the roots, what its
            derivative toward each root reads, its polynomial)``: the nodes a recorded
            result's formulas read, which walks go to instead of paddle's edges (see
            the module docstring), for each root the roots its derivative reads, and
            the monomials of the result in its roots, degrees counted (both None:
            unknown, the result's node itself, as an unknown node's:
            `_derivative_reads`, `_edge_polys`).
        seed_copies: ``node -> (a weak reference to a result of its call, the entry it
            replaced or None: `_keep_seed_copies`)``: the
            leaf nodes of the constant seeds unigrad makes for a ``create_graph`` call
            (paddle.grad makes every seed require grad). The call's results' graphs
            reach them, and so do later calls' forward graphs built on the results:
            there they are constants, as is any node that leads to them alone
            (`_Walk.const`). The node is held, so paddle gives back the same wrapper
            for it (`unigrad.backends.paddle._nodes`).
    """

    __slots__ = ("roots", "seed_copies")

    def __init__(self) -> None:
        self.roots: dict[
            Any, tuple[weakref.ref[Any], list[Any], P.Reads | None, P.Poly | None]
        ] = {}
        self.seed_copies: dict[Any, tuple[weakref.ref[Any], Any]] = {}


#: The one registry of structure decisions (see `_Decided`).
DECIDED = _Decided()


def recorded() -> bool:
    """Whether a record may be alive (a walk must then go through `edges`)."""
    return bool(DECIDED.roots)


def edges(node: Any, keep: bool = True) -> list[Any]:
    """The nodes a walk goes to from ``node``: its children (None for an edge to
    nothing), or a recorded result's roots (see the module docstring). ``keep=False``
    leaves what it reads out of the memo (`unigrad.backends._paddle_nodes.peek`)."""
    roots = DECIDED.roots
    if roots:
        rec = roots.get(node)
        if rec is not None and rec[0]() is not None:
            return rec[1]
    return kids(node) if keep else peek(node)


def seed_copies(nodes: Sequence[Any], results: Sequence[Any]) -> None:
    """Register ``nodes`` (see `_Decided.seed_copies`) for as long as the first
    differentiable one of ``results``."""
    anchor = next((g for g in results if g is not None and not g.stop_gradient), None)
    if anchor is None:
        return
    table = DECIDED.seed_copies
    own = [node for node in nodes if node is not None]
    for node in own:
        table[node] = (weakref.ref(anchor, forgetter(table, node)), None)
    roots = DECIDED.roots
    if not (own and roots):
        return
    for g in results:
        rec = None if g is None or g.stop_gradient else roots.get(_grad_fn(g))
        if rec is not None and rec[0]() is g:
            # paddle's graph of a recorded result reaches the call's seeds (the
            # incoming gradients): its roots do too, as constants, so that a later
            # call's walk meets them and keeps them registered (`_keep_seed_copies`)
            # after this call's results are gone
            rec[1].extend(own)
            if rec[2] is not None:
                roots[_grad_fn(g)] = (rec[0], rec[1], (*rec[2], *(() for _ in own)), rec[3])


def _keep_seed_copies(nodes: Iterable[Any], results: Sequence[Any]) -> None:
    """Keep the seed copies a later call's walk met (``nodes``) registered for as long
    as the first differentiable one of its ``results`` too: its results' graphs reach
    them, and the earlier call's results may be gone by the next call (``a * b * c``'s
    third derivatives, the second call's results kept alone, required grad: its seeds'
    leaves read as leaves that require grad). The entry's second item is the one it
    replaced, back in place when the newer anchor goes first."""
    anchor = next((g for g in results if g is not None and not g.stop_gradient), None)
    if anchor is None:
        return
    table = DECIDED.seed_copies
    for node in nodes:
        prev = table.get(node)
        if prev is None or prev[0]() is anchor:
            continue
        table[node] = (weakref.ref(anchor, _seed_forgetter(table, node)), prev)


def _seed_forgetter(table: dict[Any, Any], key: Any) -> Callable[[Any], None]:
    """`forgetter` for `_keep_seed_copies`'s entries: the first earlier entry whose
    result is alive comes back."""

    def forget(ref: Any) -> None:
        entry = table.get(key)
        if entry is None or entry[0] is not ref:
            return
        entry = entry[1]
        while entry is not None and entry[0]() is None:
            entry = entry[1]
        if entry is None:
            del table[key]
        else:
            table[key] = entry

    return forget


class _Walk:
    """One walk of the forward graph from the outputs, cuts excluded: each node's
    children (`edges`), the inputs it leads to (a bit mask), and what the formulas of
    the nodes that lead to an input read, by the inputs their edges lead to.

    Nodes are keys by identity: paddle gives back the same wrapper for a node while
    one is alive (see `unigrad.backends.paddle._nodes`), and the walk holds every
    node it met."""

    def __init__(
        self, roots: Sequence[Any], targets: dict[Any, int], cuts: set[Any], real: bool = True
    ) -> None:
        self.targets = targets
        self.real = real  # no complex tensor in the call: `_formulas.PIECEWISE_LINEAR` is linear
        self.kids: dict[Any, list[Any]] = {}
        self.mask: dict[Any, int] = {}
        #: an edge's inputs (mask) -> the nodes its formula reads (as dict keys)
        self.used: dict[int, dict[Any, None]] = {}
        #: a node's inputs (mask) -> the nodes its edges' formulas read, for the nodes
        #: with an edge that leads to fewer inputs than the node
        self.every: dict[int, dict[Any, None]] = {}
        #: nodes that lead to unigrad's constant seeds alone (`_Decided.seed_copies`)
        self.const: set[Any] = set()
        #: the cut nodes the walk met (it does not go past them; paddle's pass does)
        self.met_cuts: set[Any] = set()
        #: whether the walk met a node of `_formulas.CUT_NODES` (paddle's pass runs its branch too)
        self.met_cut_nodes = False
        #: whether every formula the walk read toward an input is a polynomial of finite
        #: degree in what it reads (`_formulas.POLYNOMIAL`, records with such a polynomial)
        self.polynomial = True
        kid_map, mask = self.kids, self.mask
        const, copies = self.const, DECIDED.seed_copies
        read = edges if DECIDED.roots else kids  # (no record alive: paddle's edges)
        stack = [(r, False) for r in roots]
        pop, push = stack.pop, stack.append
        while stack:
            node, done = pop()
            if done:  # its children are done (a DAG: post-order)
                kms = [mask.get(c, 0) for c in kid_map[node]]  # (0 for None: no edge)
                m = targets.get(node, 0)
                for km in kms:
                    m |= km
                mask[node] = m
                if m:
                    self._reads(node, m, kms)
                elif copies or const:  # (a node that leads to an input is no constant)
                    ks = kid_map[node]
                    if node in copies or (
                        any(c is not None for c in ks) and all(c is None or c in const for c in ks)
                    ):
                        const.add(node)
                continue
            if node in kid_map:
                continue
            if node in cuts:
                self.met_cuts.add(node)
                continue
            if name(node) in CUT_NODES:  # depends on nothing: a constant here
                self.met_cut_nodes = True
                kid_map[node] = []
                mask[node] = 0
                # (a gradient that reads it alone is a constant: `structure`, rule 14)
                const.add(node)
                continue
            ks = read(node)
            if len(ks) == 3 and (ks[0] is None) != (ks[1] is None):
                ks = _live_edges(node, ks)
            kid_map[node] = ks
            if ks == _NO_EDGE:
                # a leaf's node (one edge to nothing): done at once, as the branch above
                # would do it (its formula, if any, reads through no edge)
                mask[node] = targets.get(node, 0)
                if copies and node in copies and not mask[node]:
                    const.add(node)
                continue
            push((node, True))
            for c in ks:
                if c is not None and c not in kid_map:
                    push((c, False))

    def _reads(self, node: Any, m: int, kms: list[int]) -> None:
        """Note what the formula of each edge of ``node`` (leading to the inputs ``m``;
        its edges to ``kms``) reads besides the incoming gradient."""
        ks = self.kids[node]
        per_edge = _edge_reads(node, ks, self.real)
        if per_edge is None:
            return
        if len(ks) == 2 and (ks[0] is None) != (ks[1] is None) and name(node) in F.PRODUCT_FORWARD:
            # a product with a constant: paddle's double-grad node keeps its edge to the
            # other operand, which no formula reads (`_formulas.PRODUCT_FORWARD`)
            bucket = self.every.get(m)
            if bucket is None:
                bucket = self.every[m] = {}
            bucket[ks[0] if ks[0] is not None else ks[1]] = None
        if self.polynomial and not _polynomial(node, self.kids[node]):
            self.polynomial = False
        used, every = self.used, self.every
        for reads, km in zip(per_edge, kms, strict=True):
            if not reads:
                continue
            if km:
                bucket = used.get(km)
                if bucket is None:
                    bucket = used[km] = {}
                for r in reads:
                    bucket[r] = None
            if km != m:
                bucket = every.get(m)
                if bucket is None:
                    bucket = every[m] = {}
                for r in reads:
                    bucket[r] = None

    def dependences(
        self, n: int, seeds: Sequence[Any]
    ) -> tuple[list[dict[Any, None]], list[dict[Any, None]]]:
        """For each input, the nodes its gradient's formulas read (the seeds included),
        and the nodes that the same nodes' formulas for their other edges read and it
        does not: paddle's shared double-grad nodes reach those too (where there are
        none, paddle's graph of the gradient holds what its formulas read, and needs
        no record). Each as a dict's keys (an ordered set)."""
        deps = []
        extra = []
        for i in range(n):
            bit = 1 << i
            found = dict.fromkeys(seeds)
            for m, bucket in self.used.items():
                if m & bit:
                    found.update(bucket)
            more: dict[Any, None] = {}
            for m, bucket in self.every.items():
                if m & bit:
                    more.update((r, None) for r in bucket if r not in found)
            deps.append(found)
            extra.append(more)
        return deps, extra

    def covers(self, starts: Iterable[Any], wanted: Iterable[Any]) -> bool:
        """Whether the nodes ``starts`` lead to every node of ``wanted`` (cuts included:
        a formula may read a cut tensor, whose own graph it then depends on); stops
        once they do."""
        left = set(wanted)
        stack = list(starts)
        targets, mask = self.targets, self.mask
        for w in [w for w in left if w in targets]:
            # an input's node: reached by a start that leads to that input
            if any(mask.get(s, 0) & targets[w] for s in stack):
                left.discard(w)
        if not left:
            return True
        kid_map = self.kids

        def read(node: Any) -> list[Any]:
            return kid_map.get(node) or edges(node)

        for node in reach(stack, read):
            left.discard(node)
            if not left:
                return True
        return not left


#: A node's edges when it has none but one to nothing (a leaf's accumulation node).
_NO_EDGE = [None]


def _live_edges(node: Any, ks: list[Any]) -> list[Any]:
    """The edges of ``node`` (``ks``: one of its first two is None) that carry a gradient.

    The double-grad node of ``x * y`` where only one operand required grad computed
    that operand's gradient alone (``x_grad = g * y``): the later pass brings ``ggx``
    only, so x's edge carries ``ggy * g``, zero, and only g's edge (``ggx * y``) carries
    a gradient. paddle 3.3.1 keeps the dead edge (its ``MatmulDoubleGradNode`` does not:
    ``[None, None, g]``), and walked as an edge it made ``g``'s value depend on ``x``
    (``d(remainder(a, x * x + 0.5))/dx`` is ``-2 x floor(a / b)``, whose derivative
    ``-2 floor(a / b)`` required grad: differential seed 402, program 218)."""
    if name(node) in F.PRODUCT_DOUBLE:
        return [None, None, ks[2]]
    return ks


def _edge_reads(node: Any, ks: list[Any], real: bool) -> tuple[tuple[Any, ...], ...] | None:
    """For each edge of ``node`` (its walk's children ``ks``), the nodes its formula
    reads besides the incoming gradient (none for an edge to nothing), or None for a
    linear op. Read once per node and children (`memo`): a PINN step's calls walk the
    same nodes again."""
    found = memo(node)
    if found is not None and found[0] is ks:  # (a record's roots are other children)
        return found[1]  # type: ignore[no-any-return]
    rec = DECIDED.roots.get(node) if DECIDED.roots else None
    if rec is not None and rec[1] is ks:
        # a recorded result: its node is paddle's identity op, but the result is some
        # function of its roots, linear or not (d(x*x)/dv, v = -x, is x*x: its own
        # derivative reads x). Read as an unknown node: every edge reads the node, at
        # worst a spurious dependence, never a missing one (a detached 2x there was a
        # wrong number once differentiated again:
        # test_any_program.py::test_a_recorded_gradient_is_not_linear_in_what_it_reads),
        # unless its record knows what its derivative toward each root reads
        if rec[2] is not None:
            return rec[2]
        return tuple(() if c is None else (node,) for c in ks)
    op = name(node)
    per_edge: tuple[tuple[Any, ...], ...] | None = None
    piecewise = op in F.PIECEWISE_LINEAR
    # (linear in a real call, or where the pass ran it on real tensors)
    by_call = (
        op in F.COMPLEX_PIECEWISE
        and not real
        and node.node_ptr() not in _PASS.__dict__.get("real_abs", ())  # (`_quirks._abs_hook`)
    )
    if op not in F.LINEAR and not (piecewise and (real or not by_call)):
        formula = F.READS.get(op)
        out: list[tuple[Any, ...]] = []
        for j, c in enumerate(ks):
            if c is None:
                out.append(())
            elif formula is None or j >= len(formula):
                out.append((node,))  # unknown: all the node reaches
            else:
                picks = [k for k in formula[j] if k < 0 or ks[k] is not None]
                out.append(tuple(node if k < 0 else ks[k] for k in picks))
        per_edge = tuple(out)
    if real or not by_call:  # (a complex call's unknown reading is its own)
        remember(node, (ks, per_edge))
    return per_edge


def _polynomial(node: Any, ks: list[Any]) -> bool:
    """Whether ``node``'s formulas (its walk's children ``ks``) are polynomials of
    finite degree in what they read (a record's: its polynomial's degrees)."""
    rec = DECIDED.roots.get(node) if DECIDED.roots else None
    if rec is not None and rec[1] is ks:
        poly = rec[3]
        return poly is not None and all(d < P.MANY for m in poly for _, d in m)
    return name(node) in F.POLYNOMIAL


def _edge_polys(node: Any, ks: list[Any], real: bool) -> list[P.Poly] | None:
    """For each edge of ``node`` (its walk's children ``ks``), its formula besides the
    incoming gradient as a sum of monomials in the nodes it reads (degree 1: linear,
    `_formulas.LINEAR_READS`; `P.MANY`: any other read), or None for a linear op (`_edge_reads`).
    A recorded result's edge to a root is the derivative of its polynomial toward it."""
    rec = DECIDED.roots.get(node) if DECIDED.roots else None
    if rec is not None and rec[1] is ks and rec[3] is not None:
        poly = rec[3]
        return [P.ONE if c is None else P.derivative(poly, c) for c in ks]
    per_edge = _edge_reads(node, ks, real)
    if per_edge is None:
        return None
    op = name(node)
    lin = F.LINEAR_READS.get(op)
    if rec is not None and rec[1] is ks:
        lin = None  # (a recorded result of unknown form: read as nonlinear)
    summed = P.SUM_EDGES.get(op, -1)
    out: list[P.Poly] = []
    for j, reads in enumerate(per_edge):
        linear: set[Any] = set()
        if lin is not None and j < len(lin):
            linear = {node if k < 0 else ks[k] for k in lin[j] if k < 0 or ks[k] is not None}
        if j == summed and all(r in linear for r in reads):
            out.append(frozenset(frozenset({(r, 1)}) for r in reads) or P.ONE)
            continue
        found: dict[Any, int] = {}
        for r in reads:
            found[r] = min(P.MANY, found.get(r, 0) + (1 if r in linear else P.MANY))
        out.append(frozenset({frozenset(found.items())}))
    return out


def _derivative_reads(
    walk: _Walk, outputs: Sequence[Any], seeds: Sequence[Any], bit: int, roots: list[Any]
) -> tuple[P.Reads, P.Poly] | None:
    """Input ``bit``'s gradient (a sum over the paths from the outputs to the input of
    the seed times each edge's formula) as a sum of monomials in its ``roots`` (a
    polynomial's support, degrees counted: ``a * b * c``'s gradient in ``a`` is ``b * c``,
    degree 1 in each; a product of ``n`` slices of ``x`` has degree ``n`` in ``x``), and
    what its derivative toward each root reads: the roots that root's derivative
    (`P.derivative`) holds. ``d(sum(x * y))/dx = y`` reads nothing toward ``y`` (a later
    gradient of ``g * s`` in ``y`` is ``s``, a constant: differential seed 3033, program
    4298); once every degree has counted down the result is a constant (``a * b * c``'s
    third derivatives). None where a root is not one of the nodes the walk read
    (unknown). Walked only when a result is recorded."""
    kids, mask, targets, real = walk.kids, walk.mask, walk.targets, walk.real
    polys: dict[Any, P.Poly] = {}
    #: a node met: the edges that lead to the input (post-order: its children first)
    live: dict[Any, list[tuple[int, Any]]] = {}
    stack = [n for n in outputs if mask.get(n, 0) & bit]
    while stack:
        node = stack[-1]
        if node in polys:
            stack.pop()
            continue
        edges_in = live.get(node)
        if edges_in is None:
            if targets.get(node, 0) & bit:
                stack.pop()
                polys[node] = P.ONE  # (the path ends at the input: a DAG)
                continue
            ks = kids[node]
            edges_in = live[node] = [
                (j, c) for j, c in enumerate(ks) if c is not None and mask.get(c, 0) & bit
            ]
            todo = [c for _, c in edges_in if c not in polys]
            if todo:
                stack.extend(todo)
                continue
        stack.pop()
        per_edge = _edge_polys(node, kids[node], real)
        found: set[P.Mono] = set()
        for j, c in edges_in:
            path = polys[c]
            if per_edge is not None:
                path = P.product(per_edge[j], path)
            found.update(path)
        polys[node] = frozenset(found) if len(found) <= P.POLY_CAP else P.collapse(found)
    total: set[P.Mono] = set()
    for n in outputs:
        total.update(polys.get(n, ()))
    poly = frozenset(total) if len(total) <= P.POLY_CAP else P.collapse(total)
    if seeds:  # (each path's product has its seed once)
        poly = P.product(frozenset({frozenset((s, 1) for s in seeds)}), poly)
    held = {r for m in poly for r, _ in m}
    if any(r not in held for r in roots):
        return None
    reads = []
    for r in roots:
        d = {o for m in P.derivative(poly, r) for o, _ in m}
        reads.append(tuple(o for o in roots if o in d))
    return tuple(reads), poly


def _degrees_count(roots: Iterable[Any], walk: _Walk) -> bool:
    """Whether a polynomial result whose dependence paddle's graph already gives needs a
    record for its degrees to count down in later calls: a walk through an earlier
    record (a chain of ``create_graph`` calls), or two of its roots on one leaf (the
    slices of ``prod``'s tree of multiplies: ``x``'s degree 2 and more). A result read
    from a forward graph alone whose roots lead to distinct leaves (a gradient
    penalty's gradient, linear in each weight) keeps paddle's own node: its later
    passes run paddle's graph as native code does, bit for bit (benchmarks/
    bench_overhead.py checks the WGAN-GP step's results are native's)."""
    recs = DECIDED.roots
    if recs and any(n in recs for n in walk.kids):
        return True
    seen: set[Any] = set()
    for r in roots:
        leaves = {n for n in reach([r], edges) if name(n) == "GradNodeAccumulation"}
        if leaves & seen:
            return True
        seen |= leaves
    return False


def _paddle_reach(
    g_node: Any, forward: set[Any], stop: frozenset[str], first: bool
) -> set[Any] | None:
    """The forward nodes paddle's graph of a result enters first (with ``first``, only
    the first one found), or None when it goes through a node of ``stop`` (a kernel
    refused later: keep paddle's graph as it is)."""
    entered: set[Any] = set()

    def onward(node: Any) -> bool:  # (not into the forward graph, nor past a cut)
        return node not in forward and name(node) not in CUT_NODES

    for node in reach([g_node], edges, through=onward):
        if node in forward:
            entered.add(node)
            if first:
                return entered
        elif stop and name(node) in stop:
            return None
    return entered


def _own_node(g: Any) -> Any:
    """``g`` through an identity op: a node of its own to carry a record. paddle's
    double-grad node is shared by the node's results, and reached by the graphs of
    other results built on it (``d(x*a + a*a)/da`` adds to it): a record there would
    prune their walks too, and consuming ``g`` would consume theirs. Recorded under
    grad mode whatever the caller's (a create_graph call under ``paddle.no_grad()`` still
    records: test_create_graph_under_no_grad_still_gives_a_second_order)."""
    with paddle.set_grad_enabled(True):
        return g.clone()


def own_shared_nodes(grads: list[Any]) -> None:
    """Give each differentiable result of a call with several an identity op of its own
    (in place). paddle's double-grad node is shared by the gradients of all its forward
    node's inputs (``d(x @ w)/dx`` and ``d(x @ w)/dw``), and its walks and passes see
    nodes, not output slots: a later pass that reaches one result's graph through that
    node reached the others too, so one of them taken as an input got zeros where it is
    unused (test_one_result_of_a_call_is_unused_by_a_function_of_another in
    test_dependence.py: ``UnusedInputError`` expected)."""
    idx = [i for i, g in enumerate(grads) if g is not None and not g.stop_gradient]
    if len(idx) < 2:
        return
    with paddle.set_grad_enabled(True):  # (as `_own_node`)
        for i in idx:
            if _grad_fn(grads[i]) is not None:
                grads[i] = grads[i].clone()


def structure(
    outputs: Sequence[Any],
    inputs: Sequence[Any],
    seeds: Sequence[Any],
    cuts: Sequence[Any],
    grads: list[Any],
    grad_fn: Callable[[Any], Any],
    stop: frozenset[str],
) -> tuple[list[Any], list[Any]]:
    """Correct ``grads`` (a create_graph call's results, in place): a result that depends
    on no tensor that requires grad is detached, an input the outputs do not reach
    through recorded results' roots is unused (None), and a result whose dependence is
    smaller than paddle's graph of it is recorded (see the module docstring).

    Returns the inputs' nodes (None where an input has none) and the outputs' nodes
    (those they have), for the caller's record of the call: each read costs ~1 us."""
    hold(outputs)
    hold(grads)  # paddle's graphs of the results are walked too
    targets: dict[Any, int] = {}
    input_nodes = [grad_fn(x) for x in inputs]  # (held: identities stay)
    for i, node in enumerate(input_nodes):
        if node is not None:
            targets[node] = targets.get(node, 0) | (1 << i)
    cut_nodes = {n for n in map(grad_fn, cuts) if n is not None}
    output_nodes = [n for n in map(grad_fn, outputs) if n is not None]
    walk = _Walk(output_nodes, targets, cut_nodes, not stop)
    seed_nodes = [n for n in map(grad_fn, seeds) if n is not None]
    deps, extra = walk.dependences(len(inputs), seed_nodes)
    # where paddle's graph of a result enters the forward
    forward = set(walk.kids)
    forward -= walk.const  # constants: a graph that enters them alone is a constant
    forward.update(seed_nodes)
    forward.update(cut_nodes)  # a cut's value is read like any other (not walked past)
    # paddle's pass runs a cut's branch with zeroed gradients (`_adapter._grad_cut`),
    # and its double-grad nodes there reach that branch's tensors, which no formula of
    # the result reads but through the cut's value: the forward graph behind the cuts
    # the walk met is forward too, so that a result whose graph enters it is recorded
    # (``grad([y, x / (w*w + 1)], x, no_grad_vars=[x / (w*w + 1)])``: paddle's shared
    # divide double-grad node reached ``w``, where the gradient is unused: differential
    # seed 27, program 2122)
    behind = set(reach(walk.met_cuts, edges)) if walk.met_cuts else set()
    forward.update(behind)
    for i, g in enumerate(grads):
        if g is None:
            continue
        node = input_nodes[i]
        if node is not None and node not in walk.mask:
            grads[i] = None  # reached only along a recorded result's spurious edges
            continue
        if g.stop_gradient:
            continue
        g_node = grad_fn(g)
        if g_node is None:  # paddle's copy of the seed (grad(v, v)): a leaf of its own
            if not deps[i]:
                grads[i] = g.detach()
            continue
        if g_node in forward:
            continue  # a tensor of the forward graph returned as it is (a seed)
        if not deps[i] or walk.const.issuperset(deps[i]):
            # its formulas read no tensor that requires grad, or only constants (a
            # rule-14 cut's result: sign(x), trunc(x), ...)
            grads[i] = g.detach()
            continue
        if not (behind or walk.met_cut_nodes) and (not extra[i] or walk.covers(deps[i], extra[i])):
            # paddle's graph of it holds at most what its formulas read; a graph that
            # reaches only paddle's own copies of the seeds is a constant (not past a
            # node of `_formulas.CUT_NODES`: paddle's pass runs its branch with zeroed gradients,
            # and its double-grad nodes there reach the graph of the gradient that
            # flowed into the cut, ``w`` in ``ceil(v) / (w*w + 1)``'s gradient in ``v``:
            # the result is recorded if it reaches more; differential seed 3030,
            # program 1314)
            if _paddle_reach(g_node, forward, stop, first=True) == set():
                grads[i] = g.detach()
                continue
            if not (walk.polynomial and walk.real) or not _degrees_count(deps[i], walk):
                continue
            # (a polynomial: recorded, see below)
        entered = _paddle_reach(g_node, forward, stop, first=False)
        if entered is None:  # a kernel with missing edges (complex abs): keep paddle's
            continue
        if not entered:  # paddle's graph reaches only its own copies of the seeds
            grads[i] = g.detach()
            continue
        if walk.covers(deps[i], entered) and not (
            walk.polynomial and (behind or walk.met_cut_nodes or _degrees_count(deps[i], walk))
        ):
            continue
        # a polynomial of finite degree is recorded even where paddle's graph holds
        # no more than its formulas read: paddle's double-grad nodes are shared by
        # their outputs (``x * y``'s by ``g * y`` and ``g * x``), which a walk of them
        # cannot tell apart (their nodes, not output slots), so the degrees read there
        # never count down (the third derivative of prod over three factors required
        # grad); a record's roots are forward nodes and other records
        grads[i] = g = _own_node(g)
        own = grad_fn(g)
        roots = list(deps[i])
        found = _derivative_reads(walk, output_nodes, seed_nodes, 1 << i, roots)
        reads, poly = found if found is not None else (None, None)
        DECIDED.roots[own] = (weakref.ref(g, forgetter(DECIDED.roots, own)), roots, reads, poly)
    copies = DECIDED.seed_copies
    if copies and walk.const:
        _keep_seed_copies([n for n in walk.const if n in copies], grads)
    return input_nodes, output_nodes
