"""The jax tape's primitive namespace: ``jax.numpy``, which implements the standard.

``jax.numpy`` is an array API namespace of its own (and ``jax.vjp`` differentiates all of
it), so this is ``jax.numpy`` itself, save the rules where it departs from the standard:
``finfo``/``iinfo`` (NumPy's objects, whose limits are NumPy scalars, not Python numbers)
``searchsorted`` (int32 indices even where the namespace's indexing dtype is int64) and
``sign`` (``sign(-0.0)`` is -0.0 in jax, +0 in the standard).
"""

from __future__ import annotations

import functools
from typing import Any

from . import _common as c
from ._autograd import _Module

__all__ = ["build"]


@functools.cache
def build() -> Any:
    """The namespace (built once)."""
    import jax.numpy as jnp

    ns = _Module("unigrad._array_api.jax_tape", jnp)

    def searchsorted(
        x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None
    ) -> Any:  # not differentiable (indices): the default indexing dtype
        out = jnp.searchsorted(x1, x2, side=side, sorter=sorter)
        return out.astype(jnp.__array_namespace_info__().default_dtypes()["indexing"])

    def sign(x: Any, /) -> Any:
        return jnp.sign(x) + 0  # -0.0 + 0 is +0.0; values and gradients otherwise jnp's

    vars(ns).update(
        sign=sign,
        finfo=c.bind(c.finfo, jnp, "finfo"),
        iinfo=c.bind(c.iinfo, jnp, "iinfo"),
        searchsorted=searchsorted,
        __array_namespace_info__=jnp.__array_namespace_info__,
    )
    return ns
