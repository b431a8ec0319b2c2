"""The tensorflow backend (unigrad's tape over TensorFlow ops) against ``tf.GradientTape``
code written by hand, eagerly and compiled (``unigrad.jit`` against ``tf.function``).

Usage::

    python benchmarks/bench_tensorflow.py              # trivial call, WGAN-GP, PINN
    python benchmarks/bench_tensorflow.py --quick      # smoke run
    python benchmarks/bench_tensorflow.py --cpu-time   # the process's CPU time, not wall

Three steps:

* ``trivial``: ``d sum(x * x) / dx`` for a 3-element float32 tensor (the per-call cost).
* ``wgan-gp`` and ``pinn``: the steps of ``bench_tape.py`` (the same forwards), written
  once against ``unigrad.namespace`` and ``unigrad.grad``; the reference nests
  ``tf.GradientTape``s as TensorFlow's guide does.

The compiled cases (``wgan-gp-jit``, ``pinn-jit``) run the same two steps as one
function: the hand-written one wrapped in ``tf.function``, the unigrad one in
``unigrad.jit`` (which traces it with ``tf.function``). TensorFlow runs on one thread
(intra- and inter-op pools), as the other frameworks do in these scripts.

Targets (issue 29): eager within 1.10x of the hand-written GradientTape code,
``unigrad.jit`` within 1.05x of the hand-written ``tf.function`` step. Gradients
are checked against the reference before timing. Method: ``_harness`` (interleaved
rounds, median of per-round ratios).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

import _harness  # first: one thread per pool, and the checkout's unigrad (see _harness)
import numpy as np
from bench_tape import (
    LAM,
    PINN_POINTS,
    critic,
    init_pinn,
    init_wgan,
    mlp_tanh,
    unigrad_pinn,
    unigrad_wgan,
)

import unigrad

TARGET = 1.10
JIT_TARGET = 1.05


def cases(points: int) -> dict[str, dict[str, Callable[[], Any]]]:
    """{case: {variant: step}}; the first variant of each case is the reference."""
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp

    try:  # one thread per pool, before TensorFlow starts its runtime
        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
    except RuntimeError:  # already initialised (the caller ran TensorFlow first)
        pass
    rng = np.random.default_rng(0)
    wp, real, fake, eps = init_wgan(rng)
    pp, xy = init_pinn(rng, points)
    wp, pp = [tf.constant(w) for w in wp], [tf.constant(w) for w in pp]
    real, fake, eps, xy = (tf.constant(a) for a in (real, fake, eps, xy))
    xp = unigrad.namespace(unigrad.watch(real))
    small = tf.constant([1.0, 2.0, 3.0])

    def tape_trivial() -> Any:
        with tf.GradientTape() as t:
            t.watch(small)
            y = tf.reduce_sum(small * small)
        return [t.gradient(y, small)]

    def ours_trivial() -> Any:
        x = unigrad.watch(small)
        return unigrad.grad((x * x).sum(), x)

    def tape_wgan() -> Any:
        return tape_wgan_of(wp, real, fake, eps)

    def tape_wgan_of(wp: Any, real: Any, fake: Any, eps: Any) -> Any:
        with tf.GradientTape() as outer:
            outer.watch(wp)
            x_hat = eps * real + (1 - eps) * fake
            with tf.GradientTape() as inner:
                inner.watch(x_hat)
                d = tf.reduce_sum(critic(tnp, wp, x_hat))
            g = inner.gradient(d, x_hat)
            penalty = tf.reduce_mean((tf.norm(g, axis=1) - 1.0) ** 2)
            loss = (
                tf.reduce_mean(critic(tnp, wp, fake))
                - tf.reduce_mean(critic(tnp, wp, real))
                + LAM * penalty
            )
        return outer.gradient(loss, wp)

    def tape_pinn() -> Any:
        return tape_pinn_of(pp, xy)

    def tape_pinn_of(pp: Any, xy: Any) -> Any:
        with tf.GradientTape() as outer:
            outer.watch(pp)
            with tf.GradientTape(persistent=True) as t2:
                t2.watch(xy)
                with tf.GradientTape() as t1:
                    t1.watch(xy)
                    u = tf.reduce_sum(mlp_tanh(tnp, pp, xy))
                g = t1.gradient(u, xy)
                gx0, gy1 = tf.reduce_sum(g[:, 0]), tf.reduce_sum(g[:, 1])
            u_xx = t2.gradient(gx0, xy)[:, 0]
            u_yy = t2.gradient(gy1, xy)[:, 1]
            loss = tf.reduce_mean((u_xx + u_yy + 1.0) ** 2)
        return outer.gradient(loss, pp, unconnected_gradients=tf.UnconnectedGradients.ZERO)

    out = {
        "trivial": {"GradientTape": tape_trivial, "unigrad": ours_trivial},
        "wgan-gp": {
            "GradientTape": tape_wgan,
            "unigrad": lambda: unigrad_wgan(xp, wp, real, fake, eps),
        },
        "pinn": {"GradientTape": tape_pinn, "unigrad": lambda: unigrad_pinn(xp, pp, xy)},
    }
    tf_wgan = tf.function(tape_wgan_of, autograph=False)
    tf_pinn = tf.function(tape_pinn_of, autograph=False)
    jit_wgan, jit_pinn = unigrad.jit(unigrad_wgan), unigrad.jit(unigrad_pinn)
    out["wgan-gp-jit"] = {
        "tf.function": lambda: tf_wgan(wp, real, fake, eps),
        "unigrad.jit": lambda: jit_wgan(xp, wp, real, fake, eps),
    }
    out["pinn-jit"] = {
        "tf.function": lambda: tf_pinn(pp, xy),
        "unigrad.jit": lambda: jit_pinn(xp, pp, xy),
    }
    for case, variants in out.items():
        ref, ours = variants.values()
        for i, (a, b) in enumerate(zip(ref(), ours(), strict=True)):
            a, b = np.asarray(a), np.asarray(unigrad.to_numpy(b))
            if a.shape != b.shape or not np.allclose(a, b, rtol=2e-3, atol=1e-5):
                raise SystemExit(f"tensorflow {case}: gradient {i} differs from the reference")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a short smoke run")
    ap.add_argument("--rounds", type=int, help="interleaved rounds per case")
    ap.add_argument("--block", type=float, help="seconds per timed block")
    ap.add_argument("--points", type=int, default=PINN_POINTS, help="PINN points")
    ap.add_argument(
        "--cpu-time", action="store_true", help="time the process's CPU time, not wall time"
    )
    ap.add_argument("--case", action="append", help="only these cases (repeatable)")
    args = ap.parse_args(argv)
    if args.cpu_time:
        _harness.use_cpu_time()
    rounds = args.rounds or (3 if args.quick else 15)
    block_s = args.block or (0.02 if args.quick else 0.2)
    print("unigrad tensorflow benchmark: the tape vs tf.GradientTape written by hand (eager)")
    print(f"machine: {_harness.describe_machine()}")
    clock = "CPU time" if args.cpu_time else "wall time"
    print(
        f"method: {rounds} interleaved rounds x {block_s:g} s blocks ({clock}), "
        "median [IQR] of ratios"
    )
    verdicts = []
    for case, variants in cases(args.points).items():
        if args.case and case not in args.case:
            continue
        target = JIT_TARGET if case.endswith("-jit") else TARGET
        s = _harness.interleaved(variants, rounds, block_s)
        ref = next(iter(variants))
        print()
        for name in variants:
            line = f"tensorflow {case:<11} {name:<13} {s.median(name) / 1e3:9.3f} ms"
            if name != ref:
                q1, q2, q3 = _harness.quartiles(s.ratios(name, ref))
                line += (
                    f"   ratio {q2:.3f}x (IQR {q1:.3f}-{q3:.3f}; fastest/fastest "
                    f"{s.fastest_ratio(name, ref):.3f}x) vs {ref}"
                )
                verdicts.append(
                    f"verdict tensorflow {case} {name}: {'PASS' if q2 <= target else 'FAIL'} "
                    f"(ratio {q2:.3f}x, target <= {target}x)"
                )
            print(line, flush=True)
    print()
    for v in verdicts:
        print(v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
