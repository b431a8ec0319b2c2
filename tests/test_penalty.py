"""gradient_penalty (WGAN-GP) on every backend."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import unigrad
from unigrad._penalty import gradient_penalty


def _linear_critic(backend, w):
    xp = backend.xp
    return lambda x: xp.matmul(x, w)


def test_linear_critic_value_and_parameter_gradient(backend):
    w = backend.leaf([2.0, 0.0, 0.0])
    real, fake = backend.ones((4, 3)), backend.zeros((4, 3))
    p = gradient_penalty(_linear_critic(backend, w), real, fake)  # random alpha
    backend.close(p, 1.0, rtol=1e-5)  # ||grad|| = ||w|| = 2: (2 - 1)^2
    (gw,) = unigrad.grad(p, w)  # 2 (||w|| - 1) w / ||w||
    backend.close(gw, [2.0, 0.0, 0.0], rtol=1e-5)
    p = gradient_penalty(_linear_critic(backend, w), real, fake, target=0.5)
    backend.close(p, 2.25, rtol=1e-5)


@pytest.mark.parametrize("alpha_shape", [(4,), (4, 1)])
def test_given_alpha_nonlinear_critic(backend, alpha_shape):
    rng = np.random.default_rng(0)
    real_v, fake_v = rng.normal(size=(4, 3)), rng.normal(size=(4, 3))
    a = np.array([0.0, 0.25, 0.5, 1.0])
    w_v = np.array([1.0, -2.0, 0.5])
    w = backend.leaf(w_v)
    xp = backend.xp

    def critic(x):  # sum_i w_i x_i^2: gradient 2 w x
        return xp.sum(x * x * w, axis=1)

    p = gradient_penalty(
        critic,
        backend.tensor(real_v),
        backend.tensor(fake_v),
        alpha=backend.tensor(a.reshape(alpha_shape)),
    )
    x = a[:, None] * real_v + (1 - a[:, None]) * fake_v
    norms = np.linalg.norm(2 * w_v * x, axis=1)
    backend.close(p, np.mean((norms - 1.0) ** 2), rtol=1e-4)
    # d p / d w = mean_b 2 (n_b - 1) / n_b * 4 w x_b^2
    expected = np.mean(2 * (norms - 1)[:, None] / norms[:, None] * 4 * w_v * x**2, axis=0)
    (gw,) = unigrad.grad(p, w)
    backend.close(gw, expected, rtol=1e-4, atol=1e-5)


def test_image_shaped_batches(backend):
    w = backend.leaf(np.full((2, 2), 0.5))
    xp = backend.xp

    def critic(x):  # (B, 1, 2, 2) -> (B, 1)
        return xp.reshape(xp.sum(x * w, axis=(1, 2, 3)), (-1, 1))

    real, fake = backend.ones((3, 1, 2, 2)), backend.zeros((3, 1, 2, 2))
    p = gradient_penalty(critic, real, fake)
    backend.close(p, 0.0, atol=1e-6)  # ||w||_F = 1


def test_errors(backend):
    w = backend.leaf([2.0, 0.0, 0.0])
    critic = _linear_critic(backend, w)
    with pytest.raises(unigrad.GradArgumentError, match="do not match"):
        gradient_penalty(critic, backend.ones((4, 3)), backend.zeros((5, 3)))
    with pytest.raises(unigrad.GradArgumentError, match="alpha"):
        gradient_penalty(
            critic, backend.ones((4, 3)), backend.zeros((4, 3)), alpha=backend.ones((3,))
        )


def test_framework_models(backend):
    """A torch nn.Module, a paddle nn.Layer, a lifted jax, tensorflow or numpy function."""
    real_v = np.ones((4, 3), np.float32)
    if backend.name == "torch":
        torch = importlib.import_module("torch")
        critic = torch.nn.Linear(3, 1)
        with torch.no_grad():
            critic.weight.copy_(torch.tensor([[2.0, 0.0, 0.0]]))
        p = gradient_penalty(critic, torch.from_numpy(real_v), torch.zeros(4, 3))
        (gw,) = torch.autograd.grad(p, critic.weight)
    elif backend.name == "paddle":
        paddle = importlib.import_module("paddle")
        critic = paddle.nn.Linear(3, 1)
        critic.weight.set_value(paddle.to_tensor([[2.0], [0.0], [0.0]]))
        p = gradient_penalty(critic, paddle.to_tensor(real_v), paddle.zeros([4, 3]))
        (gw,) = paddle.grad(p, critic.weight)
    elif backend.name == "jax":
        jnp = importlib.import_module("jax.numpy")
        params = unigrad.watch(jnp.array([[2.0], [0.0], [0.0]], jnp.float32))
        apply = unigrad.lift(lambda prm, x: jnp.tanh(x @ prm) * 0 + x @ prm)
        p = gradient_penalty(
            lambda x: apply(params, x), jnp.asarray(real_v), jnp.zeros((4, 3), jnp.float32)
        )
        (gw,) = unigrad.grad(p, params)
    elif backend.name == "tensorflow":
        tf = importlib.import_module("tensorflow")
        params = unigrad.watch(tf.constant([[2.0], [0.0], [0.0]]))
        apply = unigrad.lift(lambda prm, x: tf.matmul(x, prm))
        p = gradient_penalty(lambda x: apply(params, x), tf.constant(real_v), tf.zeros((4, 3)))
        (gw,) = unigrad.grad(p, params)
    else:
        anp = importlib.import_module("autograd.numpy")
        params = unigrad.watch(np.array([[2.0], [0.0], [0.0]], np.float32))
        apply = unigrad.lift(lambda prm, x: anp.dot(x, prm))
        p = gradient_penalty(lambda x: apply(params, x), real_v, np.zeros((4, 3), np.float32))
        (gw,) = unigrad.grad(p, params)
    backend.close(p, 1.0, rtol=1e-5)
    backend.close(np.reshape(backend.np(gw), (3,)), [2.0, 0.0, 0.0], rtol=1e-5)
