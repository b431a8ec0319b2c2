"""Helpers of the conformance tests: a synthetic case set and the boxed plug-in."""

from __future__ import annotations

import os
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parent.parent


@pytest.fixture
def boxed_path(tmp_path: Path) -> Path:
    """A sys.path entry that installs the ``boxed`` backend through the entry-point group.

    It holds ``boxed_backend.py`` and a ``.dist-info`` whose ``entry_points.txt``
    declares ``[unigrad.backends] boxed = boxed_backend:BoxedBackend``: exactly what
    ``pip install`` of a plug-in leaves behind.
    """
    (tmp_path / "boxed_backend.py").write_text((HERE / "boxed_backend.py").read_text())
    info = tmp_path / "unigrad_boxed-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: unigrad-boxed\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[unigrad.backends]\nboxed = boxed_backend:BoxedBackend\n"
    )
    return tmp_path


def subprocess_env(*paths: Path) -> dict[str, str]:
    """The environment for a child Python that imports this worktree's unigrad."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*map(str, paths), str(ROOT)])
    env.pop("PYTHONWARNINGS", None)
    return env


PYTHON = sys.executable

# Installed (pip install -e .), pytest loads the plugin through its pytest11 entry point;
# from a bare checkout the tests load it by name.
PLUGIN_ARGS: list[str] = (
    []
    if entry_points(group="pytest11", name="unigrad")
    else ["-p", "unigrad.conformance.pytest_plugin"]
)
