"""Overhead of ``unigrad.grad`` over the native call (torch.autograd.grad, paddle.grad).

Usage::

    python benchmarks/bench_overhead.py                    # every installed backend
    python benchmarks/bench_overhead.py --backend torch    # one backend
    python benchmarks/bench_overhead.py --quick            # smoke run, < 30 s

Two cases per backend, each timed as a whole step (forward + gradient), the native
version and the unigrad version side by side in one process:

* ``trivial``: ``y = (x * x).sum()`` with ``x`` of 3 elements, then ``grad(y, x)``.
  Target (DESIGN §6): unigrad adds at most 5 us.
* ``wgan-gp``: one WGAN-GP critic step. Critic MLP 784 -> 256 -> 1 with leaky ReLU
  0.2, batch 64: interpolate real/fake, run the critic, ``grad`` of the critic's output
  w.r.t. the interpolates with ``create_graph=True`` and a ones seed, penalty
  ``(||g||_2 - 1)^2`` averaged, loss ``fake.mean - real.mean + 10 * gp``, then the
  parameter gradients with ``grad``. Target: at most 1.05x the native step.

Method: the two versions run the same step function, which differs only in the
``grad`` callable it is given; their results are checked equal once before timing.
Timing is interleaved: each round times a block of ``n`` calls of each version (the
order alternates between rounds, so drift hits both alike; the garbage collector is
off inside a block, as in :mod:`timeit`). The report gives, per case, the median
per-call time of each version, the median of the per-round ratios unigrad/native with
their interquartile range, the ratio of the two fastest rounds (the steadiest figure on
a shared, loaded machine), and the median per-round difference in microseconds.
torch runs with one intra-op thread by default (``--threads``): thread-pool contention
otherwise swamps the overhead being measured.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.isdir(os.path.join(_ROOT, "unigrad")) and _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)  # run from a checkout: benchmark the checkout's unigrad

import unigrad  # noqa: E402

TRIVIAL_TARGET_US = 5.0
GP_TARGET_RATIO = 1.05
BATCH, IN_DIM, HIDDEN = 64, 784, 256


# ---------------------------------------------------------------------------------
# The cases. Each builder returns (step, check): step(grad_fn) runs one whole step
# with the given grad callable; check(a, b) compares the results of two steps.
# ---------------------------------------------------------------------------------
Step = Callable[[Callable[..., Any]], Any]


def _torch_cases() -> tuple[Callable[..., Any], dict[str, tuple[Step, Callable[..., float]]]]:
    import torch
    import torch.nn.functional as F

    torch.manual_seed(0)
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

    def trivial(grad: Callable[..., Any]) -> Any:
        y = (x * x).sum()
        return grad(y, x)

    w1 = (torch.randn(HIDDEN, IN_DIM) * IN_DIM**-0.5).requires_grad_(True)
    b1 = torch.zeros(HIDDEN, requires_grad=True)
    w2 = (torch.randn(1, HIDDEN) * HIDDEN**-0.5).requires_grad_(True)
    b2 = torch.zeros(1, requires_grad=True)
    params = [w1, b1, w2, b2]
    real = torch.randn(BATCH, IN_DIM)
    fake = torch.randn(BATCH, IN_DIM)
    eps = torch.rand(BATCH, 1)

    def critic(v: Any) -> Any:
        return F.linear(F.leaky_relu(F.linear(v, w1, b1), 0.2), w2, b2)

    def gp_step(grad: Callable[..., Any]) -> Any:
        interp = (eps * real + (1 - eps) * fake).requires_grad_(True)
        out = critic(interp)
        (g,) = grad(out, interp, torch.ones_like(out), create_graph=True)
        gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
        loss = critic(fake).mean() - critic(real).mean() + 10 * gp
        grads = grad(loss, params)
        return (loss.detach(), *grads)

    def diff(a: Any, b: Any) -> float:
        if len(a) != len(b):
            raise SystemExit(f"result lengths differ: {len(a)} vs {len(b)}")
        worst = 0.0
        for u, v in zip(a, b, strict=True):
            if u.shape != v.shape or u.dtype != v.dtype:
                raise SystemExit(f"results differ in shape/dtype: {u.shape} vs {v.shape}")
            worst = max(worst, float((u.detach() - v.detach()).abs().max()))
        return worst

    return torch.autograd.grad, {"trivial": (trivial, diff), "wgan-gp": (gp_step, diff)}


def _paddle_cases() -> tuple[Callable[..., Any], dict[str, tuple[Step, Callable[..., float]]]]:
    import numpy as np
    import paddle
    import paddle.nn.functional as F

    paddle.seed(0)
    rng = np.random.default_rng(0)
    x = paddle.to_tensor([1.0, 2.0, 3.0], dtype="float32", stop_gradient=False)

    def trivial(grad: Callable[..., Any]) -> Any:
        y = (x * x).sum()
        return grad(y, x)

    def param(a: Any) -> Any:
        return paddle.to_tensor(a.astype("float32"), stop_gradient=False)

    w1 = param(rng.standard_normal((IN_DIM, HIDDEN)) * IN_DIM**-0.5)
    b1 = param(np.zeros(HIDDEN))
    w2 = param(rng.standard_normal((HIDDEN, 1)) * HIDDEN**-0.5)
    b2 = param(np.zeros(1))
    params = [w1, b1, w2, b2]
    real = paddle.to_tensor(rng.standard_normal((BATCH, IN_DIM)).astype("float32"))
    fake = paddle.to_tensor(rng.standard_normal((BATCH, IN_DIM)).astype("float32"))
    eps = paddle.to_tensor(rng.random((BATCH, 1)).astype("float32"))

    def critic(v: Any) -> Any:
        return F.linear(F.leaky_relu(F.linear(v, w1, b1), 0.2), w2, b2)

    def gp_step(grad: Callable[..., Any]) -> Any:
        interp = eps * real + (1 - eps) * fake
        interp.stop_gradient = False
        out = critic(interp)
        (g,) = grad(out, interp, paddle.ones_like(out), create_graph=True)
        gp = ((paddle.linalg.norm(g, p=2, axis=1) - 1) ** 2).mean()
        loss = critic(fake).mean() - critic(real).mean() + 10 * gp
        grads = grad(loss, params)
        return (loss.detach(), *grads)

    def diff(a: Any, b: Any) -> float:
        if len(a) != len(b):
            raise SystemExit(f"result lengths differ: {len(a)} vs {len(b)}")
        worst = 0.0
        for u, v in zip(a, b, strict=True):
            if list(u.shape) != list(v.shape) or u.dtype != v.dtype:
                raise SystemExit(f"results differ in shape/dtype: {u.shape} vs {v.shape}")
            worst = max(worst, float(np.abs(u.numpy() - v.numpy()).max()))
        return worst

    return paddle.grad, {"trivial": (trivial, diff), "wgan-gp": (gp_step, diff)}


BUILDERS = {"torch": _torch_cases, "paddle": _paddle_cases}


# ---------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------
@dataclass
class Result:
    backend: str
    case: str
    native_us: list[float] = field(default_factory=list)
    unigrad_us: list[float] = field(default_factory=list)
    max_diff: float = 0.0

    @property
    def ratios(self) -> list[float]:
        return [u / n for n, u in zip(self.native_us, self.unigrad_us, strict=True)]

    @property
    def added(self) -> list[float]:
        return [u - n for n, u in zip(self.native_us, self.unigrad_us, strict=True)]


def _quartiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def _block(fn: Callable[[], Any], n: int) -> float:
    """Seconds per call of ``fn`` over ``n`` calls, with the collector off."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        t1 = time.perf_counter()
    finally:
        if was_enabled:
            gc.enable()
    return (t1 - t0) / n


def _calibrate(fn: Callable[[], Any], block_s: float) -> int:
    n = 1
    while True:
        t = _block(fn, n) * n
        if t >= block_s / 4 or n >= 1 << 20:
            return max(1, int(n * block_s / max(t, 1e-9)))
        n *= 4


def measure(
    backend: str,
    case: str,
    step: Step,
    diff: Callable[..., float],
    native: Callable[..., Any],
    rounds: int,
    block_s: float,
) -> Result:
    res = Result(backend, case)
    res.max_diff = diff(step(native), step(unigrad.grad))
    if res.max_diff > 0:
        # Same graph, same engine, same seeds: the numbers must be bitwise equal.
        raise SystemExit(
            f"{backend} {case}: native and unigrad results differ (max |diff| {res.max_diff})"
        )

    def run_native() -> Any:
        return step(native)

    def run_unigrad() -> Any:
        return step(unigrad.grad)

    for fn in (run_native, run_unigrad):  # warm both paths (caches, allocator)
        _block(fn, 3)
    n = max(_calibrate(run_native, block_s), _calibrate(run_unigrad, block_s))
    gc.collect()
    for r in range(rounds):
        order = (run_native, run_unigrad) if r % 2 == 0 else (run_unigrad, run_native)
        times = {fn: _block(fn, n) * 1e6 for fn in order}
        res.native_us.append(times[run_native])
        res.unigrad_us.append(times[run_unigrad])
    return res


# ---------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------
def _versions(backends: list[str]) -> str:
    parts = []
    for name in backends:
        if name == "torch":
            import torch

            parts.append(f"torch {torch.__version__} ({torch.get_num_threads()} threads)")
        elif name == "paddle":
            import paddle

            parts.append(f"paddle {paddle.__version__}")
    return ", ".join(parts)


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def report(res: Result) -> list[str]:
    nat = statistics.median(res.native_us)
    ug = statistics.median(res.unigrad_us)
    r1, r2, r3 = _quartiles(res.ratios)
    a1, a2, a3 = _quartiles(res.added)
    best = min(res.unigrad_us) / min(res.native_us)  # robust on a loaded machine
    line = (
        f"{res.backend:<7} {res.case:<8} native {nat:10.1f} us   unigrad {ug:10.1f} us   "
        f"ratio {r2:.3f}x (IQR {r1:.3f}-{r3:.3f}; fastest/fastest {best:.3f}x)   "
        f"added {a2:+.1f} us "
        f"(IQR {a1:+.1f} to {a3:+.1f}), {len(res.ratios)} rounds"
    )
    if res.case == "trivial":
        ok = a2 <= TRIVIAL_TARGET_US
        verdict = (
            f"verdict {res.backend} trivial: {'PASS' if ok else 'FAIL'} "
            f"(added {a2:+.1f} us, target <= +{TRIVIAL_TARGET_US:.0f} us)"
        )
    else:
        ok = r2 <= GP_TARGET_RATIO
        verdict = (
            f"verdict {res.backend} wgan-gp: {'PASS' if ok else 'FAIL'} "
            f"(ratio {r2:.3f}x, target <= {GP_TARGET_RATIO:.2f}x)"
        )
    return [line, verdict]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--backend",
        choices=sorted(BUILDERS),
        action="append",
        help="backend(s) to measure (repeatable); default: every installed one",
    )
    parser.add_argument("--quick", action="store_true", help="a short smoke run (< 30 s)")
    parser.add_argument("--rounds", type=int, help="interleaved rounds per case")
    parser.add_argument("--block", type=float, help="seconds per timed block")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch intra-op threads (default 1: less noise; 0 keeps torch's default)",
    )
    args = parser.parse_args(argv)

    installed = set(unigrad.backends())
    wanted = args.backend or [b for b in BUILDERS if b in installed]
    missing = [b for b in wanted if b not in installed]
    if missing:
        parser.error(f"backend(s) not installed: {', '.join(missing)}")
    rounds = args.rounds or (5 if args.quick else 31)
    block_s = args.block or (0.02 if args.quick else 0.05)

    if "torch" in wanted and args.threads > 0:
        import torch

        torch.set_num_threads(args.threads)
    cases = {name: BUILDERS[name]() for name in wanted}  # imports the frameworks
    print("unigrad overhead benchmark: unigrad.grad vs the native grad, interleaved")
    print(
        f"machine: {platform.platform()}, {_cpu_name()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}"
    )
    print(f"frameworks: {_versions(wanted)}; unigrad {unigrad.__version__}")
    print(
        f"method: {rounds} rounds x {block_s:g} s blocks per version, median "
        f"[interquartile range] of per-round ratios{' (quick mode)' if args.quick else ''}"
    )
    print()
    verdicts = []
    for name in wanted:
        native, steps = cases[name]
        for case, (step, diff) in steps.items():
            res = measure(name, case, step, diff, native, rounds, block_s)
            line, verdict = report(res)
            print(line, flush=True)
            verdicts.append(verdict)
    print()
    for v in verdicts:
        print(v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
