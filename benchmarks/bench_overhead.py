"""Overhead of ``unigrad.grad`` over the native call (torch.autograd.grad, paddle.grad).

Usage::

    python benchmarks/bench_overhead.py                    # every installed backend
    python benchmarks/bench_overhead.py --backend torch    # one backend
    python benchmarks/bench_overhead.py --quick            # smoke run, < 30 s

Three cases per backend, each timed as a whole step (forward + gradients), the native
version and the unigrad version side by side in one process:

* ``trivial``: ``y = (x * x).sum()`` with ``x`` of 3 elements, then ``grad(y, x)``.
  Target (DESIGN §6): unigrad adds at most 5 us on torch, 20 us on paddle.
* ``wgan-gp``: one WGAN-GP critic step. Critic MLP 784 -> 256 -> 1 with leaky ReLU
  0.2, batch 64: interpolate real/fake, run the critic, ``grad`` of the critic's output
  w.r.t. the interpolates with ``create_graph=True`` and a ones seed, penalty
  ``(||g||_2 - 1)^2`` averaged, loss ``fake.mean - real.mean + 10 * gp``, then the
  parameter gradients with ``grad``.
* ``pinn``: one physics-informed step: the residual ``u_xx + u_yy + 1`` of an MLP
  2 -> 64 -> 64 -> 1 with tanh at 256 points (``grad`` of ``u``, then of each of its
  two components, all with ``create_graph=True``), loss the mean squared residual, then
  the parameter gradients (``allow_unused=True``: the last bias does not reach the
  residual). Target for both steps: 1.03x native on torch, 1.05x on paddle.

Method (``_harness``): the two versions run the same step function, which differs only
in the ``grad`` callable it is given; their results are checked equal (bitwise: same
graph, same kernels) before timing. Interleaved rounds, median of the per-round ratios
unigrad/native with their interquartile range, the ratio of the two fastest rounds, the
median per-round difference in microseconds, and the peak resident-set growth of a few
steps of each. torch runs with one intra-op thread by default (``--threads``):
thread-pool contention otherwise swamps the overhead being measured.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

import _harness  # first: one thread per pool, and the checkout's unigrad (see _harness)

import unigrad

#: (trivial: added microseconds, steps: ratio) per backend (DESIGN §6).
TARGETS = {"torch": (5.0, 1.03), "paddle": (20.0, 1.05)}
BATCH, IN_DIM, HIDDEN = 64, 784, 256
PINN_POINTS, PINN_WIDTH = 256, 64


# ---------------------------------------------------------------------------------
# The cases. Each builder returns (native grad, {case: (step, diff)}): step(grad_fn)
# runs one whole step with the given grad callable; diff(a, b) compares two results.
# ---------------------------------------------------------------------------------
Step = Callable[[Callable[..., Any]], Any]
Cases = tuple[Callable[..., Any], dict[str, tuple[Step, Callable[..., float]]]]


def _torch_cases(points: int = PINN_POINTS) -> Cases:
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

    shapes = [(PINN_WIDTH, 2), (PINN_WIDTH,), (PINN_WIDTH, PINN_WIDTH), (PINN_WIDTH,)]
    shapes += [(1, PINN_WIDTH), (1,)]
    pinn_params = [(torch.randn(*s) * 0.5).requires_grad_(True) for s in shapes]
    xy = torch.rand(points, 2)

    def u(z: Any) -> Any:
        a1, c1, a2, c2, a3, c3 = pinn_params
        return F.linear(torch.tanh(F.linear(torch.tanh(F.linear(z, a1, c1)), a2, c2)), a3, c3)

    def pinn_step(grad: Callable[..., Any]) -> Any:
        z = xy.clone().requires_grad_(True)
        out = u(z)
        (g,) = grad(out, z, torch.ones_like(out), create_graph=True)
        ux, uy = g[:, 0], g[:, 1]
        (gx,) = grad(ux, z, torch.ones_like(ux), create_graph=True)
        (gy,) = grad(uy, z, torch.ones_like(uy), create_graph=True)
        loss = ((gx[:, 0] + gy[:, 1] + 1) ** 2).mean()
        # the last bias does not reach the residual: its gradient is None
        grads = grad(loss, pinn_params, allow_unused=True)
        return (loss.detach(), *grads)

    def diff(a: Any, b: Any) -> float:
        if len(a) != len(b):
            raise SystemExit(f"result lengths differ: {len(a)} vs {len(b)}")
        worst = 0.0
        for p, q in zip(a, b, strict=True):
            if p is None or q is None:
                if p is not q:
                    raise SystemExit("one result is None, the other is not")
                continue
            if p.shape != q.shape or p.dtype != q.dtype:
                raise SystemExit(f"results differ in shape/dtype: {p.shape} vs {q.shape}")
            worst = max(worst, float((p.detach() - q.detach()).abs().max()))
        return worst

    cases = {"trivial": (trivial, diff), "wgan-gp": (gp_step, diff), "pinn": (pinn_step, diff)}
    return torch.autograd.grad, cases


def _paddle_cases(points: int = PINN_POINTS) -> Cases:
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

    shapes = [(2, PINN_WIDTH), (PINN_WIDTH,), (PINN_WIDTH, PINN_WIDTH), (PINN_WIDTH,)]
    shapes += [(PINN_WIDTH, 1), (1,)]
    pinn_params = [param(rng.standard_normal(s) * 0.5) for s in shapes]
    xy = rng.random((points, 2)).astype("float32")

    def u(z: Any) -> Any:
        a1, c1, a2, c2, a3, c3 = pinn_params
        return F.linear(paddle.tanh(F.linear(paddle.tanh(F.linear(z, a1, c1)), a2, c2)), a3, c3)

    def pinn_step(grad: Callable[..., Any]) -> Any:
        z = paddle.to_tensor(xy, stop_gradient=False)
        out = u(z)
        (g,) = grad(out, z, paddle.ones_like(out), create_graph=True)
        ux, uy = g[:, 0], g[:, 1]
        (gx,) = grad(ux, z, paddle.ones_like(ux), create_graph=True)
        (gy,) = grad(uy, z, paddle.ones_like(uy), create_graph=True)
        loss = ((gx[:, 0] + gy[:, 1] + 1) ** 2).mean()
        # the last bias does not reach the residual: its gradient is None
        grads = grad(loss, pinn_params, allow_unused=True)
        return (loss.detach(), *grads)

    def diff(a: Any, b: Any) -> float:
        if len(a) != len(b):
            raise SystemExit(f"result lengths differ: {len(a)} vs {len(b)}")
        worst = 0.0
        for p, q in zip(a, b, strict=True):
            if p is None or q is None:
                if p is not q:
                    raise SystemExit("one result is None, the other is not")
                continue
            if list(p.shape) != list(q.shape) or p.dtype != q.dtype:
                raise SystemExit(f"results differ in shape/dtype: {p.shape} vs {q.shape}")
            worst = max(worst, float(np.abs(p.numpy() - q.numpy()).max()))
        return worst

    cases = {"trivial": (trivial, diff), "wgan-gp": (gp_step, diff), "pinn": (pinn_step, diff)}
    return paddle.grad, cases


BUILDERS = {"torch": _torch_cases, "paddle": _paddle_cases}


# ---------------------------------------------------------------------------------
# Measuring and reporting
# ---------------------------------------------------------------------------------
def measure(
    backend: str,
    case: str,
    step: Step,
    diff: Callable[..., float],
    native: Callable[..., Any],
    rounds: int,
    block_s: float,
    memory: bool,
) -> list[str]:
    worst = diff(step(native), step(unigrad.grad))
    if worst > 0:
        # Same graph, same engine, same seeds: the numbers must be bitwise equal.
        msg = f"{backend} {case}: native and unigrad results differ (max |diff| {worst})"
        raise SystemExit(msg)

    def run_native() -> Any:
        return step(native)

    def run_unigrad() -> Any:
        return step(unigrad.grad)

    s = _harness.interleaved({"native": run_native, "unigrad": run_unigrad}, rounds, block_s)
    mem = ""
    if memory:
        m_nat, m_ug = _harness.peak_rss_mib(run_native), _harness.peak_rss_mib(run_unigrad)
        if m_nat is not None and m_ug is not None:
            mem = f"   peak +{m_nat:.1f} / +{m_ug:.1f} MiB"
    r1, r2, r3 = _harness.quartiles(s.ratios("unigrad", "native"))
    a1, a2, a3 = _harness.quartiles(s.added("unigrad", "native"))
    line = (
        f"{backend:<7} {case:<8} native {s.median('native'):10.1f} us   "
        f"unigrad {s.median('unigrad'):10.1f} us   "
        f"ratio {r2:.3f}x (IQR {r1:.3f}-{r3:.3f}; "
        f"fastest/fastest {s.fastest_ratio('unigrad', 'native'):.3f}x)   "
        f"added {a2:+.1f} us (IQR {a1:+.1f} to {a3:+.1f}), {rounds} rounds{mem}"
    )
    added_target, ratio_target = TARGETS[backend]
    if case == "trivial":
        ok = a2 <= added_target
        verdict = (
            f"verdict {backend} {case}: {'PASS' if ok else 'FAIL'} "
            f"(added {a2:+.1f} us, target <= +{added_target:.0f} us)"
        )
    else:
        ok = r2 <= ratio_target
        verdict = (
            f"verdict {backend} {case}: {'PASS' if ok else 'FAIL'} "
            f"(ratio {r2:.3f}x, target <= {ratio_target:.2f}x)"
        )
    return [line, verdict]


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--backend",
        choices=sorted(BUILDERS),
        action="append",
        help="backend(s) to measure (repeatable); default: every installed one",
    )
    parser.add_argument("--case", action="append", help="case(s) to run; default: all")
    parser.add_argument("--quick", action="store_true", help="a short smoke run (< 30 s)")
    parser.add_argument("--rounds", type=int, help="interleaved rounds per case")
    parser.add_argument("--block", type=float, help="seconds per timed block")
    parser.add_argument("--points", type=int, default=PINN_POINTS, help="PINN points")
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory column")
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
    cases = {name: BUILDERS[name](args.points) for name in wanted}  # imports the frameworks
    print("unigrad overhead benchmark: unigrad.grad vs the native grad, interleaved")
    print(f"machine: {_harness.describe_machine()}")
    print(f"frameworks: {_versions(wanted)}; unigrad {unigrad.__version__}")
    print(
        f"method: {rounds} rounds x {block_s:g} s blocks per version, median "
        f"[interquartile range] of per-round ratios{' (quick mode)' if args.quick else ''}; "
        "peak = resident-set growth over 3 steps, native / unigrad"
    )
    print()
    verdicts = []
    for name in wanted:
        native, steps = cases[name]
        for case, (step, diff) in steps.items():
            if args.case and case not in args.case:
                continue
            line, verdict = measure(
                name, case, step, diff, native, rounds, block_s, not args.no_memory
            )
            print(line, flush=True)
            verdicts.append(verdict)
    print()
    for v in verdicts:
        print(v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
