"""Regression tests for the classes the differential tester found on the tensorflow
backend (issue 29), run on every backend by the ``backend`` fixture; each failed on
tensorflow before its fix. Tolerances are stated per test."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import unigrad

if TYPE_CHECKING:
    from conftest import B


def test_complex_det_gradient_is_torchs_convention(backend: B) -> None:
    """d Re(det A) / dA is conj(cofactors of A) in torch's convention; TensorFlow 2.21's
    MatrixDeterminant gradient left det(A) unconjugated (seed 2026 programs 112, 114).
    Tolerance: 1e-12 relative (complex128, cofactors of a 2x2 are its entries)."""
    an = np.array([[1 + 2j, 0.5 - 1j], [0.3 + 0.1j, -1 + 0.5j]])
    a = backend.leaf(an, "complex128")
    xp = backend.xp
    (g,) = unigrad.grad(xp.real(xp.linalg.det(a)), a)
    cof = np.array([[an[1, 1], -an[1, 0]], [-an[0, 1], an[0, 0]]])
    backend.close(g, np.conj(cof), rtol=1e-12, atol=0)


def test_hypot_of_float32_and_float64_promotes(backend: B) -> None:
    """``hypot`` of a float32 and a float64 array is float64 (the standard's promotion);
    tensorflow raised a raw InvalidArgumentError in AddV2 (seed 7 program 101).
    Tolerance: float64 rounding."""
    a = backend.leaf([3.0, -0.5], "float32")
    b = backend.leaf([4.0, 1.25], "float64")
    h = backend.xp.hypot(a, b)
    assert backend.dtype(h) == "float64"
    backend.close(h, np.hypot([3.0, -0.5], [4.0, 1.25]), rtol=1e-12, atol=0)
    ga, gb = unigrad.grad(backend.xp.sum(h), [a, b])
    backend.close(gb, np.array([4.0, 1.25]) / np.hypot([3.0, -0.5], [4.0, 1.25]), rtol=1e-7)
    assert backend.dtype(ga) == "float32"


def test_comparison_with_a_plain_tensor_on_the_left(backend: B) -> None:
    """``plain < tape_tensor`` is the tape tensor's reflected comparison: TensorFlow
    2.21's comparison operators have no reflected fallback and converted the tape tensor
    (a TapeError). Exact: booleans, which never require grad."""
    c = backend.tensor([1.5, 2.0, -1.0], "float32")
    x = backend.leaf([1.0, 2.0, 3.0], "float32")
    cn, xn = np.array([1.5, 2.0, -1.0]), np.array([1.0, 2.0, 3.0])
    for got, want in (
        (c < x, cn < xn),
        (c <= x, cn <= xn),
        (c > x, cn > xn),
        (c >= x, cn >= xn),
        (c == x, cn == xn),
        (c != x, cn != xn),
    ):
        np.testing.assert_array_equal(backend.np(got), want)
        assert not backend.requires_grad(got)


def test_vecdot_of_float32_and_float64_promotes(backend: B) -> None:
    """``vecdot`` of a float32 and a float64 vector is float64; tensorflow raised a raw
    InvalidArgumentError in Mul (seed 2026 program 455). Tolerance: float64 rounding."""
    a = backend.leaf([3.0, -0.5], "float32")
    b = backend.leaf([4.0, 1.25], "float64")
    for fn in (backend.xp.vecdot, backend.xp.linalg.vecdot):
        v = fn(a, b)
        assert backend.dtype(v) == "float64"
        backend.close(v, 12.0 - 0.625, rtol=1e-12, atol=0)
        ga, gb = unigrad.grad(v, [a, b])
        backend.close(ga, [4.0, 1.25], rtol=1e-7)
        backend.close(gb, [3.0, -0.5], rtol=1e-7)


def test_a_constant_create_graph_result_takes_the_standards_indexing(backend: B) -> None:
    """A ``create_graph`` gradient without history (here the constant 1) indexed by a
    mask and transposed; tensorflow returned a plain ``tf.Tensor``, which has no ``.T``
    and took no tape-tensor mask (seed 2026 program 1834). Exact: ones."""
    xp = backend.xp
    x = backend.leaf([[0.67, -1.19], [1.15, 0.56], [-0.46, 1.23]], "float64")
    (g,) = unigrad.grad(xp.sum(xp.expand_dims(x, axis=1)), x, create_graph=True)
    assert not backend.requires_grad(g)
    mask = backend.tensor([[True, False], [False, False], [True, True]], "bool")
    backend.close(g[mask], [1.0, 1.0, 1.0], rtol=0, atol=0)
    backend.close(g.T, np.ones((2, 3)), rtol=0, atol=0)


def test_maximum_and_minimum_split_a_tie(backend: B) -> None:
    """The derivative of maximum/minimum is 1 for the winner and 1/2 each at a tie, and
    it is a constant (rule 14). tensorflow gave a tie to x1 whole, and maximum(x, 0)
    went through tf.nn.relu: 0 at the tie, its second-order gradient connected to x.
    Exact values."""
    xp = backend.xp
    x = backend.leaf([0.0, 1.0, 2.0], "float64")
    y = backend.leaf([0.0, 1.0, 1.0], "float64")
    gx, gy = unigrad.grad(xp.sum(xp.maximum(x, y)), [x, y])
    backend.close(gx, [0.5, 0.5, 1.0], rtol=0, atol=0)
    backend.close(gy, [0.5, 0.5, 0.0], rtol=0, atol=0)
    gx, gy = unigrad.grad(xp.sum(xp.minimum(x, y)), [x, y])
    backend.close(gx, [0.5, 0.5, 0.0], rtol=0, atol=0)
    backend.close(gy, [0.5, 0.5, 1.0], rtol=0, atol=0)
    (g,) = unigrad.grad(xp.sum(xp.maximum(x, 0.0)), x, create_graph=True)
    backend.close(g, [0.5, 1.0, 1.0], rtol=0, atol=0)
    assert not backend.requires_grad(g)


def test_one_tensor_at_two_positions_of_a_pass(backend: B) -> None:
    """One seed for two outputs, then the same graph with two seeds. ``tf.GradientTape``
    identifies a source by its tensor, so the shared seed's two positions each got the
    other's dependence, and that dependence (cached by the graph's structure) made the
    second pass's first gradient depend on a seed it does not reach: ``backward``
    accumulated zeros into it where it must leave ``.grad`` None (rule 14; the
    order-dependent failure of test_paddle_double_grad.py::test_matmul_triple_grad).
    Tolerance: exact (float32 sums of small integers)."""
    xp = backend.xp

    def second_pass(seed_x: object, seed_y: object) -> tuple[object, ...]:
        x = backend.leaf(np.full((3, 3), 2.0, np.float32))
        y = backend.leaf(np.full((3, 3), 2.0, np.float32))
        out_seed = backend.leaf(np.ones((3, 3), np.float32))
        gx, gy = unigrad.grad(
            [xp.matmul(x, y)], [x, y], [out_seed], retain_graph=True, create_graph=True
        )
        return unigrad.grad(
            [gx, gy], [x, y, out_seed], [seed_x, seed_y], retain_graph=True, create_graph=True
        )

    shared = backend.leaf(np.ones((3, 3), np.float32))
    ga, gb, _ = second_pass(shared, shared)
    backend.close(ga, np.full((3, 3), 3.0), rtol=0, atol=0)  # ones @ ones
    backend.close(gb, np.full((3, 3), 3.0), rtol=0, atol=0)
    a = backend.leaf(np.ones((3, 3), np.float32))
    b = backend.leaf(np.ones((3, 3), np.float32))
    ga, _, _ = second_pass(a, b)  # d/dx of <x^T out_seed, b>: out_seed @ b^T
    unigrad.backward(ga)
    assert backend.grad_of(a) is None
    backend.close(backend.grad_of(b), np.full((3, 3), 3.0), rtol=0, atol=0)


def test_a_cut_at_an_op_that_returns_its_input(backend: B) -> None:
    """``no_grad_vars=[conj(x)]`` for a real ``x``, that output seeded too: no gradient
    flows through the cut. TensorFlow 2.21's ``conj`` of a real tensor returns the tensor
    itself, so the cut's value was the watched source and ``tf.GradientTape`` let the
    seed through (seed 31, program 38). Tolerance: 1e-12 relative (float64)."""
    xp = backend.xp
    xn = np.array([0.65, 0.71, 0.51])
    x = backend.leaf(xn, "float64")
    c = xp.conj(x)
    y = xp.sum(x * x)
    (g,) = unigrad.grad(
        [y, c],
        [x],
        [backend.tensor(1.0, "float64"), backend.tensor([1.5, -0.5, 2.0], "float64")],
        no_grad_vars=[c],
    )
    backend.close(g, 2 * xn, rtol=1e-12, atol=0)
