"""Data types of the paddle namespace: the standard's dtypes, kinds and promotion.

paddle refuses to combine integer tensors of two widths, or integers with floats;
``_promote`` applies the standard's promotion table (and its rule that a Python scalar
takes the array's dtype) before a paddle op sees its inputs. ``_widened`` runs an op on
uint8/int8/int16 arrays, for which many paddle kernels are missing, in int32.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any

import paddle

from . import _common as c
from ._paddle_prims import prims

__all__ = [
    "astype",
    "bool",
    "can_cast",
    "complex64",
    "complex128",
    "e",
    "finfo",
    "float32",
    "float64",
    "iinfo",
    "inf",
    "int8",
    "int16",
    "int32",
    "int64",
    "isdtype",
    "nan",
    "newaxis",
    "pi",
    "result_type",
    "uint8",
]

bool = paddle.bool
int8, int16, int32, int64, uint8 = (
    paddle.int8,
    paddle.int16,
    paddle.int32,
    paddle.int64,
    paddle.uint8,
)
float32, float64 = paddle.float32, paddle.float64
complex64, complex128 = paddle.complex64, paddle.complex128
e, pi, inf, nan, newaxis = math.e, math.pi, math.inf, math.nan, None

_INTS = (int8, int16, int32, int64)
_UINTS = (uint8,)
_FLOATS = (float32, float64)
_COMPLEX = (complex64, complex128)
_BITS = {
    int8: 8, int16: 16, int32: 32, int64: 64, uint8: 8,
    float32: 32, float64: 64, complex64: 64, complex128: 128,
}  # fmt: skip


# ---- data types -----------------------------------------------------------------
def isdtype(dtype: Any, kind: Any) -> builtins.bool:
    if isinstance(kind, tuple):
        return builtins.any(isdtype(dtype, k) for k in kind)
    if not isinstance(kind, str):
        return builtins.bool(dtype == kind)
    kinds = {
        "bool": (bool,),
        "signed integer": _INTS,
        "unsigned integer": _UINTS,
        "integral": _INTS + _UINTS,
        "real floating": _FLOATS,
        "complex floating": _COMPLEX,
        "numeric": _INTS + _UINTS + _FLOATS + _COMPLEX,
    }
    if kind not in kinds:
        msg = f"isdtype: unknown kind {kind!r}; expected one of {', '.join(kinds)}"
        raise ValueError(msg)
    return dtype in kinds[kind]


def _promote2(a: Any, b: Any) -> Any:
    if a == b:
        return a
    ka, kb = _kind(a), _kind(b)
    if ka == "b" or kb == "b":
        msg = f"no promotion between {a} and {b} in the array API standard"
        raise TypeError(msg)
    if ka == kb:
        return a if _BITS[a] >= _BITS[b] else b
    if {ka, kb} == {"i", "u"}:
        s, u = (a, b) if ka == "i" else (b, a)
        need = _BITS[u] * 2
        if _BITS[s] >= need:
            return s
        if need <= 64:
            return {16: int16, 32: int32, 64: int64}[need]
        msg = f"no integer dtype holds both {a} and {b}"
        raise TypeError(msg)
    if {ka, kb} == {"f", "c"}:
        f, z = (a, b) if ka == "f" else (b, a)
        return complex128 if _BITS[f] == 64 or _BITS[z] == 128 else complex64
    msg = f"no promotion between {a} and {b} (integer and floating mix) in the standard"
    raise TypeError(msg)


def _kind(dtype: Any) -> str:
    if dtype == bool:
        return "b"
    if dtype in _INTS:
        return "i"
    if dtype in _UINTS:
        return "u"
    if dtype in _FLOATS:
        return "f"
    if dtype in _COMPLEX:
        return "c"
    msg = f"dtype {dtype} is not one of the standard's"
    raise TypeError(msg)


def result_type(*arrays_and_dtypes: Any) -> Any:
    dtypes = [getattr(a, "dtype", a) for a in arrays_and_dtypes]
    if not dtypes:
        msg = "result_type needs at least one array or dtype"
        raise ValueError(msg)
    out = dtypes[0]
    for d in dtypes[1:]:
        out = _promote2(out, d)
    return out


def can_cast(from_: Any, to: Any, /) -> builtins.bool:
    src = getattr(from_, "dtype", from_)
    try:
        return builtins.bool(_promote2(src, to) == to)
    except TypeError:
        return False


def finfo(type: Any, /) -> c.FInfo:
    return c.finfo(prims, type)


def iinfo(type: Any, /) -> c.IInfo:
    return c.iinfo(prims, type)


def astype(x: Any, dtype: Any, /, *, copy: builtins.bool = True, device: Any = None) -> Any:
    if not copy and x.dtype == dtype:
        return x
    out = paddle.cast(x, dtype) if x.dtype != dtype else paddle.assign(x)
    if _kind(dtype) not in "fc" and not out.stop_gradient:
        # rule 14: an integer or bool result depends on nothing (paddle 3.3's cast keeps
        # a gradient through it: float(int(x)) differentiated to 1, torch's is unused)
        out = out.detach()
    return out


# ---- scalars and promotion for elementwise functions ------------------------------
def _scalar_dtype(value: Any, like: Any) -> Any:
    if isinstance(value, builtins.bool):
        return bool
    if isinstance(value, int):
        return like if _kind(like) in "iuf" or _kind(like) == "c" else int64
    if isinstance(value, float):
        return like if _kind(like) in "fc" else float64
    return complex128 if like not in _COMPLEX else like


def _promote(*xs: Any) -> list[Any]:
    """Arrays of the standard's common dtype; a Python scalar takes the arrays' dtype."""
    arrays = [x for x in xs if isinstance(x, paddle.Tensor)]
    if not arrays:
        return [paddle.to_tensor(x) for x in xs]
    dtype = result_type(*arrays)
    out = []
    for x in xs:
        if isinstance(x, paddle.Tensor):
            out.append(x if x.dtype == dtype else paddle.cast(x, dtype))
        else:
            out.append(paddle.full([], x, dtype=_scalar_dtype(x, dtype)))
    return out


_NARROW = (paddle.uint8, paddle.int8, paddle.int16)


def _widened(op: Callable[..., Any]) -> Callable[..., Any]:
    """``op`` on uint8/int8/int16 arrays, for which many paddle kernels are missing:
    computed in int32 and cast back (exact: integer results keep their low bits, and
    bool or int64 results are returned as they are). Integer arrays have no gradient,
    so nothing is lost."""

    def run(*xs: Any, **kw: Any) -> Any:
        narrow = [x.dtype for x in xs if isinstance(x, paddle.Tensor) and x.dtype in _NARROW]
        if not narrow:
            return op(*xs, **kw)
        wide = [
            x.astype(int32) if isinstance(x, paddle.Tensor) and x.dtype in _NARROW else x
            for x in xs
        ]
        out = op(*wide, **kw)
        if isinstance(out, paddle.Tensor) and out.dtype == int32:
            return out.astype(narrow[0])
        return out

    return run
