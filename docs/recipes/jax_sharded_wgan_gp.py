"""A WGAN-GP critic step on a batch sharded over 4 devices, with unigrad's jax tape.

    python docs/recipes/jax_sharded_wgan_gp.py OUT.npz

On a CPU-only machine, XLA makes 4 host devices when asked before jax starts
(``XLA_FLAGS=--xla_force_host_platform_device_count=4``, set below unless already set);
on GPUs or TPUs the real devices are used. The batch is split over the devices along
its first axis, the critic's parameters are replicated, and the same critic step runs
eagerly (the tape records operations on sharded arrays, and jax runs each one across the
devices) and inside ``jax.jit`` (the tape records tracers; XLA partitions the whole step).
OUT.npz holds both results and the unsharded ones; tests/test_data_parallel.py compares.
"""

import os
import sys
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=4")

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

import unigrad

BATCH, FEATURES, HIDDEN, LAMBDA = 16, 3, 8, 10.0


def critic(xp, params, x):
    W1, b1, W2, b2 = params
    h = xp.matmul(x, W1) + b1
    h = xp.maximum(h, 0.2 * h)  # leaky ReLU
    return xp.matmul(h, W2) + b2


def critic_step(arrays, real, fake, eps):
    """The loss and its gradients with respect to the parameters (plain arrays)."""
    params = [unigrad.watch(a) for a in arrays]
    xp = unigrad.namespace(*params)
    x_hat = unigrad.watch(eps * real + (1 - eps) * fake)
    (g,) = unigrad.grad(critic(xp, params, x_hat), x_hat, create_graph=True)
    penalty = xp.mean((xp.linalg.vector_norm(g, axis=1) - 1.0) ** 2)
    loss = xp.mean(critic(xp, params, fake)) - xp.mean(critic(xp, params, real)) + LAMBDA * penalty
    grads = unigrad.grad(loss, params)
    return loss.value, list(grads)


def data():
    rng = np.random.default_rng(0)
    arrays = [
        rng.normal(size=(FEATURES, HIDDEN)),
        rng.normal(size=(HIDDEN,)),
        rng.normal(size=(HIDDEN, 1)),
        rng.normal(size=(1,)),
    ]
    batch = rng.normal(size=(BATCH, FEATURES)), rng.normal(size=(BATCH, FEATURES))
    eps = rng.uniform(size=(BATCH, 1))
    return [jnp.asarray(a) for a in arrays], [jnp.asarray(b) for b in (*batch, eps)]


def main(out: str) -> None:
    jax.config.update("jax_enable_x64", True)  # float64, to compare to 1e-10
    arrays, (real, fake, eps) = data()
    mesh = Mesh(np.array(jax.devices()), ("batch",))
    by_batch, replicated = NamedSharding(mesh, P("batch")), NamedSharding(mesh, P())
    sharded = [jax.device_put(t, by_batch) for t in (real, fake, eps)]
    params = [jax.device_put(a, replicated) for a in arrays]

    results = {
        "unsharded": critic_step(arrays, real, fake, eps),
        "sharded": critic_step(params, *sharded),
        "sharded_jit": jax.jit(critic_step)(params, *sharded),
    }
    out_arrays = {"devices": np.array(len(jax.devices()))}
    out_arrays["input_shards"] = np.array(len(sharded[0].sharding.device_set))
    for name, (loss, grads) in results.items():
        out_arrays[f"{name}_loss"] = np.asarray(loss)
        for i, g in enumerate(grads):
            out_arrays[f"{name}_grad{i}"] = np.asarray(g)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, **out_arrays)


if __name__ == "__main__":
    main(sys.argv[1])
