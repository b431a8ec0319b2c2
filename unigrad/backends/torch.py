"""The torch backend: ``torch.autograd.grad`` plus what unigrad's contract adds.

torch already follows most of the contract. This adapter adds:

* consumed-graph tracking: after ``retain_graph=False`` every node the engine ran gets
  a pre-hook that raises `GraphFreedError`, so a second pass fails even through
  nodes that saved nothing (where torch itself would silently succeed);
* ``no_grad_vars``: a pre-hook on each cut tensor's node drops its gradient (undefined,
  so nothing beyond the cut runs into the results), and a walk over the graph's edges
  that stops at the cuts finds inputs reachable only through them;
* dependence (rule 14): edges whose derivative is identically zero (`_CUT_EDGES`: the
  ``sgn`` inside ``abs``'s gradient, a relu's mask input, ``floor``, ...) are not
  followed when deciding which inputs a pass reaches (an input reached only through
  them is unused) and whether a ``create_graph`` result depends on anything (one that
  does not is returned detached);
* ones for non-scalar ``None`` seeds, and the mapping of torch's errors to unigrad's.
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Set as AbstractSet
from functools import partial
from typing import Any

import torch

from .._errors import (
    GradOutputsError,
    GraphFreedError,
    InplaceModifiedError,
    NotDifferentiableError,
    message,
)
from . import _carried, _graph
from ._ambiguous import Record, ambiguous, refuse
from ._base import (
    Backend,
    BackwardRequest,
    Capabilities,
    GradRequest,
    Kind,
    constant_output_message,
)
from ._slices import refuse_full_slice

__all__ = ["BACKEND", "TorchBackend"]


class _Kinds(dict[Any, Kind]):
    """Each dtype's kind, computed on its first lookup: `TorchBackend.kind` is one
    subscript (the front asks for each output's and input's kind on every call)."""

    def __missing__(self, dtype: Any) -> Kind:
        kind: Kind
        if dtype.is_complex:
            kind = "c"
        elif dtype.is_floating_point:
            kind = "f"
        elif dtype is torch.bool:
            kind = "b"
        else:
            kind = "i"
        self[dtype] = kind
        return kind


_KINDS = _Kinds()


_FREED_MESSAGE = message(
    "the graph was consumed",
    expected="a graph that was not differentiated with retain_graph=False",
    got="a second differentiation through nodes already freed",
    fix="Pass retain_graph=True to the earlier grad/backward call that used this graph, "
    "or recompute the forward pass.",
)
_CONSUMED = "unigrad.consumed"
_GRAD_GRAPH = "unigrad.grad_graph"
# torch.autograd.grad is argument handling (which the front has done) around this
# private helper (torch >= 2.3). Where it is missing, for batched seeds, or when a
# tensor overrides __torch_function__, the public call runs.
_run_backward: Any = getattr(torch.autograd.graph, "_engine_run_backward", None)
_has_torch_function: Any = torch._C._has_torch_function
_ACCUMULATE = torch._C._functions.AccumulateGrad
#: The node types of full-range slices (see `_kept`).
_VIEW_NODES = frozenset(
    getattr(torch._C._functions, name, None) for name in ("SliceBackward0", "AliasBackward0")
) - {None}
_NO_CUTS: frozenset[tuple[Any, int]] = frozenset()
_PRESERVE = torch.preserve_format
_ones_like = torch.ones_like
_ref = weakref.ref

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
    consuming pass. ``at`` is the pass's stamp (`unigrad.backends._carried`, rule 6).
    """

    __slots__ = ("__weakref__", "at")

    def __init__(self) -> None:
        self.at = _carried.consume_epoch()


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
#: `_CUT_EDGES` by node type, filled as types are met (``()``: no cut edge).
_CUT_BY_TYPE: dict[type, tuple[int, ...] | None] = {}


def _cut_of(node: Any) -> tuple[int, ...] | None:
    """The cut edge positions of ``node`` (None: all; ``()``: none)."""
    t = type(node)
    try:
        cut = _CUT_BY_TYPE[t]
    except KeyError:
        cut = _CUT_BY_TYPE[t] = _CUT_EDGES.get(t.__name__, ())
    if t is _SGN and node._saved_result.is_complex():
        return ()  # complex sgn(z) = z/|z| has a derivative
    return cut


def _live_edges(node: Any) -> list[tuple[Any, int]]:
    """``node``'s edges whose derivative is not identically zero (see `_CUT_EDGES`)."""
    cut = _cut_of(node)
    if cut is None:
        return []
    if not cut:
        return [e for e in node.next_functions if e[0] is not None]
    return [e for i, e in enumerate(node.next_functions) if e[0] is not None and i not in cut]


def _has_cuts(outputs: tuple[Any, ...]) -> bool:
    """Whether the outputs' graph holds a node with a cut edge (`_CUT_EDGES`): a walk
    over nodes, cheaper than `_reachable`'s over edges, which then runs only where it
    can find an input unused (about 1 us a node)."""
    stack = [fn for fn in (y.grad_fn for y in outputs) if fn is not None]
    seen = set(stack)
    known = _CUT_BY_TYPE
    push, add = stack.append, seen.add
    while stack:
        node = stack.pop()
        t = type(node)
        if t is _ACCUMULATE:
            continue
        cut = known.get(t, 1)
        if cut != () and (cut != 1 or _cut_of(node) != ()):
            return True
        for c, _ in node.next_functions:
            if c is not None and c not in seen:
                add(c)
                push(c)
    return False


def _refuse_constant_outputs(outputs: tuple[Any, ...]) -> None:
    """`NotDifferentiableError` for an output that depends on nothing (rule 14): torch
    marks ``sign(x)`` or ``floor(x)`` as requiring grad, but every path from it to a
    leaf crosses a cut edge, as an output that does not require grad."""
    for i, y in enumerate(outputs):
        if y.grad_fn is not None and not _depends(y.grad_fn):
            raise NotDifferentiableError(constant_output_message(i))


def _depends(node: Any) -> bool:
    """Whether ``node`` reaches a tensor that requires grad without crossing a cut
    edge (stops at the first it finds)."""
    seen: set[Any] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        if type(n) is _ACCUMULATE:
            return True
        stack.extend(c for c, _ in _live_edges(n))
    return False


def _constant_detached(g: Any) -> Any:
    """``g`` detached where it depends on nothing (rule 14: a constant carries no
    history), else ``g`` itself (``None`` included)."""
    if g is not None and g.grad_fn is not None and not _depends(g.grad_fn):
        return g.detach()
    return g


def _children(node: Any) -> list[Any]:
    return [c for c, _ in node.next_functions if c is not None]


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
    there does not raise: differential seed 11, program 4642). The walk answers
    ``_graph.executed``'s question for torch's node types.
    It runs on every consuming call (a training step's last), so it is written for
    speed: `_runs_recursive` reads each node's edges once and decides it on the way
    back; a graph deeper than Python's recursion limit, or one with cuts, is decided by
    `_runs_iterative` instead (same nodes; the recursive walk has no cut test per edge,
    about 4 % of its time).
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
    if cuts or edge_cuts:  # (rare) the walk that reads cuts, not on the common call's
        runs = _runs_iterative(roots, every_leaf, leaves, targets, cuts, edge_cuts)
    else:
        try:
            runs = _runs_recursive(roots, every_leaf, leaves, targets)
        except RecursionError:
            runs = _runs_iterative(roots, every_leaf, leaves, targets, cuts, edge_cuts)
    if _LIVE:  # some flagged node is alive: look for one among the nodes that run
        for node in runs:
            if _CONSUMED in node.metadata:
                _check_consumed(roots, runs, partial(_kids, cuts, edge_cuts))
                break
        if _RECORDS_LIVE:  # rule 6: a create_graph result the pass runs through
            for node in runs:
                pairs = node.metadata.get(_RECORD)
                if pairs:
                    for rec, _ in pairs:
                        _carried.check(_carried_by(rec), _consumed_at, rec.since)
    return runs


def _consumed_at(node: Any) -> int:
    token = node.metadata.get(_CONSUMED)
    return 0 if token is None else int(token.at)


def _carried_by(rec: _CallRecord) -> tuple[Any, ...]:
    """Rule 6: the forward nodes a create_graph call's results carry: those between
    its outputs and inputs that its pass ran, and what the results of earlier calls
    among them carry (walked once per record, when a consumed node is alive)."""
    if rec.carried is None:
        keys = rec.inputs
        ran = _graph.executed(
            rec.outputs,
            _children,
            lambda n: _ident(n) in keys,
            lambda n: type(n) is _ACCUMULATE,
        )
        carried = dict.fromkeys(ran)
        for node in ran:
            for earlier, _ in node.metadata.get(_RECORD) or ():
                if earlier is not rec:
                    carried.update(dict.fromkeys(_carried_by(earlier)))
        rec.carried = tuple(carried)
    return rec.carried


def _runs_recursive(
    roots: list[Any], every_leaf: bool, leaves: set[int], targets: set[Any]
) -> list[Any]:
    """`_plan`'s nodes without cuts, depth first: a node runs iff one of its children is
    a target or runs. ``useful`` holds, per node met, whether the edge into it is worth
    following (it is a target or runs); a node is decided once, after its children
    (autograd graphs have no cycles)."""
    useful: dict[Any, bool] = {}
    known = useful.get
    runs: list[Any] = []
    ran = runs.append

    def decide(node: Any) -> bool:
        hit = False
        for c, _ in node.next_functions:
            if c is None:
                continue
            u = known(c)
            if u is None:
                if type(c) is _ACCUMULATE:  # a leaf: shared between graphs, never runs
                    u = useful[c] = every_leaf or id(c.variable) in leaves
                else:
                    u = useful[c] = decide(c) or c in targets
            if u:
                hit = True
        if hit:
            ran(node)
        return hit

    try:
        for r in roots:
            if r not in useful:
                useful[r] = decide(r) or r in targets
    finally:
        # `decide` holds itself through its closure: a cycle that would keep every node
        # met (and so the whole graph) alive until the garbage collector runs
        decide = None  # type: ignore[assignment]
    return runs


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


def _kids(cuts: frozenset[tuple[Any, int]], edge_cuts: bool, node: Any) -> list[Any]:
    edges = _live_edges(node) if edge_cuts else node.next_functions
    return [c for c, nr in edges if c is not None and (c, nr) not in cuts]


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


def _filled(outputs: tuple[Any, ...], seeds: tuple[Any, ...]) -> tuple[Any, ...]:
    """The seeds with ones (as torch's own grad makes them) for the None entries."""
    if len(outputs) == 1:  # the common call
        s = seeds[0]
        return (_ones_like(outputs[0], memory_format=_PRESERVE) if s is None else s,)
    return tuple(
        _ones_like(y, memory_format=_PRESERVE) if s is None else s
        for y, s in zip(outputs, seeds, strict=True)
    )


def _check_consumed(roots: list[Any], runs: list[Any], children: Any) -> None:
    """Raise unless every consumed node is reached only through gradient graphs.

    A ``create_graph=True`` pass stays differentiable whatever ``retain_graph`` says
    (the contract): torch's graph of such a gradient runs through the forward nodes
    that pass consumed, so a pass reaching them through a gradient's own nodes is
    allowed; one reaching them otherwise (from the consumed outputs, or anything built
    on them) raises.
    """
    ran = set(runs)
    seen: set[Any] = set()
    stack = [r for r in roots if r in ran]
    while stack:
        node = stack.pop()
        if node in seen or _GRAD_GRAPH in node.metadata:
            continue
        seen.add(node)
        if _CONSUMED in node.metadata:
            raise GraphFreedError(_FREED_MESSAGE)
        stack.extend(c for c in children(node) if c in ran)


def _consume(runs: list[Any] | None) -> None:
    if not runs:
        return
    token = _Consumed()
    _LIVE.add(_ref(token, _LIVE.discard))
    for node in runs:
        if type(node) in _VIEW_NODES and _kept(node):
            continue
        node.metadata[_CONSUMED] = token


def _kept(node: Any) -> bool:
    """Whether ``node`` is a full-range slice's, which no pass consumes (rule 17):
    paddle gives such a slice no node of its own, and torch's saves nothing."""
    if type(node).__name__ == "AliasBackward0":
        return True
    return bool(node._saved_step == 1 and _covers(node))  # a SliceBackward0


def _covers(node: Any) -> bool:
    # torch 2.13 saves the slice's dim as an unsigned 64-bit int: a negative dim
    # (torch.diff slices dim=-1) reads as 2**64 - 1
    dim = node._saved_dim
    n = int(node._saved_self_sym_sizes[dim - (1 << 64) if dim >= 1 << 63 else dim])
    start, end = (
        v - (1 << 64) if v >= 1 << 63 else v for v in (node._saved_start, node._saved_end)
    )
    return slice(start, end).indices(n)[:2] == (0, n)


def _forward_nodes(outputs: tuple[Any, ...]) -> set[Any]:
    seen: set[Any] = set()
    stack = [y.grad_fn for y in outputs if y.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        stack.extend(_children(node))
    return seen


def _mark_grad_graph(grads: Any, old: set[Any]) -> None:
    """Flag the nodes a create_graph pass made (those not in the forward graph ``old``)."""
    stack = [g.grad_fn for g in grads if g is not None and g.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node in old or _GRAD_GRAPH in node.metadata:
            continue
        node.metadata[_GRAD_GRAPH] = True
        stack.extend(_children(node))


# ---- derivatives through a create_graph gradient (see `_ambiguous`) ----------------------
_RECORD = "unigrad.create_graph_call"
#: A weak reference to each live `_CallRecord` (the scheme of `_Consumed`): a record
#: lives as long as the last result node whose ``metadata`` holds it. While this is
#: empty no call walks (a WGAN-GP step's intermediate input finds the last step's
#: gradient graph gone).
_RECORDS_LIVE: set[weakref.ref[Any]] = set()


class _CallRecord(Record):
    """The `Record` of one ``create_graph`` call, held by its results' nodes as
    ``(record, position)`` pairs: one object per call and a tuple per result (views,
    `Record.at`, are made only when a walk reads them, which few calls do), and no
    weak reference to register per result. `_new_record` enters it in `_RECORDS_LIVE`
    as `_Consumed` tokens enter `_LIVE`."""

    __slots__ = ("carried", "since")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        #: Rule 6: the stamp the results were made at (`_attach`), and the forward
        #: nodes they carry (`_carried_by`, walked when first needed).
        self.since = 0
        self.carried: tuple[Any, ...] | None = None


def _ident(node: Any) -> Any:
    return id(node.variable) if type(node) is _ACCUMULATE else node


def _records(node: Any) -> list[Record]:
    pairs = node.metadata.get(_RECORD)
    return [rec.at(i) for rec, i in pairs] if pairs else []


def _new_record(request: GradRequest | BackwardRequest, inputs: Any = None) -> _CallRecord:
    """The `Record` of a ``create_graph`` call over ``inputs`` (the request's own by
    default). Made before the engine runs (the engine's pass leaves the caches cold, so
    the less Python after it the better), attached to the results' nodes after it by
    `_attach`."""
    if inputs is None:
        inputs = request.inputs
    nodes = [x.grad_fn for x in inputs]
    keys = [id(x) if fn is None else fn for x, fn in zip(inputs, nodes, strict=True)]
    outs = [fn for fn in (y.grad_fn for y in request.outputs) if fn is not None]
    seeds = [fn for fn in (s.grad_fn for s in request.seeds if s is not None) if fn is not None]
    results = tuple(zip(keys, nodes, strict=True))
    rec = _CallRecord(frozenset(keys), tuple(outs), tuple(seeds), results)
    _RECORDS_LIVE.add(_ref(rec, _RECORDS_LIVE.discard))
    return rec


def _attach(rec: _CallRecord, result: Any) -> None:
    """Attach ``rec`` to each differentiable result's node, with the result's position
    (after the call's own consumption: its stamp, rule 6)."""
    rec.since = _carried.now()
    for i, g in enumerate(result):
        fn = None if g is None else g.grad_fn
        if fn is None:
            continue
        md = fn.metadata
        pairs = md.get(_RECORD)
        if pairs is None:
            md[_RECORD] = [(rec, i)]
        else:
            pairs.append((rec, i))


def _refuse_ambiguous(request: GradRequest) -> None:
    """`UnsupportedFeatureError` for a non-leaf input or cut between the inputs and
    outputs of an earlier create_graph call that the outputs reach."""
    cands = [(f"inputs[{i}]", x.grad_fn) for i, x in enumerate(request.inputs) if x.grad_fn]
    cands += [
        (f"no_grad_vars[{i}]", v.grad_fn)
        for i, v in enumerate(request.no_grad_vars)
        if v.grad_fn is not None
    ]
    if cands:
        roots = [y.grad_fn for y in request.outputs if y.grad_fn is not None]
        found = ambiguous(roots, cands, _children, _ident, _records)
        if found is not None:
            refuse(*found)


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


# ---- full-range slices (see `_slices`) -------------------------------------------------
def _is_full_slice(x: Any) -> bool:
    """Whether ``x`` is a full-range slice of another tensor: its node an
    ``AliasBackward0`` of a plain tensor (torch's tuple and ``...`` indexing, all of
    whose slices are whole) or a ``SliceBackward0`` that covers its dimension (step 1;
    bounds as saved, an over-long stop or a negative start clamped)."""
    node = x.grad_fn
    if node is None:
        return False
    name = type(node).__name__
    if name == "AliasBackward0":
        # (``as_subclass`` aliases too: a tensor subclass's own plumbing, no slice)
        return type(x) is torch.Tensor
    return name == "SliceBackward0" and node._saved_step == 1 and _covers(node)


def _translate(err: RuntimeError) -> BaseException:
    text = str(err)
    if "backward through the graph a second time" in text:
        return GraphFreedError(f"{_FREED_MESSAGE}\ntorch said: {text}")
    if "modified by an inplace operation" in text:
        msg = message(
            "a tensor saved for backward was modified in place",
            expected="saved tensors unchanged between the forward and the gradient",
            got="an in-place change after the forward pass",
            fix="Use the out-of-place op (x = x + 1), or clone before modifying.",
        )
        return InplaceModifiedError(f"{msg}\ntorch said: {text}")
    return err


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
    result required grad through ``pow``'s backward (differential seed 11, program
    3129). Undefined, nothing beyond the cut runs into the results (`_cut_hooks`)."""
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
    outputs: tuple[Any, ...], cuts: AbstractSet[tuple[Any, int]]
) -> tuple[set[tuple[Any, int]], set[int]]:
    """Edges reachable from the outputs without crossing a cut edge (into a
    ``no_grad_vars`` tensor, or one of `_CUT_EDGES`), and the ids of the leaf tensors
    reached."""
    reached: set[tuple[Any, int]] = set()
    leaves: set[int] = set()
    visited: set[Any] = set()
    stack = [(y.grad_fn, y.output_nr) for y in outputs if y.grad_fn is not None]
    leaves.update(id(y) for y in outputs if y.grad_fn is None)
    while stack:
        edge = stack.pop()
        if edge in cuts or edge in reached:
            continue
        reached.add(edge)
        node = edge[0]
        if node in visited:
            continue
        visited.add(node)
        if type(node) is _ACCUMULATE:
            leaves.add(id(node.variable))
            continue
        stack.extend(_live_edges(node))
    return reached, leaves


class TorchBackend(Backend):
    """Adapter for `torch` tensors."""

    name = "torch"
    framework = "torch"
    watch_in_place = True  # requires_grad_()
    capabilities = Capabilities(
        max_order=None,
        native_batched=True,
        backward_create_graph=True,
        leaf_hooks_in_grad=True,
        float16_cpu=True,
        functional=True,
    )

    def owns(self, cls: type) -> bool:
        return issubclass(cls, torch.Tensor)

    def versions(self) -> dict[str, str]:
        return {"torch": str(torch.__version__)}

    def kind(self, x: Any) -> Kind:
        return _KINDS[x.dtype]

    def shape(self, x: Any) -> tuple[int, ...]:
        return tuple(x.shape)

    def same_dtype(self, a: Any, b: Any) -> bool:
        return bool(a.dtype == b.dtype)

    def dtype_name(self, x: Any) -> str:
        return str(x.dtype).removeprefix("torch.")

    def requires_grad(self, x: Any) -> bool:
        # rule 14: torch marks sign(x) or sin(sign(x)) as requiring grad, but a tensor
        # whose every path to a leaf crosses a cut edge depends on nothing (as an input
        # of backward(inputs=...) it is one that does not require grad: seed 20261123)
        if not x.requires_grad:
            return False
        fn = x.grad_fn
        return fn is None or _depends(fn)

    def has_history(self, x: Any) -> bool:
        return x.grad_fn is not None

    def refuse_constant_outputs(self, outputs: tuple[Any, ...], retain_graph: bool) -> None:
        if _has_cuts(outputs):
            _refuse_constant_outputs(outputs)

    def cast(self, x: Any, like: Any) -> Any:
        return x.to(like.dtype)

    def asarray(self, data: Any, dtype: str) -> Any:
        import numpy as np

        return torch.from_numpy(np.array(data, dtype=dtype))

    def ones_like(self, x: Any) -> Any:
        return torch.ones_like(x)

    def zeros_like(self, x: Any, batch: int | None = None) -> Any:
        if batch is None:
            return torch.zeros_like(x)
        return torch.zeros((batch, *x.shape), dtype=x.dtype, device=x.device)

    def add(self, a: Any, b: Any) -> Any:
        return a + b

    def _check_devices(self, outputs: tuple[Any, ...], seeds: tuple[Any, ...]) -> None:
        for i, (y, s) in enumerate(zip(outputs, seeds, strict=True)):
            if s is not None and s.device != y.device:
                msg = message(
                    f"grad_outputs[{i}] is on another device",
                    expected=f"a seed on the output's device, {y.device}",
                    got=f"a seed on {s.device}",
                    fix=f"Move the seed first: seed.to({str(y.device)!r}).",
                )
                raise GradOutputsError(msg)

    def _seeds(self, outputs: tuple[Any, ...], seeds: tuple[Any, ...]) -> tuple[Any, ...]:
        # torch fills ones itself only for one-element outputs
        if all(s is not None or y.numel() == 1 for y, s in zip(outputs, seeds, strict=True)):
            return seeds
        return tuple(
            torch.ones_like(y) if s is None else s for y, s in zip(outputs, seeds, strict=True)
        )

    def grad(self, request: GradRequest) -> list[Any | None]:
        outputs, inputs, seeds, retain_graph, create_graph, batched, no_grad_vars = request
        # (rule 14's constant outputs were refused by the front: refuse_constant_outputs)
        has_cuts = _has_cuts(outputs)
        intermediate = False  # a non-leaf input (leaves, the common inputs, cost one read)
        for x in inputs:
            if x.grad_fn is not None:
                intermediate = True
                refuse_full_slice(inputs, "inputs", _is_full_slice)
                break
        if no_grad_vars:
            refuse_full_slice(no_grad_vars, "no_grad_vars", _is_full_slice)
        if _RECORDS_LIVE and (intermediate or no_grad_vars):
            # (leaf inputs and no cuts: no candidate, nothing to walk for)
            _refuse_ambiguous(request)
        cuts = _NO_CUTS
        cut_ids: set[int] = set()
        if no_grad_vars:  # a cut input is unused: the pass never runs toward it
            cuts = frozenset(
                (v.grad_fn, v.output_nr) for v in no_grad_vars if v.grad_fn is not None
            )
            cut_ids = {id(v) for v in no_grad_vars}
            kept = tuple(x for x in inputs if id(x) not in cut_ids)
            if _LIVE:
                # no_grad_vars never excuse a consumed graph (rule 15): torch's engine
                # runs a cut's node (its gradients dropped), so the uncut pass's check
                _plan(outputs, kept, edge_cuts=has_cuts)
            runs = _plan(outputs, kept, cuts, has_cuts)
        elif retain_graph and not _LIVE:
            # No flagged node is alive (nothing to find), the pass consumes nothing
            # (nothing to flag) and cuts nothing: the walk cannot matter. torch's engine
            # runs only the nodes that lead to the inputs (an output that leads to none
            # is not run, and retained buffers are not freed), the contract's pass.
            runs = None
        else:
            runs = _plan(outputs, inputs, edge_cuts=has_cuts)
        if runs is not None and (len(outputs) > 1 or not runs):
            # one output whose node runs is useful
            outputs, seeds = _useful(outputs, seeds, inputs, runs)
            if not outputs:
                return [None] * len(inputs)
        for s in seeds:  # (a loop: any(<genexpr>) costs more, on every call)
            if s is not None:
                self._check_devices(outputs, seeds)
                break
        rec = _new_record(request) if create_graph else None
        handles = []
        unreached: list[int] = []
        # create_graph results must stay differentiable after retain_graph=False: torch
        # keeps the buffers, unigrad marks the pass's nodes consumed (see _check_consumed)
        consume_only = create_graph and not retain_graph
        # torch frees what it ran; the contract consumes only what the pass needed:
        # nothing beyond a no_grad_vars cut, whose branch torch still runs (zeroed)
        retain = retain_graph or create_graph or bool(no_grad_vars)
        old = _forward_nodes(outputs) if consume_only else None
        # an input reached only through cut edges (no_grad_vars, `_CUT_EDGES`) is unused
        if no_grad_vars or has_cuts:
            edges, leaves = _reachable(outputs, cuts)
            unreached = [
                i
                for i, x in enumerate(inputs)
                if id(x) in cut_ids
                or (x.grad_fn is None and id(x) not in leaves)
                or (x.grad_fn is not None and (x.grad_fn, x.output_nr) not in edges)
            ]
        if unreached:
            # torch would still run toward them (their gradients are then dropped, or
            # zeros), through nodes an earlier pass may have consumed: leave them out
            if len(unreached) == len(inputs):
                if not retain_graph:
                    _consume(runs)
                return [None] * len(inputs)
            inputs = tuple(x for i, x in enumerate(inputs) if i not in unreached)
        if no_grad_vars:
            handles = _cut_hooks(no_grad_vars)
        if create_graph and has_cuts and not batched:
            handles += _edge_cut_hooks(outputs)
        try:
            if _run_backward is None or batched or _has_torch_function(outputs + inputs):
                result = torch.autograd.grad(
                    outputs,
                    inputs,
                    self._seeds(outputs, seeds),
                    retain_graph=retain,
                    create_graph=create_graph,
                    allow_unused=True,
                    is_grads_batched=batched,
                )
            else:
                result = _run_backward(
                    outputs,
                    _filled(outputs, seeds),
                    retain,
                    create_graph,
                    inputs,
                    True,
                    accumulate_grad=False,
                )
        except RuntimeError as err:
            raise _translate(err) from err
        finally:
            for h in handles:
                h.remove()
        if not retain_graph:
            _consume(runs)
        if old is not None:  # (consume_only)
            _mark_grad_graph(result, old)
        out = list(result)
        if create_graph:  # a result that depends on nothing is a constant (rule 14)
            out = [_constant_detached(g) for g in out]
        if unreached:
            got = iter(out)
            out = [None if i in unreached else next(got) for i in range(len(request.inputs))]
        if rec is not None:
            _attach(rec, out)
        return out

    def backward(self, request: BackwardRequest) -> None:
        if request.inputs is not None:
            self._backward_into(request, request.inputs)
            return
        runs = _plan(request.outputs, None)
        outputs, seeds = request.outputs, request.seeds
        for s in seeds:
            if s is not None:
                self._check_devices(outputs, seeds)
                break
        seeds = self._seeds(outputs, seeds)
        leaves, rec = [], None
        only = None
        if _has_cuts(outputs):
            # a leaf reached only through cut edges (rule 14) keeps its .grad, as the
            # tapes' backward leaves it: the pass accumulates into the others only
            _, live = _reachable(outputs, _NO_CUTS)
            every = _leaves_of(outputs, runs)
            only = [x for x in every if id(x) in live]
            if len(only) == len(every):
                only = None
            elif not only:
                if not request.retain_graph:
                    _consume(runs)
                return
        if request.create_graph:  # the leaves' .grad, as grad(create_graph=True)'s results
            leaves = _leaves_of(outputs, runs) if only is None else only
            rec = _new_record(request, leaves)
        try:
            torch.autograd.backward(
                outputs,
                seeds,
                retain_graph=request.retain_graph,
                create_graph=request.create_graph,
                inputs=only,
            )
        except RuntimeError as err:
            raise _translate(err) from err
        if not request.retain_graph:
            _consume(runs)
        if rec is not None:
            for x in leaves:  # a .grad that depends on nothing is a constant (rule 14)
                g = _constant_detached(x.grad)
                if g is not x.grad:
                    x.grad = g
            _attach(rec, [x.grad for x in leaves])

    def _backward_into(self, request: BackwardRequest, inputs: tuple[Any, ...]) -> None:
        """``backward(inputs=...)``: torch's own engine call, so that every hook fires as
        in ``torch.autograd.backward`` (tensor hooks, the nodes' pre- and post-hooks,
        the accumulators' hooks, ``retain_grad``, post-accumulate hooks: torch's
        ``test_hook_edge_case_when_called_with_grad`` and ``test_prehook_ordering``),
        with the contract's checks and consumption around it. torch's engine runs a
        non-leaf input's own node to fill its ``.grad``: that node is kept (the
        buffers retained) and not consumed, as the contract's pass never runs it; where
        an earlier pass consumed it, torch cannot fill that ``.grad``, and the gradients
        are taken with `grad` and accumulated as torch's AccumulateGrad does."""
        intermediate = [x for x in inputs if x.grad_fn is not None]
        if intermediate and any(_CONSUMED in x.grad_fn.metadata for x in intermediate):
            grads = self.grad(
                GradRequest(
                    request.outputs,
                    inputs,
                    request.seeds,
                    request.retain_graph,
                    request.create_graph,
                    False,
                    (),
                )
            )
            for x, g in zip(inputs, grads, strict=True):
                if g is None:
                    continue
                if not request.create_graph:
                    g = g.detach()
                with warnings.catch_warnings():
                    # reading a non-leaf's .grad warns unless it was set: this sets it
                    warnings.simplefilter("ignore", UserWarning)
                    prev = x.grad
                x.grad = g.clone() if prev is None else prev + g
            return
        if intermediate:
            refuse_full_slice(inputs, "inputs", _is_full_slice)
            if _RECORDS_LIVE:
                _refuse_ambiguous(
                    GradRequest(
                        request.outputs,
                        inputs,
                        request.seeds,
                        request.retain_graph,
                        request.create_graph,
                        False,
                        (),
                    )
                )
        outputs, seeds = request.outputs, request.seeds
        runs = _plan(outputs, inputs)
        for s in seeds:
            if s is not None:
                self._check_devices(outputs, seeds)
                break
        if _has_cuts(outputs):
            # an input reached only through cut edges (rule 14) keeps its .grad
            edges, leaves = _reachable(outputs, _NO_CUTS)
            live = tuple(
                x
                for x in inputs
                if (id(x) in leaves if x.grad_fn is None else (x.grad_fn, x.output_nr) in edges)
            )
            if not live:
                if not request.retain_graph:
                    _consume(runs)
                return
            inputs = live
        rec = _new_record(request, inputs) if request.create_graph else None
        consume_only = request.create_graph and not request.retain_graph
        old = _forward_nodes(outputs) if consume_only else None
        # (torch frees what it ran, a non-leaf input's node included: retained, and the
        # contract's consumption marked below)
        retain = request.retain_graph or request.create_graph or bool(intermediate)
        try:
            torch.autograd.backward(
                outputs,
                self._seeds(outputs, seeds),
                retain_graph=retain,
                create_graph=request.create_graph,
                inputs=inputs,
            )
        except RuntimeError as err:
            raise _translate(err) from err
        if not request.retain_graph:
            _consume(runs)
        if old is not None:
            _mark_grad_graph([x.grad for x in inputs], old)
        if rec is not None:
            for x in inputs:  # a .grad that depends on nothing is a constant (rule 14)
                g = _constant_detached(x.grad)
                if g is not x.grad:
                    x.grad = g
            _attach(rec, [x.grad for x in inputs])

    def watch(self, x: Any) -> Any:
        if not isinstance(x, torch.Tensor):
            msg = message(
                "watch() needs a tensor",
                expected="a torch.Tensor",
                got=type(x).__name__,
                fix="Convert the value with torch.as_tensor first.",
            )
            raise NotDifferentiableError(msg)
        if _KINDS[x.dtype] not in "fc":
            msg = message(
                "only floating-point and complex tensors can require grad",
                expected="a float or complex tensor",
                got=f"dtype {self.dtype_name(x)}",
                fix="Cast it first, e.g. x.float().",
            )
            raise NotDifferentiableError(msg)
        if x.is_inference() and not torch.is_inference_mode_enabled():
            msg = message(
                "an inference-mode tensor cannot require grad",
                expected="a tensor made outside torch.inference_mode()",
                got="a tensor made under torch.inference_mode()",
                fix="Clone it outside inference mode first: unigrad.watch(x.clone()), or "
                "make it under torch.no_grad() instead.",
            )
            raise NotDifferentiableError(msg)
        if not x.requires_grad:
            x.requires_grad_(True)
        return x

    def detach(self, x: Any) -> Any:
        return x.detach()

    def to_numpy(self, x: Any) -> Any:
        t = x.detach()
        if t._is_zerotensor():  # torch's lazily zero gradients (second order of abs)
            t = torch.zeros(t.shape, dtype=t.dtype)
        if t.dtype is torch.bfloat16:  # NumPy has no bfloat16: float32 holds it exactly
            t = t.float()
        t = t.cpu().resolve_conj().resolve_neg()
        # a copy: `.numpy()` of a CPU tensor shares its memory, so a later in-place
        # update (backward accumulating into .grad) would change the "host copy"
        return t.numpy().copy()

    def namespace(self) -> Any:
        # array-api-compat's namespace seen through unigrad's portable list
        from .._array_api import _torch

        return _torch.build()


BACKEND = TorchBackend()
