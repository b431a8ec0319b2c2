"""The oracle's own reading of the contract's refusal rules (docs/semantics.md).

Written from the contract's text, not shared with the backends' implementation
(``unigrad/contract/_slices.py``, ``unigrad/contract/_ambiguous.py``), so that a bug
in a backend's rule shows up as a divergence:

* row 17: a full-range slice (``x[:]``, ``x[0:n]``, ``x[-n:]``, an over-long stop,
  ``x[...]``, ``x[()]``, ``x[:, :]``) that requires grad, as an input or a cut, is
  refused; an int, ``None``, a step other than 1, an array or a mask is not such a slice.
* row 16: a non-leaf input or cut ``v`` is refused when the outputs reach (through the
  graph's differentiable edges: a cut's result, ``round(g)``, is a constant of no
  graph, rule 14; and from a ``create_graph`` result on through everything its call's outputs
  and seeds depend on) a result of a call *C* such that ``v`` depends on one of *C*'s
  inputs without being it, and one of *C*'s outputs is ``v`` or depends on it; and a
  result ``g_i`` of *C* (for input ``x_i``) is refused when the outputs reach another
  result ``g_j`` of *C* whose input ``x_j`` ``x_i`` depends on.

Values are the oracle's (`_closed_forms.RV`): ``r.node.parents`` are what ``r`` was
computed from, ``r.records`` the `Call` views of the create_graph calls that returned it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Call", "full_range", "refused"]


def full_range(index: Any, shape: tuple[int, ...]) -> bool:
    """Whether ``x[index]`` (``x`` of ``shape``) is a slice that selects all of ``x``."""
    parts = index if isinstance(index, tuple) else (index,)
    if any(p is not Ellipsis and not isinstance(p, slice) for p in parts):
        return False  # ints, None, arrays and masks copy
    if sum(p is Ellipsis for p in parts) > 1:
        return False
    slices = [p for p in parts if isinstance(p, slice)]
    if len(slices) > len(shape):
        return False
    for s, n in zip(slices, shape, strict=False):
        if not all(b is None or isinstance(b, int) for b in (s.start, s.stop, s.step)):
            return False
        if s.step not in (None, 1):
            return False
        start, stop, _ = s.indices(n)
        if (start, stop) != (0, n):
            return False
    return True


@dataclass(frozen=True, eq=False)
class Call:
    """One create_graph call as a result of it sees it: the call's ``token``, its
    ``inputs``, ``outputs`` and ``seeds``, and which input the result is for."""

    token: object
    inputs: tuple[Any, ...]
    outputs: tuple[Any, ...]
    seeds: tuple[Any, ...]
    position: int


def _parents(r: Any) -> tuple[Any, ...]:
    return () if r.node is None else tuple(r.node.parents)


def _reach(starts: Iterable[Any], met: list[Call] | None = None) -> set[int]:
    """Keys of every value the starts depend on (themselves included), following each
    create_graph result on into its call's outputs and seeds."""
    seen: set[int] = set()
    todo = list(starts)
    while todo:
        r = todo.pop()
        if r is None or r.key in seen:
            continue
        seen.add(r.key)
        for call in r.records:
            if met is not None:
                met.append(call)
            todo += [*call.outputs, *call.seeds]
        todo += _parents(r)
    return seen


def refused(outputs: Sequence[Any], candidates: Sequence[tuple[str, Any]]) -> str | None:
    """The label of the first candidate (a non-leaf input or cut) row 16 refuses."""
    met: list[Call] = []
    _reach(outputs, met)
    if not met:
        return None
    for label, v in candidates:
        for mine in v.records:  # v is a result g_i of a call whose g_j the outputs reach
            xi = mine.inputs[mine.position]
            others = {
                c.inputs[c.position].key
                for c in met
                if c.token is mine.token and c.inputs[c.position] is not xi
            }
            if others and _reach(_parents(xi)) & others:
                return label
    for label, v in candidates:
        upstream = _reach(_parents(v))
        for call in met:
            if not any(x.key in upstream for x in call.inputs):
                continue
            if v.key in _reach(call.outputs):
                return label
    return None
