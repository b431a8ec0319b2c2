"""Examples of the seed documents (blog posts and notes on gradient penalties and
higher-order gradients), replayed with deterministic inputs whose results are known in
closed form. Each case names the seed document it replays."""

from __future__ import annotations

import math
from typing import Any

from ..._errors import UnusedInputError
from .._case import Case
from .._kit import Kit

__all__ = ["CASES"]

SEED_GP_NOTES = "seed:000_3e64b3497ab97ea1 (gradient penalty notes, torch.autograd.grad)"
SEED_GRAD_OF_GRAD = "seed:001_f7d9c4f7c49078c7 (computing the gradients of gradients)"
SEED_X_SQUARED = "seed:002_38fd73553ea87fd6 (y = x**2 on a 3x4 grid)"
SEED_WGAN = "seed:003_a9a898411cd05313 (WGAN-GP, seeds of ones and twos)"

# ---- y = x**2 on the grid x[i][j] = i + j -------------------------------------------
_GRID = [[float(i + j) for j in range(4)] for i in range(3)]


def _grid_first(k: Kit) -> Any:
    x = k.leaf(_GRID)
    y = x**2
    return k.grad(y, x, k.ones([3, 4]), retain_graph=True, create_graph=True)


def _grid_second(k: Kit) -> Any:
    x = k.leaf(_GRID)
    y = x**2
    (dydx,) = k.grad(y, x, k.ones([3, 4]), retain_graph=True, create_graph=True)
    return k.grad(dydx, x, k.ones([3, 4]), retain_graph=True, create_graph=True)


# ---- WGAN-GP with a deterministic critic ---------------------------------------------
# Two "images" of shape (1, 2, 2), interpolated with fixed weights. The critic is
# D(x) = w * 0.5 * |x|^2 per sample (output shape (B, 1)), so dD/dx = w * x and the
# penalty is mean((w * |x_hat| - 1)^2), with d penalty / dw = mean(2 (w|x_hat| - 1)|x_hat|).
_REAL = [[1.0, 2.0, 2.0, 0.0], [0.0, 1.0, 0.0, 1.0]]
_FAKE = [[-1.0, 0.0, 2.0, 2.0], [3.0, 1.0, 0.0, -3.0]]
_ALPHA = [0.25, 0.5]
_W = 0.5


def _interpolates() -> list[list[float]]:
    return [
        [a * r + (1 - a) * f for r, f in zip(real, fake, strict=True)]
        for a, real, fake in zip(_ALPHA, _REAL, _FAKE, strict=True)
    ]


def _wgan_expected(scale: float = 1.0) -> tuple[Any, float, float]:
    xh = _interpolates()
    norms = [math.sqrt(sum(v * v for v in row)) for row in xh]
    gp = sum((scale * _W * n - 1) ** 2 for n in norms) / len(norms)
    dgp_dw = sum(2 * (scale * _W * n - 1) * scale * n for n in norms) / len(norms)
    s = scale * _W
    grads = [[[[s * row[0], s * row[1]], [s * row[2], s * row[3]]]] for row in xh]
    return grads, gp, dgp_dw


def _critic(k: Kit, x: Any, w: Any) -> Any:
    xp = k.xp
    flat = xp.reshape(x, (2, 4))
    return xp.reshape(w * 0.5 * xp.sum(flat * flat, axis=1), (2, 1))


def _wgan_inputs(k: Kit) -> tuple[Any, Any]:
    alpha = k.tensor([[[[a]]] for a in _ALPHA])
    real = k.tensor([[[row[:2], row[2:]]] for row in _REAL])
    fake = k.tensor([[[row[:2], row[2:]]] for row in _FAKE])
    interpolates = k.watch(alpha * real + (1 - alpha) * fake)
    return interpolates, k.leaf(_W)


def _wgan_penalty(seed: float) -> Any:
    def compute(k: Kit) -> Any:
        xp = k.xp
        interpolates, w = _wgan_inputs(k)
        d = _critic(k, interpolates, w)
        (gradients,) = k.grad(
            d, interpolates, grad_outputs=k.full([2, 1], seed), create_graph=True, retain_graph=True
        )
        flat = xp.reshape(gradients, (2, 4))
        penalty = xp.mean((xp.linalg.vector_norm(flat, axis=1) - 1) ** 2)
        (dpenalty_dw,) = k.grad(penalty, w)
        return gradients, penalty, dpenalty_dw

    return compute


def _twice(k: Kit) -> Any:
    interpolates, w = _wgan_inputs(k)
    d = _critic(k, interpolates, w)
    (g1,) = k.grad(d, interpolates, k.ones([2, 1]), retain_graph=True, create_graph=True)
    (g2,) = k.grad(d, interpolates, k.full([2, 1], 2.0), retain_graph=True, create_graph=True)
    return g2, 2 * g1


# ---- gradient penalty on an RL-style network, allow_unused=True --------------------------
# network(s) = s @ W with W of shape (3, 2); with a seed of ones, d out / d s = rows of W
# summed: [1, 1, 3]; viewed as (-1, 1) the norms are |g_i|, the penalty mean((|g_i|-1)^2)
# = 4/3, and d penalty / d W_ij = 2 (|g_i| - 1) sign(g_i) / 3.
_STATE = [[0.5, -1.0, 2.0]]
_WEIGHTS = [[1.0, 0.0], [0.5, 0.5], [2.0, 1.0]]


def _rl_penalty(k: Kit) -> Any:
    xp = k.xp
    state = k.leaf(_STATE)
    weights = k.leaf(_WEIGHTS)
    output = xp.matmul(state, weights)
    musk = k.ones([1, 2])
    (gradients,) = k.grad(
        output, state, grad_outputs=musk, retain_graph=True, create_graph=True, allow_unused=True
    )
    gradients = xp.reshape(gradients, (-1, 1))
    penalty = xp.mean((xp.linalg.vector_norm(gradients, axis=1) - 1) ** 2)
    (dweights,) = k.grad(penalty, weights)
    return penalty, dweights


def _rl_unused_head(k: Kit) -> Any:
    xp = k.xp
    state, goal = k.leaf(_STATE), k.leaf([[1.0, 1.0]])
    weights = k.leaf(_WEIGHTS)
    output = xp.matmul(state, weights)  # the goal head is not used by this network
    return k.grad(
        output,
        [state, goal],
        grad_outputs=k.ones([1, 2]),
        retain_graph=True,
        create_graph=True,
        allow_unused=True,
    )


def _not_accumulated(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0])
    (g,) = k.grad(k.xp.sum(x * x), x)
    return g, k.grad_of(x)


def _unused_is_error(k: Kit) -> Any:
    x, unused = k.leaf(1.0), k.leaf(2.0)
    return k.grad(x * x, [x, unused], allow_unused=False)


_WGAN_GRADS, _WGAN_GP, _WGAN_DGP = _wgan_expected()

CASES: list[Case] = [
    Case(
        "seed/x^2-grid-first-derivative",
        SEED_X_SQUARED,
        _grid_first,
        expected=([[2 * v for v in row] for row in _GRID],),
    ),
    Case(
        "seed/x^2-grid-second-derivative", SEED_X_SQUARED, _grid_second, expected=([[2.0] * 4] * 3,)
    ),
    Case(
        "seed/wgan-gp-penalty",
        SEED_GRAD_OF_GRAD,
        _wgan_penalty(1.0),
        expected=(_WGAN_GRADS, _WGAN_GP, _WGAN_DGP),
        note="interpolates, critic, seed of ones, create_graph, (|g| - 1)^2, and the "
        "penalty's gradient w.r.t. the critic's weight (only right with create_graph)",
    ),
    Case(
        "seed/wgan-gp-seed-of-twos",
        SEED_WGAN,
        _twice,
        expected=(_wgan_expected(2.0)[0], _wgan_expected(2.0)[0]),
        note="a seed of twos gives twice the gradient of a seed of ones",
    ),
    Case(
        "seed/returned-not-accumulated",
        SEED_GP_NOTES,
        _not_accumulated,
        expected=([2.0, 4.0], None),
        note="inputs: the gradient is returned and not accumulated into .grad",
    ),
    Case(
        "seed/allow_unused=False-unused-input",
        SEED_GP_NOTES,
        _unused_is_error,
        raises=UnusedInputError,
    ),
    Case(
        "seed/rl-network-gp-allow_unused",
        SEED_GRAD_OF_GRAD,
        _rl_penalty,
        expected=(4.0 / 3.0, [[0.0, 0.0], [0.0, 0.0], [4.0 / 3.0, 4.0 / 3.0]]),
    ),
    Case(
        "seed/rl-network-unused-input",
        SEED_GRAD_OF_GRAD,
        _rl_unused_head,
        expected=([[1.0, 1.0, 3.0]], None),
    ),
]
