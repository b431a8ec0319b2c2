"""Rule 14: structure follows differentiable dependence, on every backend.

A result depends on an input exactly when a path connects them through values whose
derivative is not identically zero: comparisons and masks, ``sign``, ``floor``/``ceil``/
``round``/``trunc``, integer casts and the ``*_like`` creators cut dependence. So the
gradient of a piecewise-linear function (relu written as ``maximum(h, 0)``, ``abs``,
``clip``, ``max``, a 1-norm, ``where`` on a comparison) is a constant with respect to the
inputs it reaches only through cuts: it does not require grad when it depends on nothing
else, differentiating it is `NotDifferentiableError`, and a later call finds such an
input unused. Issue 23, "What was seen" items 1 and 2 and the numpy tape's
``maximum`` TypeError of item 3, each on all four backends (float64, closed forms).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import unigrad
from unigrad import NotDifferentiableError, UnusedInputError

X = np.array([[0.5, -1.0, 2.0]])
W = np.array([[1.0, -0.5], [0.25, 2.0], [-1.5, 0.75]])
TOL = {"rtol": 1e-12, "atol": 1e-12}


def _acts(xp):
    return {
        "relu": (lambda h: xp.maximum(h, 0.0), lambda h: (h > 0).astype(float)),
        "abs": (xp.abs, np.sign),
        "clip": (lambda h: xp.clip(h, -0.5, 0.5), lambda h: (np.abs(h) < 0.5).astype(float)),
    }


@pytest.mark.parametrize("act", ["relu", "abs", "clip"])
def test_second_derivative_of_a_piecewise_linear_mlp(backend, act) -> None:
    """``ux = d(sum(act(x @ w)))/dx`` depends on ``w`` only; ``x`` is unused after."""
    xp = backend.xp
    f, df = _acts(xp)[act]
    x, w = backend.leaf(X, "float64"), backend.leaf(W, "float64")
    (ux,) = unigrad.grad(xp.sum(f(x @ w)), x, create_graph=True)
    d = df(X @ W)
    backend.close(ux, d @ W.T, **TOL)
    assert backend.requires_grad(ux)  # through w
    hx, hw = unigrad.grad(xp.sum(ux), [x, w], allow_unused=True)
    assert hx is None
    backend.close(hw, np.ones((3, 1)) @ d.sum(axis=0, keepdims=True), **TOL)
    (ux,) = unigrad.grad(xp.sum(f(x @ w)), x, create_graph=True)
    with pytest.raises(UnusedInputError):
        unigrad.grad(xp.sum(ux), [x, w], retain_graph=True)
    mx, _ = unigrad.grad(xp.sum(ux), [x, w], materialize_grads=True, allow_unused=True)
    backend.close(mx, np.zeros_like(X), **TOL)


@pytest.mark.parametrize("op", ["abs", "max", "norm1", "relu", "maximum_of_min"])
def test_the_gradient_of_a_piecewise_linear_function_is_a_constant(backend, op) -> None:
    xp = backend.xp
    v = np.array([0.5, -1.0, 2.0])
    fns = {
        "abs": (xp.abs, np.sign(v)),
        "max": (xp.max, (v == v.max()).astype(float)),
        "norm1": (lambda x: xp.linalg.vector_norm(x, ord=1), np.sign(v)),
        "relu": (lambda x: xp.maximum(x, 0.0), (v > 0).astype(float)),
        "maximum_of_min": (lambda x: xp.maximum(xp.min(x), 0.25), np.zeros(3)),
    }
    f, expected = fns[op]
    x = backend.leaf(v, "float64")
    (g,) = unigrad.grad(xp.sum(f(x)), x, create_graph=True)
    backend.close(g, expected, **TOL)
    assert not backend.requires_grad(g)
    with pytest.raises(NotDifferentiableError):
        unigrad.grad(xp.sum(g), x)


def test_maximum_of_min_and_a_weight_second_derivative(backend) -> None:
    """numpy tape: ``TypeError: Can't differentiate w.r.t. type numpy.bool`` before."""
    xp = backend.xp
    x, y = backend.leaf([0.5, -1.0], "float64"), backend.leaf([0.25, -2.0], "float64")
    gx, gy = unigrad.grad(xp.sum(xp.maximum(xp.min(x), y) * y), [x, y], create_graph=True)
    # min(x) = -1: maximum picks y[0] = 0.25 and min(x) over y[1] = -2
    backend.close(gx, [0.0, -2.0], **TOL)
    backend.close(gy, [0.5, -1.0], **TOL)
    hx, hy = unigrad.grad(xp.sum(gx) + xp.sum(gy), [x, y], allow_unused=True)
    backend.close(hx, [0.0, 1.0], **TOL)  # gy[1] = min(x), gx[1] = y[1]
    backend.close(hy, [2.0, 1.0], **TOL)


def test_a_mixed_result_depends_on_the_weight_not_on_x(backend) -> None:
    xp = backend.xp
    v, a = np.array([0.5, -1.6]), np.array([2.0, 3.0])
    for f, d in (
        (lambda x, w: xp.abs(x) * w, lambda: np.sign(v) * a),
        (lambda x, w: xp.maximum(x * w, 0.0), lambda: (v * a > 0) * a),
    ):
        x, w = backend.leaf(v, "float64"), backend.leaf(a, "float64")
        (g,) = unigrad.grad(xp.sum(f(x, w)), x, create_graph=True)
        backend.close(g, d(), **TOL)
        assert backend.requires_grad(g)
        hx, hw = unigrad.grad(xp.sum(g), [x, w], allow_unused=True)
        assert hx is None
        backend.close(hw, d() / a, **TOL)
        (g,) = unigrad.grad(xp.sum(f(x, w)), x, create_graph=True)
        loss = xp.sum(g)
        with pytest.raises(UnusedInputError):
            unigrad.grad(loss, [x, w])


@pytest.mark.parametrize("name", ["ones_like", "zeros_like", "full_like", "empty_like"])
def test_a_created_constant_does_not_depend_on_its_model(backend, name) -> None:
    xp = backend.xp
    make = {
        "ones_like": xp.ones_like,
        "zeros_like": xp.zeros_like,
        "full_like": lambda t: xp.full_like(t, 2.0),
        "empty_like": xp.empty_like,
    }[name]
    for dtype in ("float64", "complex128"):
        x = backend.leaf([0.5, -1.0], dtype)
        c = make(x)
        assert not backend.requires_grad(c)
        with pytest.raises(NotDifferentiableError):
            unigrad.grad(c, x)
    x, z = backend.leaf([0.5, -1.0], "float64"), backend.leaf([1.5, 2.0], "float64")
    with pytest.raises(UnusedInputError):
        unigrad.grad(xp.sum(x * x + xp.zeros_like(z)), [x, z])
    gx, gz = unigrad.grad(xp.sum(x * x + make(z) * 0.0), [x, z], allow_unused=True)
    backend.close(gx, [1.0, -2.0], **TOL)
    assert gz is None


@pytest.mark.parametrize("op", ["sign", "floor", "ceil", "round", "trunc", "int_cast"])
def test_a_piecewise_constant_op_cuts_dependence(backend, op) -> None:
    xp = backend.xp
    v, a = np.array([0.5, -1.6]), np.array([2.0, 3.0])
    fns = {
        "sign": (xp.sign, np.sign),
        "floor": (xp.floor, np.floor),
        "ceil": (xp.ceil, np.ceil),
        "round": (xp.round, np.round),
        "trunc": (xp.trunc, np.trunc),
        "int_cast": (lambda t: xp.astype(xp.astype(t, xp.int64), xp.float64), np.trunc),
    }
    f, ref = fns[op]
    x, w = backend.leaf(v, "float64"), backend.leaf(a, "float64")
    gx, gw = unigrad.grad(xp.sum(f(x) * w), [x, w], allow_unused=True)
    assert gx is None
    backend.close(gw, ref(v), **TOL)
    with pytest.raises(UnusedInputError):
        unigrad.grad(xp.sum(f(x) * w), [x, w])
    # a result of the cut alone depends on nothing: as an output that requires no grad
    with pytest.raises(NotDifferentiableError):
        unigrad.grad(xp.sum(f(x)), x)


@pytest.mark.parametrize("op", ["sign", "floor", "ceil", "round", "trunc"])
def test_a_create_graph_pass_through_a_piecewise_constant_op_answers(backend, op) -> None:
    """``d(sum(x * w + f(x * x) * w))/dx`` is ``w``: ``f``'s derivative is zero, a cut, so
    a ``create_graph`` pass through it needs no higher-order kernel. paddle 3.3.1's
    ``ceil_grad``, ``floor_grad``, ``round_grad`` and ``trunc_grad`` have none, and the
    pass raised `HigherOrderUnavailableError` where the other backends answer (issue 23,
    class 4). Exact values."""
    xp = backend.xp
    v, a = np.array([0.5, -1.6, 2.3]), np.array([2.0, 3.0, -0.5])
    f = getattr(xp, op)
    ref = {"sign": np.sign, "floor": np.floor, "ceil": np.ceil, "round": np.round}
    ref["trunc"] = np.trunc
    x, w = backend.leaf(v, "float64"), backend.leaf(a, "float64")
    c = f(x * x)
    backend.close(c, ref[op](v * v), rtol=0, atol=0)
    gx, gw = unigrad.grad(xp.sum(x * w + c * w), [x, w], create_graph=True)
    backend.close(gx, a, rtol=0, atol=0)
    backend.close(gw, v + ref[op](v * v), rtol=0, atol=0)
    with pytest.raises(UnusedInputError):
        unigrad.grad(xp.sum(gx), [x, w], retain_graph=True)
    hx, hw = unigrad.grad(xp.sum(gx * gx), [x, w], allow_unused=True, retain_graph=True)
    assert hx is None
    backend.close(hw, 2.0 * a, rtol=0, atol=0)
    kx, kw = unigrad.grad(xp.sum(gw), [x, w], allow_unused=True)  # gw = x + f(x * x)
    assert kw is None
    backend.close(kx, np.ones(3), rtol=0, atol=0)


def test_where_on_a_comparison(backend) -> None:
    xp = backend.xp
    v = np.array([0.5, -1.6])
    x, w = backend.leaf(v, "float64"), backend.leaf([2.0, 3.0], "float64")
    (g,) = unigrad.grad(xp.sum(xp.where(x > 0, x * w, -x)), x, create_graph=True)
    backend.close(g, np.where(v > 0, [2.0, 3.0], -1.0), **TOL)
    hx, hw = unigrad.grad(xp.sum(g), [x, w], allow_unused=True)
    assert hx is None
    backend.close(hw, (v > 0).astype(float), **TOL)
    # a mask made by where from constants depends on nothing
    m = xp.where(x > 0, xp.ones_like(x), xp.zeros_like(x))
    assert not backend.requires_grad(m)


def test_the_dependence_follows_the_dtype(backend) -> None:
    """Real ``abs``'s gradient is a constant, complex ``abs``'s (``z / |z|``) is not:
    the same graph structure, another answer (the tapes cached the first one)."""
    xp = backend.xp
    for dtype, v in (("float64", [0.5, -1.0]), ("complex128", [0.5 + 1j, -1.0 + 0.5j])):
        z = backend.leaf(v, dtype)
        (g,) = unigrad.grad(xp.sum(xp.abs(z)), z, create_graph=True)
        backend.close(g, np.asarray(v) / np.abs(v), **TOL)
        assert backend.requires_grad(g) == (dtype == "complex128")


def test_backward_leaves_alone_a_leaf_reached_only_through_a_cut(backend) -> None:
    # paddle's engine accumulates zeros there; unigrad keeps a watched leaf's .grad None
    # (differential seed 2026, programs 12191, 30664, 36031)
    xp = backend.xp
    x, w = backend.leaf([0.5, -1.6], "float64"), backend.leaf([2.0, 3.0], "float64")
    unigrad.backward(xp.sum(xp.sign(x) * w))
    backend.close(backend.grad_of(w), [1.0, -1.0], **TOL)
    assert backend.grad_of(x) is None
    x, w = backend.leaf([0.5, -1.6], "float64"), backend.leaf([2.0, 3.0], "float64")
    (g,) = unigrad.grad(xp.sum(xp.abs(x) * w), x, create_graph=True)
    unigrad.backward(xp.sum(g))
    backend.close(backend.grad_of(w), [1.0, -1.0], **TOL)
    assert backend.grad_of(x) is None


def test_backward_with_inputs_leaves_alone_an_input_reached_only_through_a_cut(backend) -> None:
    xp = backend.xp
    x, w = backend.leaf([0.5, -1.6], "float64"), backend.leaf([2.0, 3.0], "float64")
    unigrad.backward(xp.sum(xp.sign(x) * w), inputs=[x, w])
    backend.close(backend.grad_of(w), [1.0, -1.0], **TOL)
    assert backend.grad_of(x) is None


def _native_relus(backend):
    if backend.name == "torch":
        import torch.nn.functional as F

        return {"relu": F.relu, "hardtanh": F.hardtanh, "leaky_relu": F.leaky_relu}
    import paddle.nn.functional as F

    return {"relu": F.relu, "hardtanh": F.hardtanh, "leaky_relu": F.leaky_relu}


@pytest.mark.skip_backend("jax", reason="the framework's own activations take no tape tensors")
@pytest.mark.skip_backend("numpy", reason="the framework's own activations take no tape tensors")
@pytest.mark.skip_backend(
    "tensorflow", reason="the framework's own activations take no tape tensors"
)
@pytest.mark.parametrize("name", ["relu", "hardtanh", "leaky_relu"])
def test_the_frameworks_own_piecewise_linear_activations(backend, name) -> None:
    """torch's relu keeps a graph to its output in its gradient (ThresholdBackward's
    double-backward node, formula ``zeros_like``): cut, as ``maximum(h, 0)``'s."""
    xp = backend.xp
    f = _native_relus(backend)[name]
    x, w = backend.leaf(X, "float64"), backend.leaf(W, "float64")
    h = X @ W
    slope = {
        "relu": (h > 0).astype(float),
        "hardtanh": (np.abs(h) < 1).astype(float),
        "leaky_relu": np.where(h > 0, 1.0, 0.01),
    }[name]
    if backend.name == "paddle" and name == "hardtanh":
        # paddle 3.3 has no gradient kernel for hardtanh_grad: the documented refusal
        with pytest.raises(unigrad.HigherOrderUnavailableError, match="hardtanh"):
            unigrad.grad(xp.sum(f(x @ w)), x, create_graph=True)
        return
    (ux,) = unigrad.grad(xp.sum(f(x @ w)), x, create_graph=True)
    backend.close(ux, slope @ W.T, **TOL)
    hx, hw = unigrad.grad(xp.sum(ux), [x, w], allow_unused=True)
    assert hx is None
    backend.close(hw, np.ones((3, 1)) @ slope.sum(axis=0, keepdims=True), **TOL)


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")
@pytest.mark.needs("backward_create_graph")
def test_backward_create_graph_gives_a_constant_grad(backend) -> None:
    xp = backend.xp
    for inputs in (None, "x"):
        x = backend.leaf([0.5, -1.6], "float64")
        unigrad.backward(
            xp.sum(xp.abs(x)), create_graph=True, inputs=None if inputs is None else [x]
        )
        backend.close(backend.grad_of(x), [1.0, -1.0], **TOL)
        assert not backend.requires_grad(backend.grad_of(x))


def test_copysign_reads_its_second_argument_only_through_a_sign(backend) -> None:
    xp = backend.xp
    a, c = backend.leaf([0.5, -1.6], "float64"), backend.leaf([-2.0, 3.0], "float64")
    ga, gc = unigrad.grad(xp.sum(xp.copysign(a, c)), [a, c], allow_unused=True)
    backend.close(ga, np.sign([0.5, -1.6]) * np.sign([-2.0, 3.0]), **TOL)
    assert gc is None
    with pytest.raises(NotDifferentiableError):
        unigrad.grad(xp.sum(xp.copysign(backend.tensor([1.0, 2.0], "float64"), c)), c)


@pytest.mark.parametrize("inputs", ["other_leaf", "cut_leaf", "no_input_requires_grad"])
def test_a_constant_output_is_refused_whatever_the_inputs(backend, inputs) -> None:
    """``trunc(x)[0]`` depends on nothing: refused even when no pass would reach the
    inputs (torch answered None for another leaf; differential seed 1, program 256)."""
    xp = backend.xp
    x, w = backend.leaf([0.91, -1.45, 1.03], "float64"), backend.leaf([1.0, 2.0], "float64")
    y = xp.unstack(xp.trunc(x), axis=-1)[0]
    wrt = {
        "other_leaf": [w, w],
        "cut_leaf": [x],
        "no_input_requires_grad": [backend.tensor([1.0], "float64")],
    }[inputs]
    with pytest.raises(NotDifferentiableError):
        unigrad.grad([y, y], wrt, allow_unused=True)


def test_a_constant_output_is_refused_before_its_seed_is_checked(backend) -> None:
    """The output's refusal comes before the seed's (torch and paddle checked a wrong
    seed first; differential seed 20261123, programs 87 and 222)."""
    xp = backend.xp
    x = backend.leaf([0.5, -1.6], "float64")
    y = xp.sign(x)
    bad = backend.tensor([1.0, 2.0, 3.0], "float64")
    with pytest.raises(NotDifferentiableError):
        unigrad.grad(y, x, grad_outputs=bad, allow_unused=True)
    with pytest.raises(NotDifferentiableError):
        unigrad.backward(y, grad_tensors=bad, inputs=[x])


def test_backward_refuses_a_constant_output(backend) -> None:
    """``backward`` of an output that depends on nothing is refused, as ``grad``'s (torch
    and paddle accumulated nothing; differential seed 2, program 31)."""
    xp = backend.xp
    x = backend.leaf([0.5, -1.6], "float64")
    y = xp.sum(xp.floor(x))
    for inputs in (None, [x, x]):
        with pytest.raises(NotDifferentiableError):
            unigrad.backward([y, y], inputs=inputs)
    assert backend.grad_of(x) is None


def test_a_gradient_through_tensor_indexing_and_a_mask_is_a_constant(backend) -> None:
    """``take`` at a ``nonzero`` index is linear in the incoming gradient: the gradient
    of ``v * signbit(v)`` through it is a constant (paddle's IndexElementwiseGet node
    kept it requiring grad; differential seed 20261123, program 22)."""
    xp = backend.xp
    data = np.array([[1.27, 0.61, 1.05], [0.45, 0.79, -0.82]])
    mask = np.array([[True, True, True], [False, True, True]])
    x = backend.leaf(data, "float64")
    idx = xp.nonzero(xp.reshape(backend.tensor(mask, "bool"), (-1,)))[0]
    v = xp.take(xp.reshape(x, (-1,)), idx, axis=0)
    y = xp.sum(v * xp.astype(xp.signbit(v), xp.float64))
    (g,) = unigrad.grad(y, x, create_graph=True)
    backend.close(g, np.where(mask, np.signbit(data), 0.0).astype(float), **TOL)
    assert not backend.requires_grad(g)
    with pytest.raises(NotDifferentiableError):
        unigrad.grad(xp.sum(g), x)


@pytest.mark.parametrize("cut", ["trunc", "floor", "sign"])
@pytest.mark.parametrize("product", ["matmul", "vecdot", "mul_sum", "tensordot"])
def test_a_create_graph_gradient_that_reads_only_a_cut_result_is_a_constant(
    backend, cut, product
) -> None:
    # d/dw sum(s * (c(a) @ w)) = c(a)^T s: it reads c(a) alone (a cut's result, rule 14),
    # so it is a constant (paddle's double-grad graph reached a through the cut node;
    # differential seed 1, program 226)
    xp = backend.xp
    an = np.array([[-1.38, 1.47, 1.15], [1.32, -1.42, 0.48]])
    wn = np.array([1.22, 1.2, 1.28])
    sn = np.array([-1.23, 0.35])
    a = backend.leaf(an, "float64")
    w = backend.leaf(wn, "float64")
    c = getattr(xp, cut)(a)
    out = {
        "matmul": lambda: xp.matmul(c, w),
        "vecdot": lambda: xp.vecdot(c, w),
        "mul_sum": lambda: xp.sum(c * w, axis=1),
        "tensordot": lambda: xp.tensordot(c, w, axes=1),
    }[product]()
    (g,) = unigrad.grad(out, w, grad_outputs=backend.tensor(sn, "float64"), create_graph=True)
    backend.close(g, getattr(np, cut)(an).T @ sn, **TOL)
    assert not backend.requires_grad(g)


@pytest.mark.parametrize("op", ["flip", "roll"])
def test_a_permutation_of_a_masked_product_stays_a_constant(backend, op) -> None:
    """flip and roll move the incoming gradient and read nothing else: paddle's
    dependence table did not know their nodes, so the gradient of ``x * astype(mask)``
    through a flip required grad (differential seed 7, program 84)."""
    xp = backend.xp
    v = np.array([[0.5, -1.6, 0.7], [-0.2, 1.1, 0.4]])
    a = np.array([[2.0, 3.0, -1.0], [0.5, -0.25, 1.5]])
    perm = {"flip": lambda t: xp.flip(t, axis=-1), "roll": lambda t: xp.roll(t, 1, axis=-1)}
    f = perm[op]  # the sum of a permutation: the gradients are unpermuted
    mask = (v > 0).astype(float)
    x, w = backend.leaf(v, "float64"), backend.leaf(a, "float64")
    # the gradient is the mask: a constant (the comparison and the cast cut)
    (g,) = unigrad.grad(xp.sum(f(x * xp.astype(x > 0, xp.float64))), x, create_graph=True)
    backend.close(g, mask, **TOL)
    assert not backend.requires_grad(g)
    # the isnan mask of program 84: a gradient of zeros, a constant too
    (g0,) = unigrad.grad(xp.sum(f(x * xp.astype(xp.isnan(x), xp.float64))), x, create_graph=True)
    backend.close(g0, np.zeros_like(v), **TOL)
    assert not backend.requires_grad(g0)
    # with a weight, the gradient depends on the weight alone
    (gx,) = unigrad.grad(xp.sum(f(x * w * xp.astype(x > 0, xp.float64))), x, create_graph=True)
    backend.close(gx, mask * a, **TOL)
    hx, hw = unigrad.grad(xp.sum(gx), [x, w], allow_unused=True)
    assert hx is None
    backend.close(hw, mask, **TOL)


@pytest.mark.parametrize("op", ["maximum", "clip", "relu"])
def test_a_piecewise_linear_gradient_beside_a_complex_output_is_a_constant(backend, op) -> None:
    """A complex output in the same call leaves a real piecewise-linear op's gradient a
    constant (paddle read every such node as unknown in a call with a complex tensor:
    differential seed 2026, program 9546)."""
    xp = backend.xp
    a = backend.leaf(-0.52, "float64")
    x = backend.leaf([[0.85, -0.85], [0.89, -0.63]], "float64")
    f = {
        "maximum": lambda: xp.maximum(a, x),
        "clip": lambda: xp.clip(x - a, -1.0, 1.0),
        "relu": lambda: xp.maximum(x - a, 0.0),
    }[op]
    s = np.array([[0.55, -1.49], [0.84, 0.43]])
    y = xp.sum(f() * backend.tensor(s.tolist(), "float64"))
    c = backend.leaf([0.3 + 0.4j, -1.0 + 0.5j], "complex128")
    z = xp.fft.fft(c * c)  # complex, independent of a and x
    seed = backend.tensor([1.0 + 0.5j, 2.0 - 1.0j], "complex128")
    (ga,) = unigrad.grad([y, z], [a], grad_outputs=[None, seed], create_graph=True)
    assert not backend.requires_grad(ga)  # a sum of the seed where a mask holds
    with pytest.raises(NotDifferentiableError):
        unigrad.grad(ga, a)
    xn = backend.np(x)
    mask = {"maximum": xn < -0.52, "clip": np.abs(xn + 0.52) < 1.0, "relu": xn + 0.52 > 0}[op]
    sign = 1.0 if op == "maximum" else -1.0
    backend.close(ga, sign * np.sum(s * mask), **TOL)


@pytest.mark.parametrize("include_initial", [False, True])
def test_a_cumulative_product_over_one_element_is_linear(backend, include_initial) -> None:
    """``cumulative_prod`` over an axis of length 1 is its operand: its gradient with
    respect to a linear function's input is a constant (paddle's namespace unbinds the
    axis, and its unbind node read everything: differential seed 2026, program 28970)."""
    xp = backend.xp
    x = backend.leaf([[-1.42, -1.01], [1.29, -0.81]], "float64")
    c = np.array([[1.23, -0.71], [-1.24, 1.2]])
    v = xp.sum(xp.vecdot(backend.tensor(c.tolist(), "float64"), x), axis=None, keepdims=True)
    y = xp.cumulative_prod(v, axis=-1, include_initial=include_initial)
    seed = [0.5, 2.0] if include_initial else [2.0]
    (g,) = unigrad.grad(y, x, grad_outputs=backend.tensor(seed, "float64"), create_graph=True)
    assert not backend.requires_grad(g)
    backend.close(g, 2.0 * c, **TOL)


def test_one_result_of_a_call_is_unused_by_a_function_of_another(backend) -> None:
    """``d(tanh(w @ x))/dx`` and ``/dw`` come from one paddle double-grad node: a later
    pass through the first reached the second's node, which got zeros instead of being
    unused (differential seed 2026, program 16226)."""
    xp = backend.xp
    w = backend.leaf([[-0.23, -1.05], [1.38, 0.26]], "float64")
    x = backend.leaf([-1.03, 1.23], "float64")
    gx, gw = unigrad.grad(xp.sum(xp.tanh(w @ x)), [x, w], create_graph=True)
    y = xp.sum(gx * gx)
    assert unigrad.grad(y, [gw, x], retain_graph=True, allow_unused=True)[0] is None
    with pytest.raises(UnusedInputError):
        unigrad.grad(y, [gw, x], retain_graph=True)
    (ggx,) = unigrad.grad(y, gx)
    backend.close(ggx, 2.0 * backend.np(gx), **TOL)


def test_a_cut_output_leaves_its_branch_out_of_a_create_graph_result(backend) -> None:
    """``grad([y, q], x, create_graph=True, no_grad_vars=[q])`` with ``q = x / (w*w + 1)``:
    the result is ``dy/dx`` and depends on ``x`` only. paddle runs the cut branch with
    zeroed gradients, and its divide double-grad node reached ``w``: a later call got
    zeros for ``w`` where it is unused (differential seed 27, program 2122)."""
    xp = backend.xp
    w = backend.leaf([[0.95, 0.89], [1.45, 0.57]], "float64")
    x = backend.leaf([[1.4, -0.49], [-0.85, -1.4]], "float64")
    q = x / (w * w + 1.0)
    (g,) = unigrad.grad([xp.sum(x * x), q], x, create_graph=True, no_grad_vars=[q])
    xv = backend.np(x)
    backend.close(g, 2.0 * xv, **TOL)
    y = xp.sum(g * g)
    with pytest.raises(UnusedInputError):
        unigrad.grad(y, [x, w], retain_graph=True)
    gx, gw = unigrad.grad(y, [x, w], allow_unused=True)
    assert gw is None
    backend.close(gx, 8.0 * xv, **TOL)


@pytest.mark.parametrize("descending", [False, True], ids=["ascending", "descending"])
def test_argsort_indices_cut_dependence(backend, descending) -> None:
    """``argsort``'s indices are an index result (rule 14's cut): a product of them
    leaves ``x`` unused, with and without ``create_graph``. paddle 3.3.1's ``argsort``
    gives its int64 indices an ``ArgsortGradNode``: ``x`` got zeros, and a ``create_graph``
    pass raised `HigherOrderUnavailableError` (``argsort_grad`` has no grad op)."""
    xp = backend.xp
    v, a = np.array([0.5, -1.6, 2.3]), np.array([2.0, 3.0, -0.5])
    x, w = backend.leaf(v, "float64"), backend.leaf(a, "float64")
    idx = xp.argsort(x * x, descending=descending)
    order = np.argsort(-(v * v) if descending else v * v, kind="stable")
    assert backend.np(idx).tolist() == order.tolist()
    y = xp.sum(xp.astype(idx, xp.float64) * w)
    gx, gw = unigrad.grad(y, [x, w], allow_unused=True, retain_graph=True)
    assert gx is None
    backend.close(gw, order.astype(float), rtol=0, atol=0)
    with pytest.raises(UnusedInputError):
        unigrad.grad(y, [x, w], retain_graph=True)
    (g,) = unigrad.grad(y + xp.sum(x * w), x, create_graph=True)
    backend.close(g, a, rtol=0, atol=0)
    (h,) = unigrad.grad(xp.sum(g * g), w)
    backend.close(h, 2.0 * a, rtol=0, atol=0)


def test_the_derivative_of_a_gradient_linear_in_the_input_is_a_constant(backend) -> None:
    """``g = d(sum(remainder(a, x*x + 0.5)))/dx = -2 x sum(floor(a / b))``, linear in
    ``x``: ``dg/dx`` is a constant. paddle's double-grad node of ``b * floor(a / b)``
    (only ``b`` requires grad) keeps an edge to ``b`` that carries no gradient, and the
    walk read ``g``'s value through it: ``dg/dx`` required grad (differential seed 402,
    program 218). Values to 1e-12."""
    xp = backend.xp
    an = np.array([[-0.49, -0.76], [-1.01, -0.45]])
    x = backend.leaf(-0.4, "float64")
    a = backend.tensor(an, "float64")
    (g,) = unigrad.grad(xp.sum(xp.remainder(a, x * x + 0.5)), x, create_graph=True)
    k = -2.0 * np.sum(np.floor(an / 0.66))
    backend.close(g, k * -0.4, **TOL)
    assert backend.requires_grad(g)
    (h,) = unigrad.grad(g, x, create_graph=True)
    backend.close(h, k, **TOL)
    assert not backend.requires_grad(h)
    with pytest.raises(NotDifferentiableError):
        unigrad.grad(h, x)


def test_the_second_derivative_of_a_bilinear_term_beside_another_is_a_constant(backend) -> None:
    """``g = d(max|x1 . x5| + sum(log(x5**2 + 1/4)))/dx5``; ``dg/dx1`` is a constant
    (bilinear in ``x1`` and ``x5`` through a piecewise-linear max of abs). paddle's
    double-grad node of ``(v - m) * mask`` kept a dead edge to ``v``, and the walk read
    the incoming gradient's value through it: ``dg/dx1`` required grad (differential
    seed 401, program 1338). Values to 1e-12."""
    xp = backend.xp
    a = np.array([[0.79, -0.39, 1.17], [-0.62, 0.35, -0.94]])
    b = np.array([[1.37, -0.62], [0.82, -1.11], [0.28, -1.46]])
    x1, x5 = backend.leaf(a, "float64"), backend.leaf(b, "float64")
    v6 = xp.linalg.vecdot(xp.moveaxis(x1, 0, -1), x5)
    v7 = xp.linalg.vector_norm(v6, axis=None, ord=float("inf"))
    (g,) = unigrad.grad([xp.log(x5 * x5 + 0.25), v7], x5, create_graph=True)
    d = np.einsum("kj,jk->j", a, b)
    i = int(np.argmax(np.abs(d)))
    want = 2.0 * b / (b * b + 0.25)
    want[i, :] += np.sign(d[i]) * a[:, i]
    backend.close(g, want, **TOL)
    (h,) = unigrad.grad(xp.sum(g), x1, create_graph=True)
    hw = np.zeros_like(a)
    hw[:, i] = np.sign(d[i])
    backend.close(h, hw, **TOL)
    assert not backend.requires_grad(h)


def test_a_pass_through_a_cut_and_a_result_does_not_run_the_cut_branch(backend) -> None:
    """``v = ceil(h)`` beside ``g = dh/dx`` of a ``create_graph=True, retain_graph=False``
    call: a plain pass from ``v - g`` runs through ``g`` (its carried nodes are its own
    question, rule 6) and reaches ``h``'s consumed nodes otherwise only past ``ceil``, a
    cut (rule 14): they do not run, and it answers. paddle's engine runs the cut branch
    (with zeros), whose consumed nodes raised `GraphFreedError` (differential seed 403,
    program 1505). Values to 1e-12."""
    xp = backend.xp
    xn = np.array([[1.16, 0.42], [1.14, -0.41], [-0.43, 1.3]])
    x = backend.leaf(xn, "float64")
    h = xp.tanh(x * x)
    v = xp.ceil(h)
    (g,) = unigrad.grad(xp.sum(h), x, retain_graph=False, create_graph=True)
    (d,) = unigrad.grad(xp.sum(v - g), x)
    t = np.tanh(xn * xn)
    # g = 2x (1 - t^2); d = -dg/dx = -(2 (1 - t^2) - 8 x^2 t (1 - t^2))
    backend.close(d, -(2.0 * (1 - t * t) - 8.0 * xn * xn * t * (1 - t * t)), **TOL)


def test_a_cut_input_after_a_consuming_create_graph_call_is_unused(backend) -> None:
    """``grad(y, x, no_grad_vars=[x])`` after a batched ``create_graph=True,
    retain_graph=False`` call through a list op (``cumulative_prod``: paddle's unbind and
    stack): ``x`` is cut, so no pass runs, and ``x`` is unused. paddle checked the
    consumed list ops toward the cut input first: `GraphFreedError` (differential seed
    403, program 1819)."""
    xp = backend.xp
    x = backend.leaf([[0.72, -0.42], [0.97, -1.48], [-0.76, 0.26]], "float64")
    y = xp.cumulative_prod(xp.cosh(xp.cos(x)), axis=-2)
    seeds = backend.tensor(np.arange(12.0).reshape(2, 3, 2) / 7.0 - 0.8, "float64")
    unigrad.grad(y, x, seeds, retain_graph=False, create_graph=True, is_grads_batched=True)
    with pytest.raises(UnusedInputError):
        unigrad.grad(xp.sum(y), x, no_grad_vars=[x])
    (g,) = unigrad.grad(xp.sum(y), x, no_grad_vars=[x], allow_unused=True)
    assert g is None


@pytest.mark.parametrize("cut", ["sign", "floor"])
def test_a_list_op_of_cut_values_and_a_constant_is_a_constant(backend, cut) -> None:
    """``concat([sign(x), c])`` (also ``floor``) with ``c`` a constant depends on nothing
    (rule 14): a pass from it is `NotDifferentiableError`, and beside ``x * x`` it leaves
    the gradient ``2x`` (values to 1e-12). paddle gave the constant a leaf of its own that
    required grad (its double-grad nodes of list ops need a slot), so the concat required
    grad and the pass raised `UnusedInputError` (differential seed 2027, programs 20810
    and 22235)."""
    xp = backend.xp
    xn = np.array([0.5, -1.2, 2.3])
    x = backend.leaf(xn, "float64")
    c = backend.tensor([1.0, -0.0, 3.0], "float64")
    n = xp.concat([getattr(xp, cut)(x), c])
    with pytest.raises(NotDifferentiableError):
        unigrad.grad(xp.sum(n), x)
    backend.close(n, np.concatenate([getattr(np, cut)(xn), [1.0, -0.0, 3.0]]), **TOL)
    (g,) = unigrad.grad(xp.sum(n[:3] + x * x), x)
    backend.close(g, 2.0 * xn, **TOL)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_the_nth_derivative_of_a_product_of_n_factors_is_a_constant(backend, n):
    # rule 14 at the level of an op: the k-th derivative of prod over n factors depends on
    # them for k < n and is a constant from k = n on ((n - 1)! here), so differentiating
    # it is NotDifferentiableError. Each backend reads dependence tensor by tensor; every
    # namespace's differentiable prod is `_common.prod_by_multiplies`, a tree whose
    # tensors are homogeneous (torch's prod_backward, jax's and TensorFlow's trees padded
    # with ones, and a tree that concatenated an odd element back kept a spurious one).
    # The tapes gave either answer by what ran before (the dependence cache ignored
    # shapes): now keyed by them. paddle's structure pass (unigrad/backends/paddle/
    # _structure.py) counts each record's degrees, and records polynomial results (its
    # MultiplyDoubleGradNodes, shared by outputs of different degrees, kept a spurious
    # dependence for n >= 3)
    xp = backend.xp
    x = backend.leaf(np.arange(1.0, n + 1) * 0.7, "float64")
    y = xp.prod(x)
    for k in range(1, n + 1):
        (y,) = unigrad.grad(xp.sum(y), x, create_graph=True)
        if k < n:
            assert backend.requires_grad(y)
    backend.close(y, np.full(n, float(math.factorial(n - 1))))
    assert not backend.requires_grad(y)
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.grad(xp.sum(y), x)


def _others(flat: np.ndarray) -> np.ndarray:
    """For each element of the last axis, the product of the others (NumPy)."""
    n = flat.shape[-1]
    return np.stack([np.prod(np.delete(flat, k, axis=-1), axis=-1) for k in range(n)], -1)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("case", ["axis", "axes_keepdims", "complex", "zero"])
def test_prod_of_n_factors_values_and_gradients(backend, n, case) -> None:
    """The namespace's ``prod`` of a tensor that requires grad (a tree of multiplies,
    `_common.prod_by_multiplies`, on every backend): the value and the gradient (the
    product of the other factors, the conjugate for a complex input) as NumPy gives
    them, to 1e-12 (a tree, not a sequential product: rounding), over an axis, a tuple
    of axes with keepdims, in complex128, and with zero factors (no division: the
    gradient at a single zero is the product of the others, at two zeros 0)."""
    xp = backend.xp
    rng = np.random.default_rng(n)
    shape, axis, keepdims, dtype = (3, n), 1, False, "float64"
    if case == "axes_keepdims":
        shape, axis, keepdims = (n, 2, 1), (0, 2), True
    data = rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
    if case == "complex":
        dtype = "complex128"
        data = data + 1j * rng.uniform(-1.0, 1.0, shape)
    if case == "zero":
        data[0, 1] = 0.0  # one zero in row 0, two in row 1
        data[1, 0] = data[1, n - 1] = 0.0
    x = backend.leaf(data.tolist(), dtype)
    y = xp.prod(x, axis=axis, keepdims=keepdims)
    backend.close(y, np.prod(data, axis=axis, keepdims=keepdims), rtol=1e-12, atol=1e-12)
    loss = xp.sum(xp.real(y)) if case == "complex" else xp.sum(y)
    (g,) = unigrad.grad(loss, x)
    axes = (axis,) if isinstance(axis, int) else axis
    kept = [d for d in range(len(shape)) if d not in axes]
    moved = np.transpose(data, (*kept, *axes)).reshape(*(shape[d] for d in kept), n)
    others = _others(moved).reshape(*(shape[d] for d in kept), *(shape[d] for d in axes))
    want = np.transpose(others, np.argsort((*kept, *axes)))
    backend.close(g, np.conj(want), rtol=1e-12, atol=1e-12)


def _cumprod_gradient(data: np.ndarray) -> np.ndarray:
    """``d sum(cumprod(x, axis=-1)) / dx`` (NumPy): for ``x_j``, the sum over ``k >= j``
    of the products of ``x_0 .. x_k`` but ``x_j``."""
    n = data.shape[-1]
    out = np.zeros_like(data)
    for j in range(n):
        for k in range(j, n):
            out[..., j] += np.prod(np.delete(data[..., : k + 1], j, axis=-1), axis=-1)
    return out


@pytest.mark.parametrize("n", [2, 3, 9])
def test_cumulative_prod_values_gradients_and_structure(backend, n) -> None:
    """``cumulative_prod`` of a tensor that requires grad: running products
    (`_common.running_products`) over at most 8 elements on every backend, beyond that
    a formulation or the kernel (exact to the 8th order). Values and the gradient as
    NumPy gives them, to 1e-12, with a zero factor (no division); the k-th running
    product's derivatives of order k + 1 and higher are constants: over n factors the
    n-th derivative of the sum requires no grad (checked for n <= 3), the (n - 1)-th
    does (paddle's structure pass kept a spurious dependence at order 3, as for
    ``prod``)."""
    xp = backend.xp
    rng = np.random.default_rng(10 + n)
    data = rng.uniform(0.5, 1.5, (2, n)) * rng.choice([-1.0, 1.0], (2, n))
    data[1, n // 2] = 0.0
    x = backend.leaf(data.tolist(), "float64")
    y = xp.cumulative_prod(x, axis=1)
    backend.close(y, np.cumprod(data, axis=1), rtol=1e-12, atol=1e-12)
    (g,) = unigrad.grad(xp.sum(y), x, create_graph=n <= 3)
    backend.close(g, _cumprod_gradient(data), rtol=1e-12, atol=1e-12)
    if n > 3:
        return
    for _ in range(2, n + 1):
        assert backend.requires_grad(g)
        (g,) = unigrad.grad(xp.sum(g), x, create_graph=True)
    assert not backend.requires_grad(g)


def test_the_third_derivative_of_a_product_of_three_leaves_is_a_constant(backend):
    """``a * b * c`` of three scalar leaves, differentiated three times (``create_graph``,
    the sum of the previous gradients each time): every third derivative is the constant
    2, so it requires no grad; the second derivatives depend on the leaves. The same
    rule as `test_the_nth_derivative_of_a_product_of_n_factors_is_a_constant` without
    ``prod``: paddle's structure pass kept a spurious dependence in the third
    derivatives in ``a`` and ``b`` (its records did not count degrees, and the first
    call's seed copies were forgotten with its results)."""
    xp = backend.xp
    leaves = [backend.leaf(v, "float64") for v in (0.7, 1.4, 2.1)]
    a, b, c = leaves
    gs = list(unigrad.grad(a * b * c, leaves, create_graph=True))
    for order in (2, 3):
        total = xp.sum(xp.stack([xp.sum(g) for g in gs]))
        gs = list(unigrad.grad(total, leaves, create_graph=True))
        if order == 2:
            assert all(backend.requires_grad(g) for g in gs)
    for g in gs:
        backend.close(g, 2.0, **TOL)
    assert not any(backend.requires_grad(g) for g in gs)


@pytest.mark.parametrize("op", ["abs", "matrix_norm"])
def test_an_unused_complex_input_leaves_a_real_abs_gradient_a_constant(backend, op) -> None:
    """An unused complex input of the call brings no complex tensor into its graph:
    ``abs`` of a real tensor stays piecewise linear, so its gradient is a constant
    (paddle read ``abs``'s node as complex abs's, whose gradient has a derivative, in
    any call with a complex tensor: the result required grad; differential seed 6074,
    program 1610, ``matrix_norm(ord=-1)`` of a ``concat``). Unused: zeros with
    ``materialize_grads``. Exact (sums of signs in float64)."""
    xp = backend.xp
    an = np.array([[-1.42, -1.23], [0.51, 0.41]])
    xn = np.array([[-0.43, 1.15], [0.45, 0.67]])
    a = backend.leaf(an, "float64")
    x = backend.leaf(xn, "float64")
    c = backend.leaf([-0.68 + 1.12j, -0.51 - 0.38j], "complex128")
    v = xp.concat([x, a], axis=-1)
    if op == "abs":
        y = xp.sum(xp.abs(v))
        want = np.sign(xn)
    else:  # the smallest column sum of |v|: the first column's
        y = xp.sum(xp.linalg.matrix_norm(v, keepdims=True, ord=-1))
        want = np.zeros_like(xn)
        want[:, 0] = np.sign(xn[:, 0])
    gc, gx = unigrad.grad(y, [c, x], create_graph=True, materialize_grads=True)
    backend.close(gc, np.zeros(2), rtol=0, atol=0)
    backend.close(gx, want, rtol=0, atol=0)
    assert not backend.requires_grad(gx)
    with pytest.raises(NotDifferentiableError):
        unigrad.grad(xp.sum(gx), x)


@pytest.mark.parametrize("op", ["take_along_axis", "tile", "repeat"])
def test_a_gradient_linear_in_a_parameter_through_an_index_op_is_a_constant(backend, op) -> None:
    """``g = d(sum(f(x) @ w))/dx`` with ``f`` a linear index op (``take_along_axis``,
    ``tile``, ``repeat``) is linear in ``w``; ``d(sum(g * m))/dw`` with a constant ``m``
    is then a constant, so it requires no grad and a further derivative raises. paddle
    read the double-grad nodes of those ops as unknown formulas: the result required
    grad (differential seed 6078, program 2930). Values: ``f``'s adjoint of ``m``
    contracted with ``x``-free ones, checked by the float64 closed form. Exact."""
    xp = backend.xp
    xn = np.array([[0.21, -0.75], [-0.48, 0.42], [-1.11, -0.49]])
    idx = np.array([[2, 2], [2, 0], [1, 0]])
    mn = np.array([[1.0, 0.0], [0.5, -2.0], [0.0, 3.0]])
    x = backend.leaf(xn, "float64")
    w = backend.leaf([-0.99, 0.64], "float64")
    f = {
        "take_along_axis": lambda t: xp.take_along_axis(t, backend.constant(idx, "int64"), axis=0),
        "tile": lambda t: xp.tile(t, (2, 1)),
        "repeat": lambda t: xp.repeat(t, 2, axis=0),
    }[op]
    (g,) = unigrad.grad(xp.sum(xp.linalg.matmul(f(x), w)), x, create_graph=True)
    (h,) = unigrad.grad(xp.sum(g * backend.tensor(mn, "float64")), w, create_graph=True)
    # g[r, c] = w[c] * (how many rows of f(x) read x[r]): h[c] = sum_r m[r, c] * count[r]
    count = {
        "take_along_axis": np.stack([np.bincount(idx[:, c], minlength=3) for c in range(2)], 1),
        "tile": np.full((3, 2), 2.0),
        "repeat": np.full((3, 2), 2.0),
    }[op]
    backend.close(h, np.sum(mn * count, axis=0), rtol=0, atol=0)
    assert not backend.requires_grad(h)
    with pytest.raises(NotDifferentiableError):
        unigrad.grad(xp.sum(h), w)


def test_a_real_abs_beside_a_complex_input_keeps_a_constant_gradient(backend) -> None:
    """A call with a complex input that the outputs reach and a real ``w`` whose output
    is ``max`` over rows of ``sum(|w|)`` (``matrix_norm(ord=inf)``): ``w``'s gradient is
    a sign pattern, a constant, though the call is complex (paddle read every ``abs``
    node of a complex call as complex ``abs``, whose gradient has a derivative: the
    result required grad; differential seed 6086, program 726). Exact."""
    xp = backend.xp
    wn = np.array([[0.42, -1.15, -0.23], [-1.2, -1.42, 1.18]])
    w = backend.leaf(wn, "float64")
    z = backend.leaf([[0.23 - 1.14j, 0.27 - 1.14j], [-0.49 + 0.65j, -0.27 + 0.46j]], "complex128")
    v = xp.linalg.matrix_transpose(z @ z)
    n = xp.linalg.matrix_norm(w, keepdims=True, ord=float("inf"))
    seed = backend.tensor([[0.54 - 1j, -1.35 - 0.82j], [0.71 - 0.27j, 0.62 - 0.69j]], "complex128")
    gz, gw = unigrad.grad([v, n], [z, w], grad_outputs=[seed, None], create_graph=True)
    want = np.zeros_like(wn)
    want[1] = np.sign(wn[1])  # the second row's |w| sum (3.80) is the larger
    backend.close(gw, want, rtol=0, atol=0)
    assert not backend.requires_grad(gw)
    assert backend.requires_grad(gz)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_the_gradient_of_a_diagonal_is_a_constant(backend, dtype: str) -> None:
    """``d(sum(s * diagonal(c @ x)))/dx`` is ``c^T`` times the diagonal seed, a constant
    (``diagonal`` and ``@`` by a constant are linear): it does not require grad, and
    differentiating it is `NotDifferentiableError`. jax 0.10.2's ``jnp.diagonal`` is a
    ``cond`` on the platform whose branches read ``x`` for their residuals, and the jax
    tape took a ``cond``'s outputs to depend on all its operands (differential seed 9106,
    program 215). Exact (float64 products of two terms)."""
    xp = backend.xp
    cn = np.array([[-0.75, -0.5, 1.0], [-1.25, 1.0, 0.5]])
    xn = np.array([[-1.25, 0.75], [0.5, -1.5], [0.25, -0.5]])
    sn = np.array([2.0, -0.5])
    if dtype == "complex128":
        cn, xn, sn = cn + 0.25j, xn - 0.5j, sn + 1j
    x = backend.leaf(xn, dtype)
    y = xp.linalg.diagonal(backend.tensor(cn, dtype) @ x)
    seed = backend.tensor(sn, dtype)
    if backend.name == "paddle" and dtype == "complex128":
        # rule 7: paddle 3.3.1's complex diagonal_grad has no gradient kernel, named
        with pytest.raises(unigrad.HigherOrderUnavailableError):
            unigrad.grad(y, x, seed, create_graph=True)
        return
    (g,) = unigrad.grad(y, x, seed, create_graph=True)
    want = np.zeros_like(xn)
    for i in range(2):  # y_i = sum_k c_ik x_ki: the seed's conjugate-free VJP
        want[:, i] = np.conj(cn[i]) * sn[i]
    backend.close(g, want, rtol=0, atol=0)
    assert not backend.requires_grad(g)
    with pytest.raises(NotDifferentiableError):
        unigrad.grad(xp.sum(xp.real(g) if dtype == "complex128" else g), x)


@pytest.mark.parametrize("way", ["backward-two-outputs", "backward-one-output", "grad"])
def test_a_branch_that_reaches_the_input_only_through_a_cut_is_not_consumed(
    backend, way: str
) -> None:
    """``v = where(round(x) <= w, round(x), w)[1:3]`` reaches ``x`` only through
    ``round`` (rule 14: a cut), and ``x[0]`` reaches it directly. A consuming pass from
    both toward ``x`` does not run ``v``'s nodes (rule 6b), so a later pass through them
    toward ``w`` answers: ``[0, 1, 1]``. torch's engine ran and freed them (its ``where``
    node saves its condition): `GraphFreedError` (differential seed 9334, program
    3255). The first pass's gradient is ``x[0]``'s. Exact."""
    xp = backend.xp
    x = backend.leaf([-1.21, 0.87, 0.93], "float64")
    w = backend.leaf([1.19, -1.44, -0.71], "float64")
    r = xp.round(x)
    v = xp.where(xp.less_equal(r, w), r, w)[1:3]
    first = np.array([1.0, 0.0, 0.0])
    if way == "backward-two-outputs":
        unigrad.backward([xp.sum(v), x[0]], inputs=[x])
        backend.close(backend.grad_of(x), first, rtol=0, atol=0)
    elif way == "backward-one-output":
        unigrad.backward(xp.sum(v) + x[0], inputs=[x])
        backend.close(backend.grad_of(x), first, rtol=0, atol=0)
    else:
        (g,) = unigrad.grad(xp.sum(v) + x[0], x)
        backend.close(g, first, rtol=0, atol=0)
    (h,) = unigrad.grad(xp.sum(v), w, create_graph=True)
    backend.close(h, np.array([0.0, 1.0, 1.0]), rtol=0, atol=0)


@pytest.mark.parametrize("write", ["operator", "xp.pow"])
def test_a_user_s_own_power_of_zero_below_a_create_graph_result_is_differentiable(
    backend, write: str
) -> None:
    """Polynomial features ``sum(c_k x ** k)`` for k = 0, 1, 2: ``g = d/dc``
    (``create_graph=True``) is ``(x ** 0, x ** 1, x ** 2)`` summed, on a node of the
    user's own ``x ** 0``, whose derivative is zeros (rule 14: a user's own ``x ** 0``
    differentiates; only one a pass made, ``x ** 1``'s VJP ``1 * x ** 0``, cuts), so a
    later pass toward ``x`` answers ``1 + 2 x``, and through ``x ** 0`` alone zeros. torch cut
    every ``x ** 0`` below a create_graph result, the user's too: ``g`` came back
    detached where the other backends answer (found by a probe of operators). Exact."""
    xp = backend.xp
    xn = np.array([0.5, 1.5, 2.0])
    x = backend.leaf(xn, "float64")
    c = backend.leaf([0.25, -1.0, 2.0], "float64")

    def power(k: int) -> Any:
        return x**k if write == "operator" else xp.pow(x, k)

    y = xp.sum(c[0] * power(0) + c[1] * power(1) + c[2] * power(2))
    (g,) = unigrad.grad(y, c, create_graph=True)
    backend.close(g, [3.0, xn.sum(), (xn**2).sum()], rtol=0, atol=0)
    assert backend.requires_grad(g)
    (h,) = unigrad.grad(g[0] + g[1] + g[2], x)
    backend.close(h, 1 + 2 * xn, rtol=0, atol=0)
    (g0,) = unigrad.grad(xp.sum(c * power(0)), c, create_graph=True)  # x ** 0 alone
    backend.close(g0, np.ones(3), rtol=0, atol=0)
    assert backend.requires_grad(g0)
    (h0,) = unigrad.grad(xp.sum(g0), x)
    backend.close(h0, np.zeros(3), rtol=0, atol=0)


def test_a_gradient_beside_a_product_with_a_constant_does_not_reach_the_other_addend(
    backend,
) -> None:
    """``g = d(sum(x * x - (x + a) * m))/dx = 2 x - m`` (``m`` a constant tensor,
    ``create_graph=True``) depends on ``x`` only: a later pass toward ``a`` finds it
    unused (rule 14: no path from ``g`` to ``a``), `UnusedInputError`, or ``None`` with
    ``allow_unused=True``. paddle's double-grad node of ``(x + a) * m`` keeps its edge to
    ``x + a``, which its formula does not read, and the result was not recorded: the
    later pass gave ``a`` zeros (differential seed 9614, program 665;
    ``_formulas.PRODUCT_FORWARD``). Exact."""
    xp = backend.xp
    a = backend.leaf(0.27, "float64")
    x = backend.leaf([[0.84, -1.44], [-0.49, -1.15]], "float64")
    m = backend.tensor([[1.0, 2.0], [1.0, 2.0]], "float64")
    (_, g) = unigrad.grad(xp.sum(x * x - (x + a) * m), [a, x], create_graph=True)
    backend.close(g, 2 * backend.np(x) - backend.np(m), rtol=0, atol=0)
    (none,) = unigrad.grad(xp.sum(g), a, allow_unused=True, retain_graph=True)
    assert none is None
    with pytest.raises(UnusedInputError):
        unigrad.grad(xp.sum(g), a)


@pytest.mark.parametrize("write", ["operator", "xp.pow"])
def test_a_complex_power_of_one_has_a_constant_gradient(backend, write: str) -> None:
    """``z ** 1`` of a complex ``z``: its derivative is the constant 1, so a
    ``create_graph`` gradient is the seed and requires no grad (rule 14). paddle's
    complex pow reads ``z`` in its gradient, which then required grad (differential
    seed 9961, program 3116). Exact."""
    xp = backend.xp
    z = backend.leaf([-1.44 - 1.19j, -0.36 - 0.41j], "complex128")
    seed = np.array([-1.07 + 0.77j, 0.61 - 0.34j])
    y = z**1 if write == "operator" else xp.pow(z, 1)
    (g,) = unigrad.grad(y, z, grad_outputs=backend.tensor(seed, "complex128"), create_graph=True)
    backend.close(g, seed, rtol=0, atol=0)
    assert not backend.requires_grad(g)
