"""Reference values and their closed-form derivatives: a tiny tape in NumPy float64.

Every value is an `RV`: a float64/complex128 NumPy array, the dtype the backends
hold it in, and (when it depends on a watched leaf) the `Node` that made it. A
node's VJP is written with the same recorded operations, so gradients taken with
``create_graph=True`` are themselves recorded: higher orders are exact closed forms,
not finite differences, and *which* inputs a gradient depends on falls out of the
structure rule (issue 23's decision): a result depends on an input exactly when a path
connects them through values whose derivative is not identically zero. Comparisons,
masks, ``sign``, ``floor``/``ceil``/``round``/``trunc``, integer and boolean casts,
index results (``argmax``, ``argsort``, ``nonzero``, ``searchsorted``) and
constant-creating ops (``ones_like``...) make constants here (`cut`), so the first
derivative of a piecewise-linear function is a constant (``d|x|/dx = sign(x)``, a
clip's or a maximum's mask). Points where a derivative is not defined (|x| at 0, ties
of maximum, a clip at its bound, a branch cut) or numbers too large to compare in
float32 raise `Degenerate`: the program is skipped, not compared.

This module is the oracle's own: it imports nothing from unigrad (its rules are
written from docs/semantics.md, not shared with the code they check;
``tests/test_differential.py`` enforces the boundary).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._rules import full_range

__all__ = ["KINK", "RV", "ContractError", "Degenerate", "Node", "const", "leaf"]

#: Distance to a kink (and smallest norm) below which a program is degenerate.
KINK = 1e-3
#: Magnitude above which float32 comparisons are meaningless.
HUGE = 1e4


class Degenerate(Exception):
    """The program hits a point where the derivative is undefined: skip it."""


class ContractError(Exception):
    """The contract says this call raises ``name`` (a unigrad error class name)."""

    def __init__(self, name: str, why: str) -> None:
        super().__init__(f"{name}: {why}")
        self.name = name
        self.why = why


_ids = itertools.count()

#: How the oracle holds values of each dtype (floats in float64, complex in complex128).
_HOLD: dict[str, Any] = {
    "complex64": np.complex128,
    "complex128": np.complex128,
    "bool": np.bool_,
    "int64": np.int64,
    "int32": np.int64,
}


class Node:
    __slots__ = ("apply", "carried", "consumed", "consumed_by", "kept", "parents", "vjp")

    def __init__(
        self,
        parents: tuple[Any, ...],
        apply: Callable[..., RV],
        vjp: Callable[..., tuple[RV | None, ...]],
    ) -> None:
        self.parents = parents
        self.apply = apply
        self.vjp = vjp
        self.consumed = False
        #: Never consumed: a full-range slice's node (see `getitem`).
        self.kept = False
        #: Rule 6: the forward nodes a create_graph result made by this node carries,
        #: each with the number of the call that made the result.
        self.carried: frozenset[tuple[Node, int]] = frozenset()
        #: The number of the first call that consumed this node.
        self.consumed_by: int | None = None


class RV:
    """A reference value: ``v`` (float64/complex128), ``dtype`` (the backends'), history."""

    __slots__ = ("dtype", "full_slice", "grad", "key", "node", "records", "rg", "v", "watched")

    def __init__(self, v: Any, dtype: str, *, node: Node | None = None, rg: bool = False) -> None:
        self.v = np.asarray(v, dtype=_HOLD.get(dtype, np.float64))
        self.dtype = dtype
        self.node = node
        self.rg = rg
        self.watched = False
        self.grad: RV | None = None
        self.key = next(_ids)
        #: The records (`_rules.Call`) of the create_graph calls that returned this
        #: value.
        self.records: tuple[Any, ...] = ()
        #: Made by a full-range index of another value (refused as an input or cut).
        self.full_slice = False

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.v.shape)

    @property
    def is_complex(self) -> bool:
        return "complex" in self.dtype

    def __repr__(self) -> str:
        return f"RV({self.v!r}, {self.dtype}, rg={self.rg})"


def const(v: Any, dtype: str) -> RV:
    return RV(v, dtype)


def leaf(v: Any, dtype: str, watched: bool) -> RV:
    r = RV(v, dtype, rg=watched)
    r.watched = watched
    return r


def _check(v: np.ndarray) -> np.ndarray:
    if v.size and np.max(np.abs(v)) > HUGE:
        msg = "values too large for float32 comparisons"
        raise Degenerate(msg)
    return v


def _real_dtype(dtype: str) -> str:
    return {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)


def _mk(
    value: Any,
    dtype: str,
    args: Sequence[RV],
    apply: Callable[..., RV],
    vjp: Callable[..., tuple[RV | None, ...]],
) -> RV:
    rg = any(a.rg for a in args)
    node = Node(tuple(args), apply, vjp) if rg else None
    return RV(_check(np.asarray(value)), dtype, node=node, rg=rg)


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


def _dt(a: RV, b: RV) -> str:
    """The array API's promotion of two floating dtypes (constants take their operand's)."""
    cplx = a.is_complex or b.is_complex
    wide = any(d in ("float64", "complex128") for d in (a.dtype, b.dtype))
    if cplx:
        return "complex128" if wide else "complex64"
    return "float64" if wide else "float32"


def add_c(a: RV, c: Any) -> RV:
    """``a + c`` for a Python number ``c``."""
    return add(a, const(c, a.dtype))


def _cut_check(v: np.ndarray, what: str, lo: float = 0.0) -> None:
    """Degenerate where ``v`` is near the branch cut ``(-inf, lo]`` of the real axis
    (complex values) or below ``lo + KINK`` (real values): log, sqrt and their kin."""
    if np.iscomplexobj(v):
        near = (np.abs(v.imag) < KINK) & (v.real < lo + KINK)
        if np.any(near) or np.any(np.abs(v - lo) < KINK):
            msg = f"{what} near its branch cut"
            raise Degenerate(msg)
    elif np.any(v < lo + KINK):
        msg = f"{what} outside its domain"
        raise Degenerate(msg)


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


def mean(a: RV, axis: Any, keepdims: bool) -> RV:
    s = rsum(a, axis, keepdims)
    n = a.v.size // max(s.v.size, 1) if a.v.size else 1
    return scale(s, 1.0 / n)


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


def permute(a: RV, axes: tuple[int, ...]) -> RV:
    inv = tuple(int(i) for i in np.argsort(axes))

    def apply(a: RV) -> RV:
        return permute(a, axes)

    return _mk(np.transpose(a.v, axes), a.dtype, (a,), apply, lambda ct, a: (permute(ct, inv),))


def getitem(a: RV, idx: Any, alias: bool = False) -> RV:
    """``a[idx]``; ``alias``: a program's own index, which may be a full-range slice
    (row 17); the oracle's internal indexing never is one."""

    def apply(a: RV) -> RV:
        return getitem(a, idx, alias)

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (scatter(ct, idx, a.shape),)

    out = _mk(np.asarray(a.v[idx]).copy(), a.dtype, (a,), apply, vjp)
    out.full_slice = alias and full_range(idx, a.shape)
    if out.full_slice and out.node is not None:
        # paddle gives such a slice no node of its own (it is its source to paddle's
        # autograd) and torch's node for it saves nothing: no pass consumes it (rule 17)
        out.node.kept = True
    return out


def scatter(ct: RV, idx: Any, shape: tuple[int, ...]) -> RV:
    """Zeros of ``shape`` with ``ct`` added at ``idx`` (the VJP of indexing)."""
    z = np.zeros(shape, dtype=ct.v.dtype)
    np.add.at(z, idx, ct.v)

    def apply(ct: RV) -> RV:
        return scatter(ct, idx, shape)

    return _mk(z, ct.dtype, (ct,), apply, lambda c, ct: (getitem(c, idx),))


def stack(xs: Sequence[RV], axis: int) -> RV:
    n = len(xs)

    def apply(*xs: RV) -> RV:
        return stack(xs, axis)

    def vjp(ct: RV, *xs: RV) -> tuple[RV | None, ...]:
        ax = axis % ct.v.ndim
        return tuple(getitem(ct, (slice(None),) * ax + (i,)) for i in range(n))

    return _mk(np.stack([x.v for x in xs], axis=axis), xs[0].dtype, tuple(xs), apply, vjp)


def concat(xs: Sequence[RV], axis: int) -> RV:
    def apply(*xs: RV) -> RV:
        return concat(xs, axis)

    def vjp(ct: RV, *xs: RV) -> tuple[RV | None, ...]:
        ax = axis % ct.v.ndim
        out: list[RV | None] = []
        start = 0
        for x in xs:
            stop = start + x.shape[ax]
            out.append(getitem(ct, (slice(None),) * ax + (slice(start, stop),)))
            start = stop
        return tuple(out)

    return _mk(np.concatenate([x.v for x in xs], axis=axis), xs[0].dtype, tuple(xs), apply, vjp)


def matmul(a: RV, b: RV) -> RV:
    def vjp(ct: RV, a: RV, b: RV) -> tuple[RV | None, ...]:
        if b.v.ndim == 1:  # (m,k) @ (k,) -> (m,)
            ga = mul(reshape(ct, (*ct.shape, 1)), reshape(_cj(b), (1, b.shape[0])))
            gb = matmul(permute(_cj(a), (1, 0)), ct)
        elif a.v.ndim == 1:  # (k,) @ (k,n) -> (n,)
            ga = matmul(_cj(b), ct)
            gb = mul(reshape(_cj(a), (a.shape[0], 1)), reshape(ct, (1, *ct.shape)))
        else:
            ga = matmul(ct, permute(_cj(b), (1, 0)))
            gb = matmul(permute(_cj(a), (1, 0)), ct)
        return (ga if a.rg else None, gb if b.rg else None)

    return _mk(a.v @ b.v, _dt(a, b), (a, b), matmul, vjp)


def vector_norm(a: RV, axis: Any, keepdims: bool, ord: Any) -> RV:
    if ord == 1:
        return rsum(absolute(a), axis, keepdims)
    sq = real(mul(a, conj(a))) if a.is_complex else mul(a, a)
    return sqrt(rsum(sq, axis, keepdims))


# ---- more primitives: the rest of the namespace ------------------------------------------
def cut(v: Any, dtype: str) -> RV:
    """A value that depends on no input (the structure rule's cut): a constant."""
    return const(v, dtype)


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


def copysign(a: RV, b: RV) -> RV:
    _away(a.v, 0.0, "copysign at 0")
    _away(b.v, 0.0, "copysign's sign at 0")
    s = cut(
        np.broadcast_to(np.sign(a.v) * np.sign(b.v), np.broadcast_shapes(a.shape, b.shape)),
        _dt(a, b),
    )
    return mul(a, s)


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


def take_flat(a: RV, index: np.ndarray) -> RV:
    """``reshape(a, (-1,))[index]``: every gather of the namespace (flip, roll, tile,
    repeat, moveaxis, sort, take, diagonal...) as one recorded index whose VJP scatters."""
    return getitem(reshape(a, (a.v.size,)), np.asarray(index, dtype=np.int64))


def gather(a: RV, how: Any) -> RV:
    """The values of ``a`` where ``how`` (a NumPy function of an index array of ``a``'s
    shape) moves them: ``gather(a, lambda i: np.flip(i, 0))`` is ``flip(a, axis=0)``."""
    return take_flat(a, how(np.arange(a.v.size).reshape(a.shape)))


def _reduced(a: RV, axis: Any) -> tuple[int, ...]:
    nd = a.v.ndim
    if axis is None:
        return tuple(range(nd))
    ax = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(sorted(i % max(nd, 1) for i in ax))


def rmax(a: RV, axis: Any, keepdims: bool, smallest: bool = False) -> RV:
    """max/min along ``axis``: ``sum(a * onehot)`` with a constant one-hot mask."""
    ax = _reduced(a, axis)
    rest = tuple(i for i in range(a.v.ndim) if i not in ax)
    moved = np.transpose(a.v, rest + ax).reshape((*[a.shape[i] for i in rest], -1))
    key = -moved if smallest else moved
    if moved.shape[-1] > 1:
        top = np.sort(key, axis=-1)
        if np.any(top[..., -1] - top[..., -2] < KINK):
            msg = "max/min at a tie"
            raise Degenerate(msg)
    hot = np.zeros_like(moved)
    np.put_along_axis(hot, np.argmax(key, axis=-1)[..., None], 1.0, axis=-1)
    back = hot.reshape((*[a.shape[i] for i in rest], *[a.shape[i] for i in ax]))
    mask = np.transpose(back, np.argsort(rest + ax))
    return rsum(mul(a, cut(mask, a.dtype)), axis, keepdims)


def rprod(a: RV, axis: Any, keepdims: bool) -> RV:
    ax = _reduced(a, axis)
    shape = a.shape
    if all(shape[i] == 1 for i in ax):  # a product of one factor is that factor
        kept = tuple(n for i, n in enumerate(shape) if keepdims or i not in ax)
        return reshape(a, kept)
    if np.any(np.abs(a.v) < 0.05):
        msg = "prod near a zero factor"
        raise Degenerate(msg)

    def apply(a: RV) -> RV:
        return rprod(a, axis, keepdims)

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        kept = tuple(1 if i in ax else n for i, n in enumerate(shape))
        whole = broadcast_to(rprod(a, ax, True), shape)
        return (mul(broadcast_to(reshape(ct, kept), shape), _cj(mul(whole, recip(a)))),)

    return _mk(np.prod(a.v, axis=ax, keepdims=keepdims), a.dtype, (a,), apply, vjp)


def moveaxis(a: RV, src: int, dst: int) -> RV:
    order = list(range(a.v.ndim))
    order.insert(dst % a.v.ndim, order.pop(src % a.v.ndim))
    return permute(a, tuple(order))


def cumsum(a: RV, axis: int, include_initial: bool) -> RV:
    """``a @ triu(ones)`` along ``axis`` (a matmul with a constant)."""
    n = a.shape[axis]
    last = moveaxis(a, axis, -1)
    flat = reshape(last, (max(last.v.size // max(n, 1), 1), n))
    tri = cut(np.triu(np.ones((n, n))), a.dtype)
    out = reshape(matmul(flat, tri), last.shape)
    if include_initial:
        out = concat([cut(np.zeros((*last.shape[:-1], 1)), a.dtype), out], -1)
    return moveaxis(out, -1, axis)


def cumprod(a: RV, axis: int, include_initial: bool) -> RV:
    """``stack([prod(a[..., :k+1]) ...])`` along ``axis``."""
    ax = axis % a.v.ndim
    n = a.shape[ax]
    parts = [
        rprod(getitem(a, (slice(None),) * ax + (slice(0, k + 1),)), ax, False) for k in range(n)
    ]
    if include_initial:
        parts.insert(0, cut(np.ones(parts[0].shape if parts else ()), a.dtype))
    return stack(parts, ax)


def var(a: RV, axis: Any, correction: float, keepdims: bool) -> RV:
    ax = _reduced(a, axis)
    n = int(np.prod([a.shape[i] for i in ax])) if ax else 1
    if n - correction <= 0:
        msg = "var with no degrees of freedom"
        raise Degenerate(msg)
    d = sub(a, broadcast_to(mean(a, ax, True), a.shape))
    return scale(rsum(mul(d, d), ax, keepdims), 1.0 / (n - correction))


def std(a: RV, axis: Any, correction: float, keepdims: bool) -> RV:
    v = var(a, axis, correction, keepdims)
    if np.any(v.v < 0.01):
        msg = "std near 0"
        raise Degenerate(msg)
    return sqrt(v)


def tri_mask(a: RV, k: int, lower: bool) -> RV:
    m, n = a.shape[-2:]
    mask = np.tril(np.ones((m, n)), k) if lower else np.triu(np.ones((m, n)), k)
    return mul(a, cut(mask, a.dtype))


def at(a: RV, *idx: Any) -> RV:
    """An element or slice of ``a`` (internal indexing)."""
    return getitem(a, idx)


def det2(a: RV) -> RV:
    """det of a 2x2 or 3x3 matrix, by cofactors."""
    n = a.shape[-1]
    if n == 1:
        return at(a, 0, 0)
    if n == 2:
        return sub(mul(at(a, 0, 0), at(a, 1, 1)), mul(at(a, 0, 1), at(a, 1, 0)))
    total: RV | None = None
    for j in range(n):
        minor = gather(a, lambda i, j=j: np.delete(np.delete(i, 0, 0), j, 1))
        term = mul(at(a, 0, j), det2(minor))
        term = term if j % 2 == 0 else neg(term)
        total = term if total is None else add(total, term)
    assert total is not None
    return total


def _conditioned(a: RV) -> None:
    if np.linalg.cond(a.v) > 50:
        msg = "an ill-conditioned matrix"
        raise Degenerate(msg)


def inv2(a: RV) -> RV:
    """The inverse of a 2x2 matrix: its adjugate over its determinant."""
    _conditioned(a)
    if a.shape[-1] == 1:
        return recip(a)
    adj = stack(
        [stack([at(a, 1, 1), neg(at(a, 0, 1))], 0), stack([neg(at(a, 1, 0)), at(a, 0, 0)], 0)], 0
    )
    return mul(adj, recip(det2(a)))


def cholesky2(a: RV) -> RV:
    """The Cholesky factor of a real 2x2 SPD matrix (its lower triangle is read)."""
    l00 = sqrt(at(a, 0, 0))
    l10 = mul(at(a, 1, 0), recip(l00))
    l11 = sqrt(sub(at(a, 1, 1), mul(l10, l10)))
    zero = cut(0.0, a.dtype)
    return stack([stack([l00, zero], 0), stack([l10, l11], 0)], 0)


def eigvalsh2(a: RV) -> RV:
    """Ascending eigenvalues of a real symmetric 2x2 matrix (its lower triangle)."""
    p, b, q = at(a, 0, 0), at(a, 1, 0), at(a, 1, 1)
    s = scale(add(p, q), 0.5)
    h = scale(sub(p, q), 0.5)
    r2 = add(mul(h, h), mul(b, b))
    if np.any(r2.v < 0.01):
        msg = "eigenvalues near a crossing"
        raise Degenerate(msg)
    r = sqrt(r2)
    return stack([sub(s, r), add(s, r)], 0)


def eigvecs_sq2(a: RV) -> RV:
    """The squared entries of the eigenvectors of a real symmetric 2x2 matrix (columns
    in ascending order of the eigenvalues): invariant under each vector's sign."""
    p, b = at(a, 0, 0), at(a, 1, 0)
    if np.any(np.abs(b.v) < 0.05):
        msg = "a nearly diagonal matrix"
        raise Degenerate(msg)
    lam = eigvalsh2(a)
    cols = []
    for j in range(2):
        d = sub(at(lam, j), p)
        bb = mul(b, b)
        inv = recip(add(bb, mul(d, d)))
        cols.append(stack([mul(bb, inv), mul(mul(d, d), inv)], 0))
    return stack(cols, 1)


def qr_sq(a: RV, which: int) -> RV:
    """Gram-Schmidt QR of an (m, 2) real matrix; the squares of Q (0) or R (1), which
    LAPACK's sign choices do not change."""
    c0, c1 = at(a, slice(None), 0), at(a, slice(None), 1)
    r00 = sqrt(rsum(mul(c0, c0), None, False))
    q0 = mul(c0, recip(r00))
    r01 = rsum(mul(q0, c1), None, False)
    u = sub(c1, mul(q0, r01))
    r11 = sqrt(rsum(mul(u, u), None, False))
    if np.any(r11.v < 0.05):
        msg = "nearly dependent columns"
        raise Degenerate(msg)
    q1 = mul(u, recip(r11))
    if which == 0:
        q = stack([q0, q1], 1)
        return mul(q, q)
    r = stack([stack([r00, r01], 0), stack([cut(0.0, a.dtype), r11], 0)], 0)
    return mul(r, r)


def svd_parts(a: RV, which: int) -> RV:
    """For a real 2x2 matrix: squared U (0), singular values (1) or squared Vh (2)."""
    at_a = matmul(permute(a, (1, 0)), a)
    if which == 1:
        lam = eigvalsh2(at_a)
        if np.any(lam.v < 0.01):
            msg = "a singular value near 0"
            raise Degenerate(msg)
        return stack([sqrt(at(lam, 1)), sqrt(at(lam, 0))], 0)
    if which == 0:
        e = eigvecs_sq2(matmul(a, permute(a, (1, 0))))
        return gather(e, lambda i: i[:, ::-1])
    e = eigvecs_sq2(at_a)
    return permute(gather(e, lambda i: i[:, ::-1]), (1, 0))
