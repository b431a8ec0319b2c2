"""Does unigrad's overhead stay flat over a long run? 100 000 calls, native and unigrad.

Usage::

    python benchmarks/bench_long.py                    # torch and paddle, 100 000 calls each
    python benchmarks/bench_long.py --backend paddle   # one backend
    python benchmarks/bench_long.py --quick            # smoke run

``bench_overhead.py`` measures a call in a young process. A training loop makes the same
call for hours: an adapter that leaks a graph, a hook or a cache entry per call gets
slower and bigger as the run goes on (issue 14 saw paddle's added time grow from +56 us
early in a process to +137 us later). This script runs the trivial step of
``bench_overhead.py`` (``grad((x * x).sum(), x)``) ``--calls`` times with the native
``grad`` and as many times with ``unigrad.grad``, in ``--blocks`` interleaved blocks (the
order alternates), with the garbage collector **on**, as in a user's loop. Per block it
prints microseconds per call of each, the time unigrad adds, the process's resident
set after the block and the objects the collector tracks (after a collection, outside
the timed calls).

Verdicts (DESIGN §6: "flat over a 100 000-call run"):

* time: the median added time over the last third of the blocks is at most 1.25x that
  of the first third, plus 2 us (what a shared machine's noise moves it by);
* memory: the resident set grows by at most 0.5 MB per 10 000 calls from the end of the
  first block to the end of the last, and by at most 1 MB on short runs (both variants
  ran by then; what an allocator keeps from the first block reads as no growth, and an
  allocator's arena moves it by a few hundred KB);
* objects: the collector's tracked objects grow by fewer than one per 100 calls over
  the same span (a Python object kept per call, a record or a hook, shows as one or
  more per call).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import _harness  # first: one thread per pool, and the checkout's unigrad (see _harness)
from bench_overhead import BUILDERS

import unigrad

TIME_FACTOR, TIME_SLACK_US = 1.25, 2.0
MB_PER_10K, MB_FLOOR = 0.5, 1.0
OBJECTS_PER_CALL = 0.01


def _rss_mb() -> float | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _run(fn: Callable[[], Any], n: int) -> float:
    """Microseconds per call over ``n`` calls, the collector left as a loop has it."""
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1e6


def measure(backend: str, calls: int, blocks: int) -> list[str]:
    native, cases = BUILDERS[backend]()
    step = cases["trivial"][0]
    variants: dict[str, Callable[[], Any]] = {
        "native": lambda: step(native),
        "unigrad": lambda: step(unigrad.grad),
    }
    per_block = max(1, calls // blocks)
    for fn in variants.values():
        _run(fn, 50)  # caches, first-call imports
    gc.collect()
    lines = [
        f"{backend}: {blocks} blocks x {per_block} calls per version, collector on",
        f"{'block':>5} | {'calls':>7} | {'native':>9} | {'unigrad':>9} | {'added':>9} | "
        f"{'RSS':>8} | {'objects':>8}",
    ]
    added: list[float] = []
    rss: list[float] = []
    objects: list[int] = []
    names = list(variants)
    for b in range(blocks):
        us = {k: _run(variants[k], per_block) for k in (names if b % 2 == 0 else names[::-1])}
        added.append(us["unigrad"] - us["native"])
        mb = _rss_mb()
        rss.append(mb if mb is not None else float("nan"))
        gc.collect()
        objects.append(len(gc.get_objects()))
        lines.append(
            f"{b + 1:>5} | {(b + 1) * per_block:>7} | {us['native']:>6.1f} us | "
            f"{us['unigrad']:>6.1f} us | {added[-1]:>+6.1f} us | {rss[-1]:>5.1f} MB | "
            f"{objects[-1]:>8}"
        )
    third = max(1, blocks // 3)
    first, last = statistics.median(added[:third]), statistics.median(added[-third:])
    limit = TIME_FACTOR * max(first, 0.0) + TIME_SLACK_US
    t_ok = last <= limit
    lines.append(
        f"verdict {backend} long time: {'PASS' if t_ok else 'FAIL'} (added {first:+.1f} us "
        f"over the first third, {last:+.1f} us over the last; limit {limit:+.1f} us)"
    )
    growth = rss[-1] - rss[0]
    mb_limit = max(MB_FLOOR, MB_PER_10K * (blocks - 1) * per_block * 2 / 10_000)  # both variants
    m_ok = growth <= mb_limit
    lines.append(
        f"verdict {backend} long memory: {'PASS' if m_ok else 'FAIL'} (resident set "
        f"{growth:+.2f} MB from block 1 to block {blocks}; limit +{mb_limit:.2f} MB)"
    )
    grown = objects[-1] - objects[0]
    o_limit = OBJECTS_PER_CALL * (blocks - 1) * per_block * 2
    o_ok = grown < o_limit
    lines.append(
        f"verdict {backend} long objects: {'PASS' if o_ok else 'FAIL'} ({grown:+d} tracked "
        f"objects from block 1 to block {blocks}; limit +{o_limit:.0f})"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--backend",
        choices=sorted(BUILDERS),
        action="append",
        help="backend(s) to measure (repeatable); default: every installed one",
    )
    parser.add_argument("--calls", type=int, help="calls per version (default 100 000)")
    parser.add_argument("--blocks", type=int, default=10, help="interleaved blocks (10)")
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    args = parser.parse_args(argv)
    installed = set(unigrad.backends())
    wanted = args.backend or [b for b in BUILDERS if b in installed]
    missing = [b for b in wanted if b not in installed]
    if missing:
        parser.error(f"backend(s) not installed: {', '.join(missing)}")
    calls = args.calls or (2_000 if args.quick else 100_000)
    if "torch" in wanted:
        import torch

        torch.set_num_threads(1)
    print("unigrad long-run benchmark: the trivial call, native and unigrad, interleaved")
    print(f"machine: {_harness.describe_machine()}")
    print(f"unigrad {unigrad.__version__}; {calls} calls per version and backend")
    for name in wanted:
        print()
        print("\n".join(measure(name, calls, args.blocks)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
