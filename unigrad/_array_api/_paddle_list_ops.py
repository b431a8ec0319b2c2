"""paddle's list ops in the namespace (``concat``, ``stack``, and ``einsum`` where it
stays paddle's): what they are given, and what they tell the backend.

Two of paddle 3.3.1's defects meet here. Its double-grad nodes of ``concat`` and
``stack`` fail on a constant operand (`operands`). And its ``paddle.grad`` runs every
operand's branch of a list op's node, one that leads to no input too, where a node
``backward()`` freed raises: the backend leaves those branches out, from the operands
each list op tells it (`ON_LIST_OP`, `told`; `unigrad.backends.paddle._list_operands`).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import Any

import paddle

__all__ = ["ON_LIST_OP", "list_op", "operands", "told"]

#: Called with each list op's result and its operands, where the result requires grad;
#: set by the paddle backend when it loads (`unigrad.backends.paddle._list_operands.record`).
ON_LIST_OP: Callable[[Any, Sequence[Any]], None] | None = None


def told(out: Any, ops: Sequence[Any]) -> Any:
    """``out``, the result of a list op of ``ops``, told to `ON_LIST_OP`."""
    if ON_LIST_OP is not None and not out.stop_gradient:
        ON_LIST_OP(out, ops)
    return out


def list_op(fn: Callable[..., Any], arrays: Sequence[Any], axis: int) -> Any:
    """``fn(operands, axis=axis)`` for ``paddle.concat`` or ``paddle.stack``, its operands
    as `operands` makes them, told to `ON_LIST_OP`."""
    ops = operands(list(arrays))
    return told(fn(ops, axis=axis), ops)


def operands(arrays: list[Any]) -> list[Any]:
    """The operands of a list op (``concat``, ``stack``), a constant among tensors that
    require grad given a leaf of its own that requires grad (the same memory, held by
    nobody else, so no gradient of a user's tensor changes). paddle 3.3's double-grad
    nodes of ``concat`` and ``stack`` fail when one operand is a constant ("Unable to
    fill empty grad inputs due to empty GradSlotMeta", in any pass through the
    gradient's graph: ``concat([x, c])`` and a second derivative), which
    PaddlePaddle/Paddle#44252 fixed for empty gradients but not for an operand with no
    gradient slot at all.

    The constant's operand is ``a - sign(z) * 0`` of a scalar leaf ``z`` of its own: its
    graph reaches a leaf only through ``SignGradNode``, a cut of rule 14, so it is still a
    constant to unigrad (a leaf copy of ``a`` that required grad made ``concat([sign(x),
    c])`` require grad, and a pass from it raised `UnusedInputError` where the contract
    gives `NotDifferentiableError`: differential seed 2027, programs 20810 and 22235). The
    value is ``a``'s, signed zeros and NaNs included (``-0.0 - 0.0`` is ``-0.0``)."""
    if not paddle.is_grad_enabled() or builtins.all(a.stop_gradient for a in arrays):
        return arrays
    out = []
    for a in arrays:
        if a.stop_gradient:
            narrow = a.dtype in (paddle.float32, paddle.complex64)
            z = paddle.zeros([], dtype=paddle.float32 if narrow else paddle.float64)
            z.stop_gradient = False
            zero = paddle.sign(z) * 0.0
            a = a - (zero if zero.dtype == a.dtype else zero.astype(a.dtype))
        out.append(a)
    return out
