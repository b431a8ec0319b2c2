"""paddle under NumPy's names: the primitive namespace that ``_common`` is written over.

Only what the common rules use; each is one paddle op (or a short composition of them),
so gradients flow through paddle's own autograd.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import paddle

from . import _paddle_contract as contract
from . import _paddle_ho as ho
from . import _paddle_ho_arrays as hoa
from ._paddle_list_ops import list_op

__all__ = ["linalg", "own_nodes", "prims"]


def _ax(axis: Any) -> Any:
    return list(axis) if isinstance(axis, tuple) else axis


def own_nodes(results: Sequence[Any]) -> tuple[Any, ...]:
    """The results of one multi-output paddle op, each through an identity op of its own
    (``clone``) while it requires grad. paddle 3.3.1's ``paddle.grad`` crashes
    (``SystemError: (Fatal) Invalid slot_id for GradTensorHolder::add()``) where a pass
    stops at an input made by a result other than the first of such a node (``svd``'s
    ``S``/``Vh``, ``eigh``'s eigenvectors) without running the node: ``grad(2 * s, s)``,
    ``s = svd(x)[1]`` (test_a_later_result_of_a_decomposition_as_an_input in
    test_backend_fixes.py). A node of
    its own per result is one slot, which paddle stops at."""
    return tuple(r if r.stop_gradient else r.clone() for r in results)


class _Linalg:
    @staticmethod
    def svd(x: Any, full_matrices: bool = False) -> Any:
        return own_nodes(paddle.linalg.svd(x, full_matrices=full_matrices))

    @staticmethod
    def eigh(x: Any) -> Any:
        return own_nodes(paddle.linalg.eigh(x))

    @staticmethod
    def inv(x: Any) -> Any:
        return paddle.linalg.inv(x)


class _Prims:
    """NumPy-named paddle primitives (static methods), plus ``linalg``."""

    linalg = _Linalg()

    @staticmethod
    def sum(x: Any, axis: Any = None, keepdims: bool = False, dtype: Any = None) -> Any:
        if axis == ():
            return x if dtype is None else x.astype(dtype)
        return paddle.sum(x, axis=_ax(axis), keepdim=keepdims, dtype=dtype)

    @staticmethod
    def mean(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
        return paddle.mean(x, axis=_ax(axis), keepdim=keepdims)

    @staticmethod
    def max(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
        if ho.needs(x):
            return hoa.reduce_extreme(paddle.max, x, axis, keepdims)
        return paddle.max(x, axis=_ax(axis), keepdim=keepdims)

    @staticmethod
    def min(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
        if ho.needs(x):
            return hoa.reduce_extreme(paddle.min, x, axis, keepdims)
        return paddle.min(x, axis=_ax(axis), keepdim=keepdims)

    abs = staticmethod(paddle.abs)
    sqrt = staticmethod(ho.sqrt)
    conj = staticmethod(paddle.conj)
    real = staticmethod(paddle.real)
    matmul = staticmethod(contract.matmul)

    @staticmethod
    def power(x: Any, p: float) -> Any:
        """``x ** p`` for a Python number ``p``, to float64 precision in float64.

        paddle 3.3 keeps a scalar exponent as a float32 attribute (PaddlePaddle/Paddle
        #74638 changes that), so ``x ** (1/3)`` in float64 is off by about 1e-8 relative;
        an exponent tensor (``elementwise_pow``) is exact but has no double-grad kernel.
        So ``p`` is split into its float32 rounding toward zero ``q`` (exact as the
        attribute) and the small rest ``p - q`` of the same sign (whose float32 error is
        below 1e-15 absolute): ``x**q * x**(p - q)`` is ``x**p`` within a few ulp, with
        the same value at 0 (both factors 0, or both inf) and scalar ``pow``'s kernels of
        every order.
        """
        if x.dtype != paddle.float64:
            return x**p
        q = float(np.float32(p))
        if abs(q) > abs(p):
            q = float(np.nextafter(np.float32(q), np.float32(0.0)))
        if q == p:
            return x**p
        return x**q * x ** (p - q)

    @staticmethod
    def reshape(x: Any, shape: Sequence[int]) -> Any:
        return paddle.reshape(x, list(shape))

    @staticmethod
    def transpose(x: Any, axes: Sequence[int]) -> Any:
        return paddle.transpose(x, list(axes))

    @staticmethod
    def swapaxes(x: Any, a: int, b: int) -> Any:
        perm = list(range(x.ndim))
        perm[a], perm[b] = perm[b], perm[a]
        return paddle.transpose(x, perm)

    @staticmethod
    def moveaxis(x: Any, source: int, destination: int) -> Any:
        return paddle.moveaxis(x, source, destination)

    @staticmethod
    def astype(x: Any, dtype: Any) -> Any:
        return x if x.dtype == dtype else x.astype(dtype)

    @staticmethod
    def asarray(x: Any) -> Any:
        return x if isinstance(x, paddle.Tensor) else paddle.to_tensor(x)

    @staticmethod
    def concatenate(arrays: Sequence[Any], axis: int = 0) -> Any:
        # (a constant operand among differentiable ones as the namespace's concat gives
        # it, `_paddle_list_ops.operands`: paddle 3.3.1's ConcatDoubleGradNode raised
        # "Unable to fill empty grad inputs due to empty GradSlotMeta" in a pass through
        # the gradient of ``cumulative_sum(x, include_initial=True)``, whose first slice
        # is a constant: differential seed 3030, program 4778)
        return list_op(paddle.concat, arrays, axis)

    @staticmethod
    def stack(arrays: Sequence[Any], axis: int = 0) -> Any:
        return list_op(paddle.stack, arrays, axis)  # (as `concatenate`)

    @staticmethod
    def diagonal(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
        if ho.needs(x):
            return hoa.diagonal(x, offset, axis1, axis2)
        return paddle.diagonal(x, offset=offset, axis1=axis1, axis2=axis2)

    @staticmethod
    def cumsum(x: Any, axis: int, dtype: Any = None) -> Any:
        if x.dtype == paddle.bool or (dtype is None and x.dtype in (paddle.int8, paddle.uint8)):
            x = x.astype(paddle.int64)
        if dtype is not None and x.dtype != dtype:
            x = x.astype(dtype)
        if ho.needs(x):
            return hoa.cumsum(x, axis)
        return paddle.cumsum(x, axis=axis)

    @staticmethod
    def cumprod(x: Any, axis: int, dtype: Any = None) -> Any:
        if dtype is not None and x.dtype != dtype:
            x = x.astype(dtype)
        if ho.needs(x):
            return hoa.cumprod(x, axis)
        return paddle.cumprod(x, dim=axis)

    @staticmethod
    def full(shape: Sequence[int], fill: Any, dtype: Any) -> Any:
        return paddle.full(list(shape), fill, dtype=dtype)

    @staticmethod
    def eye(n: int, dtype: Any) -> Any:
        return paddle.eye(n, dtype=dtype)

    @staticmethod
    def broadcast_to(x: Any, shape: Sequence[int]) -> Any:
        if len(shape) == 0 and not x.stop_gradient:
            # paddle 3.3.1's expand returns x itself for the shape ``()``, so a gradient
            # with respect to the result counted every use of x
            # (test_a_0d_broadcast_to_its_own_shape_is_a_tensor_of_its_own in
            # test_any_program.py: ``broadcast_arrays`` of 0-d tensors); torch's result is a
            # tensor of its own: a copy here
            return x.clone()
        return paddle.broadcast_to(x, list(shape))

    @staticmethod
    def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
        out: list[int] = []
        for s in shapes:
            out = list(paddle.broadcast_shape(out, list(s)))
        return tuple(out)

    @staticmethod
    def where(cond: Any, a: Any, b: Any) -> Any:
        return paddle.where(cond, a, b)

    @staticmethod
    def sort(x: Any, axis: int = -1, kind: Any = None) -> Any:
        if ho.needs(x):
            return hoa.sort(x, axis, kind == "stable")
        return paddle.sort(x, axis=axis, stable=kind == "stable")

    @staticmethod
    def argsort(x: Any, axis: int = -1, kind: Any = None) -> Any:
        return paddle.argsort(x, axis=axis, stable=kind == "stable")

    @staticmethod
    def result_type(*xs: Any) -> Any:
        from ._paddle import result_type

        return result_type(*xs)

    float32, float64 = paddle.float32, paddle.float64  # finfo(...).dtype names these
    finfo = staticmethod(paddle.finfo)
    iinfo = staticmethod(paddle.iinfo)


prims = _Prims()
linalg = prims.linalg
