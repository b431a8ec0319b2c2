"""The jax and numpy tape against the same step written by hand for the framework.

Usage::

    python benchmarks/bench_tape.py                  # jax and numpy, both steps
    python benchmarks/bench_tape.py --only jax       # one engine
    python benchmarks/bench_tape.py --quick          # smoke run

Two steps, the ones of ``bench_overhead.py``:

* ``wgan-gp``: the critic D (MLP 784 -> 256 -> 1, leaky ReLU, batch 64) on real, fake
  and interpolated samples; the penalty needs d D(x_hat) / d x_hat with
  ``create_graph=True``, then the gradients of the loss w.r.t. the parameters.
* ``pinn``: the residual ``u_xx + u_yy + 1`` of an MLP 2 -> 64 -> 64 -> 1 with tanh at
  256 points (three nested ``create_graph`` grads), mean squared, then the parameter
  gradients.

References: on jax, ``jax.jit(jax.grad(loss))`` written by hand (targets: the tape
<= 1.2x, moonshot 1.05x); on numpy, HIPS ``autograd.grad(loss)`` used directly (target:
<= 1.15x). The unigrad steps are written once against ``unigrad.namespace`` and
``unigrad.grad``; on jax the WGAN-GP critic also runs as one ``unigrad.lift``-ed step.
Gradients are checked against the reference before timing. Method: ``_harness``
(interleaved rounds, median of per-round ratios; peak resident-set growth).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

import _harness  # first: one thread per pool, and the checkout's unigrad (see _harness)
import numpy as np

import unigrad

B, D_IN, H, LAM, SLOPE = 64, 784, 256, 10.0, 0.2
PINN_POINTS, PINN_WIDTH = 256, 64
TARGETS = {"jax": 1.2, "numpy": 1.15}
MOONSHOT_JAX = 1.05


def init_wgan(rng: np.random.Generator) -> tuple[list[np.ndarray], np.ndarray, ...]:
    params = [
        (rng.normal(size=(D_IN, H)) / np.sqrt(D_IN)).astype(np.float32),
        np.zeros(H, np.float32),
        (rng.normal(size=(H, 1)) / np.sqrt(H)).astype(np.float32),
        np.zeros(1, np.float32),
    ]
    real = rng.normal(size=(B, D_IN)).astype(np.float32)
    fake = rng.normal(size=(B, D_IN)).astype(np.float32)
    eps = rng.uniform(size=(B, 1)).astype(np.float32)
    return params, real, fake, eps


def init_pinn(rng: np.random.Generator, points: int) -> tuple[list[np.ndarray], np.ndarray]:
    shapes = [(2, PINN_WIDTH), (PINN_WIDTH,), (PINN_WIDTH, PINN_WIDTH), (PINN_WIDTH,)]
    shapes += [(PINN_WIDTH, 1), (1,)]
    params = [(rng.normal(size=s) * 0.5).astype(np.float32) for s in shapes]
    return params, rng.uniform(size=(points, 2)).astype(np.float32)


# ---- the forwards, written once for any array namespace ---------------------------
def critic(xp: Any, p: Any, x: Any) -> Any:
    h = xp.matmul(x, p[0]) + p[1]
    h = xp.maximum(h, SLOPE * h)  # leaky ReLU
    return xp.matmul(h, p[2]) + p[3]


def mlp_tanh(xp: Any, p: Any, z: Any) -> Any:
    h = xp.tanh(xp.matmul(z, p[0]) + p[1])
    h = xp.tanh(xp.matmul(h, p[2]) + p[3])
    return xp.matmul(h, p[4]) + p[5]


# ---- the unigrad steps -----------------------------------------------------------
def unigrad_wgan(
    xp: Any, params: Any, real: Any, fake: Any, eps: Any, lifted: Callable[..., Any] | None = None
) -> Any:
    p = [unigrad.watch(w) for w in params]
    f = (lambda q, x: critic(xp, q, x)) if lifted is None else lifted
    x_hat = unigrad.watch(eps * real + (1 - eps) * fake)
    (g,) = unigrad.grad(f(p, x_hat), x_hat, create_graph=True)
    norm = xp.linalg.vector_norm(g, axis=1)
    penalty = xp.mean((norm - 1.0) ** 2)
    loss = xp.mean(f(p, fake)) - xp.mean(f(p, real)) + LAM * penalty
    return unigrad.grad(loss, p)


def unigrad_pinn(xp: Any, params: Any, xy: Any) -> Any:
    p = [unigrad.watch(w) for w in params]
    z = unigrad.watch(xy)
    (g,) = unigrad.grad(mlp_tanh(xp, p, z), z, create_graph=True)
    (gx,) = unigrad.grad(g[:, 0], z, create_graph=True)
    (gy,) = unigrad.grad(g[:, 1], z, create_graph=True)
    loss = xp.mean((gx[:, 0] + gy[:, 1] + 1.0) ** 2)
    # the last bias does not reach the residual: zeros, as the references give
    return unigrad.grad(loss, p, materialize_grads=True)


def unigrad_pinn_sep(xp: Any, params: Any, xy: Any) -> Any:
    """The PINN as DeepXDE writes it: x and y watched separately, u_xx and u_yy from
    nested create_graph grads."""
    p = [unigrad.watch(w) for w in params]
    x, y = unigrad.watch(xy[:, 0:1]), unigrad.watch(xy[:, 1:2])
    u = mlp_tanh(xp, p, xp.concat([x, y], axis=1))
    (ux,) = unigrad.grad(u, x, create_graph=True)
    (uy,) = unigrad.grad(u, y, create_graph=True)
    (uxx,) = unigrad.grad(ux, x, create_graph=True)
    (uyy,) = unigrad.grad(uy, y, create_graph=True)
    loss = xp.mean((uxx + uyy + 1.0) ** 2)
    return unigrad.grad(loss, p, materialize_grads=True)


# ---- the hand-written references -------------------------------------------------
def _jax_refs() -> tuple[Callable[..., Any], Callable[..., Any]]:
    import jax
    import jax.numpy as jnp

    def wgan_loss(p: Any, real: Any, fake: Any, eps: Any) -> Any:
        x_hat = eps * real + (1 - eps) * fake
        g = jax.grad(lambda x: critic(jnp, p, x).sum())(x_hat)
        penalty = jnp.mean((jnp.linalg.vector_norm(g, axis=1) - 1.0) ** 2)
        return jnp.mean(critic(jnp, p, fake)) - jnp.mean(critic(jnp, p, real)) + LAM * penalty

    def pinn_loss(p: Any, xy: Any) -> Any:
        def du(z: Any) -> Any:
            return jax.grad(lambda z: mlp_tanh(jnp, p, z).sum())(z)

        u_xx = jax.grad(lambda z: du(z)[:, 0].sum())(xy)[:, 0]
        u_yy = jax.grad(lambda z: du(z)[:, 1].sum())(xy)[:, 1]
        return jnp.mean((u_xx + u_yy + 1.0) ** 2)

    def pinn_sep_loss(p: Any, x: Any, y: Any) -> Any:
        def u(x: Any, y: Any) -> Any:
            return mlp_tanh(jnp, p, jnp.concatenate([x, y], axis=1)).sum()

        u_xx = jax.grad(lambda x, y: jax.grad(u, 0)(x, y).sum(), 0)(x, y)
        u_yy = jax.grad(lambda x, y: jax.grad(u, 1)(x, y).sum(), 1)(x, y)
        return jnp.mean((u_xx + u_yy + 1.0) ** 2)

    return (
        jax.jit(jax.grad(wgan_loss)),
        jax.jit(jax.grad(pinn_loss)),
        jax.jit(jax.grad(pinn_sep_loss)),
    )


def _numpy_refs() -> tuple[Callable[..., Any], Callable[..., Any]]:
    import autograd
    import autograd.numpy as anp

    def wgan_loss(p: Any, real: Any, fake: Any, eps: Any) -> Any:
        x_hat = eps * real + (1 - eps) * fake
        g = autograd.grad(lambda x: anp.sum(critic(anp, p, x)))(x_hat)
        penalty = anp.mean((anp.sqrt(anp.sum(g * g, axis=1)) - 1.0) ** 2)
        return anp.mean(critic(anp, p, fake)) - anp.mean(critic(anp, p, real)) + LAM * penalty

    def pinn_loss(p: Any, xy: Any) -> Any:
        def du(z: Any) -> Any:
            return autograd.grad(lambda z: anp.sum(mlp_tanh(anp, p, z)))(z)

        u_xx = autograd.grad(lambda z: anp.sum(du(z)[:, 0]))(xy)[:, 0]
        u_yy = autograd.grad(lambda z: anp.sum(du(z)[:, 1]))(xy)[:, 1]
        return anp.mean((u_xx + u_yy + 1.0) ** 2)

    def pinn_sep_loss(p: Any, x: Any, y: Any) -> Any:
        def u(x: Any, y: Any) -> Any:
            return anp.sum(mlp_tanh(anp, p, anp.concatenate([x, y], axis=1)))

        u_xx = autograd.grad(lambda x, y: anp.sum(autograd.grad(u, 0)(x, y)), 0)(x, y)
        u_yy = autograd.grad(lambda x, y: anp.sum(autograd.grad(u, 1)(x, y)), 1)(x, y)
        return anp.mean((u_xx + u_yy + 1.0) ** 2)

    return autograd.grad(wgan_loss), autograd.grad(pinn_loss), autograd.grad(pinn_sep_loss)


def _check(ref: Any, ours: Any, what: str) -> None:
    for i, (a, b) in enumerate(zip(ref, ours, strict=True)):
        a, b = np.asarray(a), np.asarray(unigrad.to_numpy(b))
        if a.shape != b.shape or not np.allclose(a, b, rtol=2e-3, atol=1e-5):
            raise SystemExit(f"{what}: gradient {i} differs from the reference")


def cases(engine: str, points: int) -> dict[str, dict[str, Callable[[], Any]]]:
    """{case: {variant: step}}; the first variant of each case is the reference."""
    rng = np.random.default_rng(0)
    wp, real, fake, eps = init_wgan(rng)
    pp, xy = init_pinn(rng, points)
    if engine == "jax":
        import jax
        import jax.numpy as jnp

        wp, pp = [jnp.asarray(w) for w in wp], [jnp.asarray(w) for w in pp]
        real, fake, eps, xy = (jnp.asarray(a) for a in (real, fake, eps, xy))
        wgan_ref, pinn_ref, sep_ref = _jax_refs()
        xs, ys = xy[:, 0:1], xy[:, 1:2]
        xp = unigrad.namespace(unigrad.watch(real))
        lifted = unigrad.lift(lambda q, x: critic(jnp, q, x))
        # the same steps as one compiled function: unigrad.jit (the user's jax.jit)
        wgan_jit = unigrad.jit(lambda w, r, f, e: unigrad_wgan(xp, w, r, f, e))
        pinn_jit = unigrad.jit(lambda p, z: unigrad_pinn(xp, p, z))
        sep_jit = unigrad.jit(lambda p, z: unigrad_pinn_sep(xp, p, z))

        def done(out: Any) -> Any:
            return jax.block_until_ready([unigrad.to_numpy(g) for g in out])

        out = {
            "wgan-gp": {
                "jit(grad)": lambda: done(wgan_ref(wp, real, fake, eps)),
                "unigrad": lambda: done(unigrad_wgan(xp, wp, real, fake, eps)),
                "unigrad lift": lambda: done(unigrad_wgan(xp, wp, real, fake, eps, lifted)),
                "unigrad.jit": lambda: done(wgan_jit(wp, real, fake, eps)),
            },
            "pinn": {
                "jit(grad)": lambda: done(pinn_ref(pp, xy)),
                "unigrad": lambda: done(unigrad_pinn(xp, pp, xy)),
                "unigrad.jit": lambda: done(pinn_jit(pp, xy)),
            },
            "pinn-sep": {
                "jit(grad)": lambda: done(sep_ref(pp, xs, ys)),
                "unigrad": lambda: done(unigrad_pinn_sep(xp, pp, xy)),
                "unigrad.jit": lambda: done(sep_jit(pp, xy)),
            },
        }
    else:
        wgan_ref, pinn_ref, sep_ref = _numpy_refs()
        xp = unigrad.namespace(unigrad.watch(real))
        xs, ys = xy[:, 0:1], xy[:, 1:2]
        out = {
            "wgan-gp": {
                "autograd": lambda: wgan_ref(wp, real, fake, eps),
                "unigrad": lambda: unigrad_wgan(xp, wp, real, fake, eps),
            },
            "pinn": {
                "autograd": lambda: pinn_ref(pp, xy),
                "unigrad": lambda: unigrad_pinn(xp, pp, xy),
            },
            "pinn-sep": {
                "autograd": lambda: sep_ref(pp, xs, ys),
                "unigrad": lambda: unigrad_pinn_sep(xp, pp, xy),
            },
        }
    for case, variants in out.items():
        ref, *ours = variants.values()
        for name, fn in list(variants.items())[1:]:
            _check(ref(), fn(), f"{engine} {case} {name}")
        del ref, ours
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["jax", "numpy"], default=None)
    ap.add_argument("--case", action="append", help="case(s) to run; default: all")
    ap.add_argument("--quick", action="store_true", help="a short smoke run")
    ap.add_argument("--rounds", type=int, help="interleaved rounds per case")
    ap.add_argument("--block", type=float, help="seconds per timed block")
    ap.add_argument("--points", type=int, default=PINN_POINTS, help="PINN points")
    ap.add_argument("--no-memory", action="store_true", help="skip the peak-memory column")
    ap.add_argument(
        "--cpu-time",
        action="store_true",
        help="time in the process's CPU time, not wall time (a loaded machine disturbs it less)",
    )
    args = ap.parse_args(argv)
    if args.cpu_time:
        _harness.use_cpu_time()
    rounds = args.rounds or (3 if args.quick else 21)
    block_s = args.block or (0.02 if args.quick else 0.2)
    engines = [args.only] if args.only else ["jax", "numpy"]
    print("unigrad tape benchmark: the tape vs the same step written for the framework")
    print(f"machine: {_harness.describe_machine()}")
    print(
        f"method: {rounds} interleaved rounds x {block_s:g} s blocks, median [IQR] of "
        "per-round ratios; peak: numpy the tracemalloc peak of one step, jax the "
        "resident-set growth over 3 steps"
    )
    verdicts = []
    for engine in engines:
        for case, variants in cases(engine, args.points).items():
            if args.case and case not in args.case:
                continue
            s = _harness.interleaved(variants, rounds, block_s)
            ref = next(iter(variants))
            print()
            for name, fn in variants.items():
                mem_s = ""
                if not args.no_memory and engine == "numpy":
                    mem_s = f"   peak {_harness.peak_traced_mib(fn):.1f} MiB (traced)"
                elif not args.no_memory:
                    mem = _harness.peak_rss_mib(fn)
                    mem_s = "" if mem is None else f"   peak RSS +{mem:.1f} MiB"
                line = f"{engine:<6} {case:<8} {name:<13} {s.median(name) / 1e3:9.3f} ms"
                if name != ref:
                    q1, q2, q3 = _harness.quartiles(s.ratios(name, ref))
                    line += (
                        f"   ratio {q2:.3f}x (IQR {q1:.3f}-{q3:.3f}; fastest/fastest "
                        f"{s.fastest_ratio(name, ref):.3f}x) vs {ref}"
                    )
                    target = TARGETS[engine]
                    ok = q2 <= target
                    extra = ""
                    if engine == "jax":
                        met = "met" if q2 <= MOONSHOT_JAX else "not met"
                        extra = f", moonshot {MOONSHOT_JAX}x: {met}"
                    verdicts.append(
                        f"verdict {engine} {case} {name}: {'PASS' if ok else 'FAIL'} "
                        f"(ratio {q2:.3f}x, target <= {target}x{extra})"
                    )
                print(line + mem_s, flush=True)
    print()
    for v in verdicts:
        print(v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
