"""The namespace for torch tensors: ``array_api_compat.torch`` with unigrad's corrections.

Every name not defined here is ``array_api_compat.torch``'s (module ``__getattr__``). The
corrections make results obey the contract where torch's own function does not:

* ``positive`` returns a new tensor: torch's ``positive`` returns its argument itself, so
  ``xp.positive(y)`` could not be told apart from ``y`` (a ``no_grad_vars`` cut on it
  would cut ``y``).
* ``floor_divide`` is piecewise constant: its derivative is zero wherever it exists, and
  its result carries no history (rule 14); torch 2.x records a node whose backward raises
  "derivative for aten::floor_divide is not implemented" (pytorch/pytorch#43327).
* ``copysign(x1, x2)`` reads only ``x2``'s sign, so ``x2`` is no dependence (rule 14): it
  enters detached (torch records a zero derivative for it, which makes it "used"), and
  the derivative in ``x1`` (+1 or -1) is a constant.
"""

from __future__ import annotations

from typing import Any

import array_api_compat.torch as _compat
import torch

__all__ = ["copysign", "floor_divide", "positive"]


def _detached(x: Any) -> Any:
    return x.detach() if isinstance(x, torch.Tensor) else x


def positive(x: Any, /) -> Any:
    """``+x`` as a new tensor (torch's ``positive`` returns ``x`` itself)."""
    return torch.clone(_compat.positive(x))


def floor_divide(x1: Any, x2: Any, /) -> Any:
    """``floor(x1 / x2)``, with no history: its derivative is zero (rule 14)."""
    return _compat.floor_divide(_detached(x1), _detached(x2))


def copysign(x1: Any, x2: Any, /) -> Any:
    """``|x1|`` with ``x2``'s sign; ``x2`` enters detached (rule 14).

    Where ``x1`` requires grad the result is ``x1`` or ``-x1`` picked by a constant mask
    (``torch.where``), so its derivative (+1 or -1) carries no history either: torch's own
    backward of ``copysign`` is ``grad * result / self``-like, which keeps ``x1`` in the
    graph of a ``create_graph`` gradient that is constant.
    """
    value = _compat.copysign(_detached(x1), _detached(x2))
    if not (isinstance(x1, torch.Tensor) and x1.requires_grad):
        return value
    flip = torch.signbit(value) != torch.signbit(x1.detach())
    return torch.where(flip, -x1, x1).to(value.dtype)


def __getattr__(name: str) -> Any:
    return getattr(_compat, name)


def __dir__() -> list[str]:
    return sorted(set(dir(_compat)) | set(__all__))
