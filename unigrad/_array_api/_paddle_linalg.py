"""``linalg`` of the paddle namespace: the standard's linear-algebra extension.

paddle's kernels where their semantics are the standard's; the rules shared with the tape
(norms, ``vecdot``, ``trace``, ``diagonal``, ``matrix_power``, ...) from ``_common``.
Results the standard names (``eigh``, ``qr``, ``slogdet``, ``svd``) are namedtuples.
"""

from __future__ import annotations

import builtins
from typing import Any

import paddle

from . import _common as c
from . import _paddle_contract as contract
from . import _paddle_ho as ho
from . import _paddle_ho_linalg as hl
from ._paddle_arrays import _sum_dtype, matmul, matrix_transpose, tensordot, vecdot
from ._paddle_dtypes import _promote, _widened, finfo
from ._paddle_prims import own_nodes, prims

__all__ = [
    "cholesky",
    "cross",
    "det",
    "diagonal",
    "eigh",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]

diagonal = c.bind(c.diagonal, prims, "diagonal")
matrix_norm = c.bind(c.matrix_norm, prims, "matrix_norm")
matrix_power = c.bind(c.matrix_power, prims, "matrix_power")
svdvals = c.bind(c.svdvals, prims, "svdvals")
vector_norm = c.bind(c.vector_norm, prims, "vector_norm")


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    """Sums the diagonal as ``sum`` does (integers in the default integer dtype)."""
    return c.trace(prims, x, offset=offset, dtype=_sum_dtype(x, dtype))


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    a, b = _promote(x1, x2)
    return _widened(lambda u, v: c.cross(prims, u, v, axis=axis))(a, b)


def outer(x1: Any, x2: Any, /) -> Any:
    a, b = _promote(x1, x2)
    return _widened(lambda u, v: c.outer(prims, u, v))(a, b)


def _squares(x: Any, keepdim: bool = True) -> Any:
    """``sum(|x|^2)`` over the matrix axes: zeros for a matrix with no element, on a node
    of ``x`` whose derivative depends on ``x``. paddle 3.3.1's linear-algebra kernels fail
    on matrices with no element (raw ``ValueError``s: ``inv``, ``solve``, ``slogdet``,
    ``pinv``) or have no second derivative there (``det``, ``cholesky``); their results
    are empty (or ``det``'s 1, ``slogdet``'s 0), written as a function of ``x`` through
    this, so that they stay on a node of ``x`` and differentiate as the functions do
    (rule 14: paths are the graph's whatever their sizes; tests/test_empty_tensors.py)."""
    sq = paddle.real(x) ** 2 + paddle.imag(x) ** 2 if x.is_complex() else x * x
    return paddle.sum(sq, axis=[-2, -1], keepdim=keepdim)


def _no_element(x: Any, square: bool = True) -> bool:
    """Whether ``x`` is a stack of matrices with no element (no row, no column, or an
    empty batch); with ``square``, of square ones (else paddle's kernel refuses it)."""
    return bool(x.ndim >= 2 and 0 in x.shape and (not square or x.shape[-1] == x.shape[-2]))


def pinv(x: Any, /, *, rtol: float | None = None) -> Any:
    if _no_element(x, square=False):  # (an empty result on a node of x, as `_squares`)
        t = matrix_transpose(x)
        return t * t  # (no broadcasting: paddle's is wrong at second order on empty ones)
    if rtol is None:
        rtol = builtins.max(x.shape[-2:]) * finfo(x.dtype).eps
    return paddle.linalg.pinv(x, rcond=rtol)


def cholesky(x: Any, /, *, upper: bool = False) -> Any:
    if _no_element(x):  # (an empty result, as `pinv`'s)
        return x * x
    return paddle.linalg.cholesky(x, upper=upper)


def det(x: Any, /) -> Any:
    if _no_element(x):  # (1: `_squares`)
        return 1 + _squares(x, keepdim=False).astype(x.dtype)
    return hl.det(x)


def eigh(x: Any, /) -> c.EighResult:
    """paddle's ``eigh``; the eigenvalues differentiate as `eigvalsh`'s (paddle 3.3.1's
    ``eigh_grad`` is NaN at a repeated eigenvalue even where the eigenvectors get no
    gradient: ``_paddle_ho_linalg.eigvalsh``), the eigenvectors through paddle's node."""
    w, v = paddle.linalg.eigh(x)
    if hl.eigen_tracked(x):
        w = hl.eigenvalues(x, w, v)
    return c.EighResult(*own_nodes((w, v)))


def eigvalsh(x: Any, /) -> Any:
    return hl.eigvalsh(x)


def inv(x: Any, /) -> Any:
    if _no_element(x):  # (an empty result, as `pinv`'s)
        return x * x
    return hl.inv(x)


def matrix_rank(x: Any, /, *, rtol: float | None = None) -> Any:
    if rtol is None:
        return paddle.linalg.matrix_rank(x)
    s = svdvals(x)
    tol = paddle.max(s, axis=-1, keepdim=True) * rtol
    return paddle.sum((s > tol).astype(paddle.int64), axis=-1)


def qr(x: Any, /, *, mode: str = "reduced") -> c.QRResult:
    """paddle's ``qr``, each result tied to the other by a zero term while it requires
    grad: paddle's node for ``qr`` needs a gradient for both results, and a pass that
    reaches one alone crashed the process (SIGSEGV in ``qr_grad``, paddle 3.3). The
    ties are native ops (a ``PyLayer`` would do it too, but paddle's ``backward()``
    releases a ``PyLayer`` node's context after one run, and any later pass through
    it crashes). ``0 * r[..., :1, :1]`` is an exact zero for the finite results of a
    finite input."""
    q, r = paddle.linalg.qr(x, mode=mode)
    if not (q.stop_gradient and r.stop_gradient):
        q, r = q + 0.0 * r[..., :1, :1], r + 0.0 * q[..., :1, :1]
    return c.QRResult(q, r)


def slogdet(x: Any, /) -> c.SlogdetResult:
    """paddle's ``slogdet`` with a real ``logabsdet`` for complex input: paddle 3.3 returns
    both results in one stacked tensor, so a complex sign makes the log complex too
    (PaddlePaddle/PaConvert#499 review notes it); the standard's ``logabsdet`` is real."""
    if _no_element(x):  # (sign 1, a constant; logabsdet 0: `_squares`)
        sign = paddle.ones(x.shape[:-2], dtype=x.dtype)
        return c.SlogdetResult(sign, _squares(x, keepdim=False))
    if ho.needs(x):  # slogdet_grad has no gradient: paddle's values, a series' derivatives
        with paddle.no_grad():
            sign, value = paddle.linalg.slogdet(x.detach())
        logabsdet = hl.logabsdet(x, value)
        if logabsdet is not None:
            return c.SlogdetResult(sign, logabsdet)
    sign, logabsdet = paddle.linalg.slogdet(x)
    if logabsdet.is_complex():
        logabsdet = paddle.real(logabsdet)
    return c.SlogdetResult(sign, logabsdet)


def _zero_tie(t: Any) -> Any:
    """An exact 0-d zero (whatever ``t`` holds: inf and nan too) whose graph reaches ``t``."""
    return paddle.where(
        paddle.zeros([], dtype=paddle.bool), paddle.sum(t), paddle.zeros([], dtype=t.dtype)
    )


def _solve(a: Any, b: Any) -> Any:
    """``paddle.linalg.solve`` of a real system whose backward never meets paddle's crash.

    paddle 3.3.1's ``SolveGradKernel`` dereferences the gradient of both operands: a pass
    that needs one alone (the other a constant, or not asked for) dies with SIGSEGV
    (PaddlePaddle/Paddle#47335, #52836). While either operand requires grad, each is tied
    to the other by an exact zero (`_zero_tie`), so any pass that reaches one reaches both
    and the kernel gets both gradients; the values are paddle's solve unchanged.
    """
    higher = hl.solve(a, b)  # solve_grad has no gradient: a series' derivatives
    if higher is not None:
        return higher
    if not (a.stop_gradient and b.stop_gradient):
        a, b = a + _zero_tie(b), b + _zero_tie(a)
    return paddle.linalg.solve(a, b)


def solve(x1: Any, x2: Any, /) -> Any:
    """The standard's ``solve``: ``x2`` of shape ``(..., M)`` with ``ndim == 1`` is a vector.

    Complex systems: paddle 3.3.1 registers ``solve`` for float32/float64 only ("kernel
    ... not registered", no upstream issue found); they are solved as the real system
    ``[[Re A, -Im A], [Im A, Re A]] [Re x; Im x] = [Re b; Im b]``, differentiable through
    ``real``, ``imag``, ``concat`` and ``complex``.
    """
    a, b = _promote(x1, x2)
    if _no_element(a):  # (an empty result, linear in b: `_squares`)
        tie = _squares(a).astype(a.dtype)
        return contract.product(b, paddle.squeeze(tie, -1) if b.ndim == 1 else tie)
    if not a.is_complex():
        return _solve(a, b)
    vector = b.ndim == 1
    if vector:
        b = b.unsqueeze(-1)
    n = a.shape[-1]
    ar, ai = paddle.real(a), paddle.imag(a)
    big = paddle.concat(
        [paddle.concat([ar, -ai], axis=-1), paddle.concat([ai, ar], axis=-1)], axis=-2
    )
    rhs = paddle.concat([paddle.real(b), paddle.imag(b)], axis=-2)
    y = _solve(big, rhs)
    out = paddle.complex(y[..., :n, :], y[..., n:, :])
    return out.squeeze(-1) if vector else out


def svd(x: Any, /, *, full_matrices: bool = True) -> c.SVDResult:
    return c.SVDResult(*own_nodes(paddle.linalg.svd(x, full_matrices=full_matrices)))
