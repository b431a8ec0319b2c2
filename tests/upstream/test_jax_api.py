"""JAX's autodiff API tests (``tests/api_test.py``, class ``APITest``), replayed through
unigrad on every backend.

Source: jax-ml/jax ``tests/api_test.py`` at cec06d116c05f0d52adfceee3d3b730fdbcb0ce5
(https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/tests/api_test.py).

``jax.grad(f)(x)`` is ``unigrad.grad(f(x), x)`` on a watched ``x`` (``argnums`` are the
order of ``inputs``), ``value_and_grad`` keeps ``f(x)`` too, ``jacrev``/``jacfwd`` are
``unigrad.jacobian`` (reverse mode; ``unigrad.functional.jacobian`` with
``strategy="forward-mode"`` where upstream compares the two modes), ``hessian`` is
``unigrad.hessian``, ``jvp`` is ``unigrad.functional.jvp`` and ``vjp(f, x)[1](v)`` is
``unigrad.grad(f(x), x, v)``. ``jnp.X`` is the namespace's ``X`` (``torch.X`` /
``paddle.X`` where upstream's op is a framework function, see ``_native.py``). Where
unigrad's contract (docs/semantics.md) decides differently from jax (complex gradients
follow torch's convention, §3.2; ``None`` seeds mean ones for outputs of any shape,
rule 3; integer inputs are not differentiable, rule 10), the test names the rule and
asserts unigrad's answer.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from _native import matmul, native

import unigrad
from unigrad import functional as F

RTOL = 1e-12


def arr(backend, data, dtype="float64"):
    """A plain array of the backend's framework (for ``unigrad.functional``)."""
    a = np.asarray(data, dtype=dtype)
    if backend.name == "torch":
        return importlib.import_module("torch").from_numpy(a.copy())
    if backend.name == "paddle":
        return importlib.import_module("paddle").to_tensor(a)
    if backend.name == "jax":
        return importlib.import_module("jax.numpy").asarray(a)
    if backend.name == "tensorflow":
        return importlib.import_module("tensorflow").constant(a)
    return a


def rand(*shape, seed=0):
    return np.random.RandomState(seed).randn(*shape)


def test_grad_item(backend) -> None:
    """api_test.py::APITest::test_grad_item (Python control flow on ``x.astype(bool).item()``)."""
    xp = backend.xp
    x = backend.leaf(2.0, "float64")
    y = x**2 if xp.astype(x, xp.bool).item() else x
    backend.close(unigrad.grad(y, x)[0], 4.0, rtol=0)


def test_grad_argnums(backend) -> None:
    """api_test.py::APITest::test_grad_argnums."""

    def f(x, y, z, flag=False):
        assert flag
        return 1.0 * x + 2.0 * y + 3.0 * z

    x, y, z = (backend.leaf(1.0, "float64") for _ in range(3))
    backend.close(unigrad.grad(f(x, y, z, flag=True), x)[0], 1.0, rtol=0)
    backend.close(unigrad.grad(f(x, y, z, flag=True), y)[0], 2.0, rtol=0)
    g = unigrad.grad(f(x, y, z, flag=True), (z, x))
    assert isinstance(g, tuple)
    backend.close(g[0], 3.0, rtol=0)
    backend.close(g[1], 1.0, rtol=0)


def test_value_and_grad_argnums(backend) -> None:
    """api_test.py::APITest::test_value_and_grad_argnums."""

    def f(x, y, z, flag=False):
        assert flag
        return 1.0 * x + 2.0 * y + 3.0 * z

    x, y, z = (backend.leaf(1.0, "float64") for _ in range(3))
    for argnums, expected in ((x, (1.0,)), (y, (2.0,)), ((z, x), (3.0, 1.0))):
        value = f(x, y, z, flag=True)
        grads = unigrad.grad(value, argnums)
        backend.close(value, 6.0, rtol=0)
        for g, e in zip(grads, expected, strict=True):
            backend.close(g, e, rtol=0)


def test_grad_of_jit(backend) -> None:
    """api_test.py::APITest::test_grad_of_jit (the jitted f is ``unigrad.lift(f)``: one
    compiled step on jax, f itself elsewhere; the gradients, not the trace count)."""
    f = unigrad.lift(lambda x: x * x)
    for v, e in ((1.0, 2.0), (2.0, 4.0)):
        x = backend.leaf(v, "float64")
        backend.close(unigrad.grad(f(x), x)[0], e, rtol=0)


def test_grad_tuple_output(backend) -> None:
    """api_test.py::APITest::test_grad_tuple_output.

    jax raises TypeError ("Gradient only defined for scalar-output functions"); rule 1:
    a sequence of outputs is accepted, each seeded with ones (rule 3): (x, x) gives 2.
    """
    x = backend.leaf(1.0, "float64")
    backend.close(unigrad.grad((x, x), x)[0], 2.0, rtol=0)


def test_grad_unit_output(backend) -> None:
    """api_test.py::APITest::test_grad_unit_output (no outputs: GradArgumentError, rule 1,
    a TypeError as jax's)."""
    x = backend.leaf(np.zeros(3), "float64")
    with pytest.raises(unigrad.GradArgumentError) as e:
        unigrad.grad((), x)
    assert isinstance(e.value, TypeError)


def test_grad_nonscalar_output(backend) -> None:
    """api_test.py::APITest::test_grad_nonscalar_output.

    jax raises TypeError for a non-scalar output; rule 3 decides: a ``None`` seed means
    ones for a real output of any shape, so the gradient of x is ones.
    """
    x = backend.leaf(np.zeros(3), "float64")
    np.testing.assert_array_equal(backend.np(unigrad.grad(x * 1.0, x)[0]), np.ones(3))


def test_grad_nonscalar_output_hint(backend) -> None:
    """api_test.py::APITest::test_grad_nonscalar_output_hint (``jnp.array([x ** 2])`` is a
    shape-(1,) output; rule 3: a ones seed, so 2x)."""
    x = backend.leaf(1.0, "float64")
    y = backend.xp.reshape(x**2, (1,))
    backend.close(unigrad.grad(y, x)[0], 2.0, rtol=0)


def test_jacobian(backend) -> None:
    """api_test.py::APITest::test_jacobian (jacfwd and jacrev of A @ x are A; of tanh(A @ x)
    they agree)."""
    rng = np.random.RandomState(0)
    an, xn = rng.randn(4, 3), rng.randn(3)
    a = backend.tensor(an, "float64")
    x = backend.leaf(xn, "float64")
    backend.close(unigrad.jacobian(matmul(backend)(a, x), x), an, rtol=RTOL)
    pa, px = arr(backend, an), arr(backend, xn)
    fwd = F.jacobian(lambda t: matmul(backend)(pa, t), px, vectorize=True, strategy="forward-mode")
    backend.close(fwd, an, rtol=RTOL)
    tanh = native(backend, "tanh")
    rev = unigrad.jacobian(tanh(matmul(backend)(a, x)), x)
    fwd = F.jacobian(
        lambda t: tanh(matmul(backend)(pa, t)), px, vectorize=True, strategy="forward-mode"
    )
    backend.close(rev, backend.np(fwd), rtol=1e-12)
    backend.close(rev, (1 - np.tanh(an @ xn) ** 2)[:, None] * an, rtol=1e-12)


def test_hessian(backend) -> None:
    """api_test.py::APITest::test_hessian (x . A x has the Hessian A + A.T)."""
    rng = np.random.RandomState(0)
    an, xn = rng.randn(4, 4), rng.randn(4)
    a, x = backend.tensor(an, "float64"), backend.leaf(xn, "float64")
    mm = matmul(backend)
    backend.close(unigrad.hessian(mm(x, mm(a, x)), x), an + an.T, rtol=1e-12)


def test_hessian_holomorphic(backend) -> None:
    """api_test.py::APITest::test_hessian_holomorphic.

    jax's ``hessian(f, holomorphic=True)`` of the complex x . A x is A + A.T. unigrad has no
    holomorphic mode: ``unigrad.hessian`` wants a real scalar y (NotDifferentiableError
    for a complex one), and a complex output needs an explicit seed (rule 3). Seeded with
    1, the torch convention (§3.2) gives g = conj(f'(x)),
    and the Jacobian of g with real seeds is conj(A + A.T) = A + A.T (A is real); paddle's
    complex second derivatives are refused (HigherOrderUnavailableError, as
    tests/test_any_program.py::test_complex_second_derivatives states).
    """
    rng = np.random.RandomState(0)
    an = rng.randn(4, 4)
    xn = rng.randn(4) * (1 + 2j)
    a, x = backend.tensor(an, "complex128"), backend.leaf(xn, "complex128")
    mm = matmul(backend)
    y = mm(x, mm(a, x))
    with pytest.raises(unigrad.NotDifferentiableError, match="real"):
        unigrad.hessian(y, x)
    (g,) = unigrad.grad(y, x, backend.tensor(1.0, "complex128"), create_graph=True)
    backend.close(g, np.conj((an + an.T) @ xn), rtol=1e-12)
    if backend.name == "paddle":  # its complex second derivatives are wrong: refused
        with pytest.raises(unigrad.HigherOrderUnavailableError, match="complex"):
            unigrad.grad(g, x, backend.tensor(np.eye(4)[0], "complex128"))
        return
    rows = [
        unigrad.grad(g, x, backend.tensor(np.eye(4)[i], "complex128"), retain_graph=True)[0]
        for i in range(4)
    ]
    backend.close(np.stack([backend.np(r) for r in rows]), an + an.T, rtol=1e-12, atol=1e-12)


def test_hessian_aux(backend) -> None:
    """api_test.py::APITest::test_hessian_aux (the Hessian and the auxiliary x)."""
    rng = np.random.RandomState(0)
    an, xn = rng.randn(4, 4), rng.randn(4)
    a, x = backend.tensor(an, "float64"), backend.leaf(xn, "float64")
    mm = matmul(backend)
    h, aux = unigrad.hessian(mm(x, mm(a, x)), x), x
    backend.close(h, an + an.T, rtol=1e-12)
    backend.close(aux, xn, rtol=0)


def test_jacobian_on_pytrees(backend) -> None:
    """api_test.py::APITest::test_jacobian_on_pytrees (jacrev; ``jnp.outer`` as a broadcast
    product)."""
    x, y = backend.leaf(0.0, "float64"), backend.leaf(1.0, "float64")
    ans = unigrad.jacobian((x, y), x)
    backend.close(ans[0], 1.0, rtol=0)
    backend.close(ans[1], 0.0, rtol=0)
    ans = unigrad.jacobian((x, y), y)
    backend.close(ans[0], 0.0, rtol=0)
    backend.close(ans[1], 1.0, rtol=0)
    ans = unigrad.jacobian((x, y), (x, y))
    for i in range(2):
        for j in range(2):
            backend.close(ans[i][j], float(i == j), rtol=0)
    t = backend.leaf([1.0, 2.0, 3.0], "float64")
    backend.close(unigrad.jacobian(t[:2], t), [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], rtol=0)
    rng = np.random.RandomState(0)
    xn, yn = rng.randn(2), rng.randn(3)
    x, y = backend.leaf(xn, "float64"), backend.leaf(yn, "float64")
    out = (x, backend.xp.reshape(x, (2, 1)) * backend.xp.reshape(y, (1, 3)))
    jx, jxy = unigrad.jacobian(out, x)
    backend.close(jx, np.eye(2), rtol=0)
    backend.close(jxy, np.kron(np.eye(2), yn[:, None]).reshape(2, 3, 2), rtol=1e-12)


def test_hessian_on_pytrees(backend) -> None:
    """api_test.py::APITest::test_hessian_on_pytrees (hessian of ``jnp.array(x) ** 2`` for
    x = (1., 2.), a vector output: the Jacobian of its Jacobian, per output)."""
    a, b = backend.leaf(1.0, "float64"), backend.leaf(2.0, "float64")
    v = backend.xp.stack([a, b]) ** 2
    ja, jb = unigrad.jacobian(v, (a, b), create_graph=True)
    h = unigrad.jacobian((ja, jb), (a, b))
    expected = (
        (np.array([2.0, 0.0]), np.array([0.0, 0.0])),
        (np.array([0.0, 0.0]), np.array([0.0, 2.0])),
    )
    for i in range(2):
        for j in range(2):
            backend.close(h[i][j], expected[i][j], rtol=0)


def test_issue1372(backend) -> None:
    """api_test.py::APITest::test_issue1372 (the shapes of the Hessian blocks of
    quad(x) + quad(u): (5, 5), (2, 2), (2, 5), (5, 2); jacrev/jacfwd nestings are all
    unigrad.hessian here)."""
    x, u = backend.leaf(np.ones(5), "float64"), backend.leaf(np.ones(2), "float64")
    mm = matmul(backend)
    (hxx, hxu), (hux, huu) = unigrad.hessian(mm(x, x) + mm(u, u), (x, u))
    assert backend.shape(hxx) == (5, 5)
    assert backend.shape(huu) == (2, 2)
    assert backend.shape(hux) == (2, 5)
    assert backend.shape(hxu) == (5, 2)
    backend.close(hxx, 2 * np.eye(5), rtol=0)
    backend.close(hxu, np.zeros((5, 2)), rtol=0)


def test_grad_and_aux_basic(backend) -> None:
    """api_test.py::APITest::test_grad_and_aux_basic."""
    x = backend.leaf(3.0, "float64")
    g, aux = unigrad.grad(x**3, x)[0], [x**2]
    backend.close(g, 27.0, rtol=RTOL)
    backend.close(aux[0], 9.0, rtol=RTOL)


def test_grad_and_aux_nested(backend) -> None:
    """api_test.py::APITest::test_grad_and_aux_nested (f returns the inner grad's aux x**3;
    then x**3 * sin(x))."""
    x = backend.leaf(4.0, "float64")
    inner = backend.leaf(4.0, "float64")
    unigrad.grad(inner**3, inner)  # the inner grad, its aux is x**3 of the outer x
    backend.close(unigrad.grad(x**3, x)[0], 48.0, rtol=RTOL)
    y = x**3 * native(backend, "sin")(x)
    backend.close(unigrad.grad(y, x)[0], 3 * 16 * np.sin(4.0) + 64 * np.cos(4.0), rtol=1e-12)


def test_grad_and_aux_constant(backend) -> None:
    """api_test.py::APITest::test_grad_and_aux_constant."""
    x = backend.leaf(4.0, "float64")
    g, aux = unigrad.grad(x**3, x, retain_graph=True)[0], [4.0]
    backend.close(g, 48.0, rtol=RTOL)
    assert aux == [4.0]
    g, aux = unigrad.grad(x**3, x)[0], [x**2, 4.0]
    backend.close(g, 48.0, rtol=RTOL)
    backend.close(aux[0], 16.0, rtol=0)


@pytest.mark.parametrize("mode", ["jacfwd", "jacrev"])
def test_jac_and_aux_basic(backend, mode) -> None:
    """api_test.py::APITest::test_jacfwd_and_aux_basic and test_jacrev_and_aux_basic (the
    Jacobian of x**3 at 3: 27; aux [9])."""
    if mode == "jacrev":
        x = backend.leaf(3.0, "float64")
        jac, aux = unigrad.jacobian(x**3, x), [x**2]
    else:
        px = arr(backend, 3.0)
        jac = F.jacobian(lambda t: t**3, px, vectorize=True, strategy="forward-mode")
        aux = [px**2]
    backend.close(jac, 27.0, rtol=RTOL)
    backend.close(aux[0], 9.0, rtol=0)


def test_jvp_and_aux_basic(backend) -> None:
    """api_test.py::APITest::test_jvp_and_aux_basic (jvp of x**3 at 3 along 4: (27, 108))."""
    primals, tangents = F.jvp(lambda t: t**3, arr(backend, 3.0), arr(backend, 4.0))
    backend.close(primals, 27.0, rtol=RTOL)
    backend.close(tangents, 108.0, rtol=RTOL)


def test_jvp_mismatched_arguments(backend) -> None:
    """api_test.py::APITest::test_jvp_mismatched_arguments (different primal and tangent
    shapes: torch.autograd.functional.jvp's rule, a RuntimeError, here GradOutputsError)."""
    fun = lambda t: t + 1  # noqa: E731
    for p, t in (
        ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0, 4.0]),
        (10.0, [1.0, 2.0, 3.0]),
        ([1.0, 2.0, 3.0], 20.0),
    ):
        with pytest.raises(unigrad.GradOutputsError):
            F.jvp(fun, arr(backend, p), arr(backend, t))


def test_vjp_mismatched_arguments(backend) -> None:
    """api_test.py::APITest::test_vjp_mismatched_arguments.

    Two cotangents for one output: rule 2, GradOutputsError. A float16 cotangent: jax
    raises; rule 5 casts real seeds to the output's dtype, so it answers.
    """
    x, y = backend.leaf(3.0, "float32"), backend.leaf(4.0, "float32")
    out = x * y
    with pytest.raises(unigrad.GradOutputsError):
        unigrad.grad([out], [x, y], [backend.tensor(7.0), backend.tensor(100.0)], retain_graph=True)
    gx, gy = unigrad.grad([out], [x, y], [backend.tensor(42.0, "float16")])
    backend.close(gx, 168.0, rtol=0)
    backend.close(gy, 126.0, rtol=0)
    assert backend.dtype(gx) == "float32"


def test_vjp_bad_cotangent_shape(backend) -> None:
    """api_test.py::APITest::test_vjp_bad_cotangent_shape (a (2, 4) cotangent for a (2, 3)
    output: rule 4, GradOutputsError, a ValueError as jax's)."""
    x, y = backend.leaf(np.ones((2, 5)), "float32"), backend.leaf(np.ones((5, 3)), "float32")
    res = matmul(backend)(x, y)
    with pytest.raises(unigrad.GradOutputsError) as e:
        unigrad.grad(res, [x, y], backend.ones((2, 4)))
    assert isinstance(e.value, ValueError)


def test_vjp_too_many_args(backend) -> None:
    """api_test.py::APITest::test_vjp_too_many_args (f(x) = (x, x); jax's pullback called with
    two arguments is a TypeError; unigrad takes one seed per output: three seeds for two
    outputs is GradOutputsError (rule 2), two seeds answer 2)."""
    x = backend.leaf(1.0, "float64")
    one = backend.tensor(1.0, "float64")
    with pytest.raises(unigrad.GradOutputsError):
        unigrad.grad((x, x), x, [one, one, one], retain_graph=True)
    backend.close(unigrad.grad((x, x), x, [one, one])[0], 2.0, rtol=0)


def test_complex_grad_raises_error(backend) -> None:
    """api_test.py::APITest::test_complex_grad_raises_error (a complex output without a seed:
    rule 3, GradOutputsError, where jax raises TypeError)."""
    x = backend.leaf(1 + 2j, "complex128")
    with pytest.raises(unigrad.GradOutputsError):
        unigrad.grad(native(backend, "sin")(x), x)


def test_holomorphic_grad(backend) -> None:
    """api_test.py::APITest::test_holomorphic_grad (jax: cos(1+2j) = 2.0327230070196656 -
    3.0518977991518j; §3.2, torch's convention with seed 1: its conjugate)."""
    x = backend.leaf(1 + 2j, "complex128")
    (g,) = unigrad.grad(native(backend, "sin")(x), x, backend.tensor(1.0, "complex128"))
    backend.close(g, np.conj(2.0327230070196656 - 3.0518977991518j), rtol=1e-12)


def test_nonholomorphic_grad(backend) -> None:
    """api_test.py::APITest::test_nonholomorphic_grad (sum(cos(|z|)): jax's numbers
    conjugated, §3.2; upstream's tolerance, jtu.default_gradient_tolerance, 1e-5 here)."""
    zs = 0.5j * np.arange(5) + np.arange(5)
    z = backend.leaf(zs, "complex128")
    xp = backend.xp
    y = xp.sum(native(backend, "cos")(xp.abs(z)))
    jax_expected = np.array(
        [
            0.0 + 0.0j,
            -0.80430663 + 0.40215331j,
            -0.70368982 + 0.35184491j,
            0.1886467 - 0.09432335j,
            0.86873727 - 0.43436864j,
        ]
    )
    backend.close(unigrad.grad(y, z)[0], np.conj(jax_expected), rtol=1e-5, atol=1e-5)


def test_complex_output_jacrev_raises_error(backend) -> None:
    """api_test.py::APITest::test_complex_output_jacrev_raises_error (the Jacobian of a
    complex output: unigrad.jacobian seeds it with real basis vectors, which rule 5 casts;
    §3.2 gives seed * conj(f'(z)): conj(cos(1+2j)), where jax raises TypeError)."""
    x = backend.leaf(1 + 2j, "complex128")
    jac = unigrad.jacobian(native(backend, "sin")(x), x)
    backend.close(jac, np.conj(np.cos(1 + 2j)), rtol=1e-12)


def test_nonholomorphic_jacrev(backend) -> None:
    """api_test.py::APITest::test_nonholomorphic_jacrev (cos(norm(2z)): jacrev == grad)."""
    zs = 0.5j * np.arange(5) + np.arange(5)
    xp = backend.xp
    z = backend.leaf(zs, "complex128")
    y = native(backend, "cos")(xp.linalg.vector_norm(2 * z))
    jac = unigrad.jacobian(y, z, create_graph=False)
    z2 = backend.leaf(zs, "complex128")
    (g,) = unigrad.grad(native(backend, "cos")(xp.linalg.vector_norm(2 * z2)), z2)
    backend.close(jac, backend.np(g), rtol=1e-12)
    r = np.linalg.norm(2 * zs)
    backend.close(g, -np.sin(r) * 4 * zs / r, rtol=1e-12)


def test_heterogeneous_grad(backend) -> None:
    """api_test.py::APITest::test_heterogeneous_grad (|x|^2 + y at x = 1+1j, y = 2: jax
    gives (2-2j, 1); §3.2, torch's convention: (2+2j, 1), dtypes kept)."""
    x, y = backend.leaf(1.0 + 1j, "complex128"), backend.leaf(2.0, "float64")
    xp = backend.xp
    gx, gy = unigrad.grad(xp.square(xp.abs(x)) + y, (x, y))
    backend.close(gx, 2 + 2j, rtol=RTOL)
    backend.close(gy, 1.0, rtol=0)
    assert backend.dtype(gx) == "complex128"
    assert backend.dtype(gy) == "float64"


def test_grad_of_int_errors(backend) -> None:
    """api_test.py::APITest::test_grad_of_int_errors (an integer input: rule 10,
    NotDifferentiableError, a TypeError as jax's)."""
    with pytest.raises(unigrad.NotDifferentiableError) as e:
        unigrad.watch(backend.tensor(3, "int64"))
    assert isinstance(e.value, TypeError)


def test_grad_of_int(backend) -> None:
    """api_test.py::APITest::test_grad_of_int (``allow_int=True`` gives jax a float0 zero;
    unigrad has no integer gradients: rule 10, an integer tensor cannot be watched and,
    unwatched, is not differentiable)."""
    i = backend.tensor(1, "int64")
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.watch(i)
    # TensorFlow's own + refuses int64 + float (no promotion): cast there instead
    y = backend.xp.astype(i, backend.xp.float64) if backend.name == "tensorflow" else i + 0.0
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.grad(y, i)


def test_grad_of_int_index(backend) -> None:
    """api_test.py::APITest::test_grad_of_int_index (x[i] with an integer i: grad_x = [0, 1];
    the index is no differentiable input, rule 10)."""
    x = backend.leaf(np.ones(2), "float64")
    (gx,) = unigrad.grad(x[1], x)
    np.testing.assert_array_equal(backend.np(gx), [0.0, 1.0])


def test_vjp_of_int_index(backend) -> None:
    """api_test.py::APITest::test_vjp_of_int_index (primal 2, tangent_x [0, 1])."""
    x = backend.leaf(np.ones(2) * 2, "float64")
    primal = x[1]
    backend.close(primal, 2.0, rtol=0)
    (gx,) = unigrad.grad(primal, x, backend.tensor(1.0, "float64"))
    np.testing.assert_array_equal(backend.np(gx), [0.0, 1.0])


def test_grad_complex_result_errors(backend) -> None:
    """api_test.py::APITest::test_grad_complex_result_errors (x**2 + 1j: a complex output
    without a seed, rule 3, GradOutputsError)."""
    x = backend.leaf(3.0, "complex128")
    with pytest.raises(unigrad.GradOutputsError):
        unigrad.grad(x**2 + 1j, x)


def test_jvp_of_convert_element_type(backend) -> None:
    """api_test.py::APITest::test_jvp_of_convert_element_type (x.astype(int32) + 1 at 2:
    primal 3; jax's tangent is a float0 zero. An integer result does not depend on x
    (issue 23's Decision: integer casts cut dependence), so it is not differentiable,
    rule 10)."""
    xp = backend.xp
    x = backend.leaf(2.0, "float64")
    out = xp.astype(x, xp.int32) + 1
    assert int(backend.np(out)) == 3
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.grad(out, x)


def test_vjp_of_int_fulllike(backend) -> None:
    """api_test.py::APITest::test_vjp_of_int_fulllike (lax.full_like(zeros((2, 2)), 1): ones;
    jax's tangent for x is zeros. Issue 23's Decision: a constant-creating op cuts
    dependence, so the output does not require grad: NotDifferentiableError, rule 10)."""
    x = backend.leaf(np.zeros((2, 2)), "float64")
    out = backend.xp.full_like(x, 1.0)
    np.testing.assert_array_equal(backend.np(out), np.ones((2, 2)))
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.grad(out, x, out)


def test_grad_of_bool(backend) -> None:
    """api_test.py::APITest::test_grad_of_bool (a bool input: rule 10)."""
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.watch(backend.tensor(True, "bool"))
