"""Reference values and their closed-form derivatives: a tiny tape in NumPy float64.

Every value is an `RV`: a float64/complex128 NumPy array, the dtype the backends
hold it in, and (when it depends on a watched leaf) the `Node` that made it. A
node's VJP is written with the same recorded operations, so gradients taken with
``create_graph=True`` are themselves recorded: higher orders are exact closed forms,
not finite differences, and *which* inputs a gradient depends on falls out of the
rules, which follow torch's (``d(x*c)/dx = c`` does not depend on ``x``; a clip's mask
is a constant). Points where a derivative is not defined (|x| at 0, ties of maximum, a
clip at its bound) or numbers too large to compare in float32 raise
`Degenerate`: the program is skipped, not compared.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ...backends._slices import full_range

__all__ = ["KINK", "RV", "ContractError", "Degenerate", "Node", "const", "leaf", "op"]

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


class Node:
    __slots__ = ("apply", "consumed", "kept", "parents", "vjp")

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


class RV:
    """A reference value: ``v`` (float64/complex128), ``dtype`` (the backends'), history."""

    __slots__ = ("dtype", "full_slice", "grad", "key", "node", "records", "rg", "v", "watched")

    def __init__(self, v: Any, dtype: str, *, node: Node | None = None, rg: bool = False) -> None:
        self.v = np.asarray(v, dtype=np.complex128 if "complex" in dtype else np.float64)
        self.dtype = dtype
        self.node = node
        self.rg = rg
        self.watched = False
        self.grad: RV | None = None
        self.key = next(_ids)
        #: The records (`unigrad.backends._ambiguous.Record`) of the create_graph calls
        #: that returned this value.
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
        raise Degenerate("values too large for float32 comparisons")
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
    if a.is_complex or not b.is_complex:
        return a.dtype
    return b.dtype


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
    return _mk(np.sinh(a.v), a.dtype, (a,), sinh, lambda ct, a: (mul(ct, cosh(a)),))


def cosh(a: RV) -> RV:
    return _mk(np.cosh(a.v), a.dtype, (a,), cosh, lambda ct, a: (mul(ct, sinh(a)),))


def expm1(a: RV) -> RV:
    return _mk(np.expm1(a.v), a.dtype, (a,), expm1, lambda ct, a: (mul(ct, exp(a)),))


def atan(a: RV) -> RV:
    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, recip(add(mul(a, a), const(1.0, a.dtype)))),)

    return _mk(np.arctan(a.v), a.dtype, (a,), atan, vjp)


def asinh(a: RV) -> RV:
    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, recip(sqrt(add(mul(a, a), const(1.0, a.dtype))))),)

    return _mk(np.arcsinh(a.v), a.dtype, (a,), asinh, vjp)


def log1p(a: RV) -> RV:
    if np.any(a.v.real <= -1.0 + KINK):
        raise Degenerate("log1p at -1")

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, recip(add(a, const(1.0, a.dtype)))),)

    return _mk(np.log1p(a.v), a.dtype, (a,), log1p, vjp)


def sqrt(a: RV) -> RV:
    if np.any(a.v.real < KINK):
        raise Degenerate("sqrt at 0")

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, recip(scale(sqrt(a), 2.0))),)

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
        raise Degenerate("abs at 0")
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
        raise Degenerate("a tie")
    return d > 0


def maximum(a: RV, b: RV) -> RV:
    return where(_tie(a, b), a, b)


def minimum(a: RV, b: RV) -> RV:
    return where(_tie(b, a), a, b)


def clip(a: RV, lo: float, hi: float) -> RV:
    if np.any(np.abs(a.v - lo) < KINK) or np.any(np.abs(a.v - hi) < KINK):
        raise Degenerate("clip at a bound")
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


def getitem(a: RV, idx: Any) -> RV:
    def apply(a: RV) -> RV:
        return getitem(a, idx)

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (scatter(ct, idx, a.shape),)

    out = _mk(np.asarray(a.v[idx]).copy(), a.dtype, (a,), apply, vjp)
    out.full_slice = full_range(idx, a.shape)
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


# ---- the namespace ops of a program -----------------------------------------------------
def op(name: str, args: Sequence[RV], p: dict[str, Any]) -> RV:
    """Evaluate program op ``name`` (see `_program.render_op`)."""
    a = args[0]
    unary: dict[str, Callable[[RV], RV]] = {
        "exp": exp,
        "sin": sin,
        "cos": cos,
        "tanh": tanh,
        "abs": absolute,
        "real": real,
        "imag": imag,
        "conj": conj,
        "neg": neg,
        "sinh": sinh,
        "cosh": cosh,
        "expm1": expm1,
        "atan": atan,
        "asinh": asinh,
    }
    if name in unary:
        return unary[name](a)
    if name == "log1p_sq":
        return log1p(mul(a, a))
    if name == "add":
        return add(a, args[1])
    if name == "sub":
        return sub(a, args[1])
    if name == "mul":
        return mul(a, args[1])
    if name == "square":
        return mul(a, a)
    if name == "div":
        b = args[1]
        return mul(a, recip(add(mul(b, b), const(1.0, b.dtype))))
    if name == "matmul":
        return matmul(a, args[1])
    if name == "maximum":
        return maximum(a, args[1])
    if name == "minimum":
        return minimum(a, args[1])
    if name == "where_gt":
        return where(_tie(a, args[1]), a, args[1])
    if name == "where":
        return where(args[2].v.real.astype(bool), a, args[1])
    if name == "T":
        return permute(a, (1, 0))
    if name == "scale":
        return scale(a, p["c"])
    if name == "shift":
        return add(a, const(p["c"], a.dtype))
    if name == "rsub":
        return sub(const(p["c"], a.dtype), a)
    if name == "clip":
        return clip(a, p["lo"], p["hi"])
    if name == "sum":
        return rsum(a, p["axis"], p["keepdims"])
    if name == "mean":
        return mean(a, p["axis"], p["keepdims"])
    if name == "vector_norm":
        return vector_norm(a, p["axis"], p["keepdims"], p["ord"])
    if name == "reshape":
        return reshape(a, tuple(p["shape"]))
    if name == "permute_dims":
        return permute(a, tuple(p["axes"]))
    if name == "expand_dims":
        ax = p["axis"] % (a.v.ndim + 1)
        return reshape(a, (*a.shape[:ax], 1, *a.shape[ax:]))
    if name == "squeeze":
        ax = p["axis"] % a.v.ndim
        return reshape(a, a.shape[:ax] + a.shape[ax + 1 :])
    if name == "stack":
        return stack(args, p["axis"])
    if name == "concat":
        return concat(args, p["axis"])
    if name == "index":
        idx = p["index"]
        if idx[0] == "int":
            return getitem(a, idx[1])
        if idx[0] == "slice":
            return getitem(a, slice(idx[1], idx[2]))
        return getitem(a, np.nonzero(args[1].v.real.astype(bool)))
    msg = f"unknown op {name!r}"
    raise ValueError(msg)
