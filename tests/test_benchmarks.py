"""The overhead benchmark runs and reports its ratios (no timing is asserted)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_overhead.py"
BACKENDS = [b for b in ("torch", "paddle") if importlib.util.find_spec(b) is not None]


@pytest.mark.skipif(not BACKENDS, reason="neither torch nor paddle is installed")
def test_bench_overhead_quick_prints_ratios() -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--rounds", "3", "--block", "0.005"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert "torch" in out or "paddle" in out
    for backend in BACKENDS:
        for case in ("trivial", "wgan-gp"):
            ratio = re.compile(
                rf"^{backend}\s+{case}\s+native\s+[\d.]+ us\s+unigrad\s+[\d.]+ us\s+"
                rf"ratio \d+\.\d+x \(IQR .*\)\s+added [+-][\d.]+ us",
                re.MULTILINE,
            )
            assert ratio.search(out), out
            verdict = re.compile(rf"^verdict {backend} {case}: (PASS|FAIL) ", re.MULTILINE)
            assert verdict.search(out), out
