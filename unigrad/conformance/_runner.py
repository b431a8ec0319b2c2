"""The one runner behind the CLI and the pytest plugin: run cases, compare, tabulate.

Imports no framework at module level and not pytest at all: a backend's framework is
imported when the backend is loaded, NumPy when a result is compared.
"""

from __future__ import annotations

import enum
import fnmatch
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._dispatch import backends as installed_backends
from .._dispatch import get_backend, import_order
from ..contract import checks
from ._case import UNSET, Case
from ._kit import Kit

__all__ = [
    "BackendInfo",
    "Report",
    "Result",
    "Status",
    "XfailEntry",
    "check",
    "load_backend",
    "load_backends",
    "load_xfails",
    "run",
    "run_case",
    "select",
]


class Status(str, enum.Enum):
    """The outcome of one case on one backend."""

    #: The documented result (or error) came out.
    PASS = "pass"
    #: Another result or another error came out.
    FAIL = "fail"
    #: The case could not run: the backend does not load.
    ERROR = "error"
    #: Failed, and listed as an expected failure of this backend.
    XFAIL = "xfail"
    #: Listed as an expected failure, but passed.
    XPASS = "xpass"
    #: The backend lacks the capability the case needs.
    SKIP = "skip"

    @property
    def ok(self) -> bool:
        """Whether this outcome is expected (keeps the exit code 0)."""
        return self in (Status.PASS, Status.XFAIL, Status.SKIP)


@dataclass(frozen=True)
class Result:
    """One cell of the matrix."""

    case: str
    backend: str
    status: Status
    reason: str = ""
    detail: str = ""
    seconds: float = 0.0


@dataclass(frozen=True)
class XfailEntry:
    """One line of an xfails file: ``[backend::]case-id-or-glob  # reason``."""

    pattern: str
    backend: str | None
    reason: str
    origin: str  # "FILE:LINE"

    def matches(self, case_id: str, backend: str) -> bool:
        if self.backend is not None and self.backend != backend:
            return False
        return case_id == self.pattern or fnmatch.fnmatchcase(case_id, self.pattern)


@dataclass(frozen=True)
class BackendInfo:
    """A backend column: its versions, or why it could not be loaded."""

    name: str
    versions: dict[str, str] = field(default_factory=dict)
    error: str = ""


@dataclass
class Report:
    """Cases x backends, with the xfail lines that matched nothing."""

    cases: list[Case]
    backends: list[BackendInfo]
    results: dict[tuple[str, str], Result] = field(default_factory=dict)
    unmatched_xfails: list[XfailEntry] = field(default_factory=list)

    def result(self, case: str, backend: str) -> Result:
        return self.results[(case, backend)]

    def counts(self, backend: str) -> dict[Status, int]:
        out = dict.fromkeys(Status, 0)
        for (_, b), r in self.results.items():
            if b == backend:
                out[r.status] += 1
        return out

    @property
    def problems(self) -> list[Result]:
        """Every result that makes the run fail (fail, error, xpass), in report order."""
        return [
            self.results[(c.id, b.name)]
            for c in self.cases
            for b in self.backends
            if (c.id, b.name) in self.results and not self.results[(c.id, b.name)].status.ok
        ]

    @property
    def ok(self) -> bool:
        """True when nothing unexpected happened: no problem and no unmatched xfail line."""
        return not self.problems and not self.unmatched_xfails


# ---- selecting ---------------------------------------------------------------------------
def select(cases: Sequence[Case], keyword: str | None = None) -> list[Case]:
    """The cases whose id contains ``keyword`` (case-insensitive; ``not X``, ``A or B``,
    ``A and B`` combine substrings, as pytest's ``-k`` does for plain words).

    Examples:
        >>> from unigrad.conformance.cases import CASES
        >>> [c.id for c in select(CASES, "paddle.grad and None,4")]
        ['paddle.grad/grad_outputs=[None,4]']
    """
    if not keyword:
        return list(cases)
    return [c for c in cases if _keyword_matches(keyword, c.id)]


def _keyword_matches(expr: str, text: str) -> bool:
    text = text.lower()
    for alternative in expr.split(" or "):
        terms = [t.strip() for t in alternative.split(" and ")]
        if all(
            (t[4:].strip().lower() not in text) if t.startswith("not ") else (t.lower() in text)
            for t in terms
            if t
        ):
            return True
    return False


# ---- xfails files ------------------------------------------------------------------------
def load_xfails(path: str | Path) -> list[XfailEntry]:
    """Parse an xfails file: one ``[backend::]case-id`` (or glob) per line, ``#`` comments.

    The text after ``#`` on a line is the reason shown in reports.
    """
    entries: list[XfailEntry] = []
    p = Path(path)
    for n, raw in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
        text, _, comment = raw.partition("#")
        text = text.strip()
        if not text:
            continue
        backend, sep, pattern = text.partition("::")
        if not sep:
            backend, pattern = "", text
        entries.append(
            XfailEntry(
                pattern.strip(),
                backend.strip() or None,
                comment.strip() or "listed in xfails",
                f"{p}:{n}",
            )
        )
    return entries


# ---- running one case ------------------------------------------------------------------------
def load_backend(name: str) -> tuple[Any, BackendInfo]:
    """The backend object (or None) and its column info; never raises."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # frameworks' import-time noise is not ours
            backend = get_backend(name)
            if name == "jax":  # float64 cases need it, as the jax docs recommend for tests
                import jax

                jax.config.update("jax_enable_x64", True)
            versions = dict(backend.versions())
    except Exception as err:  # a backend that does not load is a column of errors
        return None, BackendInfo(name, error=f"backend unavailable: {type(err).__name__}: {err}")
    return backend, BackendInfo(name, versions)


def load_backends(names: Sequence[str]) -> list[tuple[Any, BackendInfo]]:
    """`load_backend` of each name, in the order given, their frameworks imported in an
    order one process can hold (`unigrad._dispatch.import_order`: paddle before
    tensorflow)."""
    loaded = {name: load_backend(name) for name in import_order(names)}
    return [loaded[name] for name in names]


def run_case(case: Case, kit: Kit, *, fast: bool = False) -> Result:
    """Run ``case`` with ``kit`` and compare with its expectation (``fast``: in fast mode,
    `unigrad.checks`, where a strict-only case is skipped)."""
    name = kit.name
    if case.needs is not None and not getattr(kit.caps, case.needs, False):
        return Result(case.id, name, Status.SKIP, f"{name} lacks capability {case.needs}")
    if fast and case.strict_only:
        return Result(case.id, name, Status.SKIP, "strict-only: fast mode does not check it")
    start = time.perf_counter()
    caught: list[warnings.WarningMessage] = []
    try:
        with (
            warnings.catch_warnings(record=True) as caught,
            checks("fast" if fast else "strict"),
        ):
            warnings.simplefilter("always")
            value = case.compute(kit)
    except Exception as err:
        seconds = time.perf_counter() - start
        if case.raises is not None and isinstance(err, case.raises):
            return Result(case.id, name, Status.PASS, seconds=seconds)
        want = f"{case.raises.__name__}" if case.raises is not None else "a result"
        return Result(
            case.id,
            name,
            Status.FAIL,
            f"expected {want}, got {type(err).__name__}: {_first_line(err)}",
            "".join(traceback.format_exception(type(err), err, err.__traceback__)),
            seconds,
        )
    seconds = time.perf_counter() - start
    if case.raises is not None:
        return Result(
            case.id,
            name,
            Status.FAIL,
            f"expected {case.raises.__name__}, got no error",
            repr(value),
            seconds,
        )
    if case.warns is not None and not any(issubclass(w.category, case.warns) for w in caught):
        got = ", ".join(sorted({w.category.__name__ for w in caught})) or "none"
        return Result(
            case.id,
            name,
            Status.FAIL,
            f"expected a {case.warns.__name__}, got warnings: {got}",
            "",
            seconds,
        )
    problem = check(value, case.expected, kit, rtol=case.rtol, atol=case.atol)
    if problem:
        return Result(case.id, name, Status.FAIL, problem, "", seconds)
    return Result(case.id, name, Status.PASS, seconds=seconds)


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0][:300] if text else ""


def check(
    value: Any, expected: Any, kit: Kit, *, rtol: float, atol: float, where: str = "result"
) -> str:
    """An empty string when ``value`` matches ``expected``, else what differs.

    Examples:
        >>> import unigrad
        >>> k = Kit(unigrad.get_backend("torch"))
        >>> check((k.tensor([1.0, 2.0]), None), ([1.0, 2.0], None), k, rtol=0, atol=0)
        ''
        >>> check(k.tensor([1.0]), 1.0, k, rtol=0, atol=0)
        'result: expected shape (), got shape (1,)'
    """
    import numpy as np

    if expected is UNSET:
        return ""
    if expected is None:
        return "" if value is None else f"{where}: expected None, got {_describe(value, kit)}"
    if value is None:
        return f"{where}: expected {expected!r}, got None"
    if isinstance(expected, (bool, str)) or (_is_shape(expected) and _is_shape(value)):
        return "" if value == expected else f"{where}: expected {expected!r}, got {value!r}"
    if isinstance(expected, tuple):
        if not isinstance(value, (tuple, list)):
            return f"{where}: expected a sequence of {len(expected)}, got {_describe(value, kit)}"
        if len(value) != len(expected):
            return f"{where}: expected {len(expected)} entries, got {len(value)}"
        for i, (v, e) in enumerate(zip(value, expected, strict=True)):
            problem = check(v, e, kit, rtol=rtol, atol=atol, where=f"{where}[{i}]")
            if problem:
                return problem
        return ""
    actual = _numbers(value, kit)
    if actual is None:
        return f"{where}: expected numbers, got {_describe(value, kit)}"
    want = np.asarray(expected)
    if actual.shape != want.shape:
        return f"{where}: expected shape {want.shape}, got shape {actual.shape}"
    if np.iscomplexobj(want) != np.iscomplexobj(actual) and np.iscomplexobj(want):
        return f"{where}: expected complex numbers, got dtype {actual.dtype}"
    if not np.allclose(actual, want, rtol=rtol, atol=atol, equal_nan=False):
        return (
            f"{where}: expected {np.array2string(want, precision=8)}, got "
            f"{np.array2string(actual, precision=8)} (rtol={rtol}, atol={atol})"
        )
    return ""


def _is_shape(value: Any) -> bool:
    return isinstance(value, tuple) and all(isinstance(v, int) for v in value)


def _numbers(value: Any, kit: Kit) -> Any:
    import numpy as np

    if isinstance(value, (int, float, complex)) and not isinstance(value, bool):
        return np.asarray(value)
    try:
        return np.asarray(kit.np(value))
    except Exception:
        return None


def _describe(value: Any, kit: Kit) -> str:
    arr = _numbers(value, kit)
    if arr is not None:
        return f"{type(value).__name__} {np_repr(arr)}"
    try:
        kit.np(value)
    except Exception as err:  # why it is not numbers, in the report's one line
        why = f" (unreadable: {type(err).__name__}: {_first_line(err)})"
    else:  # pragma: no cover - _numbers just failed on the same call
        why = ""
    text = " ".join(repr(value).split())
    return f"{type(value).__name__} {text:.80}{why}"


def np_repr(arr: Any) -> str:
    import numpy as np

    return np.array2string(arr, precision=8, threshold=20)


# ---- running the matrix ------------------------------------------------------------------
#: Called after every cell: (result, cells done, cells in all).
Progress = Callable[[Result, int, int], None]
#: Called before every cell: (the case, the backend's name).
Started = Callable[[Case, str], None]


def run(
    cases: Sequence[Case],
    backends: Iterable[str] | None = None,
    *,
    xfails: Sequence[XfailEntry] = (),
    all_cases: Sequence[Case] | None = None,
    progress: Progress | None = None,
    started: Started | None = None,
    fast: bool = False,
) -> Report:
    """Run ``cases`` on ``backends`` (default: every installed one) into a `Report`
    (``fast``: in fast mode, `unigrad.checks`, the strict-only cases skipped).

    ``xfails`` turn the failures they match into XFAIL (and passes into XPASS); an entry
    that matches no case of ``all_cases`` (default ``cases``) for its backend is
    reported in `Report.unmatched_xfails`. ``started`` and ``progress`` are
    called before and after each cell (the CLI's progress display).

    Examples:
        >>> import torch  # the backend the example runs on
        >>> from unigrad.conformance.cases import CASES
        >>> report = run(select(CASES, "paddle.grad/grad_outputs"), ["torch"])
        >>> report.ok, len(report.results)
        (True, 4)
    """
    names = list(installed_backends() if backends is None else backends)
    report = Report(list(cases), [])
    total, done = len(cases) * len(names), 0
    for name, (backend, info) in zip(names, load_backends(names), strict=True):
        report.backends.append(info)
        kit = Kit(backend) if backend is not None else None
        for case in cases:
            if started is not None:
                started(case, name)
            if kit is None:
                result = Result(case.id, name, Status.ERROR, info.error)
            else:
                result = _apply_xfails(run_case(case, kit, fast=fast), xfails)
            report.results[(case.id, name)] = result
            done += 1
            if progress is not None:
                progress(result, done, total)
    universe = [c.id for c in (all_cases if all_cases is not None else cases)]
    report.unmatched_xfails = [
        e
        for e in xfails
        if (e.backend is None or e.backend in names)
        and not any(e.matches(cid, b) for cid in universe for b in names)
    ]
    return report


def _apply_xfails(result: Result, xfails: Sequence[XfailEntry]) -> Result:
    entry = next((e for e in xfails if e.matches(result.case, result.backend)), None)
    if entry is None or result.status is Status.SKIP:
        return result
    if result.status is Status.PASS:
        return Result(
            result.case,
            result.backend,
            Status.XPASS,
            f"passed, but listed as an expected failure ({entry.origin})",
            seconds=result.seconds,
        )
    return Result(
        result.case,
        result.backend,
        Status.XFAIL,
        f"{entry.reason} ({entry.origin}); {result.reason}",
        result.detail,
        result.seconds,
    )
