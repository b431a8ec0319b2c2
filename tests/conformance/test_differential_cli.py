"""``python -m unigrad.conformance --differential N`` as users run it: in an install without
Hypothesis (one framework's extra alone), in a log, on a terminal, with ``--jit``."""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from conftest import PYTHON, ROOT, subprocess_env

from unigrad.conformance._runner import BackendInfo, Report
from unigrad.conformance.cli import DIFFERENTIAL_EXTRA
from unigrad.conformance.differential import Divergence, Summary
from unigrad.conformance.differential._cli import WIDTH, summary_text

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

#: Runs the CLI with these modules blocked (``sys.modules[name] = None``: importing them
#: raises ModuleNotFoundError), as in an environment that installed ``unigrad[paddle]``.
BLOCKED_MAIN = (
    "import runpy, sys\n"
    "for name in sys.argv[1].split(','):\n"
    "    sys.modules[name] = None\n"
    "sys.argv = ['unigrad-conformance', *sys.argv[2:]]\n"
    "runpy.run_module('unigrad.conformance', run_name='__main__', alter_sys=True)\n"
)


def _a_backend() -> str:
    import unigrad

    for name in ("numpy", "torch", "jax", "paddle"):
        if name in unigrad.backends():
            return name
    pytest.skip("no backend is installed")


def _run(*args: str, blocked: str = "") -> subprocess.CompletedProcess[str]:
    env = subprocess_env()
    for var in ("FORCE_COLOR", "PYTHONWARNINGS"):
        env.pop(var, None)
    cmd = [PYTHON, "-c", BLOCKED_MAIN, blocked, *args] if blocked else [PYTHON, "-m"]
    if not blocked:
        cmd += ["unigrad.conformance", *args]
    return subprocess.run(
        cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=600, check=False
    )


# ---- an install without the certify extra --------------------------------------------------
@pytest.mark.parametrize(
    ("blocked", "needs"),
    [
        ("hypothesis", "needs hypothesis, which is not installed"),
        ("hypothesis,numpy", "needs hypothesis and numpy, which are not installed"),
    ],
)
def test_without_hypothesis_it_exits_2_naming_the_extra(blocked: str, needs: str) -> None:
    proc = _run("--differential", "5", blocked=blocked)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"unigrad-conformance: --differential {needs}: pip install 'unigrad[certify]'"
    ]


def test_the_extra_it_names_installs_what_it_needs() -> None:
    # (tomllib is Python 3.11's; the extra is one line of pyproject.toml)
    text = (ROOT / "pyproject.toml").read_text()
    (line,) = re.findall(rf"^{DIFFERENTIAL_EXTRA} = \[(.*)\]$", text, re.M)
    wanted = {re.split(r"[<>=\[ ]", r.strip(' "'), maxsplit=1)[0] for r in line.split(",")}
    assert wanted == {"hypothesis", "numpy"}


def test_the_plugin_says_the_same() -> None:
    env = subprocess_env()
    env.pop("PYTHONWARNINGS", None)
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # Hypothesis's own plugin is not installed
    script = (
        "import sys\n"
        "sys.modules['hypothesis'] = None\n"
        "import pytest\n"
        "sys.exit(pytest.main(['-p', 'no:cacheprovider',\n"
        "    '-p', 'unigrad.conformance.pytest_plugin', '--unigrad-backend', sys.argv[1],\n"
        "    '--unigrad-differential', '3']))\n"
    )
    proc = subprocess.run(
        [PYTHON, "-c", script, _a_backend()],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 4, proc.stdout + proc.stderr  # pytest's usage error
    assert (
        "--unigrad-differential needs hypothesis, which is not installed: "
        "pip install 'unigrad[certify]'" in proc.stderr
    ), proc.stderr


# ---- in a log: one line per backend, one summary ----------------------------------------
def test_a_log_gets_one_line_per_backend_and_one_summary() -> None:
    pytest.importorskip("hypothesis")
    name = _a_backend()
    proc = _run("--differential", "6", "--seed", "1", "-b", name)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "\r" not in proc.stderr + proc.stdout
    # the header (its lines wrapped at 79 columns) comes first; then the progress lines
    lines = proc.stderr.splitlines()
    assert lines[0].startswith("differential: 6 random programs"), proc.stderr
    progress = [line for line in lines if re.match(r"\S+ +\d+/\d+ ", line)]
    assert len(progress) == 2, proc.stderr
    assert all(len(line) <= 79 for line in lines), proc.stderr
    shape = r"reference  6/6 +\d+\.\ds  (\d+ computed)?(, )?(\d+ degenerate)?"
    assert re.fullmatch(shape, progress[0]), progress[0]
    n = int(re.search(r"(\d+) computed", progress[0]).group(1))  # type: ignore[union-attr]
    assert re.fullmatch(rf"{name} +{n}/{n} +\d+\.\ds  {n} agree", progress[1]), progress[1]
    # the summary closes the table, once, each line within 80 columns
    (head,) = [i for i, line in enumerate(proc.stdout.splitlines()) if "programs (seed 1)" in line]
    summary = proc.stdout.splitlines()[head:]
    assert summary[-1] == f"{name} {n} agree"
    assert all(len(line) <= WIDTH for line in summary), summary
    assert "programs (seed 1)" not in proc.stderr


def test_another_format_sends_the_summary_to_stderr_once(tmp_path) -> None:
    pytest.importorskip("hypothesis")
    name = _a_backend()
    out = tmp_path / "diff.xml"
    proc = _run("--differential", "4", "-b", name, "-f", "junit", "-o", str(out), "-q")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == ""
    assert proc.stderr.count("programs (seed 0)") == 1
    assert out.read_text().startswith("<?xml")


def test_jit_is_reported() -> None:
    pytest.importorskip("hypothesis")
    import unigrad

    if "jax" in unigrad.backends():
        proc = _run("--differential", "3", "-b", "jax", "--jit")
        said = "--jit: jax also ran each program as one unigrad.jit step"
    else:
        proc = _run("--differential", "3", "-b", _a_backend(), "--jit")
        said = "--jit: no backend here compiles steps (jax does): every program runs eagerly"
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert said in proc.stdout
    assert said.replace("ran", "runs") in proc.stderr  # the header, before the run


def test_the_summary_fits_80_columns_with_four_backends() -> None:
    names = ["torch", "paddle", "jax", "numpy"]
    report = Report([], [BackendInfo(n) for n in names])
    divergences = [
        Divergence(7, "paddle", None, "values differ"),  # type: ignore[arg-type]
        Divergence(9, "torch", None, "expected a result, got GraphFreedError"),  # type: ignore[arg-type]
        Divergence(9, "torch", None, "under unigrad.jit: values differ"),  # type: ignore[arg-type]
    ]
    summary = Summary(20261123, 300, 12, divergences, 61.25, report, compiled=True, jitted=["jax"])
    text = summary_text(summary, report)
    lines = text.splitlines()
    assert all(len(line) <= WIDTH for line in lines), lines
    flat = " ".join(lines)
    assert "300 programs (seed 20261123) in 61.2s: 288 compared" in flat
    assert "12 degenerate (skipped: see docs/conformance.md)" in flat
    assert "--jit: jax also ran each program as one unigrad.jit step" in flat
    assert "torch 287 agree, 1 diverge" in flat  # program 9 once, with its two differences
    assert "paddle 287 agree, 1 diverge" in flat
    assert "jax 288 agree" in flat
    assert "numpy 288 agree" in flat


# ---- on a terminal: one redrawn line per backend, one summary ----------------------------
pty = pytest.importorskip("pty")


def test_a_terminal_gets_redrawn_lines_and_one_summary() -> None:
    pytest.importorskip("hypothesis")
    import fcntl
    import struct
    import termios

    name = _a_backend()
    env = subprocess_env()
    env.update(TERM="xterm")
    for var in ("FORCE_COLOR", "NO_COLOR", "COLUMNS", "PYTHONWARNINGS"):
        env.pop(var, None)
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen(
        [PYTHON, "-m", "unigrad.conformance", "--differential", "8", "-b", name],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        cwd=ROOT,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert proc.wait(timeout=300) == 0
    drawn = ANSI.sub("", b"".join(chunks).decode())
    assert drawn.count("programs (seed 0)") == 1  # one summary
    frames = [f for f in re.split(r"\r", drawn.replace("\r\n", "\n")) if f]
    assert len(frames) > 2  # redrawn as the programs run
    for line in drawn.replace("\r\n", "\n").replace("\r", "\n").splitlines():
        assert len(line) < 80, line
    finished = [line for line in drawn.replace("\r\n", "\n").split("\n") if "/" in line]
    lines = [line.rsplit("\r", 1)[-1] for line in finished]
    assert [line.split()[0] for line in lines if re.match(r"\w+ +\d+/\d+ ", line)] == [
        "reference",
        name,
    ]
