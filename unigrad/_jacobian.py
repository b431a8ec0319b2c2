"""Tape-style Jacobians and Hessians: ``paddle.autograd.jacobian``/``hessian`` as tensors.

Built on `unigrad.grad` alone, so they work on every backend (torch, paddle, and
unigrad's tape for jax and numpy, and any third-party backend): one batched ``grad``
call per output, whose seeds are the rows of an identity matrix
(``is_grads_batched=True``: vmap on torch and jax).

`unigrad.functional.jacobian`/``hessian`` is the other Jacobian, and both stay because
they answer different calls. Here the outputs are already computed (``ys`` from
watched ``xs``, tape tensors on jax and numpy) and the result follows paddle's API
(``batch_axis``). There ``func`` is a function of plain arrays that the call runs itself,
with torch's API (``strict``, ``vectorize``, ``strategy``) and torch's numbers; on jax
and numpy it uses ``jax.jacrev``/``jacfwd`` or HIPS autograd, so the call composes with
``jax.jit``/``jax.grad``, which a tape cannot. On paddle, `unigrad.functional.jacobian`
and ``hessian`` run this module's functions on the outputs of ``func``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._api import namespace
from ._args import split
from ._dispatch import backend_for, owner
from ._errors import GradArgumentError, NotDifferentiableError, message
from ._grad import _flag, grad

__all__ = ["hessian", "jacobian"]


def _seq(value: Any, name: str) -> tuple[bool, tuple[Any, ...]]:
    """`split`'s rule; an empty sequence and a non-tensor refused in paddle's words."""
    is_seq, items = split(value)
    if is_seq:
        if not items:
            msg = message(
                f"`{name}` is empty",
                expected="a tensor or a non-empty sequence",
                got=f"an empty {type(value).__name__}",
                fix=f"Pass the tensor(s) as `{name}`.",
            )
            raise GradArgumentError(msg)
        return True, items
    if value is None or owner(value) is None:
        msg = message(
            f"`{name}` has the wrong type",
            expected="a tensor or a list/tuple of tensors",
            got=f"a {type(value).__name__}",
            fix=f"Pass tensors as `{name}`.",
        )
        raise GradArgumentError(msg)
    return False, items


def _batch_axis(batch_axis: Any) -> bool:
    if batch_axis is None:
        return False
    if batch_axis == 0 and not isinstance(batch_axis, bool):
        return True
    msg = message(
        "unsupported `batch_axis`",
        expected="None or 0 (paddle's rule)",
        got=repr(batch_axis),
        fix="Move the batch to dim 0 and pass batch_axis=0.",
    )
    raise GradArgumentError(msg)


def _prod(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def _reshape(xp: Any, x: Any, shape: tuple[int, ...]) -> Any:
    return xp.reshape(x, tuple(int(d) for d in shape))


def _swap01(xp: Any, x: Any, ndim: int) -> Any:
    perm = (1, 0, *range(2, ndim))
    permute = getattr(xp, "permute_dims", None)
    if permute is not None:
        return permute(x, perm)
    return xp.transpose(x, list(perm))


def _basis(be: Any, y: Any, m: int, batch: int | None) -> Any:
    """Identity seeds: ``(m, *y.shape)``, or ``(m, B, *y.shape[1:])`` for a batch."""
    import numpy as np  # lazily: `import unigrad` imports no array library

    shape = be.shape(y)
    if batch is None:
        eye = np.eye(m).reshape((m, *shape))
    else:
        eye = np.eye(m).reshape((m, 1, *shape[1:]))
        eye = np.broadcast_to(eye, (m, batch, *shape[1:])).copy()
    seed = be.cast(be.asarray(eye, "float32"), y)
    device = getattr(y, "device", None)
    if be.name == "torch" and device is not None:
        seed = seed.to(device)
    return seed


def _check_batch(be: Any, tensors: tuple[Any, ...], what: str, batch: int | None) -> int:
    for i, t in enumerate(tensors):
        shape = be.shape(t)
        if not shape:
            msg = message(
                f"{what}[{i}] has no batch dim",
                expected="dim 0 as the batch with batch_axis=0",
                got="a 0-d tensor",
                fix="Pass batch_axis=None for unbatched tensors.",
            )
            raise GradArgumentError(msg)
        if batch is None:
            batch = shape[0]
        elif shape[0] != batch:
            msg = message(
                f"{what}[{i}] has another batch size",
                expected=f"dim 0 = {batch}",
                got=f"shape {shape}",
                fix="Give ys and xs the same batch size.",
            )
            raise GradArgumentError(msg)
    if batch is None:  # pragma: no cover - tensors is never empty
        msg = "no tensor"
        raise GradArgumentError(msg)
    return batch


def _rows(
    be: Any, xp: Any, y: Any, xs: tuple[Any, ...], batch: int | None, create_graph: bool
) -> list[Any]:
    """The Jacobian blocks of one output ``y`` with respect to each of ``xs``."""
    yshape = be.shape(y)
    per = yshape if batch is None else yshape[1:]
    m = _prod(per)
    blocks: list[Any] = []
    differentiable = be.kind(y) in "fc" and be.requires_grad(y)
    if be.kind(y) not in "fc":
        msg = message(
            "an output is not differentiable",
            expected="floating-point ys",
            got=f"dtype {be.dtype_name(y)}",
            fix="Compute ys in floating point.",
        )
        raise NotDifferentiableError(msg)
    if m and differentiable:
        seeds = _basis(be, y, m, batch)
        grads = grad(
            y,
            list(xs),
            seeds,
            retain_graph=True,
            create_graph=create_graph,
            is_grads_batched=True,
            materialize_grads=True,
        )
    else:
        grads = tuple(be.zeros_like(x, m) for x in xs)
    for x, g in zip(xs, grads, strict=False):
        xshape = be.shape(x)
        if batch is None:
            blocks.append(_reshape(xp, g, (*yshape, *xshape)))
        else:
            g = _swap01(xp, g, 1 + len(xshape))  # (m, B, ...) -> (B, m, ...)
            blocks.append(_reshape(xp, g, (batch, *per, *xshape[1:])))
    return blocks


def jacobian(ys: Any, xs: Any, *, batch_axis: int | None = None, create_graph: bool = False) -> Any:
    """The Jacobian of ``ys`` with respect to ``xs``, as tensors.

    Like ``paddle.autograd.jacobian``, but the result is computed (tensors, not lazy
    objects) and any shapes work. Unused inputs get zero blocks.

    Args:
        ys: A tensor or a sequence of tensors, computed from ``xs``.
        xs: A tensor or a sequence of tensors (watched, see `unigrad.watch`).
        batch_axis: None, or 0: dim 0 of every ``ys`` and ``xs`` is a batch of
            independent samples, and the result holds one Jacobian per sample.
        create_graph: Make the result differentiable (for Hessians and beyond).

    Returns:
        For one ``ys`` and one ``xs`` a tensor of shape ``ys.shape + xs.shape`` (with
        ``batch_axis=0``: ``(B, *ys.shape[1:], *xs.shape[1:])``); a tuple over the
        sequence when one of them is a sequence; ``J[i][j]`` when both are.

    Raises:
        GradArgumentError: a wrong type, an empty sequence, a bad ``batch_axis``.
        NotDifferentiableError: an integer output or input.

    Examples:
        >>> import torch, unigrad
        >>> from unigrad._jacobian import jacobian
        >>> x = unigrad.watch(torch.tensor([1.0, 2.0]))
        >>> jacobian(x * x, x)
        tensor([[2., 0.],
                [0., 4.]])
    """
    ys_seq, ys_t = _seq(ys, "ys")
    xs_seq, xs_t = _seq(xs, "xs")
    batched = _batch_axis(batch_axis)
    _flag(create_graph, "create_graph")
    be = backend_for((("ys", ys_t), ("xs", xs_t)))
    batch = None
    if batched:
        batch = _check_batch(be, ys_t, "ys", None)
        _check_batch(be, xs_t, "xs", batch)
    xp = namespace(*xs_t)
    rows = tuple(tuple(_rows(be, xp, y, xs_t, batch, create_graph)) for y in ys_t)
    if not xs_seq:
        rows = tuple((r[0],) for r in rows)
        res: Any = tuple(r[0] for r in rows)
    else:
        res = rows
    return res if ys_seq else res[0]


def hessian(y: Any, xs: Any, *, batch_axis: int | None = None, create_graph: bool = False) -> Any:
    """The Hessian of the scalar ``y`` with respect to ``xs``, as tensors.

    Like ``paddle.autograd.hessian``: the Jacobian of the gradient, computed with
    `unigrad.grad` (``create_graph=True`` inside).

    Args:
        y: A tensor with one element (with ``batch_axis=0``: shape ``(B,)`` or
            ``(B, 1)``, one scalar per sample).
        xs: A tensor or a sequence of tensors.
        batch_axis: None, or 0 (dim 0 of ``y`` and ``xs`` is a batch).
        create_graph: Make the result differentiable (third order and beyond).

    Returns:
        For one ``xs`` a tensor of shape ``xs.shape + xs.shape`` (with ``batch_axis=0``:
        ``(B, *xs.shape[1:], *xs.shape[1:])``); for a sequence ``H[i][j]``.

    Examples:
        >>> import torch, unigrad
        >>> from unigrad._jacobian import hessian
        >>> x = unigrad.watch(torch.tensor([1.0, 2.0]))
        >>> hessian((x ** 3).sum(), x)
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    if isinstance(y, (list, tuple)) or y is None or owner(y) is None:
        msg = message(
            "`y` must be one tensor",
            expected="a tensor with one element",
            got=f"a {type(y).__name__}",
            fix="Pass the scalar loss as `y`.",
        )
        raise GradArgumentError(msg)
    xs_seq, xs_t = _seq(xs, "xs")
    batched = _batch_axis(batch_axis)
    be = backend_for((("y", (y,)), ("xs", xs_t)))
    shape = be.shape(y)
    ok = (
        (_prod(shape) == 1)
        if not batched
        else (len(shape) == 1 or (len(shape) == 2 and shape[1] == 1))
    )
    if not ok:
        expected = "one element" if not batched else "shape (B,) or (B, 1)"
        msg = message(
            "`y` is not a scalar",
            expected=expected,
            got=f"shape {shape}",
            fix="Reduce y (e.g. .sum()) before the Hessian.",
        )
        raise GradArgumentError(msg)
    if be.kind(y) not in "fc" or be.kind(y) == "c":
        msg = message(
            "`y` is not a real floating-point tensor",
            expected="a real floating-point y",
            got=f"dtype {be.dtype_name(y)}",
            fix="Take the real part, or compute in floating point.",
        )
        raise NotDifferentiableError(msg)
    if be.requires_grad(y):
        gs = grad(y, list(xs_t), retain_graph=True, create_graph=True, materialize_grads=True)
    else:
        gs = tuple(be.zeros_like(x) for x in xs_t)
    h = jacobian(list(gs), list(xs_t), batch_axis=batch_axis, create_graph=create_graph)
    return h if xs_seq else h[0][0]
