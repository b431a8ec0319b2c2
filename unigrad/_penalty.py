"""The WGAN-GP gradient penalty, once for every backend."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._api import namespace, watch
from ._dispatch import backend_for
from ._errors import GradArgumentError, message
from ._grad import grad

__all__ = ["gradient_penalty"]

#: Added under the square root so that a zero gradient has a finite derivative.
EPS = 1e-12


def _random_alpha(be: Any, real: Any, batch: int) -> Any:
    """Uniform [0, 1) weights of shape (B,), made where ``real`` lives."""
    if be.name == "torch":
        import torch

        return torch.rand(batch, dtype=real.dtype, device=real.device)
    if be.name == "paddle":
        import paddle

        return paddle.rand([batch], dtype=real.dtype)
    import numpy as np  # lazily: `import unigrad` imports no array library

    return be.cast(be.asarray(np.random.default_rng().random(batch), "float32"), real)


def gradient_penalty(
    critic: Callable[[Any], Any], real: Any, fake: Any, *, alpha: Any = None, target: float = 1.0
) -> Any:
    """The WGAN-GP gradient penalty ``mean_b (||grad critic(x_b)||_2 - target)^2``.

    ``x = alpha * real + (1 - alpha) * fake`` per sample (Gulrajani et al., 2017); the
    gradient of the critic at ``x`` is taken with ``create_graph=True``, so the penalty
    is differentiable with respect to the critic's parameters (add it to the critic's
    loss and call ``backward``/``grad``).

    Args:
        critic: Maps a batch ``(B, ...)`` to scores of shape ``(B,)`` or ``(B, 1)``: a
            torch ``nn.Module``, a paddle ``nn.Layer``, a `unigrad.lift`-ed jax
            function or a numpy function written with the recording namespace.
        real: A batch of real samples, shape ``(B, ...)``.
        fake: A batch of generated samples, same shape as ``real``.
        alpha: Interpolation weights, shape ``(B,)`` or broadcastable to ``real``
            (e.g. ``(B, 1, 1, 1)``); default: uniform random in [0, 1) per sample.
        target: The wanted gradient norm (1 in the paper).

    Returns:
        A scalar tensor. The norm is ``sqrt(sum(g**2) + 1e-12)``, finite at ``g = 0``.

    Raises:
        GradArgumentError: ``real`` and ``fake`` differ in shape, or ``alpha`` fits
            neither ``(B,)`` nor ``real``'s rank.

    Examples:
        >>> import torch
        >>> from unigrad._penalty import gradient_penalty
        >>> critic = torch.nn.Linear(3, 1)
        >>> with torch.no_grad():
        ...     _ = critic.weight.copy_(torch.tensor([[2.0, 0.0, 0.0]]))
        >>> real, fake = torch.ones(4, 3), torch.zeros(4, 3)
        >>> gradient_penalty(critic, real, fake)  # ||grad|| = 2 everywhere
        tensor(1., grad_fn=<MeanBackward0>)
    """
    be = backend_for((("real", (real,)), ("fake", (fake,)), ("alpha", (alpha,))))
    shape = be.shape(real)
    if be.shape(fake) != shape or not shape:
        msg = message(
            "`real` and `fake` do not match",
            expected="two batches (B, ...) of one shape",
            got=f"{shape} and {be.shape(fake)}",
            fix="Pass batches of the same shape, batch first.",
        )
        raise GradArgumentError(msg)
    batch, ndim = shape[0], len(shape)
    if alpha is None:
        alpha = _random_alpha(be, real, batch)
    a_shape = be.shape(alpha)
    xp = namespace(real, fake, alpha)
    if a_shape == (batch,):
        alpha = xp.reshape(alpha, (batch,) + (1,) * (ndim - 1))
    elif (
        len(a_shape) != ndim
        or a_shape[0] not in (1, batch)
        or any(d not in (1, s) for d, s in zip(a_shape[1:], shape[1:], strict=False))
    ):
        msg = message(
            "`alpha` has the wrong shape",
            expected=f"({batch},) or broadcastable to {shape}",
            got=f"{a_shape}",
            fix="Pass one weight per sample.",
        )
        raise GradArgumentError(msg)
    x = alpha * real + (1 - alpha) * fake
    if not be.requires_grad(x):
        x = watch(x)
    scores = critic(x)
    (g,) = grad(scores, x, create_graph=True)
    xp = namespace(g)
    axes = tuple(range(1, ndim))
    sq = xp.sum(g * g, axis=axes) if axes else g * g
    norm = xp.sqrt(sq + EPS)
    return xp.mean((norm - target) ** 2)
