"""The array API standard's rules, written once over a framework's primitive namespace.

Each function takes the primitive namespace ``xp`` first (``autograd.numpy`` for the numpy
tape, unigrad's paddle primitives for paddle) and then the standard's own parameters; a
framework module binds ``xp`` with `bind`, which keeps the standard's signature.
Everything is composed of differentiable primitives, so gradients flow through every
function whose result is floating.

The primitives used are NumPy's names: ``sum``/``max``/``min`` (``axis``, ``keepdims``),
``abs``, ``sqrt``, ``reshape``, ``transpose``, ``moveaxis``, ``swapaxes``,
``expand_dims``, ``concatenate``, ``stack``, ``flip``, ``sort``, ``argsort``, ``cumsum``,
``cumprod``, ``matmul``, ``conj``, ``real``, ``where``, ``zeros``, ``asarray``, and in
``xp.linalg``: ``svd``, ``eigh``, ``inv``.
"""

from __future__ import annotations

import builtins
import functools
import inspect
import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

__all__ = [
    "EighResult",
    "FInfo",
    "IInfo",
    "QRResult",
    "SVDResult",
    "SlogdetResult",
    "UniqueAll",
    "UniqueCounts",
    "UniqueInverse",
    "acosh_branch_gradient",
    "argsort",
    "bind",
    "broadcast_arrays",
    "clip",
    "concat",
    "cross",
    "cumulative_prod",
    "cumulative_sum",
    "diagonal",
    "eigvalsh",
    "finfo",
    "flip",
    "hermitian_lower_input",
    "hfft",
    "ihfft",
    "iinfo",
    "matrix_norm",
    "matrix_power",
    "matrix_transpose",
    "meshgrid",
    "normalize_axis",
    "outer",
    "prod_by_multiplies",
    "running_products",
    "sort",
    "std",
    "svd_via_reduced",
    "svdvals",
    "take",
    "trace",
    "unstack",
    "var",
    "vecdot",
    "vector_norm",
]


def bind(fn: Callable[..., Any], xp: Any, name: str | None = None) -> Callable[..., Any]:
    """``fn`` with ``xp`` bound: the standard's signature, name and docstring."""

    @functools.wraps(fn)
    def bound(*args: Any, **kwargs: Any) -> Any:
        return fn(xp, *args, **kwargs)

    sig = inspect.signature(fn)
    params = list(sig.parameters.values())[1:]
    bound.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    del bound.__wrapped__
    if name is not None:
        bound.__name__ = bound.__qualname__ = name
    return bound


def normalize_axis(axis: int, ndim: int) -> int:
    """``axis`` in ``range(ndim)``, counting from the end when negative."""
    if not -ndim <= axis < max(ndim, 1):
        msg = f"axis {axis} is out of bounds for an array of dimension {ndim}"
        raise IndexError(msg)
    return axis % ndim if ndim else 0


def _axes(axis: int | Sequence[int] | None, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        return (normalize_axis(axis, ndim),)
    out = tuple(normalize_axis(a, ndim) for a in axis)
    if len(set(out)) != len(out):
        msg = f"repeated axis in {tuple(axis)}"
        raise ValueError(msg)
    return out


# ---- data types --------------------------------------------------------------------
class FInfo(NamedTuple):
    """The standard's ``finfo`` object: Python numbers, and the dtype."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: Any


class IInfo(NamedTuple):
    """The standard's ``iinfo`` object: Python ints, and the dtype."""

    bits: int
    max: int
    min: int
    dtype: Any


class EighResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


class QRResult(NamedTuple):
    Q: Any
    R: Any


class SlogdetResult(NamedTuple):
    sign: Any
    logabsdet: Any


class SVDResult(NamedTuple):
    U: Any
    S: Any
    Vh: Any


class UniqueAll(NamedTuple):
    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCounts(NamedTuple):
    values: Any
    counts: Any


class UniqueInverse(NamedTuple):
    values: Any
    inverse_indices: Any


def _dtype_of(x: Any) -> Any:
    """An array's dtype, or ``x`` itself (a dtype, or NumPy's scalar type such as float32)."""
    return x.dtype if not isinstance(x, builtins.type) and hasattr(x, "dtype") else x


def finfo(xp: Any, type: Any, /) -> FInfo:
    """Machine limits of a floating dtype (or of an array's dtype), as Python floats."""
    f = xp.finfo(_dtype_of(type))
    real = getattr(xp, f.dtype) if isinstance(f.dtype, str) else f.dtype  # paddle: a name
    return FInfo(
        int(f.bits), float(f.eps), float(f.max), float(f.min), float(f.smallest_normal), real
    )


def iinfo(xp: Any, type: Any, /) -> IInfo:
    """Machine limits of an integer dtype (or of an array's dtype), as Python ints."""
    dtype = _dtype_of(type)
    i = xp.iinfo(dtype)
    return IInfo(int(i.bits), int(i.max), int(i.min), dtype)


# ---- manipulation ----------------------------------------------------------------
def concat(xp: Any, arrays: Sequence[Any], /, *, axis: int | None = 0) -> Any:
    arrays = list(arrays)
    if axis is None:
        return xp.concatenate([xp.reshape(a, (-1,)) for a in arrays], axis=0)
    return xp.concatenate(arrays, axis=axis)


def flip(xp: Any, x: Any, /, *, axis: int | Sequence[int] | None = None) -> Any:
    axes = _axes(axis, x.ndim)
    idx = tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(x.ndim))
    return x[idx]


def unstack(xp: Any, x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    axis = normalize_axis(axis, x.ndim)
    lead = (slice(None),) * axis
    return tuple(x[lead + (i,)] for i in range(x.shape[axis]))  # noqa: RUF005 (3.10)


def broadcast_arrays(xp: Any, *arrays: Any) -> list[Any]:
    shape = xp.broadcast_shapes(*(a.shape for a in arrays))
    return [xp.broadcast_to(a, shape) for a in arrays]


def meshgrid(xp: Any, *arrays: Any, indexing: str = "xy") -> list[Any]:
    """Each grid its own array reshaped and broadcast: one node per grid. autograd's
    ``meshgrid`` has no derivative rule, and paddle's node for it needs a gradient
    for every grid (a pass reaching only some crashes the process: SIGSEGV in
    ``meshgrid_grad``, paddle 3.3)."""
    if indexing not in ("xy", "ij"):
        msg = f"indexing must be 'xy' or 'ij', got {indexing!r}"
        raise ValueError(msg)
    axes = list(range(len(arrays)))
    if indexing == "xy" and len(arrays) >= 2:  # "xy": the first two axes swapped
        axes[0], axes[1] = 1, 0
    sizes = [math.prod(a.shape) for a in arrays]
    shape = [0] * len(arrays)
    for axis, n in zip(axes, sizes, strict=True):
        shape[axis] = n
    grids = []
    for axis, n, a in zip(axes, sizes, arrays, strict=True):
        at = [1] * len(arrays)
        at[axis] = n
        grids.append(xp.broadcast_to(xp.reshape(a, tuple(at)), tuple(shape)))
    return grids


def take(xp: Any, x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    if axis is None:
        if x.ndim != 1:
            msg = f"take needs axis for a {x.ndim}-d array"
            raise ValueError(msg)
        axis = 0
    axis = normalize_axis(axis, x.ndim)
    return x[(slice(None),) * axis + (indices,)]


def clip(xp: Any, x: Any, /, min: Any = None, max: Any = None) -> Any:
    """The standard's clip: bounds broadcast against ``x``, the result keeps its dtype."""
    out = x
    for bound, below in ((min, True), (max, False)):
        if bound is None:
            continue
        b = xp.astype(bound, x.dtype) if hasattr(bound, "dtype") else xp.asarray(bound, x.dtype)
        out = xp.where(out < b if below else out > b, b, out)
    if out is x:  # no bounds: x itself (the standard does not ask for a copy)
        return x
    return xp.broadcast_to(out, xp.broadcast_shapes(out.shape, x.shape))


# ---- sorting -----------------------------------------------------------------------
def sort(
    xp: Any, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
) -> Any:
    out = xp.sort(x, axis=axis, kind="stable" if stable else None)
    return flip(xp, out, axis=axis) if descending else out


def argsort(
    xp: Any, x: Any, /, *, axis: int = -1, descending: bool = False, stable: bool = True
) -> Any:
    if not descending:
        return xp.argsort(x, axis=axis, kind="stable" if stable else None)
    # stable and descending: sort the reversed array, map the indices back
    n = x.shape[axis] if x.ndim else 1
    rev = xp.argsort(flip(xp, x, axis=axis), axis=axis, kind="stable")
    return flip(xp, n - 1 - rev, axis=axis)


# ---- statistics ----------------------------------------------------------------------
def cumulative_sum(
    xp: Any,
    x: Any,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
) -> Any:
    return _cumulative(xp, xp.cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(
    xp: Any,
    x: Any,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
) -> Any:
    return _cumulative(xp, xp.cumprod, 1, x, axis, dtype, include_initial)


#: The longest axis whose cumulative products a namespace computes as running products
#: where the framework's own kernel would differentiate with a spurious dependence
#: (docs/semantics.md, "Dependence": exact to the 8th order beyond it).
RUNNING_PRODUCTS_MAX = 8


def running_products(xp: Any, x: Any, axis: int) -> Any:
    """The cumulative products of ``x`` along ``axis`` as running products, one multiply
    per slice (``c_k = c_{k-1} * x_k``, stacked): ``c_k`` is a product of ``k + 1``
    factors in every element, so its ``j``-th derivative depends on ``x`` for ``j <= k``
    and is a constant from ``j = k + 1`` on (rule 14: the k-th derivative of a product of
    n factors, docs/semantics.md "Dependence"); no division, so exact at zeros and for
    complex ``x``. O(n) ops: for short axes (`RUNNING_PRODUCTS_MAX`) or frameworks with
    no differentiable kernel. ``xp`` gives ``stack(arrays, axis=)`` and may give
    ``unbind(x, axis=)``, the slices along ``axis`` as one op (torch and paddle: its
    backward stacks, where each index's fills zeros)."""
    axis = normalize_axis(axis, x.ndim)
    n = x.shape[axis]
    if n == 0:
        return x
    unbind = getattr(xp, "unbind", None)
    if unbind is not None:
        parts = list(unbind(x, axis=axis))
    else:
        keys = [(*(slice(None),) * axis, i) for i in range(n)]
        parts = [x[k] for k in keys]
    outs = [parts[0]]
    for p in parts[1:]:
        outs.append(outs[-1] * p)
    return xp.stack(outs, axis=axis)


def _split_last(t: Any, h: int) -> tuple[Any, Any, Any]:
    """``t[..., :h]``, ``t[..., h:2h]`` and, where the last axis is odd, its last element
    as a slice of its own (else None)."""
    odd = t[..., 2 * h :] if t.shape[-1] % 2 else None
    return t[..., :h], t[..., h : 2 * h], odd


def prod_by_multiplies(
    xp: Any, x: Any, /, *, axis: int | Sequence[int] | None = None, keepdims: bool = False
) -> Any:
    """``prod`` of a float or complex ``x`` as a tree of multiplies, for the namespaces'
    differentiable path: the reduced axes moved last and flattened to one axis of ``n``;
    while ``n > 1`` its halves are multiplied (``t[..., :h] * t[..., h:2h]``), the last
    element of an odd ``n`` set aside as a slice of its own, and the result is the last
    level's single element times the slices set aside.

    Every tensor in the graph is homogeneous (each element a product of the same number
    of distinct factors), so a tensor's degree in ``x`` is exactly its elements' and each
    derivative lowers it by one: the k-th derivative depends on ``x`` for ``k < n`` and
    is a constant from ``k = n`` on, as dependence is read tensor by tensor (rule 14,
    docs/semantics.md "Dependence"). Concatenating the odd element back (a tensor of pair
    products and single factors) would make the tensor's degree exceed ``n``: a spurious
    dependence at order ``n``. ``log2 n`` levels of multiplies and at most ``log2 n`` set
    aside; no division, so exact at zeros and for complex ``x``. The values are the
    kernel's to rounding (a tree, not a sequential product).

    ``xp`` gives ``reshape(x, shape)``, ``transpose(x, axes)`` and ``sum(x, axis=,
    keepdims=)`` (for the empty product: ``0 * sum + 1``, ones on a node of ``x``), and
    may give ``split_last(t, h)``, the slices `_split_last` takes as one op (torch:
    ``split``, whose backward concatenates where each slice's fills zeros)."""
    nd = x.ndim
    axes = sorted(_axes(axis, nd)) if nd else []
    kept = [d for d in range(nd) if d not in axes]
    n = math.prod(x.shape[d] for d in axes)
    if n == 0:
        # the empty product: ones, on a node of ``x`` (rule 14 follows the graph's paths
        # whatever their sizes, as torch's kernel and the oracle do): jax 0.10's
        # ``jnp.prod`` of nothing is a constant, and paddle 3.3's ``prod_grad`` has no
        # double-grad kernel
        return xp.sum(x, axis=tuple(axes), keepdims=keepdims) * 0 + 1
    perm = (*kept, *axes)
    t = x if perm == tuple(range(nd)) else xp.transpose(x, perm)
    t = xp.reshape(t, (*(x.shape[d] for d in kept), n))
    split = getattr(xp, "split_last", None) or _split_last
    aside = []
    while n > 1:
        h = n // 2
        first, second, odd = split(t, h)
        if odd is not None:
            aside.append(odd)
        t = first * second
        n = h
    for e in reversed(aside):
        t = t * e
    out = t[..., 0]
    if keepdims:
        out = xp.reshape(out, tuple(1 if d in axes else x.shape[d] for d in range(nd)))
    return out


def _cumulative(
    xp: Any, op: Any, init: int, x: Any, axis: int | None, dtype: Any, include_initial: bool
) -> Any:
    if axis is None:
        if x.ndim > 1:
            msg = f"axis is required for a {x.ndim}-d array"
            raise ValueError(msg)
        axis = 0
    if x.ndim == 0:
        msg = "cumulative functions need an array of at least one dimension"
        raise ValueError(msg)
    axis = normalize_axis(axis, x.ndim)
    out = op(x, axis=axis, dtype=dtype)
    if include_initial:
        shape = list(out.shape)
        shape[axis] = 1
        first = xp.full(tuple(shape), init, dtype=out.dtype)
        out = xp.concatenate([first, out], axis=axis)
    return out


def var(
    xp: Any,
    x: Any,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: float = 0.0,
    keepdims: bool = False,
) -> Any:
    axes = _axes(axis, x.ndim)
    n = math.prod(x.shape[a] for a in axes)
    mean = xp.sum(x, axis=axes, keepdims=True) / n if n else xp.mean(x, axis=axes, keepdims=True)
    d = x - mean
    ss = xp.sum(d * d, axis=axes, keepdims=keepdims)
    return ss / (n - correction) if n - correction > 0 else ss * float("nan")


def std(
    xp: Any,
    x: Any,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: float = 0.0,
    keepdims: bool = False,
) -> Any:
    return xp.sqrt(var(xp, x, axis=axis, correction=correction, keepdims=keepdims))


# ---- linear algebra ----------------------------------------------------------------
def matrix_transpose(xp: Any, x: Any, /) -> Any:
    if x.ndim < 2:
        msg = f"matrix_transpose needs an array of at least 2 dimensions, got {x.ndim}"
        raise ValueError(msg)
    return xp.swapaxes(x, -1, -2)


def vecdot(xp: Any, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    ndim = max(x1.ndim, x2.ndim)
    if not -min(x1.ndim, x2.ndim) <= axis < 0 and not 0 <= axis < min(x1.ndim, x2.ndim):
        msg = f"axis {axis} is out of bounds for arrays of {x1.ndim} and {x2.ndim} dims"
        raise ValueError(msg)
    if axis >= 0:
        axis -= ndim
    if x1.shape[axis] != x2.shape[axis]:
        msg = f"vecdot: sizes {x1.shape[axis]} and {x2.shape[axis]} along axis {axis} differ"
        raise ValueError(msg)
    return xp.sum(xp.conj(x1) * x2, axis=axis, dtype=xp.result_type(x1, x2))


def outer(xp: Any, x1: Any, x2: Any, /) -> Any:
    if x1.ndim != 1 or x2.ndim != 1:
        msg = f"outer needs two 1-d arrays, got {x1.ndim}-d and {x2.ndim}-d"
        raise ValueError(msg)
    return xp.reshape(x1, (-1, 1)) * xp.reshape(x2, (1, -1))


def diagonal(xp: Any, x: Any, /, *, offset: int = 0) -> Any:
    return xp.diagonal(x, offset=offset, axis1=-2, axis2=-1)


def trace(xp: Any, x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    return xp.sum(diagonal(xp, x, offset=offset), axis=-1, dtype=dtype)


def cross(xp: Any, x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    if not (-min(x1.ndim, x2.ndim) <= axis < 0 or 0 <= axis < min(x1.ndim, x2.ndim)):
        msg = f"axis {axis} is out of bounds"
        raise ValueError(msg)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        msg = f"cross needs size 3 along axis {axis}, got {x1.shape} and {x2.shape}"
        raise ValueError(msg)
    a = xp.moveaxis(x1, axis, -1)
    b = xp.moveaxis(x2, axis, -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out = xp.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return xp.moveaxis(out, -1, axis)


def matrix_power(xp: Any, x: Any, n: int, /) -> Any:
    if n < 0:
        x, n = xp.linalg.inv(x), -n
    if n == 0:
        eye = xp.eye(x.shape[-1], dtype=x.dtype)
        return xp.broadcast_to(eye, x.shape) + 0 * x
    result = None
    base = x
    while n:  # binary powering: log2(n) matmuls
        if n & 1:
            result = base if result is None else xp.matmul(result, base)
        n >>= 1
        if n:
            base = xp.matmul(base, base)
    return result


def eigvalsh(xp: Any, x: Any, /) -> Any:
    return xp.linalg.eigh(x)[0]


def svd_via_reduced(
    xp: Any, stop: Callable[[Any], Any], x: Any, /, *, full_matrices: bool = True
) -> SVDResult:
    """SVD whose derivative is the reduced factorization's, as torch's (``linalg_svd``
    in derivatives.yaml narrows U and Vh to their first min(m, n) vectors): autograd
    (1.9.1) and jax (0.10) have no derivative of ``full_matrices=True`` at all, not even
    of the singular values. The reduced SVD is the full one for a square matrix; for a
    rectangular one the extra vectors (no function of the matrix: any orthonormal
    basis of the complement) come from the full SVD as constants (``stop``)."""
    u, s, vh = xp.linalg.svd(x, full_matrices=False)
    m, n = x.shape[-2], x.shape[-1]
    if full_matrices and m != n:
        k = min(m, n)
        uf, _, vhf = xp.linalg.svd(stop(x), full_matrices=True)
        if m > n:
            u = xp.concatenate([u, stop(uf[..., :, k:])], axis=-1)
        else:
            vh = xp.concatenate([vh, stop(vhf[..., k:, :])], axis=-2)
    return SVDResult(u, s, vh)


def hermitian_lower_input(
    x: Any,
    /,
    *,
    stop: Callable[[Any], Any],
    adjoint: Callable[[Any], Any],
    lower_parts: Callable[[Any], tuple[Any, Any]],
) -> Any:
    """The input that makes a framework's ``eigh`` answer as torch's: the Hermitian
    matrix of ``x``'s lower triangle (LAPACK's values, which torch, paddle and numpy
    give for any square ``x``), plus ``h - stop(h)`` (zero) for ``h`` the Hermitian part
    of ``x``, so that the derivative is the Hermitian part of the incoming gradient
    (torch's) at every order (docs/semantics.md, "eigh of a matrix that is not
    Hermitian"). ``lower_parts(a)`` is ``(tril(a), tril(a, -1))`` in the framework's
    terms; ``adjoint`` the conjugate transpose of the last two axes."""
    low, strict = lower_parts(stop(x))
    h = (x + adjoint(x)) / 2
    return low + adjoint(strict) + (h - stop(h))


def svdvals(xp: Any, x: Any, /) -> Any:
    return xp.linalg.svd(x, full_matrices=False)[1]


def sqrt_at_zero_zero(xp: Any, s: Any) -> Any:
    """``sqrt(s)`` of a sum of squares, whose derivative at ``s = 0`` is 0 (torch's
    subgradient of a 2-norm at the zero vector) rather than ``inf * 0 = NaN``: the
    square root of ``s`` where ``s > 0`` and of 1 elsewhere, then 0 there. Same values."""
    zero = s == 0
    nought = s * 0  # (s's dtype on every framework: paddle promotes a Python scalar)
    return xp.where(zero, nought, xp.sqrt(xp.where(zero, nought + 1, s)))


def vector_norm(
    xp: Any,
    x: Any,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    ord: float = 2,
) -> Any:
    """A vector norm over ``axis``: several axes are flattened into one vector."""
    ndim = x.ndim
    axes = _axes(axis, ndim)
    # The 2-norm of a real vector squares it as it is: abs(x) * abs(x) is the same
    # number, but an extra op whose derivative is zero at x = 0 (the norm's is not).
    a = x if ord == 2 and "complex" not in str(x.dtype) else xp.abs(x)
    if len(axes) != 1 and ndim:
        # move the reduced axes last and flatten them: one vector per remaining index
        rest = tuple(i for i in range(ndim) if i not in axes)
        a = xp.transpose(a, rest + axes)
        a = xp.reshape(a, (*a.shape[: len(rest)], -1))
        red: int | tuple[int, ...] = -1
    else:
        red = axes[0] if axes else ()
    if ord == 2:
        out = sqrt_at_zero_zero(xp, xp.sum(a * a, axis=red))
    elif ord == 1:
        out = xp.sum(a, axis=red)
    elif ord == math.inf:
        out = xp.max(a, axis=red)
    elif ord == -math.inf:
        out = xp.min(a, axis=red)
    elif ord == 0:
        out = xp.astype(xp.sum(xp.astype(a != 0, a.dtype), axis=red), a.dtype)
    else:
        out = xp.power(xp.sum(xp.power(a, ord), axis=red), 1.0 / ord)
    if keepdims:
        shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
        out = xp.reshape(out, shape)
    return out


def empty_matrix_norm(xp: Any, x: Any, /, *, keepdims: bool, ord: float | str | None) -> Any:
    """``matrix_norm`` of matrices with no row or no column, as NumPy's ``linalg.norm``:
    the norms that are a sum or a maximum (``'fro'``, ``'nuc'``, 1, 2, inf) are 0 (a
    sum of nothing; the largest of no non-negative numbers); the norms that are a minimum
    are the smallest column sum (-1: 0 where there are columns) or row sum (-inf: 0 where
    there are rows), and otherwise (-2: the smallest of no singular values) undefined: a
    ValueError. The zeros are sums of ``|x|`` over the matrix axes, so they depend on ``x``
    (an empty gradient), as the norm of a non-empty matrix does."""
    m, n = x.shape[-2], x.shape[-1]
    if ord not in ("fro", "nuc", 1, 2, math.inf, -1, -2, -math.inf):
        msg = f"matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {ord!r}"
        raise ValueError(msg)
    if ord == -2 or (ord == -1 and n == 0) or (ord == -math.inf and m == 0):
        what = "singular values" if ord == -2 else "columns" if ord == -1 else "rows"
        msg = (
            f"matrix_norm with ord={ord!r} of a {m}x{n} matrix is undefined: expected a "
            f"matrix with {what} to take the smallest of, got none (NumPy raises too). "
            f"Use a norm that is 0 for an empty matrix ('fro', 'nuc', 1, 2, inf), or "
            f"leave empty matrices out"
        )
        raise ValueError(msg)
    out = xp.sum(xp.abs(x), axis=(-2, -1))
    if keepdims:
        out = xp.reshape(out, (*out.shape, 1, 1))
    return out


def matrix_norm(
    xp: Any, x: Any, /, *, keepdims: bool = False, ord: float | str | None = "fro"
) -> Any:
    if x.ndim < 2:
        msg = f"matrix_norm needs an array of at least 2 dimensions, got {x.ndim}"
        raise ValueError(msg)
    if x.shape[-2] == 0 or x.shape[-1] == 0:
        return empty_matrix_norm(xp, x, keepdims=keepdims, ord=ord)
    a = xp.abs(x)
    if ord == "fro":
        out = sqrt_at_zero_zero(xp, xp.sum(a * a, axis=(-2, -1)))
    elif ord == "nuc":
        out = xp.sum(svdvals(xp, x), axis=-1)
    elif ord in (1, -1):
        col = xp.sum(a, axis=-2)
        out = xp.max(col, axis=-1) if ord == 1 else xp.min(col, axis=-1)
    elif ord in (math.inf, -math.inf):
        row = xp.sum(a, axis=-1)
        out = xp.max(row, axis=-1) if ord == math.inf else xp.min(row, axis=-1)
    elif ord in (2, -2):
        s = svdvals(xp, x)
        out = xp.max(s, axis=-1) if ord == 2 else xp.min(s, axis=-1)
    else:
        msg = f"matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {ord!r}"
        raise ValueError(msg)
    if keepdims:
        out = xp.reshape(out, (*out.shape, 1, 1))
    return out


# ---- complex elementwise ----------------------------------------------------------------
def acosh_branch_gradient(xp: Any, stop: Callable[[Any], Any], z: Any, out: Any) -> Any:
    """``out`` (the kernel's complex ``acosh(z)``), with the derivative of the principal
    branch, ``1 / (sqrt(z - 1) sqrt(z + 1))``: jax, autograd and paddle differentiate it
    as ``1 / sqrt(z**2 - 1)``, which has the wrong sign where ``real(z) < 0``. The value
    stays the kernel's: ``stop(out) + (f - stop(f))`` with ``f`` the principal branch's formula,
    ``log(z + sqrt(z - 1) sqrt(z + 1))`` (the kernel's value where ``f`` is not finite)."""
    f = xp.log(z + xp.sqrt(z - 1) * xp.sqrt(z + 1))
    ok = stop(xp.isfinite(xp.real(f)) & xp.isfinite(xp.imag(f)))
    return xp.where(ok, stop(out) + (f - stop(f)), out)


# ---- fft -------------------------------------------------------------------------------
def hfft(
    xp: Any, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
) -> Any:
    """The FFT of a Hermitian-symmetric signal: ``irfft(conj(x))`` with the norm swapped."""
    swapped = {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]
    return xp.fft.irfft(xp.conj(x), n=n, axis=axis, norm=swapped)


def ihfft(
    xp: Any, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
) -> Any:
    swapped = {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]
    return xp.conj(xp.fft.rfft(x, n=n, axis=axis, norm=swapped))
