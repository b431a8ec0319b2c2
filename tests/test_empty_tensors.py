"""Empty tensors: rule 14 follows the graph's paths whatever their sizes, and no raw error.

A result computed from ``x`` through a value with no element (``x[idx]`` of no index,
``x[mask]`` of an all-false mask, an empty product, ``where`` of an empty result) stays
on a node of ``x``, as torch's kernels and the float64 oracle keep it: a ``create_graph``
gradient through it requires grad exactly when the same program with elements would.
The frameworks' shortcuts for empty shapes lost that dependence (jax 0.10.2's ``where``,
gather and ``prod``), or refused (paddle 3.3.1's ``repeat_interleave`` of 0 and the
second-order ``cumsum``/``cumprod``/``prod`` kernels), or failed in autograd's rules
(HIPS autograd 1.9.1's ``tile`` of 0, its unreduced ``where`` gradient under ``clip``'s
scalar bound), or raised (paddle 3.3.1's ``matmul_grad`` of an empty contraction). Found
from differential seeds 9204, program 207, and 9314, program 3225 (the corpus keeps
them), and their neighbours. float64; the gradients are exact (sums of no term, or ones).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import unigrad

X = np.array([0.5, -1.25, 2.0])
ZEROS = np.zeros(3)


def _empty_matrix(xp: Any, x: Any) -> Any:
    """A 0 x 0 matrix computed from ``x``."""
    return xp.reshape(x[0:0] * x[1], (0, 0))


#: name -> (the program of ``x``, its gradient for a ones seed, whether that gradient,
#: taken with ``create_graph=True``, depends on ``x``)
CASES: dict[str, tuple[Callable[[Any, Any, Any], Any], np.ndarray, bool]] = {
    "index-of-no-index": (
        lambda xp, b, x: x[b.tensor(np.array([], dtype=np.int64), "int64")] * x[0],
        ZEROS,
        True,
    ),
    "all-false-mask": (lambda xp, b, x: x[x > 100.0] * x[1], ZEROS, True),
    "where-of-an-empty-result": (
        lambda xp, b, x: xp.where(x[2:2] > 0, x[2:2], x[0] * x[1]),
        ZEROS,
        True,
    ),
    "empty-product": (lambda xp, b, x: xp.prod(x[0:0]) * x[0], np.array([1.0, 0, 0]), True),
    "cumulative-sum-of-nothing": (
        lambda xp, b, x: xp.cumulative_sum(x[0:0]) * x[0],
        ZEROS,
        True,
    ),
    "cumulative-product-of-nothing": (
        lambda xp, b, x: xp.cumulative_prod(x[0:0]) * x[0],
        ZEROS,
        True,
    ),
    # the upper bound -x[1] = 1.25 clips x[2] to it: d/dx = [1, 1 - 1, 0]
    "clip-by-a-scalar-of-x": (
        lambda xp, b, x: xp.clip(x, None, -xp.reshape(x[1:2], ())),
        np.array([1.0, 0.0, 0.0]),
        False,
    ),
    # paddle 3.3.1's matmul_grad raised a raw ValueError for an empty contraction with
    # one operand's gradient asked for (seed 9314, program 3225)
    "matmul-of-an-empty-contraction": (
        lambda xp, b, x: xp.matmul(
            b.tensor(np.zeros((2, 0)), "float64"), xp.reshape(x[0:0], (0, 1))
        ),
        ZEROS,
        False,
    ),
    "tensordot-of-an-empty-contraction": (
        lambda xp, b, x: xp.tensordot(
            b.tensor(np.zeros((2, 0)), "float64"), xp.reshape(x[1:1] * x[0], (0, 1)), axes=1
        ),
        ZEROS,
        True,
    ),
    # linear algebra of a matrix with no element: paddle 3.3.1's kernels raised raw
    # ValueErrors (inv, solve, slogdet) or refused a second pass (det, cholesky), its
    # pinv was a constant; jax 0.10.2's derivative of det raised a raw IndexError
    "inv-of-an-empty-matrix": (lambda xp, b, x: xp.linalg.inv(_empty_matrix(xp, x)), ZEROS, True),
    "det-of-an-empty-matrix": (
        lambda xp, b, x: xp.linalg.det(_empty_matrix(xp, x)) * x[0],
        np.array([1.0, 0, 0]),
        True,
    ),
    "slogdet-of-an-empty-matrix": (
        lambda xp, b, x: xp.linalg.slogdet(_empty_matrix(xp, x)).logabsdet + x[0],
        np.array([1.0, 0, 0]),
        True,
    ),
    "solve-of-an-empty-system": (
        lambda xp, b, x: xp.linalg.solve(_empty_matrix(xp, x), x[1:1]),
        ZEROS,
        True,
    ),
    "pinv-of-an-empty-matrix": (
        lambda xp, b, x: xp.linalg.pinv(xp.reshape(x[0:0], (2, 0))),
        ZEROS,
        True,
    ),
    "cholesky-of-an-empty-matrix": (
        lambda xp, b, x: xp.linalg.cholesky(_empty_matrix(xp, x)),
        ZEROS,
        True,
    ),
    "tile-of-0": (lambda xp, b, x: xp.tile(x, (0,)), ZEROS, False),
    "repeat-of-0": (lambda xp, b, x: xp.repeat(x, 0), ZEROS, False),
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_empty_value_keeps_the_graph_s_paths(backend, case: str) -> None:
    program, want, depends = CASES[case]
    xp = backend.xp
    x = backend.leaf(X, "float64")
    y = program(xp, backend, x)
    seed = backend.tensor(np.ones(backend.shape(y)), "float64")
    (g,) = unigrad.grad(y, x, seed, create_graph=True)
    backend.close(g, want, rtol=0, atol=0)
    assert backend.requires_grad(g) is depends
    if depends:  # a later pass answers (its gradient is zeros: no element reaches it)
        (h,) = unigrad.grad(xp.sum(g * g), x, allow_unused=True, materialize_grads=True)
        backend.close(h, ZEROS, rtol=0, atol=0)
    else:
        with pytest.raises(unigrad.NotDifferentiableError):
            unigrad.grad(xp.sum(g * g), x)


#: name -> a function of two operands whose value depends on both (rule 14)
BROADCAST_OPS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "multiply": lambda xp, a, b: xp.multiply(a, b),
    "divide": lambda xp, a, b: xp.divide(a, b),
    "pow": lambda xp, a, b: xp.pow(a, b),
    "atan2": lambda xp, a, b: xp.atan2(a, b),
    "hypot": lambda xp, a, b: xp.hypot(a, b),
    "logaddexp": lambda xp, a, b: xp.logaddexp(a, b),
    "a * b": lambda xp, a, b: a * b,
    "a / b": lambda xp, a, b: a / b,
    "a ** b": lambda xp, a, b: a**b,
}

#: (the empty operand's shape, the other's)
BROADCASTS = [((2, 0), (1, 1)), ((0,), (1,)), ((2, 0), (2, 1)), ((0, 3), (1, 3)), ((0,), ())]


@pytest.mark.parametrize("op", list(BROADCAST_OPS))
def test_a_broadcast_with_no_element_differentiates_twice(backend, op: str) -> None:
    """``op(m, s)`` and ``op(s, m)`` for ``m`` with no element and ``s`` with elements,
    broadcast together, both computed from ``x``: the gradient is zeros and depends on
    ``x`` (rule 14: paths are the graph's whatever their sizes), and a second pass
    answers zeros. paddle 3.3.1's broadcasting ``multiply``, ``divide``, ``pow`` and
    ``atan2`` raised raw errors at second order (a reshape in the double-grad node; the
    namespace expands the operands first: ``_paddle_contract.expanded``); jax 0.10.2's
    ``hypot`` of an empty result was a constant. Found by a probe of empty shapes beside
    differential seed 9314. Exact."""
    xp = backend.xp
    f = BROADCAST_OPS[op]
    for empty, full in BROADCASTS:
        for swap in (False, True):
            x = backend.leaf(np.array([0.5, 1.25, 2.0]), "float64")
            m = xp.reshape(x[0:0] * x[1], empty)
            n = int(np.prod(full))
            s = xp.reshape(x[0:n] * xp.sum(x), full)
            y = f(xp, s, m) if swap else f(xp, m, s)
            (g,) = unigrad.grad(xp.sum(y), x, create_graph=True)
            backend.close(g, ZEROS, rtol=0, atol=0)
            assert backend.requires_grad(g), (empty, full, swap)
            (h,) = unigrad.grad(xp.sum(g * g), x, allow_unused=True, materialize_grads=True)
            backend.close(h, ZEROS, rtol=0, atol=0)


@pytest.mark.parametrize("op", ["vecdot", "outer"])
def test_a_product_of_vectors_with_no_element_differentiates_twice(backend, op: str) -> None:
    """``vecdot`` of a ``(0, 2)`` stack with a ``(1, 2)`` one and ``linalg.outer`` of a
    vector with no element: both multiply a broadcast with no element (paddle raised
    at second order, as above). Exact."""
    xp = backend.xp
    x = backend.leaf(np.array([0.5, 1.25, 2.0]), "float64")
    if op == "vecdot":
        y = xp.vecdot(xp.reshape(x[0:0] * x[1], (0, 2)), xp.reshape(x[0:2], (1, 2)))
    else:
        y = xp.linalg.outer(x[0:0] * x[1], x)
    (g,) = unigrad.grad(xp.sum(y), x, create_graph=True)
    backend.close(g, ZEROS, rtol=0, atol=0)
    assert backend.requires_grad(g)
    (h,) = unigrad.grad(xp.sum(g * g), x, allow_unused=True, materialize_grads=True)
    backend.close(h, ZEROS, rtol=0, atol=0)
