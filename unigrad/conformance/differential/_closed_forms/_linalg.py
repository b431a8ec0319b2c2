"""Closed forms of the linear-algebra functions the op table draws (2 x 2 and square
small matrices): determinants, inverses, decompositions."""

from __future__ import annotations

import numpy as np

from ._arrays import at, gather, matmul, permute, stack
from ._core import RV, Degenerate, cut
from ._elementwise import add, mul, neg, recip, rsum, scale, sqrt, sub


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
