"""``python -m unigrad.conformance --differential N [--seed S]``: certify backends."""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

__all__ = ["main"]


def main(args: argparse.Namespace) -> int:
    """Run the differential certification for the parsed CLI ``args``; the exit code."""
    from ..._dispatch import backends as installed
    from .._progress import quiet_frameworks
    from .._report import render, summary_line
    from ..cli import ExitCode
    from ._certify import certify

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

    def progress(done: int, total: int) -> None:
        if done == total or done % 50 == 0:
            print(f"\rdifferential: {done}/{total} programs", end="", file=sys.stderr)
            if done == total:
                print(file=sys.stderr)

    # The programs overflow, divide by zero and provoke framework errors on purpose: the
    # frameworks' logs and NumPy's floating-point warnings would read like failures.
    with quiet_frameworks(), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        summary = certify(
            args.differential,
            args.seed,
            names,
            progress=None if args.quiet else progress,
            compiled=args.jit,
        )
    report = summary.report
    if report is None:  # certify always sets it
        return ExitCode.FAILED
    text = render(report, args.format)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    # repros of the divergences no KNOWN entry explains: each backend's first, then more
    unknown = [d for d in summary.divergences if not d.known]
    firsts = list({d.backend: d for d in reversed(unknown)}.values())[::-1]
    shown = (firsts + [d for d in unknown if d not in firsts])[:5]
    for d in sorted(shown, key=lambda d: d.index):
        print(f"\n--- repro (program {d.index}, {d.backend}) ---\n{d.repro()}", file=sys.stderr)
    if len(unknown) > 5:
        print(f"\n({len(unknown) - 5} more unknown divergences not shown)", file=sys.stderr)
    from ._generate import PLANNED

    cov = summary.coverage
    short = False
    if cov is not None:
        print(cov.line(), file=sys.stderr)
        missing = cov.missing()
        if missing and summary.programs >= PLANNED:
            short = True
            for mode, names in missing.items():
                print(f"  not drawn ({mode}): {', '.join(names)}", file=sys.stderr)
    print(
        f"{summary_line(report)}; {summary.programs} programs, {summary.degenerate} degenerate, "
        f"{len(summary.divergences)} divergences in {summary.seconds:.1f}s (seed {summary.seed})",
        file=sys.stderr,
    )
    if short:
        print(
            f"unigrad-conformance: {PLANNED} programs or more must draw every differentiable "
            "namespace function in every mode",
            file=sys.stderr,
        )
    return ExitCode.OK if report.ok and not short else ExitCode.FAILED
