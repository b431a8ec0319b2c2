"""WGAN-GP critic step on unigrad's tape vs the frameworks used directly.

One step: the critic D (MLP 784 -> 256 -> 1, leaky ReLU, batch 64) on real, fake and
interpolated samples; the gradient penalty needs d D(x_hat) / d x_hat with
create_graph=True, then the gradients of the loss w.r.t. the parameters.

jax:   unigrad (namespace-recorded and lift) vs hand-written ``jax.jit(jax.grad(...))``
       vs eager ``jax.grad``. Targets: unigrad <= 1.5x jitted, faster than eager.
numpy: unigrad vs HIPS autograd used directly. Target: <= 1.3x.

Run: ``python benchmarks/bench_tape.py [--repeat N] [--number N]``; prints medians and
ratios (timeit-style: ``number`` calls per sample, ``repeat`` samples, median).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import timeit
from collections.abc import Callable
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.isdir(os.path.join(_ROOT, "unigrad")) and _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)  # run from a checkout: benchmark the checkout's unigrad

import numpy as np  # noqa: E402 (after the sys.path setup above)

import unigrad  # noqa: E402

B, D_IN, H, LAM, SLOPE = 64, 784, 256, 10.0, 0.2


def init(rng: np.random.Generator) -> tuple[list[np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
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


# ---- the forward, written once for any array namespace ---------------------------
def critic(xp: Any, p: Any, x: Any) -> Any:
    h = xp.matmul(x, p[0]) + p[1]
    h = xp.maximum(h, SLOPE * h)  # leaky ReLU
    return xp.matmul(h, p[2]) + p[3]


def unigrad_step(
    xp: Any,
    watch: Callable[[Any], Any],
    params: Any,
    real: Any,
    fake: Any,
    eps: Any,
    lifted: Callable[..., Any] | None = None,
) -> Any:
    p = [watch(w) for w in params]
    f = (lambda q, x: critic(xp, q, x)) if lifted is None else lifted
    x_hat = unigrad.watch(eps * real + (1 - eps) * fake)
    (g,) = unigrad.grad(f(p, x_hat), x_hat, create_graph=True)
    norm = xp.linalg.vector_norm(g, axis=1)
    penalty = xp.mean((norm - 1.0) ** 2)
    loss = xp.mean(f(p, fake)) - xp.mean(f(p, real)) + LAM * penalty
    return unigrad.grad(loss, p)


def _bench_all(fns: dict[str, tuple[Callable[[], Any], int]], repeat: int) -> dict[str, float]:
    """Median seconds per call of each fn; samples are interleaved (round-robin) so that
    load drift on a shared machine hits every variant alike."""
    for fn, _ in fns.values():
        fn()  # warm up (compiles)
    samples: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeat):
        for k, (fn, number) in fns.items():
            samples[k].append(timeit.timeit(fn, number=number) / number)
    return {k: statistics.median(v) for k, v in samples.items()}


def bench_jax(repeat: int, number: int) -> dict[str, float]:
    import jax
    import jax.numpy as jnp

    params_np, real_np, fake_np, eps_np = init(np.random.default_rng(0))
    params = [jnp.asarray(w) for w in params_np]
    real, fake, eps = jnp.asarray(real_np), jnp.asarray(fake_np), jnp.asarray(eps_np)

    def loss_fn(p: Any, real: Any, fake: Any, eps: Any) -> Any:
        x_hat = eps * real + (1 - eps) * fake
        g = jax.grad(lambda x: critic(jnp, p, x).sum())(x_hat)
        penalty = jnp.mean((jnp.linalg.vector_norm(g, axis=1) - 1.0) ** 2)
        return jnp.mean(critic(jnp, p, fake)) - jnp.mean(critic(jnp, p, real)) + LAM * penalty

    jitted = jax.jit(jax.grad(loss_fn))
    eager = jax.grad(loss_fn)
    xp = unigrad.namespace(unigrad.watch(real))
    lifted = unigrad.lift(lambda q, x: critic(jnp, q, x))

    def block(out: Any) -> Any:
        return jax.block_until_ready(list(out))

    ref = jitted(params, real, fake, eps)
    ours = unigrad_step(xp, unigrad.watch, params, real, fake, eps)
    for a, b in zip(ref, ours, strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=2e-3, atol=1e-5)
    return _bench_all(
        {
            "jax jit(grad)": (lambda: block(jitted(params, real, fake, eps)), number),
            "jax eager grad": (lambda: block(eager(params, real, fake, eps)), max(1, number // 5)),
            "unigrad jax (namespace)": (
                lambda: block(unigrad_step(xp, unigrad.watch, params, real, fake, eps)),
                number,
            ),
            "unigrad jax (lift)": (
                lambda: block(unigrad_step(xp, unigrad.watch, params, real, fake, eps, lifted)),
                number,
            ),
        },
        repeat,
    )


def bench_numpy(repeat: int, number: int) -> dict[str, float]:
    import autograd
    import autograd.numpy as anp

    params, real, fake, eps = init(np.random.default_rng(0))

    def loss_fn(p: Any) -> Any:
        x_hat = eps * real + (1 - eps) * fake
        g = autograd.grad(lambda x: anp.sum(critic(anp, p, x)))(x_hat)
        penalty = anp.mean((anp.sqrt(anp.sum(g * g, axis=1)) - 1.0) ** 2)
        return anp.mean(critic(anp, p, fake)) - anp.mean(critic(anp, p, real)) + LAM * penalty

    direct = autograd.grad(loss_fn)
    xp = unigrad.namespace(unigrad.watch(real))
    ref = direct(params)
    ours = unigrad_step(xp, unigrad.watch, params, real, fake, eps)
    for a, b in zip(ref, ours, strict=True):
        np.testing.assert_allclose(a, b, rtol=2e-3, atol=1e-5)
    return _bench_all(
        {
            "autograd direct": (lambda: direct(params), number),
            "unigrad numpy": (
                lambda: unigrad_step(xp, unigrad.watch, params, real, fake, eps),
                number,
            ),
        },
        repeat,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--number", type=int, default=20)
    ap.add_argument("--only", choices=["jax", "numpy"], default=None)
    args = ap.parse_args(argv)
    ok = True
    if args.only in (None, "jax"):
        t = bench_jax(args.repeat, args.number)
        for k, v in t.items():
            print(f"{k:28s} {v * 1e3:9.3f} ms")
        for variant in ("unigrad jax (namespace)", "unigrad jax (lift)"):
            r_jit = t[variant] / t["jax jit(grad)"]
            r_eager = t[variant] / t["jax eager grad"]
            print(
                f"{variant}: {r_jit:.2f}x jitted (target <= 1.5), {r_eager:.2f}x eager (target < 1)"
            )
            ok &= r_jit <= 1.5 and r_eager < 1
    if args.only in (None, "numpy"):
        t = bench_numpy(args.repeat, args.number)
        for k, v in t.items():
            print(f"{k:28s} {v * 1e3:9.3f} ms")
        r = t["unigrad numpy"] / t["autograd direct"]
        print(f"unigrad numpy: {r:.2f}x autograd (target <= 1.3)")
        ok &= r <= 1.3
    print("targets met" if ok else "targets NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
