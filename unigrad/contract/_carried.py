"""Rule 6: consumed graphs; what a ``create_graph`` result carries, and when a later pass
through it raises.

The ruling (docs/semantics.md, row 6), the same on every backend: a ``create_graph``
result carries the forward nodes of the pass that made it (the nodes between that
call's outputs and inputs that the pass ran through, and transitively the nodes carried
by ``create_graph`` results it ran through). A later pass that runs through such a
result raises `GraphFreedError` if any carried node has been consumed since by a
``retain_graph=False`` pass (``grad`` or ``backward``).

torch's and paddle's graph of a gradient runs through the forward nodes whose saved
tensors it reads, so they raised where such a node had saved something; the tapes
rebuild the gradient from the call's inputs and answered. The rule is structural, a
superset of both: each backend finds the carried nodes in its own graph, stamps each
consuming pass with `consume_epoch`, and calls `check` where a pass meets a result.
The consuming call that makes a result (``create_graph=True, retain_graph=False``,
rule 15) consumes *before* the result's stamp (`now`): its results stay
differentiable.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterable
from typing import Any

from .._errors import GraphFreedError, message

__all__ = ["CARRIED_MESSAGE", "FREED_MESSAGE", "check", "consume_epoch", "now"]

#: Every backend's `GraphFreedError` for a pass through a consumed node (row 6b).
FREED_MESSAGE = message(
    "the graph was consumed",
    expected="a graph that was not differentiated with retain_graph=False",
    got="a differentiation through nodes an earlier retain_graph=False pass consumed",
    fix="Pass retain_graph=True to the earlier grad/backward call that used this graph, "
    "or recompute the forward pass.",
)

CARRIED_MESSAGE = message(
    "the graph was consumed",
    expected="a create_graph result whose forward graph no later retain_graph=False pass consumed",
    got="a differentiation through a create_graph result after a later pass consumed "
    "forward nodes it was computed through",
    fix="Pass retain_graph=True to the call that consumed the forward graph, or "
    "differentiate the create_graph result before it.",
)

_LOCK = threading.Lock()
_COUNTER = itertools.count(1)
_LATEST = [0]


def consume_epoch() -> int:
    """A new stamp for a consuming pass (later than every stamp `now` has given)."""
    with _LOCK:
        e = _LATEST[0] = next(_COUNTER)
    return e


def now() -> int:
    """The stamp of the latest consuming pass (0 before any): a result made now is
    made *after* it."""
    return _LATEST[0]


def check(carried: Iterable[Any], consumed_at: Callable[[Any], int], since: int) -> None:
    """Raise `GraphFreedError` if a node of ``carried`` was consumed after ``since``
    (``consumed_at``: the node's stamp, 0 if never consumed)."""
    for node in carried:
        if consumed_at(node) > since:
            raise GraphFreedError(CARRIED_MESSAGE)
