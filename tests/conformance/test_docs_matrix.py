"""The matrix in docs/conformance.md and README.md is what a fresh run produces."""

from __future__ import annotations

import importlib.util

import pytest
from conftest import ROOT

from unigrad.conformance import CASES, render, run
from unigrad.conformance._report import MARKDOWN_BEGIN, MARKDOWN_END

BUILTIN = ("torch", "paddle", "jax", "numpy")
_MODULES = {"torch": "torch", "paddle": "paddle", "jax": "jax", "numpy": "autograd"}


def test_checked_in_matrix_is_current():
    missing = [b for b in BUILTIN if importlib.util.find_spec(_MODULES[b]) is None]
    if missing:
        pytest.skip(f"the documented matrix covers all four backends; missing {missing}")
    fresh = render(run(CASES, BUILTIN), "markdown")
    for page in (ROOT / "docs" / "conformance.md", ROOT / "README.md"):
        text = page.read_text(encoding="utf-8")
        checked_in = text.split(MARKDOWN_BEGIN, 1)[1].split(MARKDOWN_END, 1)[0].lstrip("\n")
        assert checked_in == fresh, (
            f"{page.name} is stale: regenerate it with\n"
            "  python -m unigrad.conformance -b torch -b paddle -b jax -b numpy "
            f"--format markdown --output {page.relative_to(ROOT)}"
        )
