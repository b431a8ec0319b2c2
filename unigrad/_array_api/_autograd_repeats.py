"""The numpy tape's ``repeat`` and ``tile``: autograd 1.9.1's rules for them fall short,
so both index with the repeated positions (autograd sums the repeats back)."""

from __future__ import annotations

from typing import Any

from . import _common as c

__all__ = ["repeat", "tile"]


def repeat(xp: Any, x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    # autograd's repeat VJP (1.9.1 numpy_vjps.grad_repeat) slices the shape with a negative
    # axis as it were positive (wrong gradients along axis=-1) and takes int repeats only:
    # index with the repeated positions instead (autograd sums the repeats back)
    import numpy as np
    from autograd.tracer import getval

    if axis is None:
        x = xp.reshape(x, (-1,))
        axis = 0
    axis = c.normalize_axis(axis, xp.ndim(x))
    idx: Any = np.repeat(np.arange(xp.shape(x)[axis]), np.asarray(getval(repeats)))
    return _along(xp, x, axis, idx)


def tile(xp: Any, x: Any, repetitions: Any, /) -> Any:
    # autograd's tile VJP (1.9.1 numpy_vjps.grad_tile) splits the gradient into
    # ``repetitions[i]`` pieces: a raw ZeroDivisionError for a zero. With a zero, index
    # with the tiled positions instead (no element: an empty result on a node of x)
    import numpy as np

    reps = tuple(int(r) for r in repetitions)
    if all(reps):
        return xp.tile(x, reps)
    nd = max(xp.ndim(x), len(reps))
    out = xp.reshape(x, (1,) * (nd - xp.ndim(x)) + tuple(xp.shape(x)))
    for axis, r in enumerate((1,) * (nd - len(reps)) + reps):
        out = _along(xp, out, axis, np.tile(np.arange(xp.shape(out)[axis]), r))
    return out


def _along(xp: Any, x: Any, axis: int, idx: Any) -> Any:
    """``x`` indexed by ``idx`` along ``axis`` (an integer array of positions)."""
    return xp.moveaxis(xp.moveaxis(x, axis, 0)[idx], 0, axis)
