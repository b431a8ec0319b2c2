"""Which derivatives through a ``create_graph`` gradient have no single answer.

A gradient ``g = dy/dx`` taken with ``create_graph=True`` (a call *C*) is a graph of
its own, built from tensors of the forward pass. Which ones depends on the framework:
torch's backward formulas save some tensors, paddle's others (its divide saves its
output), the tape replays the forward from C's inputs. As functions of the leaves they
all agree. A later derivative with respect to an intermediate tensor ``v`` (a
non-leaf input, or a ``no_grad_vars`` cut) asks for more: ``g`` as a function of ``v``
with everything upstream of ``v`` held fixed. When ``v`` lies strictly between C's
inputs and C's outputs (``v`` depends on one of C's inputs and is not that input; one
of C's outputs is ``v`` or depends on it), holding C's inputs fixed while ``v`` moves
is no state the forward pass can be in: ``g`` written through ``v`` (torch, for
``v = x.T; y = 0.5 - v*v``, gives ``-2v``) and ``g`` written around it (the tape:
``-2x.T``) are different functions of ``v``, and each framework picks one.
Otherwise the answer is the same everywhere: if ``v`` does not depend on C's inputs,
moving it is a consistent forward state (``y = v*x; dg/dv = 1``); if ``v`` is C's input,
every saved tensor is a function of it (a Hessian with respect to an intermediate).

`ambiguous` decides it on any backend's graph, structurally: a ``create_graph``
result's dependencies are its own graph's *and* everything C's outputs and seeds
depend on (a `Record` attached to the result's node), so that the answer does not
depend on which tensors a framework saved. A backend records at O(results) cost in
each ``create_graph`` call and walks only in calls with a non-leaf input or cut.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from .._errors import UnsupportedFeatureError, message

__all__ = ["Record", "ambiguous", "refuse"]


class Record:
    """One ``create_graph=True`` call: the identities of its inputs, and the graph
    nodes of its outputs and of its seeds (the starts of a structural walk)."""

    __slots__ = ("__weakref__", "inputs", "outputs", "seeds")

    def __init__(
        self, inputs: frozenset[Hashable], outputs: tuple[Any, ...], seeds: tuple[Any, ...]
    ) -> None:
        self.inputs = inputs
        self.outputs = outputs
        self.seeds = seeds


def _closure(
    starts: Iterable[Any],
    kids: Callable[[Any], Iterable[Any]],
    ident: Callable[[Any], Hashable],
    records: Callable[[Any], Sequence[Record]],
    found: list[Record] | None = None,
) -> set[Hashable]:
    """Identities of every node the starts lead to, the starts included, following a
    create_graph result's record into C's outputs and seeds; ``found`` collects the
    records met."""
    seen: set[Hashable] = set()
    stack = [s for s in starts if s is not None]
    while stack:
        node = stack.pop()
        k = ident(node)
        if k in seen:
            continue
        seen.add(k)
        for r in records(node):
            if found is not None and all(r is not f for f in found):
                found.append(r)
            stack.extend(r.outputs)
            stack.extend(r.seeds)
        stack.extend(c for c in kids(node) if c is not None)
    return seen


def ambiguous(
    roots: Iterable[Any],
    candidates: Sequence[tuple[str, Any]],
    kids: Callable[[Any], Iterable[Any]],
    ident: Callable[[Any], Hashable],
    records: Callable[[Any], Sequence[Record]],
) -> str | None:
    """The label of the first candidate ``(label, node)`` (a non-leaf input or cut, by
    its graph node) that lies strictly between the inputs and outputs of a
    ``create_graph`` call whose result the ``roots`` (the outputs' nodes) reach, or None."""
    found: list[Record] = []
    _closure(roots, kids, ident, records, found)
    if not found:
        return None
    below: dict[int, set[Hashable]] = {}
    for label, node in candidates:
        k = ident(node)
        upstream = _closure(kids(node), kids, ident, records)  # strictly upstream of v
        for i, r in enumerate(found):
            if not (r.inputs & upstream):
                continue
            outs = below.get(i)
            if outs is None:
                outs = below[i] = _closure(r.outputs, kids, ident, records)
            if k in outs:
                return label
    return None


def refuse(label: str) -> None:
    """Raise the refusal for ``label`` (``inputs[i]`` or ``no_grad_vars[i]``)."""
    msg = message(
        f"{label} is an intermediate tensor between the inputs and the outputs of an "
        "earlier grad taken with create_graph=True, which the outputs reach",
        expected="inputs and no_grad_vars that are leaves, inputs of that earlier grad, "
        "or tensors that do not depend on its inputs",
        got="a tensor computed from that grad's inputs and used by its outputs: the "
        "gradient can be written through it or around it (each framework saves other "
        "tensors), so the derivative with respect to it has no single answer",
        fix="Differentiate with respect to the leaves (or the inputs of the earlier "
        "grad) instead, or take the earlier grad with respect to this tensor.",
    )
    raise UnsupportedFeatureError(msg)
