"""``python -m build`` gives an sdist and a wheel that installs and imports with no framework.

The wheel goes into a fresh virtualenv (no system site-packages, nothing else
installed): ``import unigrad`` must work there, load no framework, and
``unigrad.backends()`` must list none.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.long,  # builds an sdist and a wheel, installs the wheel: --long
    pytest.mark.skipif(
        importlib.util.find_spec("build") is None or importlib.util.find_spec("hatchling") is None,
        reason="needs the test extra (build, hatchling): pip install -e '.[test]'",
    ),
]


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PIP_NO_INPUT"] = "1"
    return env


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    # The default build: the sdist first, then the wheel built from the unpacked sdist.
    # No isolation: hatchling comes from the test extra, so no network is needed.
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=_clean_env(),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def _one(dist: Path, pattern: str) -> Path:
    found = sorted(dist.glob(pattern))
    assert len(found) == 1, f"expected one {pattern} in {dist}, got {found}"
    return found[0]


def test_build_gives_sdist_and_wheel(dist: Path) -> None:
    sdist = _one(dist, "unigrad-*.tar.gz")
    wheel = _one(dist, "unigrad-*-py3-none-any.whl")

    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        meta_dir = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        entry_points = zf.read(f"{meta_dir}/entry_points.txt").decode()
    assert "unigrad/__init__.py" in names
    assert "unigrad/py.typed" in names
    assert not any(n.startswith(("tests/", "docs/")) for n in names)
    assert "[pytest11]" in entry_points
    assert "unigrad-conformance" in entry_points
    assert f"{meta_dir}/licenses/LICENSE" in names
    with zipfile.ZipFile(wheel) as zf:
        metadata = zf.read(f"{meta_dir}/METADATA").decode()
    assert "License-Expression: BSD-3-Clause" in metadata

    with tarfile.open(sdist) as tf:
        members = {m.name.split("/", 1)[1] for m in tf.getmembers() if "/" in m.name}
    assert {"pyproject.toml", "unigrad/__init__.py", "unigrad/py.typed"} <= members
    assert {"LICENSE", "CHANGELOG.md", "README.md"} <= members
    assert any(m.startswith("tests/") for m in members)


def test_wheel_installs_and_imports_without_frameworks(dist: Path, tmp_path: Path) -> None:
    wheel = _one(dist, "unigrad-*-py3-none-any.whl")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False, clear=True).create(env_dir)
    python = env_dir / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    env = _clean_env()

    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", str(wheel)],
        check=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )
    probe = (
        "import json, sys, unigrad\n"
        "print(json.dumps({'file': unigrad.__file__, 'backends': list(unigrad.backends()),\n"
        "    'loaded': sorted({m.split('.')[0] for m in sys.modules} & {'torch', 'paddle',\n"
        "        'jax', 'jaxlib', 'numpy', 'autograd', 'array_api_compat'})}))\n"
    )
    proc = subprocess.run(
        [str(python), "-W", "error", "-c", probe],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert Path(report["file"]).resolve().is_relative_to(env_dir.resolve()), report["file"]
    assert report["backends"] == []
    assert report["loaded"] == []
