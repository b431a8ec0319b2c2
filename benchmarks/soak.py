"""Soak test: does a training loop's memory stay flat under ``unigrad.grad``?

Runs one small training step many times per backend and mode, and prints how resident
memory (RSS) and the number of live Python objects grow per 1 000 calls after a
warm-up. A leak of one graph per call shows up as tens of MB per 1 000 calls; a flat
loop stays within allocator noise (well under 0.5 MB per 1 000 calls).

    python benchmarks/soak.py                       # 10 000 calls per mode and backend
    python benchmarks/soak.py --calls 2000 --warmup 500 --backend paddle
    python benchmarks/soak.py --native              # the framework's own grad as control
    python benchmarks/soak.py --threads 4           # each step on 4 threads at once

Modes (each a whole step: forward, then the gradient call):

* ``grad``: ``grad(loss, w)`` (``retain_graph`` defaults to False: the graph is consumed)
* ``retain``: ``grad(loss, w, retain_graph=True)``
* ``create``: ``grad(loss, w, create_graph=True)``, then a second order through it
* ``create-consume``: the same with ``retain_graph=False`` on the first call (the
  forward graph is consumed; the gradient stays differentiable: rule 15)
* ``backward``: ``backward(loss)`` into ``w.grad``, which is then reset

The step is written once against :class:`unigrad.conformance.Kit`, so every backend
runs the same computation. Counts and memory only: nothing here is timed.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script from a checkout: benchmark that checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

import unigrad
from unigrad.conformance import Kit

__all__ = ["MODES", "Growth", "make_step", "measure", "measure_step", "measure_threads", "rss_mb"]

MODES = ("grad", "retain", "create", "create-consume", "backward", "jit")
#: paddle before tensorflow: paddle imported after TensorFlow crashes (docs/tensorflow.md)
BACKENDS = ("torch", "paddle", "jax", "numpy", "tensorflow")


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux /proc; else the peak RSS)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:  # pragma: no cover - not Linux
        import resource

        scale = 1 if sys.platform == "darwin" else 1024
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20


def _native_grad(name: str) -> Callable[..., tuple[Any, ...]]:
    """The framework's own ``grad`` (the control): torch and paddle only."""
    if name == "torch":
        import torch

        return torch.autograd.grad
    if name == "paddle":
        import paddle

        def pgrad(outputs: Any, inputs: Any, **kw: Any) -> tuple[Any, ...]:
            return tuple(paddle.grad(outputs, inputs, **kw))

        return pgrad
    msg = f"--native: {name} has no tape of its own"
    raise SystemExit(msg)


def make_step(k: Kit, mode: str, *, native: bool = False) -> Callable[[], None]:
    """One training step of ``mode`` on ``k``'s backend: a 2-layer tanh MLP, batch 32.

    Every step builds a new graph of about 50 kB (a leaked graph is easy to see).
    """
    if mode not in MODES:
        msg = f"mode must be one of {MODES}, got {mode!r}"
        raise ValueError(msg)
    rng = np.random.default_rng(0)
    x = k.tensor(rng.normal(size=(32, 64)))
    w1 = k.leaf(rng.normal(size=(64, 64)) / 8)
    w2 = k.leaf(rng.normal(size=(64, 1)) / 8)
    xp = k.xp
    grad = _native_grad(k.name) if native else unigrad.grad
    params = [w1, w2]

    def loss() -> Any:
        return (xp.tanh(x @ params[0]) @ params[1]).sum()

    @unigrad.jit
    def compiled(ps: list[Any]) -> Any:  # mode "jit": one compiled function on jax
        ps = [unigrad.watch(p) for p in ps]
        g1, _ = unigrad.grad((xp.tanh(x @ ps[0]) @ ps[1]).sum(), ps, create_graph=True)
        return unigrad.grad((g1 * g1).sum(), ps[1])

    def step() -> None:
        if mode == "jit":
            if native:  # the step as written
                compiled.__wrapped__(params)
            else:
                compiled(params)
        elif mode == "grad":
            grad(loss(), params)
        elif mode == "retain":
            grad(loss(), params, retain_graph=True)
        elif mode == "create":
            g1, _ = grad(loss(), params, create_graph=True)
            grad((g1 * g1).sum(), params[1])
        elif mode == "create-consume":
            g1, _ = grad(loss(), params, create_graph=True, retain_graph=False)
            grad((g1 * g1).sum(), params[1])
        else:
            if native:
                loss().backward()
            else:
                unigrad.backward(loss())
            for p in params:  # a training loop's zero_grad
                p.grad = None

    return step


@dataclass(frozen=True)
class Growth:
    """Growth over the measured calls, scaled to 1 000 calls."""

    backend: str
    mode: str
    calls: int
    rss_mb_per_1000: float
    objects_per_1000: float
    rss_mb_start: float

    def row(self) -> str:
        return (
            f"{self.backend:<8} {self.mode:<14} {self.calls:>7} "
            f"{self.rss_mb_start:>10.1f} {self.rss_mb_per_1000:>+14.3f} "
            f"{self.objects_per_1000:>+15.1f}"
        )


HEADER = (
    f"{'backend':<8} {'mode':<14} {'calls':>7} {'RSS MB':>10} {'MB/1000 calls':>14} "
    f"{'objs/1000 calls':>15}"
)


def _snapshot() -> tuple[float, int]:
    """RSS and the number of objects the garbage collector tracks, after a collection."""
    gc.collect()
    n = len(gc.get_objects())
    return rss_mb(), n


def measure(k: Kit, mode: str, *, calls: int, warmup: int, native: bool = False) -> Growth:
    """Run ``warmup`` steps, then ``calls`` more; the growth of RSS and live objects."""
    return measure_step(k.name, mode, make_step(k, mode, native=native), calls, warmup)


def measure_step(name: str, mode: str, step: Callable[[], None], calls: int, warmup: int) -> Growth:
    """``measure`` for a step already made (and possibly already warmed up)."""
    for _ in range(warmup):
        step()
    _snapshot()  # the first list of every object raises malloc's mmap threshold: once
    rss0, objs0 = _snapshot()
    for _ in range(calls):
        step()
    rss1, objs1 = _snapshot()
    scale = 1000 / calls
    return Growth(name, mode, calls, (rss1 - rss0) * scale, (objs1 - objs0) * scale, rss0)


def measure_threads(
    name: str, mode: str, steps: list[Callable[[], None]], calls: int, warmup: int
) -> Growth:
    """``measure_step`` with one step per thread, all running at once (``calls`` in all,
    shared between them): a thread that raises fails the measurement."""
    errors: list[BaseException] = []

    def run(n: int) -> None:
        threads = [
            threading.Thread(target=_loop, args=(step, n // len(steps), errors)) for step in steps
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]

    run(warmup * len(steps))
    _snapshot()
    rss0, objs0 = _snapshot()
    run(calls)
    rss1, objs1 = _snapshot()
    done = calls // len(steps) * len(steps)
    scale = 1000 / done
    return Growth(name, mode, done, (rss1 - rss0) * scale, (objs1 - objs0) * scale, rss0)


def _loop(step: Callable[[], None], n: int, errors: list[BaseException]) -> None:
    try:
        for _ in range(n):
            step()
    except BaseException as err:  # reported by the caller
        errors.append(err)


def kit(name: str) -> Kit:
    """The neutral kit of backend ``name`` (float64 on jax, as the tests run it)."""
    if name == "jax":
        import jax

        jax.config.update("jax_enable_x64", True)
    elif name == "paddle":
        import paddle  # noqa: F401  (dispatch needs the framework imported)
    elif name == "tensorflow":
        import tensorflow  # noqa: F401  (dispatch needs the framework imported)
    elif name == "torch":
        import torch

        torch.set_num_threads(1)
    return Kit(unigrad.get_backend(name))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--backend", action="append", choices=BACKENDS, help="repeatable")
    p.add_argument("--mode", action="append", choices=MODES, help="repeatable")
    p.add_argument("--calls", type=int, default=10_000, help="measured calls (10 000)")
    p.add_argument("--warmup", type=int, default=1_000, help="calls before measuring")
    p.add_argument("--native", action="store_true", help="the framework's own grad")
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        help="run each mode's step on this many threads at once, each with its own "
        "parameters (--calls in all); default 1",
    )
    p.add_argument(
        "--limit", type=float, default=0.5, help="MB per 1 000 calls counted as flat (0.5)"
    )
    args = p.parse_args(argv)
    names = args.backend or [b for b in BACKENDS if b in unigrad.backends()]
    if args.native:
        names = [n for n in names if n in ("torch", "paddle")]
    print(HEADER)
    worst = 0.0
    for name in names:
        k = kit(name)
        modes = args.mode or MODES
        if args.threads > 1:
            for mode in modes:
                per = [make_step(k, mode, native=args.native) for _ in range(args.threads)]
                g = measure_threads(name, mode, per, args.calls, args.warmup)
                worst = max(worst, g.rss_mb_per_1000)
                print(g.row(), f"({args.threads} threads)", flush=True)
            continue
        steps = {mode: make_step(k, mode, native=args.native) for mode in modes}
        for step in steps.values():  # warm every mode before measuring any
            for _ in range(args.warmup):
                step()
        for mode, step in steps.items():
            g = measure_step(name, mode, step, args.calls, 0)
            worst = max(worst, g.rss_mb_per_1000)
            print(g.row(), flush=True)
    verdict = "PASS" if worst <= args.limit else "FAIL"
    print(f"verdict: {verdict} (worst {worst:+.3f} MB per 1000 calls, limit {args.limit})")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    raise SystemExit(main())
