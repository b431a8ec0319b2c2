"""Timing and memory helpers shared by the benchmark scripts.

Every figure the scripts print is a ratio measured side by side in one process:
*interleaved rounds*, each timing a block of ``n`` calls of every variant in turn (the
order rotates between rounds, so drift on a shared machine hits every variant alike; the
garbage collector is off inside a block, as in `timeit`), then the **median of the
per-round ratios** with its interquartile range. Each variant's ``n`` is calibrated so
that its block lasts about ``block_s`` seconds.

Peak memory, two ways. `peak_traced_mib`: the peak of the allocations
`tracemalloc` sees while a call runs, exact for NumPy (whose buffers it tracks)
and blind to torch, paddle and XLA. `peak_rss_mib`: the growth of the process's
resident set while a few calls run (the kernel's high-water mark, ``VmHWM``, is reset
through ``/proc/self/clear_refs`` first); Linux-only, and it counts what the allocators
keep, so memory that an earlier call left cached reads as zero growth.
"""

from __future__ import annotations

import gc
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# Importing this module sets the process up, so each script imports it before any
# framework. One thread for every pool (BLAS under numpy, paddle's, XLA's CPU pool; torch:
# the scripts' --threads): on a shared machine thread pools fighting for cores swamp the
# differences being measured. Set the variables yourself to measure something else.
os.environ.setdefault("JAX_PLATFORMS", "cpu")
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.isdir(os.path.join(_ROOT, "unigrad")) and _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)  # run from a checkout: benchmark the checkout's unigrad

__all__ = [
    "Samples",
    "block",
    "describe_machine",
    "interleaved",
    "peak_rss_mib",
    "peak_traced_mib",
    "quartiles",
    "use_cpu_time",
]


#: The clock `block` reads: wall time (``time.perf_counter``), or with `use_cpu_time` the
#: process's CPU time (``time.process_time``, every thread's: XLA's pool included), which a
#: loaded machine disturbs far less (the time spent waiting for a core is not counted).
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def use_cpu_time() -> None:
    """Time every later block in the process's CPU time (see `CLOCK`)."""
    CLOCK[0] = time.process_time


def block(fn: Callable[[], Any], n: int) -> float:
    """Seconds per call of ``fn`` over ``n`` calls, with the collector off."""
    was_enabled = gc.isenabled()
    gc.disable()
    clock = CLOCK[0]
    try:
        t0 = clock()
        for _ in range(n):
            fn()
        t1 = clock()
    finally:
        if was_enabled:
            gc.enable()
    return (t1 - t0) / n


def _calibrate(fn: Callable[[], Any], block_s: float) -> int:
    n = 1
    while True:
        t = block(fn, n) * n
        if t >= block_s / 4 or n >= 1 << 20:
            return max(1, int(n * block_s / max(t, 1e-9)))
        n *= 4


@dataclass
class Samples:
    """Per-round microseconds per call of each variant, in the order measured."""

    us: dict[str, list[float]] = field(default_factory=dict)

    def median(self, name: str) -> float:
        return statistics.median(self.us[name])

    def ratios(self, ours: str, ref: str) -> list[float]:
        return [a / b for a, b in zip(self.us[ours], self.us[ref], strict=True)]

    def added(self, ours: str, ref: str) -> list[float]:
        return [a - b for a, b in zip(self.us[ours], self.us[ref], strict=True)]

    def fastest_ratio(self, ours: str, ref: str) -> float:
        """The ratio of the fastest rounds: the steadiest figure on a loaded machine."""
        return min(self.us[ours]) / min(self.us[ref])


def interleaved(
    variants: dict[str, Callable[[], Any]], rounds: int, block_s: float, warmup: int = 3
) -> Samples:
    """Time every variant in interleaved rounds (see the module docstring)."""
    for fn in variants.values():
        block(fn, warmup)  # caches, compilation, allocator
    # each variant its own number of calls per block: the same duration for all
    n = {k: _calibrate(fn, block_s) for k, fn in variants.items()}
    names = list(variants)
    samples = Samples({k: [] for k in names})
    gc.collect()
    for r in range(rounds):
        shift = r % len(names)
        for k in names[shift:] + names[:shift]:
            samples.us[k].append(block(variants[k], n[k]) * 1e6)
    return samples


def quartiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def _status_kib(field_name: str) -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def peak_rss_mib(fn: Callable[[], Any], calls: int = 3) -> float | None:
    """How far the resident set grows above its current size while ``fn`` runs."""
    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # reset VmHWM to the current RSS
    except OSError:
        return None
    before = _status_kib("VmRSS")
    for _ in range(calls):
        fn()
    peak = _status_kib("VmHWM")
    if before is None or peak is None:
        return None
    return max(0, peak - before) / 1024


def peak_traced_mib(fn: Callable[[], Any]) -> float:
    """The peak of the allocations `tracemalloc` sees during one call of ``fn``,
    above what was allocated before it."""
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return max(0, peak - base) / 2**20


def describe_machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = ""
    if hasattr(os, "getloadavg"):
        load = ", load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    return (
        f"{platform.platform()}, {cpu}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}{load}"
    )
