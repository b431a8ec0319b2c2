"""The matrix in docs/conformance.md and README.md is what a fresh run produces."""

from __future__ import annotations

import importlib.util

import pytest
from conftest import ROOT

from unigrad.conformance import CASES, render, run
from unigrad.conformance._report import MARKDOWN_BEGIN, MARKDOWN_END

#: The documented columns. tensorflow is not in ``.[all]``: where it is not installed,
#: its column is left out of the comparison and the other four are still checked.
BUILTIN = ("torch", "paddle", "jax", "numpy", "tensorflow")
OPTIONAL = ("tensorflow",)
_MODULES = {
    "torch": "torch",
    "paddle": "paddle",
    "jax": "jax",
    "numpy": "autograd",
    "tensorflow": "tensorflow",
}


def _without(matrix: str, dropped: set[str]) -> str:
    """The markdown matrix with the columns (and the totals) of ``dropped`` left out."""
    if not dropped:
        return matrix
    lines = matrix.split("\n")
    names = [c.strip() for c in lines[0].strip("|").split("|")][2:]
    keep = [i for i, n in enumerate(names) if n not in dropped]
    out = []
    for line in lines:
        if line.startswith("|"):
            cells = line[1:-1].split(" | ") if not line.startswith("|---") else None
            if cells is None:
                out.append("|---|---|" + "---|" * len(keep))
                continue
            cells[0], cells[-1] = cells[0].lstrip(), cells[-1].rstrip()
            row = cells[:2] + [cells[2 + i] for i in keep]
            out.append("| " + " | ".join(row) + " |")
        elif line.startswith(f"{len(CASES)} case"):
            head, _, totals = line.partition(". ")
            parts = [p for p in totals.rstrip(".").split("; ") if p.split("**")[1] not in dropped]
            out.append(f"{head}. " + "; ".join(parts) + ".")
        else:
            out.append(line)
    return "\n".join(out)


def test_checked_in_matrix_is_current():
    absent = {b for b in BUILTIN if importlib.util.find_spec(_MODULES[b]) is None}
    missing = sorted(absent - set(OPTIONAL))
    if missing:
        pytest.skip(f"the documented matrix covers the four built-in backends; missing {missing}")
    fresh = render(run(CASES, tuple(b for b in BUILTIN if b not in absent)), "markdown")
    for page in (ROOT / "docs" / "conformance.md", ROOT / "README.md"):
        text = page.read_text(encoding="utf-8")
        checked_in = text.split(MARKDOWN_BEGIN, 1)[1].split(MARKDOWN_END, 1)[0].lstrip("\n")
        assert _without(checked_in, absent) == fresh, (
            f"{page.name} is stale: regenerate it with\n"
            "  python -m unigrad.conformance -b torch -b paddle -b jax -b numpy -b tensorflow "
            f"--format markdown --output {page.relative_to(ROOT)}"
        )
