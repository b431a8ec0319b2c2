"""The layers' imports, read from the source with ``ast`` (deferred imports included).

The tape (``unigrad/tape``) is a layer below the backends: it imports neither the front
(``unigrad._grad``, ``_compile``, ``_dispatch``, ``_api``) nor ``unigrad.backends``; what it
needs from them is handed in by ``unigrad/backends/_tape.py`` (``unigrad/tape/_hooks.py``).
The backends use the tape through ``unigrad.tape``'s exports, never its private modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "unigrad"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, absolute (``from a import b`` gives ``a.b`` too)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _within(module: str, roots: tuple[str, ...]) -> bool:
    return any(module == r or module.startswith(r + ".") for r in roots)


TAPE_FILES = sorted((PACKAGE / "tape").glob("*.py"))
ABOVE_THE_TAPE = (
    "unigrad._grad",
    "unigrad._compile",
    "unigrad._dispatch",
    "unigrad._api",
    "unigrad._jacobian",
    "unigrad.backends",
    "unigrad.functional",
    "unigrad.conformance",
)


#: What the tape may import from unigrad: itself, the errors, the contract's rules, the
#: array-API rules.
BELOW_THE_TAPE = ("unigrad.tape", "unigrad._errors", "unigrad.contract", "unigrad._array_api")


@pytest.mark.parametrize("path", TAPE_FILES, ids=lambda p: p.name)
def test_the_tape_imports_nothing_above_it(path: Path) -> None:
    imported = _imports(path)
    wrong = sorted(m for m in imported if _within(m, ABOVE_THE_TAPE))
    assert wrong == [], f"{path.name} imports {wrong}"
    other = sorted(
        m for m in imported if _within(m, ("unigrad",)) and not _within(m, BELOW_THE_TAPE)
    )
    assert other == [], f"{path.name} imports {other}"


def test_what_the_tape_imports_does_not_import_the_tape() -> None:
    # no cycle at package level: the array-API rules never import the tape
    for path in sorted((PACKAGE / "_array_api").glob("*.py")):
        tape = sorted(m for m in _imports(path) if _within(m, ("unigrad.tape",)))
        assert tape == [], f"_array_api/{path.name} imports {tape}"


@pytest.mark.parametrize("name", ["jax.py", "numpy.py", "_tape.py"])
def test_the_backends_use_the_tapes_exports_only(name: str) -> None:
    imported = _imports(PACKAGE / "backends" / name)
    private = sorted(m for m in imported if m.startswith("unigrad.tape._"))
    assert private == [], f"backends/{name} imports {private}"
    assert "unigrad.tape" in imported


def test_the_reader_sees_relative_imports() -> None:
    # the check above would pass vacuously if relative imports were misread
    imported = _imports(PACKAGE / "backends" / "_tape.py")
    assert "unigrad.tape" in imported
    assert "unigrad.contract" in imported
    assert "unigrad.tape._errors" not in _imports(PACKAGE / "tape" / "_node.py")
    assert "unigrad._errors" in _imports(PACKAGE / "tape" / "_hooks.py")


def test_the_contract_room_imports_only_the_errors() -> None:
    # the rules lie below every backend and the tape: nothing but themselves and _errors
    for path in sorted((PACKAGE / "contract").glob("*.py")):
        other = sorted(
            m
            for m in _imports(path)
            if _within(m, ("unigrad",)) and not _within(m, ("unigrad.contract", "unigrad._errors"))
        )
        assert other == [], f"contract/{path.name} imports {other}"


#: Modules allowed past 700 lines, each with why.
LONG = {
    # data: the regression corpus and the op table the generator, renderer and oracle read
    "unigrad/conformance/differential/corpus.py": "the regression corpus (data)",
    "unigrad/conformance/differential/_ops.py": "the op table (data, one row per op)",
}


def test_no_module_is_over_700_lines() -> None:
    long = {
        rel: n
        for p in sorted(PACKAGE.rglob("*.py"))
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 700
        and (rel := p.relative_to(ROOT).as_posix()) not in LONG
    }
    assert long == {}
