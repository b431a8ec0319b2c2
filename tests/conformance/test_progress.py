"""The CLI's progress display on a terminal (a pty), and quiet frameworks."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest
from conftest import PYTHON, ROOT, subprocess_env

from unigrad.conformance._progress import MAX_WIDTH, Palette, Progress, wants_colour
from unigrad.conformance.cases import CASES

pty = pytest.importorskip("pty")  # POSIX only
fcntl = pytest.importorskip("fcntl")
termios = pytest.importorskip("termios")

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _run_on_a_terminal(args: list[str], columns: int, env: dict[str, str]) -> tuple[int, str]:
    """Run the CLI with stderr on a pty of ``columns`` columns; (exit code, what it drew)."""
    import struct

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    proc = subprocess.Popen(
        [PYTHON, "-m", "unigrad.conformance", *args],
        stdin=follower,
        stdout=subprocess.DEVNULL,
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
    return proc.wait(timeout=300), b"".join(chunks).decode()


@pytest.mark.parametrize("columns", [80, 200, 40])
def test_terminal_progress_redraws_one_line_per_backend(columns):
    pytest.importorskip("torch")
    env = subprocess_env()
    env.update(TERM="xterm", FORCE_COLOR="1")
    env.pop("NO_COLOR", None)
    env.pop("COLUMNS", None)
    code, drawn = _run_on_a_terminal(["-b", "torch", "-k", "contract/seed"], columns, env)
    assert code == 0
    n = len([c for c in CASES if "contract/seed" in c.id])
    # Every frame starts by going back to column 0 and clearing the line; frames never
    # wrap: each is narrower than the terminal (and than 80 columns).
    frames = [f for f in re.split(r"\r\x1b\[2K", drawn) if f]
    assert len(frames) > n  # redrawn as the cases run
    for frame in frames:
        text = ANSI.sub("", frame).rstrip("\r\n")
        assert len(text) < min(columns, MAX_WIDTH), text
    live = ANSI.sub("", frames[len(frames) // 2])
    assert re.match(rf"torch  +\d+/{n}  +\d+\.\ds", live), live  # counter, elapsed
    if columns >= MAX_WIDTH:  # room for the case running now, in full
        ids = [c.id for c in CASES if "contract/seed" in c.id]
        shown = {i for i in ids for f in frames if ANSI.sub("", f).endswith(i)}
        assert shown == set(ids)
    last = ANSI.sub("", frames[-1])
    assert re.fullmatch(rf"torch  {n}/{n} +\d+\.\ds  {n} pass\r?\n", last), last
    assert "\x1b[32m" in drawn  # colour: FORCE_COLOR, and a terminal anyway
    assert drawn.count("\n") == 1  # one line for the one backend


def test_progress_plain_stream_is_one_line_per_backend():
    stream = io.StringIO()
    progress = Progress(stream, ["torch", "numpy"], 2, colour=False)
    from unigrad.conformance._runner import Result, Status

    for backend in ("torch", "numpy"):
        for i, status in enumerate((Status.PASS, Status.FAIL)):
            progress.started(CASES[i], backend)
            progress(Result(CASES[i].id, backend, status), i + 1, 4)
    lines = stream.getvalue().splitlines()
    assert [re.sub(r" +\d+\.\ds", " T", line) for line in lines] == [
        "torch  2/2 T  1 pass, 1 fail",
        "numpy  2/2 T  1 pass, 1 fail",
    ]


def test_wants_colour(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    assert wants_colour(io.StringIO()) is False
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert wants_colour(io.StringIO()) is True
    monkeypatch.setenv("NO_COLOR", "1")
    assert wants_colour(io.StringIO()) is False
    monkeypatch.setenv("NO_COLOR", "")  # set but empty: no effect (no-color.org)
    assert wants_colour(io.StringIO()) is True
    assert Palette(False).status("fail") == "fail"
    assert Palette(True).status("xfail") == "\x1b[33mxfail\x1b[0m"


@pytest.mark.parametrize(
    ("backend", "keyword"),
    [("paddle", "contract/complex or contract/backward"), ("jax", "tinygrad")],
)
def test_framework_logs_are_silenced(backend, keyword):
    # paddle's glog warnings (cases that expect an error provoke them) and jax's TPU
    # probe printed into the progress; stderr now holds the progress line alone.
    pytest.importorskip(backend)
    env = subprocess_env()
    for var in ("GLOG_minloglevel", "TF_CPP_MIN_LOG_LEVEL", "FORCE_COLOR"):
        env.pop(var, None)
    proc = subprocess.run(
        [sys.executable, "-m", "unigrad.conformance", "-b", backend, "-k", keyword],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (line,) = proc.stderr.splitlines()
    assert re.fullmatch(rf"{backend}  +\d+/\d+ +\d+\.\ds  \d+ pass", line), proc.stderr
