"""Closed forms of array operations: reductions, shapes, indexing, joins, ``matmul``,
norms, cumulative and statistical functions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._rules import full_range
from ._core import KINK, RV, Degenerate, _dt, _mk, cut
from ._elementwise import (
    _cj,
    absolute,
    broadcast_to,
    conj,
    mul,
    real,
    reshape,
    rsum,
    scale,
    sqrt,
    sub,
)


def mean(a: RV, axis: Any, keepdims: bool) -> RV:
    s = rsum(a, axis, keepdims)
    n = a.v.size // max(s.v.size, 1) if a.v.size else 1
    return scale(s, 1.0 / n)


def permute(a: RV, axes: tuple[int, ...]) -> RV:
    inv = tuple(int(i) for i in np.argsort(axes))

    def apply(a: RV) -> RV:
        return permute(a, axes)

    return _mk(np.transpose(a.v, axes), a.dtype, (a,), apply, lambda ct, a: (permute(ct, inv),))


def getitem(a: RV, idx: Any, alias: bool = False) -> RV:
    """``a[idx]``; ``alias``: a program's own index, which may be a full-range slice
    (row 17); the oracle's internal indexing never is one."""

    def apply(a: RV) -> RV:
        return getitem(a, idx, alias)

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (scatter(ct, idx, a.shape),)

    out = _mk(np.asarray(a.v[idx]).copy(), a.dtype, (a,), apply, vjp)
    out.full_slice = alias and full_range(idx, a.shape)
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


def take_flat(a: RV, index: np.ndarray) -> RV:
    """``reshape(a, (-1,))[index]``: every gather of the namespace (flip, roll, tile,
    repeat, moveaxis, sort, take, diagonal...) as one recorded index whose VJP scatters."""
    return getitem(reshape(a, (a.v.size,)), np.asarray(index, dtype=np.int64))


def gather(a: RV, how: Any) -> RV:
    """The values of ``a`` where ``how`` (a NumPy function of an index array of ``a``'s
    shape) moves them: ``gather(a, lambda i: np.flip(i, 0))`` is ``flip(a, axis=0)``."""
    return take_flat(a, how(np.arange(a.v.size).reshape(a.shape)))


def _reduced(a: RV, axis: Any) -> tuple[int, ...]:
    nd = a.v.ndim
    if axis is None:
        return tuple(range(nd))
    ax = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(sorted(i % max(nd, 1) for i in ax))


def rmax(a: RV, axis: Any, keepdims: bool, smallest: bool = False) -> RV:
    """max/min along ``axis``: ``sum(a * onehot)`` with a constant one-hot mask."""
    ax = _reduced(a, axis)
    rest = tuple(i for i in range(a.v.ndim) if i not in ax)
    n = int(np.prod([a.shape[i] for i in ax]))  # (not -1: the rest may be empty)
    moved = np.transpose(a.v, rest + ax).reshape((*[a.shape[i] for i in rest], n))
    key = -moved if smallest else moved
    if moved.shape[-1] > 1:
        top = np.sort(key, axis=-1)
        if np.any(top[..., -1] - top[..., -2] < KINK):
            msg = "max/min at a tie"
            raise Degenerate(msg)
    hot = np.zeros_like(moved)
    np.put_along_axis(hot, np.argmax(key, axis=-1)[..., None], 1.0, axis=-1)
    back = hot.reshape((*[a.shape[i] for i in rest], *[a.shape[i] for i in ax]))
    mask = np.transpose(back, np.argsort(rest + ax))
    return rsum(mul(a, cut(mask, a.dtype)), axis, keepdims)


def rprod(a: RV, axis: Any, keepdims: bool) -> RV:
    """The product along ``axis`` as a chain of multiplies of single-element slices of
    ``a`` (its reduced axes moved last and flattened): each link is a product of one
    more factor, so the k-th derivative depends on ``a`` for ``k < n`` and is a constant
    from ``k = n`` on (rule 14, docs/semantics.md "Dependence"); no division, exact at
    zeros. A product of one factor is that factor."""
    ax = _reduced(a, axis)
    shape = a.shape
    rest = tuple(i for i in range(a.v.ndim) if i not in ax)
    n = int(np.prod([shape[i] for i in ax]))
    out_shape = tuple(1 if i in ax else d for i, d in enumerate(shape)) if keepdims else None
    if n == 0:  # the empty product: ones, on a node of ``a`` (its gradient is empty)

        def apply(a: RV) -> RV:
            return rprod(a, axis, keepdims)

        def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
            kept = tuple(1 if i in ax else d for i, d in enumerate(shape))
            return (broadcast_to(reshape(ct, kept), shape),)

        return _mk(np.prod(a.v, axis=ax, keepdims=keepdims), a.dtype, (a,), apply, vjp)
    moved = permute(a, rest + ax) if rest + ax != tuple(range(a.v.ndim)) else a
    flat = reshape(moved, (*[shape[i] for i in rest], n))
    lead = (slice(None),) * len(rest)
    out = getitem(flat, (*lead, 0))
    for k in range(1, n):
        out = mul(out, getitem(flat, (*lead, k)))
    return reshape(out, out_shape) if out_shape is not None else out


def moveaxis(a: RV, src: int, dst: int) -> RV:
    order = list(range(a.v.ndim))
    order.insert(dst % a.v.ndim, order.pop(src % a.v.ndim))
    return permute(a, tuple(order))


def cumsum(a: RV, axis: int, include_initial: bool) -> RV:
    """``a @ triu(ones)`` along ``axis`` (a matmul with a constant)."""
    n = a.shape[axis]
    last = moveaxis(a, axis, -1)
    # (the rows from the other axes, not the size: an empty one along another axis has
    # none; differential seed 9346, program 633)
    flat = reshape(last, (int(np.prod(last.shape[:-1], dtype=np.int64)), n))
    tri = cut(np.triu(np.ones((n, n))), a.dtype)
    out = reshape(matmul(flat, tri), last.shape)
    if include_initial:
        out = concat([cut(np.zeros((*last.shape[:-1], 1)), a.dtype), out], -1)
    return moveaxis(out, -1, axis)


def cumprod(a: RV, axis: int, include_initial: bool) -> RV:
    """The running products ``c_k = c_{k-1} * a[k]`` along ``axis``, stacked: ``c_k``'s
    derivatives of order ``k + 1`` and higher are constants (as `rprod`)."""
    ax = axis % a.v.ndim
    n = a.shape[ax]
    if n == 0:  # no products: the empty array itself (after a one, with include_initial)
        out = reshape(a, a.shape)
        if include_initial:
            ones = np.ones(tuple(1 if i == ax else d for i, d in enumerate(a.shape)))
            out = concat([cut(ones, a.dtype), out], ax)
        return out
    parts = [getitem(a, (slice(None),) * ax + (0,))]
    for k in range(1, n):
        parts.append(mul(parts[-1], getitem(a, (slice(None),) * ax + (k,))))
    if include_initial:
        parts.insert(0, cut(np.ones(parts[0].shape if parts else ()), a.dtype))
    return stack(parts, ax)


def var(a: RV, axis: Any, correction: float, keepdims: bool) -> RV:
    ax = _reduced(a, axis)
    n = int(np.prod([a.shape[i] for i in ax])) if ax else 1
    if n - correction <= 0:
        msg = "var with no degrees of freedom"
        raise Degenerate(msg)
    d = sub(a, broadcast_to(mean(a, ax, True), a.shape))
    return scale(rsum(mul(d, d), ax, keepdims), 1.0 / (n - correction))


def std(a: RV, axis: Any, correction: float, keepdims: bool) -> RV:
    v = var(a, axis, correction, keepdims)
    if np.any(v.v < 0.01):
        msg = "std near 0"
        raise Degenerate(msg)
    return sqrt(v)


def tri_mask(a: RV, k: int, lower: bool) -> RV:
    m, n = a.shape[-2:]
    mask = np.tril(np.ones((m, n)), k) if lower else np.triu(np.ones((m, n)), k)
    return mul(a, cut(mask, a.dtype))


def at(a: RV, *idx: Any) -> RV:
    """An element or slice of ``a`` (internal indexing)."""
    return getitem(a, idx)
