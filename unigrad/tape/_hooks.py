"""What the tape takes from the layers above it, handed in by `unigrad.backends._tape`.

The tape is a layer below the backends: it imports neither the front (``unigrad._grad``,
``unigrad._compile``, ``unigrad._dispatch``) nor a backend's module (the contract's
rules, `unigrad.contract`, lie below it and are imported). The two things it needs from
above are handed in once, when ``unigrad.backends._tape`` is imported (which
happens before any tape tensor exists: tape tensors are made by `unigrad.watch`,
`unigrad.lift` and `unigrad.namespace`, all of which load the backend first):

* ``backward``: ``unigrad.backward``, which ``Tensor.backward`` calls;
* ``owner``: the backend owning a value's type, or None (an operator's operand of another
  framework is refused by name).

Lifetime: one `Hooks` object per process (`HOOKS`), filled by `install_hooks` and read at call
time; until then each hook raises `TapeError`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._errors import TapeError, message

__all__ = ["HOOKS", "Hooks", "install_hooks"]

_NOT_INSTALLED = message(
    "the tape was used before its backend was loaded",
    expected="tape tensors made by unigrad.watch, unigrad.lift or unigrad.namespace "
    "(they load the jax or numpy backend, which connects the tape to the rest of unigrad)",
    got="a tape tensor made directly, with no jax or numpy backend loaded",
    fix="Make tape tensors with unigrad.watch(x) instead of the Tensor class.",
)


def _missing(*args: Any, **kwargs: Any) -> Any:
    raise TapeError(_NOT_INSTALLED)


class Hooks:
    """The callables the tape reads from the layers above it (see the module docstring)."""

    __slots__ = ("backward", "owner")

    def __init__(self) -> None:
        self.backward: Callable[..., None] = _missing
        self.owner: Callable[[Any], Any] = _missing


HOOKS = Hooks()


def install_hooks(
    *,
    backward: Callable[..., None],
    owner: Callable[[Any], Any],
) -> None:
    """Connect the tape to the layers above it (called once, by ``unigrad.backends._tape``)."""
    HOOKS.backward = backward
    HOOKS.owner = owner
