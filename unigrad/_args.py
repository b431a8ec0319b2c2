"""The container rule every entry point shares: which arguments hold several tensors.

`unigrad.grad`/`backward`, `unigrad.jacobian`/`hessian` and `unigrad.functional` all
take "a tensor or a sequence of tensors" and answer with the same structure. What counts
as a sequence is decided here, once: a ``list`` or a ``tuple`` (a namedtuple or a list
subclass too), read as a plain tuple. Each entry point then applies its own API's
refusals (empty, None, wrong type), whose messages name that API's arguments; `grad`
also reads other ordered iterables (a generator) as sequences, as torch does.
"""

from __future__ import annotations

from typing import Any

__all__ = ["split"]


def split(value: Any) -> tuple[bool, tuple[Any, ...]]:
    """``(True, items)`` for a list or a tuple, ``(False, (value,))`` for anything else.

    Examples:
        >>> split([1, 2])
        (True, (1, 2))
        >>> split(3)
        (False, (3,))
    """
    if isinstance(value, (list, tuple)):
        # a plain tuple: torch's engine takes exact tuples only ("inputs to
        # run_backward must be a tuple", torch 2.13); tuple(t) of an exact tuple is t
        return True, tuple(value)
    return False, (value,)
