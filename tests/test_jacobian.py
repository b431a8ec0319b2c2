"""Tape-style jacobian/hessian (unigrad._jacobian) on every backend."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad
from unigrad._jacobian import hessian, jacobian


def test_single_output_single_input(backend):
    # TF GradientTape.jacobian doc (anchors §3 item 15): x=[1,2], y=x*x
    x = backend.leaf([1.0, 2.0])
    j = jacobian(x * x, x)
    assert backend.shape(j) == (2, 2)
    backend.close(j, [[2.0, 0.0], [0.0, 4.0]])


def test_shapes_are_ys_shape_plus_xs_shape(backend):
    x = backend.leaf(np.arange(6.0).reshape(2, 3))
    xp = unigrad.namespace(x)
    y = xp.sum(x * x, axis=1)  # shape (2,)
    j = jacobian(y, x)
    assert backend.shape(j) == (2, 2, 3)
    expected = np.zeros((2, 2, 3))
    expected[0, 0] = 2 * np.arange(3.0)
    expected[1, 1] = 2 * np.arange(3.0, 6.0)
    backend.close(j, expected)
    s = jacobian(xp.sum(x), x)  # a scalar output: the gradient's shape
    assert backend.shape(s) == (2, 3)
    backend.close(s, np.ones((2, 3)))


def test_sequences_give_nested_tuples(backend):
    x, w = backend.leaf([1.0, 2.0]), backend.leaf([3.0, 4.0])
    xp = unigrad.namespace(x)
    j = jacobian([x * w, xp.sum(x)], [x, w])
    assert isinstance(j, tuple)
    assert len(j) == 2
    assert all(len(r) == 2 for r in j)
    backend.close(j[0][0], [[3.0, 0.0], [0.0, 4.0]])
    backend.close(j[0][1], [[1.0, 0.0], [0.0, 2.0]])
    backend.close(j[1][0], [1.0, 1.0])
    backend.close(j[1][1], [0.0, 0.0])  # unused: zeros
    one_y = jacobian(x * w, [x, w])
    assert isinstance(one_y, tuple)
    assert len(one_y) == 2
    backend.close(one_y[1], [[1.0, 0.0], [0.0, 2.0]])
    one_x = jacobian([x * w, x], x)
    assert isinstance(one_x, tuple)
    assert len(one_x) == 2
    backend.close(one_x[1], np.eye(2))


def test_jax_jacfwd_doc_example(backend):
    # jax.jacfwd/jacrev doc (anchors §3 item 26)
    x = backend.leaf([1.0, 2.0, 3.0])
    xp = unigrad.namespace(x)
    y = xp.stack([x[0], 5 * x[2], 4 * x[1] ** 2 - 2 * x[2], x[2] * xp.sin(x[0])])
    j = jacobian(y, x)
    expected = [[1, 0, 0], [0, 0, 5], [0, 16, -2], [1.6209, 0, 0.84147]]
    backend.close(j, expected, rtol=1e-4, atol=1e-4)


def test_batch_axis(backend):
    x = backend.leaf([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    j = jacobian(x * x, x, batch_axis=0)
    assert backend.shape(j) == (3, 2, 2)
    backend.close(j, [np.diag([2.0, 4.0]), np.diag([6.0, 8.0]), np.diag([10.0, 12.0])])


def test_hessian_jax_doc_example(backend):
    # jax.hessian doc (anchors §3 item 25)
    x = backend.leaf([1.0, 2.0])
    h = hessian(x[0] ** 3 - 2 * x[0] * x[1] - x[1] ** 6, x)
    backend.close(h, [[6.0, -2.0], [-2.0, -480.0]])


# The numpy tape lets autograd's "Output seems independent of input." warning through
# for constant gradients (reported to the tape's owner).
def test_hessian_sequences_and_linear_blocks(backend):
    x, w = backend.leaf([1.0, 2.0]), backend.leaf([3.0, 4.0])
    xp = unigrad.namespace(x)
    h = hessian(xp.sum(x**3) + xp.sum(w * x), [x, w])
    backend.close(h[0][0], np.diag([6.0, 12.0]))
    backend.close(h[0][1], np.eye(2))
    backend.close(h[1][0], np.eye(2))
    backend.close(h[1][1], np.zeros((2, 2)))
    lin = hessian(xp.sum(3 * x), x)  # a linear function: zeros, not an error
    backend.close(lin, np.zeros((2, 2)))


def test_hessian_batch_axis(backend):
    x = backend.leaf([[1.0, 2.0], [3.0, 4.0]])
    xp = unigrad.namespace(x)
    h = hessian(xp.sum(x**3, axis=1), x, batch_axis=0)
    assert backend.shape(h) == (2, 2, 2)
    backend.close(h, [np.diag([6.0, 12.0]), np.diag([18.0, 24.0])])


def test_create_graph_makes_the_jacobian_differentiable(backend):
    x = backend.leaf([1.0, 2.0])
    xp = unigrad.namespace(x)
    j = jacobian(x**3, x, create_graph=True)
    (g,) = unigrad.grad(xp.sum(j), x)
    backend.close(g, [6.0, 12.0])
    h = hessian(xp.sum(x**4), x, create_graph=True)
    (g3,) = unigrad.grad(xp.sum(h), x)  # third derivative: 24 x
    backend.close(g3, [24.0, 48.0])


def test_argument_errors(backend):
    x = backend.leaf([1.0, 2.0])
    with pytest.raises(unigrad.GradArgumentError, match="batch_axis"):
        jacobian(x * x, x, batch_axis=1)
    with pytest.raises(unigrad.GradArgumentError, match="empty"):
        jacobian(x * x, [])
    with pytest.raises(unigrad.GradArgumentError, match="not a scalar"):
        hessian(x * x, x)
    with pytest.raises(unigrad.GradArgumentError, match="batch size"):
        jacobian(x * x, backend.leaf([[1.0], [2.0], [3.0]]), batch_axis=0)
