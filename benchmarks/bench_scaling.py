"""How unigrad's per-call cost grows with the graph: it must stay flat per op.

Usage::

    python benchmarks/bench_scaling.py                   # every installed backend
    python benchmarks/bench_scaling.py --backend jax     # one backend (repeatable)
    python benchmarks/bench_scaling.py --quick           # sizes 10 and 100 only

One step is a chain of ``n`` elementwise ops on 16 numbers (``y = y * a + b``, one op per
multiply or add, so ``n / 2`` of each) followed by ``grad(y.sum(), x)``, for ``n`` in 10,
100, 1 000 and 10 000. On torch and paddle unigrad and the native ``grad`` run the same
step: the table gives the time *added* per op, which the consumed-graph walk makes
linear in ``n``. On jax and numpy the reference is the chain written by hand for the
framework (``jax.jit(jax.grad(f))``, ``autograd.grad(f)``), and the table gives the
tape's whole cost per op (recording plus the rebuilt function). Either figure must not
grow with ``n``: the verdict compares the largest size with the median over all sizes
and allows 2x.
Method: ``_harness`` (interleaved rounds, medians).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from typing import Any

import _harness  # first: one thread per pool, and the checkout's unigrad (see _harness)
import numpy as np

import unigrad

SIZES = (10, 100, 1_000, 10_000)
FLAT = 2.0  # the largest size may cost at most this much more per op than the median
A, B = 1.0001, 0.001


def _chain(y: Any, n: int) -> Any:
    for i in range(n):
        y = y * A if i % 2 == 0 else y + B
    return y


Pair = tuple[Callable[[], Any], Callable[[], Any]]


def steps(backend: str, n: int) -> Pair:
    """(reference step, unigrad step) for a chain of ``n`` ops."""
    data = np.linspace(0.5, 1.5, 16).astype(np.float32)
    if backend == "torch":
        import torch

        x = torch.tensor(data, requires_grad=True)
        return (
            lambda: torch.autograd.grad(_chain(x, n).sum(), x),
            lambda: unigrad.grad(_chain(x, n).sum(), x),
        )
    if backend == "paddle":
        import paddle

        xp = paddle.to_tensor(data, stop_gradient=False)
        return (
            lambda: paddle.grad(_chain(xp, n).sum(), xp),
            lambda: unigrad.grad(_chain(xp, n).sum(), xp),
        )
    if backend == "jax":
        import jax
        import jax.numpy as jnp

        xj = jnp.asarray(data)
        ref = jax.jit(jax.grad(lambda v: _chain(v, n).sum()))

        def ours() -> Any:
            w = unigrad.watch(xj)
            return jax.block_until_ready(unigrad.grad(_chain(w, n).sum(), w))

        return (lambda: jax.block_until_ready(ref(xj))), ours
    import autograd

    ref_np = autograd.grad(lambda v: _chain(v, n).sum())

    def ours_np() -> Any:
        w = unigrad.watch(data)
        return unigrad.grad(_chain(w, n).sum(), w)

    return (lambda: ref_np(data)), ours_np


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", action="append", choices=["torch", "paddle", "jax", "numpy"])
    ap.add_argument("--quick", action="store_true", help="sizes 10 and 100, short blocks")
    ap.add_argument("--sizes", type=int, nargs="+", help="chain lengths (default 10 .. 10000)")
    ap.add_argument("--rounds", type=int, help="interleaved rounds per size")
    ap.add_argument("--block", type=float, help="seconds per timed block")
    args = ap.parse_args(argv)
    installed = set(unigrad.backends())
    wanted = args.backend or [b for b in ("torch", "paddle", "jax", "numpy") if b in installed]
    sizes = args.sizes or ((10, 100) if args.quick else SIZES)
    rounds = args.rounds or (3 if args.quick else 7)
    block_s = args.block or (0.01 if args.quick else 0.1)
    if "torch" in wanted:
        import torch

        torch.set_num_threads(1)
    print("unigrad scaling benchmark: per-op cost as the graph grows")
    print(f"machine: {_harness.describe_machine()}")
    print(f"method: {rounds} interleaved rounds x {block_s:g} s blocks per size, medians")
    verdicts = []
    for backend in wanted:
        native = backend in ("torch", "paddle")
        what = "added by unigrad" if native else "unigrad step"
        print()
        print(f"{backend}: n ops | reference | unigrad | ratio | us per op ({what})")
        per_op: dict[int, float] = {}
        for n in sizes:
            ref, ours = steps(backend, n)
            s = _harness.interleaved({"ref": ref, "ours": ours}, rounds, block_s, warmup=2)
            ratio = statistics.median(s.ratios("ours", "ref"))
            if native:
                per_op[n] = statistics.median(s.added("ours", "ref")) / n
            else:
                per_op[n] = s.median("ours") / n
            print(
                f"{backend:<7} {n:>6} | {s.median('ref'):12.1f} us | {s.median('ours'):12.1f} us"
                f" | {ratio:6.3f}x | {per_op[n]:8.3f}",
                flush=True,
            )
        big = max(sizes)
        if len(sizes) > 1:
            # against the median over all sizes: one noisy size (an added cost near
            # zero, even negative) must not decide the verdict
            typical = statistics.median(per_op.values())
            growth = per_op[big] / typical if typical > 0 else float("inf")
            ok = per_op[big] <= FLAT * max(typical, 0.0) or per_op[big] <= 0
            verdicts.append(
                f"verdict {backend} scaling: {'PASS' if ok else 'FAIL'} (per op at {big} ops "
                f"{per_op[big]:.3f} us vs {typical:.3f} us, the median over the sizes: "
                f"{growth:.2f}x, target <= {FLAT:g}x)"
            )
    print()
    for v in verdicts:
        print(v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
