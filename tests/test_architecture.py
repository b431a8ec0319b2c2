"""ARCHITECTURE.md stays true: every room it names exists, every room exists in it, and
the layers import only downward."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "unigrad"
DOC = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")


def _mentioned_paths() -> set[str]:
    """Paths in backquotes that look like files or folders of the package."""
    out = set()
    for m in re.findall(r"`([\w./]+\.py|[\w./]+/)`", DOC):
        out.add(m)
    return out


def test_every_path_it_names_exists() -> None:
    # (a path relative to its room's row, `torch.py` in the backends' row, is found
    # wherever it is in the package)
    missing = []
    for p in _mentioned_paths():
        here = (ROOT / p).exists() or (PKG / p).exists()
        if not here and not any(PKG.rglob(p.rstrip("/"))):
            missing.append(p)
    assert not missing, f"ARCHITECTURE.md names paths that do not exist: {sorted(missing)}"


def test_every_room_is_in_it() -> None:
    rooms = [p.name for p in PKG.iterdir() if p.is_dir() and (p / "__init__.py").exists()]
    rooms += [p.stem for p in PKG.glob("*.py") if p.stem != "__init__"]
    absent = [r for r in rooms if r not in DOC]
    assert not absent, f"rooms of unigrad/ that ARCHITECTURE.md does not name: {absent}"


def _imports(path: Path) -> list[str]:
    """The modules ``path`` imports, absolute (``unigrad.x.y``), at any depth."""
    rel = path.relative_to(ROOT).with_suffix("")
    package = list(rel.parts[:-1]) if rel.name != "__init__" else list(rel.parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join([*base, node.module] if node.module else base)
                if node.module is None:
                    out += [f"{mod}.{a.name}" for a in node.names]
                else:
                    out.append(mod)
            else:
                out.append(node.module or "")
    return out


@pytest.mark.parametrize(
    ("room", "allowed"),
    [
        # the rules: nothing but the errors and themselves
        ("contract", ("unigrad._errors", "unigrad.contract")),
    ],
)
def test_a_layer_imports_only_what_lies_below_it(room: str, allowed: tuple[str, ...]) -> None:
    bad = []
    for path in sorted((PKG / room).rglob("*.py")):
        for mod in _imports(path):
            if mod.startswith("unigrad") and not mod.startswith(allowed):
                bad.append(f"{path.relative_to(ROOT)} imports {mod}")
    assert not bad, "\n".join(bad)
