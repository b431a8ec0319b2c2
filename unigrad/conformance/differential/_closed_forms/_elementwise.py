"""Elementwise closed forms: arithmetic, the standard's elementwise functions, their
complex branches, the piecewise-linear ones and comparisons; and the broadcasting they
need (``broadcast_to``, ``rsum``, ``reshape``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._core import KINK, RV, Degenerate, _cut_check, _dt, _mk, _real_dtype, const, cut


# ---- primitives: forward value + VJP written with primitives ---------------------------
def _unbroadcast(ct: RV, shape: tuple[int, ...]) -> RV:
    if ct.shape == shape:
        return ct
    lead = len(ct.shape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and ct.shape[i + lead] != 1
    )
    out = rsum(ct, axes, keepdims=True) if axes else ct
    return reshape(out, shape)


def _fit(ct: RV, like: RV) -> RV:
    """A cotangent for ``like``: unbroadcast, and real for a real primal."""
    ct = _unbroadcast(ct, like.shape)
    if ct.is_complex and not like.is_complex:
        ct = real(ct)
    return ct


def _cj(a: RV) -> RV:
    return conj(a) if a.is_complex else a


def add(a: RV, b: RV) -> RV:
    return _mk(a.v + b.v, _dt(a, b), (a, b), add, lambda ct, a, b: (_fit(ct, a), _fit(ct, b)))


def add_c(a: RV, c: Any) -> RV:
    """``a + c`` for a Python number ``c``."""
    return add(a, const(c, a.dtype))


def neg(a: RV) -> RV:
    return _mk(-a.v, a.dtype, (a,), neg, lambda ct, a: (neg(ct),))


def sub(a: RV, b: RV) -> RV:
    return add(a, neg(b))


def mul(a: RV, b: RV) -> RV:
    def vjp(ct: RV, a: RV, b: RV) -> tuple[RV | None, ...]:
        return (
            _fit(mul(ct, _cj(b)), a) if a.rg else None,
            _fit(mul(ct, _cj(a)), b) if b.rg else None,
        )

    return _mk(a.v * b.v, _dt(a, b), (a, b), mul, vjp)


def recip(a: RV) -> RV:
    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        r = recip(a)
        return (neg(mul(ct, _cj(mul(r, r)))),)

    return _mk(1.0 / a.v, a.dtype, (a,), recip, vjp)


def exp(a: RV) -> RV:
    return _mk(np.exp(a.v), a.dtype, (a,), exp, lambda ct, a: (mul(ct, _cj(exp(a))),))


def sin(a: RV) -> RV:
    return _mk(np.sin(a.v), a.dtype, (a,), sin, lambda ct, a: (mul(ct, _cj(cos(a))),))


def cos(a: RV) -> RV:
    return _mk(np.cos(a.v), a.dtype, (a,), cos, lambda ct, a: (neg(mul(ct, _cj(sin(a)))),))


def tanh(a: RV) -> RV:
    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        t = tanh(a)
        one = const(np.ones(a.shape), a.dtype)
        return (mul(ct, _cj(sub(one, mul(t, t)))),)

    return _mk(np.tanh(a.v), a.dtype, (a,), tanh, vjp)


def sinh(a: RV) -> RV:
    return _mk(np.sinh(a.v), a.dtype, (a,), sinh, lambda ct, a: (mul(ct, _cj(cosh(a))),))


def cosh(a: RV) -> RV:
    return _mk(np.cosh(a.v), a.dtype, (a,), cosh, lambda ct, a: (mul(ct, _cj(sinh(a))),))


def expm1(a: RV) -> RV:
    return _mk(np.expm1(a.v), a.dtype, (a,), expm1, lambda ct, a: (mul(ct, _cj(exp(a))),))


def atan(a: RV) -> RV:
    _imag_cut(a, "atan")

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, _cj(recip(add(mul(a, a), const(1.0, a.dtype))))),)

    return _mk(np.arctan(a.v), a.dtype, (a,), atan, vjp)


def asinh(a: RV) -> RV:
    _imag_cut(a, "asinh")

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, _cj(recip(sqrt(add(mul(a, a), const(1.0, a.dtype)))))),)

    return _mk(np.arcsinh(a.v), a.dtype, (a,), asinh, vjp)


def log1p(a: RV) -> RV:
    _cut_check(add_c(a, 1.0).v, "log1p")

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, _cj(recip(add(a, const(1.0, a.dtype))))),)

    return _mk(np.log1p(a.v), a.dtype, (a,), log1p, vjp)


def sqrt(a: RV) -> RV:
    _cut_check(a.v, "sqrt")

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, _cj(recip(scale(sqrt(a), 2.0)))),)

    return _mk(np.sqrt(a.v), a.dtype, (a,), sqrt, vjp)


def conj(a: RV) -> RV:
    return _mk(np.conj(a.v), a.dtype, (a,), conj, lambda ct, a: (conj(ct),))


def real(a: RV) -> RV:
    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (to_complex(ct, a.dtype),)

    return _mk(np.real(a.v), _real_dtype(a.dtype), (a,), real, vjp)


def imag(a: RV) -> RV:
    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        # L = ct * Im(z): dL/dx + i dL/dy = i ct
        return (mul(to_complex(ct, a.dtype), const(1j, a.dtype)),)

    return _mk(np.imag(a.v), _real_dtype(a.dtype), (a,), imag, vjp)


def to_complex(a: RV, dtype: str) -> RV:
    return _mk(
        a.v.astype(np.complex128), dtype, (a,), _to_complex_of(dtype), lambda ct, a: (real(ct),)
    )


def _to_complex_of(dtype: str) -> Callable[[RV], RV]:
    def apply(a: RV) -> RV:
        return to_complex(a, dtype)

    return apply


def scale(a: RV, c: Any) -> RV:
    return mul(a, const(c, a.dtype))


def sign_const(a: RV) -> RV:
    return const(np.sign(a.v), a.dtype)


def absolute(a: RV) -> RV:
    if np.any(np.abs(a.v) < KINK):
        msg = "abs at 0"
        raise Degenerate(msg)
    if a.is_complex:
        # |z| = sqrt(z conj z); the VJP is ct * z / |z|
        return sqrt(real(mul(a, conj(a))))

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, sign_const(a)),)

    return _mk(np.abs(a.v), a.dtype, (a,), absolute, vjp)


def _select(mask: np.ndarray, a: RV, b: RV) -> RV:
    m = np.asarray(mask)

    def apply(a: RV, b: RV) -> RV:
        return _select(m, a, b)

    def vjp(ct: RV, a: RV, b: RV) -> tuple[RV | None, ...]:
        zero = const(np.zeros(ct.shape), ct.dtype)
        return (_fit(_select(m, ct, zero), a), _fit(_select(m, zero, ct), b))

    return _mk(np.where(m, a.v, b.v), _dt(a, b), (a, b), apply, vjp)


def where(mask: np.ndarray, a: RV, b: RV) -> RV:
    return _select(np.broadcast_to(mask, np.broadcast_shapes(a.shape, b.shape, mask.shape)), a, b)


def _tie(a: RV, b: RV) -> Any:
    d = a.v - b.v
    if np.any(np.abs(d) < KINK):
        msg = "a tie"
        raise Degenerate(msg)
    return d > 0


def maximum(a: RV, b: RV) -> RV:
    return where(_tie(a, b), a, b)


def minimum(a: RV, b: RV) -> RV:
    return where(_tie(b, a), a, b)


def clip(a: RV, lo: float, hi: float) -> RV:
    if np.any(np.abs(a.v - lo) < KINK) or np.any(np.abs(a.v - hi) < KINK):
        msg = "clip at a bound"
        raise Degenerate(msg)
    inside = (a.v > lo) & (a.v < hi)
    zero = const(np.zeros(a.shape), a.dtype)
    bound = const(np.clip(a.v, lo, hi), a.dtype)
    return _select(inside, a, add(bound, zero))


def rsum(a: RV, axis: Any, keepdims: bool) -> RV:
    ax = tuple(range(a.v.ndim)) if axis is None else axis
    ax = (ax,) if isinstance(ax, int) else tuple(ax)
    ax = tuple(i % max(a.v.ndim, 1) for i in ax)
    shape = a.shape

    def apply(a: RV) -> RV:
        return rsum(a, axis, keepdims)

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        kept = tuple(1 if i in ax else n for i, n in enumerate(shape))
        return (broadcast_to(reshape(ct, kept), shape),)

    return _mk(np.sum(a.v, axis=ax, keepdims=keepdims), a.dtype, (a,), apply, vjp)


def broadcast_to(a: RV, shape: tuple[int, ...]) -> RV:
    def apply(a: RV) -> RV:
        return broadcast_to(a, shape)

    return _mk(
        np.broadcast_to(a.v, shape).copy(),
        a.dtype,
        (a,),
        apply,
        lambda ct, a: (_unbroadcast(ct, a.shape),),
    )


def reshape(a: RV, shape: tuple[int, ...]) -> RV:
    def apply(a: RV) -> RV:
        return reshape(a, shape)

    return _mk(np.reshape(a.v, shape), a.dtype, (a,), apply, lambda ct, a: (reshape(ct, a.shape),))


def _one(a: RV) -> RV:
    return const(np.ones(a.shape), a.dtype)


def erf(a: RV) -> RV:
    """The error function (real): its derivative 2/sqrt(pi) exp(-a^2) is written with
    the oracle's own functions, so it differentiates again."""
    import math

    value = np.vectorize(math.erf, otypes=[np.float64])(a.v).astype(a.v.dtype)

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, scale(exp(neg(mul(a, a))), 2 / math.sqrt(math.pi))),)

    return _mk(value, a.dtype, (a,), erf, vjp)


def log(a: RV) -> RV:
    _cut_check(a.v, "log")
    return _mk(np.log(a.v), a.dtype, (a,), log, lambda ct, a: (mul(ct, _cj(recip(a))),))


def tan(a: RV) -> RV:
    if np.any(np.abs(np.cos(a.v)) < 0.05):
        msg = "tan near a pole"
        raise Degenerate(msg)

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        t = tan(a)
        return (mul(ct, _cj(add(_one(a), mul(t, t)))),)

    return _mk(np.tan(a.v), a.dtype, (a,), tan, vjp)


def _unit_cut(a: RV, what: str) -> None:
    """asin/acos/atanh: real values in (-1, 1); complex ones off the cuts |x| > 1."""
    v = a.v
    if np.iscomplexobj(v):
        if np.any((np.abs(v.imag) < KINK) & (np.abs(v.real) > 1 - KINK)):
            msg = f"{what} near its branch cut"
            raise Degenerate(msg)
    elif np.any(np.abs(v) > 1 - KINK):
        msg = f"{what} outside its domain"
        raise Degenerate(msg)


def asin(a: RV) -> RV:
    _unit_cut(a, "asin")

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, _cj(recip(sqrt(sub(_one(a), mul(a, a)))))),)

    return _mk(np.arcsin(a.v), a.dtype, (a,), asin, vjp)


def acos(a: RV) -> RV:
    _unit_cut(a, "acos")

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (neg(mul(ct, _cj(recip(sqrt(sub(_one(a), mul(a, a))))))),)

    return _mk(np.arccos(a.v), a.dtype, (a,), acos, vjp)


def atanh(a: RV) -> RV:
    _unit_cut(a, "atanh")

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, _cj(recip(sub(_one(a), mul(a, a))))),)

    return _mk(np.arctanh(a.v), a.dtype, (a,), atanh, vjp)


def acosh(a: RV) -> RV:
    _cut_check(a.v, "acosh", 1.0)

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, _cj(recip(mul(sqrt(add_c(a, -1.0)), sqrt(add_c(a, 1.0)))))),)

    return _mk(np.arccosh(a.v), a.dtype, (a,), acosh, vjp)


def _imag_cut(a: RV, what: str) -> None:
    """atan/asinh of complex values: off the cuts on the imaginary axis, |y| > 1."""
    v = a.v
    if np.iscomplexobj(v) and np.any((np.abs(v.real) < KINK) & (np.abs(v.imag) > 1 - KINK)):
        msg = f"{what} near its branch cut"
        raise Degenerate(msg)


def powt(a: RV, b: RV) -> RV:
    """``a ** b`` of two tensors (``a`` off log's cut)."""
    _cut_check(a.v, "pow")

    def vjp(ct: RV, a: RV, b: RV) -> tuple[RV | None, ...]:
        return (
            _fit(mul(ct, _cj(mul(b, powt(a, add_c(b, -1.0))))), a) if a.rg else None,
            _fit(mul(ct, _cj(mul(log(a), powt(a, b)))), b) if b.rg else None,
        )

    return _mk(np.power(a.v, b.v), _dt(a, b), (a, b), powt, vjp)


def powc(a: RV, c: Any) -> RV:
    """``a ** c`` for a Python number ``c`` (an integer, or a float of a positive base)."""
    if isinstance(c, float) and not float(c).is_integer():
        _cut_check(a.v, "pow")
    if c < 0 and np.any(np.abs(a.v) < 0.05):
        msg = "a negative power near 0"
        raise Degenerate(msg)

    def apply(a: RV) -> RV:
        return powc(a, c)

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, _cj(scale(powc(a, c - 1), c))),)

    if c == 0:
        return cut(np.ones(a.shape), a.dtype)
    if c == 1:
        return reshape(a, a.shape)
    return _mk(np.power(a.v, c), a.dtype, (a,), apply, vjp)


def atan2(a: RV, b: RV) -> RV:
    r2 = a.v * a.v + b.v * b.v
    if np.any(r2 < 0.01) or np.any((np.abs(a.v) < KINK) & (b.v < 0)):
        msg = "atan2 near the origin or its cut"
        raise Degenerate(msg)

    def vjp(ct: RV, a: RV, b: RV) -> tuple[RV | None, ...]:
        inv = recip(add(mul(a, a), mul(b, b)))
        return (
            _fit(mul(ct, mul(b, inv)), a) if a.rg else None,
            _fit(neg(mul(ct, mul(a, inv))), b) if b.rg else None,
        )

    return _mk(np.arctan2(a.v, b.v), _dt(a, b), (a, b), atan2, vjp)


def hypot(a: RV, b: RV) -> RV:
    return sqrt(add(mul(a, a), mul(b, b)))


def logaddexp(a: RV, b: RV) -> RV:
    def vjp(ct: RV, a: RV, b: RV) -> tuple[RV | None, ...]:
        r = logaddexp(a, b)
        return (
            _fit(mul(ct, exp(sub(a, r))), a) if a.rg else None,
            _fit(mul(ct, exp(sub(b, r))), b) if b.rg else None,
        )

    return _mk(np.logaddexp(a.v, b.v), _dt(a, b), (a, b), logaddexp, vjp)


def _away(v: np.ndarray, points: np.ndarray | float, what: str) -> None:
    if np.any(np.abs(v - points) < KINK):
        raise Degenerate(what)


def floor_like(a: RV, fn: Any, what: str) -> RV:
    """floor/ceil/trunc/round: a cut (derivative identically zero); Degenerate where
    the value jumps (integers; half-integers for round)."""
    v = a.v
    if what == "round":
        _away(v - np.floor(v), 0.5, "round at a half")
    else:
        _away(v, np.round(v), f"{what} at an integer")
    return cut(fn(v), a.dtype)


def sign_cut(a: RV) -> RV:
    _away(a.v, 0.0, "sign at 0")
    return cut(np.sign(a.v), a.dtype)


def sign_complex(a: RV) -> RV:
    """The standard's complex ``sign(z) = z / |z|``: it has a derivative (torch's ``sgn``;
    docs/semantics.md, "Dependence": only real ``sign`` cuts). Degenerate at 0."""
    return mul(a, recip(absolute(a)))


def copysign(a: RV, b: RV) -> RV:
    _away(a.v, 0.0, "copysign at 0")
    _away(b.v, 0.0, "copysign's sign at 0")
    s = cut(
        np.broadcast_to(np.sign(a.v) * np.sign(b.v), np.broadcast_shapes(a.shape, b.shape)),
        _dt(a, b),
    )
    return mul(a, s)


def nextafter(a: RV, b: RV) -> RV:
    """The adjacent float of ``a`` toward ``b``, in the result's dtype: a cut (piecewise
    constant); Degenerate where ``a`` and ``b`` (nearly) tie, where the step flips."""
    _away(a.v - b.v, 0.0, "nextafter at a tie")
    dt = _dt(a, b)
    np_dt = np.float32 if dt == "float32" else np.float64
    v = np.nextafter(a.v.astype(np_dt), b.v.astype(np_dt))
    return cut(np.broadcast_to(v, np.broadcast_shapes(a.shape, b.shape)), dt)


def remainder(a: RV, b: RV) -> RV:
    q = a.v / b.v
    _away(q, np.round(q), "remainder at a multiple")
    _away(b.v, 0.0, "remainder by 0")
    return sub(a, mul(b, cut(np.floor(q), _dt(a, b))))


def compare(a: RV, b: RV, fn: Any) -> RV:
    """A comparison: a boolean cut (Degenerate at a tie of two values, which float32
    could order either way; a value compared with itself is no such tie)."""
    if a is not b:
        _away(a.v, b.v, "a comparison at a tie")
    return cut(fn(a.v, b.v), "bool")
