"""`GraphView`: how the contract's structural rules read one framework's autograd graph.

A rule such as "a non-leaf input between the inputs and outputs of an earlier
``create_graph`` call is refused" is a statement about a graph. Each backend's graph is
its framework's (torch's ``grad_fn`` nodes, paddle's ``GradNode`` pointers, the tape's
`Node` objects); a view answers the few questions the rules ask of it, so that each
rule is written once (`unigrad.contract`) and every backend is judged by the same code.

A backend without a view (``Backend.graph`` is None, the default, e.g. a third-party
backend) gets none of the structural refusals: its framework's own behaviour stands.
"""

from __future__ import annotations

import abc
import contextlib
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._ambiguous import Record

__all__ = ["GraphView"]


class GraphView(abc.ABC):
    """The questions the structural rules ask of a backend's graph.

    Nodes are whatever the framework's graph is made of; the rules only pass them back
    to the view and compare their `ident`. Subclasses implement `node`, `children`,
    `ident`, `records`, `keep`, `recording` and `full_slice`; the others have defaults.
    """

    @abc.abstractmethod
    def node(self, t: Any, /) -> Any | None:
        """The graph node that made ``t``, or None for a leaf or a constant."""

    @abc.abstractmethod
    def children(self, node: Any, /) -> Iterable[Any]:
        """The nodes a backward pass goes to from ``node`` along edges whose derivative
        is not identically zero (rule 14's cuts left out: what is reached only through
        ``round`` is not reached; None entries are skipped)."""

    @abc.abstractmethod
    def ident(self, node: Any, /) -> Hashable:
        """A hashable identity of ``node``, the same for every object naming it (a
        leaf's accumulator is named by its tensor's ``id``)."""

    def key(self, t: Any, /) -> Hashable:
        """``t``'s identity as a pass's input: its node's `ident`, or ``id(t)`` for a leaf
        (as the walks name its accumulator)."""
        n = self.node(t)
        return id(t) if n is None else self.ident(n)

    @abc.abstractmethod
    def records(self, node: Any, /) -> Sequence[Record]:
        """The `Record` views of the ``create_graph`` calls whose result ``node`` made."""

    @abc.abstractmethod
    def keep(self, node: Any, record: Record, position: int, result: Any) -> None:
        """Store ``record`` on ``node``, the node of the call's result ``position``
        (``result``), so that `records` returns ``record.at(position)`` for it."""

    @abc.abstractmethod
    def recording(self) -> bool:
        """Whether a ``create_graph`` result with a record may be alive (False lets a
        call skip the walk)."""

    @abc.abstractmethod
    def full_slice(self, t: Any, /) -> bool:
        """Whether ``t`` is a full-range slice of another tensor (`unigrad.contract._slices`)."""

    def may_have_full_slices(self) -> bool:
        """False when no full-range slice can exist (lets a call skip `full_slice`)."""
        return True

    def lock(self) -> contextlib.AbstractContextManager[Any]:
        """Held while the rules read the graph (a framework whose graph another thread's
        pass may change returns its engine lock)."""
        return contextlib.nullcontext()
