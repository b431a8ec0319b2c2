"""Step 1 of ``grad`` on the tape: which nodes a pass runs, laid out as steps.

`analyse` walks back from the outputs (never through ``no_grad_vars``) and finds the
*live* nodes: those with an input upstream. Everything else a live node reads (untracked
arrays, tensors that do not depend on an input, cut tensors) is a constant. As it decides
each live node (post-order: its live parents are decided first) it lays the node out as
a step of the rebuilt function (`unigrad.tape._plan.build` completes it), so the graph
is walked once per ``grad`` call.

This module also holds what a pass does to the nodes it ran: consumption
(``retain_graph=False``: a consumed node drops its function and holds its parents only
weakly, `Ref`) and rule 6's record of what a ``create_graph`` result carries.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from .._errors import GraphFreedError
from ..contract import _carried
from ..contract._carried import FREED_MESSAGE
from ._node import Node
from ._slices import KEPT_NODES
from ._tensor import Tensor

__all__ = [
    "Analysis",
    "Ref",
    "Step",
    "analyse",
    "carried_by",
    "carry",
    "consume",
    "leaves_of",
    "parents_of",
]


class Ref:
    """A consumed node's parent: a weak reference plus where it came from."""

    __slots__ = ("index", "node", "ref")

    def __init__(self, t: Tensor) -> None:
        self.ref = weakref.ref(t)
        self.node = t._node
        self.index = t._index


def parents_of(node: Node) -> tuple[Any, ...]:
    """A node's parents; for a consumed node, each parent tensor still alive, its `Ref`
    if it died, None for a constant."""
    if not node.consumed:
        return node.parents
    out: list[Any] = []
    for p in node.parents:
        if isinstance(p, Ref):
            t = p.ref()
            out.append(p if t is None else t)
        else:
            out.append(None)
    return tuple(out)


def carried_by(nodes: Sequence[Node], inputs: Sequence[Any]) -> list[Node]:
    """Rule 6: the forward nodes that the create_graph results among ``nodes`` carry,
    those not among ``nodes`` that lead to one of ``inputs``: a pass through such a
    result runs them too (torch's and paddle's gradient graphs literally run through
    them, toward the inputs), so a ``retain_graph=False`` pass consumes them."""
    extra: dict[Node, None] = {}
    for node in nodes:
        if node.carries:
            extra.update(dict.fromkeys(node.carries))
    if not extra:
        return []
    for node in nodes:
        extra.pop(node, None)
    ids = {id(x) for x in inputs}
    memo: dict[Node, bool] = {}
    return [n for n in extra if _leads(n, ids, memo)]


def _leads(start: Node, ids: set[int], memo: dict[Node, bool]) -> bool:
    """Whether one of the tensors ``ids`` names is upstream of ``start`` (iterative)."""
    stack: list[tuple[Node, bool]] = [(start, False)]
    while stack:
        node, done = stack.pop()
        if node in memo and not done:
            continue
        ups: list[Node] = []
        hit = False
        for p in parents_of(node):
            t = p.ref() if isinstance(p, Ref) else p
            if t is not None and id(t) in ids:
                hit = True
            n = p.node if isinstance(p, Ref) else (p._node if isinstance(p, Tensor) else None)
            if n is not None:
                ups.append(n)
        if done:
            memo[node] = hit or any(memo.get(u, False) for u in ups)
            continue
        memo[node] = False  # a DAG: guards revisits until decided
        stack.append((node, True))
        stack.extend((u, False) for u in ups if u not in memo)
    return memo[start]


def consume(nodes: Sequence[Node]) -> None:
    """Consume ``nodes`` (``retain_graph=False``), but the full-range slices' nodes.

    A node consumed again (one a create_graph result carried: `carried_by`) takes the
    later stamp: rule 6 asks whether it was consumed since a result was made."""
    kept = KEPT_NODES or ()  # (a WeakSet's truth is its length: one call per pass)
    stamp = 0
    for node in nodes:
        if node in kept:
            continue
        stamp = stamp or _carried.consume_epoch()
        if node.consumed:
            node.consumed_at = stamp
            continue
        node.parents = tuple([Ref(p) if isinstance(p, Tensor) else None for p in node.parents])
        node.fn = None
        node.consumed = True
        node.consumed_at = stamp


def _consumed_at(node: Node) -> int:
    return node.consumed_at


#: The live results of create_graph calls that carry nodes (rule 6), each while the
#: tensor lives: a pass that consumes carried nodes first computes the pending values
#: among them that read those nodes (`pending_carriers`).
_CARRIERS: weakref.WeakSet[Tensor] = weakref.WeakSet()
_CARRIERS_LOCK = threading.Lock()  # (threads record and consume graphs of their own)


def pending_carriers(nodes: Sequence[Node]) -> list[Tensor]:
    """The live create_graph results whose value is still pending and whose node is one
    of ``nodes`` or carries one: computed before those nodes are consumed, or their
    value would be lost."""
    if not _CARRIERS:
        return []
    wanted = set(nodes)
    out = []
    with _CARRIERS_LOCK:
        carriers = list(_CARRIERS)
    for t in carriers:
        node = t._node if t._v is None else None
        if node is not None and (
            node in wanted or (node.carries is not None and not wanted.isdisjoint(node.carries))
        ):
            out.append(t)
    return out


def carry(a: Analysis, result: Sequence[Any]) -> None:
    """Rule 6: the nodes a create_graph call's results carry, its live nodes and what
    the results of earlier calls among them carry, stamped after the call's own
    consumption."""
    carried: dict[Node, None] = dict.fromkeys(a.order)
    for n in a.order:
        if n.carries:
            carried.update(dict.fromkeys(n.carries))
    nodes = tuple(carried)
    since = _carried.now()
    for g in result:
        node = g._node if isinstance(g, Tensor) else None
        if node is not None:
            node.carries = nodes
            node.carried_at = since
            with _CARRIERS_LOCK:
                _CARRIERS.add(g)


#: One step of a rebuilt function: (fn, sources of its arguments, first slot, outputs,
#: (slot, input) perturbations). A source is (0, input), (1, constant) or (2, slot).
Step = tuple[
    Callable[..., Any],
    tuple[tuple[int, int], ...],
    int,
    int,
    tuple[tuple[int, int], ...],
]


class Analysis:
    """The cut subgraph: live nodes in order, where inputs are reached, the leaves, and
    the rebuilt function's steps laid out so far."""

    __slots__ = (
        "base",
        "const_pos",
        "consts",
        "cut",
        "delta_at",
        "deltas",
        "in_pos",
        "keys",
        "leaves",
        "live",
        "n_slots",
        "order",
        "reached",
        "steps",
        "want_leaves",
    )

    def __init__(self, inputs: Sequence[Tensor], cut: set[int], want_leaves: bool) -> None:
        self.cut = cut
        self.want_leaves = want_leaves
        self.live: dict[Node, bool] = {}
        self.order: list[Node] = []
        #: id(input) -> its position, and whether the walk reached it.
        self.in_pos: dict[int, int] = {id(t): k for k, t in enumerate(inputs)}
        self.reached: list[bool] = [False] * len(inputs)
        self.leaves: dict[int, Tensor] = {}
        #: Per live node, in order: its first slot, its step, its part of the cache key.
        self.base: dict[Node, int] = {}
        self.steps: list[Step] = []
        self.keys: list[tuple[Any, ...]] = []
        self.n_slots = 0
        #: The constants the steps read (id -> position).
        self.consts: list[Any] = []
        self.const_pos: dict[int, int] = {}
        #: The inputs computed by a node of the graph (perturbed by their zero argument):
        #: node -> [(output index, input position)], and the positions.
        self.delta_at: dict[Node, list[tuple[int, int]]] = {}
        for k, x in enumerate(inputs):
            if x._node is not None and id(x) not in cut:
                self.delta_at.setdefault(x._node, []).append((x._index, k))
        self.deltas: set[int] = set()


def analyse(
    outputs: Sequence[Any],
    inputs: Sequence[Tensor],
    cut: set[int],
    *,
    collect_leaves: bool = False,
) -> Analysis:
    """Walk back from ``outputs``; raise `GraphFreedError` on a consumed live node.

    An iterative post-order walk from the outputs' nodes (`_roots`): a node is decided
    (`_decide_consumed` or `_decide_live`) once its parents are.
    """
    a = Analysis(inputs, cut, collect_leaves)
    stack = _roots(a, outputs)
    seen: set[Node] = set()
    push, pop = stack.append, stack.pop
    while stack:
        node, expanded = pop()
        if expanded:
            if node.consumed:
                _decide_consumed(a, node)
                continue
            _decide_live(a, node)
            continue
        if node in seen:
            continue
        seen.add(node)
        push((node, True))
        # the parents' nodes, not through a cut (a consumed node's parents: `parents_of`)
        for p in node.parents if not node.consumed else parents_of(node):
            if isinstance(p, Tensor):
                n = p._node
                if n is None or id(p) in cut:
                    continue
            elif isinstance(p, Ref):
                n = p.node
                if n is None:
                    continue
            else:
                continue
            if n not in seen:
                push((n, False))
    return a


def _roots(a: Analysis, outputs: Sequence[Any]) -> list[tuple[Node, bool]]:
    """The walk's first entries: the outputs' nodes (an output that is an input is
    reached; a leaf output is a leaf)."""
    stack: list[tuple[Node, bool]] = []
    for y in outputs:
        if isinstance(y, Tensor) and id(y) not in a.cut:
            i = a.in_pos.get(id(y))
            if i is not None:
                a.reached[i] = True
            if y._node is not None:
                stack.append((y._node, False))
            elif a.want_leaves:
                a.leaves[id(y)] = y
    return stack


def _decide_live(a: Analysis, node: Node) -> None:
    """`analyse`'s decision for a node not consumed: live or not, and if live, laid out
    as the next step of the rebuilt function.

    A live node's arguments come from (2, slot) for a live parent's output, (0, position)
    for an input, (1, position) for a constant (numbered once the node is known to be
    live); its step also adds the perturbations of the inputs it computes, and its part
    of the cache key is its key and those sources.
    """
    cut, in_pos, reached, live, base = a.cut, a.in_pos, a.reached, a.live, a.base
    is_live = False
    srcs: list[Any] = []
    const_at: list[int] | None = None  # where srcs holds a constant itself
    for p in node.parents:
        if isinstance(p, Tensor):
            pid = id(p)
            if pid not in cut:
                n = p._node
                i = in_pos.get(pid)
                if i is not None:
                    reached[i] = True
                    is_live = True
                    if n is not None and live[n]:
                        srcs.append((2, base[n] + p._index))
                    else:
                        srcs.append((0, i))
                    continue
                if n is None:
                    if a.want_leaves:
                        a.leaves[pid] = p
                elif live[n]:
                    is_live = True
                    srcs.append((2, base[n] + p._index))
                    continue
        if const_at is None:
            const_at = []
        const_at.append(len(srcs))
        srcs.append(p)
    live[node] = is_live
    if not is_live:
        return
    if const_at is not None:  # the constants' positions
        consts, const_pos = a.consts, a.const_pos
        for k in const_at:
            c = srcs[k]
            j = const_pos.get(id(c))
            if j is None:
                j = const_pos[id(c)] = len(consts)
                consts.append(c)
            srcs[k] = (1, j)
    # the step
    n_slots = a.n_slots
    base[node] = n_slots
    dl = a.delta_at.get(node) if a.delta_at else None
    ds: tuple[tuple[int, int], ...] = ()
    if dl:
        ds = tuple((n_slots + k, i) for k, i in dl)
        a.deltas.update(i for _, i in dl)
    if node.fn is None:  # (consumed nodes are decided before; a real check)
        raise GraphFreedError(FREED_MESSAGE)
    if node.carries is not None:  # a create_graph result's node (rule 6)
        _carried.check(node.carries, _consumed_at, node.carried_at)
    src_t = tuple(srcs)
    a.steps.append((node.fn, src_t, n_slots, node.n_out, ds))
    a.keys.append((node.key, src_t, ds))
    a.n_slots = n_slots + node.n_out
    a.order.append(node)


def _decide_consumed(a: Analysis, node: Node) -> None:
    """`analyse`'s decision for a consumed node: not live, or `GraphFreedError`."""
    live, in_pos, reached, cut = a.live, a.in_pos, a.reached, a.cut
    is_live = False
    for p in parents_of(node):
        if isinstance(p, Tensor):
            pid = id(p)
            if pid in cut:
                continue
            i = in_pos.get(pid)
            if i is not None:
                reached[i] = True
                is_live = True
            elif p._node is None:
                if a.want_leaves:
                    a.leaves[pid] = p
            elif live[p._node]:
                is_live = True
        elif isinstance(p, Ref) and p.node is not None and live[p.node]:
            is_live = True
    live[node] = is_live
    if is_live:
        raise GraphFreedError(FREED_MESSAGE)


def leaves_of(outputs: Sequence[Any]) -> list[Tensor]:
    """Every watched leaf the outputs depend on (for ``backward`` without ``inputs``)."""
    leaves = analyse(outputs, (), set(), collect_leaves=True).leaves.values()
    return [t for t in leaves if t.requires_grad]  # constants get no .grad
