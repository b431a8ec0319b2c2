"""The array-building half of the paddle namespace (``_paddle``): creation,
manipulation, searching and sorting, statistics and the linear algebra of the main
namespace, under the standard's signatures and promotion rules over paddle's ops.
``_paddle`` re-exports every public name here; ``_paddle_linalg`` builds on the
linear algebra at the end.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any

import paddle

from . import _common as c
from . import _paddle_contract as contract
from . import _paddle_ho as ho
from . import _paddle_ho_arrays as hoa
from ._paddle_dtypes import (
    _COMPLEX,
    _FLOATS,
    _NARROW,
    _promote,
    _widened,
    bool,
    complex128,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
)
from ._paddle_list_ops import list_op
from ._paddle_prims import prims


# ---- creation ----------------------------------------------------------------------
def _dt(dtype: Any, default: Any = None) -> Any:
    return default if dtype is None else dtype


def asarray(
    obj: Any, /, *, dtype: Any = None, device: Any = None, copy: builtins.bool | None = None
) -> Any:
    if isinstance(obj, paddle.Tensor):
        if dtype is not None and obj.dtype != dtype:
            if copy is False:
                msg = f"asarray(copy=False) cannot cast {obj.dtype} to {dtype} without a copy"
                raise ValueError(msg)
            return paddle.cast(obj, dtype)
        return paddle.assign(obj) if copy else obj
    if dtype is None and not hasattr(obj, "dtype"):
        # Python data: the standard's defaults (paddle's own default float is float32)
        import numpy as np

        kind = np.asarray(obj).dtype.kind
        dtype = {"b": bool, "i": int64, "u": int64, "f": float64, "c": complex128}.get(kind)
    return paddle.to_tensor(obj, dtype=dtype)


def arange(
    start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None
) -> Any:
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        dtype = (
            float64 if builtins.any(isinstance(v, float) for v in (start, stop, step)) else int64
        )
    n = builtins.max(0, math.ceil((stop - start) / step))
    if n == 0:
        return paddle.zeros([0], dtype=dtype)
    return paddle.arange(start, start + n * step, step, dtype=dtype)[:n]


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return zeros(shape, dtype=dtype)


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return zeros_like(x, dtype=dtype)


def _shape(shape: Any) -> list[int]:
    return [shape] if isinstance(shape, int) else list(shape)


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return paddle.zeros(_shape(shape), dtype=_dt(dtype, float64))


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return paddle.ones(_shape(shape), dtype=_dt(dtype, float64))


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    if dtype is None:
        dtype = {builtins.bool: bool, int: int64, float: float64, complex: complex128}[
            type(fill_value)
        ]
    return paddle.full(_shape(shape), fill_value, dtype=dtype)


def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return paddle.zeros(list(x.shape), dtype=_dt(dtype, x.dtype))


def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return paddle.ones(list(x.shape), dtype=_dt(dtype, x.dtype))


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return paddle.full(list(x.shape), fill_value, dtype=_dt(dtype, x.dtype))


def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: Any = None,
    device: Any = None,
) -> Any:
    n_cols = n_rows if n_cols is None else n_cols
    dtype = _dt(dtype, float64)
    rows = paddle.arange(n_rows, dtype=int64).reshape([-1, 1])
    cols = paddle.arange(n_cols, dtype=int64).reshape([1, -1])
    return (cols - rows == k).astype(dtype)


def linspace(
    start: Any,
    stop: Any,
    /,
    num: int,
    *,
    dtype: Any = None,
    device: Any = None,
    endpoint: builtins.bool = True,
) -> Any:
    dtype = _dt(dtype, complex128 if isinstance(start, complex) else float64)
    if endpoint:
        return paddle.linspace(start, stop, num, dtype=dtype)
    return paddle.linspace(start, stop, num + 1, dtype=dtype)[:num]


def meshgrid(*arrays: Any, indexing: str = "xy") -> list[Any]:
    if arrays and arrays[0].dtype in _NARROW:  # no narrow-integer kernel: exact in int32
        return [
            o.astype(arrays[0].dtype)
            for o in meshgrid(*(a.astype(int32) for a in arrays), indexing=indexing)
        ]
    return c.meshgrid(prims, *arrays, indexing=indexing)


def tril(x: Any, /, *, k: int = 0) -> Any:
    if ho.needs(x):  # tril_grad has no gradient: a where on a constant mask
        return ho.triangle(x, k, lower=True)
    return _widened(paddle.tril)(x, k)


def triu(x: Any, /, *, k: int = 0) -> Any:
    if ho.needs(x):  # triu_grad has no gradient: a where on a constant mask
        return ho.triangle(x, k, lower=False)
    return _widened(paddle.triu)(x, k)


def from_dlpack(x: Any, /, *, device: Any = None, copy: builtins.bool | None = None) -> Any:
    return paddle.from_dlpack(x)


# ---- manipulation ----------------------------------------------------------------
def broadcast_arrays(*arrays: Any) -> list[Any]:
    return c.broadcast_arrays(prims, *arrays)


def broadcast_to(x: Any, /, shape: tuple[int, ...]) -> Any:
    return prims.broadcast_to(x, shape)


def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    return c.concat(prims, _promote(*arrays), axis=axis)


def expand_dims(x: Any, /, axis: int = 0) -> Any:
    return paddle.unsqueeze(x, c.normalize_axis(axis, x.ndim + 1))


def flip(x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
    axes = list(range(x.ndim)) if axis is None else axis
    return paddle.flip(x, axes) if x.ndim else x.clone()


def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    return paddle.moveaxis(x, source, destination)


def permute_dims(x: Any, /, axes: tuple[int, ...]) -> Any:
    return paddle.transpose(x, list(axes))


def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    if axis is None:
        x, axis = paddle.reshape(x, [-1]), 0
    if isinstance(repeats, paddle.Tensor) and repeats.dtype != int64:
        repeats = repeats.astype(int64)
    elif isinstance(repeats, int) and repeats == 0:
        # paddle 3.3.1 refuses an int 0 ("repeats should be larger than zero", a raw
        # ValueError); a tensor of zeros, one per element, gives the empty result
        repeats = paddle.zeros([x.shape[axis]], int64)
    if x.dtype == bool:  # no bool kernel: exact in int32
        return paddle.repeat_interleave(x.astype(int32), repeats, axis=axis).astype(bool)
    if x.dtype in _COMPLEX:  # no complex kernel: the two parts (differentiable) apart
        re = paddle.repeat_interleave(paddle.real(x), repeats, axis=axis)
        im = paddle.repeat_interleave(paddle.imag(x), repeats, axis=axis)
        return paddle.complex(re, im)
    return _widened(paddle.repeat_interleave)(x, repeats, axis=axis)


def reshape(x: Any, /, shape: tuple[int, ...], *, copy: builtins.bool | None = None) -> Any:
    new = list(shape)
    if new == x.shape and not x.stop_gradient:
        # paddle.reshape returns x itself for x's own shape, so a gradient with respect
        # to the result would count every use of x (a wrong number); torch's result is
        # a view of its own: the kernel gives one here too
        return paddle._C_ops.reshape(x, new)
    return paddle.reshape(x, new)


def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    if ho.needs(x):  # roll_grad has no gradient: gathers
        return hoa.roll(x, shift, axis)
    return paddle.roll(x, shift, axis=axis)


def squeeze(x: Any, /, axis: int | tuple[int, ...]) -> Any:
    axes = (axis,) if isinstance(axis, int) else axis
    for a in axes:
        if x.shape[a] != 1:
            msg = f"cannot squeeze axis {a} of size {x.shape[a]}"
            raise ValueError(msg)
    return paddle.squeeze(x, axis=list(axes))


def stack(arrays: Any, /, *, axis: int = 0) -> Any:
    return list_op(paddle.stack, _promote(*arrays), axis)


def tile(x: Any, repetitions: tuple[int, ...], /) -> Any:
    return paddle.tile(x, list(repetitions))


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    return c.unstack(prims, x, axis=axis)


def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    # paddle 3.3.1: indexing a non-contiguous view (``real(z)``, ``x.T``) with a tensor,
    # ``x[:, idx]``, indexes by the view's memory layout, not its shape (real(z)[:, [0, 0]]
    # of a 2x3 z came out 3x2, with wrong values and gradients): index a contiguous copy
    if not x.is_contiguous():
        x = x.contiguous()
    if axis is not None and indices.ndim == 1 and indices.shape[0] == 0 and x.ndim > 1:
        # paddle 3.3.1: ``x[:, empty_index]`` of a (2, 3) x comes out (3, 0), the axes
        # swapped; index_select keeps them ((2, 0)), and its gradient x's shape
        return paddle.index_select(x, indices.astype("int64"), axis=c.normalize_axis(axis, x.ndim))
    return c.take(prims, x, indices, axis=axis)


# ---- searching, sorting, sets -------------------------------------------------------
def argmax(x: Any, /, *, axis: int | None = None, keepdims: builtins.bool = False) -> Any:
    return paddle.argmax(x, axis=axis, keepdim=keepdims)


def argmin(x: Any, /, *, axis: int | None = None, keepdims: builtins.bool = False) -> Any:
    return paddle.argmin(x, axis=axis, keepdim=keepdims)


def nonzero(x: Any, /) -> tuple[Any, ...]:
    if x.ndim == 0:
        msg = "nonzero needs an array of at least one dimension"
        raise ValueError(msg)
    return tuple(paddle.nonzero(x, as_tuple=True))


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    if sorter is not None:
        x1 = paddle.take_along_axis(x1, sorter, axis=-1)
    x1, x2 = _promote(x1, x2)
    return _widened(paddle.searchsorted)(x1, x2, right=side == "right")


def where(condition: Any, x1: Any, x2: Any, /) -> Any:
    a, b = _promote(x1, x2)
    return paddle.where(condition, a, b)


def sort(
    x: Any, /, *, axis: int = -1, descending: builtins.bool = False, stable: builtins.bool = True
) -> Any:
    if descending and ho.needs(x):
        # the common flip is x[::-1], whose strided_slice_grad has no gradient
        out = c.sort(prims, x, axis=axis, descending=False, stable=stable)
        return paddle.flip(out, [axis])
    return c.sort(prims, x, axis=axis, descending=descending, stable=stable)


def argsort(
    x: Any, /, *, axis: int = -1, descending: builtins.bool = False, stable: builtins.bool = True
) -> Any:
    """Indices that sort ``x``: an index result, which depends on nothing (rule 14).
    paddle 3.3.1's ``argsort`` gives its int64 indices an ``ArgsortGradNode`` (and they
    report ``stop_gradient=False``): an input reached through them got zeros where it is
    unused, and a ``create_graph`` pass raised `HigherOrderUnavailableError`
    (``argsort_grad`` has no grad op). Sorted without a graph instead."""
    return c.argsort(prims, x.detach(), axis=axis, descending=descending, stable=stable)


def _unique(x: Any, **kw: Any) -> Any:
    flat = paddle.reshape(x, [-1])
    if x.dtype in (bool, uint8, int8, int16):  # no unique kernel: exact in int32
        out = paddle.unique(flat.astype(int32), **kw)
        return (out[0].astype(x.dtype), *out[1:]) if kw else out.astype(x.dtype)
    return paddle.unique(flat, **kw)


def unique_values(x: Any, /) -> Any:
    return _unique(x)


def unique_counts(x: Any, /) -> c.UniqueCounts:
    values, counts = _unique(x, return_counts=True)
    return c.UniqueCounts(values, counts)


def unique_inverse(x: Any, /) -> c.UniqueInverse:
    values, inverse = _unique(x, return_inverse=True)
    return c.UniqueInverse(values, paddle.reshape(inverse, list(x.shape)))


def unique_all(x: Any, /) -> c.UniqueAll:
    values, index, inverse, counts = _unique(
        x, return_index=True, return_inverse=True, return_counts=True
    )
    return c.UniqueAll(values, index, paddle.reshape(inverse, list(x.shape)), counts)


# ---- statistics and utilities -------------------------------------------------------
def _extremum(op: Callable[..., Any], x: Any, axis: Any, keepdims: builtins.bool) -> Any:
    """``op`` (paddle's max or min) of ``x``; for a float ``x`` that requires grad,
    as ``m + sum((x - m) * mask) / count`` with the value ``m``, the mask of the
    elements equal to it (NaN: the NaNs) and their count constants: the same value
    (``x - m`` is 0 under the mask) and gradient (ties share it evenly, as paddle's
    ``max_grad``), and a ``create_graph`` result paddle 3.3 can build (``max_grad`` and
    ``amax_grad`` have no gradient kernel); that result is the constant ``mask / count``
    (rule 14: the mask depends on nothing). The division by ``count`` is a multiplication
    by its reciprocal, a constant: paddle 3.3.1's ``divide`` has no ``divide_double_grad``
    kernel, so ``/ count`` stopped a third derivative (``max(x * x * x)``)."""
    if x.stop_gradient or x.dtype not in _FLOATS or axis == () or x.size == 0:
        return _widened(op)(x, axis=axis, keepdims=keepdims)
    v = x.detach()
    m = op(v, axis=axis, keepdims=True)
    mask = paddle.logical_or(v == m, v != v).astype(x.dtype)
    count = prims.sum(mask, axis=axis, keepdims=True)
    out = m + prims.sum((x - m) * mask, axis=axis, keepdims=True) * (1.0 / count)
    if keepdims:
        return out
    return paddle.reshape(out, [n for i, n in enumerate(x.shape) if i not in _axes(axis, x.ndim)])


def _axes(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(a % ndim for a in axis)


def max(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    return _extremum(prims.max, x, axis, keepdims)


def min(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    return _extremum(prims.min, x, axis, keepdims)


def mean(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    if axis == ():
        return x.clone()
    return prims.mean(x, axis=axis, keepdims=keepdims)


def _sum_dtype(x: Any, dtype: Any) -> Any:
    """The standard's default: integers accumulate in the default integer dtype."""
    if dtype is None and x.dtype in (bool, int8, int16, int32, uint8):
        return int64
    return dtype


def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: builtins.bool = False) -> Any:
    return prims.sum(x, axis=axis, keepdims=keepdims, dtype=_sum_dtype(x, dtype))


def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: builtins.bool = False) -> Any:
    dtype = _sum_dtype(x, dtype)
    if axis == ():
        return x if dtype is None else x.astype(dtype)
    if dtype is not None and x.dtype != dtype:
        x = x.astype(dtype)
    if not x.stop_gradient and paddle.is_grad_enabled():
        # paddle 3.3's ``prod_grad`` has no double-grad kernel (any create_graph pass
        # through ``paddle.prod`` raised): the tree of multiplies, exact at every order
        return c.prod_by_multiplies(prims, x, axis=axis, keepdims=keepdims)
    return paddle.prod(x, axis=list(axis) if isinstance(axis, tuple) else axis, keepdim=keepdims)


def std(
    x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: builtins.bool = False
) -> Any:
    return c.std(prims, x, axis=axis, correction=correction, keepdims=keepdims)


def var(
    x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: builtins.bool = False
) -> Any:
    return c.var(prims, x, axis=axis, correction=correction, keepdims=keepdims)


def cumulative_sum(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: builtins.bool = False
) -> Any:
    return c.cumulative_sum(prims, x, axis=axis, dtype=dtype, include_initial=include_initial)


def cumulative_prod(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: builtins.bool = False
) -> Any:
    return c.cumulative_prod(prims, x, axis=axis, dtype=dtype, include_initial=include_initial)


def all(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    return paddle.all(
        x.astype(bool), axis=list(axis) if isinstance(axis, tuple) else axis, keepdim=keepdims
    )


def any(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    return paddle.any(
        x.astype(bool), axis=list(axis) if isinstance(axis, tuple) else axis, keepdim=keepdims
    )


# ---- linear algebra ----------------------------------------------------------------
def matmul(x1: Any, x2: Any, /) -> Any:
    a, b = _promote(x1, x2)
    return _widened(contract.matmul)(a, b)


def matrix_transpose(x: Any, /) -> Any:
    return c.matrix_transpose(prims, x)


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    a, b = _promote(x1, x2)
    axes = axes if isinstance(axes, int) else [list(v) for v in axes]
    return _widened(contract.tensordot)(a, b, axes=axes)


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    a, b = _promote(x1, x2)
    if a.dtype == uint8:
        return c.vecdot(prims, a.astype(int32), b.astype(int32), axis=axis).astype(uint8)
    return c.vecdot(prims, a, b, axis=axis)
