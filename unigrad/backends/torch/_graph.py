"""Reading torch's autograd graph: node children, accumulators, full-range slice nodes."""

from __future__ import annotations

import weakref
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
