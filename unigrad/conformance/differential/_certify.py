"""Certify backends on N random programs: generate, run, compare, report."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import unigrad

from .._case import Case
from .._kit import Kit
from .._runner import BackendInfo, Report, Result, Status, load_backends
from . import _reference
from ._execute import (
    CallOutcome,
    compare,
    compare_modes,
    expected_on,
    on_backend,
    on_backend_compiled,
    on_reference,
)
from ._ops import Coverage, coverage
from ._program import Program

__all__ = [
    "Divergence",
    "Summary",
    "certify",
    "check_program",
    "generate",
]


@dataclass(frozen=True)
class Divergence:
    """A program whose outcome on ``backend`` differs from the reference."""

    index: int
    backend: str
    program: Program
    difference: str

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
    #: Whether ``compiled`` was asked for (``--jit``).
    compiled: bool = False
    #: The backends that also ran each program as one `unigrad.jit` step (``compiled``,
    #: and the backend compiles steps).
    jitted: list[str] = field(default_factory=list)
    #: Whether each program also ran in fast mode (``--checks both``).
    both_modes: bool = False
    #: Which namespace functions the programs drew, by mode (`_ops.Coverage`).
    coverage: Coverage | None = None

    @property
    def compared(self) -> int:
        """The programs the backends ran: neither degenerate nor failing the reference."""
        broken = {d.index for d in self.divergences if d.backend == "reference"}
        return self.programs - self.degenerate - len(broken)

    def outcomes(self, backend: str) -> dict[str, int]:
        """How many compared programs ``backend`` agrees on (``agree``) and diverges on
        (``diverge``)."""
        mine = {d.index for d in self.divergences if d.backend == backend}
        return {"agree": self.compared - len(mine), "diverge": len(mine)}


def generate(n: int, seed: int) -> list[Program]:
    """``n`` programs for ``seed``: program ``i`` draws `_generate.focus_for` ``(i)``
    (a deterministic cycle over every differentiable namespace function and every
    mode) first, then random ops and calls, from NumPy generators seeded with
    ``(seed, i)``: the same programs for the same seed and unigrad, whatever else the
    process imported. (Hypothesis draws `_generate.programs` for the tests, which
    shrink a failure; its engine would take a program whose draws depend on its index
    for a flaky strategy.) A program the reference finds degenerate is drawn again with
    the same focus (`_generate.REDRAWS` times at most): a skipped program checks nothing,
    and its focused functions would count as covered."""
    from ._generate import generate_focused

    return generate_focused(n, seed, keep=_not_degenerate)


def _not_degenerate(program: Program) -> bool:
    try:
        on_reference(program)
    except _reference.Degenerate:
        return False
    except Exception:  # a bug of the tester: kept, and certify reports it
        return True
    return True


def check_program(
    program: Program, kits: Sequence[Kit], *, compiled: bool = False, both_modes: bool = False
) -> list[tuple[str, str]] | None:
    """``[(backend, difference), ...]`` for ``program``; None if it is degenerate.

    With ``compiled``, a backend that compiles steps (``compiles_steps``) also runs the
    program as one `unigrad.jit` step; its differences read "under unigrad.jit: ...".
    With ``both_modes``, each backend also runs it in fast mode (`unigrad.checks`),
    judged against its own strict run (`compare_modes`; on a `WARM_JUDGED` backend a
    second strict run made after the fast one): "in fast mode: ...".
    """
    try:
        want = on_reference(program)
    except _reference.Degenerate:
        return None
    except Exception as err:  # a bug of the tester itself: loud, never skipped
        return [("reference", f"the reference failed: {type(err).__name__}: {err}")]
    return [
        (kit.name, diff)
        for kit in kits
        for diff in _differences(program, want, kit, compiled, both_modes)
    ]


def _differences(
    program: Program, want: list[CallOutcome], kit: Kit, compiled: bool, both_modes: bool = False
) -> list[str]:
    """How ``program`` on ``kit`` differs from the reference's outcome ``want`` (eager,
    and with ``compiled`` as one `unigrad.jit` step where the backend compiles steps;
    with ``both_modes``, its fast-mode run from its strict one)."""
    out = []
    expected = expected_on(want, program, kit)
    strict = on_backend(program, kit)
    diff = compare(strict, expected, program)
    if diff is not None:
        out.append(diff)
    if both_modes:
        with unigrad.checks("fast"):
            fast = on_backend(program, kit)
        if kit.name in WARM_JUDGED:  # the strict run from fast mode's cache state
            strict = on_backend(program, kit)
        ulps = 0 if kit.name in BITWISE_MODES else MODE_ULPS
        diff = compare_modes(fast, strict, program, ulps)
        if diff is not None:
            out.append(f"in fast mode: {diff}")
    if compiled and kit.caps.compiles_steps:
        got = on_backend_compiled(program, kit)
        diff = None if got is None else compare(got, expected, program)
        if diff is not None:
            out.append(f"under unigrad.jit: {diff}")
    return out


#: How far a fast-mode value may move from strict mode's, in units in the last place,
#: on a backend outside `BITWISE_MODES` (none at present: a new backend starts here).
MODE_ULPS = 8

#: The backends whose fast-mode values must equal strict mode's bitwise (0 ulps): torch,
#: paddle and the tensorflow tape (whose engine compiles nothing) run the same kernels in
#: both modes (measured bitwise: seed 777, 5 000 programs on torch; seed 778, 2 500 on
#: paddle; seeds 94 and 96, 1 900 on tensorflow); the numpy tape computes a graph's
#: values the same way on every call (its first call of a structure too:
#: `unigrad.tape._replay._dependencies`); the jax tape does from a program's second run
#: on, and is judged from there (`WARM_JUDGED`).
BITWISE_MODES = frozenset({"torch", "paddle", "numpy", "jax", "tensorflow"})

#: The backends whose fast-mode run is judged against a second strict run, made after it
#: from the same cache state, and not against the first (which the reference judges):
#: on the jax tape a program's first run computes each op eagerly and each gradient by
#: its own compiled function, and its later runs compute the same values pending,
#: inside larger compiled functions that XLA fuses otherwise and that may round the
#: last bits otherwise, *in either mode* (seed 42 programs 4 and 153: strict run twice
#: differs as much as strict then fast; docs/tape.md, "Each value is computed once").
#: The runs after the first reuse its compiled functions: the second strict run costs
#: about 2 ms a program.
WARM_JUDGED = frozenset({"jax"})


#: A progress callback of `certify`: a `Result` per program and backend, how many of
#: that backend's programs are done, and how many it runs (the runner's callback type).
Progress = Callable[[Result, int, int], None]

#: The word for each status in a differential run's progress and summary.
WORDS = {
    "pass": "agree",
    "fail": "diverge",
    "error": "error",
    "skip": "degenerate",
}


def certify(
    n: int,
    seed: int = 0,
    backends: Iterable[str] | None = None,
    *,
    progress: Progress | None = None,
    started: Callable[[str, int], None] | None = None,
    compiled: bool = False,
    both_modes: bool = False,
) -> Summary:
    """Run ``n`` random programs (Hypothesis seed ``seed``) on ``backends`` and the
    float64 reference; the `Summary` holds a suite `Report` with one row
    per diverging program plus one summary row. ``compiled``, ``both_modes``: see
    `check_program`.

    The reference runs every program first, then each backend runs the programs the
    reference computed, one backend after the other (as the case suite runs), so that
    ``progress`` sees the backend ``"reference"`` (``pass``: computed, ``skip``:
    degenerate, ``error``: the reference failed) and then each loaded backend in turn
    (``pass``: agrees, ``fail``: diverges).
    ``started(backend, total)`` is called as each of them begins (the reference before
    the programs are drawn) with the number of programs it will run.
    """
    from ..._dispatch import backends as installed

    names = list(installed() if backends is None else backends)
    start = time.perf_counter()
    kits: list[Kit] = []
    infos: list[BackendInfo] = []
    for be, info in load_backends(names):
        infos.append(info)
        if be is not None:
            kits.append(Kit(be))
    summary = Summary(seed, compiled=compiled, both_modes=both_modes)
    summary.jitted = [k.name for k in kits if compiled and k.caps.compiles_steps]
    if started is not None:
        started("reference", n)
    programs = generate(n, seed)
    wants: list[tuple[int, Program, list[CallOutcome]]] = []
    summary.coverage = coverage(programs)
    for i, p in enumerate(programs):
        summary.programs += 1
        cid = f"program-{i}"
        try:
            want = on_reference(p)
        except _reference.Degenerate:
            summary.degenerate += 1
            status = Status.SKIP
        except Exception as err:  # a bug of the tester itself: loud, never skipped
            why = f"the reference failed: {type(err).__name__}: {err}"
            summary.divergences.append(Divergence(i, "reference", p, why))
            status = Status.ERROR
        else:
            wants.append((i, p, want))
            status = Status.PASS
        if progress is not None:
            progress(Result(cid, "reference", status), i + 1, len(programs))
    for kit in kits:
        if started is not None:
            started(kit.name, len(wants))
        for done, (i, p, want) in enumerate(wants, 1):
            found = [
                Divergence(i, kit.name, p, d)
                for d in _differences(p, want, kit, compiled, both_modes)
            ]
            summary.divergences.extend(found)
            if progress is not None:
                status = Status.FAIL if found else Status.PASS
                progress(Result(f"program-{i}", kit.name, status), done, len(wants))
    summary.divergences.sort(key=lambda d: d.index)  # program order, as the report shows
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
    if summary.compiled:
        source += " (--jit: and as one unigrad.jit step where a backend compiles steps)"
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
        if name not in loaded:
            status, reason = Status.ERROR, next(i.error for i in infos if i.name == name)
        elif broken:
            status, reason = Status.ERROR, f"the reference failed on {len(broken)} programs"
        elif mine:
            n = len({d.index for d in mine})
            status, reason = Status.FAIL, f"{n} of {compared} programs diverge"
        else:
            how = ", eager and as one unigrad.jit step each" if name in summary.jitted else ""
            status, reason = (
                Status.PASS,
                f"{compared} programs agree{how} ({summary.degenerate} degenerate skipped)",
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
            else:
                report.results[(cid, name)] = Result(
                    cid, name, Status.FAIL, d.difference, d.repro()
                )
    return report
