"""The ``torch.Tensor`` operators unigrad wraps, each passing every other call to torch.

Installed once, when the torch backend loads (`install`); a wrapper is marked, so a
second load wraps nothing twice:

* ``a @ b`` between torch tensors of two dtypes: computed as the namespace's ``matmul``
  (``unigrad.namespace(a).matmul``), which promotes as the ``@`` of the numpy and jax
  tapes and of paddle do; torch 2.13's ``@`` raises ``RuntimeError: expected m1 and m2 to
  have the same dtype`` (``addmv input tensors must have the same dtype`` for a vector)
  there. Operands of one dtype, and any operand that is not a torch tensor, go to
  torch's own operator unchanged.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import torch

__all__ = ["install"]

#: Set on a wrapper, so that a second `install` leaves it alone.
_MARK = "_unigrad_promoting_matmul"


def _promoting(original: Callable[..., Any], reflected: bool) -> Callable[..., Any]:
    """``original`` (``__matmul__`` or ``__rmatmul__``), promoting mixed dtypes."""

    @functools.wraps(original)
    def op(self: Any, other: Any) -> Any:
        if isinstance(other, torch.Tensor) and other.dtype != self.dtype:
            from ..._array_api._torch import build

            a, b = (other, self) if reflected else (self, other)
            return build().matmul(a, b)
        return original(self, other)

    setattr(op, _MARK, True)
    return op


def install() -> None:
    """Wrap ``Tensor.__matmul__`` and ``Tensor.__rmatmul__`` (once per process)."""
    cls = torch.Tensor
    for name, reflected in (("__matmul__", False), ("__rmatmul__", True)):
        original = getattr(cls, name)
        if getattr(original, _MARK, False):
            continue
        setattr(cls, name, _promoting(original, reflected))
