"""Consumed graphs on torch (rule 6b): after ``retain_graph=False`` every node the engine
ran carries a consumed token in its ``metadata``, so a second pass fails even through
nodes that saved nothing (where torch itself would silently succeed). `_plan` walks the
nodes a pass will run and raises where one is consumed.
"""

from __future__ import annotations

import weakref
from functools import partial
from typing import Any

from ..._errors import (
    GraphFreedError,
)
from ...contract import _carried
from ...contract._carried import FREED_MESSAGE
from ._graph import _ACCUMULATE, _NO_CUTS, _VIEW_NODES, _covers, _ref, _runs_recursive
from ._records import _RECORD, _RECORDS_LIVE, _carried_by
from ._structure import _CUT_BELOW, _live_edges

_CONSUMED = "unigrad.consumed"


#: A weak reference to each live `_Consumed` token. Empty: no node anywhere carries the
#: consumed flag, so a pass cannot reach one and the check is skipped (see `_plan`).
_LIVE: set[weakref.ref[Any]] = set()


class _Consumed:
    """The value of the consumed flag, one per consuming pass, shared by its nodes.

    It lives exactly as long as the last node it marks (only nodes' ``metadata`` dicts
    hold it): while `_LIVE` is empty, no live node is flagged. A token outlived by a
    node cannot happen (the node's dict holds it); a token outliving its nodes (held
    elsewhere) only keeps the check on.

    `_LIVE` holds a weak reference to it whose callback, ``_LIVE.discard``, removes the
    reference itself when the token dies (its hash is the token's, computed while the
    token lives, and kept): no Python code runs, no ``__init__`` or ``__del__`` per
    consuming pass. ``at`` is the pass's stamp (`unigrad.contract._carried`, rule 6).
    """

    __slots__ = ("__weakref__", "at")

    def __init__(self) -> None:
        self.at = _carried.consume_epoch()


def _plan(
    outputs: tuple[Any, ...],
    inputs: tuple[Any, ...] | None,
    cuts: frozenset[tuple[Any, int]] = _NO_CUTS,
    edge_cuts: bool = False,
) -> list[Any]:
    """The nodes the pass will run; raises if one was consumed by an earlier pass.

    A node runs when one of its children leads to a target (an input's node, or an
    input leaf's gradient accumulator; with ``inputs=None`` every accumulator); a target
    is reached without running it. Accumulators are never returned: they are shared
    between graphs. Consumed nodes carry a flag in their ``metadata`` dict, which lives
    and dies with the node: no id() bookkeeping, nothing to fool after garbage
    collection. Edges into ``no_grad_vars`` (``cuts``) are not followed: nothing beyond
    a cut runs; with ``edge_cuts`` (the graph has `_CUT_EDGES`), neither are those
    (rule 14: a node reached only through ``sign`` is not the pass's, and a consumed one
    there does not raise: test_a_consumed_node_behind_a_cut_is_not_the_passs in
    test_differential_extensions.py). The walk answers
    ``_graph.executed``'s question for torch's node types.
    It runs on every consuming call (a training step's last), so it is written for
    speed: `_runs_recursive` reads each node's edges once and decides it on the way
    back, over `_live_edges` where the graph has rule 14's cut edges; a graph deeper
    than Python's recursion limit, or a pass with ``no_grad_vars`` cuts, is decided by
    `_runs_iterative` instead (same nodes; the recursive walk has no test per edge for
    them, about 4 % of its time).
    """
    every_leaf = inputs is None
    leaves: set[int] = set()
    targets: set[Any] = set()
    for x in inputs or ():
        fn = x.grad_fn
        if fn is None:
            leaves.add(id(x))
        else:
            targets.add(fn)
    roots = []
    for y in outputs:
        fn = y.grad_fn
        if fn is not None and (not cuts or (fn, y.output_nr) not in cuts):
            roots.append(fn)
    if cuts:  # (rare) the walk that reads no_grad_vars cuts, not on the common call's
        runs = _runs_iterative(roots, every_leaf, leaves, targets, cuts, edge_cuts)
    else:
        try:
            edges = _live_edges if edge_cuts else None
            runs = _runs_recursive(roots, every_leaf, leaves, targets, edges)
        except RecursionError:
            runs = _runs_iterative(roots, every_leaf, leaves, targets, cuts, edge_cuts)
    if _LIVE:  # some flagged node is alive: look for one among the nodes that run,
        # or (rule 6) a create_graph result the pass runs through
        records = bool(_RECORDS_LIVE)
        for node in runs:
            md = node.metadata
            if _CONSUMED in md or (records and _RECORD in md):
                _check_consumed(roots, runs, partial(_kids, cuts, edge_cuts))
                break
    return runs


def _consumed_at(node: Any) -> int:
    token = node.metadata.get(_CONSUMED)
    return 0 if token is None else int(token.at)


def _runs_iterative(
    roots: list[Any],
    every_leaf: bool,
    leaves: set[int],
    targets: set[Any],
    cuts: frozenset[tuple[Any, int]],
    edge_cuts: bool = False,
) -> list[Any]:
    """`_runs_recursive`'s answer without recursion, for graphs deeper than the
    recursion limit, and with cuts (edges into ``no_grad_vars`` are not followed, nor
    `_CUT_EDGES` with ``edge_cuts``):
    one walk down reads each node's edges once and records its
    parents, then a walk up from the targets met collects their ancestors."""
    parents: dict[Any, list[Any]] = {}
    met: list[Any] = []
    for r in roots:
        if r not in parents:
            parents[r] = []
            if r in targets:
                met.append(r)
    stack = list(parents)
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        for c, nr in _live_edges(node) if edge_cuts else node.next_functions:
            if c is None or (cuts and (c, nr) in cuts):
                continue
            ps = parents.get(c)
            if ps is not None:
                ps.append(node)
                continue
            parents[c] = [node]
            if type(c) is _ACCUMULATE:
                if every_leaf or id(c.variable) in leaves:
                    met.append(c)
            else:
                if c in targets:
                    met.append(c)
                push(c)
    ran: set[Any] = set()
    add = ran.add
    while met:
        for p in parents[met.pop()]:
            if p not in ran:
                add(p)
                met.append(p)
    return list(ran)


def _runs_uncut(outputs: tuple[Any, ...]) -> list[Any]:
    """Every node a ``backward`` from ``outputs`` into every leaf runs in torch's engine,
    cut edges (`_CUT_EDGES`) followed: what torch would accumulate into."""
    roots = [y.grad_fn for y in outputs if y.grad_fn is not None]
    return _runs_iterative(roots, True, set(), set(), _NO_CUTS)


def _useful(
    outputs: tuple[Any, ...], seeds: tuple[Any, ...], inputs: tuple[Any, ...], runs: list[Any]
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The outputs (and their seeds) from which a gradient reaches ``inputs``.

    torch's engine runs every output's node, even one that leads to no input: after a
    consuming pass that raises "backward through the graph a second time" although the
    contract's pass would not touch that node. Such outputs contribute nothing.
    """
    ran = set(runs)
    ids = {id(x) for x in inputs}
    nodes = {x.grad_fn for x in inputs if x.grad_fn is not None}
    keep = [
        i for i, y in enumerate(outputs) if id(y) in ids or y.grad_fn in ran or y.grad_fn in nodes
    ]
    if len(keep) == len(outputs):
        return outputs, seeds
    return tuple(outputs[i] for i in keep), tuple(seeds[i] for i in keep)


def _check_consumed(roots: list[Any], runs: list[Any], children: Any) -> None:
    """Raise if the pass runs a consumed node (rule 6b), or a ``create_graph`` result
    whose carried nodes were consumed since (rule 6, `_carried.check`), but a node that
    a result on the way carries: its consumption is that result's question (the
    consuming call's own consumption is not *since*, rule 15), a result among them
    included (the outer result carries what it carries).

    torch's graph of a gradient runs through the forward nodes whose saved tensors it
    reads: a node met below a result's node (one that holds `_RECORD`) is exempt when
    that result's call carries it (`_carried_by`); the gradient graph's own nodes, and
    forward nodes that call did not run, are checked as any node. The exemption
    belongs to the path: a carried node also reached from the outputs without crossing
    the result raises. Walked only where a consumed node is among ``runs``.
    """
    ran = set(runs)
    none: frozenset[Any] = frozenset()
    seen: set[tuple[Any, frozenset[Any]]] = set()
    stack = [(r, none) for r in roots if r in ran]
    while stack:
        node, exempt = stack.pop()
        if (node, exempt) in seen:
            continue
        seen.add((node, exempt))
        md = node.metadata
        pairs = md.get(_RECORD)
        if node not in exempt:
            if _CONSUMED in md:
                raise GraphFreedError(FREED_MESSAGE)
            for rec, _ in pairs or ():  # rule 6: its carried nodes consumed since
                _carried.check(_carried_by(rec), _consumed_at, rec.since)
        if pairs:
            exempt = exempt.union(*(_carried_by(rec) for rec, _ in pairs))
        stack.extend((c, exempt) for c in children(node) if c in ran)


def _clean(has_cuts: bool, no_grad_vars: Any = ()) -> bool | None:
    """What `_consume` may assume of a pass's ``runs``: True, it crossed no cut (rule
    14's cut edges, ``has_cuts``; ``no_grad_vars``); False, cut edges only (a node whose
    graph holds none, `_CUT_BELOW`, is as in an uncut pass); None, ``no_grad_vars``."""
    if no_grad_vars:
        return None
    return not has_cuts


def _pass_carried(runs: list[Any], inputs: tuple[Any, ...] | None, clean: bool | None) -> list[Any]:
    """The nodes outside ``runs`` that a ``retain_graph=False`` pass over ``runs`` toward
    ``inputs`` consumes (rule 6): those the ``create_graph`` results among ``runs``
    carry that lead to an input (`_carried_leading`); `_consume` marks them."""
    if not _RECORDS_LIVE:
        return []
    recs: dict[Any, None] = {}
    for node in runs:
        pairs = node.metadata.get(_RECORD)
        if pairs:
            recs.update((rec, None) for rec, _ in pairs)
    if not recs:
        return []
    return _carried_leading(list(recs), dict.fromkeys(runs, True), inputs, clean)


def _consume(
    runs: list[Any] | None,
    inputs: tuple[Any, ...] | None = None,
    clean: bool | None = None,
    carried: list[Any] | None = None,
) -> None:
    """Flag the nodes a ``retain_graph=False`` pass toward ``inputs`` (None: every leaf)
    ran: ``runs``, and (rule 6) the forward nodes carried by the ``create_graph``
    results among them that lead to an input (a pass through a gradient runs the
    forward nodes it was computed through; torch's engine runs those whose saved
    tensors it reads, unigrad flags all of them, as every backend does). A node flagged
    again takes the later token (consumed since). ``clean``: what the walk that found
    ``runs`` cut (`_clean`; None: nothing assumed). ``carried``: those forward nodes
    where found before the pass (`_pass_carried`), else found here."""
    if not runs:
        return
    token = _Consumed()
    _LIVE.add(_ref(token, _LIVE.discard))
    if carried is not None:
        for node in (*runs, *carried):
            if type(node) in _VIEW_NODES and _kept(node):
                continue
            node.metadata[_CONSUMED] = token
        return
    if not _RECORDS_LIVE:  # no create_graph result is alive: ``runs`` only
        for node in runs:
            if type(node) in _VIEW_NODES and _kept(node):
                continue
            node.metadata[_CONSUMED] = token
        return
    recs: dict[Any, None] = {}  # the create_graph calls whose results the pass ran
    for node in runs:
        md = node.metadata
        pairs = md.get(_RECORD)
        if pairs:
            recs.update((rec, None) for rec, _ in pairs)
        if type(node) in _VIEW_NODES and _kept(node):
            continue
        md[_CONSUMED] = token
    if recs:
        for node in _carried_leading(list(recs), dict.fromkeys(runs, True), inputs, clean):
            if type(node) in _VIEW_NODES and _kept(node):
                continue
            node.metadata[_CONSUMED] = token


def _carried_leading(
    recs: list[Any],
    ran: dict[Any, bool],
    inputs: tuple[Any, ...] | None,
    clean: bool | None = None,
) -> list[Any]:
    """The nodes outside ``ran`` (a consuming pass's nodes, each ``True``) that the
    records ``recs`` of the results it ran carry (`_carried_by`: what each call's pass
    ran, and transitively what the records met there carry) and that lead to
    ``inputs`` (None: any leaf).

    `_carried_by`'s answer without a walk per record: the records of one set of inputs
    (a PINN's nested calls, all toward its points) share one walk, whose answer is the
    union of theirs (a node runs toward the inputs, whichever output it was reached
    from), and stops at the nodes of ``ran`` below which the pass's walk cut nothing
    (``clean``, `_clean`) where the pass's inputs are the call's; records
    of a node of ``ran`` are among ``recs`` already. A node carried toward inputs that
    are all the pass's own leads to them; the others are decided by a walk toward the
    pass's inputs that stops at ``ran`` (`_leading`)."""
    if inputs is None:
        own: frozenset[Any] | None = None
    else:
        own = frozenset(id(x) if x.grad_fn is None else x.grad_fn for x in inputs)
    carried: dict[Any, None] = {}
    check: dict[Any, None] = {}  # carried nodes toward inputs not all the pass's
    walks: dict[frozenset[Any], dict[Any, bool]] = {}  # per inputs: the walk's answers
    seen = set(recs)
    todo = recs
    while todo:
        by_inputs: dict[frozenset[Any], list[Any]] = {}
        for rec in todo:
            if rec.carried is not None:  # (walked already: `_check_consumed`)
                for node in rec.carried:
                    if node not in ran and node not in carried:
                        carried[node] = None
                        check[node] = None
            else:
                by_inputs.setdefault(rec.inputs, []).append(rec)
        todo = []
        for keys, group in by_inputs.items():
            useful = walks.get(keys)
            if useful is None:
                # a node of ``ran`` leads to the pass's inputs: runs toward the call's
                # where they are the same (a MAML step's, both toward its weights; a
                # node below one of ``exact`` and outside ``ran`` leads to neither)
                useful = walks[keys] = _exact(ran, clean) if keys == own else {}
            leaves = {k for k in keys if type(k) is int}  # (`_ident`: a leaf's is an id)
            targets = {k for k in keys if type(k) is not int}
            roots = [n for rec in group for n in rec.outputs]
            try:  # (over live edges, as `_carried_by`: what the call's pass ran)
                found = _runs_recursive(roots, False, leaves, targets, _live_edges, useful)
            except RecursionError:
                found = _runs_iterative(roots, False, leaves, targets, _NO_CUTS, True)
            leads = own is not None and keys <= own
            for node in found:
                if node in ran or node in carried:
                    continue
                carried[node] = None
                if not leads:
                    check[node] = None
                for earlier, _ in node.metadata.get(_RECORD) or ():
                    if earlier not in seen:
                        seen.add(earlier)
                        todo.append(earlier)
    if not check:
        return list(carried)
    led = set(_leading(list(check), inputs, ran))
    return [n for n in carried if n not in check or n in led]


def _exact(ran: dict[Any, bool], clean: bool | None) -> dict[Any, bool]:
    """The nodes of ``ran`` below which the pass's walk cut nothing (`_clean`): all of
    them, those whose graph holds no cut edge (`_CUT_BELOW`), or none."""
    if clean:
        return dict(ran)
    if clean is None:
        return {}
    return {n: True for n in ran if n.metadata.get(_CUT_BELOW) is False}


def _leading(nodes: list[Any], inputs: tuple[Any, ...] | None, known: dict[Any, bool]) -> list[Any]:
    """The ``nodes`` from which a pass reaches one of ``inputs`` (None: any leaf);
    ``known``: nodes known to reach one (the walk stops there), filled in place."""
    leaves: set[int] = set()
    targets: set[Any] = set()
    for x in inputs or ():
        if x.grad_fn is None:
            leaves.add(id(x))
        else:
            targets.add(x.grad_fn)
    try:
        ran = set(_runs_recursive(nodes, inputs is None, leaves, targets, None, known))
    except RecursionError:
        ran = set(_runs_iterative(nodes, inputs is None, leaves, targets, _NO_CUTS))
    return [n for n in nodes if n in ran]


def _kept(node: Any) -> bool:
    """Whether ``node`` is a full-range slice's, which no pass consumes (rule 17):
    paddle gives such a slice no node of its own, and torch's saves nothing."""
    if type(node).__name__ == "AliasBackward0":
        return True
    return bool(node._saved_step == 1 and _covers(node))  # a SliceBackward0


def _leaves_of(outputs: tuple[Any, ...], runs: list[Any]) -> list[Any]:
    """The leaves that require grad a backward pass over ``runs`` accumulated into."""
    seen: set[int] = set()
    leaves = []
    found = [y for y in outputs if y.grad_fn is None and y.requires_grad]
    for node in runs:
        found.extend(c.variable for c, _ in node.next_functions if type(c) is _ACCUMULATE)
    for x in found:
        if id(x) not in seen:
            seen.add(id(x))
            leaves.append(x)
    return leaves


def _kids(cuts: frozenset[tuple[Any, int]], edge_cuts: bool, node: Any) -> list[Any]:
    edges = _live_edges(node) if edge_cuts else node.next_functions
    return [c for c, nr in edges if c is not None and (c, nr) not in cuts]
