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
``F`` is not finite the term is dropped (and ``F`` is evaluated at a safe point there);
the elementwise functions that name their poles and domain edges (``sqrt`` at 0,
``log1p`` at -1, ``tan`` at pi/2, ``x / 0``) and overflows take paddle's kernel's own
gradient at those points instead (`_at_kernel`), whose numbers are torch's there.
No ``PyLayer``: paddle's ``backward()`` releases a PyLayer node after one run and a
later pass through it crashes the process (see ``unigrad.backends.paddle``).

They are used only where an input requires grad and every tensor is real floating (or,
for ``pow``, complex); otherwise paddle's kernel runs alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import paddle

from ._paddle_contract import expanded

__all__ = [
    "binary",
    "by_derivative",
    "needs",
    "triangle",
    "unary",
]

_REAL = (paddle.float16, paddle.bfloat16, paddle.float32, paddle.float64)
_COMPLEX = (paddle.complex64, paddle.complex128)

#: Whether `_at_kernel` checks CPU tensors on host copies (False: as on a device).
_HOST_CHECK = True

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
def _at_kernel(
    y: Any,
    f: Any,
    outside: Callable[..., Any],
    xs: tuple[Any, ...],
    kernel: Callable[..., Any],
    formulation: Callable[..., Any],
    extended: tuple[Callable[..., Any], float] | None = None,
) -> Any:
    """``exact(y, f)``, save where the formulation's derivatives are not the function's:
    at the points ``outside`` marks (a pole, the boundary of a domain: the formulations
    evaluate a safe point there, whose derivative 0 is a wrong number), where an input,
    ``y`` or ``f`` is not finite (an overflow), paddle's kernel answers with its own
    gradient (paddle 3.3.1's kernels give torch's numbers there: ``sqrt``'s ``inf`` at
    0, ``expm1``'s ``inf`` at 800; tests/test_divergences_2026.py
    ``test_derivatives_at_the_edge_of_a_domain``). The formulation is then evaluated at
    0.5 at those points, so that no NaN flows back from its branch; a ``create_graph``
    pass through such a result runs through the kernel's gradient node, which may have
    no gradient (HigherOrderUnavailableError: the higher derivatives there are infinite
    or undefined anyway). ``outside`` takes NumPy arrays (host copies, for tensors on
    the CPU: a paddle op costs tens of microseconds, float() and bool() of a tensor
    more) or paddle tensors (on a device, one scalar read back) alike.

    ``extended`` (a formulation and a point of the domain) answers outside the real
    domain, where the kernel's value is NaN at a finite input (``log2(-2)``,
    ``acosh(0.5)``): its derivatives are the derivative's formula there, as torch's,
    jax's and autograd's kernels give it (``1 / (x log 2)``; NaN where the formula is
    NaN). The value stays the kernel's NaN, and no kernel gradient node enters the
    graph for those points: paddle 3.3.1 has no double-grad kernel for ``log2``,
    ``log10``, ``log1p``, ``acosh``, ``atanh`` ("The Op log2_grad doesn't have any grad
    op"), so a ``create_graph`` pass through one was refused
    (`HigherOrderUnavailableError`) where the other backends answer
    (test_second_derivatives_outside_the_real_domain in test_divergences_2026.py).
    The formulation is evaluated at that point of the domain elsewhere."""
    import numpy as np

    fd = f.detach()
    if _HOST_CHECK and y.place.is_cpu_place():
        values = [x.numpy() for x in xs]
        mask = outside(*values)
        yn = y.numpy()
        fn = fd.numpy()
        if not mask.any() and np.isfinite(yn).all() and np.isfinite(fn).all():
            return exact(y, f)
        bad_np = np.broadcast_to(mask, yn.shape) | ~np.isfinite(yn) | ~np.isfinite(fn)
        finite = np.ones(yn.shape, dtype=bool)
        for v in values:
            finite = finite & np.isfinite(v)
        bad_np = bad_np | ~finite
        domain_np = None
        if extended is not None:
            domain_np = np.isnan(yn) & finite & ~np.broadcast_to(mask, yn.shape)
            domain_np = domain_np if domain_np.any() else None
            if domain_np is not None:
                bad_np = bad_np & ~domain_np
        any_bad = bool(bad_np.any())
        bad = paddle.to_tensor(bad_np, place=y.place)
        domain = None if domain_np is None else paddle.to_tensor(domain_np, place=y.place)
    else:
        with paddle.no_grad():
            mask = outside(*(x.detach() for x in xs)) | paddle.zeros_like(y, dtype=paddle.bool)
            probe = paddle.stack([paddle.sum(y + fd), paddle.sum(mask.astype(y.dtype))])
            total, count = probe.numpy().tolist()
        if math.isfinite(total) and count == 0:
            return exact(y, f)
        with paddle.no_grad():
            finite = paddle.ones(y.shape, dtype=paddle.bool)
            for x in xs:
                finite = finite & paddle.isfinite(x.detach())
            bad = mask | ~paddle.isfinite(y) | ~paddle.isfinite(fd) | ~finite
            domain = paddle.zeros(y.shape, dtype=paddle.bool)
            if extended is not None:
                domain = paddle.isnan(y) & finite & ~mask
                bad = bad & ~domain
            counts = paddle.stack(
                [paddle.sum(bad.astype(y.dtype)), paddle.sum(domain.astype(y.dtype))]
            )
            n_bad, n_domain = counts.numpy().tolist()
        any_bad = n_bad > 0
        domain = domain if n_domain > 0 else None
    out_of = bad if domain is None else bad | domain
    safe = [_where(out_of, paddle.full_like(x, 0.5), x) for x in xs]
    # (no kernel gradient node where no point needs one: a create_graph pass through it
    # may have no higher-order kernel)
    out = exact(y, formulation(*safe))
    if any_bad:
        out = _where(bad, kernel(*xs), out)
    if domain is not None and extended is not None:
        ext, at = extended
        fe = ext(*(_where(domain, x, paddle.full_like(x, at)) for x in xs))
        # (y is NaN there: the gap need not be finite for the value to be y's)
        out = _where(domain, y - (fe.detach() - fe), out)
    return out


def unary(
    name: str,
    kernel: Callable[[Any], Any],
    formulation: Callable[[Any], Any],
    outside: Callable[[Any], Any] | None = None,
    extended: tuple[Callable[[Any], Any], float] | None = None,
) -> Callable[[Any], Any]:
    """``kernel``'s values, ``formulation``'s derivatives (where an input needs them);
    with ``outside`` (the mask of the points where the formulation's derivatives are
    not the function's, of a NumPy array or a paddle tensor), the kernel's there, and
    ``extended``'s outside the real domain (`_at_kernel`)."""

    def f(x: Any) -> Any:
        if not needs(x):
            return kernel(x)
        with paddle.no_grad():
            y = kernel(x.detach())
        if outside is None:
            return exact(y, formulation(x))
        return _at_kernel(y, formulation(x), outside, (x,), kernel, formulation, extended)

    f.__name__ = f.__qualname__ = name
    return f


def binary(
    name: str,
    kernel: Callable[[Any, Any], Any],
    formulation: Callable[[Any, Any], Any],
    outside: Callable[[Any, Any], Any] | None = None,
    extended: tuple[Callable[[Any, Any], Any], float] | None = None,
) -> Callable[[Any, Any], Any]:
    """``kernel``'s values, ``formulation``'s derivatives (where an input needs them);
    ``outside`` and ``extended`` as in `unary`."""

    def f(a: Any, b: Any) -> Any:
        if not needs(a, b):
            return kernel(a, b)
        a, b = expanded(a, b)  # an empty broadcast (_paddle_contract)
        with paddle.no_grad():
            y = kernel(a.detach(), b.detach())
        if outside is None:
            return exact(y, formulation(a, b))
        return _at_kernel(y, formulation(a, b), outside, (a, b), kernel, formulation, extended)

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


def _nowhere(x: Any) -> Any:
    """No point of the domain (only the overflows `_at_kernel` finds)."""
    return x > math.inf


def _nonpositive(x: Any) -> Any:
    return x <= 0


def _pow_pole(a: Any, b: Any) -> Any:
    """``a ** b``'s infinite derivative at ``a = 0`` for ``b < 1`` (not 0), which
    `_pow_at_zero` cannot hold."""
    return (a == 0) & (b < 1) & (b != 0)


def _origin(a: Any, b: Any) -> Any:
    """Both arguments 0: ``atan2`` and ``hypot`` have no derivative there (paddle's
    kernels give NaN, as torch's ``hypot`` and jax's ``atan2``; the formulations 0)."""
    return (a == 0) & (b == 0)


def _infinite(a: Any, b: Any) -> Any:
    """No point of the domain: only an infinite argument (`_at_kernel`: paddle's NaN
    there, as torch's and autograd's ``logaddexp``; the formulation 0)."""
    return a + b > math.inf


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


# ---- outside the real domain: the derivative's formula (`_at_kernel`'s ``extended``)
# paddle's ``log`` gives 1/u at u < 0 (NaN value), to any order, as torch's kernels do
def _log1p_outside(x: Any) -> Any:
    return paddle.log(1.0 + x)


def _log_base_outside(c: float) -> Callable[[Any], Any]:
    return lambda x: paddle.log(x) * (1 / math.log(c))


def _acosh_outside(x: Any) -> Any:
    """-log(-x + sqrt(x^2 - 1)): derivative 1/sqrt(x^2 - 1) for x < -1 (no
    cancellation, as log(x + sqrt(x^2 - 1)) would have), NaN for |x| < 1."""
    return -paddle.log(-x + paddle.sqrt(x * x - 1.0))


def _atanh_outside(x: Any) -> Any:
    """atanh(1/x) (acoth): derivative 1/(1 - x^2) for |x| > 1, without the cancellation
    of (log(1 + x) - log(1 - x)) / 2's (1/(1 + x) + 1/(1 - x)) / 2 at large |x|."""
    return _atanh(f_recip(x))


def _pole(at: float) -> Callable[[Any], Any]:
    return lambda x: x == at


reciprocal = unary("reciprocal", paddle.reciprocal, f_recip, lambda x: x == 0)
log1p = unary("log1p", paddle.log1p, _log1p, lambda x: x == -1, (_log1p_outside, 0.0))
expm1 = unary("expm1", paddle.expm1, paddle.exp, _nowhere)
log2 = unary("log2", paddle.log2, _log_base(2), _pole(0), (_log_base_outside(2), 1.0))
log10 = unary("log10", paddle.log10, _log_base(10), _pole(0), (_log_base_outside(10), 1.0))
sqrt = unary("sqrt", paddle.sqrt, f_sqrt, _nonpositive)
sinh = unary("sinh", paddle.sinh, lambda x: 0.5 * (paddle.exp(x) - paddle.exp(-x)), _nowhere)
cosh = unary("cosh", paddle.cosh, lambda x: 0.5 * (paddle.exp(x) + paddle.exp(-x)), _nowhere)


def _tan_pole(x: Any) -> Any:
    """Where ``cos(x)`` is 0 to within twice the dtype's epsilon (paddle's float64 cos
    of the float nearest pi/2 is exactly 0, where `_tan`'s reciprocal takes a safe
    point; NumPy's is 6e-17): marking a few more points only costs their higher
    orders."""
    import numpy as np

    if isinstance(x, np.ndarray):
        return abs(np.cos(x)) <= 2 * np.finfo(x.dtype).eps
    return abs(paddle.cos(x)) <= 2 * float(paddle.finfo(x.dtype).eps)


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


tan = unary("tan", _tan_kernel, _tan, _tan_pole)
asin = unary("asin", paddle.asin, lambda x: math.pi / 2 - paddle.acos(x))
atan = unary("atan", paddle.atan, f_atan)
asinh = unary("asinh", paddle.asinh, _asinh, _nowhere)
acosh = unary("acosh", paddle.acosh, _acosh, lambda x: abs(x) == 1, (_acosh_outside, -2.0))
atanh = unary("atanh", paddle.atanh, _atanh, lambda x: abs(x) == 1, (_atanh_outside, 2.0))
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
    t = b * paddle.log(_safe(_where(pos, a, -a), nz, 1.0))
    if not b.stop_gradient:
        t = t + _nan_slope(b, ~pos & nz)
    mag = paddle.exp(t)
    odd = paddle.remainder(paddle.abs(b.detach()), paddle.full_like(b, 2.0)) == 1
    return _where(nz, _where(~pos & odd, -mag, mag), _pow_at_zero(a, b, ~nz))


def _pow_without_zero(a: Any, b: Any) -> Any:
    """`_pow` where no element of ``a`` is 0 (its `_pow_at_zero` branch, three-quarters
    of its ops, selects nothing: the same values and derivatives to every order)."""
    pos = a > 0
    t = b * paddle.log(_where(pos, a, -a))
    if not b.stop_gradient:
        t = t + _nan_slope(b, ~pos)
    mag = paddle.exp(t)
    odd = paddle.remainder(paddle.abs(b.detach()), paddle.full_like(b, 2.0)) == 1
    return _where(~pos & odd, -mag, mag)


def _pow_formulation(a: Any, b: Any) -> Any:
    """`_pow_without_zero` where a host copy shows no 0 in ``a`` (a tensor on the CPU),
    else `_pow`."""
    if _HOST_CHECK and a.place.is_cpu_place() and (a.detach().numpy() != 0).all():
        return _pow_without_zero(a, b)
    return _pow(a, b)


def _nan_slope(b: Any, where: Any) -> Any:
    """0, whose derivatives in ``b`` (every order) are NaN at ``where`` and 0 elsewhere:
    ``exp(log(u + k) / 2) - k`` with ``u = 0 * (b - b)`` (value 0, slope 0) and ``k`` 0
    at ``where`` (``exp(-inf)`` is 0, its slope ``0 * inf``), 1 elsewhere. ``a ** b``'s
    derivative in ``b`` is ``a ** b log(a)``, NaN at a negative base as torch, jax and
    autograd give it; `_pow`'s ``exp(b log|a|)`` alone gave ``a ** b log|a|`` there, a
    wrong number (test_pow_of_a_negative_base_has_nan_derivatives_in_the_exponent in
    tests/test_divergences_2026.py)."""
    k = _where(where, paddle.zeros_like(b), paddle.ones_like(b)).detach()
    u = (b - b.detach()) * 0.0
    return paddle.exp(0.5 * paddle.log(u + k)) - k


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


divide = binary("divide", paddle.divide, _divide, lambda a, b: b == 0)


def _pow_outside(a: Any, b: Any) -> Any:
    """exp(b log a): NaN derivatives at a < 0 (a non-integer b), as torch's."""
    return paddle.exp(b * paddle.log(a))


_real_pow = binary("pow", paddle.pow, _pow_formulation, _pow_pole, (_pow_outside, 1.0))


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
        a, b = expanded(a, b)
        with paddle.no_grad():
            y = paddle.pow(a.detach(), b.detach())
        return exact(y, _complex_pow(a, b))
    return _real_pow(a, b)


atan2 = binary("atan2", paddle.atan2, _atan2, _origin)
hypot = binary("hypot", paddle.hypot, lambda a, b: f_sqrt(a * a + b * b), _origin)
copysign = binary("copysign", paddle.copysign, _copysign)
remainder = binary("remainder", paddle.remainder, _remainder)
logaddexp = binary("logaddexp", paddle.logaddexp, _logaddexp, _infinite)


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
