"""Regression tests for the tape classes that session 27's differential runs found
(issues 23 and 28): the numpy and jax tapes, their namespaces and the oracle.

Each test runs on all four backends (the ``backend`` fixture) and failed on the backend
named in its docstring before the fix. Tolerances are stated per test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pytest

import unigrad

if TYPE_CHECKING:
    from conftest import B


def _diff_matrix(n: int) -> np.ndarray:
    """``D`` with ``D @ v == np.diff(v)`` for a length-``n`` vector (shape (n-1, n))."""
    return np.diff(np.eye(n), axis=0)


def test_create_graph_through_diff_of_a_length_one_axis_keeps_its_dependence(
    backend: B,
) -> None:
    """``g = d(sum(diff(x)^2))/dx`` with ``create_graph=True`` depends on ``x`` whatever
    the sizes (rule 14 follows the graph). numpy tape: autograd 1.9.1's ``diff`` rule
    returns constant zeros for an empty difference, so ``g`` did not require grad on a
    length-1 axis, and the dependence learned there was cached for the structure: the
    next, non-empty call's ``g`` did not require grad either (seed 42, program 1530).
    Empty, non-empty, empty again. Tolerance: 1e-12 (float64, closed forms)."""
    xp = backend.xp
    c = np.array([[0.5, -1.25], [2.0, 0.75]])
    for cols in (1, 2, 1):
        xn = np.array([[0.84, 0.3], [0.49, -0.1]])[:, :cols]
        x = backend.leaf(xn, "float64")
        d = xp.diff(x, axis=-1)
        (g,) = unigrad.grad(xp.sum(d * d), x, create_graph=True)
        dm = _diff_matrix(cols)
        hess = 2.0 * dm.T @ dm  # of each row
        backend.close(g, xn @ hess, rtol=0, atol=1e-12)
        assert backend.requires_grad(g)
        (h,) = unigrad.grad(xp.sum(g * backend.tensor(c[:, :cols], "float64")), x)
        backend.close(h, c[:, :cols] @ hess, rtol=0, atol=1e-12)


def test_the_numpy_tape_keeps_no_dependence_learned_through_a_zero_size_value() -> None:
    """The numpy tape learns a ``create_graph`` gradient's dependence from autograd's
    trace, whose derivative rules may branch on emptiness; what a trace through a
    zero-size value learned held for those shapes only and was cached for the structure
    (issue 23, seed 42, program 1530). A trace through an empty slice keeps nothing; the
    same structure with non-empty values keeps its entry."""
    pytest.importorskip("autograd")
    from unigrad.tape._caches import CACHES

    def call(cols: int) -> None:
        x = unigrad.watch(np.ones((2, cols)))
        d = x[:, 1:]
        (g,) = unigrad.grad((d * d).sum() + (x * x).sum(), x, create_graph=True)
        assert unigrad.get_backend(unigrad.backend_of(g)).requires_grad(g)

    CACHES.dependences.clear()
    call(1)
    assert len(CACHES.dependences) == 0
    call(2)
    assert len(CACHES.dependences) == 1


def test_a_create_graph_gradient_has_the_same_bits_on_every_call_and_in_both_modes(
    backend: B,
) -> None:
    """Fast mode's guarantee (issue 28): the values are strict mode's, bitwise. numpy
    tape: the first call of a graph structure took its values from the dependence trace,
    where autograd boxes the arrays and ``y ** 2`` of a complex box is NumPy's ``power``
    (of a plain array, ``square``: other last bits); every later call, the fast-mode run
    of the differential tester among them, computed them plainly. Seed 42, program 2692
    (complex seeds); seed 27, program 8828 (float32, eigh and sort). Bitwise (0 ulps)."""
    from unigrad.tape._caches import CACHES

    xn = np.array([[-0.27, 1.11], [-0.75, -0.97], [-1.25, 1.37]])
    sn = np.array([[0.47 + 0.69j, 1.49 - 1.35j], [1.24 - 0.45j, -1.45 - 0.33j], [-0.8j, 0.2]])
    CACHES.clear()  # the first call of the structure, on the tapes

    def call() -> np.ndarray:
        x = backend.leaf(xn, "float64")
        v = x * backend.tensor(np.full(xn.shape, 1.0 + 0.5j), "complex128")
        y = v / (v * v + 1.0)
        (g,) = unigrad.grad(y, x, grad_outputs=backend.tensor(sn, "complex128"), create_graph=True)
        assert backend.requires_grad(g)
        return backend.np(g)

    first = call()
    with unigrad.checks("fast"):
        fast = call()
    again = call()
    np.testing.assert_array_equal(fast, first)
    np.testing.assert_array_equal(again, first)


def _fd_complex_gradient(f: Callable[[np.ndarray], float], z: np.ndarray) -> np.ndarray:
    """``dL/dRe z + i dL/dIm z`` (torch's convention for a real ``L``) by central
    differences (step 1e-6)."""
    eps = 1e-6
    out = np.zeros_like(z)
    for i in range(z.size):
        e = np.zeros_like(z)
        e.flat[i] = eps
        re = (f(z + e) - f(z - e)) / (2 * eps)
        im = (f(z + 1j * e) - f(z - 1j * e)) / (2 * eps)
        out.flat[i] = re + 1j * im
    return out


def test_complex_sign_has_the_derivative_of_z_over_its_modulus(backend: B) -> None:
    """Complex ``sign(z) = z / |z|`` has a derivative (torch's ``sgn``; only real ``sign``
    cuts, docs/semantics.md "Dependence"). jax and numpy tapes: jax 0.10's ``sign`` and
    autograd 1.9.1's have none for complex ``z``, so the gradient was zeros and a
    create_graph result through it did not require grad. First and second derivatives
    against central differences: tolerance 1e-6 absolute (step 1e-6, float64)."""
    xp = backend.xp
    zn = np.array([1.0 + 1.0j, -2.0 + 0.5j, 0.3 - 1.1j])
    wn = np.array([0.3 - 1.0j, 2.0 + 0.5j, -1.0 + 1.0j])

    def loss(z: np.ndarray) -> float:
        return float(np.sum(np.real(z / np.abs(z) * wn)))

    z = backend.leaf(zn, "complex128")
    s = xp.sign(z)
    backend.close(s, np.sign(zn), rtol=0, atol=1e-15)
    # (a seed of ones: the gradient of the sum of the real parts; paddle 3.3's real has
    # no double-gradient kernel)
    ones = backend.tensor(np.ones(3, complex), "complex128")
    w = backend.tensor(wn, "complex128")
    (g,) = unigrad.grad(s * w, z, grad_outputs=ones, create_graph=True)
    want = _fd_complex_gradient(loss, zn)
    backend.close(g, want, rtol=0, atol=1e-6)
    assert backend.requires_grad(g)
    if backend.name == "paddle":  # paddle 3.3's complex double-gradient kernels are wrong
        with pytest.raises(unigrad.HigherOrderUnavailableError):
            unigrad.grad(g * xp.conj(g), z, grad_outputs=ones)
        return
    (h,) = unigrad.grad(g * xp.conj(g), z, grad_outputs=ones)

    def second(zv: np.ndarray) -> float:
        gv = _fd_complex_gradient(loss, zv)
        return float(np.sum(np.abs(gv) ** 2))

    # (second differences of first differences: a looser step)
    eps = 1e-4
    want_h = np.zeros_like(zn)
    for i in range(3):
        e = np.zeros_like(zn)
        e[i] = eps
        want_h[i] = (second(zn + e) - second(zn - e)) / (2 * eps) + 1j * (
            second(zn + 1j * e) - second(zn - 1j * e)
        ) / (2 * eps)
    backend.close(h, want_h, rtol=0, atol=1e-5)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_the_gradient_of_a_2_norm_at_the_zero_vector_is_zero(backend: B, dtype: str) -> None:
    """torch's subgradient of the 2-norm (and the Frobenius norm) at zero is 0; the
    numpy tape and paddle (``sqrt(sum(|x|^2))`` in ``_common``) and the jax tape
    (jax 0.10's own norms) gave ``inf * 0 = NaN`` there. A zero row next to a non-zero
    one, whose gradient is ``x / |x|``. Tolerance: 1e-12 (float64, closed forms)."""
    xp = backend.xp
    xn = np.array([[0.0, 0.0, 0.0], [3.0, -4.0, 0.0]])
    x = backend.leaf(xn, dtype)
    n = xp.linalg.vector_norm(x, axis=-1)
    backend.close(n, [0.0, 5.0], rtol=0, atol=1e-12)
    (g,) = unigrad.grad(xp.sum(n), x)
    backend.close(g, [[0.0, 0.0, 0.0], [0.6, -0.8, 0.0]], rtol=0, atol=1e-12)
    m = backend.leaf(np.zeros((2, 2, 2)), dtype)
    (gm,) = unigrad.grad(xp.sum(xp.linalg.matrix_norm(m)), m)
    backend.close(gm, np.zeros((2, 2, 2)), rtol=0, atol=0)
    z = backend.leaf(np.zeros(3), dtype)
    (gz,) = unigrad.grad(xp.linalg.vector_norm(z), z)
    backend.close(gz, np.zeros(3), rtol=0, atol=0)


def test_programs_through_empty_arrays_are_judged(backend: B) -> None:
    """The differential oracle on empty arrays (seed 1, program 1371): its ``max`` of an
    empty array over a non-empty axis reshaped with -1 (NumPy's "cannot reshape array
    of size 0"), and a batched seed of an empty output was written as nested lists,
    which lose the trailing dimensions (``[[], []]`` for a (2, 0, 3) seed): the reference
    failed. Both now run, and every backend agrees with them."""
    from unigrad.conformance.differential._certify import check_program
    from unigrad.conformance.differential._program import Grad, Leaf, Op, Program, Seed

    program = Program(
        steps=(
            Leaf(name="x1", data=[1.33, -0.4, -0.51], dtype="float64", watched=True),
            Leaf(name="x2", data=[0.64, 0.97], dtype="float64", watched=True),
            Op(name="v3", op="min", args=("x1",), params=(("axis", (0,)), ("keepdims", True))),
            Op(name="v4", op="diff", args=("v3",), params=()),  # empty: (0,)
            Op(name="v5", op="meshgrid", args=("v4", "x2"), params=(("i", 0), ("indexing", "xy"))),
            Op(name="v6", op="max", args=("v5",), params=(("axis", 0), ("keepdims", True))),
            Grad(
                name="g7",
                outputs=("v6",),
                inputs=("x1", "x2"),
                seeds=(Seed(data=[[], []], dtype="float64", shape=(2, 1, 0)),),
                allow_unused=True,
                batched=True,
            ),
        )
    )
    assert "shape=(2, 1, 0)" in program.source(backend.name)
    assert check_program(program, [backend]) == []


def test_svdvals_has_a_gradient_at_repeated_singular_values(backend: B) -> None:
    """The derivative of the singular values is ``U diag(g) V^T``, which exists where two
    of them are equal (unique when their cotangents are equal too). numpy tape: autograd
    1.9.1 differentiated ``svd(x)[1]`` through its whole ``svd`` rule, whose
    ``1 / (s_j^2 - s_i^2)`` terms gave NaN there. ``A = Q diag(2, 2, 1) R^T`` with
    orthogonal ``Q``, ``R``; tolerance 1e-10 (float64, closed form)."""
    xp = backend.xp
    rng = np.random.default_rng(7)
    q = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    r = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    an = q @ np.diag([2.0, 2.0, 1.0]) @ r.T
    w = np.array([0.7, 0.7, -1.5])
    a = backend.leaf(an, "float64")
    s = xp.linalg.svdvals(a)
    backend.close(s, [2.0, 2.0, 1.0], rtol=0, atol=1e-12)
    (g,) = unigrad.grad(xp.sum(s * backend.tensor(w, "float64")), a)
    backend.close(g, q @ np.diag(w) @ r.T, rtol=0, atol=1e-10)


@pytest.mark.parametrize("name", ["vhp", "hvp"])
def test_vhp_and_hvp_of_complex_inputs_follow_torch(backend: B, name: str) -> None:
    """``unigrad.functional.vhp``/``hvp`` of a real function of complex inputs is torch's:
    the gradient of ``L = Re(sum(conj(v) * g))`` with ``g`` torch's gradient. jax and numpy
    (``jax.grad``, autograd's ``grad``: the conjugate of torch's gradient) gave the
    conjugate. ``f = sum(|z|^2 Re z)``: ``g = 3x^2 + y^2 + 2xy i``, so the answer is
    ``6x Re v + 2y Im v + (2y Re v + 2x Im v) i``. Tolerance: 1e-12 (complex128)."""
    import unigrad.functional as uf

    xp = backend.xp
    zn = np.array([0.5 + 0.3j, -1.0 + 0.2j])
    vn = np.array([1.0 - 0.5j, 0.25 + 1.0j])

    def f(z):
        return xp.sum(xp.real(z * z * xp.conj(z)))

    z, v = backend.tensor(zn, "complex128"), backend.tensor(vn, "complex128")
    if backend.name == "paddle":  # paddle 3.3: no double-gradient kernel for real
        with pytest.raises(unigrad.HigherOrderUnavailableError):
            getattr(uf, name)(f, z, v)
        return
    out, res = getattr(uf, name)(f, z, v)
    x, y, vr, vi = zn.real, zn.imag, vn.real, vn.imag
    backend.close(out, np.sum((x * x + y * y) * x), rtol=0, atol=1e-12)
    backend.close(res, 6 * x * vr + 2 * y * vi + 1j * (2 * y * vr + 2 * x * vi), rtol=0, atol=1e-12)


def test_a_create_graph_call_s_own_consumption_of_a_cut_s_nodes_does_not_count(backend: B) -> None:
    """Differential seed 93, program 610: a ``create_graph=True, retain_graph=False`` call
    with a cut ``v6 = v5[1:2]`` consumes the cut's nodes (rule 15a: the engines run them)
    as its own consumption, which is not *since* (rule 6b): a later pass through its result
    answers. The tapes and the oracle raised ``GraphFreedError``; torch and paddle answered.
    ``g = d sum(atan2(v6, v5)) / dx`` with ``v6`` held constant; the expected second
    derivative is the float64 central difference of ``sum(g)``. Tolerance: 1e-6."""
    xp = backend.xp
    x0 = np.array([0.39, 0.5])
    x = backend.leaf(x0)
    v5 = xp.tanh(x * 1.0)
    v6 = v5[1:2]
    (g,) = unigrad.grad(
        xp.sum(xp.atan2(v6, v5)), x, retain_graph=False, create_graph=True, no_grad_vars=[v6]
    )
    (d,) = unigrad.grad(xp.sum(g), x)

    def sum_g(xv: np.ndarray) -> float:
        t = np.tanh(xv)
        return float(np.sum(-t[1] / (t * t + t[1] ** 2) * (1.0 - t * t)))

    eps = 1e-6
    want = [(sum_g(x0 + eps * e) - sum_g(x0 - eps * e)) / (2 * eps) for e in np.eye(2)]
    backend.close(d, want, rtol=1e-6, atol=1e-6)


def test_a_create_graph_gradient_of_a_broadcast_pow_exponent_has_its_shape(backend: B) -> None:
    """numpy tape: ``x`` of shape (2, 1), ``y`` of shape (2,): the second pass's gradient
    for ``y`` through ``pow(x, y)``'s ``create_graph`` gradients had shape (2, 2) (the
    broadcast shape, not reduced back); torch, paddle and jax gave (2,). The expected
    numbers are float64 central differences of ``sum(gx)`` (``gx = sum_j y_j x_i^(y_j-1)``).
    Tolerance: 1e-6."""
    xp = backend.xp
    xn = np.array([[0.7], [1.3]])
    yn = np.array([1.5, 2.5])
    x, y = backend.leaf(xn), backend.leaf(yn)
    gx, gy = unigrad.grad(xp.sum(xp.pow(x, y)), [x, y], create_graph=True)
    assert tuple(gx.shape) == (2, 1)
    assert tuple(gy.shape) == (2,)
    dx, dy = unigrad.grad(xp.sum(gx), [x, y])
    assert tuple(dx.shape) == (2, 1)
    assert tuple(dy.shape) == (2,)

    def sum_gx(xv: np.ndarray, yv: np.ndarray) -> float:
        return float(np.sum(yv * xv ** (yv - 1.0)))

    eps = 1e-6
    want_x = [
        (sum_gx(xn + eps * e.reshape(2, 1), yn) - sum_gx(xn - eps * e.reshape(2, 1), yn))
        / (2 * eps)
        for e in np.eye(2)
    ]
    want_y = [(sum_gx(xn, yn + eps * e) - sum_gx(xn, yn - eps * e)) / (2 * eps) for e in np.eye(2)]
    backend.close(dx, np.reshape(want_x, (2, 1)), rtol=1e-6, atol=1e-6)
    backend.close(dy, want_y, rtol=1e-6, atol=1e-6)


def test_create_graph_through_take_of_no_index_keeps_its_dependence(backend: B) -> None:
    """jax tape: ``jnp.take`` of a zero-size index is a constant zero array in jax 0.10.2
    (``lax.full_like``), so ``take(x, [])`` lost its dependence on ``x`` and the
    ``create_graph`` gradient of ``abs(take(x, []))`` came back unused (None) or not
    requiring grad; torch, paddle and the numpy tape keep the dependence (rule 14
    follows the graph, whatever the sizes: differential seed 7, programs 1 and 51).
    A complex leaf (abs's gradient ``z/|z|`` depends on ``z``), the index from
    ``nonzero`` of a false mask, 1-d and along axes 0 and 1 of a 2-d leaf (paddle 3.3.1's
    ``x[:, empty]`` swapped the axes, (3, 0) for (2, 0)). The gradient is exactly 0
    (nothing taken): tolerance 0."""
    xp = backend.xp
    for shape, axis in (((1,), 0), ((2, 3), 0), ((2, 3), 1)):
        xn = (np.arange(np.prod(shape)).reshape(shape) + 1.0) * (0.5 - 0.25j)
        x = backend.leaf(xn, "complex128")
        idx = xp.nonzero(xp.reshape(backend.tensor([False], "bool"), (-1,)))[0]
        y = xp.abs(xp.take(x, idx, axis=axis))
        assert tuple(y.shape) == (*shape[:axis], 0, *shape[axis + 1 :])
        (g,) = unigrad.grad([y], [x], create_graph=True, allow_unused=True)
        assert g is not None
        assert backend.requires_grad(g)
        assert tuple(g.shape) == shape
        backend.close(g, np.zeros(shape, complex), rtol=0, atol=0)


@pytest.mark.parametrize("how", ["grad", "create_graph", "unigrad.jit"])
def test_an_fft_of_a_function_of_an_inverse_has_a_gradient(backend: B, how: str) -> None:
    """``d sum(real(fftn(acos(inv(A)))))/dA`` of a complex ``A``, also as one
    `unigrad.jit` step. jax tape: XLA's CPU backend (jaxlib 0.10.2) compiled the
    gradient with a column-major FFT operand, and its runtime check failed when the
    result was read (a raw ``JaxRuntimeError``, ``fft_thunk.cc`` RET_CHECK; differential
    seed 9985, program 953): jax dispatches asynchronously, so the error came after the
    tape's fallback had returned; a compiled step had no fallback. Against central
    differences: tolerance 1e-6 absolute (step 1e-6, complex128)."""
    xp = backend.xp
    an = np.array([[0.9 + 1.48j, -0.78 - 0.55j], [0.95 - 1.26j, 0.78 + 0.43j]])

    def loss(a: np.ndarray) -> float:
        return float(np.sum(np.real(np.fft.fftn(np.arccos(np.linalg.inv(a))))))

    def gradient(a: object, create_graph: bool) -> object:
        y = xp.sum(xp.real(xp.fft.fftn(xp.acos(xp.linalg.inv(a)))))
        return unigrad.grad(y, a, create_graph=create_graph)[0]

    want = _fd_complex_gradient(loss, an)
    if how == "unigrad.jit":
        step = unigrad.jit(lambda t: gradient(unigrad.watch(t), False))
        for _ in range(2):  # (compiled once, then the cached step)
            backend.close(step(backend.tensor(an, "complex128")), want, rtol=0, atol=1e-6)
        return
    a = backend.leaf(an, "complex128")
    if how == "create_graph" and backend.name == "paddle":  # (rule 7: paddle 3.3's
        with pytest.raises(unigrad.HigherOrderUnavailableError):  # complex double grads)
            gradient(a, True)
        return
    backend.close(gradient(a, how == "create_graph"), want, rtol=0, atol=1e-6)
