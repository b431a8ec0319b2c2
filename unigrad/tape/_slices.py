"""Full-range slices of tape tensors: the marks that the full-slice rule reads.

A tensor made by an index that selects all of another (``x[0:n]``, ``x[...]``) is
refused as an input or a cut, as on every backend (``docs/semantics.md``, rule 17; the
rule itself, ``full_range``, is the contract room's: `unigrad.contract`).
The tape marks such tensors when it records the index, and keeps their nodes from
being consumed: paddle gives such a slice no node of its own (it is its source to
paddle's autograd), so nothing there can be consumed, and torch's node for it saves
nothing.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from ..contract import full_range

if TYPE_CHECKING:
    from ._node import Node

__all__ = ["KEPT_NODES", "any_full_slices", "is_full_slice", "mark_if_full_slice"]

#: ``id -> weak reference`` of the tensors made by a full-range index of another.
#: (Not a WeakSet: that compares tensors with ``==``.)
_FULL_SLICES: dict[int, weakref.ref[Any]] = {}

#: The nodes of full-range slices: no pass consumes them.
KEPT_NODES: weakref.WeakSet[Node] = weakref.WeakSet()


def is_full_slice(t: Any) -> bool:
    """Whether ``t`` was made by a full-range index of another tensor and requires
    grad."""
    ref = _FULL_SLICES.get(id(t))
    return ref is not None and t._node is not None and ref() is t


def any_full_slices() -> bool:
    return bool(_FULL_SLICES)


def mark_if_full_slice(out: Any, x: Any, idx: Any) -> None:
    """Mark ``out = x[idx]`` when ``idx`` selects all of ``x``."""
    if not (type(idx) is slice or type(idx) is tuple or idx is Ellipsis):
        return
    if not full_range(idx, x.shape):
        return
    key = id(out)

    def forget(ref: weakref.ref[Any]) -> None:
        if _FULL_SLICES.get(key) is ref:
            del _FULL_SLICES[key]

    _FULL_SLICES[key] = weakref.ref(out, forget)
    if out._node is not None:
        KEPT_NODES.add(out._node)
