"""Rule 14 on torch: a pass whose engine would run nodes beyond a cut edge that an earlier
pass freed, or would free nodes there.

torch 2.13's engine runs every node that leads to an input, through edges whose
derivative is identically zero too (``ceil``'s node sends zeros, and the node below it
runs with them): after ``grad(sum(h), x)`` freed ``h = tanh(x * x)``'s saved tensors,
``grad(sum(ceil(h) + x * x), x)`` raised "backward through the graph a second time"
though the contract's pass never runs ``tanh``'s node (rule 14: it is reached only
through the cut). Pre- and post-hooks do not stop the engine from running a node (its
saved tensors are unpacked before its incoming gradient is looked at), and no edge of
torch's graph can be removed. So such a pass runs the contract's nodes one by one
(`_run_restricted`): each node called directly, as the engine calls it, its
gradients checked against the next node's input metadata as the engine's
``validate_outputs`` does, and nothing sent along a cut edge. `_beyond_cuts` finds
where that is needed; it runs only where a node below a cut edge that the pass does
not reach was freed (`_behind_cuts`), and the common pass pays nothing.

The converse: a ``retain_graph=False`` pass through a cut edge, whose engine would run
and free nodes behind it, or nodes that lead to an input only through it
(`_reached_unrun`), that the contract's pass neither runs nor consumes (rule 6b: they
stay usable), keeps the graph (`_frees_unrun`).

What the direct calls do not do, where this path runs: fire hooks on the nodes and
tensors of the graph (``register_hook`` on an intermediate, ``retain_grad``), and free
the saved tensors of the nodes they ran (torch exposes no call for it): those stay
until the graph is collected; the contract's consumption (rule 6b) is marked as for
any pass.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

import torch

from ._consumption import _leading, _pass_carried, _runs_iterative
from ._graph import _ACCUMULATE, _NO_CUTS
from ._records import _RECORD, _RECORDS_LIVE
from ._structure import _cut_of, _live_edges

_get_edge: Any = torch.autograd.graph.get_gradient_edge

#: The node type of a Python ``torch.autograd.Function`` (its backward is ``apply``).
_PY_NODE = torch.autograd.function.BackwardCFunction


#: The names of each node type's saved-tensor attributes (``_saved_self``, ...; a
#: Python autograd.Function's ``saved_tensors``), filled as types are met: reading one
#: raises once a pass freed them.
_SAVED: dict[type, tuple[str, ...]] = {}


def _freed(node: Any) -> bool:
    """Whether a pass freed ``node``'s saved tensors (reading one raises then)."""
    t = type(node)
    names = _SAVED.get(t)
    if names is None:
        if isinstance(node, _PY_NODE):  # a Python autograd.Function's node
            names = ("saved_tensors",)
        else:
            raw = "_raw_saved_"
            names = tuple("_saved_" + a[len(raw) :] for a in dir(node) if a.startswith(raw))
        _SAVED[t] = names
    for name in names:
        try:
            getattr(node, name)
        except (RuntimeError, TypeError, ValueError) as err:  # (only the freed one counts)
            if "second time" in str(err):
                return True
    return False


def _behind_cuts(
    cut_nodes: list[Any], reached: AbstractSet[tuple[Any, int]]
) -> tuple[bool, list[Any]]:
    """The nodes below a cut edge of ``cut_nodes``, in the part of the graph the pass
    does not reach (`_structure._reachable`'s edges ``reached``): whether one had its
    saved tensors freed (torch's engine would fail there if it runs it, which
    `_beyond_cuts` then decides), and else those that hold saved tensors (a
    ``retain_graph=False`` engine pass would free them: `_frees_unrun`). The walk stops
    at the edges the pass reaches: a cut edge into a node the pass reaches anyway
    (relu's double-backward node's edge to a forward node that the gradient graph reads
    through another edge, in a WGAN-GP step) is not walked past, and a part reached
    only through a cut is walked once, its nodes' saved tensors read (a few
    microseconds for a WGAN-GP step's)."""
    stack = []
    for node in cut_nodes:
        cut = _cut_of(node)
        for i, edge in enumerate(node.next_functions):
            if edge[0] is not None and (cut is None or i in cut) and edge not in reached:
                stack.append(edge[0])
    seen: set[Any] = set()
    saving: list[Any] = []
    while stack:
        node = stack.pop()
        if node in seen or type(node) is _ACCUMULATE:
            continue
        seen.add(node)
        if _freed(node):
            return True, []
        if _SAVED[type(node)]:
            saving.append(node)
        stack.extend(e[0] for e in node.next_functions if e[0] is not None and e not in reached)
    return False, saving


def _reached_unrun(
    reached: AbstractSet[tuple[Any, int]], runs: list[Any] | None, inputs: tuple[Any, ...]
) -> tuple[bool, list[Any]]:
    """The nodes the pass reaches over live edges (`_structure._reachable`'s edges
    ``reached``) that the contract's pass does not run (not in ``runs``: they lead to
    ``inputs`` only through a cut edge, as ``where(round(x) <= y, round(x), y)`` toward
    ``x`` beside a live path to ``x``: differential seed 9334, program 3255) and that
    torch's engine runs all the same: whether one had its saved tensors freed (the pass
    then runs restricted, as for `_behind_cuts`'s), and else those that hold saved
    tensors (`_frees_unrun` decides). ``runs`` None (fast mode): none looked for."""
    if runs is None:
        return False, []
    run = set(runs)
    found = list({n for n, _ in reached if n not in run and type(n) is not _ACCUMULATE})
    if not found:
        return False, []
    found = _leading(found, inputs, dict.fromkeys(runs, True))
    if any(_freed(n) for n in found):
        return True, []
    return False, [n for n in found if _SAVED[type(n)]]


def _frees_unrun(
    saving: list[Any],
    outputs: tuple[Any, ...],
    inputs: tuple[Any, ...] | None,
    runs: list[Any] | None,
    clean: bool | None,
    reached: AbstractSet[tuple[Any, int]],
) -> tuple[bool, list[Any] | None]:
    """Whether torch's engine, run from ``outputs`` toward ``inputs`` (None: every leaf)
    with ``retain_graph=False``, would free the saved tensors of a node of ``saving``
    (`_behind_cuts`: reached only through cut edges) that the contract's pass neither
    runs nor consumes (rule 6b: nodes a pass did not run stay usable); and the forward
    nodes the pass consumes beside ``runs`` where they were found (`_pass_carried`,
    handed to `_consume`; None: not looked for).

    torch 2.13's engine runs every node that leads to an input, through cut edges too
    (``ceil``'s node sends zeros), and frees each it ran: no hook stops it (a node's
    saved tensors are unpacked before its incoming gradients are looked at, and
    released after), ``inputs`` cannot leave out a node on a path to one, and no call
    frees one node's buffers. Such a pass then keeps the graph (``retain_graph=True``
    to the engine), and its own nodes are consumed by the contract's marks only: their
    buffers stay until the graph is collected, where torch would free them during the
    pass (the restricted pass, `_run_restricted`, frees nothing either, and calls each
    node from Python).

    A node that leads to no input is not run by the engine. A node that a
    ``create_graph`` result on the pass's path carries is consumed by the contract
    (rule 6: a pass through a result consumes the forward nodes it carries that lead
    to the inputs), so torch may free it: a gradient penalty's case (WGAN-GP), where
    relu's double-backward node reaches the critic's pre-activation node only through
    its cut edge and the penalty's gradient carries that node: the step keeps torch's
    freeing. ``runs``: the contract's nodes (`_consumption._plan`), None where not
    walked (fast mode: `_carried_on_path` decides, no walk of the pass's nodes);
    ``clean``: as `_consume`'s; ``reached``: `_structure._reachable`'s edges."""
    carried = None
    if _RECORDS_LIVE:
        exempt: set[Any] = set()
        if runs is not None:  # (strict mode: what `_consume` then marks)
            carried = _pass_carried(runs, inputs, clean)
            exempt.update(carried)
        else:  # (fast mode: no marks, no walk of the pass's nodes)
            exempt.update(_carried_on_path(saving, reached, inputs))
        if exempt:
            saving = [n for n in saving if n not in exempt]
            if not saving:
                return False, carried
    known: dict[Any, bool] = dict.fromkeys(runs, True) if runs is not None else {}
    return bool(_leading(saving, inputs, known)), carried


def _finds(
    starts: list[Any], leaves: AbstractSet[int], targets: AbstractSet[Any], every_leaf: bool
) -> bool:
    """Whether a path of live edges (rule 14) leads from ``starts`` to a target node or
    to the accumulator of a leaf of ``leaves`` (any leaf with ``every_leaf``); stops at
    the first found."""
    stack = list(starts)
    seen = set(stack)
    while stack:
        for c, _ in _live_edges(stack.pop()):
            if c is None or c in seen:
                continue
            seen.add(c)
            if type(c) is _ACCUMULATE:
                if every_leaf or id(c.variable) in leaves:
                    return True
            elif c in targets:
                return True
            else:
                stack.append(c)
    return False


def _carried_on_path(
    saving: list[Any], reached: AbstractSet[tuple[Any, int]], inputs: tuple[Any, ...] | None
) -> list[Any]:
    """The nodes of ``saving`` that a ``create_graph`` result on the pass's path (its node
    reached, `_structure._reachable`'s edges ``reached``, and leading to an input over
    live edges: one of the contract's nodes) carries because its call ran them (reached
    from the call's outputs and leading to its inputs over live edges), without walking
    the pass's nodes (fast mode; `_frees_unrun`). A node carried only through an
    earlier result is not found: the pass then keeps the graph (memory, never a value)."""
    found: list[Any] = []
    leaves = {id(x) for x in inputs or () if x.grad_fn is None}
    targets = {x.grad_fn for x in inputs or () if x.grad_fn is not None}
    checked: set[Any] = set()
    for node in {e[0] for e in reached}:
        pairs = node.metadata.get(_RECORD) if type(node) is not _ACCUMULATE else None
        if not pairs:
            continue
        on_path: bool | None = None
        for rec, _ in pairs:
            if rec in checked:
                continue
            checked.add(rec)
            keys = rec.inputs
            rl = {k for k in keys if type(k) is int}  # (`_ident`: a leaf's is an id)
            rt = {k for k in keys if type(k) is not int}
            ran = [
                n
                for n in saving
                if n not in found and _finds([n], rl, rt, False) and _below(rec.outputs, n)
            ]
            if not ran:
                continue
            if on_path is None:
                on_path = _finds([node], leaves, targets, inputs is None)
            if on_path:
                found.extend(ran)
    return found


def _below(starts: tuple[Any, ...], node: Any) -> bool:
    """Whether ``node`` is reached from ``starts`` over live edges (stops when found)."""
    if node in starts:
        return True
    stack = list(starts)
    seen = set(stack)
    while stack:
        for c, _ in _live_edges(stack.pop()):
            if c is node:
                return True
            if c is not None and c not in seen and type(c) is not _ACCUMULATE:
                seen.add(c)
                stack.append(c)
    return False


def _live_indexed(node: Any, cuts: frozenset[tuple[Any, int]]) -> list[tuple[int, Any, int]]:
    """``node``'s edges as (position, child, input number), cut edges (`_CUT_EDGES`,
    ``no_grad_vars``) and undefined ones left out."""
    cut = _cut_of(node)
    if cut is None:
        return []
    return [
        (i, c, nr)
        for i, (c, nr) in enumerate(node.next_functions)
        if c is not None and i not in cut and (not cuts or (c, nr) not in cuts)
    ]


def _beyond_cuts(
    outputs: tuple[Any, ...], inputs: tuple[Any, ...], cuts: frozenset[tuple[Any, int]]
) -> list[Any] | None:
    """Where torch's engine, run from ``outputs`` toward ``inputs``, would run a node
    the contract's pass does not (reached only through cut edges, or leading to an
    input only through them) whose saved tensors an earlier pass freed: the contract's
    nodes for `_run_restricted` (``no_grad_vars`` cuts ``cuts`` not followed either);
    else None (torch's engine can run the pass)."""
    leaves = {id(x) for x in inputs if x.grad_fn is None}
    targets = {x.grad_fn for x in inputs if x.grad_fn is not None}
    roots = [y.grad_fn for y in outputs if y.grad_fn is not None]
    ran = set(_runs_iterative(roots, False, leaves, targets, _NO_CUTS, True))
    uncut = _runs_iterative(roots, False, leaves, targets, _NO_CUTS)
    if not any(_freed(n) for n in uncut if n not in ran):
        return None
    if cuts:
        roots = [
            y.grad_fn
            for y in outputs
            if y.grad_fn is not None and (y.grad_fn, y.output_nr) not in cuts
        ]
        return _runs_iterative(roots, False, leaves, targets, cuts, True)
    return list(ran)


def _validate(g: Any, meta: Any) -> Any:
    """``g`` as torch's engine hands it to the next node (its ``validate_outputs``):
    summed to the input's shape where it was broadcast, in its dtype and on its device."""
    shape = tuple(meta.shape)
    if tuple(g.shape) != shape:
        g = g.sum_to_size(shape)
    if g.dtype != meta.dtype:
        g = g.to(meta.dtype)
    if g.device != meta.device:
        g = g.to(meta.device)
    return g


def _call(node: Any, grads: list[Any]) -> tuple[Any, ...]:
    """Run one node on its incoming gradients, as the engine does."""
    if not isinstance(node, _PY_NODE):
        out = node(*grads)
    else:  # a Python autograd.Function's node: its backward gets zeros for None
        # (ctx.materialize_grads, the engine's default)
        filled = [
            torch.zeros(tuple(m.shape), dtype=m.dtype, device=m.device) if g is None else g
            for g, m in zip(grads, node._input_metadata, strict=True)
        ]
        out = node.apply(*filled)
    if isinstance(out, torch.Tensor) or out is None:
        return (out,)
    return tuple(out)


def _run_restricted(
    outputs: tuple[Any, ...],
    seeds: tuple[Any, ...],
    inputs: tuple[Any, ...],
    runs: list[Any],
    create_graph: bool,
    cuts: frozenset[tuple[Any, int]] = _NO_CUTS,
) -> list[Any]:
    """The gradients of ``outputs`` (seeded with ``seeds``, filled) with respect to
    ``inputs`` through the nodes ``runs`` only (the contract's pass: `_plan`'s nodes
    with cut edges and ``no_grad_vars`` cuts not followed), in dependency order, each
    node called once on the sum of what reached it; None where nothing reached an
    input. Under ``create_graph`` the calls record their graph, as the engine's do."""
    want = [_get_edge(x) for x in inputs]
    wanted = {e.node for e in want}
    deps = dict.fromkeys(runs, 0)
    edges = {n: _live_indexed(n, cuts) for n in runs}
    for kids in edges.values():
        for _, c, _ in kids:
            if c in deps:
                deps[c] += 1
    buffers: dict[Any, list[Any]] = {}

    def add(node: Any, nr: int, g: Any) -> None:
        g = _validate(g, node._input_metadata[nr])
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = [None] * len(node._input_metadata)
        buf[nr] = g if buf[nr] is None else buf[nr] + g

    for y, s in zip(outputs, seeds, strict=True):
        e = _get_edge(y)
        if (e.node, e.output_nr) not in cuts and (e.node in deps or e.node in wanted):
            add(e.node, e.output_nr, s)
    ready = [n for n, k in deps.items() if k == 0]
    with torch.set_grad_enabled(create_graph):
        while ready:
            node = ready.pop()
            buf = buffers.get(node)
            out: tuple[Any, ...] = ()
            if buf is not None and any(g is not None for g in buf):
                out = _call(node, buf)
            for i, c, nr in edges[node]:
                if out and out[i] is not None and (c in deps or c in wanted):
                    add(c, nr, out[i])
                if c in deps:
                    deps[c] -= 1
                    if deps[c] == 0:
                        ready.append(c)
    result = []
    for e in want:
        buf = buffers.get(e.node)
        result.append(None if buf is None else buf[e.output_nr])
    return result


def _run_restricted_batched(
    outputs: tuple[Any, ...],
    seeds: tuple[Any, ...],
    inputs: tuple[Any, ...],
    runs: list[Any],
    create_graph: bool,
    cuts: frozenset[tuple[Any, int]] = _NO_CUTS,
) -> list[Any]:
    """`_run_restricted` for ``is_grads_batched`` seeds (a leading batch dimension):
    one pass per seed, the results stacked (zeros for a None beside a gradient)."""
    n = int(seeds[0].shape[0])
    per = [
        _run_restricted(outputs, tuple(s[b] for s in seeds), inputs, runs, create_graph, cuts)
        for b in range(n)
    ]
    out: list[Any] = []
    for i, x in enumerate(inputs):
        col = [p[i] for p in per]
        if all(g is None for g in col):
            out.append(None)
            continue
        with torch.set_grad_enabled(create_graph):
            out.append(torch.stack([torch.zeros_like(x) if g is None else g for g in col]))
    return out
