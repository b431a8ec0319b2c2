"""The numpy tape's linear algebra where autograd lacks a rule or has one that fails.

autograd 1.9.1's ``cholesky`` takes no ``upper=``; it has no rule for ``qr``; its
``det`` rule, ``det(A) inv(A)^T``, raises at a singular matrix; and ``svdvals``
through its whole ``svd`` rule is NaN at repeated singular values. Each function here
is the standard's, over an autograd primitive with its own derivative where needed;
`_autograd.build` binds them into the namespace.
"""

from __future__ import annotations

import functools
from typing import Any

from . import _common as c

__all__ = ["cholesky", "det", "qr", "svdvals"]


def cholesky(anp: Any, x: Any, /, *, upper: bool = False) -> Any:
    # autograd's cholesky rule takes no upper=: the lower factor's conjugate transpose
    low = anp.linalg.cholesky(x)
    return anp.conj(anp.swapaxes(low, -1, -2)) if upper else low


@functools.cache
def _svdvals_primitive() -> Any:
    """The singular values as an autograd primitive whose derivative rule is
    ``U diag(g) V^H`` (torch's ``svd_backward`` with only the values' cotangent; in
    autograd's convention, its conjugate). autograd 1.9.1 differentiates ``svd(x)[1]``
    through its whole ``svd`` rule, whose ``1 / (s_j^2 - s_i^2)`` terms multiply the
    zero cotangents of ``U`` and ``V``: NaN at repeated singular values, where the
    values' own derivative exists. The rule is written with ``autograd.numpy``, so it is
    differentiable again (through ``svd``'s rule, as torch's)."""
    import autograd.numpy as anp
    import numpy as np
    from autograd.extend import defvjp, primitive

    @primitive  # type: ignore[untyped-decorator]
    def svdvals(a: Any) -> Any:
        return np.linalg.svd(a, full_matrices=False)[1]  # (the values of svd(...)[1])

    def vjp(ans: Any, a: Any) -> Any:
        def back(g: Any) -> Any:
            u, _, vh = anp.linalg.svd(a, full_matrices=False)
            return anp.matmul(anp.conj(u) * g[..., None, :], anp.conj(vh))

        return back

    defvjp(svdvals, vjp)
    return svdvals


def svdvals(anp: Any, x: Any, /) -> Any:
    """``svdvals`` whose derivative exists at repeated singular values (see
    `_svdvals_primitive`); an empty matrix through ``svd``, as before."""
    if x.ndim < 2 or x.shape[-2] == 0 or x.shape[-1] == 0:
        return c.svdvals(anp, x)
    return _svdvals_primitive()(x)


@functools.cache
def _qr_primitive() -> Any:
    """``numpy.linalg.qr`` (reduced) as an autograd primitive with a derivative rule:
    autograd has none. The rule is the standard one (as torch's ``linalg_qr_backward``),
    written with ``autograd.numpy`` so that it is differentiable again."""
    import autograd.numpy as anp
    import numpy as np
    from autograd.extend import defvjp, primitive

    @primitive  # type: ignore[untyped-decorator]
    def qr(a: Any) -> tuple[Any, Any]:
        q, r = np.linalg.qr(a, mode="reduced")
        return q, r

    def mh(x: Any) -> Any:
        return anp.conj(anp.swapaxes(x, -1, -2))

    def square_vjp(q: Any, r: Any, gq: Any, gr: Any) -> Any:
        # m >= n: gA = [gQ + Q syminvadj(triu(gR R^H - Q^H gQ))] R^{-H}
        m_ = anp.triu(anp.matmul(gr, mh(r)) - anp.matmul(mh(q), gq))
        sym = m_ + mh(m_)
        n = sym.shape[-1]
        eye = np.eye(n)
        sym = sym - 0.5 * anp.real(sym * eye) * eye  # halve the (real) diagonal
        b = gq + anp.matmul(q, sym)
        # b R^{-H}: solve R X = b^H for X = (b R^{-H})^H
        return mh(anp.linalg.solve(r, mh(b)))

    def qr_vjp(ans: Any, a: Any) -> Any:
        q, r = ans
        m, n = a.shape[-2], a.shape[-1]

        def vjp(g: Any) -> Any:
            gq, gr = g
            if m >= n:
                return square_vjp(q, r, gq, gr)
            # m < n: A = [X Y], R = [U V]; Q and U are the QR of X, and V = Q^H Y
            u, gu, gv = r[..., :m], gr[..., :m], gr[..., m:]
            y = a[..., m:]
            gx = square_vjp(q, u, gq + anp.matmul(y, mh(gv)), gu)
            gy = anp.matmul(q, gv)
            return anp.concatenate([gx, gy], axis=-1)

        return vjp

    defvjp(qr, qr_vjp)
    return qr


@functools.cache
def _det_primitive() -> Any:
    """``numpy.linalg.det`` as an autograd primitive whose derivative exists at singular
    matrices. autograd 1.9.1's rule is ``det(A) inv(A)^T``, which raises numpy's
    ``LinAlgError: Singular matrix`` where ``A`` is singular although the derivative
    (the cofactor matrix) exists there. Here the derivative is the cofactor matrix:
    signed determinants of the minors for matrices up to 4x4 (exact at every matrix, and
    differentiable again through this same primitive), ``det(A) inv(A)^T`` for larger
    well-conditioned ones, the minors again for larger ill-conditioned ones."""
    import autograd.numpy as anp
    import numpy as np
    from autograd.extend import defvjp, primitive
    from autograd.tracer import getval

    @primitive  # type: ignore[untyped-decorator]
    def det(a: Any) -> Any:
        return np.linalg.det(a)

    def cofactors(a: Any) -> Any:
        n = a.shape[-1]
        if n == 0:
            return anp.zeros_like(a)
        if n == 1:
            return anp.ones_like(a)
        value = getval(a)
        if n > 4 and np.all(np.linalg.cond(value) < 1.0 / np.sqrt(np.finfo(value.dtype).eps)):
            return det(a)[..., None, None] * anp.swapaxes(anp.linalg.inv(a), -1, -2)
        # minor (i, j): rows without i, columns without j, gathered for all (i, j) at once
        keep = np.array([[k for k in range(n) if k != i] for i in range(n)])
        rows = keep[:, None, :, None]  # (n, 1, n-1, 1)
        cols = keep[None, :, None, :]  # (1, n, 1, n-1)
        minors = a[..., rows, cols]  # (..., n, n, n-1, n-1)
        sign = np.array([[(-1.0) ** (i + j) for j in range(n)] for i in range(n)])
        return det(minors) * sign.astype(value.dtype)

    def det_vjp(ans: Any, a: Any) -> Any:
        return lambda g: g[..., None, None] * cofactors(a)

    defvjp(det, det_vjp)
    return det


def det(anp: Any, x: Any, /) -> Any:
    return _det_primitive()(x)


def qr(anp: Any, x: Any, /, *, mode: str = "reduced") -> Any:
    """QR with a derivative (autograd has none): reduced mode, or complete mode where it
    is the same factorization (at least as many columns as rows)."""
    import numpy as np

    m, n = x.shape[-2], x.shape[-1]
    if mode == "reduced" or (mode == "complete" and m <= n):
        q, r = _qr_primitive()(x)
        return c.QRResult(q, r)
    if mode != "complete":
        msg = f"qr: mode must be 'reduced' or 'complete', got {mode!r}"
        raise ValueError(msg)
    return _qr_complete(np, x)


def _qr_complete(np: Any, x: Any) -> Any:
    from autograd.tracer import isbox

    from .._errors import NotDifferentiableError, message

    if isbox(x):
        msg = message(
            "qr(mode='complete') of a matrix with more rows than columns has no derivative",
            expected="mode='reduced', or at least as many columns as rows",
            got=f"a {x.shape[-2]}x{x.shape[-1]} matrix",
            fix="Use mode='reduced': Q's extra columns are not determined by the matrix "
            "(torch refuses this derivative too).",
        )
        raise NotDifferentiableError(msg)
    return c.QRResult(*np.linalg.qr(x, mode="complete"))
