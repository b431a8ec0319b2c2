"""ARCHITECTURE.md stays true: every room it names exists and every room exists in it
(the layers' imports: tests/test_layers.py)."""

from __future__ import annotations

import re
from pathlib import Path

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
