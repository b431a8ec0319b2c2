"""The WGAN-GP example of docs/tape.md runs, unchanged, on all four backends."""

from __future__ import annotations

import pathlib
import re

import numpy as np
import pytest

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "tape.md"


def _example() -> dict:
    text = DOC.read_text()
    code = re.search(r"<!-- test: wgan-gp -->\s*```python\n(.*?)```", text, re.S).group(1)
    scope: dict = {}
    exec(compile(code, str(DOC), "exec"), scope)
    return scope


def _data():
    rng = np.random.default_rng(0)
    params = [
        rng.normal(size=(6, 5)) / 3,
        rng.normal(size=5) / 3,
        rng.normal(size=(5, 1)) / 3,
        rng.normal(size=1) / 3,
    ]
    real, fake = rng.normal(size=(4, 6)), rng.normal(size=(4, 6))
    eps = rng.uniform(size=(4, 1))
    return params, real, fake, eps


def _reference():
    autograd = pytest.importorskip("autograd")
    import autograd.numpy as anp

    ex = _example()
    params, real, fake, eps = _data()

    def loss(p):
        x_hat = eps * real + (1 - eps) * fake
        g = autograd.grad(lambda x: anp.sum(ex["critic"](anp, p, x)))(x_hat)
        pen = anp.mean((anp.sqrt(anp.sum(g * g, axis=1)) - 1.0) ** 2)
        c = ex["critic"]
        return anp.mean(c(anp, p, fake)) - anp.mean(c(anp, p, real)) + 10.0 * pen

    return loss(params), autograd.grad(loss)(params)


def test_wgan_gp_example_on_every_backend(backend):
    ex = _example()
    params, real, fake, eps = _data()
    p = [backend.leaf(w, "float64") for w in params]
    loss, grads = ex["critic_step"](
        p,
        backend.tensor(real, "float64"),
        backend.tensor(fake, "float64"),
        backend.tensor(eps, "float64"),
    )
    ref_loss, ref_grads = _reference()
    backend.close(loss, ref_loss, rtol=1e-8, atol=1e-10)
    for g, r in zip(grads, ref_grads, strict=True):
        backend.close(g, r, rtol=1e-7, atol=1e-9)


def _jit_example() -> dict:
    """The `unigrad.jit` example's step (the block up to its data), compiled."""
    text = DOC.read_text()
    code = re.search(r"<!-- test: jit -->\s*```python\n(.*?)```", text, re.S).group(1)
    scope: dict = {}
    exec(compile(code.split("\nrng = ")[0], str(DOC), "exec"), scope)
    return scope


def test_jit_example_on_every_backend(backend):
    step = _jit_example()["pinn_step"]
    rng = np.random.default_rng(1)
    params = [backend.tensor(rng.normal(size=s) * 0.5) for s in [(2, 16), (16,), (16, 1)]]
    xy = backend.tensor(rng.uniform(size=(64, 2)))
    loss, grads = step.__wrapped__(params, xy)  # the step as written
    for _ in range(2):
        got_loss, got_grads = step(params, xy)
        backend.close(got_loss, backend.np(loss), rtol=1e-5, atol=1e-6)
        assert len(got_grads) == 3
        for g, r in zip(got_grads, grads, strict=True):
            assert not backend.requires_grad(g)
            backend.close(g, backend.np(r), rtol=1e-4, atol=1e-5)
