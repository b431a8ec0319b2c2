"""The structural refusals, once per call for every backend (docs/semantics.md 16g, 17c).

The front calls `refuse_structural` after the arguments are checked and before the
backend runs: the same rules, in the same order, read through each backend's
`GraphView`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._ambiguous import ambiguous, refuse
from ._slices import refuse_full_slice
from ._view import GraphView

__all__ = ["candidates", "refuse_structural"]


def refuse_structural(
    view: GraphView, outputs: Sequence[Any], inputs: Sequence[Any], cuts: Sequence[Any] = ()
) -> None:
    """Raise `UnsupportedFeatureError` for a pass whose answer would depend on the
    framework: a full-range slice as an input or cut (17c), or a non-leaf input or cut
    between the inputs and outputs of an earlier ``create_graph`` call that the outputs
    reach, or a result of such a call that another of its results runs through (16g).

    Args:
        view: The backend's graph view.
        outputs: The pass's outputs.
        inputs: The tensors it differentiates with respect to (labelled ``inputs[i]``).
        cuts: Its ``no_grad_vars`` (labelled ``no_grad_vars[i]``).
    """
    if view.may_have_full_slices():
        refuse_full_slice(inputs, "inputs", view.full_slice)
        if cuts:
            refuse_full_slice(cuts, "no_grad_vars", view.full_slice)
    if not view.recording():
        return
    with view.lock():
        cands = candidates(view, inputs, cuts)
        if not cands:  # leaves only: none lies between a call's inputs and outputs
            return
        roots = [n for n in map(view.node, outputs) if n is not None]
        found = ambiguous(roots, cands, view.children, view.ident, view.records)
    if found is not None:
        refuse(*found)


def candidates(
    view: GraphView, inputs: Sequence[Any], cuts: Sequence[Any] = ()
) -> list[tuple[str, Any]]:
    """The non-leaf inputs and cuts a structural rule looks at, labelled
    (``inputs[i]``, ``no_grad_vars[i]``), with their graph nodes."""
    node = view.node
    out = [(f"inputs[{i}]", n) for i, n in enumerate(map(node, inputs)) if n is not None]
    out += [(f"no_grad_vars[{i}]", n) for i, n in enumerate(map(node, cuts)) if n is not None]
    return out
