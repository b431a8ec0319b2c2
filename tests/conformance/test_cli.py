"""The CLI: options, exit codes, report formats (in-process on torch, plus one ``-m`` run)."""

from __future__ import annotations

import json
import re
import subprocess
from xml.etree import ElementTree as ET

import pytest

pytest.importorskip("torch")

from conftest import PYTHON, ROOT, subprocess_env

import unigrad
from unigrad import _dispatch
from unigrad.conformance import CASES
from unigrad.conformance._report import MARKDOWN_BEGIN, MARKDOWN_END
from unigrad.conformance.cli import ExitCode, main

K = "paddle.grad/grad_outputs"  # four quick cases


def test_list_is_aligned(capsys):
    assert main(["--list"]) == ExitCode.OK
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(CASES)
    width = max(len(c.id) for c in CASES)
    for case, line in zip(CASES, lines, strict=True):
        assert line == f"{case.id.ljust(width)}  {case.source}"


def test_table_with_progress(capsys, monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    assert main(["--backend", "torch", "-k", K]) == ExitCode.OK
    out, err = capsys.readouterr()
    assert "paddle.grad/grad_outputs=[3,4]     pass" in out
    assert out.rstrip().endswith("4 cases: torch 4 pass")
    # Not a terminal: one short line per backend, when it finishes; no colour.
    (line,) = err.splitlines()
    assert re.fullmatch(r"torch  4/4 +\d+\.\ds  4 pass", line), line
    assert "\x1b" not in out + err


def test_failures_only(capsys, tmp_path):
    xf = tmp_path / "torch.txt"
    xf.write_text("paddle.grad/grad_outputs=None  # pretend\n")
    args = ["-q", "-b", "torch", "-k", K, "--xfails", str(xf), "--failures-only"]
    assert main(args) == ExitCode.FAILED
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("paddle.grad/")]
    assert rows == ["paddle.grad/grad_outputs=None  XPASS"]
    assert "(3 of 4 cases without a failure not shown)" in out
    assert out.rstrip().endswith("4 cases: torch 3 pass, 1 xpass")


def test_colour_follows_no_color_and_force_color(capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert main(["-q", "-b", "torch", "-k", "tinygrad"]) == ExitCode.OK
    out = capsys.readouterr().out
    assert "\x1b[32mpass\x1b[0m" in out
    assert "\x1b[32m1 case: torch 1 pass\x1b[0m" in out
    monkeypatch.setenv("NO_COLOR", "1")  # wins over FORCE_COLOR, as in CPython
    assert main(["-q", "-b", "torch", "-k", "tinygrad"]) == ExitCode.OK
    assert "\x1b" not in capsys.readouterr().out


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"unigrad-conformance (unigrad {unigrad.__version__})\n"


def test_backend_missing_a_requirement_names_the_package(capsys, monkeypatch):
    # As with `-b numpy` where autograd is not installed: say what to install.
    entry = _dispatch._REGISTRY["numpy"]
    monkeypatch.setattr(entry, "requires", ("numpy", "unigrad_test_not_installed"))
    assert main(["-b", "numpy", "-k", "tinygrad"]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert (
        "backend 'numpy' needs unigrad_test_not_installed, which is not installed: "
        "pip install 'unigrad[numpy]'"
    ) in err


def test_usage_errors(capsys, tmp_path):
    assert main(["-k", "no such case"]) == ExitCode.NO_CASES
    assert main(["--backend", "nonesuch"]) == ExitCode.USAGE
    assert main(["--backend", "torch", "--xfails", str(tmp_path / "missing.txt")]) == (
        ExitCode.USAGE
    )
    with pytest.raises(SystemExit) as exc:
        main(["--format", "yaml"])
    assert exc.value.code == ExitCode.USAGE
    err = capsys.readouterr().err
    assert "unknown backend 'nonesuch': expected one of" in err


def test_json(capsys):
    assert main(["-q", "-b", "torch", "-k", K, "--format", "json"]) == ExitCode.OK
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True
    assert data["summary"]["torch"]["pass"] == 4
    assert [b["name"] for b in data["backends"]] == ["torch"]
    case = data["cases"][0]
    assert case["results"]["torch"]["status"] == "pass"
    assert case["source"].startswith("https://www.paddlepaddle.org.cn/")


def test_xfails_and_junit(tmp_path, capsys):
    xf = tmp_path / "torch.txt"
    xf.write_text("paddle.grad/grad_outputs=None  # pretend\nno/such-case  # stale\n")
    out = tmp_path / "report.xml"
    code = main(["-q", "-b", "torch", "-k", K, "--xfails", str(xf), "-f", "junit", "-o", str(out)])
    assert code == ExitCode.FAILED  # the XPASS and the stale line
    table, err = capsys.readouterr()
    assert f"UNMATCHED xfail line {xf}:2: no/such-case matches no case" in table
    summary = table.rstrip().splitlines()[-1]
    assert summary.startswith("4 cases: torch")
    assert summary not in err  # the table on the terminal has it: once is enough
    assert "XPASS paddle.grad/grad_outputs=None [torch]" in table
    root = ET.parse(out).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("5", "2", "0")
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {"unigrad-conformance[torch]", "unigrad-conformance[xfails]"}
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["backend"] == "torch"
    assert props["torch"]
    cases = {c.get("name"): c for c in suites["unigrad-conformance[torch]"].iter("testcase")}
    assert cases["paddle.grad/grad_outputs=None"].find("failure") is not None
    assert cases["paddle.grad/grad_outputs=[3,4]"].find("failure") is None


def test_markdown_output_replaces_between_markers(tmp_path, capsys):
    doc = tmp_path / "doc.md"
    doc.write_text(f"# Title\n\n{MARKDOWN_BEGIN}\nold\n{MARKDOWN_END}\n\nafter\n")
    assert main(["-q", "-b", "torch", "-k", "tinygrad", "-f", "markdown", "-o", str(doc)]) == 0
    text = doc.read_text()
    assert text.startswith(f"# Title\n\n{MARKDOWN_BEGIN}\n| case | source | torch |")
    assert "| `tinygrad/gradient-of-matmul` | [github.com](" in text
    assert text.endswith(f"1 case. **torch**: 1 pass.\n{MARKDOWN_END}\n\nafter\n")
    assert "old" not in text


def test_python_dash_m():
    proc = subprocess.run(
        [PYTHON, "-m", "unigrad.conformance", "-q", "-b", "torch", "-k", "tf.GradientTape/x*x"],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "1 case: torch 1 pass" in proc.stdout


def test_closed_pipe_is_quiet():
    # `--list | head`: the reader is gone (here before the first write, so the write
    # fails for certain); no BrokenPipeError traceback, the exit code a shell expects.
    proc = subprocess.Popen(
        [PYTHON, "-m", "unigrad.conformance", "--list"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
        cwd=ROOT,
    )
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=300)
    assert err.decode() == ""
    assert proc.returncode == ExitCode.BROKEN_PIPE
