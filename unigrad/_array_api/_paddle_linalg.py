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
from ._paddle import _sum_dtype, matmul, matrix_transpose, tensordot, vecdot
from ._paddle_dtypes import _promote, _widened, finfo
from ._paddle_prims import prims

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
eigvalsh = c.bind(c.eigvalsh, prims, "eigvalsh")
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


def pinv(x: Any, /, *, rtol: float | None = None) -> Any:
    if 0 in x.shape:  # paddle's kernel fails on empty matrices; the answer is empty
        return paddle.zeros([*x.shape[:-2], x.shape[-1], x.shape[-2]], dtype=x.dtype)
    if rtol is None:
        rtol = builtins.max(x.shape[-2:]) * finfo(x.dtype).eps
    return paddle.linalg.pinv(x, rcond=rtol)


def cholesky(x: Any, /, *, upper: bool = False) -> Any:
    return paddle.linalg.cholesky(x, upper=upper)


def det(x: Any, /) -> Any:
    return paddle.linalg.det(x)


def eigh(x: Any, /) -> c.EighResult:
    return c.EighResult(*paddle.linalg.eigh(x))


def inv(x: Any, /) -> Any:
    return paddle.linalg.inv(x)


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
    return c.SlogdetResult(*paddle.linalg.slogdet(x))


def solve(x1: Any, x2: Any, /) -> Any:
    a, b = _promote(x1, x2)
    return paddle.linalg.solve(a, b)


def svd(x: Any, /, *, full_matrices: bool = True) -> c.SVDResult:
    return c.SVDResult(*paddle.linalg.svd(x, full_matrices=full_matrices))
