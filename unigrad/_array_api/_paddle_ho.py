"""paddle functions whose derivatives paddle can take again, for the namespace.

paddle 3.3.1 has no higher-order gradient kernel for many ops ("The Op log1p_grad
doesn't have any grad op": ``log1p``, ``divide`` (double), ``elementwise_pow``,
``logsumexp``, ``sigmoid`` (triple), ``einsum`` ...), so a Hessian or an HVP
through them fails. Each function here returns paddle's kernel's value with the
derivatives of a formulation written in ops paddle differentiates to any order
(``exp``, ``log``, ``tanh``, ``acos``, ``multiply``, ``where``, sums, ``matmul``)::

    out = y - (F.detach() - F)

where ``y`` is the kernel's value (computed without a graph) and ``F`` the formulation:
``F.detach() - F`` is an exact zero wherever ``F`` is finite, so the value is ``y``'s
(signed zeros included: ``y - 0.0`` is ``y``), and every derivative is ``F``'s. Where
``F`` is not finite the term is dropped (and ``F`` is evaluated at a safe point there),
so the derivative there is 0 (at the boundary of a domain: ``sqrt`` at 0, ``log1p`` at
-1). No ``PyLayer``: paddle's ``backward()`` releases a PyLayer node after one run and a
later pass through it crashes the process (see ``unigrad.backends.paddle``).

They are used only where an input requires grad and every tensor is real floating (or,
for ``pow``, complex); otherwise paddle's kernel runs alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import paddle

__all__ = [
    "binary",
    "by_derivative",
    "einsum",
    "logsumexp",
    "needs",
    "reduce_extreme",
    "triangle",
    "unary",
]

_REAL = (paddle.float16, paddle.bfloat16, paddle.float32, paddle.float64)

#: The largest intermediate (elements) the einsum and cumsum formulations build.
_MAX_ELEMENTS = 1 << 24


def needs(*xs: Any) -> bool:
    """Whether a derivative may be asked of a result of ``xs``: one requires grad and
    every tensor is real floating."""
    tensors = [x for x in xs if isinstance(x, paddle.Tensor)]
    return any(not x.stop_gradient for x in tensors) and all(x.dtype in _REAL for x in tensors)


def exact(y: Any, f: Any) -> Any:
    """``y``'s value (no graph) with ``f``'s derivatives (see the module docstring)."""
    fd = f.detach()
    gap = fd - f
    gap = paddle.where(paddle.isfinite(fd), gap, paddle.zeros_like(gap))
    return y - gap


def _where(cond: Any, a: Any, b: Any) -> Any:
    return paddle.where(cond, a, b)


def _safe(x: Any, ok: Any, at: float) -> Any:
    """``x`` where ``ok``, else ``at`` (no gradient reaches ``x`` there)."""
    return _where(ok, x, paddle.full_like(x, at))


# ---- formulations (differentiable to any order by paddle) --------------------------
def f_recip(b: Any) -> Any:
    """1 / b as sign(b) exp(-log|b|) (b = 0 is evaluated at 1)."""
    nz = b != 0
    pos = b > 0
    bs = _safe(b, nz, 1.0)
    mag = paddle.exp(-paddle.log(_where(pos, bs, -bs)))
    return _where(pos | ~nz, mag, -mag)


def f_sqrt(x: Any) -> Any:
    """sqrt(x) as exp(log(x) / 2) (x <= 0 is evaluated at 1)."""
    return paddle.exp(0.5 * paddle.log(_safe(x, x > 0, 1.0)))


def f_softplus(z: Any) -> Any:
    """log(1 + exp(z)) = max(z, 0) + log(1 + exp(-|z|)), with |z| written by ``where``
    so that the derivative at 0 is 1/2."""
    pos = z > 0
    return _where(pos, z, paddle.zeros_like(z)) + paddle.log(1.0 + paddle.exp(_where(pos, -z, z)))


def f_atan(x: Any) -> Any:
    """atan(x) = asin(x / sqrt(1 + x^2)) = pi/2 - acos(x / sqrt(1 + x^2))."""
    return math.pi / 2 - paddle.acos(x * paddle.exp(-0.5 * paddle.log(1.0 + x * x)))


# ---- elementwise -------------------------------------------------------------------
def unary(
    name: str, kernel: Callable[[Any], Any], formulation: Callable[[Any], Any]
) -> Callable[[Any], Any]:
    """``kernel``'s values, ``formulation``'s derivatives (where an input needs them)."""

    def f(x: Any) -> Any:
        if not needs(x):
            return kernel(x)
        with paddle.no_grad():
            y = kernel(x.detach())
        return exact(y, formulation(x))

    f.__name__ = f.__qualname__ = name
    return f


def binary(
    name: str, kernel: Callable[[Any, Any], Any], formulation: Callable[[Any, Any], Any]
) -> Callable[[Any, Any], Any]:
    """``kernel``'s values, ``formulation``'s derivatives (where an input needs them)."""

    def f(a: Any, b: Any) -> Any:
        if not needs(a, b):
            return kernel(a, b)
        with paddle.no_grad():
            y = kernel(a.detach(), b.detach())
        return exact(y, formulation(a, b))

    f.__name__ = f.__qualname__ = name
    return f


#: Gauss-Legendre nodes and weights on [0, 1] (8 points: exact for polynomials of
#: degree 15), for `by_derivative`.
def _gauss_legendre(n: int) -> tuple[tuple[float, float], ...]:
    import numpy as np

    t, w = np.polynomial.legendre.leggauss(n)
    return tuple((0.5 * (1.0 + a), 0.5 * b) for a, b in zip(t.tolist(), w.tolist(), strict=True))


_GL_NODES = _gauss_legendre(8)


def by_derivative(
    name: str, kernel: Callable[[Any], Any], derivative: Callable[[Any], Any]
) -> Callable[[Any], Any]:
    """``kernel``'s values with the derivatives of the function whose first derivative
    is ``derivative`` (written in ops paddle differentiates to any order), for a
    function with no elementary formulation (``erf``).

    At the point ``x0`` (constant) the formulation is
    ``F(x) = (x - x0) * sum_j w_j derivative(x0 + s_j (x - x0))``: ``F(x0) = 0`` and
    ``F^(n)(x0) = n * sum_j w_j s_j^(n-1) * derivative^(n-1)(x0)``, which is
    ``derivative^(n-1)(x0)`` exactly while the quadrature ``(s_j, w_j)`` integrates
    ``s^(n-1)`` exactly: Gauss-Legendre with 8 nodes, so the derivatives are exact to
    the 16th order (beyond it they carry the quadrature's error)."""

    def f(x: Any) -> Any:
        if not needs(x):
            return kernel(x)
        x0 = x.detach()
        with paddle.no_grad():
            y = kernel(x0)
        u = x - x0
        acc = None
        for s, w in _GL_NODES:
            term = derivative(x0 + s * u) * w
            acc = term if acc is None else acc + term
        return exact(y, u * acc)

    f.__name__ = f.__qualname__ = name
    return f


def _log1p(x: Any) -> Any:
    return paddle.log(1.0 + _safe(x, x > -1, 0.0))


def _log_base(c: float) -> Callable[[Any], Any]:
    return lambda x: paddle.log(_safe(x, x > 0, 1.0)) * (1 / math.log(c))


def _asinh(x: Any) -> Any:
    pos = x >= 0
    xa = _where(pos, x, -x)
    v = paddle.log(xa + f_sqrt(xa * xa + 1.0))
    return _where(pos, v, -v)


def _acosh(x: Any) -> Any:
    xs = _safe(x, x > 1, 2.0)
    return paddle.log(xs + f_sqrt(xs * xs - 1.0))


def _atanh(x: Any) -> Any:
    xs = _safe(x, paddle.abs(x) < 1, 0.0)
    return 0.5 * (paddle.log(1.0 + xs) - paddle.log(1.0 - xs))


def _tan(x: Any) -> Any:
    return paddle.sin(x) * f_recip(paddle.cos(x))  # third order: paddle's sin/cos stop


reciprocal = unary("reciprocal", paddle.reciprocal, f_recip)
log1p = unary("log1p", paddle.log1p, _log1p)
expm1 = unary("expm1", paddle.expm1, paddle.exp)
log2 = unary("log2", paddle.log2, _log_base(2))
log10 = unary("log10", paddle.log10, _log_base(10))
sqrt = unary("sqrt", paddle.sqrt, f_sqrt)
sinh = unary("sinh", paddle.sinh, lambda x: 0.5 * (paddle.exp(x) - paddle.exp(-x)))
cosh = unary("cosh", paddle.cosh, lambda x: 0.5 * (paddle.exp(x) + paddle.exp(-x)))


def _tan_kernel(x: Any) -> Any:
    """paddle's tan, save for complex: paddle 3.3.1's complex tan gradient divides by
    cos(x)**2, which overflows to NaN (complex64 from |Im x| ~ 45;
    test_tan_and_tanh_derivatives_far_from_the_real_axis in test_divergences_2026.py), so
    ``-i tanh(i x)``, whose gradient paddle reads from the
    output (1 - tanh^2) and which has the same values."""
    if x.dtype not in (paddle.complex64, paddle.complex128):
        return paddle.tan(x)
    i = paddle.to_tensor(1j, dtype=x.dtype)
    return -i * paddle.tanh(i * x)


tan = unary("tan", _tan_kernel, _tan)
asin = unary("asin", paddle.asin, lambda x: math.pi / 2 - paddle.acos(x))
atan = unary("atan", paddle.atan, f_atan)
asinh = unary("asinh", paddle.asinh, _asinh)
acosh = unary("acosh", paddle.acosh, _acosh)
atanh = unary("atanh", paddle.atanh, _atanh)
sigmoid = unary("sigmoid", paddle.nn.functional.sigmoid, lambda x: paddle.exp(-f_softplus(-x)))


erf = by_derivative("erf", paddle.erf, lambda t: paddle.exp(-(t * t)) * (2.0 / math.sqrt(math.pi)))


def _softplus_kernel(x: Any) -> Any:
    # max(x, 0) + log1p(exp(-|x|)): exact everywhere (paddle's softplus has torch's
    # threshold=20, above which it returns x)
    return paddle.maximum(x, paddle.zeros_like(x)) + paddle.log1p(paddle.exp(-paddle.abs(x)))


softplus = unary("softplus", _softplus_kernel, f_softplus)


def _divide(a: Any, b: Any) -> Any:
    return a * f_recip(b)


def _pow(a: Any, b: Any) -> Any:
    # |a|^b = exp(b log|a|), the sign of a negative base (an integer b) a constant;
    # at a = 0, `_pow_at_zero` (integer powers of a Python int exponent are products
    # instead, exact everywhere)
    nz = a != 0
    pos = a > 0
    mag = paddle.exp(b * paddle.log(_safe(_where(pos, a, -a), nz, 1.0)))
    odd = paddle.remainder(paddle.abs(b.detach()), paddle.full_like(b, 2.0)) == 1
    return _where(nz, _where(~pos & odd, -mag, mag), _pow_at_zero(a, b, ~nz))


def _pow_at_zero(a: Any, b: Any, zero: Any) -> Any:
    """``a ** b`` at ``a = 0`` to third order: torch's derivatives there, the n-th in
    ``a`` ``b (b-1) ... (b-n+1) 0^(b-n)`` (0 where that product is 0: ``2x`` at 0 for
    ``b = 2``, ``1`` for ``b = 1``), those in ``b`` 0 (torch's for ``b >= 0``), as a
    polynomial in ``a`` with these coefficients. Where a derivative is infinite
    (``0 < b < 1``) the value would be ``inf * 0``: `exact` keeps the kernel's value
    and that derivative is 0 there."""
    bz = _safe(b.detach(), zero, 4.0)  # elsewhere: finite coefficients (0^(4-n) = 0)
    az = _safe(a, zero, 0.0)
    falling = paddle.ones_like(bz)
    power = paddle.ones_like(az)
    out = paddle.zeros_like(az * bz)
    for n in (1, 2, 3):
        falling = falling * (bz - (n - 1))
        power = power * az  # a product: paddle's az ** 3 gives nan third derivatives at 0
        c = falling * paddle.pow(paddle.zeros_like(bz), bz - n) / math.factorial(n)
        c = _where(falling == 0, paddle.zeros_like(c), c)
        out = out + c * power
    return out


def _atan2(a: Any, b: Any) -> Any:
    # atan(a / b) where |b| >= |a|, -atan(b / a) elsewhere: each has atan2's
    # derivatives (b, -a) / (a^2 + b^2) in its region, neither divides by ~0
    steep = paddle.abs(b.detach()) >= paddle.abs(a.detach())
    one = paddle.ones_like(a)
    flat = f_atan(a * f_recip(_where(steep, b, one)))
    tall = -f_atan(b * f_recip(_where(steep, one, a)))
    return _where(steep, flat, tall)


def _copysign(a: Any, b: Any) -> Any:
    # no term in b: the sign argument is a cut (its derivative is 0 wherever defined),
    # so a result of a constant magnitude and a watched sign stays a constant
    same = paddle.signbit(a.detach()) == paddle.signbit(b.detach())
    return _where(same, a, -a)


def _remainder(a: Any, b: Any) -> Any:
    return a - b * paddle.floor_divide(a.detach(), b.detach())


def _logaddexp(a: Any, b: Any) -> Any:
    ok = paddle.isfinite(a) & paddle.isfinite(b)
    a, b = _safe(a, ok, 0.0), _safe(b, ok, 0.0)
    return a + f_softplus(b - a)


divide = binary("divide", paddle.divide, _divide)
_real_pow = binary("pow", paddle.pow, _pow)
_COMPLEX = (paddle.complex64, paddle.complex128)


def _cexp(x: Any) -> Any:
    # exp(re) * cis(im) with real kernels (paddle's complex128 exp is accurate to ~1e-8)
    m = paddle.exp(paddle.real(x))
    im = paddle.imag(x)
    return paddle.complex(m * paddle.cos(im), m * paddle.sin(im))


def _complex_pow(a: Any, b: Any) -> Any:
    # z**w = exp(w log z) (principal branch, as paddle's kernel); at z = 0 it is
    # evaluated at 1, so no derivative reaches z there
    nz = a != 0
    return _cexp(b * paddle.log(_where(nz, a, paddle.ones_like(a))))


def pow(a: Any, b: Any) -> Any:
    """``a ** b`` for two tensors of one dtype: paddle's kernel's value; where an input
    requires grad, the derivatives of ``exp(b log|a|)`` (real) or of ``exp(b log a)``
    (complex: paddle 3.3.1's complex ``elementwise_pow_grad`` gives wrong values for
    both inputs, off by more than a missing conjugation
    (test_complex_pow_with_a_tensor_exponent_gradients in test_backend_fixes.py); no
    upstream issue found)."""
    if a.dtype in _COMPLEX and (not a.stop_gradient or not b.stop_gradient):
        with paddle.no_grad():
            y = paddle.pow(a.detach(), b.detach())
        return exact(y, _complex_pow(a, b))
    return _real_pow(a, b)


atan2 = binary("atan2", paddle.atan2, _atan2)
hypot = binary("hypot", paddle.hypot, lambda a, b: f_sqrt(a * a + b * b))
copysign = binary("copysign", paddle.copysign, _copysign)
remainder = binary("remainder", paddle.remainder, _remainder)
logaddexp = binary("logaddexp", paddle.logaddexp, _logaddexp)


def int_power(x: Any, n: int) -> Any:
    """x ** n for a Python int n (|n| <= 64) as a product of squarings: paddle's value,
    derivatives exact everywhere (zero included). ``n = 0`` is ``1 + 0 * x``: a result
    connected to ``x`` with the derivative 0, as torch's ``x ** 0`` (paddle's ``ones_like``
    has no history, so a gradient through it raised NotDifferentiableError)."""
    with paddle.no_grad():
        y = paddle.pow(x.detach(), float(n))
    k, base, acc = abs(n), x, None
    while k:
        if k & 1:
            acc = base if acc is None else acc * base
        k >>= 1
        if k:
            base = base * base
    f = paddle.ones_like(x) + x * 0 if acc is None else acc
    return exact(y, f_recip(f) if n < 0 else f)


def triangle(x: Any, k: int, lower: bool) -> Any:
    """``paddle.tril``/``paddle.triu`` as a ``where`` on a constant mask
    (``tril_grad``/``triu_grad`` have no gradient): the same values, zeros included."""
    rows, cols = x.shape[-2], x.shape[-1]
    r = paddle.arange(rows, dtype=paddle.int64).reshape([-1, 1])
    c = paddle.arange(cols, dtype=paddle.int64).reshape([1, -1])
    keep = (c - r <= k) if lower else (c - r >= k)
    return paddle.where(keep, x, paddle.zeros_like(x))


# ---- reductions --------------------------------------------------------------------
def _axes(x: Any, axis: Any) -> list[int]:
    if axis is None:
        return list(range(x.ndim))
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    return sorted(a % x.ndim for a in axes) if x.ndim else []


def _keepdims_shape(x: Any, axes: list[int]) -> list[int]:
    return [1 if d in axes else s for d, s in enumerate(x.shape)]


def logsumexp(x: Any, axis: Any, keepdims: bool) -> Any:
    """log(sum(exp(x - m))) + m with m the (constant) maximum: paddle's logsumexp has no
    second derivative; exp, log and sum have all."""
    axes = _axes(x, axis)
    if not axes:
        return x * 1.0
    if x.size:
        m = paddle.max(x.detach(), axis=axes, keepdim=True)
        m = paddle.where(paddle.isfinite(m), m, paddle.zeros_like(m))
    else:
        m = paddle.zeros(_keepdims_shape(x, axes), dtype=x.dtype)
    out = paddle.log(paddle.sum(paddle.exp(x - m), axis=axes, keepdim=True)) + m
    return out if keepdims else paddle.squeeze(out, axis=axes)


def reduce_extreme(kernel: Callable[..., Any], x: Any, axis: Any, keepdims: bool) -> Any:
    """``paddle.max``/``paddle.min`` with derivatives paddle can take again (``max_grad``
    has none): the sum of ``x`` weighted by the (constant) share of each extreme entry,
    ties sharing evenly as paddle's kernel does."""
    axes = _axes(x, axis)
    if not axes:
        return kernel(x, axis=None, keepdim=keepdims)
    with paddle.no_grad():
        y = kernel(x.detach(), axis=axes, keepdim=True)
        mask = (x.detach() == y).astype(x.dtype)
        share = mask / paddle.sum(mask, axis=axes, keepdim=True)
    f = paddle.sum(x * share, axis=axes, keepdim=True)
    out = exact(y, f)
    return out if keepdims else paddle.squeeze(out, axis=axes)


def cumsum(x: Any, axis: int) -> Any:
    """``paddle.cumsum`` with derivatives paddle can take again (``cumsum_grad`` has
    none): a product with a triangle of ones, for axes up to 4096 long (beyond that,
    paddle's kernel alone)."""
    n = x.shape[axis]
    if n > 4096 or n == 0:
        return paddle.cumsum(x, axis=axis)
    with paddle.no_grad():
        y = paddle.cumsum(x.detach(), axis=axis)
        tri = paddle.triu(paddle.ones([n, n], dtype=x.dtype))
    xm = paddle.moveaxis(x, axis, -1)
    f = paddle.moveaxis(paddle.matmul(xm, tri), -1, axis)
    return exact(y, f)


# ---- linalg: series around the point ----------------------------------------------
#: The order to which the ``linalg`` formulations' derivatives are exact: the terms of
#: the series around the point that they keep.
SERIES = 8


def _inverse_at(a0: Any) -> Any:
    """``inv(a0)`` (no graph) where it is finite, else None (a singular matrix: the
    caller keeps paddle's kernel, first order only)."""
    try:
        with paddle.no_grad():
            y0 = paddle.linalg.inv(a0)
    except Exception:  # paddle raises for a singular matrix on some inputs
        return None
    return y0 if bool(paddle.all(paddle.isfinite(y0))) else None


def _neumann(a: Any, y0: Any) -> Any:
    """``inv(a)`` as ``sum_k (-y0 d)^k y0`` with ``d = a - a0`` (an exact zero): its
    derivatives at ``a0`` are the inverse's to order `SERIES`."""
    m = -paddle.matmul(y0, a - a.detach())
    term = acc = y0
    for _ in range(SERIES):
        term = paddle.matmul(m, term)
        acc = acc + term
    return acc


def _log_det_ratio(a: Any, y0: Any) -> Any:
    """``log det(a) - log det(a0)`` as ``sum_k (-1)^(k+1) tr((y0 d)^k) / k``: exact
    derivatives at ``a0`` to order `SERIES` (the trace as a masked sum: ``diagonal_grad``
    has no gradient)."""
    n = a.shape[-1]
    eye = paddle.eye(n, dtype=a.dtype)
    p = paddle.matmul(y0, a - a.detach())
    term, acc = p, None
    for k in range(1, SERIES + 1):
        tr = paddle.sum(term * eye, axis=[-2, -1])
        piece = tr * ((-1.0) ** (k + 1) / k)
        acc = piece if acc is None else acc + piece
        if k < SERIES:
            term = paddle.matmul(term, p)
    return acc


def inv(a: Any) -> Any:
    """``paddle.linalg.inv``'s value with the derivatives of a Neumann series around the
    point, exact to order `SERIES` (``inverse_grad`` has no gradient)."""
    y0 = _inverse_at(a.detach()) if needs(a) and a.ndim >= 2 else None
    if y0 is None:
        return paddle.linalg.inv(a)
    return exact(y0, _neumann(a, y0))


def det(a: Any) -> Any:
    """``paddle.linalg.det``'s value times ``exp`` of `_log_det_ratio` (a one):
    derivatives exact to order `SERIES` (``det_grad`` has no gradient)."""
    y0 = _inverse_at(a.detach()) if needs(a) and a.ndim >= 2 else None
    if y0 is None:
        return paddle.linalg.det(a)
    with paddle.no_grad():
        y = paddle.linalg.det(a.detach())
    return exact(y, y * paddle.exp(_log_det_ratio(a, y0)))


def logabsdet(a: Any, value: Any) -> Any:
    """``slogdet``'s ``logabsdet`` (``value``, paddle's) with the derivatives of
    `_log_det_ratio`, exact to order `SERIES` (``slogdet_grad`` has no gradient); None
    where paddle's kernel must answer alone."""
    y0 = _inverse_at(a.detach()) if needs(a) and a.ndim >= 2 else None
    if y0 is None:
        return None
    return exact(value.detach(), _log_det_ratio(a, y0))


def solve(a: Any, b: Any) -> Any | None:
    """``paddle.linalg.solve(a, b)``'s value with the derivatives of ``inv(a) @ b``
    (`_neumann`, exact to order `SERIES`; ``solve_grad`` has no gradient), for a matrix
    right-hand side with ``a``'s batch shape or a vector; None where paddle's kernel
    must answer alone."""
    if not needs(a, b) or a.ndim < 2 or (b.ndim != 1 and list(b.shape[:-2]) != list(a.shape[:-2])):
        return None
    y0 = _inverse_at(a.detach())
    if y0 is None:
        return None
    with paddle.no_grad():
        y = paddle.linalg.solve(a.detach(), b.detach())
    if b.ndim == 1:
        f = paddle.matmul(_neumann(a, y0), b.unsqueeze(-1)).squeeze(-1)
    else:
        f = paddle.matmul(_neumann(a, y0), b)
    return exact(y, f)


# ---- einsum ------------------------------------------------------------------------
def _letters(subscripts: str, operands: tuple[Any, ...]) -> tuple[list[str], str] | None:
    """Explicit letter subscripts (an ellipsis spelled out where every operand's
    ellipsis dimensions have one shape), or None where an operand repeats a letter or
    an ellipsis broadcasts."""
    s = subscripts.replace(" ", "")
    lhs, arrow, rhs = s.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(operands):
        return None
    used = set(s)
    spare = [ch for ch in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if ch not in used]
    ell_shape: list[int] | None = None
    subs = []
    for sub, op in zip(ins, operands, strict=True):
        if "..." in sub:
            k = op.ndim - (len(sub) - 3)
            i0 = sub.index("...")
            shape = list(op.shape[i0 : i0 + k])
            if ell_shape is None:
                ell_shape = shape
            elif shape != ell_shape:
                return None
            sub = sub.replace("...", "".join(spare[:k]))
        if len(set(sub)) != len(sub) or len(sub) != op.ndim:
            return None
        subs.append(sub)
    ell = "".join(spare[: len(ell_shape)]) if ell_shape is not None else ""
    if arrow:
        out = rhs.replace("...", ell)
    else:
        letters = "".join(subs)
        single = sorted(ch for ch in set(letters) if letters.count(ch) == 1 and ch not in ell)
        out = ell + "".join(single)
    return subs, out


def einsum(subscripts: str, *operands: Any) -> Any:
    """``paddle.einsum``'s value, with the derivatives of the same contraction written as
    a broadcast product and a sum (``einsum_grad`` has no gradient). Contractions whose
    product would pass ``_MAX_ELEMENTS``, repeat a letter in an operand or broadcast an
    ellipsis keep paddle's einsum alone (first order only)."""
    parsed = _letters(subscripts, operands) if needs(*operands) else None
    if parsed is None:
        return paddle.einsum(subscripts, *operands)
    subs, out = parsed
    sizes: dict[str, int] = {}
    for sub, op in zip(subs, operands, strict=True):
        for ch, d in zip(sub, op.shape, strict=True):
            sizes[ch] = d if sizes.get(ch, 1) == 1 else sizes[ch]  # 1 broadcasts (to 0 too)
    order = list(out) + sorted(set(sizes) - set(out))
    total = 1
    for ch in order:
        total *= sizes[ch]
    if total > _MAX_ELEMENTS:
        return paddle.einsum(subscripts, *operands)
    f = None
    for sub, op in zip(subs, operands, strict=True):
        present = [ch for ch in order if ch in sub]
        t = paddle.transpose(op, [sub.index(ch) for ch in present]) if present else op
        t = paddle.reshape(t, [sizes[ch] if ch in sub else 1 for ch in order])
        f = t if f is None else f * t
    assert f is not None
    summed = list(range(len(out), len(order)))
    if summed:
        f = paddle.sum(f, axis=summed)
    with paddle.no_grad():
        y = paddle.einsum(",".join(subs) + "->" + out, *(op.detach() for op in operands))
    return exact(y, f)


# ---- gathers: the same values, by an index paddle differentiates to any order -------
def _index(values: Any) -> Any:
    return paddle.to_tensor(values, dtype=paddle.int64)


def sort(x: Any, axis: int, stable: bool) -> Any:
    """``paddle.sort``'s values as a gather by the (constant) sorting permutation:
    ``argsort_grad`` has no gradient, ``take_along_axis`` has all."""
    idx = paddle.argsort(x.detach(), axis=axis, stable=stable)
    return paddle.take_along_axis(x, idx, axis)


def roll(x: Any, shift: Any, axis: Any) -> Any:
    """``paddle.roll`` as gathers (``roll_grad`` has no gradient)."""
    import numpy as np

    if axis is None:
        return paddle.reshape(roll(paddle.reshape(x, [-1]), shift, 0), x.shape)
    shifts = list(shift) if isinstance(shift, (tuple, list)) else [shift]
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    for s, ax in zip(shifts, axes, strict=True):
        n = x.shape[ax]
        if n:
            x = paddle.index_select(x, _index((np.arange(n) - int(s)) % n), axis=ax)
    return x


def diagonal(x: Any, offset: int, axis1: int, axis2: int) -> Any:
    """``paddle.diagonal`` as a gather from the flattened matrices (``diagonal_grad``
    has no gradient)."""
    import numpy as np

    xm = paddle.moveaxis(x, [axis1, axis2], [-2, -1])
    rows, cols = xm.shape[-2], xm.shape[-1]
    n = max(0, min(rows - max(0, -offset), cols - max(0, offset)))
    i: Any = np.arange(n) + max(0, -offset)
    flat = paddle.reshape(xm, [*xm.shape[:-2], rows * cols])
    return paddle.index_select(flat, _index(i * cols + i + offset), axis=-1)


def cumprod(x: Any, axis: int) -> Any:
    """``paddle.cumprod``'s value with the derivatives of the running products, one
    multiply each (``cumprod_grad`` has no gradient); axes up to 1024 long (beyond
    that, paddle's kernel alone)."""
    n = x.shape[axis]
    if n > 1024 or n == 0:
        return paddle.cumprod(x, dim=axis)
    with paddle.no_grad():
        y = paddle.cumprod(x.detach(), dim=axis)
    parts = paddle.unbind(x, axis=axis)
    outs = [parts[0]]
    for p in parts[1:]:
        outs.append(outs[-1] * p)
    return exact(y, paddle.stack(outs, axis=axis))
