"""Tape nodes: the record of the pure functions that made the tape's tensors.

A node is a pure function of its parents' values (``fn``), the parents (tape tensors, or
plain arrays that enter as constants), and a hashable ``key`` that identifies the
function up to its parents' values: the op plus every static argument. Nodes point at
their outputs only weakly, so a graph is a DAG of plain references that dies with its
last tensor.

`TensorBase` is the data of a tape tensor (its value, its node, its place among the
node's outputs), so that the modules below `unigrad.tape._tensor` (recording,
snapshots) recognise tensors without importing the class that records their operators.
This module also numbers the nodes (``serial``), which is how a `unigrad.jit` step
being traced tells its own nodes from those recorded before it (`recorded_before_step`).
"""

from __future__ import annotations

import itertools
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from . import _snapshots

__all__ = [
    "Node",
    "TensorBase",
    "TracingStep",
    "fresh_token",
    "in_traced_step",
    "recorded_before_step",
]


class TensorBase:
    """The data of a tape tensor; `unigrad.tape.Tensor` is its only subclass."""

    __slots__ = ("__weakref__", "_aval", "_index", "_node", "_v", "grad")

    _v: Any  # the framework array; None while pending (see ``_lazy``)
    _aval: Any  # (shape, dtype, weak_type)
    _node: Node | None  # None for a leaf or a constant
    _index: int  # which output of ``_node``; -1 for a constant
    grad: Any
    __unigrad_backend__: ClassVar[str]  # "jax" or "numpy"

    if TYPE_CHECKING:

        @property
        def _value(self) -> Any: ...  # `unigrad.tape.Tensor`'s: computed if pending


class Node:
    """One recorded step: ``fn(*parent_values)`` returns a tuple of ``n_out`` arrays.

    ``saved`` pairs each NumPy array the step read that the tape does not own (a
    watched array, a constant operand) with a copy taken when the step was recorded:
    NumPy has no version counter, so `unigrad.tape._snapshots.check_saved` compares them
    before a gradient recomputes the step (torch's "modified by an inplace operation").
    """

    __slots__ = (
        "__weakref__",
        "carried_at",
        "carries",
        "consumed",
        "consumed_at",
        "fn",
        "key",
        "n_out",
        "outs",
        "parents",
        "saved",
        "serial",
    )

    def __init__(
        self, fn: Callable[..., Any], key: Any, parents: tuple[Any, ...], n_out: int
    ) -> None:
        self.fn: Callable[..., Any] | None = fn
        self.key = key
        self.parents: tuple[Any, ...] = parents
        self.n_out = n_out
        self.consumed = False
        #: The stamp of the pass that consumed it (rule 6: `unigrad.tape._hooks`).
        self.consumed_at = 0
        #: A create_graph result's node: the forward nodes it carries (rule 6) and the
        #: stamp it was made at; None for every other node.
        self.carries: tuple[Node, ...] | None = None
        self.carried_at = 0
        #: Weak references to the outputs of a node recorded pending: a consumed graph
        #: must compute the ones still held, whether or not a node it consumes reads them
        #: (a forward node that a create_graph result carries, rule 6: ``_lazy``).
        self.outs: tuple[weakref.ref[Any], ...] = ()
        self.saved = _saved(parents)
        #: When the node was recorded (`recorded_before_step`).
        self.serial = _next_serial()

    def __repr__(self) -> str:
        op = self.key[0] if isinstance(self.key, tuple) and self.key else self.key
        name = getattr(op, "__name__", op)
        state = ", consumed" if self.consumed else ""
        return f"<unigrad tape node {name}{state}>"


def _saved(parents: tuple[Any, ...]) -> tuple[tuple[Any, Any], ...]:
    """(array, copy) for every writeable NumPy array among the parents' values.

    Values the tape computed are read-only (`unigrad.tape._snapshots.owned`), so what is
    left is the user's: watched arrays and constant operands. jax arrays are immutable.
    """
    nd = _snapshots.ndarray
    if nd is None:  # the first node: numpy is imported (by jax or autograd) by now
        nd = _snapshots.track_numpy()
    out: tuple[tuple[Any, Any], ...] = ()
    for p in parents:
        # a pending tensor's value will be the tape's own (read-only): nothing to save
        v = p._v if isinstance(p, TensorBase) else p
        if type(v) is nd and v.flags.writeable:
            out += (_snapshots.take(v),)
    return out


_next_serial = itertools.count().__next__

#: Tokens for keys that must never match another: never reused, unlike id().
fresh_token = itertools.count().__next__

#: Per thread: the serial at which the `unigrad.jit` step being traced began (a stack).
_STEP_STARTS = threading.local()


class TracingStep:
    """Context manager: the nodes recorded inside are the traced step's own."""

    __slots__ = ()

    def __enter__(self) -> None:
        starts = getattr(_STEP_STARTS, "stack", None)
        if starts is None:
            starts = _STEP_STARTS.stack = []
        starts.append(_next_serial())

    def __exit__(self, *exc: object) -> None:
        _STEP_STARTS.stack.pop()


def in_traced_step() -> bool:
    """Whether this thread is tracing a `unigrad.jit` step (jax's values are abstract)."""
    return bool(getattr(_STEP_STARTS, "stack", None))


def recorded_before_step(nodes: Sequence[Node]) -> bool:
    """Whether a `unigrad.jit` step is being traced and one of ``nodes`` was recorded
    before it began (outside the step: its graph outlives the trace)."""
    starts = getattr(_STEP_STARTS, "stack", None)
    if not starts:
        return False
    start = starts[-1]
    return any(n.serial < start for n in nodes)
