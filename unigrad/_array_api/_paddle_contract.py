"""paddle's products with no element: ``matmul`` and ``tensordot`` where the contraction
is empty, and elementwise products whose broadcast result is empty.

paddle 3.3.1's ``matmul_grad`` raises "Required tensor shall not be nullptr" (a raw
``ValueError``) when the contracted axis has no element and only one operand's gradient
is asked for (the other operand a constant too, or not an input of the pass): natively,
``paddle.grad(paddle.matmul(a, x), x)`` for ``a`` of shape ``(1, 0)`` and ``x`` of
shape ``(0, 2)`` (differential seed 9314, program 3225; ``paddle.tensordot`` goes
through the same kernel). There the value is zeros, computed here as the broadcast
product of the operands summed over the contracted axes: ``expand``, ``multiply`` of
equal shapes and ``sum`` differentiate to any order on empty tensors, and the result
stays on a node of both operands (rule 14: a path is the graph's whatever its size).
Elsewhere paddle's own kernels run.

paddle 3.3.1's broadcasting ``multiply``, ``divide``, ``pow`` and ``atan2`` fail at
second order when the result has no element and an operand broadcasts (a raw
``ValueError`` from a reshape in the double-grad node, "The 'shape' in ReshapeOp is
invalid", or ``RuntimeError`` "The number of elements of source tensor"): natively,
``m * s`` for ``m`` of shape ``(2, 0)`` and ``s`` of shape ``(1, 1)``, both computed from
``x``, then two passes. `expanded` gives those ops (the namespace's functions, paddle's
``*`` and ``/`` and ``**`` through ``backends/paddle/_tensor_methods``, and the
namespace's ``vecdot`` and ``linalg.outer``, which multiply with ``*``) operands of equal
shapes, which differentiate to any order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import paddle

__all__ = ["expanded", "matmul", "product", "tensordot"]


def _differentiated(a: Any, b: Any) -> bool:
    return paddle.is_grad_enabled() and not (a.stop_gradient and b.stop_gradient)


def matmul(a: Any, b: Any) -> Any:
    """``paddle.matmul(a, b)``; an empty contraction as a broadcast product summed."""
    if a.ndim == 0 or a.shape[-1] != 0 or not _differentiated(a, b):
        return paddle.matmul(a, b)
    a2 = paddle.unsqueeze(a, 0) if a.ndim == 1 else a
    b2 = paddle.unsqueeze(b, -1) if b.ndim == 1 else b
    y = paddle.sum(product(paddle.unsqueeze(a2, -1), paddle.unsqueeze(b2, -3)), axis=-2)
    if a.ndim == 1 and b.ndim == 1:
        return paddle.reshape(y, [])
    if b.ndim == 1:
        return paddle.squeeze(y, -1)
    if a.ndim == 1:
        return paddle.squeeze(y, -2)
    return y


def tensordot(a: Any, b: Any, axes: int | Sequence[Sequence[int]]) -> Any:
    """``paddle.tensordot(a, b, axes=axes)``; an empty contraction as a broadcast
    product summed over the contracted axes."""
    if isinstance(axes, int):
        ca = list(range(a.ndim - axes, a.ndim))
        cb = list(range(axes))
    else:
        ca = [d % a.ndim for d in axes[0]]
        cb = [d % b.ndim for d in axes[1]]
    if math.prod(a.shape[d] for d in ca) != 0 or not ca or not _differentiated(a, b):
        return paddle.tensordot(a, b, axes=axes if isinstance(axes, int) else [ca, cb])
    fa = [d for d in range(a.ndim) if d not in ca]
    fb = [d for d in range(b.ndim) if d not in cb]
    at = paddle.transpose(a, fa + ca)  # (free of a, contracted)
    bt = paddle.transpose(b, cb + fb)  # (contracted, free of b)
    # (unsqueeze, not reshape: paddle's reshape reads a 0 as "keep that axis")
    at = paddle.unsqueeze(at, list(range(at.ndim, at.ndim + len(fb)))) if fb else at
    bt = paddle.unsqueeze(bt, list(range(len(fa)))) if fa else bt
    return paddle.sum(product(at, bt), axis=list(range(len(fa), len(fa) + len(ca))))


def product(a: Any, b: Any) -> Any:
    """``a * b``, both expanded to the broadcast shape first (an empty contraction's
    product: see the module docstring)."""
    shape = list(np.broadcast_shapes(tuple(a.shape), tuple(b.shape)))
    return paddle.expand(a, shape) * paddle.expand(b, shape)


def expanded(a: Any, b: Any) -> tuple[Any, Any]:
    """``a`` and ``b`` expanded to their broadcast shape where that shape has no element,
    they differ, and one requires grad; otherwise (and for shapes that do not broadcast,
    whose error the kernel raises) ``a`` and ``b`` themselves. Costs two ``stop_gradient``
    reads where neither requires grad, two ``shape`` reads (~0.7 us) otherwise."""
    if a.stop_gradient and b.stop_gradient:
        return a, b
    sa, sb = a.shape, b.shape
    if (0 not in sa and 0 not in sb) or sa == sb:
        return a, b
    try:
        shape = list(np.broadcast_shapes(tuple(sa), tuple(sb)))
    except ValueError:
        return a, b
    return paddle.expand(a, shape), paddle.expand(b, shape)
