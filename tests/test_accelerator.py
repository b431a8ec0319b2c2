"""Device placement on an accelerator: torch on CUDA and the jax tape on a GPU.

Every result, materialized zero and seed that unigrad makes lives on the device of the
tensor it belongs to; a seed on another device is refused before the engine runs. Skipped
where no accelerator is visible (CI runs on CPU); run on a GPU machine with
``python -m pytest tests/test_accelerator.py``.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest

import unigrad


def _torch_cuda() -> Any:
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed")
    import torch

    if not torch.cuda.is_available():
        pytest.skip("no CUDA device visible to torch")
    return torch


def _jax_gpu() -> Any:
    if importlib.util.find_spec("jax") is None:
        pytest.skip("jax is not installed")
    import jax

    try:
        gpus = jax.devices("gpu")
    except RuntimeError:
        gpus = []
    if not gpus:
        pytest.skip("no GPU visible to jax")
    return jax


# ---- torch on CUDA --------------------------------------------------------------------------
def test_torch_results_and_materialized_zeros_stay_on_the_device() -> None:
    torch = _torch_cuda()
    dev = torch.device("cuda", torch.cuda.current_device())
    x = torch.tensor([0.5, -1.0, 2.0], device=dev, requires_grad=True)
    unused = torch.zeros(2, device=dev, requires_grad=True)
    y = (torch.tanh(x) * x).sum()
    gx, gu = unigrad.grad(y, [x, unused], materialize_grads=True, create_graph=True)
    assert gx.device == dev
    assert gu.device == dev
    t = np.tanh([0.5, -1.0, 2.0])
    np.testing.assert_allclose(
        unigrad.to_numpy(gx), t + np.array([0.5, -1.0, 2.0]) * (1 - t * t), rtol=1e-6
    )
    assert gu.requires_grad  # torch's materialized zeros under create_graph
    np.testing.assert_array_equal(unigrad.to_numpy(gu), [0.0, 0.0])
    # second order stays on the device too
    (h,) = unigrad.grad(gx.sum(), x)
    assert h.device == dev


def test_torch_seeds_batched_seeds_and_wrong_device_seeds() -> None:
    torch = _torch_cuda()
    dev = torch.device("cuda", torch.cuda.current_device())
    x = torch.tensor([1.0, 2.0], device=dev, requires_grad=True)
    y = x * x
    (g,) = unigrad.grad(y, x, torch.tensor([1.0, 0.5], device=dev), retain_graph=True)
    assert g.device == dev
    np.testing.assert_allclose(unigrad.to_numpy(g), [2.0, 2.0])
    (rows,) = unigrad.grad(y, x, torch.eye(2, device=dev), is_grads_batched=True, retain_graph=True)
    assert rows.device == dev
    np.testing.assert_allclose(unigrad.to_numpy(rows), [[2.0, 0.0], [0.0, 4.0]])
    with pytest.raises(unigrad.GradOutputsError, match="another device") as info:
        unigrad.grad(y, x, torch.ones(2))  # a CPU seed for a CUDA output
    assert isinstance(info.value, RuntimeError)  # torch's class for the same misuse


def test_torch_backward_namespace_and_penalty_on_the_device() -> None:
    torch = _torch_cuda()
    dev = torch.device("cuda", torch.cuda.current_device())
    w = torch.tensor([[1.0, -2.0], [0.5, 3.0]], device=dev, requires_grad=True)
    xp = unigrad.namespace(w)
    z = xp.sum(xp.tanh(w @ xp.ones((2,), device=w.device)))
    unigrad.backward(z)
    assert w.grad is not None
    assert w.grad.device == dev
    s = np.tanh(np.array([[1.0, -2.0], [0.5, 3.0]]).sum(axis=1))
    np.testing.assert_allclose(
        unigrad.to_numpy(w.grad), np.repeat((1 - s * s)[:, None], 2, axis=1), rtol=1e-5
    )

    def critic(v: Any) -> Any:
        return (v * v).sum(dim=1)

    real = torch.randn(4, 3, device=dev)
    fake = torch.randn(4, 3, device=dev)
    gp = unigrad.gradient_penalty(critic, real, fake)  # its alpha is drawn on the device
    assert gp.device == dev
    hess = unigrad.hessian((w * w * w).sum(), w)
    assert hess.device == dev


# ---- the jax tape on a GPU --------------------------------------------------------------------
def test_jax_tape_results_stay_on_the_gpu() -> None:
    jax = _jax_gpu()
    import jax.numpy as jnp

    gpu = jax.devices("gpu")[0]
    x = unigrad.watch(jax.device_put(jnp.array([0.5, -1.0, 2.0], dtype=jnp.float32), gpu))
    c = unigrad.watch(jax.device_put(jnp.zeros(2, dtype=jnp.float32), gpu))
    xp = unigrad.namespace(x)
    y = xp.sum(xp.tanh(x) * x)
    gx, gc = unigrad.grad(y, [x, c], materialize_grads=True, create_graph=True)
    assert gx.device == gpu
    assert gc.device == gpu
    assert y.device == gpu
    t = np.tanh([0.5, -1.0, 2.0])
    np.testing.assert_allclose(
        unigrad.to_numpy(gx), t + np.array([0.5, -1.0, 2.0]) * (1 - t * t), rtol=1e-5
    )
    (h,) = unigrad.grad(xp.sum(gx), x)
    assert h.device == gpu
    np.testing.assert_allclose(
        unigrad.to_numpy(h),
        2 * (1 - t * t) - 2 * np.array([0.5, -1.0, 2.0]) * t * (1 - t * t),
        rtol=1e-5,
    )


# ---- a compiled step (unigrad.jit) on the device ---------------------------------------------
def _pinn_like(w: Any, z: Any) -> Any:
    w, z = unigrad.watch(w), unigrad.watch(z)
    xp = unigrad.namespace(w)
    u = xp.sum(xp.tanh(z * w))
    (g,) = unigrad.grad(u, z, create_graph=True)
    loss = xp.sum(g * g)
    return loss.detach(), unigrad.grad(loss, w)[0]


def _pinn_like_expected(w: np.ndarray, z: np.ndarray) -> tuple[float, np.ndarray]:
    t = np.tanh(z * w)
    s = 1 - t * t  # g = w * s; loss = sum(w^2 s^2); d/dw = 2 w s^2 - 4 w^2 s^2 t z
    return float(np.sum(w * w * s * s)), 2 * w * s * s - 4 * w * w * s * s * t * z


def test_jax_compiled_step_runs_on_the_gpu() -> None:
    jax = _jax_gpu()
    import jax.numpy as jnp

    gpu = jax.devices("gpu")[0]
    w0, z0 = np.array([0.3, -0.7, 1.1]), np.array([0.5, 1.5, -2.0])
    w = jax.device_put(jnp.asarray(w0, dtype=jnp.float32), gpu)
    z = jax.device_put(jnp.asarray(z0, dtype=jnp.float32), gpu)
    step = unigrad.jit(_pinn_like)
    for _ in range(2):  # traced, then replayed
        loss, gw = step(w, z)
        assert loss.device == gpu
        assert gw.device == gpu
        want_loss, want_gw = _pinn_like_expected(w0, z0)
        np.testing.assert_allclose(float(loss), want_loss, rtol=1e-5)
        np.testing.assert_allclose(unigrad.to_numpy(gw), want_gw, rtol=1e-5, atol=1e-6)


def test_torch_compiled_step_runs_on_the_device() -> None:
    torch = _torch_cuda()
    dev = torch.device("cuda", torch.cuda.current_device())
    w0, z0 = np.array([0.3, -0.7, 1.1]), np.array([0.5, 1.5, -2.0])
    w = torch.tensor(w0, dtype=torch.float32, device=dev)
    z = torch.tensor(z0, dtype=torch.float32, device=dev)
    loss, gw = unigrad.jit(_pinn_like)(w, z)
    assert loss.device == dev
    assert gw.device == dev
    want_loss, want_gw = _pinn_like_expected(w0, z0)
    np.testing.assert_allclose(float(loss), want_loss, rtol=1e-5)
    np.testing.assert_allclose(unigrad.to_numpy(gw), want_gw, rtol=1e-5, atol=1e-6)
