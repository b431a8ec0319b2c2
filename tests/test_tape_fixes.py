"""Divergences of the tapes found by the differential tester, each on all four backends.

Every expected value is computed here with NumPy from the closed form (the derivative
written out), never from a backend.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad

RTOL = 1e-9  # float64 throughout


def _requires_grad(backend, t) -> bool:
    return bool(backend.requires_grad(t))


def _grad_create_graph(backend, output, x):
    """``grad(output, x, create_graph=True)``, or None where paddle refuses it with the
    documented error (no double-gradient kernel for the op, paddle 3.3)."""
    try:
        return unigrad.grad(output, x, create_graph=True)
    except unigrad.HigherOrderUnavailableError:
        assert backend.backend.name == "paddle"
        return None


#: paddle (main at e5409f8): the create_graph gradient of sum(sort(x) * c) requires grad,
#: where sort's gradient is a scatter by a constant permutation (rule 14); sort(x) summed
#: without the product agrees. A paddle divergence, outside this branch (the tapes)


# ---- E3: framework errors where the other backends answer ---------------------------
@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 2)])
def test_singular_values_of_the_full_svd_have_a_gradient(backend, shape):
    # d sum(s)/dA = U Vh (reduced factors); autograd and jax differentiate no
    # full_matrices=True SVD, not even its singular values
    data = np.arange(1.0, 1.0 + np.prod(shape)).reshape(shape) ** 1.5
    a = backend.leaf(data, "float64")
    xp = backend.xp
    u_full, s, vh_full = xp.linalg.svd(a)
    m, n = shape
    assert (backend.shape(u_full), backend.shape(vh_full)) == ((m, m), (n, n))
    u, s_expected, vh = np.linalg.svd(data, full_matrices=False)
    backend.close(s, s_expected, rtol=RTOL)
    expected = u @ vh
    (g,) = unigrad.grad(xp.sum(xp.linalg.svd(a)[1]), a)
    backend.close(g, expected, rtol=RTOL, atol=1e-12)
    got = _grad_create_graph(backend, xp.sum(xp.linalg.svd(a)[1]), a)
    if got is not None:
        backend.close(got[0], expected, rtol=RTOL, atol=1e-12)
        assert _requires_grad(backend, got[0])


@pytest.mark.parametrize("fft", ["fft", "rfftn"])
def test_fft_of_an_inverse_has_a_gradient(backend, fft):
    # XLA's CPU compiler (jaxlib 0.10.2) rejects the jax tape's compiled gradient here
    # (an FFT operand in a column-major layout, jax-ml/jax#22484's check): the tape runs
    # that gradient op by op. The loss is linear in B = inv(A), sum(W * B) with W[k, m]
    # the loss of the basis matrix E_km, so its gradient is -inv(A)^T W inv(A)^T.
    data = np.array([[-0.95, 0.73], [1.26, 1.27]])
    a = backend.leaf(data, "float64")
    xp = backend.xp
    loss = xp.sum(xp.real(getattr(xp.fft, fft)(xp.linalg.inv(a))))
    w = np.zeros((2, 2))
    for k, m in np.ndindex(2, 2):
        basis = np.zeros((2, 2))
        basis[k, m] = 1.0
        w[k, m] = np.real(getattr(np.fft, fft)(basis)).sum()
    inv = np.linalg.inv(data)
    (g,) = unigrad.grad(loss, a)
    backend.close(g, -inv.T @ w @ inv.T, rtol=RTOL, atol=1e-12)


def test_broadcast_to_new_leading_axes_with_create_graph(backend):
    xp = backend.xp
    x = backend.leaf([1.0, 2.0], "float64")
    c = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).reshape(3, 1, 2)
    y = xp.broadcast_to(x, (3, 1, 2)) * backend.tensor(c, "float64")
    (g,) = unigrad.grad(xp.sum(y * y), x, create_graph=True)
    backend.close(g, (2 * c * c).sum(axis=(0, 1)) * [1.0, 2.0], rtol=RTOL)
    (h,) = unigrad.grad(xp.sum(g), x)
    backend.close(h, (2 * c * c).sum(axis=(0, 1)), rtol=RTOL)


@pytest.mark.parametrize("which", ["eigh", "eigvalsh"])
def test_eigenvalues_with_create_graph(backend, which):
    # d sum(w * eigvalsh(S))/dS = V diag(w) V^T for S symmetric (S = (X + X^T) / 2, whose
    # gradient is the symmetric part of that)
    xp = backend.xp
    data = np.array([[2.0, 0.5, 0.1], [0.3, 1.0, -0.2], [0.0, 0.4, -1.5]])
    w = np.array([1.0, 3.0, -2.0])
    x = backend.leaf(data, "float64")
    s = (x + xp.matrix_transpose(x)) / 2
    vals = xp.linalg.eigh(s)[0] if which == "eigh" else xp.linalg.eigvalsh(s)
    _, v = np.linalg.eigh((data + data.T) / 2)
    got = _grad_create_graph(backend, xp.sum(vals * backend.tensor(w, "float64")), x)
    if got is not None:
        backend.close(got[0], v @ np.diag(w) @ v.T, rtol=1e-8, atol=1e-12)
        assert _requires_grad(backend, got[0])


def test_sort_with_create_graph(backend):
    # d sum(w * sort(x))/dx: each x gets the weight of its rank, a constant of x
    xp = backend.xp
    data = np.array([3.0, 1.0, 2.0, -4.0])
    w = np.array([1.0, 2.0, 3.0, 4.0])
    x = backend.leaf(data, "float64")
    expected = np.empty(4)
    expected[np.argsort(data)] = w
    got = _grad_create_graph(backend, xp.sum(xp.sort(x) * backend.tensor(w, "float64")), x)
    if got is not None:
        backend.close(got[0], expected, rtol=RTOL)
        assert not _requires_grad(backend, got[0])


def test_sort_of_an_empty_array(backend):
    xp = backend.xp
    x = backend.leaf(np.zeros((0,)), "float64")
    assert backend.shape(xp.sort(x)) == (0,)
    assert backend.shape(xp.sort(xp.reshape(x, (2, 0)), axis=0)) == (2, 0)


# ---- V1: repeat along a negative axis -----------------------------------------------
@pytest.mark.parametrize("axis", [-1, 1, -2, None])
def test_repeat_gradient(backend, axis):
    # y = repeat(X, 2, axis) * C: each X entry gets the sum of C over its two copies
    xp = backend.xp
    x = backend.leaf([1.0, 2.0], "float64")
    a = backend.tensor([5.0, 6.0], "float64")
    stacked = xp.stack([x, a])  # (2, 2), x the first row
    rep_shape = {-1: (2, 4), 1: (2, 4), -2: (4, 2), None: (8,)}[axis]
    c = np.arange(1.0, 9.0).reshape(rep_shape)
    y = xp.repeat(stacked, 2, axis=axis) * backend.tensor(c, "float64")
    (g,) = unigrad.grad(xp.sum(y), x)
    index = np.repeat(np.arange(4).reshape(2, 2), 2, axis=axis)  # which X entry
    expected = np.array([c[index == 0].sum(), c[index == 1].sum()])
    backend.close(g, expected, rtol=RTOL)
    if axis == -1:
        backend.close(g, [3.0, 7.0], rtol=RTOL)  # the numbers


# ---- D5, D4: results do not depend on arguments they do not read ---------------------
def test_broadcast_arrays_and_meshgrid_results_depend_on_their_own_argument(backend):
    xp = backend.xp
    a = backend.leaf([[1.0], [2.0]], "float64")
    x = backend.leaf([1.0, 2.0, 3.0], "float64")
    g = unigrad.grad(xp.sum(xp.broadcast_arrays(a, x)[0]), [a, x], allow_unused=True)
    backend.close(g[0], [[3.0], [3.0]], rtol=RTOL)
    assert g[1] is None
    b = backend.leaf([1.0, 2.0], "float64")
    for indexing, per_entry in (("ij", 3.0), ("xy", 3.0)):
        grids = xp.meshgrid(b, x, indexing=indexing)
        g = unigrad.grad(xp.sum(grids[0]), [b, x], allow_unused=True)
        backend.close(g[0], [per_entry, per_entry], rtol=RTOL)
        assert g[1] is None
        g = unigrad.grad(xp.sum(grids[1]), [b, x], allow_unused=True)
        assert g[0] is None
        backend.close(g[1], [2.0, 2.0, 2.0], rtol=RTOL)


def test_copysign_reads_only_the_sign_of_its_second_argument(backend):
    # copysign(a, x) = |a| sign(x): d/dx is zero everywhere, x is read through a cut
    xp = backend.xp
    a = backend.leaf([1.0, -2.0, 3.0], "float64")
    x = backend.leaf([-1.0, -2.0, 0.5], "float64")
    g = unigrad.grad(xp.sum(xp.copysign(a, x)), [a, x], allow_unused=True)
    backend.close(g[0], np.sign([1.0, -2.0, 3.0]) * np.sign([-1.0, -2.0, 0.5]), rtol=RTOL)
    assert g[1] is None


@pytest.mark.parametrize("name", ["zeros_like", "ones_like", "empty_like", "full_like"])
def test_like_functions_make_constants(backend, name):
    xp = backend.xp
    x = backend.leaf([1.0, 2.0], "float64")
    args = (x, 2.5) if name == "full_like" else (x,)
    c = getattr(xp, name)(*args)
    assert not _requires_grad(backend, c)
    assert backend.shape(c) == (2,)
    # an output that reaches x only through a *_like result does not use x
    y = backend.leaf([0.5, 0.25], "float64")
    (g,) = unigrad.grad(
        xp.sum(y * xp.ones_like(x) if name != "full_like" else y * c), [x], allow_unused=True
    )
    assert g is None


# ---- the numpy tape's derivative rules read x for its sign only ---------------------
def test_abs_gradient_is_a_constant_of_x(backend):
    # d|x|/dx = sign(x): a cut (rule 14), so a create_graph gradient does not require grad
    xp = backend.xp
    data = np.array([-1.5, 0.25, 2.0])
    x = backend.leaf(data, "float64")
    (g,) = unigrad.grad(
        xp.sum(xp.abs(x) * backend.tensor([1.0, 2.0, 3.0], "float64")), x, create_graph=True
    )
    backend.close(g, np.sign(data) * [1.0, 2.0, 3.0], rtol=RTOL)
    assert not _requires_grad(backend, g)


@pytest.mark.parametrize("case", ["rows", "scalar"])
def test_a_product_of_one_factor_is_that_factor(backend, case):
    # d prod(x)/dx is 1 where the product has one factor: a constant of x
    xp = backend.xp
    if case == "rows":
        x = backend.leaf([[0.5, -2.0, 3.0]], "float64")
        w = backend.tensor([1.0, 2.0, 3.0], "float64")
        y, expected = xp.prod(x, axis=0) * w, [[1.0, 2.0, 3.0]]
    else:
        x = backend.leaf(0.7, "float64")
        y, expected = xp.prod(x, axis=None, keepdims=True) * 2.0, 2.0
    got = _grad_create_graph(backend, xp.sum(y), x)
    if got is not None:
        backend.close(got[0], expected, rtol=RTOL)
        assert not _requires_grad(backend, got[0])


# ---- E5: a value read inside a compiled step ----------------------------------------
def test_nonzero_inside_a_step_is_refused_where_the_step_compiles(backend):
    seen: list[object] = []

    @unigrad.jit
    def step(w):
        w = unigrad.watch(w)
        xp = unigrad.namespace(w)
        try:
            seen.append(backend.np(xp.nonzero(w * 2.0 > 1.0)[0]).tolist())
        except unigrad.CompiledStepError as err:
            seen.append(err)
        return xp.sum(w)

    step(backend.tensor([0.3, 0.9, 1.2], "float64"))
    if backend.caps.compiles_steps:
        assert isinstance(seen[0], unigrad.CompiledStepError)
        assert "read a value" in str(seen[0])
    else:
        assert seen == [[1, 2]]


def test_nonzero_of_a_mask_the_step_closes_over(backend):
    # a concrete mask has concrete indices, also through ops on it inside the step (jax
    # would stage the reshape and lose its values): the step knows their number
    mask = backend.tensor([[True, False], [True, True]], "bool")

    @unigrad.jit
    def step(w):
        w = unigrad.watch(w)
        xp = unigrad.namespace(w)
        idx = xp.nonzero(xp.reshape(mask, (-1,)))[0]
        picked = xp.take(xp.reshape(w, (-1,)), idx, axis=0)
        return unigrad.grad(xp.sum(picked * picked), w)[0]

    data = np.array([[0.5, 2.0], [-1.5, 3.0]])
    expected = 2 * data * np.array([[1.0, 0.0], [1.0, 1.0]])
    backend.close(step(backend.tensor(data, "float64")), expected, rtol=RTOL)


def test_complex_acosh_with_create_graph(backend):
    # the numpy tape's dependence trace boxed isfinite's masks ("ArrayBox & ArrayBox");
    # d acosh(z) = 1 / (sqrt(z - 1) sqrt(z + 1)), the gradient its conjugate (torch's
    # convention for a holomorphic function)
    xp = backend.xp
    data = np.array([1.0 + 1.0j, 2.0 - 1.0j, -0.5 + 0.7j])
    x = backend.leaf(data, "complex128")
    seed = backend.tensor(np.ones(3, complex), "complex128")
    try:
        (g,) = unigrad.grad(xp.acosh(x), x, grad_outputs=seed, create_graph=True)
    except unigrad.HigherOrderUnavailableError:
        assert backend.backend.name == "paddle"  # acosh's double-gradient kernel
        return
    expected = np.conj(1 / (np.sqrt(data - 1) * np.sqrt(data + 1)))
    backend.close(g, expected, rtol=RTOL)
    assert _requires_grad(backend, g)


# ---- floor_divide is piecewise constant: its result depends on nothing (rule 14) ------
def test_floor_divide_result_depends_on_nothing(backend):
    xp = backend.xp
    x = backend.leaf([1.5, 2.5], "float64")
    y = xp.floor_divide(x, 0.7)
    backend.close(y, np.floor_divide([1.5, 2.5], 0.7), rtol=RTOL)
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.grad(xp.sum(y), x)


def test_floor_divide_operator_result_depends_on_nothing(backend):
    # torch 2.13's // of a tensor that requires grad recorded a node whose backward
    # raised its raw "derivative for aten::floor_divide is not implemented"
    xp = backend.xp
    x = backend.leaf([1.5, 2.5], "float64")
    w = backend.leaf([0.5, 0.75], "float64")
    backend.close(3.0 // x, np.floor_divide(3.0, [1.5, 2.5]), rtol=RTOL)
    backend.close(x // w, np.floor_divide([1.5, 2.5], [0.5, 0.75]), rtol=RTOL)
    for y in (x // 0.7, 3.0 // x, x // w):
        with pytest.raises(unigrad.NotDifferentiableError):
            unigrad.grad(xp.sum(y), x)


# ---- pow at a zero base: 0 ** 0's derivative is 0 -------------------------------------
# jax 0.10.2's rule y * x**(y - 1) is 0 * inf = nan at x = 0, y = 0 (and at second order
# for y = 1); torch, paddle and autograd give 0 (paddle's x ** 0.0 was a constant: a
# gradient through it raised NotDifferentiableError). d/dx x**y = y x**(y - 1) (0 where y = 0),
# d2/dx2 = y (y - 1) x**(y - 2) (0 where y (y - 1) = 0), d/dy = x**y log x (0 at x = 0)
_XN = np.array([0.0, 0.0, 2.0, 0.5])
_EN = np.array([0.0, 2.0, 2.5, 0.0])


def test_pow_zero_base_tensor_exponent_gradient(backend):
    xp = backend.xp
    x = backend.leaf(_XN, "float64")
    e = backend.leaf(_EN, "float64")
    gx, ge = unigrad.grad(xp.sum(xp.pow(x, e)), [x, e])
    backend.close(gx, [0.0, 0.0, 2.5 * 2.0**1.5, 0.0], rtol=RTOL)
    backend.close(ge, [0.0, 0.0, 2.0**2.5 * np.log(2.0), np.log(0.5)], rtol=RTOL)
    (g0,) = unigrad.grad(xp.sum(xp.pow(x, 0.0)), x)  # a Python float exponent
    backend.close(g0, np.zeros(4), rtol=RTOL)


def test_pow_zero_base_tensor_exponent_second_derivative(backend):
    # torch 2.13's pow_backward masks y * x**(y - 1) with where(y == 0, 0, ...), whose
    # masked branch differentiates to 0 * inf = nan at x = 0, y = 0
    xp = backend.xp
    x = backend.leaf(_XN, "float64")
    e = backend.tensor(_EN, "float64")
    res = _grad_create_graph(backend, xp.sum(xp.pow(x, e)), x)
    if res is None:
        return
    (g,) = res
    backend.close(g, [0.0, 0.0, 2.5 * 2.0**1.5, 0.0], rtol=RTOL)
    (gg,) = unigrad.grad(xp.sum(g), x)
    # x = 0, y = 2 left out: paddle's tensor-exponent pow documents derivatives 0 at a
    # zero base (_paddle_ho._pow)
    backend.close(np.delete(backend.np(gg), 1), [0.0, 2.5 * 1.5 * 2.0**0.5, 0.0], rtol=RTOL)


def test_pow_mixed_second_derivative_at_a_zero_exponent(backend):
    # d/dy (y x**(y - 1)) = x**(y - 1) (1 + y log x): 1 / x at y = 0, x != 0. jax 0.10.2
    # (unigrad's custom_jvp masked y == 0 alone) gave 0 and autograd 1.9.1's rule
    # (y x ** where(y, y - 1, 1)) gave x there; at x = 0, y = 0 every backend gives 0
    xp = backend.xp
    xn, yn = np.array([2.0, 0.5, 0.0, 1.5]), np.array([0.0, 0.0, 0.0, 2.0])
    x = backend.leaf(xn, "float64")
    y = backend.leaf(yn, "float64")
    res = _grad_create_graph(backend, xp.sum(xp.pow(x, y)), x)
    if res is None:
        return
    (gx,) = res
    backend.close(gx, [0.0, 0.0, 0.0, 2.0 * 1.5], rtol=RTOL)
    (gxx, gxy) = unigrad.grad(xp.sum(gx), [x, y])
    backend.close(gxx, [0.0, 0.0, 0.0, 2.0], rtol=RTOL)
    want = np.array([1 / 2.0, 1 / 0.5, 0.0, 1.5 * (1 + 2.0 * np.log(1.5))])
    backend.close(gxy, want, rtol=RTOL)


def test_a_forward_value_survives_a_pass_that_consumes_the_node_a_result_carries(backend):
    # grad(create_graph=True, retain_graph=True) of out = x @ y, then backward of the
    # result d/dx = go @ y^T with retain_graph=False: rule 6 consumes the matmul node the
    # result carries; ``out``, which the caller still holds, keeps its value. On the
    # tapes the second run records out pending, and its value was lost (GraphFreedError
    # "a unigrad bug"; found by tests/upstream/test_paddle_double_grad.py on tensorflow)
    a = np.array([[1.0, -2.0], [0.5, 3.0]])
    b = np.array([[2.0, 0.25], [-1.0, 1.5]])
    for _ in range(2):  # the second run defers the forward on the tapes
        x, y = backend.leaf(a, "float64"), backend.leaf(b, "float64")
        go = backend.tensor(np.ones((2, 2)), "float64")
        out = backend.xp.matmul(x, y)
        gx, _ = unigrad.grad([out], [x, y], [go], retain_graph=True, create_graph=True)
        unigrad.backward(gx)
        np.testing.assert_allclose(unigrad.to_numpy(out), a @ b, rtol=RTOL)
        np.testing.assert_allclose(unigrad.to_numpy(gx), np.ones((2, 2)) @ b.T, rtol=RTOL)
