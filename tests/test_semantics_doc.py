"""docs/semantics.md is the tested contract: every test it names exists, and every
contract test is named there. And it can be used to look a rule up: its tables have one
short row per rule, each linking to the rule's own section."""

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
    for path in (ROOT / "tests").glob("test_*.py"):  # (a rule may cite any test module)
        defined |= _test_names(path)
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


# ---- a page to look a rule up in ----------------------------------------------------------
#: The longest table cell, in characters as shown (a link's text without its URL, code
#: without its backticks, no emphasis markers): at 1280 px, two lines of the widest column
#: (checked with headless Chromium screenshots of the built site).
MAX_CELL = 120
#: The longest code span in a cell: a longer identifier would break mid-word.
MAX_CODE = 40


def _split_row(line: str) -> list[str]:
    """The cells of a Markdown table row (pipes inside code spans do not split)."""
    cells, cur, code = [], "", False
    for ch in line.strip()[1:-1]:
        if ch == "`":
            code = not code
        if ch == "|" and not code and not cur.endswith("\\"):
            cells.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*cells, cur.strip()]


def _table_rows(doc: str) -> list[list[str]]:
    """Every row of every table, header rows included, delimiter rows left out."""
    return [
        _split_row(line)
        for line in doc.splitlines()
        if line.startswith("|") and not re.fullmatch(r"\|[-| :]+\|", line.strip())
    ]


def _shown(cell: str) -> str:
    cell = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", cell)
    return cell.replace("`", "").replace("**", "")


def _slugs(heading: str) -> set[str]:
    """The anchors of a heading: mkdocs's (Python-Markdown toc) and GitHub's."""
    text = heading.replace("`", "").replace("*", "")
    mkdocs = re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip().lower())
    github = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
    return {mkdocs, github}


def test_every_table_cell_is_short():
    doc = (ROOT / "docs" / "semantics.md").read_text()
    rows = _table_rows(doc)
    assert len(rows) > 60
    long = [c[:60] for row in rows for c in row if len(_shown(c)) > MAX_CELL]
    assert long == [], f"cells over {MAX_CELL} characters: move the text into the rule's section"
    codes = [c for row in rows for cell in row for c in re.findall(r"`([^`]+)`", cell)]
    assert [c for c in codes if len(c) > MAX_CODE] == []


def test_every_rule_row_links_to_its_own_section():
    doc = (ROOT / "docs" / "semantics.md").read_text()
    headings = re.findall(r"^#{2,4} (.+)$", doc, re.M)
    slugs = [_slugs(h) for h in headings]
    assert all(len(s) == 1 for s in slugs), "a heading whose anchor differs on GitHub"
    anchors = [next(iter(s)) for s in slugs]
    assert len(set(anchors)) == len(anchors), "two headings with one anchor"
    rows = [r for r in _table_rows(doc) if "](#" in " ".join(r)]
    links = [m for r in rows for m in re.findall(r"\]\(#([^)]+)\)", " ".join(r))]
    assert len(links) > 60
    assert len(set(links)) == len(links), "two rows link to one section"
    assert sorted(set(links) - set(anchors)) == []
    # each section says what the frameworks do natively, what unigrad does, and the tests
    for link in links:
        heading = headings[anchors.index(link)]
        body = doc.split(f"\n### {heading}\n", 1)[1].split("\n#", 1)[0]
        assert "- **tests**:" in body, heading
        assert "- **unigrad" in body, heading
