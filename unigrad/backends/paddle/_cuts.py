"""Walks of a paddle graph that stop at rule 14's cuts (`_formulas.CUT_NODES`): what
a pass reaches, whether a graph holds a cut at all, and the refusal of an output that
depends on nothing (semantics row 14)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..._errors import NotDifferentiableError
from .._base import constant_output_message
from ._nodes import clean, hold, mark_clean, peek_name, reach
from ._nodes import name as _name
from ._refcounts import _grad_fn
from ._structure import CUT_NODES, edges, recorded

__all__ = [
    "_cuts_dependence",
    "_left_alone",
    "_reachable",
    "_reaches_leaf",
    "_refuse_constant_outputs",
]


def _reachable(outputs: tuple[Any, ...], cuts: set[Any]) -> set[Any]:
    """Nodes reachable from the outputs without entering a cut node (a
    ``no_grad_vars`` tensor's) nor going past a node of `CUT_NODES`.

    paddle exposes nodes, not (node, slot) edges: a cut on one output of a multi-output
    op (split, unbind) also blocks its other outputs here.
    """
    hold(outputs)

    def onward(node: Any) -> bool:  # (a recorded result's edges are its roots: `edges`)
        return node not in cuts and _name(node) not in CUT_NODES

    return {n for n in reach(map(_grad_fn, outputs), edges, through=onward) if n not in cuts}


def _cuts_dependence(outputs: tuple[Any, ...], keep: bool) -> bool:
    """Whether the outputs' graph holds a node of `CUT_NODES` (rule 14). With ``keep``
    False (a consuming call's walk) what it reads stays out of the memo."""
    if keep:
        hold(outputs)
    read_name = _name if keep else peek_name
    # (the graphs an earlier walk found free of them are not walked again: a PINN
    # step's calls walk one forward graph each; a node's graph never changes, nor does
    # a recorded result's roots while the memo holds it)
    done = clean()
    seen: list[Any] = []
    read = edges if keep else _peek_edges

    def onward(node: Any) -> bool:
        return node not in done

    for node in reach(map(_grad_fn, outputs), read, through=onward):
        if read_name(node) in CUT_NODES:
            return True
        seen.append(node)
    if keep:
        mark_clean(seen)
    return False


def _peek_edges(node: Any) -> list[Any]:
    return edges(node, False)


def _refuse_constant_outputs(outputs: tuple[Any, ...], keep: bool) -> None:
    """`NotDifferentiableError` for an output that reaches no leaf but through a node of
    `CUT_NODES` (rule 14: paddle's ``sign(x)`` requires grad, but depends on nothing)."""
    for i, y in enumerate(outputs):
        node = _grad_fn(y)
        if node is not None and not _reaches_leaf(node, keep):
            raise NotDifferentiableError(constant_output_message(i))


def _reaches_leaf(node: Any, keep: bool) -> bool:
    """Whether ``node`` reaches a leaf other than through a node of `CUT_NODES` (stops
    at the first; ``keep`` False: what it reads stays out of the memo)."""
    read_name = _name if keep else peek_name

    def onward(n: Any) -> bool:
        return read_name(n) not in CUT_NODES

    read = edges if keep else _peek_edges
    return any(read_name(n) == "GradNodeAccumulation" for n in reach([node], read, through=onward))


def _left_alone(outputs: tuple[Any, ...], watched: Iterable[Any]) -> list[Any]:
    """The ``watched`` leaves (`PaddleBackend.watch`'s) without a ``.grad`` that
    ``backward()`` from ``outputs`` reaches only through a node of `CUT_NODES` (rule
    14), or along a recorded create_graph result's spurious edges, to keep theirs None:
    paddle 3.3.1's
    engine accumulates zeros there, and a post-hook cannot stop it (it fills an empty
    gradient with zeros: measured), nor does a node expose its leaf tensor (differential
    test_backward_leaves_alone_a_leaf_reached_only_through_a_cut in test_dependence.py).
    Walks only while such a leaf exists."""
    fresh = [x for x in list(watched) if x.grad is None and not x.stop_gradient]
    if not fresh or not (recorded() or _cuts_dependence(outputs, True)):
        return []  # (a create_graph result's record may leave a leaf out too)
    reached = _reachable(outputs, set())
    return [x for x in fresh if _grad_fn(x) not in reached]
