"""The built documentation site reads as written: checks over its HTML, not its sources.

``mkdocs build --strict`` catches broken links and missing pages, not what a reader sees:
Sphinx roles printed literally (``:class: GraphFreedError``), a Markdown table that did
not become one, a ``\\|`` that kept its backslash, a Returns section split into one row
per line, a numbered list restarted at 1, an unresolved snippet. The site is built once
per session into a temporary directory (about 10 s), or read from ``UNIGRAD_SITE_DIR``
when CI has just built it. Skipped without mkdocs (the ``docs`` extra).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|data|mod|exc|obj|ref|doc):\s*`?\w")
SOURCE_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|data|mod|exc|obj|ref|doc):`")


def test_no_sphinx_role_in_the_sources():
    # The house rule, checked where it is broken (runs without mkdocs): mkdocs prints
    # `:class:` roles literally. Write `Name`, or a Markdown link.
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "unigrad").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if SOURCE_ROLE.search(line)
    ]
    assert not found, "\n".join(found)


class _Page(HTMLParser):
    """The text of a page's article, and the structure the checks look at."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.in_article = 0
        self.text: list[str] = []  # text nodes of the article
        self.paragraphs: list[str] = []  # the text of each <p>
        self.ordered_lists: list[int] = []  # items per top-level <ol>
        self.returns_rows: list[int] = []  # rows of each "Returns:" table
        self._p: list[str] | None = None
        self._ol_depth = 0
        self._after_returns = False
        self._table_rows: int | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self.in_article += 1
        if not self.in_article:
            return
        if tag == "p":
            self._p = []
        elif tag == "ol":
            self._ol_depth += 1
            if self._ol_depth == 1:
                self.ordered_lists.append(0)
        elif tag == "li" and self._ol_depth == 1:
            self.ordered_lists[-1] += 1
        elif tag == "table" and self._after_returns:
            self._table_rows, self._after_returns = 0, False
        elif (
            tag == "tr" and self._table_rows is not None and ("class", "doc-section-item") in attrs
        ):
            self._table_rows += 1

    def handle_endtag(self, tag: str) -> None:
        if not self.in_article:
            return
        if tag == "article":
            self.in_article -= 1
        elif tag == "p" and self._p is not None:
            text = "".join(self._p).strip()
            self.paragraphs.append(text)
            self._after_returns = text == "Returns:"
            self._p = None
        elif tag == "ol":
            self._ol_depth -= 1
        elif tag == "table" and self._table_rows is not None:
            self.returns_rows.append(self._table_rows)
            self._table_rows = None

    def handle_data(self, data: str) -> None:
        if not self.in_article:
            return
        self.text.append(data)
        if self._p is not None:
            self._p.append(data)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("UNIGRAD_SITE_DIR")
    if given:
        return Path(given)
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def _pages(site: Path) -> dict[str, _Page]:
    pages = {}
    for html in sorted(site.rglob("index.html")):
        rel = html.parent.relative_to(site).as_posix()
        rel = "index" if rel == "." else rel
        if rel.startswith(("search", "assets")) or rel == "404":
            continue
        page = _Page()
        page.feed(html.read_text(encoding="utf-8"))
        pages[rel] = page
    return pages


@pytest.fixture(scope="session")
def pages(site: Path) -> dict[str, _Page]:
    found = _pages(site)
    assert {"index", "api", "conformance", "data-parallel"} <= set(found), sorted(found)
    return found


@pytest.mark.long  # builds the site (about 10 s) unless UNIGRAD_SITE_DIR names one
def test_no_sphinx_role_is_printed(pages):
    bad = {
        name: sorted(set(ROLE.findall(" ".join(p.text))))
        for name, p in pages.items()
        if ROLE.search(" ".join(p.text))
    }
    assert not bad, f"Sphinx roles render literally (write `Name` instead): {bad}"


@pytest.mark.long
def test_every_markdown_table_became_a_table(pages):
    # A table Markdown did not parse stays a paragraph of pipes.
    bad = {
        name: [t[:80] for t in p.paragraphs if t.startswith("|") and t.count("|") >= 3]
        for name, p in pages.items()
    }
    assert not {k: v for k, v in bad.items() if v}


@pytest.mark.long
def test_no_escaped_pipe_keeps_its_backslash(pages):
    bad = [name for name, p in pages.items() if "\\|" in "".join(p.text)]
    assert not bad


@pytest.mark.long
def test_returns_sections_are_one_description(pages):
    # Google style: one Returns description, continued on indented lines; griffe's
    # default made each line a row of its own.
    rows = pages["api"].returns_rows
    assert rows, "the API reference has no Returns section"
    assert set(rows) == {1}, rows


@pytest.mark.long
def test_numbered_steps_are_one_list(pages):
    # "Certifying a third-party backend": steps 1-3, a code block inside step 2.
    assert 3 in pages["conformance"].ordered_lists, pages["conformance"].ordered_lists


@pytest.mark.long
def test_snippets_were_included(pages):
    text = "".join(pages["data-parallel"].text)
    assert "--8<--" not in text
    assert "DistributedDataParallel(make_critic())" in text
    assert "jax.jit(critic_step)" in text
