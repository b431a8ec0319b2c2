"""`checks`: strict mode (the contract, every rule) or fast mode (the rules that decide a
value, without the bookkeeping that only detects misuse).

The level is read once per call by the front (`fast`) and handed to the backend in its
request (``GradRequest.fast``, ``BackwardRequest.fast``). It is a process-wide default
(``unigrad.checks("fast")``) under a per-context override (``with
unigrad.checks("fast"):``, a `contextvars.ContextVar`: each thread and each asyncio task
has its own), so one thread's block never changes another thread's calls.

What fast mode skips and what it keeps is the table in docs/semantics.md ("Fast mode");
the guarantee: values, result types, shapes and dtypes identical to strict mode whenever
strict mode returns them.
"""

from __future__ import annotations

import contextvars
import threading
from types import TracebackType
from typing import Literal

from .._errors import GradArgumentError, message

__all__ = ["Level", "checks", "fast", "level"]

Level = Literal["strict", "fast"]
_LEVELS = ("strict", "fast")

#: The process-wide default: [True] in fast mode.
_DEFAULT = [False]
_DEFAULT_LOCK = threading.Lock()
#: The per-context override (None: the default).
_LOCAL: contextvars.ContextVar[bool | None] = contextvars.ContextVar("unigrad_checks", default=None)
_get = _LOCAL.get


def fast() -> bool:
    """Whether the calling context runs in fast mode (one context-variable read)."""
    v = _get()
    return _DEFAULT[0] if v is None else v


def level() -> Level:
    """The calling context's level, ``"strict"`` or ``"fast"``."""
    return "fast" if fast() else "strict"


class checks:
    """Set how much unigrad checks: ``"strict"`` (the default: the whole contract of
    docs/semantics.md) or ``"fast"`` (the rules that decide a value, not the bookkeeping
    that only detects misuse; docs/semantics.md, "Fast mode").

    Called plainly it sets the process-wide level, for every thread that has not chosen
    its own; as a context manager it sets the level of the calling thread (or asyncio
    task) for the block only and leaves the process-wide level as it was.

    In fast mode, values, result types, shapes and dtypes are identical to strict mode
    whenever strict mode returns them; where strict mode raises for a misuse (a consumed
    graph, an output that depends on nothing) or returns None for an input only rule
    14's structure leaves unused (reached through ops whose derivative is zero), fast
    mode may answer instead (the framework's zeros).

    Args:
        level: ``"strict"`` or ``"fast"``.

    Raises:
        GradArgumentError: another level.

    Examples:
        >>> import unigrad
        >>> with unigrad.checks("fast"):
        ...     unigrad.checks.level()
        'fast'
        >>> unigrad.checks.level()
        'strict'
    """

    __slots__ = ("_fast", "_previous", "_token")

    level = staticmethod(level)

    def __init__(self, level: Level) -> None:
        if level not in _LEVELS:
            msg = message(
                "unknown checks level",
                expected='"strict" or "fast"',
                got=repr(level),
                fix='Pass unigrad.checks("strict") or unigrad.checks("fast").',
            )
            raise GradArgumentError(msg)
        self._fast = level == "fast"
        self._token: contextvars.Token[bool | None] | None = None
        # the plain call's effect; a `with` block takes it back in __enter__ (a call
        # made meanwhile by another thread can only have skipped a misuse check: fast
        # mode never gives another value)
        with _DEFAULT_LOCK:
            self._previous = _DEFAULT[0]
            _DEFAULT[0] = self._fast

    def __enter__(self) -> checks:
        with _DEFAULT_LOCK:
            _DEFAULT[0] = self._previous
        self._token = _LOCAL.set(self._fast)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._token is not None:
            _LOCAL.reset(self._token)
            self._token = None

    def __repr__(self) -> str:
        return f"unigrad.checks({('fast' if self._fast else 'strict')!r})"
