"""Reading torch's autograd graph: node children, accumulators, full-range slice nodes."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import torch

_ACCUMULATE = torch._C._functions.AccumulateGrad


#: The node types of full-range slices (see `_kept`).
_VIEW_NODES = frozenset(
    getattr(torch._C._functions, name, None) for name in ("SliceBackward0", "AliasBackward0")
) - {None}


_NO_CUTS: frozenset[tuple[Any, int]] = frozenset()


_ref = weakref.ref


def _children(node: Any) -> list[Any]:
    return [c for c, _ in node.next_functions if c is not None]


def _covers(node: Any) -> bool:
    # torch 2.13 saves the slice's dim as an unsigned 64-bit int: a negative dim
    # (torch.diff slices dim=-1) reads as 2**64 - 1
    dim = node._saved_dim
    n = int(node._saved_self_sym_sizes[dim - (1 << 64) if dim >= 1 << 63 else dim])
    start, end = (
        v - (1 << 64) if v >= 1 << 63 else v for v in (node._saved_start, node._saved_end)
    )
    return slice(start, end).indices(n)[:2] == (0, n)


def _runs_recursive(
    roots: list[Any],
    every_leaf: bool,
    leaves: set[int],
    targets: set[Any],
    edges: Callable[[Any], Any] | None = None,
    useful: dict[Any, bool] | None = None,
) -> list[Any]:
    """`_plan`'s nodes without ``no_grad_vars`` cuts, depth first: a node runs iff one of
    its children is a target or runs. ``useful`` holds, per node met, whether the edge
    into it is worth following (it is a target or runs); a node is decided once, after
    its children (autograd graphs have no cycles). ``edges(node)``: the edges followed
    (`_structure._live_edges` leaves out rule 14's cut edges); None: all of them.
    ``useful``: answers known before the walk (it stops there), filled in place."""
    if useful is None:
        useful = {}
    known = useful.get
    runs: list[Any] = []
    ran = runs.append

    def decide(node: Any) -> bool:
        hit = False
        for c, _ in node.next_functions if edges is None else edges(node):
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
