"""The ``torch.Tensor`` operators unigrad wraps, each passing every other call to torch.

Installed once, when the torch backend loads (`install`); a wrapper is marked, so a
second load wraps nothing twice:

* ``a @ b`` between torch tensors of two dtypes: computed as the namespace's ``matmul``
  (``unigrad.namespace(a).matmul``), which promotes as the ``@`` of the numpy and jax
  tapes and of paddle do; torch 2.13's ``@`` raises ``RuntimeError: expected m1 and m2 to
  have the same dtype`` (``addmv input tensors must have the same dtype`` for a vector)
  there. Operands of one dtype, and any operand that is not a torch tensor, go to
  torch's own operator unchanged.
* ``a // b`` where an operand is a tensor that requires grad: computed as the
  namespace's ``floor_divide``, whose result carries no history (piecewise constant:
  rule 14), as on the other backends; torch 2.13 records a ``NotImplemented`` node whose
  backward raises ``RuntimeError: derivative for aten::floor_divide is not implemented``
  (pytorch/pytorch#43327). Operands that do not require grad go to torch's own operator.
* ``+t`` for a tensor ``t`` that requires grad: a new tensor, as the namespace's
  ``positive`` gives it (torch 2.13's ``+t`` returns ``t`` itself, so a pass that
  consumed ``+t``'s node consumed nothing: differential seed 9920, program 968).
* ``n % t`` for a Python number ``n`` and a tensor ``t`` that requires grad: computed as
  the namespace's ``remainder``; torch 2.13's ``remainder(Scalar, Tensor)`` has no
  derivative ("derivative for aten::remainder is not implemented").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import torch

__all__ = ["install"]

#: Set on a wrapper, so that a second `install` leaves it alone.
_MARK = "_unigrad_promoting_matmul"

#: Set on a ``//``, ``%`` or unary ``+`` wrapper, so that a second `install` leaves it
#: alone.
_OPERATOR_MARK = "_unigrad_operator"


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


def _constant_floordiv(original: Callable[..., Any], reflected: bool) -> Callable[..., Any]:
    """``original`` (``__floordiv__`` or ``__rfloordiv__``), without history where an
    operand requires grad."""

    @functools.wraps(original)
    def op(self: Any, other: Any) -> Any:
        if self.requires_grad or (isinstance(other, torch.Tensor) and other.requires_grad):
            from ..._array_api._torch import build

            a, b = (other, self) if reflected else (self, other)
            return build().floor_divide(a, b)
        return original(self, other)

    setattr(op, _OPERATOR_MARK, True)
    return op


def _remainder_of_a_number(original: Callable[..., Any]) -> Callable[..., Any]:
    """``original`` (``__rmod__``: ``n % t`` for a Python number ``n``), computed as the
    namespace's ``remainder`` where ``t`` requires grad."""

    @functools.wraps(original)
    def op(self: Any, other: Any) -> Any:
        if self.requires_grad and type(other) in (int, float):
            from ..._array_api._torch import build

            return build().remainder(other, self)
        return original(self, other)

    setattr(op, _OPERATOR_MARK, True)
    return op


def _positive_copy(original: Callable[..., Any]) -> Callable[..., Any]:
    """``original`` (``__pos__``), a new tensor where ``self`` requires grad."""

    @functools.wraps(original)
    def op(self: Any) -> Any:
        if self.requires_grad:
            from ..._array_api._torch import build

            return build().positive(self)
        return original(self)

    setattr(op, _OPERATOR_MARK, True)
    return op


def install() -> None:
    """Wrap ``Tensor.__matmul__``, ``__rmatmul__``, ``__floordiv__``,
    ``__rfloordiv__``, ``__rmod__`` and ``__pos__`` (once per process)."""
    cls = torch.Tensor
    for name, reflected in (("__matmul__", False), ("__rmatmul__", True)):
        original = getattr(cls, name)
        if getattr(original, _MARK, False):
            continue
        setattr(cls, name, _promoting(original, reflected))
    for name, reflected in (("__floordiv__", False), ("__rfloordiv__", True)):
        original = getattr(cls, name)
        if getattr(original, _OPERATOR_MARK, False):
            continue
        setattr(cls, name, _constant_floordiv(original, reflected))
    if not getattr(cls.__rmod__, _OPERATOR_MARK, False):
        cls.__rmod__ = _remainder_of_a_number(cls.__rmod__)
    if not getattr(cls.__pos__, _OPERATOR_MARK, False):
        cls.__pos__ = _positive_copy(cls.__pos__)
