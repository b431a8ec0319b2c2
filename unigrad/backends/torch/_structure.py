"""Rule 14 on torch: edges whose derivative is identically zero, and what follows from them.

torch 2.13 follows some edges whose derivative is identically zero (``abs``'s gradient
is ``grad * sgn(x)``, a graph through ``SgnBackward0``; relu's double-backward node has
an edge to relu's output whose formula is ``zeros_like``), while ``clamp``, ``maximum``
or ``where`` compute their masks without grad: unigrad cuts both the same way
(`_CUT_EDGES`). An input reached only through cut edges is unused; a ``create_graph``
result that depends on nothing is returned detached. ``no_grad_vars`` cuts are
pre-hooks that drop a cut tensor's gradient (`_cut_hooks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import torch

from ..._errors import (
    NotDifferentiableError,
)
from .._base import (
    constant_output_message,
)
from ._graph import _ACCUMULATE
from ._records import _RECORDS_LIVE, _call_record

#: Rule 14 (``docs/semantics.md``, "Dependence"): torch's node types with an input edge
#: whose derivative is identically zero, by class name, with the positions of those
#: edges in ``next_functions`` (None: every edge). torch 2.13 follows these edges in a
#: later pass and gives zeros (``abs``'s gradient is ``grad * sgn(x)``, a graph through
#: ``SgnBackward0``; relu's double-backward node has an edge to relu's output whose
#: formula is ``zeros_like``), while ``clamp``, ``maximum`` or ``where`` compute their
#: masks without grad: unigrad cuts both the same way.
_CUT_EDGES: dict[str, tuple[int, ...] | None] = {
    "SgnBackward0": None,
    "SignBackward0": None,
    "FloorBackward0": None,
    "CeilBackward0": None,
    "RoundBackward0": None,
    "RoundBackward1": None,
    "TruncBackward0": None,
    # div(a, b, rounding_mode=...): cut where rounding (floor, trunc) only (`_DIV_ROUNDING`,
    # read per node); remainder(a, b)'s gradient in b is -grad * div(a, b, "floor")
    "DivBackward2": None,
    # copysign(a, b) = |a| sign(b): b's formula is ``zeros_like``
    "CopysignBackward0": (1,),
    # double-backward nodes of piecewise-linear activations: (grad_output, self)
    "ThresholdBackwardBackward0": (1,),
    "HardtanhBackwardBackward0": (1,),
    "LeakyReluBackwardBackward0": (1,),
    "HardshrinkBackwardBackward0": (1,),
    "SoftshrinkBackwardBackward0": (1,),
}


#: complex ``sgn`` is ``z / |z|``, differentiable: its node cuts for real tensors only
_SGN = type(torch.sgn(torch.ones(1, requires_grad=True)).grad_fn)

#: ``div(a, b, rounding_mode=...)``: piecewise constant where it rounds
_DIV_ROUNDING = type(
    torch.div(torch.ones(1, requires_grad=True), 2.0, rounding_mode="floor").grad_fn
)


#: ``x ** c`` with a number ``c``; torch 2.13 records ``pow(x, 0)`` in the second
#: derivative of ``x ** 2`` (the gradient of ``2 * x ** 1``)
_POW_SCALAR = type((torch.ones(1, requires_grad=True) ** 2).grad_fn)


#: `_CUT_EDGES` by node type, filled as types are met (``()``: no cut edge). ``x ** c``'s
#: node is read per node (`_pow_zero`): `_live_edges` gives it a list of its own, so
#: `_reachable` meets it among the nodes it lists.
_CUT_BY_TYPE: dict[type, tuple[int, ...] | None] = {_POW_SCALAR: None}


def _pow_zero(node: Any) -> bool:
    """Whether ``node`` is ``x ** 0`` (a number exponent): its derivative is identically
    zero. Below a ``create_graph`` result, one its call's pass made (the VJP of
    ``x ** 1``: ``1 * x ** 0``) cuts (rule 14: the tapes read the dependence of the VJP
    they differentiate, where ``x ** 0`` reaches no input; `_constant_detached`), while
    a user's own ``x ** 0`` differentiates to zeros (`_own_pow_zero`)."""
    return type(node) is _POW_SCALAR and node._saved_exponent == 0


def _own_pow_zero(rec: Any) -> frozenset[Any]:
    """The ``x ** 0`` nodes of the forward graph of ``rec``'s call (its outputs' and
    seeds' graphs, every edge), kept on the record: below that call's results those
    are the user's own, and any other ``x ** 0`` the call's pass made."""
    if rec.pow_zero is None:
        stack = [*rec.outputs, *rec.seeds]
        seen = set(stack)
        found = []
        while stack:
            node = stack.pop()
            if _pow_zero(node):
                found.append(node)
            for c, _ in node.next_functions:
                if c is not None and c not in seen:
                    seen.add(c)
                    stack.append(c)
        rec.pow_zero = frozenset(found)
    return rec.pow_zero  # type: ignore[no-any-return]


def _made_pow_zero(node: Any, rec: Any) -> bool:
    """Whether ``node``, met below a result of ``rec``'s call (the last result node
    above it on the path), is an ``x ** 0`` that call's pass made: one that cuts."""
    return rec is not None and _pow_zero(node) and node not in _own_pow_zero(rec)


def _cut_of(node: Any) -> tuple[int, ...] | None:
    """The cut edge positions of ``node`` (None: all; ``()``: none)."""
    t = type(node)
    try:
        cut = _CUT_BY_TYPE[t]
    except KeyError:
        cut = _CUT_BY_TYPE[t] = _CUT_EDGES.get(t.__name__, ())
    if t is _POW_SCALAR:
        return ()  # (read per node: `_pow_zero`; a user's own x ** 0 stays differentiable)
    if t is _SGN and node._saved_result.is_complex():
        return ()  # complex sgn(z) = z/|z| has a derivative
    if t is _DIV_ROUNDING and node._saved_rounding_mode is None:
        return ()  # true division: a derivative
    return cut


def _live_edges(node: Any) -> Sequence[tuple[Any, int]]:
    """``node``'s edges whose derivative is not identically zero (see `_CUT_EDGES`).

    A node of a type met before without cut edges (the common node) gets torch's own
    ``next_functions`` back, no list made: its ``(None, 0)`` entries included, which
    every caller skips."""
    if _CUT_BY_TYPE.get(type(node), 1) == ():
        return node.next_functions  # type: ignore[no-any-return]
    cut = _cut_of(node)
    if cut is None:
        return []
    if not cut:
        return [e for e in node.next_functions if e[0] is not None]
    return [e for i, e in enumerate(node.next_functions) if e[0] is not None and i not in cut]


#: The key of `_has_cuts`'s answer in a node's ``metadata``: whether the graph below the
#: node holds a node with a cut edge. A node's graph never changes, so the answer holds
#: for the node's life; a later walk stops there (a PINN's nested grads walk each node
#: once, not once per call).
_CUT_BELOW = "unigrad.cut_below"


def _has_cuts(outputs: tuple[Any, ...]) -> bool:
    """Whether the outputs' graph holds a node with a cut edge (`_CUT_EDGES`): a walk
    over nodes, cheaper than `_reachable`'s over edges, which then runs only where it
    can find an input unused (about 1 us a node). Each answer is kept on the nodes
    (`_CUT_BELOW`): a node met again in a later call is not walked past. ``x ** 0``
    counts while a ``create_graph`` result lives (it cuts below one: `_reachable`)."""
    roots = [fn for fn in (y.grad_fn for y in outputs) if fn is not None]
    stack = list(roots)
    seen = set(stack)
    known = _CUT_BY_TYPE
    push, add = stack.append, seen.add
    walked: list[Any] = []
    keep = True  # (False: an x ** 0 met while no create_graph result lives)
    while stack:
        node = stack.pop()
        t = type(node)
        if t is _ACCUMULATE:
            continue
        md = node.metadata
        below = md.get(_CUT_BELOW)
        if below is not None:
            if below:
                break
            continue
        cut = known.get(t, 1)
        if cut != () and (cut != 1 or _cut_of(node) != ()):
            if t is not _POW_SCALAR:
                break
            if node._saved_exponent == 0:
                # x ** 0 cuts below a create_graph result (`_reachable`); where none
                # lives, the answer is not kept (a result made later may hold it)
                if _RECORDS_LIVE:
                    break
                keep = False
        walked.append(md)
        for c, _ in node.next_functions:
            if c is not None and c not in seen:
                add(c)
                push(c)
    else:
        if keep:
            for md in walked:  # nothing below any of them
                md[_CUT_BELOW] = False
        return False
    if len(roots) == 1:  # (with several, the cut may lie below one of them only)
        roots[0].metadata[_CUT_BELOW] = True
    return True


def _refuse_constant_outputs(outputs: tuple[Any, ...]) -> None:
    """`NotDifferentiableError` for an output that depends on nothing (rule 14): torch
    marks ``sign(x)`` or ``floor(x)`` as requiring grad, but every path from it to a
    leaf crosses a cut edge, as an output that does not require grad."""
    for i, y in enumerate(outputs):
        if y.grad_fn is not None and not _depends(y.grad_fn):
            raise NotDifferentiableError(constant_output_message(i))


def _depends(node: Any, record: Any = None) -> bool:
    """Whether ``node`` reaches a tensor that requires grad without crossing a cut
    edge (stops at the first it finds). With ``record`` (the `_CallRecord` of the
    ``create_graph`` call ``node`` is a result of), an ``x ** 0`` a call's pass made
    cuts too (`_made_pow_zero`): as the tapes' dependence of a ``create_graph`` result
    (``x ** 2``'s second derivative is the constant 2), while a user's own ``x ** 0``
    stays differentiable (zeros)."""
    seen: set[Any] = set()
    stack = [(node, record)]
    while stack:
        n, rec = stack.pop()
        if (n, rec) in seen:
            continue
        seen.add((n, rec))
        if type(n) is _ACCUMULATE:
            return True
        if record is not None:
            rec = _call_record(n) or rec
            if _made_pow_zero(n, rec):
                continue
        stack.extend((c, rec) for c, _ in _live_edges(n) if c is not None)
    return False


def _constant_detached(g: Any, record: Any) -> Any:
    """``g``, a result of the ``create_graph`` call of ``record``, detached where it
    depends on nothing (rule 14: a constant carries no history), else ``g`` itself
    (``None`` included)."""
    if g is not None and g.grad_fn is not None and not _depends(g.grad_fn, record):
        return g.detach()
    return g


def _cut_hooks(no_grad_vars: tuple[Any, ...]) -> list[Any]:
    """Pre-hooks that drop the gradient of each cut tensor before its node runs.

    The dropped slot is undefined, not zero: torch's backward formulas give undefined
    gradients for undefined ones, so nothing beyond a cut enters the results, not even
    as a zero-valued graph (a zeroing tensor hook left the nodes beyond the cut in a
    ``create_graph`` result's graph, which then reported ``requires_grad``).
    """
    slots: dict[Any, set[int]] = {}
    for v in no_grad_vars:
        if v.grad_fn is not None and v.requires_grad:
            slots.setdefault(v.grad_fn, set()).add(v.output_nr)
    handles = []
    for node, cut in slots.items():

        def drop(grads: tuple[Any, ...], cut: set[int] = cut) -> tuple[Any, ...]:
            return tuple(None if i in cut else g for i, g in enumerate(grads))

        handles.append(node.register_prehook(drop))
    return handles


def _edge_cut_hooks(outputs: tuple[Any, ...]) -> list[Any]:
    """Post-hooks that make the gradient a `_CUT_EDGES` node sends along a cut edge
    undefined instead of zeros, for a ``create_graph`` pass.

    torch sends zeros (``ceil``'s formula is ``zeros_like``), and the backward formulas
    beyond multiply them by functions of their inputs, so the result's graph reached
    those inputs: ``d(remainder(v, ceil(pow(v, x))))/dx`` is a constant, but torch's
    result required grad through ``pow``'s backward
    (test_a_gradient_through_a_cut_of_a_nonlinear_op_is_a_constant in
    test_differential_extensions.py). Undefined, nothing beyond the cut runs into the
    results (`_cut_hooks`)."""
    stack = [fn for fn in (y.grad_fn for y in outputs) if fn is not None]
    seen = set(stack)
    handles = []
    while stack:
        node = stack.pop()
        if type(node) is _ACCUMULATE:
            continue
        cut = _cut_of(node)
        if cut != ():

            def drop(
                grad_inputs: tuple[Any, ...], grad_outputs: tuple[Any, ...], cut: Any = cut
            ) -> tuple[Any, ...]:
                return tuple(
                    None if cut is None or i in cut else g for i, g in enumerate(grad_inputs)
                )

            handles.append(node.register_hook(drop))
        for c, _ in node.next_functions:
            if c is not None and c not in seen:
                seen.add(c)
                stack.append(c)
    return handles


def _reachable(
    outputs: tuple[Any, ...],
    cuts: AbstractSet[tuple[Any, int]],
    cut_nodes: list[Any] | None = None,
) -> tuple[set[tuple[Any, int]], set[int]]:
    """Edges reachable from the outputs without crossing a cut edge (into a
    ``no_grad_vars`` tensor, or one of `_CUT_EDGES`), and the ids of the leaf tensors
    reached. ``cut_nodes``, where given, gets the nodes met that have a cut edge.
    Where an ``x ** 0`` is met and a ``create_graph`` result lives, the answer is
    `_reachable_in_results`' (``x ** 0`` below a result's node cuts)."""
    reached: set[tuple[Any, int]] = set()
    leaves: set[int] = set()
    visited: set[Any] = set()
    listed: list[Any] = []
    stack = [(y.grad_fn, y.output_nr) for y in outputs if y.grad_fn is not None]
    leaves.update(id(y) for y in outputs if y.grad_fn is None)
    while stack:
        edge = stack.pop()
        if edge in cuts or edge in reached:
            continue
        node = edge[0]
        if node is None:  # (an undefined edge of torch's next_functions)
            continue
        reached.add(edge)
        if node in visited:
            continue
        visited.add(node)
        if type(node) is _ACCUMULATE:
            leaves.add(id(node.variable))
            continue
        live = _live_edges(node)
        stack.extend(live)
        if type(live) is list:  # (a node of `_CUT_BY_TYPE`: x ** c, or one with a cut)
            listed.append(node)
    if listed and _RECORDS_LIVE and any(_pow_zero(n) for n in listed):
        reached, leaves = _reachable_in_results(outputs, cuts)
    if cut_nodes is not None:
        cut_nodes.extend(n for n in listed if type(n) is not _POW_SCALAR)
    return reached, leaves


def _reachable_in_results(
    outputs: tuple[Any, ...], cuts: AbstractSet[tuple[Any, int]]
) -> tuple[set[tuple[Any, int]], set[int]]:
    """`_reachable`'s answer where an ``x ** 0`` that a ``create_graph`` call's pass made
    cuts below that call's result's node (one holding `_RECORD`; `_made_pow_zero`): the
    dependence of that result, as `_constant_detached` reads it and the tapes read the
    VJP they differentiate (``d(x ** 1)/dx`` is ``1 * x ** 0``, which reaches no ``x``:
    upstream paddle's TestPowTripleGradCheck1), while a user's own ``x ** 0`` below it
    does not cut. Walked only where such a node is met and a result lives."""
    reached: set[tuple[Any, int]] = set()
    leaves: set[int] = set()
    visited: set[tuple[Any, Any]] = set()
    stack: list[tuple[tuple[Any, int], Any]] = [
        ((y.grad_fn, y.output_nr), None) for y in outputs if y.grad_fn is not None
    ]
    leaves.update(id(y) for y in outputs if y.grad_fn is None)
    while stack:
        edge, rec = stack.pop()
        node = edge[0]
        if node is None or edge in cuts:
            continue
        reached.add(edge)
        if (node, rec) in visited:
            continue
        visited.add((node, rec))
        if type(node) is _ACCUMULATE:
            leaves.add(id(node.variable))
            continue
        rec = _call_record(node) or rec
        if _made_pow_zero(node, rec):
            continue
        stack.extend((e, rec) for e in _live_edges(node))
    return reached, leaves
