"""A thin array-API-style namespace over paddle, so forward code is written once.

Names follow the Python array API standard (``axis``/``keepdims``, ``linalg.vector_norm``,
``concat``); everything not defined here falls through to `paddle` itself.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import paddle

__all__ = [
    "abs",
    "asarray",
    "astype",
    "clip",
    "concat",
    "conj",
    "cos",
    "exp",
    "expand_dims",
    "imag",
    "linalg",
    "log",
    "matmul",
    "max",
    "maximum",
    "mean",
    "min",
    "minimum",
    "ones_like",
    "permute_dims",
    "pow",
    "prod",
    "real",
    "reshape",
    "sin",
    "sqrt",
    "square",
    "squeeze",
    "stack",
    "sum",
    "tan",
    "tanh",
    "where",
    "zeros_like",
]

_builtin_abs = abs


def _axis(axis: Any) -> Any:
    return list(axis) if isinstance(axis, tuple) else axis


def sum(x: Any, /, *, axis: Any = None, keepdims: bool = False, dtype: Any = None) -> Any:
    return paddle.sum(x, axis=_axis(axis), keepdim=keepdims, dtype=dtype)


def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return paddle.mean(x, axis=_axis(axis), keepdim=keepdims)


def prod(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return paddle.prod(x, axis=_axis(axis), keepdim=keepdims)


def max(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return paddle.max(x, axis=_axis(axis), keepdim=keepdims)


def min(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return paddle.min(x, axis=_axis(axis), keepdim=keepdims)


def reshape(x: Any, /, shape: tuple[int, ...]) -> Any:
    return paddle.reshape(x, list(shape))


def concat(arrays: Any, /, *, axis: int = 0) -> Any:
    return paddle.concat(list(arrays), axis=axis)


def stack(arrays: Any, /, *, axis: int = 0) -> Any:
    return paddle.stack(list(arrays), axis=axis)


def asarray(obj: Any, /, *, dtype: Any = None) -> Any:
    return paddle.to_tensor(obj, dtype=dtype)


def _vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: float = 2) -> Any:
    if axis is None:
        x, axis = paddle.reshape(x, [-1]), 0
    if ord == 2:
        return paddle.sqrt(paddle.sum(x * x, axis=_axis(axis), keepdim=keepdims))
    return paddle.linalg.norm(x, p=ord, axis=_axis(axis), keepdim=keepdims)


def expand_dims(x: Any, /, *, axis: int = 0) -> Any:
    return paddle.unsqueeze(x, axis)


def squeeze(x: Any, /, axis: Any) -> Any:
    return paddle.squeeze(x, axis=_axis(axis))


def permute_dims(x: Any, /, axes: tuple[int, ...]) -> Any:
    return paddle.transpose(x, list(axes))


def pow(x1: Any, x2: Any, /) -> Any:
    return paddle.pow(x1, x2)


def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:
    return paddle.clip(x, min, max)


def astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    return x.astype(dtype)


linalg = SimpleNamespace(vector_norm=_vector_norm, norm=paddle.linalg.norm)

abs = paddle.abs
conj = paddle.conj
cos = paddle.cos
imag = paddle.imag
real = paddle.real
tan = paddle.tan
exp = paddle.exp
log = paddle.log
matmul = paddle.matmul
maximum = paddle.maximum
minimum = paddle.minimum
ones_like = paddle.ones_like
sin = paddle.sin
sqrt = paddle.sqrt
square = paddle.square
tanh = paddle.tanh
where = paddle.where
zeros_like = paddle.zeros_like


def __getattr__(name: str) -> Any:
    return getattr(paddle, name)
