"""paddle's graph for the contract's structural rules, and the records of ``create_graph``
calls (rows 6b, 16g): `_PaddleGraph` (the `GraphView`) and `CALLS` (the records).
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from ..._errors import GraphFreedError
from ...contract import GraphView, Record, _carried, _graph, attach
from ...contract._ambiguous import BETWEEN, refuse
from ...contract._carried import FREED_MESSAGE
from ...contract._refusals import candidates
from .._base import (
    GradRequest,
)
from ._consumption import CONSUMED, _children, _is_leaf_node
from ._engine import ENGINE_LOCK
from ._nodes import forgetter, next_functions, node_ptr, peek_name, reach
from ._refcounts import _grad_fn
from ._structure import CUT_NODES, edges, recorded
from ._tensor_methods import _is_alias


class _Calls:
    """The records of the live ``create_graph`` results: one registry for the life of
    the process (`CALLS`), read and changed under the engine's lock (`ENGINE_LOCK`).
    Each entry lives as long as its result tensor (a weak reference whose callback
    deletes it, `forgetter`): once the result is gone, a tensor derived from it alone
    carries no record.

    Attributes:
        records: ``node_ptr -> (a weak reference to the create_graph result, the
            records)``. paddle's nodes take no attributes, and a post-hook registered
            on a double-grad node (a way to keep a marker alive) leaks the node's
            memory (+5 MB per 300 steps of the soak loop): the result tensor, which
            holds its node, keeps the entry valid.
        inputs: ``node pointer of a create_graph result -> (a weak reference to the
            result, weak references to the inputs of the calls that made it
            (`_call_inputs_behind`), [the stamp it was made at] (rule 6,
            `_check_carried`), the seeds of those calls (held: paddle's graph of the
            result holds them too; a pass toward them goes through the result, which
            is linear in them: `_quirks.through_double_grad_results`))``.
    """

    __slots__ = ("inputs", "records")

    def __init__(self) -> None:
        self.records: dict[int, tuple[weakref.ref[Any], list[Record]]] = {}
        self.inputs: dict[
            int, tuple[weakref.ref[Any], tuple[list[weakref.ref[Any]], list[int], list[Any]]]
        ] = {}

    def of(self, node: Any) -> Any:
        """The records of the create_graph result whose node is ``node`` (a sequence)."""
        slot = self.records.get(node.node_ptr())
        if slot is None or slot[0]() is None:
            return ()
        return slot[1]

    def inputs_of(
        self, ptr: int
    ) -> tuple[weakref.ref[Any], tuple[list[weakref.ref[Any]], list[int], list[Any]]] | None:
        """The live ``inputs`` entry of the result whose node is at ``ptr``, or None."""
        held = self.inputs.get(ptr)
        return None if held is None or held[0]() is None else held


#: The one registry of create_graph records (see `_Calls`).
CALLS = _Calls()
_records = CALLS.of


def _record_call(
    request: GradRequest,
    grads: Sequence[Any],
    nodes: list[Any],
    outs: list[Any],
    seeds: Sequence[Any] = (),
) -> None:
    """Attach the call's `Record` to each differentiable result's node (``nodes``: the
    inputs', ``outs``: the outputs' that have one, as `structure` read them: the
    record is built from those reads rather than by `record_of`, each read costing
    ~1 us), and enter the results in `CALLS.inputs`, with the ``seeds`` the pass took
    (unigrad's own where the user's were None or constant)."""
    rec = Record(
        frozenset(n.node_ptr() for n in nodes if n is not None),
        tuple(outs),
        tuple(n for n in (_grad_fn(s) for s in request.seeds if s is not None) if n is not None),
        # (a leaf's node has nothing upstream: only its identity is kept)
        tuple(
            None if n is None else (n.node_ptr(), None if _is_leaf_node(n) else n) for n in nodes
        ),
    )
    attach(_GRAPH, rec, grads)
    bases: tuple[weakref.ref[Any], ...] | None = None
    for g in grads:
        node = None if g is None or g.stop_gradient else _grad_fn(g)
        if node is None:
            continue
        if bases is None:
            bases = tuple(weakref.ref(x) for x in request.inputs)
        ptr = node.node_ptr()
        held = CALLS.inputs_of(ptr)
        if held is None:
            table = CALLS.inputs
            held = table[ptr] = (weakref.ref(g, forgetter(table, ptr)), ([], [0], []))
        held[1][0].extend(bases)
        held[1][2].extend(s for s in seeds if s is not None and not s.stop_gradient)
        held[1][1][0] = _carried.now()  # rule 6: made after the call's own consumption


def _carried_nodes(
    rec: Record, depth: int = 0, memo: dict[Record, dict[int, Any]] | None = None
) -> dict[int, Any]:
    """Rule 6: the forward nodes (by pointer) a create_graph call's result carries:
    those between its outputs and inputs its pass ran, not past a node of `CUT_NODES`
    (rule 14: the contract's pass does not run what only ``sign`` reaches:
    test_a_create_graph_pass_through_a_cut_leaves_the_nodes_behind_it_usable in
    test_divergences_2026.py), and what the results of earlier calls among them carry.
    ``memo``: what one caller already found, by record (the records do not change
    while it runs; not kept longer: a record goes when its result does)."""
    if memo is not None:
        found = memo.get(rec)
        if found is not None:
            return found
    keys = rec.inputs
    ran = _graph.executed(
        rec.outputs, _live_children, lambda n: n.node_ptr() in keys, _is_leaf_node
    )
    carried = {n.node_ptr(): n for n in ran}
    if depth < 64:
        for n in ran:
            for earlier in _records(n):
                if earlier.call is not rec.call:
                    carried.update(_carried_nodes(earlier, depth + 1, memo))
    if memo is not None:
        memo[rec] = carried
    return carried


def _carried_ptrs(rec: Record) -> set[int]:
    return set(_carried_nodes(rec))


def carried_of(node: Any, memo: dict[Record, dict[int, Any]] | None = None) -> list[Any]:
    """The forward nodes the create_graph results whose node is ``node`` carry (rule 6:
    a pass through such a result runs them too, and a consuming one consumes them).
    ``memo``: as `_carried_nodes`'s, for one caller's many nodes."""
    out: list[Any] = []
    for rec in _records(node):
        out += _carried_nodes(rec, 0, memo).values()
    return out


def _ptr_in(ptrs: set[int], node: Any) -> bool:
    return bool(node.node_ptr() in ptrs)


def _exempt_walk(
    roots: list[Any], within: set[int] | None, visit: Callable[[Any, int, bool], None]
) -> bool:
    """Walk from ``roots`` (only through ``within``'s pointers, if given), calling
    ``visit(node, ptr, exempt)`` per node and path state: ``exempt`` when every path
    that reaches it this way crosses a create_graph result that carries it (rule 6:
    torch's and paddle's gradient graphs run through the forward nodes they were
    computed through; their consumption is the result's question). Whether a result
    was met."""
    memo: dict[int, set[int]] = {}
    crossed = False

    def step(state: tuple[Any, frozenset[int]]) -> list[tuple[Any, frozenset[int]]]:
        nonlocal crossed
        node, exempt = state
        recs = _records(node)
        if recs:
            crossed = True
            more: set[int] = set()
            for rec in recs:
                key = id(rec)
                if key not in memo:
                    memo[key] = _carried_ptrs(rec)
                more |= memo[key]
            exempt = exempt | more
        if peek_name(node) in CUT_NODES:  # (rule 14: no pass runs past a zero derivative)
            return []
        return [(c, exempt) for c in _children(node) if within is None or c.node_ptr() in within]

    none: frozenset[int] = frozenset()
    starts = [(r, none) for r in roots if within is None or r.node_ptr() in within]
    for node, exempt in reach(starts, step, key=_state_key):
        ptr = node.node_ptr()
        visit(node, ptr, ptr in exempt)
    return crossed


def _state_key(state: tuple[Any, Any]) -> tuple[int, Any]:
    """A path state's identity in a walk: its node's address and what the path crossed."""
    return state[0].node_ptr(), state[1]


def _check_carried(outputs: Sequence[Any], inputs: Sequence[Any] | None) -> None:
    """`GraphFreedError` before a pass that runs, other than below a create_graph result
    that carries it (`_exempt_walk`), a create_graph result one of whose carried nodes a
    pass consumed after the result was made (rule 6), or a list op's node a
    ``create_graph=True, retain_graph=False`` call consumed (`CONSUMED.lists`, rule 15).
    Walks only while such a consumption may have happened (a live result older than the
    latest consuming pass, or a live entry of `CONSUMED.lists`)."""
    if not CALLS.inputs and not CONSUMED.lists:  # (the common call: nothing to walk)
        return
    latest = _carried.now()
    stale = any(h[1][1][0] < latest for h in list(CALLS.inputs.values()) if h[0]() is not None)
    lists = CONSUMED.live_lists()
    if not stale and not lists:
        return
    is_target: Callable[[Any], bool] = _is_leaf_node  # backward() into every leaf
    if inputs is not None:
        targets = {n.node_ptr() for n in map(_grad_fn, inputs) if n is not None}
        is_target = functools.partial(_ptr_in, targets)
    roots = [n for n in map(_grad_fn, outputs) if n is not None]
    # (a recorded create_graph result's pass runs toward its roots, not paddle's edges:
    # ``-d(sum(tensordot(m, x)))/dx`` reads only ``m`` and runs no node toward ``x``,
    # whatever a later pass consumed: differential seed 6060, program 858)
    step = _recorded_children if recorded() else _children
    runs = {n.node_ptr() for n in _graph.executed(roots, step, is_target, _is_leaf_node)}

    def visit(node: Any, ptr: int, exempt: bool) -> None:
        if exempt:
            return
        if ptr in lists:
            raise GraphFreedError(FREED_MESSAGE)
        held = CALLS.inputs_of(ptr)
        if held is None or held[1][1][0] >= latest:
            return
        for rec in _records(node):
            _carried.check(_carried_ptrs(rec), CONSUMED.at, held[1][1][0])

    _exempt_walk([r for r in roots if r.node_ptr() in runs], runs, visit)


def _checked(outputs: Sequence[Any]) -> set[int] | None:
    """What the running pass's consumed nodes raise on (`_consumption._freed_hook`): the
    pointers of the nodes the outputs reach other than only below a create_graph result
    that carries them (`_exempt_walk`); None (every consumed node raises) where the
    outputs reach no such result, or no node was consumed."""
    if not CALLS.records or not CONSUMED.hooks:
        return None
    checked: set[int] = set()

    def visit(node: Any, ptr: int, exempt: bool) -> None:
        if not exempt:
            checked.add(ptr)

    roots = [n for n in map(_grad_fn, outputs) if n is not None]
    return checked if _exempt_walk(roots, None, visit) else None


def _call_inputs_behind(
    outputs: Sequence[Any], inputs: Sequence[Any], *, seeds: bool = False
) -> list[Any]:
    """The live inputs of the ``create_graph`` calls whose results the outputs reach,
    other than ``inputs`` (and with ``seeds``, those calls' seeds that require grad). A
    double-grad node exists only for an op the first pass ran through, so its base
    depends on one of that call's inputs: requesting them too makes paddle compute the
    base's gradient (then dropped)."""
    have = {id(x) for x in inputs}
    extra: list[Any] = []
    for node in reach(map(_grad_fn, outputs), next_functions, key=node_ptr):
        held = CALLS.inputs_of(node.node_ptr())
        if held is not None:
            found = [ref() for ref in held[1][0]] + (held[1][2] if seeds else [])
            for x in found:
                if x is not None and id(x) not in have:
                    have.add(id(x))
                    extra.append(x)
    return extra


def _recorded_children(node: Any) -> list[Any]:
    """``node``'s children as the structure pass reads them (`_structure.edges`): a
    recorded create_graph result's roots instead of paddle's edges."""
    return [c for c in edges(node, False) if c is not None]


def _live_children(node: Any) -> list[Any]:
    """The nodes a structural walk goes to from ``node``: none from a node of
    `CUT_NODES` (rule 14: an earlier create_graph call reached only through ``round``
    is not reached, as on the tapes, where ``round`` is a constant: differential seed
    777, program 4274 before b400b9a), else its children."""
    return [] if node.name() in CUT_NODES else _children(node)


class _PaddleGraph(GraphView):
    """paddle's graph for the contract's structural rules: ``GradNode`` objects named by
    their pointers, the records in `CALLS`, full-range slices as the alias paddle's
    ``__getitem__`` marks (`_tensor_methods`); read under `ENGINE_LOCK`, as another
    thread's pass may be changing the graph."""

    def node(self, t: Any) -> Any:
        return None if t.is_leaf or t.stop_gradient else _grad_fn(t)

    children = staticmethod(_live_children)

    ident = staticmethod(node_ptr)

    records = staticmethod(_records)

    def keep(self, node: Any, record: Record, position: int, result: Any) -> None:
        # (the entry lives as long as the result tensor: see `_Calls`)
        ptr = node.node_ptr()
        table = CALLS.records
        slot = table.get(ptr)
        if slot is None or slot[0]() is None:
            slot = table[ptr] = (weakref.ref(result, forgetter(table, ptr)), [])
        slot[1].append(record.at(position))

    def recording(self) -> bool:
        return bool(CALLS.records)

    full_slice = staticmethod(_is_alias)

    def lock(self) -> threading.RLock:
        return ENGINE_LOCK


_GRAPH = _PaddleGraph()


def _refuse_unrecorded(
    outputs: Sequence[Any], inputs: Sequence[Any], cuts: Sequence[Any] = ()
) -> None:
    """`UnsupportedFeatureError` for a non-leaf input or cut behind a gradient graph
    whose record is gone (`_unrecorded_gradient`): the front's structural rule
    (`unigrad.contract.refuse_structural`) cannot see such a graph."""
    if not cuts:
        for x in inputs:
            if not x.is_leaf:
                break
        else:  # leaves only (the common call): no candidate
            return
    cands = candidates(_GRAPH, inputs, cuts)
    if cands:
        label = _unrecorded_gradient([_grad_fn(y) for y in outputs], cands)
        if label is not None:
            refuse(label, BETWEEN)


def _unrecorded_gradient(roots: list[Any], cands: list[tuple[str, Any]]) -> str | None:
    """The first candidate the roots reach through a double-grad node that no recorded
    create_graph result covers, or None.

    A record lives as long as its result tensor (see `_Calls`): a tensor derived from
    a create_graph gradient that is gone (``grad(...)[0].T``), or a gradient taken with
    ``paddle.grad`` itself, leaves a gradient graph the structural rule cannot see. An
    intermediate behind one is refused, as paddle did before the rule was common: never
    paddle's own formulas' answer where the contract's cannot be told.
    """
    targets = {n.node_ptr(): label for label, n in cands}

    def step(state: tuple[Any, bool]) -> list[tuple[Any, bool]]:
        node, orphan = state
        if not orphan:
            if _records(node):
                return []  # a recorded gradient: the structural rule has decided
            name = node.name()
            orphan = "DoubleGrad" in name or "TripleGrad" in name
        return [(c, orphan) for c in node.next_functions if c is not None]

    for node, orphan in reach([(r, False) for r in roots if r is not None], step, key=_state_key):
        if orphan and (label := targets.get(node.node_ptr())) is not None:
            return label
    return None
