"""paddle formulations of reductions, cumulative ops, einsum, sort, roll and diagonal,
differentiable to any order where paddle 3.3.1's kernels have no double-grad op (the
elementwise ones and the shared helpers are in `_paddle_ho`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import paddle

from . import _common as c
from ._paddle_ho import _MAX_ELEMENTS, exact, needs
from ._paddle_list_ops import told

__all__ = ["cumprod", "cumsum", "diagonal", "einsum", "logsumexp", "reduce_extreme", "roll", "sort"]


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
    paddle's kernel alone); an empty axis's is ``x * 1``."""
    n = x.shape[axis]
    if n == 0:  # no sums: the empty tensor itself, on a node of ``x``
        return x * 1
    if n > 4096:
        return paddle.cumsum(x, axis=axis)
    with paddle.no_grad():
        y = paddle.cumsum(x.detach(), axis=axis)
        tri = paddle.triu(paddle.ones([n, n], dtype=x.dtype))
    xm = paddle.moveaxis(x, axis, -1)
    f = paddle.moveaxis(paddle.matmul(xm, tri), -1, axis)
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
        return told(paddle.einsum(subscripts, *operands), operands)
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
        return told(paddle.einsum(subscripts, *operands), operands)
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
    """``paddle.cumprod``'s value with the derivatives of `_common.running_products`, one
    multiply each (``cumprod_grad`` has no gradient); axes up to 1024 long (beyond
    that, paddle's kernel alone); an empty axis's is ``x * 1``."""
    n = x.shape[axis]
    if n == 0:  # no products: the empty tensor itself, on a node of ``x``
        return x * 1
    if n > 1024:
        return paddle.cumprod(x, dim=axis)
    with paddle.no_grad():
        y = paddle.cumprod(x.detach(), dim=axis)
    return exact(y, c.running_products(paddle, x, axis))
