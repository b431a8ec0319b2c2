"""Framework-neutral walks over an autograd graph, given how to list a node's children."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["executed"]


def executed(
    roots: Iterable[Any],
    children: Callable[[Any], list[Any]],
    targets: set[Any] | None,
    is_leaf: Callable[[Any], bool],
) -> Iterator[Any]:
    """The non-leaf nodes a backward pass from ``roots`` to ``targets`` runs.

    A node runs when one of its children leads to a target (a target node is reached
    without running it: its output is the requested gradient). With ``targets=None``
    every leaf is a target. Leaf nodes (gradient accumulators) are never yielded: they
    are shared between graphs. Iterative, so long chains do not hit the recursion limit.
    """
    leads: dict[Any, bool] = {}
    kids: dict[Any, list[Any]] = {}
    runs: list[Any] = []
    stack: list[tuple[Any, bool]] = [(r, False) for r in roots]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            ran = any(leads[c] for c in kids[node])
            leads[node] = ran or (targets is not None and node in targets)
            if ran and not is_leaf(node):
                runs.append(node)
            continue
        if node in leads or node in kids:
            continue
        if is_leaf(node):
            leads[node] = targets is None or node in targets
            continue
        kids[node] = cs = children(node)
        stack.append((node, True))
        stack.extend((c, False) for c in cs if c not in leads and c not in kids)
    return iter(runs)
