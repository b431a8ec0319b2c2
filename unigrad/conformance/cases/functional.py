"""Documented examples of the function-style API, replayed with `unigrad.functional`.

``torch.autograd.functional`` (vjp, jvp, jacobian, hessian, hvp, vhp), ``torch.func.vjp``,
``paddle.incubate.autograd`` (vjp, Jacobian), ``jax.hessian``/``jacfwd``/``jacrev`` and
``tf.GradientTape.jacobian`` (as `unigrad.functional.jacobian`), each with its
documented numbers. Functions are written with ``k.xp`` (the backend's namespace) on
plain tensors (``k.tensor``), as the functional API takes them.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from ... import functional as F
from .._case import Case
from .._kit import Kit

__all__ = ["CASES"]

T_FUNCTIONAL = "https://pytorch.org/docs/stable/generated/torch.autograd.functional.jacobian.html"
T_FUNC_VJP = "https://docs.pytorch.org/docs/stable/generated/torch.func.vjp.html"
P_VJP = (
    "https://paddlepaddle.org.cn/documentation/docs/en/2.5/api/paddle/incubate/autograd/vjp_en.html"
)
P_JACOBIAN = (
    "https://www.paddlepaddle.org.cn/documentation/api/paddle/incubate/autograd/Jacobian_cn.html"
)
J_API = "https://docs.jax.dev/en/latest/_autosummary/jax.hessian.html"
J_JACFWD = "https://docs.jax.dev/en/latest/_autosummary/jax.jacfwd.html"
TF_TAPE = "https://www.tensorflow.org/api_docs/python/tf/GradientTape"

# torch's examples use rand(2); the documented results do not depend on the point.
_X, _Y = [0.3, 0.7], [0.1, 0.9]


def _adder_vjp(k: Kit) -> Any:
    _, res = F.vjp(lambda x, y: 2 * x + 3 * y, (k.tensor(_X), k.tensor(_Y)), v=k.ones(2))
    return res


def _adder_jvp(k: Kit) -> Any:
    _, res = F.jvp(
        lambda x, y: 2 * x + 3 * y, (k.tensor(_X), k.tensor(_Y)), v=(k.ones(2), k.ones(2))
    )
    return res


def _exp_adder_jacobian(k: Kit) -> Any:
    xp = k.xp
    j = F.jacobian(lambda x, y: 2 * xp.exp(x) + 3 * y, (k.tensor(_X), k.tensor(_Y)))
    return j[1]


def _exp_adder_jacobian_first(k: Kit) -> Any:
    xp = k.xp
    return F.jacobian(lambda x, y: 2 * xp.exp(x) + 3 * y, (k.tensor(_X), k.tensor(_Y)))[0]


def _pow_adder(xp: Any) -> Any:
    return lambda x, y: xp.sum(2 * x**2 + 3 * y**2)


def _pow_adder_hessian(k: Kit) -> Any:
    return F.hessian(_pow_adder(k.xp), (k.tensor(_X), k.tensor(_Y)))


def _pow_adder_hv(kind: str) -> Any:
    def compute(k: Kit) -> Any:
        fn = getattr(F, kind)
        return fn(_pow_adder(k.xp), (k.tensor(_X), k.tensor(_Y)), (k.zeros(2), k.ones(2)))[1]

    return compute


def _func_vjp_sin_cos(k: Kit) -> Any:
    xp = k.xp
    _, g = F.vjp(lambda x: (xp.sin(x), xp.cos(x)), k.tensor([0.5, 1.0]), v=(k.ones(2), k.ones(2)))
    return g


def _paddle_vjp(v: Any) -> Any:
    def compute(k: Kit) -> Any:
        xp = k.xp
        seed = k.ones((2, 2)) if v is None else k.tensor(v)
        return F.vjp(lambda x: xp.matmul(x, x), k.ones((2, 2)), v=seed)[1]

    return compute


def _paddle_jacobian_rows(k: Kit) -> Any:
    xp = k.xp
    x = k.tensor([[1.0, 2.0], [3.0, 4.0]])
    ja, jb = F.jacobian(lambda a, b: xp.matmul(a, b), (x, x))
    import numpy as np  # lazily: loading the cases imports no array library

    flat = np.concatenate([k.np(ja).reshape(4, 4), k.np(jb).reshape(4, 4)], axis=1)
    return (flat.shape, flat[:2])


def _jax_hessian(k: Kit) -> Any:
    return F.hessian(lambda x: x[0] ** 3 - 2 * x[0] * x[1] - x[1] ** 6, k.tensor([1.0, 2.0]))


def _jax_jac(strategy: str) -> Any:
    def compute(k: Kit) -> Any:
        xp = k.xp

        def f(x: Any) -> Any:
            return xp.stack([x[0], 5 * x[2], 4 * x[1] ** 2 - 2 * x[2], x[2] * xp.sin(x[0])])

        return F.jacobian(f, k.tensor([1.0, 2.0, 3.0]), vectorize=True, strategy=strategy)

    return compute


def _tf_jacobian(k: Kit) -> Any:
    return F.jacobian(lambda x: x * x, k.tensor([1.0, 2.0]))


CASES: list[Case] = [
    Case(
        "torch.autograd.functional.vjp/adder",
        T_FUNCTIONAL,
        _adder_vjp,
        expected=([2.0, 2.0], [3.0, 3.0]),
    ),
    Case("torch.autograd.functional.jvp/adder", T_FUNCTIONAL, _adder_jvp, expected=[5.0, 5.0]),
    Case(
        "torch.autograd.functional.jacobian/exp_adder[1]",
        T_FUNCTIONAL,
        _exp_adder_jacobian,
        expected=[[3.0, 0.0], [0.0, 3.0]],
    ),
    Case(
        "torch.autograd.functional.jacobian/exp_adder[0]",
        T_FUNCTIONAL,
        _exp_adder_jacobian_first,
        expected=[[2 * math.exp(_X[0]), 0.0], [0.0, 2 * math.exp(_X[1])]],
        rtol=1e-5,
        note="the documented block is diag(2 exp(x)), at the case's fixed x",
    ),
    Case(
        "torch.autograd.functional.hessian/pow_adder",
        T_FUNCTIONAL,
        _pow_adder_hessian,
        expected=(
            ([[4.0, 0.0], [0.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]]),
            ([[0.0, 0.0], [0.0, 0.0]], [[6.0, 0.0], [0.0, 6.0]]),
        ),
    ),
    Case(
        "torch.autograd.functional.hvp/pow_adder",
        T_FUNCTIONAL,
        _pow_adder_hv("hvp"),
        expected=([0.0, 0.0], [6.0, 6.0]),
    ),
    Case(
        "torch.autograd.functional.vhp/pow_adder",
        T_FUNCTIONAL,
        _pow_adder_hv("vhp"),
        expected=([0.0, 0.0], [6.0, 6.0]),
    ),
    Case(
        "torch.func.vjp/sin_cos",
        T_FUNC_VJP,
        _func_vjp_sin_cos,
        expected=[math.cos(t) - math.sin(t) for t in (0.5, 1.0)],
        rtol=1e-5,
        note="the doc asserts the relation cos(x) - sin(x); numbers at x = [0.5, 1]",
    ),
    Case(
        "paddle.incubate.autograd.vjp/matmul",
        P_VJP,
        _paddle_vjp(None),
        expected=[[4.0, 4.0], [4.0, 4.0]],
        note="paddle's v=None means ones; torch's signature needs v for a (2, 2) output",
    ),
    Case(
        "paddle.incubate.autograd.vjp/matmul,v=[[1,0],[0,0]]",
        P_VJP,
        _paddle_vjp([[1.0, 0.0], [0.0, 0.0]]),
        expected=[[2.0, 1.0], [1.0, 0.0]],
    ),
    Case(
        "paddle.incubate.autograd.Jacobian/matmul",
        P_JACOBIAN,
        _paddle_jacobian_rows,
        expected=((4, 8), [[1, 3, 0, 0, 1, 0, 2, 0], [2, 4, 0, 0, 0, 1, 0, 2]]),
        note="paddle flattens to [4, 8]; unigrad returns the blocks, flattened here",
    ),
    Case("jax.hessian/cubic", J_API, _jax_hessian, expected=[[6.0, -2.0], [-2.0, -480.0]]),
    Case(
        "jax.jacfwd/f",
        J_JACFWD,
        _jax_jac("forward-mode"),
        expected=[[1, 0, 0], [0, 0, 5], [0, 16, -2], [1.6209, 0, 0.84147]],
        rtol=1e-4,
        atol=1e-4,
    ),
    Case(
        "jax.jacrev/f",
        J_JACFWD,
        _jax_jac("reverse-mode"),
        expected=[[1, 0, 0], [0, 0, 5], [0, 16, -2], [1.6209, 0, 0.84147]],
        rtol=1e-4,
        atol=1e-4,
    ),
    Case(
        "tf.GradientTape.jacobian/functional",
        TF_TAPE,
        _tf_jacobian,
        expected=[[2.0, 0.0], [0.0, 4.0]],
    ),
]

# Every case here exercises unigrad.functional: a backend without it skips them.
CASES = [dataclasses.replace(case, needs="functional") for case in CASES]
