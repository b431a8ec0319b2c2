"""docs/semantics.md is the tested contract: every test it names exists, and every
contract test is named there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {
        n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")
    }


def test_every_test_named_in_semantics_md_exists():
    doc = (ROOT / "docs" / "semantics.md").read_text()
    named = set(re.findall(r"`(test_\w+)`", doc))
    defined: set[str] = set()
    for name in (
        "test_contract",
        "test_errors",
        "test_bad_input",
        "test_reliability",
        "test_any_program",
        "test_differential",
        "test_compile",
    ):
        defined |= _test_names(ROOT / "tests" / f"{name}.py")
    assert named, "semantics.md names no test"
    assert named - defined == set(), "semantics.md names tests that do not exist"


def test_every_contract_test_is_named_in_semantics_md():
    doc = (ROOT / "docs" / "semantics.md").read_text()
    named = set(re.findall(r"`(test_\w+)`", doc))
    missing = (
        _test_names(ROOT / "tests" / "test_contract.py")
        | _test_names(ROOT / "tests" / "test_any_program.py")
        | _test_names(ROOT / "tests" / "test_bad_input.py")
        | _test_names(ROOT / "tests" / "test_reliability.py")
    ) - named
    assert missing == set(), "contract tests missing from docs/semantics.md"


def test_nothing_is_left_unspecified():
    doc = (ROOT / "docs" / "semantics.md").read_text()
    _, _, section = doc.partition("## Left unspecified")
    section = section.split("\n## ", 1)[0]
    items = [line for line in section.splitlines() if line.lstrip().startswith(("- ", "* "))]
    assert items == [], "docs/semantics.md leaves behaviour unspecified"
