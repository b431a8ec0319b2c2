"""paddle's ``linalg`` functions whose derivatives paddle can take again, for the namespace.

paddle 3.3.1's ``inverse_grad``, ``det_grad``, ``slogdet_grad``, ``solve_grad`` and
``eigh_grad`` have no gradient of their own, and ``det_grad`` is 0 at a singular matrix.
Each function here returns paddle's kernel's value with the derivatives of a formulation
paddle differentiates to any order (`unigrad._array_api._paddle_ho.exact`): series around
the point (Neumann series of the inverse, log det as a trace series), the Laplace expansion
of small determinants, eigenvalues through the eigenvectors at the point.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import paddle

from ._paddle_ho import _COMPLEX, _REAL, exact, needs
from ._paddle_ho_arrays import _index

__all__ = ["det", "eigen_tracked", "eigenvalues", "eigvalsh", "inv", "logabsdet", "solve"]


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


#: Matrices up to this size differentiate as the Laplace expansion (a polynomial: exact
#: derivatives of every order at every matrix, singular ones included).
_LAPLACE_MAX = 4


def _laplace(a: Any, minor_det: Callable[[Any], Any]) -> Any:
    """``det(a)`` expanded along the first row, ``minor_det`` giving the minors'
    determinants (one batch of ``n`` minors): products, sums and gathers, which paddle
    differentiates to any order (complex too, at first order)."""
    n = a.shape[-1]
    if n == 1:
        return a[..., 0, 0]
    if n == 2:
        return a[..., 0, 0] * a[..., 1, 1] - a[..., 0, 1] * a[..., 1, 0]
    keep = [k for j in range(n) for k in range(n) if k != j]  # minor j: columns but j
    rest = paddle.index_select(a[..., 1:, :], _index(keep), axis=-1)
    minors = paddle.moveaxis(paddle.reshape(rest, [*a.shape[:-2], n - 1, n, n - 1]), -2, -3)
    sign = paddle.to_tensor([(-1.0) ** j for j in range(n)], dtype=a.dtype)
    return paddle.sum(a[..., 0, :] * minor_det(minors) * sign, axis=-1)


def _det_formulation(a: Any) -> Any:
    """A determinant whose derivatives paddle takes right at every matrix: the Laplace
    expansion up to `_LAPLACE_MAX` (every order), the series of `_log_det_ratio` for
    larger well-conditioned real matrices (to order `SERIES`), paddle's kernel for larger
    well-conditioned complex ones (first order), and one Laplace step for larger
    ill-conditioned ones, whose minors take the same choice."""
    import numpy as np

    n = a.shape[-1]
    if n <= _LAPLACE_MAX:
        return _laplace(a, _det_formulation)
    a0 = a.detach()
    value = a0.numpy()
    if bool(np.all(np.linalg.cond(value) < np.finfo(value.dtype).eps ** -0.5)):
        if a.dtype in _COMPLEX:
            return paddle.linalg.det(a)
        y0 = _inverse_at(a0)
        if y0 is not None:
            with paddle.no_grad():
                y = paddle.linalg.det(a0)
            return y * paddle.exp(_log_det_ratio(a, y0))
    return _laplace(a, _det_formulation)


_DET_DTYPES = (paddle.float32, paddle.float64, *_COMPLEX)


def det(a: Any) -> Any:
    """``paddle.linalg.det``'s value with `_det_formulation`'s derivatives. paddle
    3.3.1's ``det_grad`` has no gradient, and its first derivative is ``det(a)
    inv(a)^T``, zero at a singular matrix (real or complex) where the derivative, the
    cofactor matrix, is not (a rank n - 1 matrix; tests/test_divergences_2026.py
    ``test_det_first_derivative_at_a_singular_matrix``; torch has the same defect,
    pytorch/pytorch#104675)."""
    tracked = isinstance(a, paddle.Tensor) and not a.stop_gradient
    if not tracked or a.ndim < 2 or a.shape[-1] == 0 or a.dtype not in _DET_DTYPES:
        return paddle.linalg.det(a)
    with paddle.no_grad():
        y = paddle.linalg.det(a.detach())
    return exact(y, _det_formulation(a))


def eigvalsh(a: Any) -> Any:
    """``paddle.linalg.eigh``'s eigenvalues with the derivative ``V diag(g) V^T`` at every
    real symmetric matrix: the diagonal of ``V0^T a V0`` (``V0`` the eigenvectors at the
    point, constants), whose first derivative that is. paddle 3.3.1's ``eigh_grad``
    computes ``V (diag(g) + F * (V^T gV)) V^T`` with ``F = 1 / (l_j - l_i)`` even where
    the eigenvectors get no gradient (``gV = 0``): NaN (``inf * 0``) at a matrix with a
    repeated eigenvalue (the identity), where torch, jax and autograd answer
    (tests/test_divergences_2026.py
    ``test_eigvalsh_first_derivative_at_a_repeated_eigenvalue``). ``eigh_grad`` has no
    gradient, and neither has this formulation: its diagonal passes through a
    ``cumsum`` over an axis of length 1 (the identity; ``cumsum_grad`` has no gradient),
    so a ``create_graph`` pass through it is HigherOrderUnavailableError, as through
    paddle's kernel, never the zero second derivative of the linear formulation."""
    if not eigen_tracked(a):
        return paddle.linalg.eigh(a)[0]
    with paddle.no_grad():
        y, v = paddle.linalg.eigh(a.detach())
    return eigenvalues(a, y, v)


def eigen_tracked(a: Any) -> bool:
    """Whether `eigenvalues` applies: a real or complex matrix that requires grad."""
    return not a.stop_gradient and a.ndim >= 2 and a.dtype in (*_REAL, *_COMPLEX)


def eigenvalues(a: Any, y: Any, v: Any) -> Any:
    """`eigvalsh`'s formulation: the eigenvalues ``y`` (paddle's) with the derivatives of
    the diagonal of ``v^H a v`` (``v``, the eigenvectors, constants; its real part for a
    Hermitian ``a``: the gradient ``V diag(g) V^H``)."""
    v = v.detach()
    n = a.shape[-1]
    vh = (
        paddle.conj(paddle.matrix_transpose(v))
        if a.dtype in _COMPLEX
        else paddle.matrix_transpose(v)
    )
    inner = paddle.matmul(vh, paddle.matmul(a, v))
    f = paddle.sum(inner * paddle.eye(n, dtype=a.dtype), axis=-1)
    if a.dtype in _COMPLEX:
        f = paddle.real(f)
    f = paddle.cumsum(f.unsqueeze(-1), axis=-1).squeeze(-1)
    return exact(y.detach(), f)


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
