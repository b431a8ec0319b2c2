"""The recompile warning: a loop that compiles the jax tape's gradient function on every
call, because one static argument of one op changes each time.

`RECOMPILES` is told each miss of the ``gradients`` cache (`unigrad.tape._plan`).
"""

from __future__ import annotations

import os
import sys
import warnings
from collections import deque
from types import FrameType
from typing import Any

from .._errors import message
from ._caches import Key

__all__ = ["RECOMPILES", "RecompileWarning", "Recompiles"]


class Recompiles:
    """Notices a loop that compiles on every call because one static argument changes.

    Each cache miss is compared with the last few: a miss that differs from one of them
    only in one static argument of one op counts; ``_WARN_AFTER`` such misses in a row
    warn, once per process.
    """

    __slots__ = ("recent", "run", "warned")

    def __init__(self) -> None:
        self.recent: deque[Any] = deque(maxlen=4)
        self.run = 0
        self.warned = False

    def miss(self, key: Any) -> None:
        if self.warned:
            return
        what = None
        for prev in reversed(self.recent):
            what = _changed_static(prev, key)
            if what is not None:
                break
        self.recent.append(key)
        self.run = 0 if what is None else self.run + 1
        if what is not None and self.run >= _WARN_AFTER:
            self.warned = True
            warnings.warn(
                message(
                    "the jax tape compiles a new gradient function on every call",
                    expected="a graph whose static arguments repeat between calls",
                    got=f"{what}, new on each of the last {self.run + 1} compilations",
                    fix="Pass the changing value as an array (jnp.asarray(v)) or as an "
                    "operand of an operator (x * v), which are not compiled in; see "
                    "unigrad.tape.set_cache_size for the cache bound.",
                ),
                RecompileWarning,
                stacklevel=_user_stacklevel(),
            )


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _user_stacklevel() -> int:
    """The ``stacklevel`` of the first caller outside the unigrad package."""
    frame: FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    return level


class RecompileWarning(UserWarning):
    """A loop recompiles the jax tape's gradient function on every call."""


RecompileWarning.__module__ = "unigrad.tape"
_WARN_AFTER = 8
RECOMPILES = Recompiles()


def _changed_static(old: Any, new: Any) -> str | None:
    """Which static argument of which op differs between two keys of one graph, or None."""
    if isinstance(old, Key) and isinstance(new, Key):
        old, new = old.value, new.value
    try:
        (old_nodes, *old_rest), *old_call = old
        (new_nodes, *new_rest), *new_call = new
    except (TypeError, ValueError):
        return None
    if old_call != new_call or old_rest != new_rest or len(old_nodes) != len(new_nodes):
        return None
    found = None
    for (k1, *r1), (k2, *r2) in zip(old_nodes, new_nodes, strict=True):
        if r1 != r2:
            return None
        if k1 == k2:
            continue
        if found is not None or not (isinstance(k1, tuple) and isinstance(k2, tuple)):
            return None
        if len(k1) != len(k2) or k1[0] != k2[0]:
            return None
        # a create_graph gradient's node: the difference is inside the graph it replays
        found = _changed_static(k1[1], k2[1]) if k1[0] == "vjp" else _describe(k1, k2)
        if found is None:
            return None
    return found


def _describe(k1: tuple[Any, ...], k2: tuple[Any, ...]) -> str:
    """``argument 1 of clip (0.1, then 0.2)`` from two node keys (op, ..., statics, ...)."""
    op = getattr(k1[0], "__name__", None) or repr(k1[0])
    for part1, part2 in zip(k1[1:], k2[1:], strict=True):
        if part1 == part2 or not isinstance(part1, tuple) or len(part1) != len(part2):
            continue
        for s1, s2 in zip(part1, part2, strict=True):
            if s1 != s2 and isinstance(s1, tuple) and len(s1) == 2 and isinstance(s1[0], int):
                v1, v2 = _static_value(s1[1]), _static_value(s2[1])
                return f"argument {s1[0]} of {op} ({v1!r}, then {v2!r})"
    return f"a static argument of {op}"


def _static_value(skey: Any) -> Any:
    """The value in a static key ``(type, value)``; the key itself otherwise."""
    if isinstance(skey, tuple) and len(skey) == 2 and isinstance(skey[0], type):
        return skey[1]
    return skey
