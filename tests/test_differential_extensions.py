"""Regressions found by drawing the extension set and ``take_along_axis`` in the
differential tester (issue 23): each on all four backends."""

from __future__ import annotations

import numpy as np

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
