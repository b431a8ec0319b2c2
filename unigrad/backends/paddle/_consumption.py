"""Consumed graphs on paddle (rule 6b): paddle never frees its graph, unigrad marks it.

After ``retain_graph=False`` every node the pass ran gets a post-hook that raises
(`_mark_executed`), except in a pass that reaches it only below a ``create_graph``
result that carries it (rule 6: the pass's `_PASS.plain`, `_records._checked`); paddle's
wrapped error becomes `GraphFreedError` (`_engine._translate`). A list op's node
consumed by a ``create_graph=True, retain_graph=False`` call takes no hook (paddle 3.3.1
cannot hand its gradients on from one, and the results' graphs run through it): it is
entered in `CONSUMED.lists` and checked before a pass (`_records._check_carried`). Each
consumption is stamped for rule 6 (`CONSUMED`, `unigrad.contract._carried`).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import paddle

from ..._errors import (
    GraphFreedError,
    UnsupportedFeatureError,
    message,
)
from ...contract import _carried, _graph
from ...contract._carried import FREED_MESSAGE
from ._engine import _PASS, _SENTINEL, plain_set
from ._nodes import PinnedHooks, next_functions, node_ptr, peek, reach
from ._refcounts import _grad_fn, _handed
from ._structure import CUT_NODES, edges, recorded

#: paddle's nodes whose forward op takes a list of tensors in one argument: their
#: gradient slot holds several tensors, which a post-hook cannot hand back (paddle 3.3.1
#: converts a hook's result to one tensor per slot: a raw ``TypeError``, or a crash
#: when the list is flattened). A create_graph call consumes them without a hook
#: (`CONSUMED.lists`), and a consumed one refuses to pass gradients on (`_pass_on`).
_MULTI_SLOT = frozenset(
    {
        "AddNGradNodeFinal",
        "BroadcastTensorsGradNode",
        "ConcatGradNode",
        "EinsumGradNode",
        "MeshgridGradNode",
        "MultiDotGradNode",
        "StackGradNode",
    }
)


_MULTI_SLOT_MESSAGE = message(
    "paddle cannot pass gradients on through this consumed node",
    expected="a pass that runs through a node consumed by an earlier retain_graph=False "
    "pass only where the contract allows it (a create_graph result's own graph, or a "
    "branch that leads to no input), through nodes whose gradients paddle lets a hook "
    "hand on",
    got="a node of an op that takes a list of tensors (stack, concat, add_n, einsum, "
    "multi_dot), whose gradients a hook cannot hand on in paddle 3.3.1",
    fix="Pass retain_graph=True to the earlier call that consumed the graph.",
)


def _pass_on(grads: Any) -> Any:
    """What a post-hook returns to let the node's gradients pass unchanged, or a clean
    refusal where paddle cannot take them back (a slot of several tensors: a list where
    a slot of one is the tensor itself)."""
    for slot in grads:
        if type(slot) is list:
            _PASS.__dict__["nested"] = err = UnsupportedFeatureError(_MULTI_SLOT_MESSAGE)
            raise err
    return _handed(grads)


def _freed_hook(ptr: int, *args: Any) -> Any:
    """The post-hook of a consumed node: raise, unless the running pass reaches the node
    only below create_graph results that carry it (rule 6: `_PASS.plain`; the call
    that made them consumed it, and its results stay differentiable: rule 15), where
    the node's gradients pass unchanged."""
    plain = plain_set()
    if (plain is None or ptr in plain) and not _leads_nowhere(ptr):
        raise RuntimeError(_SENTINEL)
    return _pass_on(args[0])


def _leads_nowhere(ptr: int) -> bool:
    """Whether the consumed node ``ptr``, run by unigrad's grad, leads to none of its
    inputs. paddle's engine runs some branches that reach no input (a leaf that requires
    grad but was not asked for), where torch's runs only what leads to the inputs: a
    consumed node there is not the pass's (its gradients are dropped), and the contract
    answers; nor is one the outputs reach, or that reaches the inputs, only through a
    node of `CUT_NODES` (rule 14: paddle runs ``sign``'s branch, zeroed), nor an
    intermediate input's own node that leads to no other input. Walked only
    when a consumed node runs; outside unigrad's grad, False. The walk goes to a
    recorded create_graph result's roots (`edges`), not paddle's edges: the spurious
    double-grad nodes paddle built for a cut branch (``tanh``'s, behind ``sign``) reach
    the forward nodes behind the cut, which the result's formulas do not read."""
    call = _PASS.call
    if call is None:
        return False
    outputs, inputs = call
    # (test_a_create_graph_pass_through_a_cut_leaves_the_nodes_behind_it_usable in
    # test_divergences_2026.py)
    step = functools.partial(edges, keep=False) if recorded() else next_functions
    if inputs is None:  # (``backward()`` into every leaf: only the cut part applies)
        found = next(
            (
                n
                for n in reach(map(_grad_fn, outputs), step, through=_not_cut, key=node_ptr)
                if n.node_ptr() == ptr
            ),
            None,
        )
        # (test_backward_through_a_cut_edge_answers_beyond_consumed_nodes in
        # test_divergences_2026.py)
        return found is None
    wanted = {n.node_ptr() for n in map(_grad_fn, inputs) if n is not None}
    found = next(
        (
            n
            for n in reach(map(_grad_fn, outputs), step, through=_not_cut, key=node_ptr)
            if n.node_ptr() == ptr
        ),
        None,
    )
    if found is None:
        # reached only through a cut (rule 14: sign(v) of a consumed v): the
        # contract's pass does not run it
        # (test_a_consumed_node_behind_a_cut_is_not_the_passs in
        # test_differential_extensions.py)
        return True
    # (below it, not the node itself: an intermediate input's own node runs in the
    # contract's pass only where it leads to another input; the pass stops at the input:
    # differential seed 3032, program 2982)
    below = reach(step(found), step, through=_not_cut, key=node_ptr)
    return not any(n.node_ptr() in wanted for n in below)


def _not_cut(node: Any) -> bool:
    return node.name() not in CUT_NODES


class _Consumed:
    """What passes consumed on paddle's graphs: one registry for the life of the
    process (`CONSUMED`), read and changed under the engine's lock (`ENGINE_LOCK`).

    An entry lives as long as its node: a hook's entry until a sweep finds no node
    holding the hook, a list op's entry while one of its owners lives.

    Attributes:
        hooks: the post-hook of each consumed node (`_freed_hook`), by pointer
            (`_nodes.PinnedHooks`: a node never owns its hook alone, and a node that
            reuses an address reuses the hook). Hooks whose nodes are gone are freed
            before each consuming pass marks its nodes (`sweep`).
        stamps: ``node_ptr -> the stamp of the pass that consumed it`` (rule 6,
            `unigrad.contract._carried`); an entry counts while the node holds its hook
            (`at`), and goes with the hook.
        lists: rule 15 on paddle: the list ops' nodes (`_MULTI_SLOT`) a
            ``create_graph=True, retain_graph=False`` call consumed, which take no hook:
            ``node_ptr -> (the stamp, the node, weak references to that call's outputs
            and results)``. The entry holds the node (paddle's wrapper holds the C++
            node: no other node takes its address) while one of those tensors lives;
            once they are all gone the entry goes (a pass through the node from an
            intermediate tensor held alone then answers).
    """

    __slots__ = ("hooks", "lists", "stamps")

    def __init__(self) -> None:
        self.hooks = PinnedHooks(_freed_hook)
        self.stamps: dict[int, int] = {}
        self.lists: dict[int, tuple[int, Any, tuple[weakref.ref[Any], ...]]] = {}

    def any(self) -> bool:
        """Whether a node may be consumed (a hook or a list op's entry exists)."""
        return bool(self.hooks or self.lists)

    def stamp(self, nodes: Iterable[Any]) -> int:
        """Stamp ``nodes`` as consumed by a new pass; the stamp."""
        stamp = _carried.consume_epoch()
        stamps = self.stamps
        for node in nodes:
            stamps[node.node_ptr()] = stamp
        return stamp

    def live_lists(self) -> dict[int, int]:
        """The live entries of ``lists``, ``node_ptr -> stamp`` (dead ones dropped)."""
        if not self.lists:
            return {}
        live: dict[int, int] = {}
        for ptr, (stamp, _, owners) in list(self.lists.items()):
            if any(r() is not None for r in owners):
                live[ptr] = stamp
            else:
                del self.lists[ptr]
                if ptr not in self.hooks:
                    self.stamps.pop(ptr, None)
        return live

    def adopt(self, old: Sequence[Any], new: Sequence[Any]) -> None:
        """Make ``new[i]`` an owner of the list ops' entries ``old[i]`` owns, where the
        structure pass replaced a create_graph result by a copy of its own
        (`_structure._own_node`): the copy's graph runs through the same nodes, and
        the replaced tensor is gone once the call returns."""
        pairs = [(o, n) for o, n in zip(old, new, strict=True) if o is not n and n is not None]
        if not (pairs and self.lists):
            return
        for ptr, (stamp, node, owners) in list(self.lists.items()):
            more = tuple(weakref.ref(n) for o, n in pairs if any(r() is o for r in owners))
            if more:
                self.lists[ptr] = (stamp, node, owners + more)

    def at(self, ptr: int) -> int:
        """The stamp of the pass that consumed the node at ``ptr``, or 0."""
        entry = self.lists.get(ptr)
        if entry is not None and any(r() is not None for r in entry[2]):
            return entry[0]
        if not self.hooks.held(ptr):
            # (a dead node's hook, not swept yet, at an address a new node reuses)
            return 0
        stamp = self.stamps.get(ptr, 0)
        if stamp:
            # the holder may be a copy paddle's engine kept, not the node now at ``ptr``
            _drop_engine_copies()
            if not self.hooks.held(ptr):
                return 0
        return stamp

    def sweep(self) -> None:
        """Free the hooks no node holds, and their stamps."""
        for ptr in self.hooks.sweep():
            self.stamps.pop(ptr, None)


#: The one registry of consumed nodes (see `_Consumed`).
CONSUMED = _Consumed()


def _drop_engine_copies() -> None:
    """Free the node copies paddle's engine keeps from the last ``paddle.grad`` pass.

    paddle 3.3's ``paddle.grad`` (``egr::GeneralGrad``) runs copies of the nodes of its
    partial graph, post-hooks included, and keeps them until the next ``paddle.grad``
    pass clears them. A copy of a consumed node holds the node's freed hook after the
    node itself died, so a new node that reuses the dead node's address looked
    consumed (a false `GraphFreedError`, a ``backward`` after a ``grad`` that met a
    consumed graph: test_a_new_graph_is_not_consumed_where_a_dead_consumed_node_lived in
    test_differential_extensions.py). A one-element
    pass clears them; it runs only where a consumed node is found (the error path)."""
    with paddle.set_grad_enabled(True):
        a = paddle.ones([1], dtype="float32")
        a.stop_gradient = False
        paddle.grad([a * a], [a])


def _refuse_consumed_before_backward(outputs: Sequence[Any], cut: bool = False) -> None:
    """`GraphFreedError` before a ``backward()`` pass that would meet a consumed node
    outside a gradient graph: paddle's ``backward(retain_graph=False)`` frees each node
    it runs before a later node's freed hook raises, so a refused pass would damage
    nodes a create_graph result's graph still crosses (a list-op node, unmarked by a
    create_graph=True, retain_graph=False call, rule 15). With ``cut`` (the graph holds
    a node of `CUT_NODES`) not past one: what only a cut reaches is not the pass's
    (rule 14; paddle runs it, retained, and its consumed nodes' hooks let it through:
    `_leads_nowhere`)."""
    plain = plain_set()
    through = _not_cut if cut else None
    # (a recorded result's roots, as `_leads_nowhere` walks)
    step = functools.partial(edges, keep=False) if recorded() else next_functions
    for node in reach(map(_grad_fn, outputs), step, through=through, key=node_ptr):
        ptr = node.node_ptr()
        if (plain is None or ptr in plain) and CONSUMED.at(ptr):
            raise GraphFreedError(FREED_MESSAGE)


def _refuse_consumed_toward(
    outputs: Sequence[Any], inputs: Sequence[Any], plain: AbstractSet[int] | None
) -> None:
    """`GraphFreedError` where a pass from ``outputs`` to ``inputs`` would run a consumed
    node whose hook raises there (`_freed_hook`: ``plain`` as `_PASS.plain`, None: every
    one), for a pass paddle's engine could not finish for another reason: a cut branch
    that `PaddleBackend._grad_cut` runs only for its consumed nodes, through a kernel
    that fails on zeros (complex ``abs``'s double-grad node casting complex64). Walks
    the nodes that lead to an input, not past a node of `CUT_NODES` (`_leads_nowhere`:
    neither runs in the contract's pass); only on that error path."""
    want = {n.node_ptr() for n in map(_grad_fn, inputs) if n is not None}
    roots = [n for n in map(_grad_fn, outputs) if n is not None]
    for node in _graph.executed(roots, _live_kids, lambda n: n.node_ptr() in want, _is_leaf_node):
        ptr = node.node_ptr()
        if (plain is None or ptr in plain) and CONSUMED.at(ptr):
            raise GraphFreedError(FREED_MESSAGE)


def _live_kids(node: Any) -> list[Any]:
    return [] if node.name() in CUT_NODES else _children(node)


def _children(node: Any) -> list[Any]:
    return [c for c in node.next_functions if c is not None]


def _is_leaf_node(node: Any) -> bool:
    return bool(node.name() == "GradNodeAccumulation")


def _mark_executed(
    roots: list[Any],
    targets: set[Any],
    leaves: set[Any],
    cuts: frozenset[int] = frozenset(),
    *,
    list_ops: bool = True,
    owners: Sequence[Any] = (),
    cut_names: frozenset[str] = frozenset(),
    carried_of: Callable[[Any], Iterable[Any]] | None = None,
) -> None:
    """Give a raising post-hook to every node a pass from ``roots`` to ``targets`` ran.

    ``list_ops=False`` (a ``create_graph=True, retain_graph=False`` call, whose results'
    graphs run through the nodes it consumed) enters the list ops' nodes in
    `CONSUMED.lists` instead, kept while one of ``owners`` (the call's outputs and
    results) lives. Edges out of
    a node named in ``cut_names`` are not followed (rule 14: what only ``sign`` reaches
    is not the pass's). ``carried_of(node)``: the forward nodes a create_graph result's
    node carries, which a pass through it runs too (rule 6).

    A node runs when one of its children is a target or runs; a target is reached
    without running it. `unigrad.contract._graph.executed` answers the same
    question generically; this walk is specialised for paddle, where reading a node's
    edges costs 0.5 to 1 us (`_nodes` has what an earlier walk read) and a
    hook costs about as much, so that the Python around them matters: one walk down
    records each node's parents, then one walk up from the targets collects the nodes
    that ran. ``leaves`` are targets known to be accumulation nodes (the inputs that
    are leaves): their empty edges are not read. A node with no children (a leaf's
    ``GradNodeAccumulation``) never runs, so leaves, which graphs share, are never
    marked. Post-hooks live as long as the C++ node; the remove-helper each
    registration returns is dropped at once. Iterative: long chains do not hit the
    recursion limit. (Nodes are keys by identity: paddle gives back the same wrapper
    for a node while one is alive, and the walk holds every node it met.)
    """
    CONSUMED.sweep()
    if cuts:  # nothing beyond a no_grad_vars cut is the pass's: it stays usable
        roots = [r for r in roots if r.node_ptr() not in cuts]
    parents: dict[Any, list[Any]] = {r: [] for r in roots}
    stack = list(parents)
    pop, push = stack.pop, stack.append
    # a recorded result runs its roots, not paddle's shared node (`edges`); what the
    # memo does not hold yet is read without keeping it (the walk holds no tensor)
    read = functools.partial(edges, keep=False) if recorded() else peek
    while stack:
        node = pop()
        if cut_names and node.name() in cut_names:
            continue
        for c in read(node):
            if c is None or (cuts and c.node_ptr() in cuts):
                continue
            ps = parents.get(c)
            if ps is None:
                parents[c] = [node]
                if c not in leaves:
                    push(c)
            else:
                ps.append(node)
    ran: set[Any] = set()
    up = [t for t in targets if t in parents]
    while up:
        for p in parents[up.pop()]:
            if p not in ran:
                ran.add(p)
                up.append(p)
    again: list[Any] = []  # carried nodes consumed before: a new stamp, no second hook
    if carried_of is not None:
        have = {n.node_ptr() for n in ran}
        found: dict[int, Any] = {}
        for node in list(ran):
            for c in carried_of(node):
                p = c.node_ptr()
                if p not in have:
                    have.add(p)
                    found[p] = c
        if found:  # those that lead to a target (the engine runs only those)
            want = {t.node_ptr() for t in targets}
            leads = _graph.executed(
                list(found.values()), _children, lambda n: n.node_ptr() in want, _is_leaf_node
            )
            for c in leads:
                p = c.node_ptr()
                if p in found:
                    if CONSUMED.at(p):
                        again.append(c)
                    else:
                        ran.add(c)
    # list ops' nodes stay hookless where a create_graph result's graph may run them
    lists: list[Any] = []
    if not list_ops:
        lists = [n for n in ran if n.name() in _MULTI_SLOT]
    elif CONSUMED.lists:
        lists = [n for n in ran if n.node_ptr() in CONSUMED.lists]
    if lists:
        ran.difference_update(lists)
    stamp = CONSUMED.stamp([*ran, *again, *lists] if again or lists else ran)
    refs = tuple(weakref.ref(y) for y in owners) if again or lists else ()
    consumed_lists = CONSUMED.lists
    for node in [*again, *lists]:
        ptr = node.node_ptr()
        entry = consumed_lists.get(ptr)
        if entry is not None:
            consumed_lists[ptr] = (stamp, entry[1], entry[2] + refs)
        elif node.name() in _MULTI_SLOT and not list_ops:
            consumed_lists[ptr] = (stamp, node, refs)
    register = CONSUMED.hooks.register
    for node in ran:
        register(node)
