"""The array API standard namespace (2023.12) for paddle tensors: ``unigrad.namespace(x)``.

Every function is built on paddle's own ops, so gradients flow through each
differentiable one. The standard's rules that are not paddle's are applied here: type
promotion across integer widths and between kinds (paddle refuses both), Python scalars
taking the array's dtype, the standard's signatures (``axis``/``keepdims``), and the
rules shared with the tape (norms, ``vecdot``, ``std``/``var``, sorting, cumulative
sums), which come from ``_common`` over paddle's primitives. paddle has no uint16,
uint32 or uint64; ``xfails/paddle.txt`` lists what that and paddle's tensor operators
make impossible.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import paddle

from . import _c99
from . import _common as c
from . import _paddle_contract as contract
from . import _paddle_ho as ho
from . import _paddle_ho_arrays as hoa
from ._paddle_arrays import (
    all,
    any,
    arange,
    argmax,
    argmin,
    argsort,
    asarray,
    broadcast_arrays,
    broadcast_to,
    concat,
    cumulative_prod,
    cumulative_sum,
    empty,
    empty_like,
    expand_dims,
    eye,
    flip,
    from_dlpack,
    full,
    full_like,
    linspace,
    matmul,
    matrix_transpose,
    max,
    mean,
    meshgrid,
    min,
    moveaxis,
    nonzero,
    ones,
    ones_like,
    permute_dims,
    prod,
    repeat,
    reshape,
    roll,
    searchsorted,
    sort,
    squeeze,
    stack,
    std,
    sum,
    take,
    tensordot,
    tile,
    tril,
    triu,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
    unstack,
    var,
    vecdot,
    where,
    zeros,
    zeros_like,
)
from ._paddle_dtypes import (
    _COMPLEX,
    _promote,
    _widened,
    astype,
    bool,
    can_cast,
    complex64,
    complex128,
    e,
    finfo,
    float32,
    float64,
    iinfo,
    inf,
    int8,
    int16,
    int32,
    int64,
    isdtype,
    nan,
    newaxis,
    pi,
    result_type,
    uint8,
)
from ._paddle_prims import prims

__all__ = [
    "__array_api_version__",
    "__array_namespace_info__",
    "abs",
    "acos",
    "acosh",
    "add",
    "all",
    "any",
    "arange",
    "argmax",
    "argmin",
    "argsort",
    "asarray",
    "asin",
    "asinh",
    "astype",
    "atan",
    "atan2",
    "atanh",
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "bool",
    "broadcast_arrays",
    "broadcast_to",
    "can_cast",
    "ceil",
    "clip",
    "complex64",
    "complex128",
    "concat",
    "conj",
    "copysign",
    "cos",
    "cosh",
    "count_nonzero",
    "cumulative_prod",
    "cumulative_sum",
    "diff",
    "divide",
    "e",
    "einsum",
    "empty",
    "empty_like",
    "equal",
    "erf",
    "exp",
    "expand_dims",
    "expm1",
    "eye",
    "fft",
    "finfo",
    "flip",
    "float32",
    "float64",
    "floor",
    "floor_divide",
    "from_dlpack",
    "full",
    "full_like",
    "greater",
    "greater_equal",
    "hypot",
    "iinfo",
    "imag",
    "inf",
    "int8",
    "int16",
    "int32",
    "int64",
    "isdtype",
    "isfinite",
    "isinf",
    "isnan",
    "less",
    "less_equal",
    "linalg",
    "linspace",
    "log",
    "log1p",
    "log2",
    "log10",
    "log_softmax",
    "logaddexp",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "logsumexp",
    "matmul",
    "matrix_transpose",
    "max",
    "maximum",
    "mean",
    "meshgrid",
    "min",
    "minimum",
    "moveaxis",
    "multiply",
    "nan",
    "negative",
    "newaxis",
    "nextafter",
    "nonzero",
    "not_equal",
    "ones",
    "ones_like",
    "permute_dims",
    "pi",
    "positive",
    "pow",
    "prod",
    "real",
    "reciprocal",
    "relu",
    "remainder",
    "repeat",
    "reshape",
    "result_type",
    "roll",
    "round",
    "searchsorted",
    "sigmoid",
    "sign",
    "signbit",
    "sin",
    "sinh",
    "softmax",
    "softplus",
    "sort",
    "sqrt",
    "square",
    "squeeze",
    "stack",
    "std",
    "subtract",
    "sum",
    "take",
    "take_along_axis",
    "tan",
    "tanh",
    "tensordot",
    "tile",
    "tril",
    "triu",
    "trunc",
    "uint8",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "unstack",
    "var",
    "vecdot",
    "where",
    "zeros",
    "zeros_like",
]

__array_api_version__ = "2023.12"


def _unary(op: Callable[..., Any], name: str) -> Callable[..., Any]:
    op = _widened(op)

    def f(x: Any, /) -> Any:
        return op(x)

    f.__name__ = f.__qualname__ = name
    return f


def _detach(x: Any) -> Any:
    return x.detach()


def _exp(x: Any) -> Any:
    """paddle's exp, save for complex: paddle's complex128 exp is accurate to about 1e-8
    only (a single-precision step inside), so ``exp(a) * cis(b)`` with real kernels."""
    if x.dtype not in _COMPLEX:
        return paddle.exp(x)
    a, b = paddle.real(x), paddle.imag(x)
    m = paddle.exp(a)
    return paddle.complex(m * paddle.cos(b), m * paddle.sin(b))


def _complex_special(op: Callable[..., Any], name: str) -> Callable[..., Any]:
    """A unary function with the standard's complex special cases (``_c99``): paddle's
    complex kernels miss some; the kernel's result stays everywhere else."""
    base = _unary(op, name)

    def f(x: Any, /) -> Any:
        out = base(x)
        if not isdtype(x.dtype, "complex floating"):
            return out
        if name == "acosh":
            out = c.acosh_branch_gradient(paddle, _detach, x, out)
        v = x.detach()
        mask, re, im = _c99.special(paddle, name, paddle.real(v), paddle.imag(v))
        return _c99.pin(paddle, mask, paddle.complex(re, im), out, _detach)

    f.__name__ = f.__qualname__ = name
    return f


def _binary(op: Callable[..., Any], name: str) -> Callable[..., Any]:
    op = _widened(op)

    def f(x1: Any, x2: Any, /) -> Any:
        a, b = _promote(x1, x2)
        return op(a, b)

    f.__name__ = f.__qualname__ = name
    return f


abs = _unary(paddle.abs, "abs")
acos = _complex_special(paddle.acos, "acos")
acosh = _complex_special(ho.acosh, "acosh")
asin = _unary(ho.asin, "asin")
asinh = _complex_special(ho.asinh, "asinh")
atan = _unary(ho.atan, "atan")
atanh = _complex_special(ho.atanh, "atanh")
bitwise_invert = _unary(paddle.bitwise_not, "bitwise_invert")
conj = _unary(paddle.conj, "conj")
cos = _unary(paddle.cos, "cos")
cosh = _complex_special(ho.cosh, "cosh")
exp = _complex_special(_exp, "exp")
expm1 = _complex_special(ho.expm1, "expm1")
imag = _unary(paddle.imag, "imag")
isfinite = _unary(paddle.isfinite, "isfinite")
isinf = _unary(paddle.isinf, "isinf")
isnan = _unary(paddle.isnan, "isnan")
log = _complex_special(paddle.log, "log")
log1p = _complex_special(ho.log1p, "log1p")
log2 = _unary(ho.log2, "log2")
log10 = _unary(ho.log10, "log10")
logical_not = _unary(paddle.logical_not, "logical_not")
_real = _unary(paddle.real, "real")


def real(x: Any, /) -> Any:
    """The real part; of a real tensor a new tensor with its values, as the other
    namespaces give (paddle 3.3's ``real`` kernel is registered for complex dtypes only
    and raises a raw ``RuntimeError`` (NotFound) for a float tensor)."""
    return _real(x) if x.is_complex() else paddle.assign(x)


sin = _unary(paddle.sin, "sin")
sinh = _complex_special(ho.sinh, "sinh")
sqrt = _complex_special(ho.sqrt, "sqrt")
tan = _unary(ho.tan, "tan")
tanh = _complex_special(paddle.tanh, "tanh")
signbit = _unary(paddle.signbit, "signbit")


def _integral_keep(op: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``op`` (ceil, floor, trunc, round) of a float tensor; an integer tensor as it is.

    Of a real tensor that requires grad: ``op``'s value minus ``sign(x) * 0``, whose
    derivative is zero to any order through ``SignGradNode``, a cut of rule 14 as
    ``op``'s own grad node is. paddle 3.3.1's ``ceil_grad``, ``floor_grad``,
    ``trunc_grad`` and ``round_grad`` have no grad op, so a ``create_graph`` pass that
    ran through them raised `HigherOrderUnavailableError` where the other backends answer
    (tests/test_divergences_2026.py::
    test_batched_create_graph_gradient_through_ceil_is_a_constant). The value is
    ``op``'s, signed zeros included (``sign(x) * 0.0`` is paddle's ``scale``, which adds
    a zero bias: always ``+0.0``, or NaN where ``x`` is NaN and so is the value).
    """

    def f(x: Any, /) -> Any:
        if not isdtype(x.dtype, ("real floating", "complex floating")):
            return x
        if x.stop_gradient or x.dtype in _COMPLEX:
            return op(x)
        return op(x.detach()) - paddle.sign(x) * 0.0

    f.__name__ = f.__qualname__ = name
    return f


ceil = _integral_keep(paddle.ceil, "ceil")
floor = _integral_keep(paddle.floor, "floor")
trunc = _integral_keep(paddle.trunc, "trunc")
round = _integral_keep(paddle.round, "round")


def negative(x: Any, /) -> Any:
    return paddle.neg(x)


def positive(x: Any, /) -> Any:
    return x.clone()


def square(x: Any, /) -> Any:
    return multiply(x, x)


def sign(x: Any, /) -> Any:
    if x.dtype in _COMPLEX:  # x / |x|, and 0 where x is 0
        a = paddle.abs(x)
        zero = a <= 0  # not a == 0: paddle's == on floats has a tolerance
        safe = paddle.where(zero, paddle.ones_like(a), a)
        return paddle.where(zero, paddle.zeros_like(x), x / paddle.cast(safe, x.dtype))
    return paddle.sign(x)


add = _binary(paddle.add, "add")
atan2 = _binary(ho.atan2, "atan2")
bitwise_and = _binary(paddle.bitwise_and, "bitwise_and")
bitwise_left_shift = _binary(paddle.bitwise_left_shift, "bitwise_left_shift")
bitwise_or = _binary(paddle.bitwise_or, "bitwise_or")
bitwise_right_shift = _binary(paddle.bitwise_right_shift, "bitwise_right_shift")
bitwise_xor = _binary(paddle.bitwise_xor, "bitwise_xor")
copysign = _binary(ho.copysign, "copysign")
divide = _binary(ho.divide, "divide")


def _exact_equal(x1: Any, x2: Any) -> Any:
    # paddle.equal on floats has a tolerance (1e-300 == 0 is True): compare with <= and >=
    if x1.dtype in _COMPLEX:
        re = _exact_equal(paddle.real(x1), paddle.real(x2))
        return re & _exact_equal(paddle.imag(x1), paddle.imag(x2))
    if isdtype(x1.dtype, "real floating"):
        return paddle.less_equal(x1, x2) & paddle.greater_equal(x1, x2)
    return paddle.equal(x1, x2)


def _exact_not_equal(x1: Any, x2: Any) -> Any:
    return paddle.logical_not(_exact_equal(x1, x2))


equal = _binary(_exact_equal, "equal")
floor_divide = _binary(paddle.floor_divide, "floor_divide")
greater = _binary(paddle.greater_than, "greater")
greater_equal = _binary(paddle.greater_equal, "greater_equal")
hypot = _binary(ho.hypot, "hypot")
less = _binary(paddle.less_than, "less")
less_equal = _binary(paddle.less_equal, "less_equal")
logaddexp = _binary(ho.logaddexp, "logaddexp")
logical_and = _binary(paddle.logical_and, "logical_and")
logical_or = _binary(paddle.logical_or, "logical_or")
logical_xor = _binary(paddle.logical_xor, "logical_xor")
maximum = _binary(paddle.maximum, "maximum")
minimum = _binary(paddle.minimum, "minimum")


def _multiply(a: Any, b: Any) -> Any:
    # an empty broadcast's operands expanded (_paddle_contract.expanded)
    return paddle.multiply(*contract.expanded(a, b))


multiply = _binary(_multiply, "multiply")
not_equal = _binary(_exact_not_equal, "not_equal")
_pow = _binary(ho.pow, "pow")


def pow(x1: Any, x2: Any, /) -> Any:
    """``x1 ** x2``. A real floating tensor to the Python power 2 or 3 is ``x1 * x1``
    (``* x1``), as torch and jax compute it: paddle 3.3's double-grad kernel of its
    scalar pow (``PowDoubleGradNode``) raises "The output DenseTensor DX can not be
    nullptr" when a later pass does not differentiate with respect to the base (the
    weights of ``x**2 * w``: PaddlePaddle/Paddle#57371 made the kernel skip a missing
    ``grad_out`` gradient, not a missing ``x`` one). Another integer power (|n| <= 64)
    of a tensor that requires grad keeps paddle's value with the derivatives of a
    product of squarings, and a tensor exponent goes through ``_paddle_ho.pow``: paddle's
    pow has no double-grad kernel for either. A complex tensor to the power 1 is a copy:
    paddle's complex pow reads its base in its gradient, so the constant derivative 1
    required grad (differential seed 9961, program 3116)."""
    if (
        isinstance(x1, paddle.Tensor)
        and type(x2) in (int, float)
        and x2 == 1
        and x1.dtype in _COMPLEX
        and not x1.stop_gradient
    ):
        return x1.clone()
    if (
        isinstance(x1, paddle.Tensor)
        and type(x2) in (int, float)
        and x2 in (2, 3)
        and isdtype(x1.dtype, "real floating")
    ):
        sq = paddle.multiply(x1, x1)
        return sq if x2 == 2 else paddle.multiply(sq, x1)
    if (
        isinstance(x1, paddle.Tensor)
        and type(x2) in (int, float)
        and float(x2).is_integer()
        and builtins.abs(x2) <= 64
        and ho.needs(x1)
    ):
        return ho.int_power(x1, int(x2))
    return _pow(x1, x2)


remainder = _binary(ho.remainder, "remainder")
subtract = _binary(paddle.subtract, "subtract")


def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:
    return c.clip(_Where, x, min, max)


class _Where:
    """The few primitives ``_common.clip`` needs, with paddle's promotion rules applied."""

    @staticmethod
    def where(cond: Any, a: Any, b: Any) -> Any:
        return paddle.where(cond, a, b)

    @staticmethod
    def astype(x: Any, dtype: Any) -> Any:
        return x if x.dtype == dtype else paddle.cast(x, dtype)

    @staticmethod
    def asarray(x: Any, dtype: Any = None) -> Any:
        return x if isinstance(x, paddle.Tensor) else paddle.full([], x, dtype=dtype)

    broadcast_to = staticmethod(prims.broadcast_to)
    broadcast_shapes = staticmethod(prims.broadcast_shapes)


# ---- inspection ----------------------------------------------------------------------
class _Info:
    """``__array_namespace_info__()``: capabilities, devices and dtypes of paddle."""

    def capabilities(self) -> dict[str, Any]:
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 9}

    def default_device(self) -> Any:
        return paddle.CPUPlace()

    def devices(self) -> list[Any]:
        return [paddle.CPUPlace()]

    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        return {"real floating": float64, "complex floating": complex128,
                "integral": int64, "indexing": int64}  # fmt: skip

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, Any]:
        every = {"bool": bool, "int8": int8, "int16": int16, "int32": int32, "int64": int64,
                 "uint8": uint8, "float32": float32, "float64": float64,
                 "complex64": complex64, "complex128": complex128}  # fmt: skip
        if kind is None:
            return every
        return {k: v for k, v in every.items() if isdtype(v, kind)}


def __array_namespace_info__() -> _Info:
    return _Info()


from . import _paddle_fft as fft  # noqa: E402  (its functions use the ones above)
from . import _paddle_linalg as linalg  # noqa: E402

# ---- the 2024.12 functions every backend has ---------------------------------------
reciprocal = _unary(ho.reciprocal, "reciprocal")
nextafter = _binary(paddle.nextafter, "nextafter")


def count_nonzero(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    return sum(x != 0 if x.dtype != bool else x, axis=axis, keepdims=keepdims, dtype=int64)


def diff(
    x: Any,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: Any = None,
    append: Any = None,
) -> Any:
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = concat(parts, axis=axis)
    for _ in range(n):
        length = x.shape[axis]
        hi = paddle.slice(x, axes=[axis], starts=[1], ends=[length])
        lo = paddle.slice(x, axes=[axis], starts=[0], ends=[builtins.max(length - 1, 0)])
        x = paddle.logical_xor(hi, lo) if x.dtype == bool else subtract(hi, lo)
    return x


def take_along_axis(x: Any, indices: Any, /, *, axis: int = -1) -> Any:
    indices = indices.astype(int64)
    if x.dtype in _COMPLEX:  # paddle 3.3 registers no complex kernel: the two parts apart
        re = paddle.take_along_axis(paddle.real(x), indices, axis)
        im = paddle.take_along_axis(paddle.imag(x), indices, axis)
        return paddle.complex(re, im)
    return paddle.take_along_axis(x, indices, axis)


# ---- unigrad's extension set (``_portable.EXTENSIONS``), differentiable to any order --
def einsum(subscripts: str, /, *operands: Any) -> Any:
    return hoa.einsum(subscripts, *operands)


def logsumexp(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    return hoa.logsumexp(x, axis, keepdims)


def sigmoid(x: Any, /) -> Any:
    return ho.sigmoid(x)


def softplus(x: Any, /) -> Any:
    return ho.softplus(x)


def relu(x: Any, /) -> Any:
    return paddle.where(x > 0, x, paddle.zeros_like(x))


def erf(x: Any, /) -> Any:
    return ho.erf(x)


def log_softmax(x: Any, /, *, axis: int = -1) -> Any:
    return x - hoa.logsumexp(x, axis, True)


def softmax(x: Any, /, *, axis: int = -1) -> Any:
    return paddle.exp(log_softmax(x, axis=axis))


def build() -> Any:
    """This module seen through the portable list (``unigrad.namespace`` of paddle)."""
    global _PORTABLE
    if _PORTABLE is None:
        import sys

        from ._portable import portable

        _PORTABLE = portable(sys.modules[__name__])
    return _PORTABLE


_PORTABLE: Any = None
