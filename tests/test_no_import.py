"""``import unigrad`` imports no framework (DESIGN §2: the dispatch is lazy).

Each check runs in a fresh interpreter: this test process has long imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FRAMEWORKS = ("torch", "paddle", "jax", "jaxlib", "numpy", "autograd", "array_api_compat")

PROBE = textwrap.dedent(
    """
    import json, sys
    FRAMEWORKS = {frameworks!r}
    {body}
    loaded = sorted({{m.split(".")[0] for m in sys.modules}} & set(FRAMEWORKS))
    print(json.dumps(loaded))
    """
)


def _loaded_after(body: str) -> list[str]:
    code = PROBE.format(frameworks=FRAMEWORKS, body=body)
    proc = subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    loaded: list[str] = json.loads(proc.stdout.strip().splitlines()[-1])
    return loaded


def test_import_unigrad_imports_no_framework() -> None:
    assert _loaded_after("import unigrad") == []


def test_public_names_import_no_framework() -> None:
    body = "import unigrad\nfor name in unigrad.__all__: getattr(unigrad, name)\nunigrad.backends()"
    assert _loaded_after(body) == []


@pytest.mark.parametrize("module", ["unigrad.backends", "unigrad._grad", "unigrad._api"])
def test_core_modules_import_no_framework(module: str) -> None:
    assert _loaded_after(f"import {module}") == []
