"""Report formats of the conformance matrix: table, json, junit, markdown.

``markdown`` is deterministic (statuses only: no timings, versions or messages), so a
checked-in copy can be compared with a fresh run.
"""

from __future__ import annotations

import json
from typing import Any
from xml.etree import ElementTree as ET

from ._progress import Palette
from ._runner import Report, Result, Status

__all__ = ["FORMATS", "MARKDOWN_BEGIN", "MARKDOWN_END", "render", "summary_line"]

#: The formats ``render`` knows.
FORMATS = ("table", "json", "junit", "markdown")

#: Markers around the generated matrix in a Markdown file (see ``--output``).
MARKDOWN_BEGIN = "<!-- unigrad-conformance matrix: begin (generated; do not edit) -->"
MARKDOWN_END = "<!-- unigrad-conformance matrix: end -->"

_CELL = {
    Status.PASS: "pass",
    Status.FAIL: "FAIL",
    Status.ERROR: "ERROR",
    Status.XFAIL: "xfail",
    Status.XPASS: "XPASS",
    Status.SKIP: "skip",
}
_MD_CELL = {
    Status.PASS: "✅",
    Status.FAIL: "❌ fail",
    Status.ERROR: "⛔ error",
    Status.XFAIL: "⚠️ xfail",
    Status.XPASS: "❗ xpass",
    Status.SKIP: "skip",
}


def render(
    report: Report,
    fmt: str,
    *,
    colour: bool = False,
    failures_only: bool = False,
    summary: str | None = None,
) -> str:
    """The report in format ``fmt`` (one of ``FORMATS``), as text.

    ``colour`` (ANSI colours), ``failures_only`` (only the rows with a failure, an
    error or an unexpected pass) and ``summary`` (the table's last lines instead of
    `summary_line`) apply to the table; the other formats are complete.
    """
    if fmt == "table":
        return _table(report, Palette(colour), failures_only, summary)
    if fmt == "json":
        return json.dumps(_as_dict(report), indent=2, ensure_ascii=False) + "\n"
    if fmt == "junit":
        return _junit(report)
    if fmt == "markdown":
        return _markdown(report)
    msg = f"unknown report format {fmt!r}: expected one of {FORMATS}"
    raise ValueError(msg)


def _counts_text(report: Report, backend: str) -> str:
    counts = report.counts(backend)
    return ", ".join(f"{n} {s.value}" for s, n in counts.items() if n) or "no cases"


def _cases(n: int) -> str:
    return f"{n} case" if n == 1 else f"{n} cases"


def summary_line(report: Report) -> str:
    """``"112 cases: torch 112 pass; paddle 110 pass, 2 fail"``."""
    parts = [f"{b.name} {_counts_text(report, b.name)}" for b in report.backends]
    line = f"{_cases(len(report.cases))}: " + "; ".join(parts)
    if report.unmatched_xfails:
        line += f"; {len(report.unmatched_xfails)} xfail line(s) matched no case"
    return line


# ---- table ---------------------------------------------------------------------------------
def _table(report: Report, palette: Palette, failures_only: bool, summary: str | None) -> str:
    names = [b.name for b in report.backends]
    rows = report.cases
    if failures_only:
        rows = [c for c in rows if any(not report.result(c.id, n).status.ok for n in names)]
    width = max([len("case"), *(len(c.id) for c in rows)])
    cols = [max(len(n), 5) for n in names]
    lines = []
    for b in report.backends:
        what = ", ".join(f"{k} {v}" for k, v in b.versions.items()) or b.error
        lines.append(f"{b.name}: {what}")
    lines.append("")
    header = (n.ljust(w) for n, w in zip(names, cols, strict=True))
    lines.append("  ".join(["case".ljust(width), *header]))
    lines.append("  ".join(["-" * width, *("-" * w for w in cols)]))
    for case in rows:
        cells = []
        for n, w in zip(names, cols, strict=True):
            status = report.result(case.id, n).status
            cells.append(
                palette.status(status.value, _CELL[status]) + " " * (w - len(_CELL[status]))
            )
        lines.append("  ".join([case.id.ljust(width), *cells]).rstrip())
    if failures_only:
        hidden = len(report.cases) - len(rows)
        lines.append(f"({hidden} of {_cases(len(report.cases))} without a failure not shown)")
    problems = report.problems
    xfailed = [r for r in report.results.values() if r.status is Status.XFAIL]
    if problems or xfailed or report.unmatched_xfails:
        lines.append("")
    broken = {b.name: b.error for b in report.backends if b.error}
    for name, error in broken.items():
        lines.append(f"{palette.bad('ERROR')} {name} (every case): {error}")
    for r in problems:
        if r.backend not in broken:
            mark = palette.status(r.status.value, _CELL[r.status])
            lines.append(f"{mark} {r.case} [{r.backend}]: {r.reason}")
    if not failures_only:
        for r in xfailed:
            lines.append(f"{palette.warn('xfail')} {r.case} [{r.backend}]: {r.reason}")
    for e in report.unmatched_xfails:
        scope = f"{e.backend}::" if e.backend else ""
        lines.append(
            f"{palette.bad('UNMATCHED')} xfail line {e.origin}: {scope}{e.pattern} matches no case"
        )
    lines.append("")
    paint = palette.good if report.ok else palette.bad
    lines.extend(paint(line) for line in (summary or summary_line(report)).splitlines())
    return "\n".join(lines) + "\n"


# ---- json ----------------------------------------------------------------------------------
def _as_dict(report: Report) -> dict[str, Any]:
    from .. import __version__

    return {
        "unigrad": __version__,
        "ok": report.ok,
        "summary": {
            b.name: {s.value: n for s, n in report.counts(b.name).items()} for b in report.backends
        },
        "backends": [
            {"name": b.name, "versions": b.versions, "available": not b.error, "error": b.error}
            for b in report.backends
        ],
        "cases": [
            {
                "id": c.id,
                "source": c.source,
                "expects": "error " + c.raises.__name__ if c.raises else "result",
                "results": {
                    b.name: _result_dict(report.result(c.id, b.name)) for b in report.backends
                },
            }
            for c in report.cases
        ],
        "unmatched_xfails": [
            {"origin": e.origin, "backend": e.backend, "pattern": e.pattern}
            for e in report.unmatched_xfails
        ],
    }


def _result_dict(r: Result) -> dict[str, Any]:
    out: dict[str, Any] = {"status": r.status.value, "seconds": round(r.seconds, 6)}
    if r.reason:
        out["reason"] = r.reason
    return out


# ---- junit ---------------------------------------------------------------------------------
def _junit(report: Report) -> str:
    root = ET.Element("testsuites", name="unigrad-conformance")
    total = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for b in report.backends:
        results = [report.result(c.id, b.name) for c in report.cases]
        counts = {
            "tests": len(results),
            "failures": sum(r.status in (Status.FAIL, Status.XPASS) for r in results),
            "errors": sum(r.status is Status.ERROR for r in results),
            "skipped": sum(r.status in (Status.SKIP, Status.XFAIL) for r in results),
        }
        attrs = {
            "name": f"unigrad-conformance[{b.name}]",
            "time": f"{sum(r.seconds for r in results):.6f}",
            **{k: str(v) for k, v in counts.items()},
        }
        suite = ET.SubElement(root, "testsuite", attrs)
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="backend", value=b.name)
        for k, v in b.versions.items():
            ET.SubElement(props, "property", name=k, value=v)
        for case, r in zip(report.cases, results, strict=True):
            tc = ET.SubElement(
                suite,
                "testcase",
                classname=f"unigrad.conformance.{b.name}",
                name=case.id,
                time=f"{r.seconds:.6f}",
            )
            if r.status in (Status.FAIL, Status.XPASS):
                el = ET.SubElement(tc, "failure", message=r.reason, type=r.status.value)
                el.text = r.detail or r.reason
            elif r.status is Status.ERROR:
                ET.SubElement(tc, "error", message=r.reason, type="error").text = r.reason
            elif r.status in (Status.SKIP, Status.XFAIL):
                ET.SubElement(tc, "skipped", message=f"{r.status.value}: {r.reason}")
        for key, n in counts.items():
            total[key] += n
    if report.unmatched_xfails:
        stale = ET.SubElement(
            root,
            "testsuite",
            name="unigrad-conformance[xfails]",
            tests=str(len(report.unmatched_xfails)),
            failures=str(len(report.unmatched_xfails)),
            errors="0",
            skipped="0",
            time="0",
        )
        for e in report.unmatched_xfails:
            tc = ET.SubElement(
                stale, "testcase", classname="unigrad.conformance.xfails", name=e.origin, time="0"
            )
            ET.SubElement(
                tc,
                "failure",
                message=f"xfail line {e.pattern!r} matches no case",
                type="unmatched-xfail",
            )
        total["tests"] += len(report.unmatched_xfails)
        total["failures"] += len(report.unmatched_xfails)
    for key, n in total.items():
        root.set(key, str(n))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, "unicode") + "\n"


# ---- markdown ------------------------------------------------------------------------------
def _md(text: str) -> str:
    return text.replace("|", "\\|")


def _md_code(text: str) -> str:
    """``text`` as inline code in a table cell. A ``|`` would end the cell, and ``\\|``
    inside backticks keeps its backslash in Python-Markdown (mkdocs), so such an id is
    written as HTML with the pipe as an entity, which GitHub and mkdocs both render."""
    if "|" not in text:
        return f"`{text}`"
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "<code>" + escaped.replace("|", "&#124;") + "</code>"


def _md_source(source: str) -> str:
    if source.startswith(("http://", "https://")):
        host = source.split("/")[2].removeprefix("www.")
        return f"[{host}]({source})"
    return _md(source.split(" (")[0])


def _markdown(report: Report) -> str:
    names = [b.name for b in report.backends]
    lines = [
        "| case | source | " + " | ".join(names) + " |",
        "|---|---|" + "---|" * len(names),
    ]
    for c in report.cases:
        cells = [_MD_CELL[report.result(c.id, n).status] for n in names]
        lines.append(f"| {_md_code(c.id)} | {_md_source(c.source)} | " + " | ".join(cells) + " |")
    lines.append("")
    totals = [f"**{n}**: {_counts_text(report, n)}" for n in names]
    lines.append(f"{_cases(len(report.cases))}. " + "; ".join(totals) + ".")
    return "\n".join(lines) + "\n"
