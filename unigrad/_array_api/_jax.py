"""The jax tape's primitive namespace: ``jax.numpy``, which implements the standard.

``jax.numpy`` is an array API namespace of its own (and ``jax.vjp`` differentiates all of
it), so this is ``jax.numpy`` itself, save the rules where it departs from the standard:
``finfo``/``iinfo`` (NumPy's objects, whose limits are NumPy scalars, not Python numbers).
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
    ns.finfo = c.bind(c.finfo, jnp, "finfo")
    ns.iinfo = c.bind(c.iinfo, jnp, "iinfo")
    ns.__array_namespace_info__ = jnp.__array_namespace_info__
    return ns
