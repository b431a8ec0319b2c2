"""torch's graph for the contract's structural rules (`_TorchGraph`), and the records of
``create_graph`` calls held in their results' nodes' ``metadata`` (rules 6 and 16g).
"""

from __future__ import annotations

import weakref
from typing import Any

import torch

from ...contract import GraphView, Record, _carried, _graph, attach, record_of
from .._base import (
    BackwardRequest,
    GradRequest,
)
from ._graph import _ACCUMULATE, _covers, _ref, _runs_recursive


def _carried_by(rec: _CallRecord) -> tuple[Any, ...]:
    """Rule 6: the forward nodes a create_graph call's results carry: those between
    its outputs and inputs that its pass ran, and what the results of earlier calls
    among them carry (walked once per record, when a consumed node is alive). "Ran"
    follows rule 14's dependence: a node reached only through a cut edge (`_CUT_EDGES`)
    is not the call's, as on the tapes (``grad(sum(sign(h) * x * x), x,
    create_graph=True)`` does not carry ``h``'s nodes: a later pass that consumes them
    leaves the result differentiable;
    test_a_create_graph_pass_through_a_cut_leaves_the_nodes_behind_it_usable)."""
    if rec.carried is None:
        from ._structure import _live_edges  # (`_structure` reads this module's records)

        keys = rec.inputs
        leaves = {k for k in keys if type(k) is int}  # (`_ident`: a leaf's is an id)
        targets = {k for k in keys if type(k) is not int}
        try:
            ran = _runs_recursive(list(rec.outputs), False, leaves, targets, _live_edges)
        except RecursionError:
            ran = _graph.executed(
                rec.outputs,
                _live_children,
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

    __slots__ = ("carried", "pow_zero", "since")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        #: Rule 6: the stamp the results were made at (`_attach`), and the forward
        #: nodes they carry (`_carried_by`, walked when first needed).
        self.since = 0
        self.carried: tuple[Any, ...] | None = None
        #: Rule 14: the ``x ** 0`` nodes of the call's forward graph (the user's own,
        #: `_structure._own_pow_zero`, walked when first needed).
        self.pow_zero: frozenset[Any] | None = None


def _ident(node: Any) -> Any:
    return id(node.variable) if type(node) is _ACCUMULATE else node


def _call_record(node: Any) -> _CallRecord | None:
    """The `_CallRecord` of the last ``create_graph`` call whose result ``node`` is, or
    None for a node that is no call's result."""
    pairs = node.metadata.get(_RECORD)
    return pairs[-1][0] if pairs else None


def _records(node: Any) -> list[Record]:
    pairs = node.metadata.get(_RECORD)
    return [rec.at(i) for rec, i in pairs] if pairs else []


def _new_record(request: GradRequest | BackwardRequest, inputs: Any) -> _CallRecord:
    """The `Record` of a ``create_graph`` call over ``inputs``. Made before the engine
    runs (the engine's pass leaves the caches cold, so the less Python after it the
    better), attached to the results' nodes after it by `_attach`."""
    rec = record_of(_GRAPH, inputs, request.outputs, request.seeds, _CallRecord)
    _RECORDS_LIVE.add(_ref(rec, _RECORDS_LIVE.discard))
    return rec


def _attach(rec: _CallRecord, result: Any) -> None:
    """Attach ``rec`` to each differentiable result's node, with the result's position
    (after the call's own consumption: its stamp, rule 6)."""
    rec.since = _carried.now()
    attach(_GRAPH, rec, result)


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


def _live_children(node: Any) -> list[Any]:
    """The nodes a structural walk goes to from ``node``: its edges whose derivative is
    not identically zero (`_live_edges`; rule 14: an earlier create_graph call reached
    only through ``round`` is not reached, as on the tapes, where ``round`` is a
    constant: differential seed 777, program 4274 before b400b9a)."""
    from ._structure import _live_edges  # (`_structure` reads this module's records)

    return [c for c, _ in _live_edges(node) if c is not None]


class _TorchGraph(GraphView):
    """torch's graph for the contract's structural rules: ``grad_fn`` nodes, a leaf's
    ``AccumulateGrad`` named by its tensor, the records in the nodes' ``metadata``."""

    def node(self, t: Any) -> Any:
        return t.grad_fn

    children = staticmethod(_live_children)

    ident = staticmethod(_ident)

    records = staticmethod(_records)

    def keep(self, node: Any, record: Record, position: int, result: Any) -> None:
        # ``(record, position)`` pairs: the views (`Record.at`) are made when read
        md = node.metadata
        pairs = md.get(_RECORD)
        if pairs is None:
            md[_RECORD] = [(record, position)]
        else:
            pairs.append((record, position))

    def recording(self) -> bool:
        return bool(_RECORDS_LIVE)

    full_slice = staticmethod(_is_full_slice)


_GRAPH = _TorchGraph()
