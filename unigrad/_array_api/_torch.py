"""torch's portable namespace: array-api-compat's, plus unigrad's extension set.

``array_api_compat.torch`` implements the standard over torch; unigrad exposes it through
`unigrad._array_api._portable.Portable`, which hides the rest of torch it re-exports,
and adds the extension set (``EXTENSIONS``) with the signatures of docs/namespace.md.
"""

from __future__ import annotations

import functools
from typing import Any

from ._portable import Portable, portable

__all__ = ["build"]


@functools.cache
def build() -> Portable:
    """The namespace (built once)."""
    import array_api_compat.torch as xp
    import torch

    def _dims(x: Any, axis: Any) -> tuple[int, ...]:
        if axis is None:
            return tuple(range(x.ndim))
        return tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)

    def einsum(subscripts: str, /, *operands: Any) -> Any:
        return torch.einsum(subscripts, *operands)

    def logsumexp(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        dims = _dims(x, axis)
        if not dims:  # a 0-d array, or axis=(): nothing is reduced
            return x.clone()
        return torch.logsumexp(x, dim=dims, keepdim=keepdims)

    def sigmoid(x: Any, /) -> Any:
        return torch.sigmoid(x)

    def softplus(x: Any, /) -> Any:
        # not torch.nn.functional.softplus: its threshold=20 returns x above 20, which is
        # off by log1p(exp(-x)) (2e-9 at 20); logaddexp(x, 0) is exact everywhere
        return torch.logaddexp(x, torch.zeros_like(x))

    def relu(x: Any, /) -> Any:
        return torch.relu(x)

    def erf(x: Any, /) -> Any:
        return torch.erf(x)

    def softmax(x: Any, /, *, axis: int = -1) -> Any:
        return torch.softmax(x, dim=axis)

    def log_softmax(x: Any, /, *, axis: int = -1) -> Any:
        return torch.log_softmax(x, dim=axis)

    ext = {
        f.__name__: f
        for f in (einsum, logsumexp, sigmoid, softplus, relu, erf, softmax, log_softmax)
    }
    return portable(xp, ext)
