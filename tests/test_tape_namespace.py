"""The common array-API subset, written once, gives the same values and gradients on
all four backends (torch via array-api-compat, paddle via unigrad's thin namespace,
jax and numpy via the recording namespace)."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad

X = np.array([[0.5, 1.2, 2.0], [1.7, 0.9, 1.4]])
Y = np.array([[0.3, -0.7], [1.1, 0.4], [-0.2, 0.8]])

OPS = {
    "abs": lambda xp, x, y: xp.abs(x - 1.5),
    "sin": lambda xp, x, y: xp.sin(x),
    "cos": lambda xp, x, y: xp.cos(x),
    "tan": lambda xp, x, y: xp.tan(x * 0.5),
    "tanh": lambda xp, x, y: xp.tanh(x),
    "exp": lambda xp, x, y: xp.exp(x),
    "log": lambda xp, x, y: xp.log(x),
    "sqrt": lambda xp, x, y: xp.sqrt(x),
    "square": lambda xp, x, y: xp.square(x),
    "pow": lambda xp, x, y: xp.pow(x, x),
    "sum": lambda xp, x, y: xp.sum(x, axis=1),
    "mean": lambda xp, x, y: xp.mean(x, axis=0, keepdims=True),
    "prod": lambda xp, x, y: xp.prod(x, axis=1),
    "max": lambda xp, x, y: xp.max(x, axis=1),
    "min": lambda xp, x, y: xp.min(x),
    "matmul": lambda xp, x, y: xp.matmul(x, y),
    "reshape": lambda xp, x, y: xp.reshape(x, (3, 2)) * y,
    "concat": lambda xp, x, y: xp.concat([x, x * 2.0], axis=0),
    "stack": lambda xp, x, y: xp.stack([x, x * x], axis=1),
    "where": lambda xp, x, y: xp.where(x > 1.0, x, x * x),
    "maximum": lambda xp, x, y: xp.maximum(x, 3.0 - x),
    "minimum": lambda xp, x, y: xp.minimum(x, 3.0 - x),
    "clip": lambda xp, x, y: xp.clip(x, min=0.8, max=1.8),
    "vector_norm": lambda xp, x, y: xp.linalg.vector_norm(x, axis=1),
    "vector_norm_all": lambda xp, x, y: xp.linalg.vector_norm(x),
    "ones_like": lambda xp, x, y: x * 2.0 + xp.ones_like(x),
    "zeros_like": lambda xp, x, y: x + xp.zeros_like(x),
    "asarray": lambda xp, x, y: x * xp.asarray([1.0, 2.0, 3.0], dtype=x.dtype),
    "expand_dims": lambda xp, x, y: xp.expand_dims(x, axis=0) * 2.0,
    "squeeze": lambda xp, x, y: xp.squeeze(xp.expand_dims(x, axis=0), axis=0),
    "permute_dims": lambda xp, x, y: xp.permute_dims(x, (1, 0)) * y,
    # the standard beyond the common subset (issue 11): each rule written once
    "acos": lambda xp, x, y: xp.acos(x / 3.0),
    "asinh": lambda xp, x, y: xp.asinh(x),
    "atan2": lambda xp, x, y: xp.atan2(x, x + 1.0),
    "expm1": lambda xp, x, y: xp.expm1(x),
    "log1p": lambda xp, x, y: xp.log1p(x),
    "logaddexp": lambda xp, x, y: xp.logaddexp(x, 1.0 - x),
    "hypot": lambda xp, x, y: xp.hypot(x, xp.permute_dims(y, (1, 0))),
    "vector_norm_axes": lambda xp, x, y: xp.linalg.vector_norm(x, axis=(0, 1)),
    "vector_norm_keepdims": lambda xp, x, y: xp.linalg.vector_norm(x, keepdims=True) * x,
    "vector_norm_ord1": lambda xp, x, y: xp.linalg.vector_norm(x, axis=0, ord=1),
    "matrix_norm": lambda xp, x, y: xp.linalg.matrix_norm(xp.matmul(x, y)),
    "matrix_norm_nuc": lambda xp, x, y: xp.linalg.matrix_norm(xp.matmul(x, y), ord="nuc"),
    "svdvals": lambda xp, x, y: xp.linalg.svdvals(x),
    "matrix_power": lambda xp, x, y: xp.linalg.matrix_power(xp.matmul(x, y), 3),
    "trace": lambda xp, x, y: xp.linalg.trace(xp.matmul(x, y)),
    "diagonal": lambda xp, x, y: xp.linalg.diagonal(xp.matmul(x, y)),
    "outer": lambda xp, x, y: xp.linalg.outer(x[0, :], y[:, 1]),
    "cross": lambda xp, x, y: xp.linalg.cross(x, x * x),
    "vecdot": lambda xp, x, y: xp.vecdot(x, x * 2.0),
    "tensordot": lambda xp, x, y: xp.tensordot(x, y, axes=1),
    "matrix_transpose": lambda xp, x, y: xp.matrix_transpose(x) * y,
    "std": lambda xp, x, y: xp.std(x, axis=1, correction=1),
    "var": lambda xp, x, y: xp.var(x, axis=0),
    "cumulative_sum": lambda xp, x, y: xp.cumulative_sum(x, axis=1),
    "flip": lambda xp, x, y: xp.flip(x, axis=0) * x,
    "unstack": lambda xp, x, y: xp.unstack(x, axis=0)[1] * 2.0,
    "take": lambda xp, x, y: xp.take(x, xp.asarray([2, 0]), axis=1),
    "sort": lambda xp, x, y: xp.sort(x, axis=1) * x,
    "moveaxis": lambda xp, x, y: xp.moveaxis(x, 0, 1) * y,
}


def _numeric_grad(f, x, y, eps=1e-6):
    gx, gy = np.zeros_like(x), np.zeros_like(y)
    for g, a in ((gx, x), (gy, y)):
        for idx in np.ndindex(a.shape):
            old = a[idx]
            a[idx] = old + eps
            hi = np.sum(f(np, x, y))
            a[idx] = old - eps
            lo = np.sum(f(np, x, y))
            a[idx] = old
            g[idx] = (hi - lo) / (2 * eps)
    return gx, gy


@pytest.mark.parametrize("name", sorted(OPS))
def test_array_api_subset(backend, name):
    f = OPS[name]
    x, y = backend.leaf(X, "float64"), backend.leaf(Y, "float64")
    xp = unigrad.namespace(x)
    out = f(xp, x, y)
    expected = f(np, X.copy(), Y.copy())
    backend.close(out, expected, rtol=1e-10, atol=1e-12)
    gx, gy = unigrad.grad(xp.sum(out), [x, y], allow_unused=True)
    ex, ey = _numeric_grad(f, X.copy(), Y.copy())
    backend.close(gx, ex, rtol=1e-5, atol=1e-6)
    if gy is not None:
        backend.close(gy, ey, rtol=1e-5, atol=1e-6)
    else:
        assert np.all(ey == 0)


def test_complex_parts(backend):
    z = backend.leaf(np.array([1 + 2j, -0.5 + 0.25j]), "complex128")
    xp = unigrad.namespace(z)
    zz = z * z
    backend.close(xp.real(zz), np.real(np.array([1 + 2j, -0.5 + 0.25j]) ** 2))
    backend.close(xp.imag(zz), np.imag(np.array([1 + 2j, -0.5 + 0.25j]) ** 2))
    loss = xp.sum(xp.real(xp.conj(z) * z))  # |z|^2: the torch convention gives 2z
    (g,) = unigrad.grad(loss, z)
    backend.close(g, 2 * np.array([1 + 2j, -0.5 + 0.25j]))
    (g,) = unigrad.grad(xp.sum(xp.imag(z)), z)
    backend.close(g, np.array([1j, 1j]))
