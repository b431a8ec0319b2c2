"""Every example in the documentation runs.

Two sources, one test item each:

* ``>>>`` examples in unigrad's public docstrings (any object whose qualified name has no
  part starting with ``_``, in any module of the package, private modules included since
  the public names are defined there). Found statically, then run with :mod:`doctest`
  (``ELLIPSIS`` and ``NORMALIZE_WHITESPACE`` on) in the module's globals.
* fenced ``python`` / ``py`` / ``pycon`` blocks in ``docs/*.md`` and ``README.md``. A block
  whose first line starts with ``>>>`` (and every ``pycon`` block) is a doctest; any other
  block is executed and must not raise. A doctest runs alone, in a fresh namespace, as a
  reader pastes it into a new interpreter: it imports and builds what it uses. The other
  blocks of one page share one namespace and run in page order, like a reader following
  the page's script. Fences may be indented (content
  tabs, admonitions). To show code that must not run, put ``<!-- docs-test: skip -->`` on
  the line before the fence, or use another language tag (``text``, ``bash``).

An example that needs a framework that is not installed is skipped, not failed: found
from its imports before it runs, or from the error it raises (a missing framework module,
or unigrad's "backend not installed" error). So each CI job, which installs one
framework, runs the examples of that framework.
"""

from __future__ import annotations

import ast
import dataclasses
import doctest
import importlib
import importlib.util
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import unigrad

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "unigrad"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

# Top-level modules whose absence skips an example. Differentiating numpy arrays also needs
# autograd, which a numpy example need not import: that case is caught from its error.
_FRAMEWORK_MODULES = (
    "torch",
    "paddle",
    "jax",
    "jaxlib",
    "numpy",
    "autograd",
    "array_api_compat",
    "tensorflow",
)
_BUILTIN_BACKENDS = ("torch", "paddle", "jax", "numpy")
_IMPORT = re.compile(
    r"^\s*(?:>>>\s*)?(?:import\s+([\w.]+(?:\s*(?:as\s+\w+)?\s*,\s*[\w.]+)*)|from\s+([\w.]+)\s+import)",
    re.M,
)
_SKIP_MARK = "<!-- docs-test: skip -->"
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^\n`]*)$")
_PY_LANGS = {"python", "py", "python3", "pycon"}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _missing_frameworks(source: str) -> list[str]:
    """The framework modules ``source`` imports that are not installed here."""
    wanted: set[str] = set()
    for m in _IMPORT.finditer(source):
        if m.group(1):
            for part in m.group(1).split(","):
                wanted.add(part.strip().split()[0].split(".")[0])
        else:
            wanted.add(m.group(2).split(".")[0])
    return sorted(w for w in wanted & set(_FRAMEWORK_MODULES) if not _installed(w))


def _missing_from_error(exc: BaseException) -> str | None:
    """A reason to skip if ``exc`` says that a framework or backend is not installed."""
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        root = exc.name.split(".")[0]
        if root in _FRAMEWORK_MODULES and not _installed(root):
            return f"needs {root}, which is not installed"
    if isinstance(exc, ModuleNotFoundError) and (exc.name or "").startswith("unigrad.backends."):
        name = exc.name.rsplit(".", 1)[1]  # type: ignore[union-attr]
        if name in _BUILTIN_BACKENDS and not (PACKAGE / "backends" / f"{name}.py").exists():
            return f"the {name} backend is not in this source tree yet"
    if isinstance(exc, unigrad.BackendError):
        absent = set(_BUILTIN_BACKENDS) - set(unigrad.backends())
        named = sorted(b for b in absent if repr(b) in str(exc) or f"[{b}]" in str(exc))
        if named:
            return f"needs the {named[0]} backend, which is not installed"
    return None


# --------------------------------------------------------------------------- doctests


class _Runner(doctest.DocTestRunner):
    """A DocTestRunner that also keeps the first unexpected exception."""

    def __init__(self) -> None:
        super().__init__(optionflags=FLAGS, verbose=False)
        self.first_error: BaseException | None = None

    def report_unexpected_exception(self, out: Any, test: Any, example: Any, exc_info: Any) -> None:
        if self.first_error is None:
            self.first_error = exc_info[1]
        super().report_unexpected_exception(out, test, example, exc_info)


@pytest.fixture(autouse=True)
def _jax_defaults() -> Iterator[None]:
    """Examples show what a user sees: jax with its default config (32-bit).

    Other tests (the conformance runner, the ``backend`` fixture) turn on
    ``jax_enable_x64`` process-wide; it is switched off here and restored afterwards.
    """
    jax = sys.modules.get("jax")
    if jax is None:
        yield
        return
    previous = bool(jax.config.jax_enable_x64)
    jax.config.update("jax_enable_x64", False)
    try:
        yield
    finally:
        jax.config.update("jax_enable_x64", previous)


def _run_doctest(test: doctest.DocTest) -> None:
    missing = _missing_frameworks("\n".join(ex.source for ex in test.examples))
    if missing:
        pytest.skip(f"needs {', '.join(missing)}, which is not installed")
    runner = _Runner()
    out = io.StringIO()
    result = runner.run(test, out=out.write, clear_globs=False)
    if result.failed:
        reason = runner.first_error and _missing_from_error(runner.first_error)
        if reason:
            pytest.skip(reason)
        pytest.fail(f"doctest {test.name} failed:\n{out.getvalue()}", pytrace=False)


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _docstring_examples() -> list[tuple[str, str]]:
    """(module, qualname) of every public docstring with a ``>>>`` example ("" = module)."""
    found: list[tuple[str, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        module = _module_name(path)

        def visit(node: ast.AST, qual: str, module: str = module) -> None:
            doc = (
                ast.get_docstring(node, clean=False)
                if isinstance(
                    node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
                )
                else None
            )
            if doc and ">>>" in doc:
                found.append((module, qual))
            for child in getattr(node, "body", []):
                if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    if child.name.startswith("_"):
                        continue
                    visit(child, f"{qual}.{child.name}" if qual else child.name)

        visit(tree, "")
    return found


DOCSTRINGS = _docstring_examples()


@pytest.mark.parametrize(
    ("module", "qualname"), DOCSTRINGS, ids=[f"{m}:{q or '<module>'}" for m, q in DOCSTRINGS]
)
def test_docstring_examples(module: str, qualname: str) -> None:
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:  # a backend module whose framework is absent
        reason = _missing_from_error(exc)
        if reason:
            pytest.skip(reason)
        raise
    obj: Any = mod
    for part in filter(None, qualname.split(".")):
        obj = getattr(obj, part)
    obj = getattr(obj, "__func__", obj)  # classmethod / staticmethod
    name = f"{module}.{qualname}" if qualname else module
    tests = doctest.DocTestFinder(recurse=False, exclude_empty=True).find(
        obj, name, module=mod, globs=dict(vars(mod))
    )
    assert tests, f"{name}: a '>>>' in its docstring, but doctest found no example"
    for test in tests:
        _run_doctest(test)


def test_public_api_is_documented_with_examples() -> None:
    """Each public callable of ``unigrad`` has a docstring (examples are encouraged)."""
    undocumented = [
        name
        for name in unigrad.__all__
        if callable(getattr(unigrad, name)) and not (getattr(unigrad, name).__doc__ or "").strip()
    ]
    assert undocumented == []


def test_api_reference_lists_every_public_name() -> None:
    """docs/api.md has a ``::: unigrad.NAME`` entry for each name in ``unigrad.__all__``."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^::: unigrad\.(?:_\w+\.)*(\w+)\s*$", text, re.M))
    missing = sorted(set(unigrad.__all__) - listed - {"__version__"})
    assert missing == [], f"add these to docs/api.md: {missing}"


# ------------------------------------------------------------------------- markdown


@dataclasses.dataclass(frozen=True)
class Block:
    page: Path
    line: int  # 1-based line of the first line of code
    lang: str
    code: str
    skip: bool

    @property
    def is_doctest(self) -> bool:
        return self.lang == "pycon" or self.code.lstrip().startswith(">>>")


def _blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group("indent"), m.group("fence"), m.group("info").strip()
        lang = info.split()[0].lstrip("{.").rstrip("}").lower() if info else ""
        start = i + 1
        j = start
        while j < len(lines) and not (
            lines[j].strip().startswith(fence[0] * len(fence))
            and lines[j].strip().strip(fence[0]) == ""
        ):
            j += 1
        if lang in _PY_LANGS:
            body = [
                ln[len(indent) :] if ln.startswith(indent) else ln.lstrip() for ln in lines[start:j]
            ]
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            skip = k >= 0 and lines[k].strip() == _SKIP_MARK
            blocks.append(Block(page, start + 1, lang, "\n".join(body) + "\n", skip))
        i = j + 1
    return blocks


PAGES = sorted((ROOT / "docs").glob("**/*.md")) + [p for p in [ROOT / "README.md"] if p.exists()]
BLOCKS = [b for page in PAGES for b in _blocks(page)]


@dataclasses.dataclass
class _PageState:
    namespace: dict[str, Any]
    next_index: int = 0
    skipped: bool = False  # an earlier block was skipped: later NameErrors are skips too


_STATES: dict[Path, _PageState] = {}


def _execute(block: Block, state: _PageState) -> str | None:
    """Run one block in its page's namespace; a skip reason, or None when it ran."""
    if block.skip:
        return "marked <!-- docs-test: skip -->"
    missing = _missing_frameworks(block.code)
    if missing:
        return f"needs {', '.join(missing)}, which is not installed"
    where = f"{block.page.relative_to(ROOT)}:{block.line}"
    if block.is_doctest:
        fresh = {"__name__": "__docs__"}
        test = doctest.DocTestParser().get_doctest(
            block.code, fresh, where, str(block.page), block.line - 1
        )
        runner = _Runner()
        out = io.StringIO()
        result = runner.run(test, out=out.write, clear_globs=False)
        if result.failed:
            error = runner.first_error
            reason = error and _missing_from_error(error)
            if reason:
                return reason
            pytest.fail(f"{where}: example failed:\n{out.getvalue()}", pytrace=False)
        return None
    code = compile("\n" * (block.line - 1) + block.code, str(block.page), "exec")
    try:
        exec(code, state.namespace)
    except Exception as exc:
        reason = _missing_from_error(exc)
        if reason:
            return reason
        if state.skipped and isinstance(exc, NameError):
            return f"depends on an earlier skipped block ({exc})"
        raise
    return None


@pytest.mark.parametrize(
    "block", BLOCKS, ids=[f"{b.page.relative_to(ROOT)}:{b.line}" for b in BLOCKS]
)
def test_markdown_examples(block: Block) -> None:
    page_blocks = [b for b in BLOCKS if b.page == block.page]
    index = page_blocks.index(block)
    state = _STATES.get(block.page)
    if state is None or state.next_index > index:  # first block, or run again: start over
        state = _STATES[block.page] = _PageState({"__name__": "__docs__"})
    # Blocks of this page that were not run yet (a -k selection): run them first.
    while state.next_index < index:
        earlier = page_blocks[state.next_index]
        state.next_index += 1
        try:
            if _execute(earlier, state) is not None:
                state.skipped = True
        except (Exception, pytest.fail.Exception):
            state.skipped = True
    state.next_index = index + 1
    reason = _execute(block, state)
    if reason is not None:
        state.skipped = True
        pytest.skip(reason)


def test_markdown_pages_found() -> None:
    """The docs exist and hold examples: an empty parametrisation would pass silently."""
    assert (ROOT / "docs" / "index.md").exists()
    assert BLOCKS, "no python examples found in docs/*.md"
