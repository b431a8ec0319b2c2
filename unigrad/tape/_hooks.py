"""What the tape takes from the layers above it, handed in by `unigrad.backends._tape`.

The tape is a layer below the backends: it imports neither the front (``unigrad._grad``,
``unigrad._compile``, ``unigrad._dispatch``) nor a backend's module. The few things it
needs from them are handed in once, when ``unigrad.backends._tape`` is imported (which
happens before any tape tensor exists: tape tensors are made by `unigrad.watch`,
`unigrad.lift` and `unigrad.namespace`, all of which load the backend first):

* ``full_range``: whether an index selects all of a tensor (the full-range-slice rule,
  ``docs/semantics.md`` rule 17), read by ``Tensor.__getitem__``;
* ``consume_epoch``, ``carried_now``, ``check_carried``: rule 6's stamps and check
  (``unigrad.backends._carried``), read when a pass consumes nodes or meets a
  ``create_graph`` result;
* ``backward``: ``unigrad.backward``, which ``Tensor.backward`` calls;
* ``owner``: the backend owning a value's type, or None (an operator's operand of another
  framework is refused by name).

Lifetime: one `Hooks` object per process (`HOOKS`), filled by `install_hooks` and read at call
time; until then each hook raises `TapeError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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

    __slots__ = ("backward", "carried_now", "check_carried", "consume_epoch", "full_range", "owner")

    def __init__(self) -> None:
        self.full_range: Callable[[Any, tuple[int, ...]], bool] = _missing
        self.consume_epoch: Callable[[], int] = _missing
        self.carried_now: Callable[[], int] = _missing
        self.check_carried: Callable[[Iterable[Any], Callable[[Any], int], int], None] = _missing
        self.backward: Callable[..., None] = _missing
        self.owner: Callable[[Any], Any] = _missing


HOOKS = Hooks()


def install_hooks(
    *,
    full_range: Callable[[Any, tuple[int, ...]], bool],
    consume_epoch: Callable[[], int],
    carried_now: Callable[[], int],
    check_carried: Callable[[Iterable[Any], Callable[[Any], int], int], None],
    backward: Callable[..., None],
    owner: Callable[[Any], Any],
) -> None:
    """Connect the tape to the layers above it (called once, by ``unigrad.backends._tape``)."""
    HOOKS.full_range = full_range
    HOOKS.consume_epoch = consume_epoch
    HOOKS.carried_now = carried_now
    HOOKS.check_carried = check_carried
    HOOKS.backward = backward
    HOOKS.owner = owner
