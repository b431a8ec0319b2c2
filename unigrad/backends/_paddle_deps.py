"""What a paddle ``create_graph`` gradient really depends on (semantics row 14).

paddle builds one double-grad node per forward node, shared by the gradients of all
that node's inputs, with edges to every tensor any of those gradients reads: the graph
of ``g = d(x*a)/dx`` (which is ``a``) reaches ``x`` too, and paddle exposes neither a
gradient's output slot nor the tensors a node saved. The dependence is read instead
from the forward graph and a table of backward formulas (`_READS`), the way torch's
``derivatives.yaml`` states them: the gradient of input ``i`` is a product, along every
path from the outputs to ``i``, of each node's formula for the edge the path takes, so
it depends on the seeds and, for each such (node, edge), on what that formula reads
besides the incoming gradient. "Reads input ``j``" is everything the node's edge ``j``
reaches (the tensor and its graph); "reads its output" is everything the node reaches.

A result whose dependence is smaller than what paddle's graph of it reaches gets a
record: its node (one of its own, `_own_node`, when paddle shares it with another
result) maps to the nodes its formulas read (the roots), and every later walk
(`kids`) goes to the roots instead of paddle's edges. The values do not change: along
the spurious edges paddle's numbers are zeros. An unknown node reads everything (its
own node is a root): at worst a spurious dependence, paddle's own answer, never a
missing one. A record lives as long as its result tensor (a weak reference, as
`unigrad.backends.paddle._RECORDS`); no hook is put on a double-grad node (they leak).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["kids", "recorded", "structure"]

#: Forward grad nodes whose backward formulas read nothing but the incoming gradient
#: (linear in it, with constant or non-differentiable coefficients: ``where``'s
#: condition, a mask, an index, a scale factor).
_LINEAR = frozenset(
    {
        "AddGradNode",
        "SubtractGradNode",
        "ScaleGradNode",
        "ReshapeGradNode",
        "TransposeGradNode",
        "UnsqueezeGradNode",
        "SqueezeGradNode",
        "FlattenGradNode",
        "ViewShapeGradNode",
        "StackGradNode",
        "ConcatGradNode",
        "SliceGradNode",
        "StridedSliceGradNode",
        "SumGradNode",
        "MeanGradNode",
        "MaskedSelectGradNode",
        "WhereGradNode",
        "RealGradNode",
        "ImagGradNode",
        "ConjGradNode",
        "ComplexGradNode",
        "CastGradNode",
        "AssignGradNode",
        "ExpandGradNode",
        "IndexSelectGradNode",
        "GatherGradNode",
        "GatherNdGradNode",
    }
)

#: Forward grad node name -> for each edge ``j`` (the gradient sent to input ``j``),
#: what its formula reads besides the incoming gradient: input indices, and ``-1`` for
#: the node's output (torch's formulas: tanh and exp read their result, sin and cos
#: their input, ``a / b`` reads ``b`` for ``a`` and both for ``b``).
_READS: dict[str, tuple[tuple[int, ...], ...]] = {
    "MultiplyGradNode": ((1,), (0,)),
    "MatmulGradNode": ((1,), (0,)),
    "DivideGradNode": ((1,), (0, 1)),
    "ExpGradNode": ((-1,),),
    "TanhGradNode": ((-1,),),
    "SigmoidGradNode": ((-1,),),
    "SqrtGradNode": ((-1,),),
    "SinGradNode": ((0,),),
    "CosGradNode": ((0,),),
    "LogGradNode": ((0,),),
    "SquareGradNode": ((0,),),
    "PNormGradNode": ((0, -1),),
}

#: An unknown node's formula: it may read anything the node reaches.
_EVERYTHING = (-1,)

#: ``node_ptr -> (a weak reference to the result, the roots)``: see the module docstring.
_ROOTS: dict[int, tuple[weakref.ref[Any], tuple[Any, ...]]] = {}


def _forget(ptr: int) -> Callable[[weakref.ref[Any]], None]:
    def forget(ref: weakref.ref[Any]) -> None:
        entry = _ROOTS.get(ptr)
        if entry is not None and entry[0] is ref:
            del _ROOTS[ptr]

    return forget


def recorded() -> bool:
    """Whether a record may be alive (a walk must then go through `kids`)."""
    return bool(_ROOTS)


def kids(node: Any, ptr: int) -> Sequence[Any]:
    """The nodes a walk goes to from ``node``: a recorded result's roots, or its edges."""
    if _ROOTS:
        entry = _ROOTS.get(ptr)
        if entry is not None and entry[0]() is not None:
            return entry[1]
    return node.next_functions  # type: ignore[no-any-return]


def _reads(node: Any, name: str, j: int, edges: Sequence[Any]) -> tuple[Any, ...]:
    if name in _LINEAR:
        return ()
    formula = _READS.get(name)
    picks = _EVERYTHING if formula is None or j >= len(formula) else formula[j]
    return tuple(node if k < 0 else edges[k] for k in picks if k < 0 or edges[k] is not None)


class _Walk:
    """One walk of the forward graph from the outputs, cuts excluded: each node's
    children (`kids`), and the inputs it leads to (a bit mask)."""

    def __init__(self, roots: Sequence[Any], targets: dict[int, int], cuts: set[int]) -> None:
        self.kids: dict[int, Sequence[Any]] = {}
        self.nodes: dict[int, Any] = {}
        self.mask: dict[int, int] = {}
        #: each walked node's children's pointers (0 for None), in edge order
        self.kptrs: dict[int, list[int]] = {}
        self.order: list[int] = []  # children before parents
        nodes, kid_map, kptrs, mask, order = self.nodes, self.kids, self.kptrs, self.mask, []
        pruned = bool(_ROOTS)
        stack = [(r, r.node_ptr(), False) for r in roots if r is not None]
        pop, push = stack.pop, stack.append
        while stack:
            node, ptr, done = pop()
            if done:
                m = targets.get(ptr, 0)
                for c in kptrs[ptr]:
                    m |= mask.get(c, 0)
                mask[ptr] = m
                order.append(ptr)
                continue
            if ptr in nodes or ptr in cuts:
                continue
            nodes[ptr] = node
            kid_map[ptr] = ks = kids(node, ptr) if pruned else node.next_functions
            kptrs[ptr] = cps = [0 if c is None else c.node_ptr() for c in ks]
            push((node, ptr, True))
            for c, cp in zip(ks, cps, strict=True):
                if cp and cp not in nodes:
                    push((c, cp, False))
        self.order = order

    def covers(self, starts: Sequence[Any], wanted: set[int]) -> bool:
        """Whether the starts lead to every node of ``wanted`` (cuts included: a formula
        may read a cut tensor, whose own graph it then depends on); stops once they do."""
        wanted = set(wanted)
        seen: set[int] = set()
        stack = list(starts)
        while stack:
            node = stack.pop()
            ptr = node.node_ptr()
            if ptr in seen:
                continue
            seen.add(ptr)
            wanted.discard(ptr)
            if not wanted:
                return True
            ks = self.kids.get(ptr)
            if ks is None:
                self.nodes[ptr] = node
                self.kids[ptr] = ks = kids(node, ptr)
            stack.extend(k for k in ks if k is not None)
        return False


def _dependences(
    walk: _Walk, n: int, seeds: Sequence[Any]
) -> tuple[list[list[Any]], list[dict[int, Any]]]:
    """For each input, the nodes its gradient's formulas read (the seeds included), and
    the nodes that the same nodes' formulas for their other edges read and it does not:
    paddle's shared double-grad nodes reach those too (where there are none, paddle's
    graph of the gradient holds what its formulas read, and needs no record)."""
    used: dict[int, dict[int, Any]] = {}  # an edge's inputs (mask) -> nodes read for it
    every: dict[int, dict[int, Any]] = {}  # a node's inputs (mask) -> nodes read for any edge
    mask, nodes, kid_map, kptrs = walk.mask, walk.nodes, walk.kids, walk.kptrs
    for ptr in walk.order:
        node_mask = mask[ptr]
        if not node_mask:
            continue
        node = nodes[ptr]
        name = node.name()
        if name in _LINEAR:
            continue
        edges = kid_map[ptr]
        for j, cp in enumerate(kptrs[ptr]):
            if not cp:
                continue
            reads = _reads(node, name, j, edges)
            if not reads:
                continue
            m = mask.get(cp, 0)
            if m:
                bucket = used.setdefault(m, {})
                for r in reads:
                    bucket[r.node_ptr()] = r
            if m != node_mask:
                bucket = every.setdefault(node_mask, {})
                for r in reads:
                    bucket[r.node_ptr()] = r
    deps = []
    extra = []
    for i in range(n):
        bit = 1 << i
        found: dict[int, Any] = {s.node_ptr(): s for s in seeds}
        for m, bucket in used.items():
            if m & bit:
                found.update(bucket)
        more: dict[int, Any] = {}
        for m, bucket in every.items():
            if m & bit:
                more.update((p, r) for p, r in bucket.items() if p not in found)
        deps.append(list(found.values()))
        extra.append(more)
    return deps, extra


def _paddle_reach(g_node: Any, forward: dict[int, Any], stop: frozenset[str]) -> set[int] | None:
    """The forward nodes paddle's graph of a result enters first, or None when it goes
    through a node of ``stop`` (a kernel refused later: keep paddle's graph as it is)."""
    entered: set[int] = set()
    seen: set[int] = set()
    stack = [g_node]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        ptr = node.node_ptr()
        if ptr in seen:
            continue
        seen.add(ptr)
        if ptr in forward:
            entered.add(ptr)
            continue
        if node.name() in stop:
            return None
        stack.extend(kids(node, ptr))
    return entered


def _paddle_enters(g_node: Any, forward: dict[int, Any], stop: frozenset[str]) -> bool:
    """Whether paddle's graph of a result reaches a forward node (or a node of ``stop``):
    `_paddle_reach`, stopped at the first one."""
    seen: set[int] = set()
    stack = [g_node]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        ptr = node.node_ptr()
        if ptr in seen:
            continue
        if ptr in forward or node.name() in stop:
            return True
        seen.add(ptr)
        stack.extend(kids(node, ptr))
    return False


def _own_node(g: Any) -> Any:
    """``g`` through an identity op: a node of its own to carry a record. paddle's
    double-grad node is shared by the node's results, and reached by the graphs of
    other results built on it (``d(x*a + a*a)/da`` adds to it): a record there would
    prune their walks too, and consuming ``g`` would consume theirs."""
    return g.clone()


def structure(
    outputs: Sequence[Any],
    inputs: Sequence[Any],
    seeds: Sequence[Any],
    cuts: Sequence[Any],
    grads: list[Any],
    grad_fn: Callable[[Any], Any],
    stop: frozenset[str],
) -> None:
    """Correct ``grads`` (a create_graph call's results, in place): a result that depends
    on no tensor that requires grad is detached, an input the outputs do not reach
    through recorded results' roots is unused (None), and a result whose dependence is
    smaller than paddle's graph of it is recorded (see the module docstring)."""
    targets: dict[int, int] = {}
    for i, x in enumerate(inputs):
        node = grad_fn(x)
        if node is not None:
            p = node.node_ptr()
            targets[p] = targets.get(p, 0) | (1 << i)
    cut_ptrs = {n.node_ptr() for n in map(grad_fn, cuts) if n is not None}
    walk = _Walk([grad_fn(y) for y in outputs], targets, cut_ptrs)
    seed_nodes = [n for n in (grad_fn(s) for s in seeds if s is not None) if n is not None]
    deps, extra = _dependences(walk, len(inputs), seed_nodes)
    forward = dict(walk.nodes)  # where paddle's graph of a result enters the forward
    forward.update((n.node_ptr(), n) for n in seed_nodes)
    for i, (x, g) in enumerate(zip(inputs, grads, strict=True)):
        if g is None:
            continue
        node = grad_fn(x)
        if node is not None and node.node_ptr() not in walk.mask:
            grads[i] = None  # reached only along a recorded result's spurious edges
            continue
        if g.stop_gradient:
            continue
        g_node = grad_fn(g)
        if g_node is None:  # paddle's copy of the seed (grad(v, v)): a leaf of its own
            if not deps[i]:
                grads[i] = g.detach()
            continue
        if g_node.node_ptr() in forward:
            continue  # a tensor of the forward graph returned as it is (a seed)
        if not deps[i]:  # its formulas read no tensor that requires grad
            grads[i] = g.detach()
            continue
        if not extra[i] or walk.covers(deps[i], set(extra[i])):
            # paddle's graph of it holds at most what its formulas read; a graph that
            # reaches only paddle's own copies of the seeds is a constant
            if not _paddle_enters(g_node, forward, stop):
                grads[i] = g.detach()
            continue
        entered = _paddle_reach(g_node, forward, stop)
        if entered is None:  # a kernel with missing edges (complex abs): keep paddle's
            continue
        if not entered:  # paddle's graph reaches only its own copies of the seeds
            grads[i] = g.detach()
            continue
        if walk.covers(deps[i], entered):
            continue
        grads[i] = g = _own_node(g)
        ptr = grad_fn(g).node_ptr()
        _ROOTS[ptr] = (weakref.ref(g, _forget(ptr)), tuple(deps[i]))
