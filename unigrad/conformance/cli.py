"""``unigrad-conformance`` / ``python -m unigrad.conformance``: run the suite, print the matrix.

Exit codes (``ExitCode``): 0 when nothing unexpected happened (every cell passed, was
skipped for a missing capability, or failed as listed in an xfails file), 1 otherwise
(a failure, an error, an unexpected pass, or an xfails line that matches no case), 2
for a usage error, 5 when no case is selected, 141 when the reader of the output went
away (``--list | head``), as for a process that SIGPIPE ended.
"""

from __future__ import annotations

import argparse
import contextlib
import enum
import os
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["DIFFERENTIAL_EXTRA", "ExitCode", "differential_requirements", "main"]

#: The extra that installs what ``--differential`` needs besides a backend.
DIFFERENTIAL_EXTRA = "certify"
#: What ``--differential`` imports: Hypothesis draws the programs, NumPy is the reference.
_DIFFERENTIAL_MODULES = ("hypothesis", "numpy")


class ExitCode(enum.IntEnum):
    """The exit codes of the CLI (pytest's numbering where it has one)."""

    #: Nothing unexpected happened.
    OK = 0
    #: A case failed, errored or unexpectedly passed, or an xfails line matched nothing.
    FAILED = 1
    #: The command line is wrong (unknown backend or format, missing xfails file).
    USAGE = 2
    #: No case matched ``-k``.
    NO_CASES = 5
    #: The output's reader closed the pipe (128 + SIGPIPE, what a shell reports).
    BROKEN_PIPE = 141


def _parser() -> argparse.ArgumentParser:
    from ._report import FORMATS

    p = argparse.ArgumentParser(
        prog="unigrad-conformance",
        description="Replay documented gradient examples on unigrad backends and print "
        "a cases x backends matrix.",
    )
    p.add_argument(
        "--backend",
        "-b",
        action="append",
        metavar="NAME",
        help="backend to run (repeatable); default: every installed backend",
    )
    p.add_argument(
        "-k",
        dest="keyword",
        metavar="EXPR",
        help="only cases whose id contains EXPR (words combined with and/or/not)",
    )
    p.add_argument(
        "--format", "-f", choices=FORMATS, default="table", help="report format (default: table)"
    )
    p.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write the report to FILE (the table still goes to the terminal); "
        "a Markdown FILE with the matrix markers gets only that part replaced",
    )
    p.add_argument(
        "--xfails",
        action="append",
        metavar="FILE",
        default=[],
        help="expected failures: one [backend::]case-id (or glob) per line, "
        "'#' comments (repeatable)",
    )
    p.add_argument(
        "--failures-only",
        action="store_true",
        help="the table shows only the cases with a failure, an error or an unexpected pass",
    )
    p.add_argument(
        "--differential",
        type=int,
        metavar="N",
        help="instead of the cases, run N random programs on each backend against the "
        "float64 reference (one row per diverging program, with its repro)",
    )
    p.add_argument(
        "--seed", type=int, default=0, metavar="S", help="Hypothesis seed of --differential"
    )
    p.add_argument(
        "--jit",
        action="store_true",
        help="with --differential: a backend that compiles steps (jax) also runs each "
        "program as one unigrad.jit step",
    )
    p.add_argument(
        "--checks",
        choices=("strict", "fast", "both"),
        default="strict",
        help="the cases: 'fast' runs them in fast mode (unigrad.checks), the strict-only "
        "ones skipped; with --differential: 'fast' or 'both' also runs each program in "
        "fast mode and fails where it breaks fast mode's guarantee against the same "
        "backend's strict run (a value, dtype or shape that differs)",
    )
    p.add_argument("--list", action="store_true", help="list the selected cases and exit")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    p.add_argument("--version", action="version", version=_version())
    return p


def _version() -> str:
    from .. import __version__

    return f"unigrad-conformance (unigrad {__version__})"


def _write_output(path: Path, text: str, fmt: str) -> None:
    from ._report import MARKDOWN_BEGIN, MARKDOWN_END

    if fmt == "markdown" and path.exists():
        old = path.read_text(encoding="utf-8")
        if MARKDOWN_BEGIN in old and MARKDOWN_END in old:
            head, _, rest = old.partition(MARKDOWN_BEGIN)
            _, _, tail = rest.partition(MARKDOWN_END)
            text = f"{head}{MARKDOWN_BEGIN}\n{text}{MARKDOWN_END}{tail}"
    path.write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (see ``ExitCode``).

    Examples:
        >>> main(["--list", "-k", "paddle.grad/create_graph"])
        paddle.grad/create_graph=False  https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/grad_en.html
        paddle.grad/create_graph=True   https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/grad_en.html
        <ExitCode.OK: 0>
    """
    args = _parser().parse_args(argv)
    try:
        return _main(args)
    except BrokenPipeError:
        # The reader went away (`--list | head`): say nothing more, and keep Python's
        # exit-time flush of stdout from raising again (the recipe of the signal docs).
        with contextlib.suppress(AttributeError, OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return ExitCode.BROKEN_PIPE


def _main(args: argparse.Namespace) -> int:
    from .._dispatch import backends as installed
    from ._progress import Progress, quiet_frameworks, wants_colour
    from ._report import render, summary_line
    from ._runner import load_xfails, run, select
    from .cases import CASES

    if args.differential is not None:
        missing = differential_requirements()
        if missing:
            print(f"unigrad-conformance: --differential {missing}", file=sys.stderr)
            return ExitCode.USAGE
        from .differential._cli import main as differential

        return differential(args)
    cases = select(CASES, args.keyword)
    if args.list:
        width = max((len(c.id) for c in cases), default=0)
        for c in cases:
            print(f"{c.id.ljust(width)}  {c.source}")
        return ExitCode.OK if cases else ExitCode.NO_CASES
    if not cases:
        print(f"unigrad-conformance: no case matches -k {args.keyword!r}", file=sys.stderr)
        return ExitCode.NO_CASES

    known = installed()
    names = list(dict.fromkeys(args.backend)) if args.backend else list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"unigrad-conformance: {_unknown_backends(unknown, known)}", file=sys.stderr)
        return ExitCode.USAGE
    xfails = []
    for f in args.xfails:
        try:
            xfails.extend(load_xfails(f))
        except OSError as err:
            print(f"unigrad-conformance: cannot read xfails file {f}: {err}", file=sys.stderr)
            return ExitCode.USAGE

    progress = None if args.quiet else Progress(sys.stderr, names, len(cases))
    with quiet_frameworks():
        report = run(
            cases,
            names,
            xfails=xfails,
            all_cases=CASES,
            progress=progress,
            started=None if progress is None else progress.started,
            fast=args.checks != "strict",
        )
    colour = wants_colour(sys.stdout)
    table = render(report, "table", colour=colour, failures_only=args.failures_only)
    if args.output:
        _write_output(Path(args.output), render(report, args.format), args.format)
        if args.format != "table":
            print(table, end="")
    else:
        print(table if args.format == "table" else render(report, args.format), end="")
    table_shown = (args.format != "table") if args.output else (args.format == "table")
    if not table_shown:  # the table ends with the summary: print it once
        print(summary_line(report), file=sys.stderr)
    return ExitCode.OK if report.ok else ExitCode.FAILED


def differential_requirements() -> str:
    """Why the differential tester cannot run here, in words that follow its option's name
    (``"needs hypothesis, which is not installed: pip install 'unigrad[certify]'"``);
    ``""`` when Hypothesis and NumPy are importable."""
    missing = [m for m in _DIFFERENTIAL_MODULES if not _importable(m)]
    if not missing:
        return ""
    what = " and ".join(missing)
    verb = "is" if len(missing) == 1 else "are"
    return f"needs {what}, which {verb} not installed: pip install 'unigrad[{DIFFERENTIAL_EXTRA}]'"


def _importable(module: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a blocked (None) or broken entry of sys.modules
        return False


def _unknown_backends(unknown: list[str], known: Sequence[str]) -> str:
    """Why these backends cannot run, and what to install."""
    from .._dispatch import missing_requirements

    lines = []
    for name in unknown:
        missing = missing_requirements(name)
        if missing:
            lines.append(
                f"backend {name!r} needs {', '.join(missing)}, which is not installed: "
                f"pip install 'unigrad[{name}]'"
            )
        else:
            lines.append(
                f"unknown backend {name!r}: expected one of {list(known)} (install "
                f"the framework, or register a third-party backend under the entry-point "
                f"group 'unigrad.backends')"
            )
    return "\n".join(lines)
