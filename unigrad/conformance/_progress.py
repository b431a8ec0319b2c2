"""What the CLI shows while the suite runs: progress, colour, and quiet frameworks.

On a terminal, one line per backend is redrawn in place (counter, elapsed time, counts
so far, the case running now) and never grows past the terminal's width; finished, it
keeps the backend's totals. Anywhere else (a CI log, a file, a pipe) each backend
prints one short line when it finishes. Colour follows the ``NO_COLOR`` and
``FORCE_COLOR`` conventions (no-color.org, force-color.org), ``NO_COLOR`` first, as
CPython's own tracebacks do.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from ._case import Case
    from ._runner import Result

__all__ = ["Palette", "Progress", "quiet_frameworks", "wants_colour"]

#: The widest line the progress display draws, whatever the terminal says.
MAX_WIDTH = 80


def wants_colour(stream: TextIO) -> bool:
    """Whether to colour what goes to ``stream``.

    ``NO_COLOR`` (set and non-empty) turns colour off; otherwise ``FORCE_COLOR`` (set and
    non-empty) turns it on; otherwise a terminal (``isatty``, ``TERM`` not ``dumb``) gets it.

    Examples:
        >>> import io, os
        >>> os.environ.get("NO_COLOR") or wants_colour(io.StringIO()) is bool(
        ...     os.environ.get("FORCE_COLOR"))
        True
    """
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return _is_terminal(stream)


def _is_terminal(stream: TextIO) -> bool:
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):  # a closed or fake stream
        return False
    return tty and os.environ.get("TERM") != "dumb"


def _columns(stream: TextIO) -> int:
    """The width of the terminal ``stream`` writes to (``COLUMNS`` first, as shutil)."""
    env = os.environ.get("COLUMNS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):  # not a terminal, or a fake stream
        return MAX_WIDTH


class Palette:
    """ANSI SGR colours by meaning; every method returns ``text`` unchanged when off.

    Examples:
        >>> Palette(False).bad("FAIL"), Palette(True).bad("FAIL")
        ('FAIL', '\\x1b[31mFAIL\\x1b[0m')
    """

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def _sgr(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.enabled and text else text

    def good(self, text: str) -> str:
        """Green: passed."""
        return self._sgr("32", text)

    def bad(self, text: str) -> str:
        """Red: failed, errored, passed unexpectedly."""
        return self._sgr("31", text)

    def warn(self, text: str) -> str:
        """Yellow: an expected failure, a skip."""
        return self._sgr("33", text)

    def dim(self, text: str) -> str:
        """Faint: the case running now, timings."""
        return self._sgr("2", text)

    def bold(self, text: str) -> str:
        """Bold: a backend's name."""
        return self._sgr("1", text)

    def status(self, status: str, text: str | None = None) -> str:
        """``text`` (default ``status``) in the colour of a ``Status`` value."""
        shown = status if text is None else text
        if status == "pass":
            return self.good(shown)
        if status in ("xfail", "skip"):
            return self.warn(shown)
        return self.bad(shown)


#: The order counts are shown in.
_ORDER = ("pass", "fail", "error", "xpass", "xfail", "skip")


class Progress:
    """The progress display: ``started`` and ``__call__`` are the runner's two callbacks.

    Args:
        stream: Where to draw (the CLI passes stderr).
        backends: The backends, in run order (their names are padded to one width).
        cases: How many cases each backend runs.
        live: Redraw one line in place (a terminal); default: whether ``stream`` is one.
        colour: Colour the counts; default: ``wants_colour(stream)``.
        width: The line's width; default: the terminal's, at most ``MAX_WIDTH``.
        words: The word shown for a status in the counts (default: the status's value;
            the differential run says ``agree`` for ``pass``, for instance).
    """

    def __init__(
        self,
        stream: TextIO,
        backends: list[str],
        cases: int,
        *,
        live: bool | None = None,
        colour: bool | None = None,
        width: int | None = None,
        words: Mapping[str, str] | None = None,
    ) -> None:
        self.stream = stream
        self.words = dict(words or {})
        self.cases = cases
        self.pad = max((len(n) for n in backends), default=0)
        self.live = _is_terminal(stream) if live is None else live
        self.palette = Palette(wants_colour(stream) if colour is None else colour)
        if width is None:
            width = _columns(stream)
        self.width = max(min(width, MAX_WIDTH) - 1, 20)  # the last column would wrap
        self.backend: str | None = None
        self.done = 0
        self.counts: dict[str, int] = {}
        self.t0 = time.perf_counter()

    # -- the runner's callbacks ---------------------------------------------------------
    def started(self, case: Case, backend: str) -> None:
        """A cell is about to run: show its case."""
        if backend != self.backend:
            self.begin(backend)
        if self.live:
            self._draw(case.id)

    def __call__(self, result: Result, done: int, total: int) -> None:
        """A cell finished: count it; a backend's last cell ends its line."""
        if result.backend != self.backend:  # no `started` call (a plain callback user)
            self.begin(result.backend)
        self.done += 1
        status = result.status.value
        self.counts[status] = self.counts.get(status, 0) + 1
        if self.done == self.cases:
            self._finish()
        elif self.live:
            self._draw(result.case)

    # -- drawing --------------------------------------------------------------------------
    def begin(self, backend: str) -> None:
        """``backend``'s line starts now (its clock too); the callbacks call it."""
        if self.backend is not None and self.done < self.cases:
            self._finish()  # a backend cut short (not expected from the runner)
        self.backend, self.done, self.counts = backend, 0, {}
        self.t0 = time.perf_counter()

    def _head(self) -> tuple[str, int]:
        """The line's start (with colour) and its printed length."""
        name = (self.backend or "").ljust(self.pad)
        n = len(str(self.cases))
        counter = f"{self.done:>{n}}/{self.cases}"
        elapsed = f"{time.perf_counter() - self.t0:5.1f}s"
        plain = f"{name}  {counter}  {elapsed}"
        shown = f"{self.palette.bold(name)}  {counter}  {self.palette.dim(elapsed)}"
        return shown, len(plain)

    def _tally(self) -> tuple[str, int]:
        parts = [
            (s, f"{self.counts[s]} {self.words.get(s, s)}") for s in _ORDER if self.counts.get(s)
        ]
        plain = ", ".join(text for _, text in parts)
        shown = ", ".join(self.palette.status(s, text) for s, text in parts)
        return shown, len(plain)

    def _draw(self, case: str) -> None:
        head, n = self._head()
        tally, m = self._tally()
        line, used = (f"{head}  {tally}", n + 2 + m) if m else (head, n)
        room = self.width - used - 2
        if room >= 8:
            shown = case if len(case) <= room else case[: room - 1] + "…"
            line += "  " + self.palette.dim(shown)
        self.stream.write("\r\x1b[2K" + line)
        self.stream.flush()

    def _finish(self) -> None:
        head, _ = self._head()
        tally, _ = self._tally()
        prefix = "\r\x1b[2K" if self.live else ""
        self.stream.write(f"{prefix}{head}  {tally or 'no cases'}\n")
        self.stream.flush()


@contextlib.contextmanager
def quiet_frameworks() -> Iterator[None]:
    """Silences the frameworks' own logging for the duration of a run.

    paddle's C++ glog warnings (``GLOG_minloglevel``; read when paddle is first imported,
    so the CLI enters this before any case runs) and XLA's (``TF_CPP_MIN_LOG_LEVEL``),
    and jax's Python loggers (the TPU probe at its first array). Cases that expect an
    error provoke framework warnings on purpose; printed in the middle of the progress
    they read like failures. A variable the user set is left as it is.
    """
    env = {"GLOG_minloglevel": "2", "TF_CPP_MIN_LOG_LEVEL": "2"}
    saved_env = {k: os.environ.get(k) for k in env}
    for key, value in env.items():
        os.environ.setdefault(key, value)
    loggers = [logging.getLogger(name) for name in ("jax", "absl")]
    saved_levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for lg, level in zip(loggers, saved_levels, strict=True):
            lg.setLevel(level)
        for key, old in saved_env.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old
