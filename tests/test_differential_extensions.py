"""Regressions found by drawing the extension set and ``take_along_axis`` in the
differential tester (issue 23): each on all four backends."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad


def test_take_along_axis_of_a_complex_array_and_its_gradient(backend):
    # paddle 3.3 registers no complex take_along_axis kernel (a raw RuntimeError:
    # differential CI seed 20261123, program 209)
    xp = backend.xp
    v = np.array([[1 + 2j, 3 - 1j, -2 + 0.5j], [0.5j, 2.0 + 0j, -1 - 1j]])
    x = backend.leaf(v.tolist(), "complex128")
    idx = backend.tensor([[2, 0], [1, 1]], "int64")
    y = xp.take_along_axis(x, idx, axis=1)
    backend.close(y, np.take_along_axis(v, np.array([[2, 0], [1, 1]]), axis=1))
    (g,) = unigrad.grad(xp.sum(xp.real(y) + 2 * xp.imag(y)), x)
    want = np.zeros(v.shape, complex)
    for (r, c), n in {(0, 2): 1, (0, 0): 1, (1, 1): 2}.items():
        want[r, c] = n * (1 + 2j)  # conj of d/dz (re z + 2 im z), as torch reports it
    backend.close(g, want)


def test_einsum_with_an_empty_contracted_axis(backend):
    # paddle's differentiable einsum took a size-0 axis for a broadcast 1 (a raw
    # ValueError from reshape: differential seed 1, program 50)
    xp = backend.xp
    x = backend.leaf(np.zeros((3, 0)).tolist(), "float64")
    y = xp.einsum("...i,...i->...", x, x)
    assert backend.shape(y) == (3,)
    backend.close(y, np.zeros(3))
    (g,) = unigrad.grad(y, x, grad_outputs=backend.tensor([1.0, 2.0, 3.0], "float64"))
    assert backend.shape(g) == (3, 0)


def test_logsumexp_of_a_0d_array_has_a_constant_gradient(backend):
    # logsumexp of a 0-d array is the array (docs/namespace.md): its gradient 1 is a
    # constant, which the tester's oracle took for exp(x - logsumexp(x)) (CI seed)
    xp = backend.xp
    x = backend.leaf(0.5, "float64")
    (g,) = unigrad.grad(xp.logsumexp(x), x, create_graph=True)
    backend.close(g, 1.0)
    assert not backend.requires_grad(g)


def test_a_new_graph_is_not_consumed_where_a_dead_consumed_node_lived(backend):
    # paddle keyed consumption by node address and took a freed hook held by a copy its
    # engine kept (after a grad that met a consumed graph) for the new node's at the
    # same address: a false GraphFreedError (CI seed 20261123 with the extension set)
    import gc

    xp = backend.xp
    for _ in range(3):
        x = backend.leaf([[1.18, -0.36, -1.35], [0.68, -0.79, 0.86]], "float64")
        y = xp.log_softmax(x, axis=-1)
        unigrad.grad([y], [x], grad_outputs=[xp.ones_like(y)])  # consumes y's graph
        with pytest.raises(unigrad.GraphFreedError):
            unigrad.grad([y], [x], grad_outputs=[xp.ones_like(y)])
        del y
        gc.collect()
        x = backend.leaf([[0.46, 1.04, -0.98], [-1.25, -1.49, 0.53]], "float64")
        z = xp.log_softmax(xp.abs(x), axis=-1)
        unigrad.backward([z, z])
        s = np.abs([[0.46, 1.04, -0.98], [-1.25, -1.49, 0.53]])
        soft = np.exp(s) / np.exp(s).sum(-1, keepdims=True)
        want = 2 * (1 - 3 * soft) * np.sign([[0.46, 1.04, -0.98], [-1.25, -1.49, 0.53]])
        backend.close(backend.grad_of(x), want)


def test_an_input_that_depends_on_nothing_is_one_that_does_not_require_grad(backend):
    # rule 14: v = sin(sign(w)) depends on nothing; torch and paddle mark it as
    # requiring grad, and backward(inputs=[x, v]) answered (torch) or refused it as an
    # intermediate (paddle) where the contract says UnusedInputError (CI seed 20261123)
    xp = backend.xp
    x = backend.leaf([0.5, -0.7], "float64")
    w = backend.leaf(0.65, "float64")
    v = xp.sin(xp.sign(w))
    assert not backend.requires_grad(v)
    with pytest.raises(unigrad.UnusedInputError, match="does not require grad"):
        unigrad.backward(xp.sum(xp.sigmoid(x)), inputs=[x, v], retain_graph=True)
    assert backend.grad_of(x) is None  # nothing is accumulated
    with pytest.raises(unigrad.UnusedInputError):
        unigrad.grad(xp.sum(xp.sigmoid(x) * v), [x, v])
    (g,) = unigrad.grad(xp.sum(xp.sigmoid(x) * v), [x])
    s = 1 / (1 + np.exp(-np.array([0.5, -0.7])))
    backend.close(g, s * (1 - s) * np.sin(1.0))


def test_pow_with_a_tensor_exponent_at_a_zero_base(backend):
    # paddle's formulation gave 0 for every derivative in the base at 0 (torch: the
    # n-th derivative is b (b-1) ... (b-n+1) 0^(b-n): 1 for b = 1, 2 for d2 at b = 2)
    xp = backend.xp
    x = backend.leaf([0.0, 0.0, 0.0, 0.0, 1.5], "float64")
    y = backend.leaf([1.0, 2.0, 3.0, 0.0, 2.0], "float64")
    p = xp.pow(x, y)
    backend.close(p, [0.0, 0.0, 0.0, 1.0, 2.25])
    gx, gy = unigrad.grad(xp.sum(p), [x, y], create_graph=True)
    backend.close(gx, [1.0, 0.0, 0.0, 0.0, 3.0])
    backend.close(gy, [0.0, 0.0, 0.0, 0.0, 2.25 * np.log(1.5)])
    (gxx,) = unigrad.grad(xp.sum(gx), [x], create_graph=True)
    backend.close(gxx[:3], [0.0, 2.0, 0.0])
    (gxxx,) = unigrad.grad(xp.sum(gxx), [x])
    backend.close(gxxx[1:3], [0.0, 6.0])  # (torch: nan at b = 1 and b = 0, 0 * inf)


def test_a_gradient_through_a_cut_of_a_nonlinear_op_is_a_constant(backend):
    # rule 14: remainder(v, ceil(pow(w, x)) + 0.5) is v minus a cut term, so d/dx of
    # it through v alone is a constant; torch sent zeros through ceil and its pow
    # backward multiplied them by functions of x (differential seed 11, program 3129)
    xp = backend.xp
    x = backend.leaf([1.4, -1.16], "float64")
    v = x * x
    c = xp.ceil(xp.pow(v + 0.25, x))
    y = xp.sum(xp.remainder(x, c * c + 0.5))
    (g,) = unigrad.grad(y, x, create_graph=True)
    backend.close(g, [1.0, 1.0])
    assert not backend.requires_grad(g)


def test_tile_repeat_and_take_along_axis_are_linear_in_the_gradient(backend):
    # paddle read their grad nodes as unknown (reading everything): the constant
    # gradients of linear programs required grad (differential seed 11, programs 744,
    # 1907, 1908, 4454)
    xp = backend.xp
    x = backend.leaf([[0.28, 0.8], [-1.34, -0.53]], "float64")
    idx = backend.tensor([[1, 0], [0, 0]], "int64")
    for y in (
        xp.tile(x, (2, 1)),
        xp.repeat(x, 2, axis=None),
        xp.take_along_axis(x, idx, axis=1),
        xp.sort(x, axis=-1),
    ):
        (g,) = unigrad.grad(xp.sum(3.0 * y), x, create_graph=True)
        assert not backend.requires_grad(g)


@pytest.mark.parametrize("create_graph", [False, True])
def test_a_consumed_node_behind_a_cut_is_not_the_passs(backend, create_graph):
    # rule 14 with rule 6: the pass through sign(v) does not run v's node (sign's
    # derivative is identically zero), so v consumed by an earlier pass does not make
    # it raise; torch and paddle raised GraphFreedError (differential seed 11, 4642)
    xp = backend.xp
    data = [0.5, 3.5, -1.0]
    x = backend.leaf(data, "float64")
    v = 3.0 - x
    unigrad.grad(xp.sum(xp.exp(v)), x, create_graph=create_graph)  # consumes v's node
    (g,) = unigrad.grad(xp.sum(xp.sign(v) * x + x * x), x)
    backend.close(g, np.sign(3.0 - np.array(data)) + 2 * np.array(data))


def test_a_create_graph_pass_through_an_fft_a_transposing_op_reads(backend):
    # jaxlib 0.10.2 CPU: XLA laid out hfft's result column-major for pinv, and its
    # runtime failed its own check (fft_thunk.cc RET_CHECK, a raw JaxRuntimeError) in
    # the tape's compiled create_graph pass (differential CI seed 20261123)
    xp = backend.xp
    data = np.array([[1.26, -0.72], [-1.49, 0.53]])

    def f(a: np.ndarray) -> float:
        return float(np.sum(np.linalg.pinv(np.fft.hfft(-a, axis=-1))))

    x = backend.leaf(data.tolist(), "float64")
    y = xp.sum(xp.linalg.pinv(xp.fft.hfft(-x, axis=-1)))
    create = backend.name != "paddle"
    if not create:  # paddle 3.3 has no svd_grad kernel to run (row 7)
        with pytest.raises(unigrad.HigherOrderUnavailableError, match="svd_grad"):
            unigrad.grad(y, x, create_graph=True, retain_graph=True)
    (g,) = unigrad.grad(y, x, create_graph=create)
    h = 1e-6
    fd = np.zeros_like(data)
    for i in np.ndindex(data.shape):
        e = np.zeros_like(data)
        e[i] = h
        fd[i] = (f(data + e) - f(data - e)) / (2 * h)
    backend.close(g, fd, rtol=1e-5, atol=1e-6)
    if not create:
        return
    (gg,) = unigrad.grad(xp.sum(g * g), x)
    assert np.all(np.isfinite(backend.np(gg)))
