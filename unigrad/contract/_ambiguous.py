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

A result of C is such an intermediate for C's other results. With ``v`` C's input
``x_i`` downstream of another input ``x_j`` (``v2 = tanh(x1)``, ``grad(y, [v2, x1])``),
torch and paddle compute ``g_j`` *through* ``g_i`` (the gradient reaching ``x_i`` flows
on toward ``x_j``: ``g_x1 = g_v2 * (1 - v2**2)``), the tape and the reference replay
each from C's inputs, around it. A derivative holding ``g_i`` fixed (a cut, or ``g_i``
as an input) while the outputs reach ``g_j`` has no single answer either: refused.
Results of inputs that do not depend on each other (``grad(loss, [w, b])``) answer.

`ambiguous` decides it on any backend's graph, structurally: a ``create_graph``
result's dependencies are its own graph's *and* everything C's outputs and seeds
depend on (a `Record` attached to the result's node), so that the answer does not
depend on which tensors a framework saved. A backend records at O(results) cost in
each ``create_graph`` call and walks only in calls with a non-leaf input or cut.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .._errors import UnsupportedFeatureError, message

if TYPE_CHECKING:
    from ._view import GraphView

__all__ = ["Record", "ambiguous", "attach", "record_of", "refuse"]

#: What `ambiguous` found: between C's inputs and outputs, or a result of C that
#: another of C's results runs through.
BETWEEN, RESULT = "between", "result"


class Record:
    """One ``create_graph=True`` call: the identities of its inputs, the graph nodes of
    its outputs and of its seeds (the starts of a structural walk), and per input
    position ``(the input's identity, its node or None for a leaf)``.

    Result ``i``'s node carries the view ``at(i)`` (``position == i``, the same
    ``call``, a token that names the call): a record never holds a result's node,
    which holds the record (a cycle through a torch node's metadata, or a weak-keyed
    registry's value holding its key, is never freed), nor itself (a record in a
    reference cycle would keep the outputs' graph alive until the garbage collector
    runs: every later call of a training step would walk it as consumed)."""

    __slots__ = ("__weakref__", "call", "inputs", "outputs", "position", "results", "seeds")

    def __init__(
        self,
        inputs: frozenset[Hashable],
        outputs: tuple[Any, ...],
        seeds: tuple[Any, ...],
        results: tuple[tuple[Hashable, Any] | None, ...] = (),
    ) -> None:
        self.inputs = inputs
        self.outputs = outputs
        self.seeds = seeds
        self.results = results
        self.position = -1
        self.call: object = object()

    def at(self, position: int) -> Record:
        """The view of this call that result ``position``'s node carries."""
        view = Record(self.inputs, self.outputs, self.seeds, self.results)
        view.position = position
        view.call = self.call
        return view


R = TypeVar("R", bound=Record)


def record_of(
    view: GraphView,
    inputs: Sequence[Any],
    outputs: Sequence[Any],
    seeds: Sequence[Any],
    cls: type[R],
) -> R:
    """The `Record` (a ``cls``: `Record` or a backend's subclass) of a ``create_graph``
    call over ``inputs``, made before or after its pass; `attach` gives it to the
    results."""
    node = view.node
    results = tuple((view.key(x), node(x)) for x in inputs)
    return cls(
        frozenset(k for k, _ in results),
        tuple(n for n in map(node, outputs) if n is not None),
        tuple(n for n in (node(s) for s in seeds if s is not None) if n is not None),
        results,
    )


def attach(view: GraphView, record: Record, results: Sequence[Any]) -> None:
    """Give ``record`` to the node of each differentiable result (`GraphView.keep`)."""
    for i, g in enumerate(results):
        n = None if g is None else view.node(g)
        if n is not None:
            view.keep(n, record, i, g)


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
) -> tuple[str, str] | None:
    """``(label, BETWEEN)`` for the first candidate ``(label, node)`` (a non-leaf input
    or cut, by its graph node) that lies strictly between the inputs and outputs of a
    ``create_graph`` call whose result the ``roots`` (the outputs' nodes) reach;
    ``(label, RESULT)`` for one that is a result of such a call for an input that
    depends on the input of another of its results the roots reach; or None."""
    found: list[Record] = []
    _closure(roots, kids, ident, records, found)
    if not found:
        return None
    for label, node in candidates:
        if _through_result(node, found, kids, ident, records):
            return label, RESULT
    calls: list[Record] = []  # one record per call
    for r in found:
        if all(r.call is not c.call for c in calls):
            calls.append(r)
    below: dict[int, set[Hashable]] = {}
    for label, node in candidates:
        k = ident(node)
        upstream = _closure(kids(node), kids, ident, records)  # strictly upstream of v
        for i, r in enumerate(calls):
            if not (r.inputs & upstream):
                continue
            outs = below.get(i)
            if outs is None:
                outs = below[i] = _closure(r.outputs, kids, ident, records)
            if k in outs:
                return label, BETWEEN
    return None


def _through_result(
    node: Any,
    found: list[Record],
    kids: Callable[[Any], Iterable[Any]],
    ident: Callable[[Any], Hashable],
    records: Callable[[Any], Sequence[Record]],
) -> bool:
    """Whether ``node`` is the result ``g_i`` of a create_graph call whose result
    ``g_j`` the roots reach (its view among ``found``), for an input ``x_j`` upstream
    of ``x_i``."""
    for r in records(node):
        mine = r.results[r.position] if r.position >= 0 else None
        if mine is None or mine[1] is None:
            continue
        xi, xi_node = mine
        others: set[Hashable] = set()
        for f in found:
            theirs = f.results[f.position] if f.call is r.call and f.position >= 0 else None
            if theirs is not None:
                others.add(theirs[0])
        others.discard(xi)
        if others and not _closure(kids(xi_node), kids, ident, records).isdisjoint(others):
            return True
    return False


def refuse(label: str, kind: str = BETWEEN) -> None:
    """Raise the refusal for ``label`` (``inputs[i]`` or ``no_grad_vars[i]``) of the
    ``kind`` `ambiguous` found."""
    if kind == RESULT:
        msg = message(
            f"{label} is a result of an earlier grad taken with create_graph=True, for an "
            "input that depends on the input of another of its results, which the "
            "outputs reach",
            expected="inputs and no_grad_vars that are leaves, inputs of that earlier "
            "grad, or results of it that its other results the outputs reach do not "
            "run through",
            got="a gradient the other result can be computed through (torch and paddle "
            "pass it on toward the upstream input) or around (replayed from the earlier "
            "grad's inputs), so the derivative with respect to it has no single answer",
            fix="Differentiate with respect to the leaves, or take the two gradients in "
            "two grad calls.",
        )
        raise UnsupportedFeatureError(msg)
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
