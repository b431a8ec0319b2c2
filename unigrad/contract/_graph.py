"""A framework-neutral walk over an autograd graph: which nodes a backward pass runs."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["executed"]


def executed(
    roots: Iterable[Any],
    children: Callable[[Any], list[Any]],
    is_target: Callable[[Any], bool],
    is_leaf: Callable[[Any], bool],
) -> list[Any]:
    """The non-leaf nodes a backward pass from ``roots`` to the target nodes runs.

    A node runs when one of its children leads to a target; a target node is reached
    without running it (its incoming gradient is the requested one). Leaf nodes
    (gradient accumulators) are never returned: they are shared between graphs.
    Iterative, so long chains do not hit the recursion limit.
    """
    leads: dict[Any, bool] = {}
    kids: dict[Any, list[Any]] = {}
    runs: list[Any] = []
    stack: list[tuple[Any, bool]] = [(r, False) for r in roots]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            ran = False
            for c in kids[node]:
                if leads[c]:
                    ran = True
                    break
            leads[node] = ran or is_target(node)
            if ran:
                runs.append(node)
            continue
        if node in leads or node in kids:
            continue
        if is_leaf(node):
            leads[node] = is_target(node)
            continue
        kids[node] = cs = children(node)
        stack.append((node, True))
        for c in cs:
            if c not in leads:
                stack.append((c, False))
    return runs
