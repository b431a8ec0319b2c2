"""The benchmark scripts run and report their ratios (no timing is asserted)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import unigrad

#: The benchmark scripts at tiny sizes, a minute and more of runs: --long (CI).
pytestmark = pytest.mark.long

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
NATIVE = [b for b in ("torch", "paddle") if importlib.util.find_spec(b) is not None]
TAPE = [b for b in ("jax", "autograd") if importlib.util.find_spec(b) is not None]


def _run(script: str, *args: str) -> str:
    proc = subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


@pytest.mark.skipif(not NATIVE, reason="neither torch nor paddle is installed")
def test_bench_overhead_quick_prints_ratios() -> None:
    out = _run("bench_overhead.py", "--quick", "--rounds", "2", "--block", "0.002", "--points", "8")
    for backend in NATIVE:
        for case in ("trivial", "wgan-gp", "pinn", "pinn-sep", "maml", "residual"):
            # native, then strict and fast mode measured in the same run (issue 28)
            ratios = re.compile(
                rf"^{backend}\s+{case}\s+native\s+[\d.]+ us.*\n"
                rf"\s+strict\s+[\d.]+ us\s+ratio \d+\.\d+x \(IQR .*\)\s+added [+-][\d.]+ us.*\n"
                rf"\s+fast\s+[\d.]+ us\s+ratio \d+\.\d+x \(IQR .*\)\s+added [+-][\d.]+ us",
                re.MULTILINE,
            )
            assert ratios.search(out), out
            for level in ("strict", "fast"):
                verdict = re.compile(
                    rf"^verdict {backend} {case} {level}: (PASS|FAIL) ", re.MULTILINE
                )
                assert verdict.search(out), out


@pytest.mark.skipif(len(TAPE) < 2, reason="jax and autograd are needed")
def test_bench_tape_quick_prints_ratios() -> None:
    out = _run("bench_tape.py", "--quick", "--rounds", "2", "--block", "0.002", "--points", "8")
    for engine, ref in (("jax", "jit\\(grad\\)"), ("numpy", "autograd")):
        for case in ("wgan-gp", "pinn", "pinn-sep"):
            assert re.search(rf"^{engine}\s+{case}\s+{ref}\s+[\d.]+ ms", out, re.MULTILINE), out
            line = rf"^{engine}\s+{case}\s+unigrad\s+[\d.]+ ms\s+ratio \d+\.\d+x \(IQR"
            assert re.search(line, out, re.MULTILINE), out
            verdict = rf"^verdict {engine} {case} unigrad: (PASS|FAIL) "
            assert re.search(verdict, out, re.MULTILINE), out


def test_bench_scaling_quick_prints_per_op_costs() -> None:
    out = _run("bench_scaling.py", "--sizes", "4", "8", "--rounds", "2", "--block", "0.002")
    for backend in unigrad.backends():
        row = rf"^{backend}\s+8 \|\s+[\d.]+ us \|\s+[\d.]+ us \|\s+\d+\.\d+x \|\s+-?[\d.]+$"
        assert re.search(row, out, re.MULTILINE), out
        assert re.search(rf"^verdict {backend} scaling: (PASS|FAIL) ", out, re.MULTILINE), out


@pytest.mark.skipif(not NATIVE, reason="neither torch nor paddle is installed")
def test_bench_long_quick_prints_blocks_and_verdicts() -> None:
    out = _run("bench_long.py", "--calls", "40", "--blocks", "4")
    for backend in NATIVE:
        assert re.search(rf"^{backend}: 4 blocks x 10 calls per version", out, re.MULTILINE), out
        row = r"^\s+4 \|\s+40 \|(\s+[\d.]+ us \|){2}\s+[+-][\d.]+ us \|\s+[\d.]+ MB \|\s+\d+$"
        assert re.search(row, out, re.MULTILINE), out
        for what in ("time", "memory", "objects"):
            verdict = rf"^verdict {backend} long {what}: (PASS|FAIL) "
            assert re.search(verdict, out, re.MULTILINE), out
