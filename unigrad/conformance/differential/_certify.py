"""Certify backends on N random programs: generate, run, compare, report."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._case import Case
from .._kit import Kit
from .._runner import BackendInfo, Report, Result, Status, load_backend
from . import _reference
from ._execute import compare, expected_on, on_backend, on_backend_compiled, on_reference
from ._program import Backward, Grad, Op, Program

__all__ = [
    "KNOWN",
    "Divergence",
    "Known",
    "Summary",
    "certify",
    "check_program",
    "generate",
    "known_reason",
]


@dataclass(frozen=True)
class Known:
    """A divergence already understood, reported as xfail (with ``reason``) rather than
    a failure: it matches a program on ``backend`` that uses ``op`` (if given) and whose
    difference mentions every string of ``text``."""

    backend: str
    reason: str
    op: str | None = None
    text: tuple[str, ...] = ()
    #: Only in programs that take ``create_graph=True`` somewhere.
    higher_order: bool = False

    def matches(self, program: Program, backend: str, difference: str) -> bool:
        if backend != self.backend:
            return False
        if self.higher_order and not any(
            isinstance(s, (Grad, Backward)) and s.create_graph for s in program.steps
        ):
            return False
        if self.op is not None and not any(
            isinstance(s, Op) and s.op == self.op for s in program.steps
        ):
            return False
        return all(t in difference for t in self.text)


#: Divergences known and owned elsewhere or still open, shown as xfail rows with their
#: reason. Keep it tiny and delete entries as the work lands. Empty: rule 6's class is
#: decided (docs/semantics.md, row 6: a create_graph result carries its pass's forward
#: nodes), and paddle crosses a consumed list-op node (row 15).
KNOWN: list[Known] = []


@dataclass(frozen=True)
class Divergence:
    """A program whose outcome on ``backend`` differs from the reference."""

    index: int
    backend: str
    program: Program
    difference: str
    known: str = ""

    def repro(self) -> str:
        backend = "numpy" if self.backend == "reference" else self.backend
        return f"# {self.difference}\n{self.program.source(backend)}"


@dataclass
class Summary:
    """What `certify` ran and found."""

    seed: int
    programs: int = 0
    degenerate: int = 0
    divergences: list[Divergence] = field(default_factory=list)
    seconds: float = 0.0
    report: Report | None = None


@contextlib.contextmanager
def _without_local_constants() -> Iterator[None]:
    """Hypothesis draws, about one time in twenty, a constant it harvested from the
    source of every *local* module imported so far (an editable unigrad, the caller's
    own code). The programs of a seed would then depend on which modules are imported
    and on their text: one edit to a backend, or another backend set, and ``--seed S``
    draws other programs. Here the harvest is empty, so a seed names one list of
    programs for a given unigrad, installed or editable, whatever else is imported.
    On a Hypothesis without these internals nothing is patched."""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # pragma: no cover - another Hypothesis layout
        yield
        return
    get = getattr(providers, "_get_local_constants", None)
    # (a per-thread dict of the constants already chosen per draw kind, locals included)
    cache: Any = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    if get is None or not hasattr(cache, "clear"):  # pragma: no cover
        yield
        return
    cache.clear()
    providers._get_local_constants = Constants
    try:
        yield
    finally:
        providers._get_local_constants = get
        cache.clear()


def generate(n: int, seed: int) -> list[Program]:
    """``n`` programs drawn by Hypothesis from `_generate.programs` with ``seed``: the
    same programs for the same seed and unigrad, whatever else the process imported."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    from ._generate import programs

    out: list[Program] = []

    @hseed(seed)
    @settings(
        max_examples=n,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(programs())
    def collect(p: Program) -> None:
        out.append(p)

    with _without_local_constants():
        collect()
    return out[:n]


def check_program(
    program: Program, kits: Sequence[Kit], *, compiled: bool = False
) -> list[tuple[str, str]] | None:
    """``[(backend, difference), ...]`` for ``program``; None if it is degenerate.

    With ``compiled``, a backend that compiles steps (``compiles_steps``) also runs the
    program as one `unigrad.jit` step; its differences read "under unigrad.jit: ...".
    """
    try:
        want = on_reference(program)
    except _reference.Degenerate:
        return None
    except Exception as err:  # a bug of the tester itself: loud, never skipped
        return [("reference", f"the reference failed: {type(err).__name__}: {err}")]
    out = []
    for kit in kits:
        expected = expected_on(want, program, kit)
        diff = compare(on_backend(program, kit), expected, program)
        if diff is not None:
            out.append((kit.name, diff))
        if compiled and kit.caps.compiles_steps:
            got = on_backend_compiled(program, kit)
            diff = None if got is None else compare(got, expected, program)
            if diff is not None:
                out.append((kit.name, f"under unigrad.jit: {diff}"))
    return out


def known_reason(program: Program, backend: str, difference: str) -> str:
    """The reason of the `KNOWN` entry a divergence matches, or ``""``."""
    return next((k.reason for k in KNOWN if k.matches(program, backend, difference)), "")


def certify(
    n: int,
    seed: int = 0,
    backends: Iterable[str] | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    compiled: bool = False,
) -> Summary:
    """Run ``n`` random programs (Hypothesis seed ``seed``) on ``backends`` and the
    float64 reference; the `Summary` holds a suite `Report` with one row
    per diverging program plus one summary row. ``compiled``: see `check_program`."""
    from ..._dispatch import backends as installed

    names = list(installed() if backends is None else backends)
    start = time.perf_counter()
    kits: list[Kit] = []
    infos: list[BackendInfo] = []
    for name in names:
        be, info = load_backend(name)
        infos.append(info)
        if be is not None:
            kits.append(Kit(be))
    summary = Summary(seed)
    programs = generate(n, seed)
    for i, p in enumerate(programs):
        found = check_program(p, kits, compiled=compiled)
        summary.programs += 1
        if found is None:
            summary.degenerate += 1
        else:
            summary.divergences.extend(
                Divergence(i, b, p, d, known_reason(p, b, d)) for b, d in found
            )
        if progress is not None:
            progress(i + 1, len(programs))
    summary.seconds = time.perf_counter() - start
    summary.report = _report(summary, names, infos, kits)
    return summary


def _never(k: Kit) -> Any:
    return None


def _report(
    summary: Summary, names: list[str], infos: list[BackendInfo], kits: list[Kit]
) -> Report:
    total_id = f"differential/seed={summary.seed}/{summary.programs}-programs"
    source = "unigrad.conformance.differential: random programs against the float64 reference"
    ids = sorted({d.index for d in summary.divergences})
    cases = [Case(total_id, source, _never, expected=None)]
    cases += [
        Case(f"differential/seed={summary.seed}/program-{i}", source, _never, expected=None)
        for i in ids
    ]
    report = Report(cases, infos)
    loaded = {k.name for k in kits}
    compared = summary.programs - summary.degenerate
    # the reference failing is a bug of the tester: every backend's cell is an error
    broken = [d for d in summary.divergences if d.backend == "reference"]
    for name in names:
        mine = [d for d in summary.divergences if d.backend in (name, "reference")]
        real = [d for d in mine if not d.known]
        if name not in loaded:
            status, reason = Status.ERROR, next(i.error for i in infos if i.name == name)
        elif broken:
            status, reason = Status.ERROR, f"the reference failed on {len(broken)} programs"
        elif real:
            status, reason = Status.FAIL, f"{len(real)} of {compared} programs diverge"
        elif mine:
            status, reason = Status.XFAIL, f"{len(mine)} known divergences"
        else:
            status, reason = (
                Status.PASS,
                f"{compared} programs agree ({summary.degenerate} degenerate skipped)",
            )
        report.results[(total_id, name)] = Result(
            total_id, name, status, reason, seconds=summary.seconds
        )
        for i in ids:
            cid = f"differential/seed={summary.seed}/program-{i}"
            d = next((d for d in mine if d.index == i), None)
            if d is None:
                report.results[(cid, name)] = Result(cid, name, Status.PASS)
            elif d.backend == "reference":
                report.results[(cid, name)] = Result(
                    cid, name, Status.ERROR, d.difference, d.repro()
                )
            elif d.known:
                report.results[(cid, name)] = Result(cid, name, Status.XFAIL, d.known, d.repro())
            else:
                report.results[(cid, name)] = Result(
                    cid, name, Status.FAIL, d.difference, d.repro()
                )
    return report
