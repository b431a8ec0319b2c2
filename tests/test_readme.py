"""The README's quickstart runs as written and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def _quickstart() -> str:
    text = README.read_text()
    section = text.split("## Quickstart", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_quickstart_runs_and_prints_its_comments():
    pytest.importorskip("torch")
    pytest.importorskip("autograd")
    code = _quickstart()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {"__name__": "__readme__"})
    printed = out.getvalue().splitlines()
    expected = [m.group(1) for m in re.finditer(r"^# (\w+ [\d.]+)$", code, re.M)]
    inline = [m.group(1) for m in re.finditer(r"print\(g\)  # (.*)", code)]
    assert printed == inline + expected


def test_readme_test_commands_are_what_ci_runs():
    text = README.read_text()
    ci = (README.parent / ".ci" / "run").read_text()
    block = re.search(r"Run the tests.*?```bash\n(.*?)\n```", text, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines()]
    assert commands == ["python -m pytest", "python -m pytest --long -n auto"]
    assert "python -m pytest --long -n auto" in ci
    assert len(re.findall(r"about \d+ minutes", block)) == 2, "say how long each run takes"


def test_the_default_run_leaves_out_the_long_suites():
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         str(README.parent / "tests" / "test_packaging.py")],
        capture_output=True, text=True, cwd=README.parent, timeout=300, check=False,
    )  # fmt: skip
    last = proc.stdout.splitlines()[-1]
    assert re.fullmatch(r"no tests collected \(\d+ deselected\).*", last), proc.stdout
