"""``python -m unigrad.conformance --differential N [--seed S] [--jit] [--checks both]``:
certify backends.

What it prints, as the case suite does: the progress on stderr (the reference, then one
line per backend: redrawn in place on a terminal, printed once when the backend finishes
anywhere else), the report, and one summary, never wider than `WIDTH` columns: the last
lines of the table, or on stderr when the report goes to a file or in another format.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .._runner import Report, Result
    from ._certify import Summary

__all__ = ["WIDTH", "main", "summary_text"]

#: The widest line of the header and the summary (a terminal of 80 columns never wraps).
WIDTH = 79

#: The reference's progress: ``pass`` is a program it computed.
_REFERENCE_WORDS = {"pass": "computed", "skip": "degenerate", "error": "error"}


def main(args: argparse.Namespace) -> int:
    """Run the differential certification for the parsed CLI ``args``; the exit code."""
    from ..._dispatch import backends as installed
    from .._progress import Progress, quiet_frameworks, wants_colour
    from .._report import render
    from ..cli import ExitCode
    from ._certify import WORDS, certify

    if args.differential < 1:
        print("unigrad-conformance: --differential needs N >= 1", file=sys.stderr)
        return ExitCode.USAGE
    known = installed()
    names = list(dict.fromkeys(args.backend)) if args.backend else list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        print(
            f"unigrad-conformance: unknown backend(s) {unknown}: expected one of {list(known)}",
            file=sys.stderr,
        )
        return ExitCode.USAGE

    shown = ["reference", *names]  # one width for every progress line
    reference = Progress(sys.stderr, shown, args.differential, words=_REFERENCE_WORDS)
    backends: list[Progress] = []

    def started(backend: str, total: int) -> None:
        if backend == "reference":
            reference.begin(backend)  # its time counts the drawing of the programs
            return
        if not backends:  # the backends run the programs the reference computed
            backends.append(Progress(sys.stderr, shown, total, words=WORDS))
        backends[0].begin(backend)

    def progress(result: Result, done: int, total: int) -> None:
        (reference if result.backend == "reference" else backends[0])(result, done, total)

    # The programs overflow, divide by zero and provoke framework errors on purpose: the
    # frameworks' logs and NumPy's floating-point warnings would read like failures.
    with quiet_frameworks(), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if not args.quiet:  # (loads the backends: inside, where their logs are quiet)
            print(_header(args, names), file=sys.stderr)
        summary = certify(
            args.differential,
            args.seed,
            names,
            progress=None if args.quiet else progress,
            started=None if args.quiet else started,
            compiled=args.jit,
            both_modes=getattr(args, "checks", "strict") != "strict",
        )
    report = summary.report
    if report is None:  # certify always sets it
        return ExitCode.FAILED
    # repros of the divergences: each backend's first, then more
    divergences = summary.divergences
    firsts = list({d.backend: d for d in reversed(divergences)}.values())[::-1]
    repros = (firsts + [d for d in divergences if d not in firsts])[:5]
    for d in sorted(repros, key=lambda d: d.index):
        print(f"\n--- repro (program {d.index}, {d.backend}) ---\n{d.repro()}", file=sys.stderr)
    if len(divergences) > 5:
        print(f"\n({len(divergences) - 5} more not shown)", file=sys.stderr)
    if repros:
        print(file=sys.stderr)
    text_summary = summary_text(summary, report)
    text = render(
        report,
        args.format,
        colour=args.format == "table" and not args.output and wants_colour(sys.stdout),
        failures_only=args.failures_only,
        summary=text_summary,
    )
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    if args.output or args.format != "table":  # the summary is not on the terminal yet
        print(text_summary, file=sys.stderr)
    from ._generate import PLANNED

    short = False
    cov = summary.coverage
    if cov is not None:  # (its line is in the summary)
        missing = cov.missing()
        if missing and summary.programs >= PLANNED:
            short = True
            for mode, names_missing in missing.items():
                print(f"  not drawn ({mode}): {', '.join(names_missing)}", file=sys.stderr)
            print(
                f"unigrad-conformance: {PLANNED} programs or more must draw every "
                "differentiable namespace function in every mode",
                file=sys.stderr,
            )
    return ExitCode.OK if report.ok and not short else ExitCode.FAILED


def _header(args: argparse.Namespace, names: list[str]) -> str:
    """What the run is about to do, in lines of at most `WIDTH` columns."""
    line = (
        f"differential: {args.differential} random programs, seed {args.seed}, on "
        f"{', '.join(names)} against the float64 reference"
    )
    lines = textwrap.wrap(line, WIDTH)
    if args.jit:
        compiling = [n for n in names if _compiles_steps(n)]
        lines += textwrap.wrap(_jit_text(compiling, future=True), WIDTH)
    if getattr(args, "checks", "strict") != "strict":
        lines += textwrap.wrap(_CHECKS_TEXT, WIDTH)
    return "\n".join(lines)


_CHECKS_TEXT = (
    "--checks both: each backend also runs each program in fast mode, judged against "
    "its own strict run"
)


def _compiles_steps(name: str) -> bool:
    from ..._dispatch import get_backend

    try:
        return get_backend(name).capabilities.compiles_steps
    except Exception:  # a backend that does not load: certify says why, in the report
        return False


def _jit_text(compiling: list[str], *, future: bool = False) -> str:
    if not compiling:
        return "--jit: no backend here compiles steps (jax does): every program runs eagerly"
    verb = "runs" if future else "ran"
    return f"--jit: {', '.join(compiling)} also {verb} each program as one unigrad.jit step"


def summary_text(summary: Summary, report: Report) -> str:
    """The run's summary: what ran (programs, seed, time, degenerate ones, ``--jit``),
    then each backend's outcome; every line at most `WIDTH` columns.

    For a run of 300 programs with ``--jit`` on jax and numpy, 12 of them degenerate::

        300 programs (seed 1) in 61.3s: 288 compared with the float64 reference,
        12 degenerate (skipped: see docs/conformance.md)
        --jit: jax also ran each program as one unigrad.jit step
        jax 288 agree; numpy 287 agree, 1 diverge
    """
    head = (
        f"{summary.programs} programs (seed {summary.seed}) in {summary.seconds:.1f}s: "
        f"{summary.compared} compared with the float64 reference"
    )
    if summary.degenerate:
        head += f", {summary.degenerate} degenerate (skipped: see docs/conformance.md)"
    broken = summary.programs - summary.degenerate - summary.compared
    if broken:
        head += f", {broken} where the reference failed (a bug of the tester)"
    jit = textwrap.wrap(_jit_text(summary.jitted), WIDTH) if summary.compiled else []
    if summary.both_modes:
        jit += textwrap.wrap(_CHECKS_TEXT.replace("runs", "ran"), WIDTH)
    if summary.coverage is not None:
        jit += textwrap.wrap(summary.coverage.line(), WIDTH)
    parts = []
    for info in report.backends:
        if info.error:
            parts.append(f"{info.name} did not load")
            continue
        counts = summary.outcomes(info.name)
        said = ", ".join(f"{n} {word}" for word, n in counts.items() if n or word == "agree")
        parts.append(f"{info.name} {said}")
    return "\n".join([*textwrap.wrap(head, WIDTH), *jit, *_pack(parts, "; ", WIDTH)])


def _pack(parts: list[str], sep: str, width: int) -> list[str]:
    """``parts`` joined by ``sep`` into lines of at most ``width`` columns where they fit,
    breaking only between parts."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(sep) + len(part) <= width:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return lines
