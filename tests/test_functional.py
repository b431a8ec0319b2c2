"""unigrad.functional: torch.autograd.functional's API on every backend."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import unigrad
from unigrad import functional as F


def arr(backend, data, dtype="float32"):
    """A plain array of the backend's framework (never a tape tensor)."""
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


def ns(backend, x):
    """The namespace to write the differentiated functions with."""
    return unigrad.namespace(x)


def test_vjp_torch_doc_adder(backend):
    # torch.autograd.functional.vjp doc (anchors §3 item 2)
    x, y = arr(backend, [0.3, 0.7]), arr(backend, [0.1, 0.9])
    out, res = F.vjp(lambda a, b: 2 * a + 3 * b, (x, y), v=arr(backend, [1.0, 1.0]))
    backend.close(out, [0.9, 4.1])
    assert isinstance(res, tuple)
    assert len(res) == 2
    backend.close(res[0], [2.0, 2.0])
    backend.close(res[1], [3.0, 3.0])


def test_vjp_structures(backend):
    x = arr(backend, [1.0, 2.0])
    xp = ns(backend, x)
    out, res = F.vjp(lambda a: xp.sum(a * a), x)  # single-element output: v optional
    assert not isinstance(res, tuple)
    backend.close(out, 5.0)
    backend.close(res, [2.0, 4.0])
    out, res = F.vjp(lambda a: (xp.sum(a),), x, v=(arr(backend, 1.0),))
    assert isinstance(out, tuple)
    assert not isinstance(res, tuple)
    out, res = F.vjp(lambda a: a * a, [x], v=x)  # a list of inputs reads as a tuple
    assert isinstance(res, tuple)
    assert len(res) == 1


def test_torch_func_vjp_doc(backend):
    # torch.func.vjp doc (anchors §3 item 7): cotangents (1, 1) give cos x - sin x
    x = arr(backend, [0.1, 0.5, 1.2])
    xp = ns(backend, x)
    ones = arr(backend, [1.0, 1.0, 1.0])
    (s, _c), g = F.vjp(lambda a: (xp.sin(a), xp.cos(a)), x, v=(ones, ones))
    xv = np.array([0.1, 0.5, 1.2])
    backend.close(g, np.cos(xv) - np.sin(xv), rtol=1e-5, atol=1e-6)
    backend.close(s, np.sin(xv), atol=1e-6)


def test_paddle_incubate_vjp_doc(backend):
    # paddle.incubate.autograd.vjp doc (anchors §3 item 10)
    x = arr(backend, np.ones((2, 2)))
    xp = ns(backend, x)
    _, g = F.vjp(lambda a: xp.matmul(a, a), x, v=arr(backend, np.ones((2, 2))))
    backend.close(g, [[4.0, 4.0], [4.0, 4.0]])
    _, g = F.vjp(lambda a: xp.matmul(a, a), x, v=arr(backend, [[1.0, 0.0], [0.0, 0.0]]))
    backend.close(g, [[2.0, 1.0], [1.0, 0.0]])


def test_jvp_torch_doc_adder(backend):
    # torch.autograd.functional.jvp doc (anchors §3 item 3)
    x, y = arr(backend, [0.3, 0.7]), arr(backend, [0.1, 0.9])
    ones = arr(backend, [1.0, 1.0])
    _, res = F.jvp(lambda a, b: 2 * a + 3 * b, (x, y), v=(ones, ones))
    backend.close(res, [5.0, 5.0])
    assert not isinstance(res, tuple)
    xp = ns(backend, x)
    _out, res = F.jvp(lambda a: (a * a, xp.sum(a**3)), x, v=arr(backend, [1.0, 2.0]))
    assert isinstance(res, tuple)
    backend.close(res[0], [0.6, 2.8])
    backend.close(res[1], 3 * 0.09 + 3 * 0.49 * 2, rtol=1e-5)


def test_jacobian_torch_doc(backend):
    # torch.autograd.functional.jacobian doc (anchors §3 item 4)
    xv = np.array([0.2, 0.6])
    x, y = arr(backend, xv), arr(backend, [0.5, 0.5])
    xp = ns(backend, x)
    j = F.jacobian(lambda a, b: 2 * xp.exp(a) + 3 * b, (x, y))
    assert isinstance(j, tuple)
    assert len(j) == 2
    backend.close(j[0], np.diag(2 * np.exp(xv)), rtol=1e-5)
    backend.close(j[1], [[3.0, 0.0], [0.0, 3.0]])


def test_jacobian_structures_and_strategies(backend):
    x = arr(backend, [1.0, 2.0])
    xp = ns(backend, x)
    j = F.jacobian(lambda a: a * a, x)
    assert not isinstance(j, tuple)
    backend.close(j, [[2.0, 0.0], [0.0, 4.0]])
    j = F.jacobian(lambda a, b: (a * b, xp.sum(a)), (x, x))
    assert len(j) == 2
    assert len(j[0]) == 2
    backend.close(j[0][0], np.diag([1.0, 2.0]))
    backend.close(j[1][0], [1.0, 1.0])
    backend.close(j[1][1], [0.0, 0.0])
    j = F.jacobian(lambda a: (a * a, a), x)
    assert len(j) == 2
    assert not isinstance(j[0], tuple)
    for kw in ({"vectorize": True}, {"vectorize": True, "strategy": "forward-mode"}):
        backend.close(F.jacobian(lambda a: a * a, x, **kw), [[2.0, 0.0], [0.0, 4.0]])


def test_jax_jacfwd_doc_example(backend):
    # jax.jacfwd / jacrev doc (anchors §3 item 26)
    x = arr(backend, [1.0, 2.0, 3.0])
    xp = ns(backend, x)

    def f(a):
        return xp.stack([a[0], 5 * a[2], 4 * a[1] ** 2 - 2 * a[2], a[2] * xp.sin(a[0])])

    expected = [[1, 0, 0], [0, 0, 5], [0, 16, -2], [1.6209, 0, 0.84147]]
    backend.close(F.jacobian(f, x), expected, rtol=1e-4, atol=1e-4)
    fwd = F.jacobian(f, x, vectorize=True, strategy="forward-mode")
    backend.close(fwd, expected, rtol=1e-4, atol=1e-4)


def test_paddle_incubate_jacobian_doc(backend):
    # paddle.incubate.autograd.Jacobian(matmul, [x, x]) doc (anchors §3 item 11)
    x = arr(backend, [[1.0, 2.0], [3.0, 4.0]])
    xp = ns(backend, x)
    ja, jb = F.jacobian(lambda a, b: xp.matmul(a, b), (x, x))
    flat = np.concatenate([backend.np(ja).reshape(4, 4), backend.np(jb).reshape(4, 4)], axis=1)
    assert flat.shape == (4, 8)
    np.testing.assert_allclose(flat[0], [1, 3, 0, 0, 1, 0, 2, 0])
    np.testing.assert_allclose(flat[1], [2, 4, 0, 0, 0, 1, 0, 2])


def test_hessian_torch_doc(backend):
    # torch.autograd.functional.hessian doc (anchors §3 item 5)
    x, y = arr(backend, [0.3, 0.7]), arr(backend, [0.1, 0.9])
    xp = ns(backend, x)
    h = F.hessian(lambda a, b: xp.sum(2 * a**2 + 3 * b**2), (x, y))
    assert len(h) == 2
    assert len(h[0]) == 2
    backend.close(h[0][0], 4 * np.eye(2))
    backend.close(h[0][1], np.zeros((2, 2)))
    backend.close(h[1][0], np.zeros((2, 2)))
    backend.close(h[1][1], 6 * np.eye(2))


def test_hessian_jax_doc(backend):
    # jax.hessian doc (anchors §3 item 25); a (1,)-shaped output is accepted
    x = arr(backend, [1.0, 2.0])
    h = F.hessian(lambda a: a[0] ** 3 - 2 * a[0] * a[1] - a[1] ** 6, x)
    backend.close(h, [[6.0, -2.0], [-2.0, -480.0]])
    xp = ns(backend, x)
    h = F.hessian(
        lambda a: xp.reshape(xp.sum(a**3), (1,)),
        x,
        vectorize=True,
        outer_jacobian_strategy="forward-mode",
    )
    backend.close(h, np.diag([6.0, 12.0]))


@pytest.mark.parametrize("kind", ["hvp", "vhp"])
def test_hvp_vhp_torch_doc(backend, kind):
    # torch.autograd.functional.hvp / vhp doc (anchors §3 item 6)
    x, y = arr(backend, [0.3, 0.7]), arr(backend, [0.1, 0.9])
    xp = ns(backend, x)
    v = (arr(backend, [0.0, 0.0]), arr(backend, [1.0, 1.0]))
    out, res = getattr(F, kind)(lambda a, b: xp.sum(2 * a**2 + 3 * b**2), (x, y), v)
    backend.close(out, 2 * (0.09 + 0.49) + 3 * (0.01 + 0.81), rtol=1e-5)
    backend.close(res[0], [0.0, 0.0])
    backend.close(res[1], [6.0, 6.0])
    _, single = getattr(F, kind)(lambda a: xp.sum(a**3), x, arr(backend, [1.0, 2.0]))
    backend.close(single, [6 * 0.3 * 1.0, 6 * 0.7 * 2.0], rtol=1e-5)


def test_strict(backend):
    ones = arr(backend, [1.0, 1.0])
    xp = ns(backend, ones)
    # an input that reaches no output: zeros, or an error with strict=True
    _, res = F.vjp(lambda a, b: 2 * a, (ones, ones), v=ones)
    backend.close(res[1], [0.0, 0.0])
    with pytest.raises(unigrad.UnusedInputError, match="independent of input 1"):
        F.vjp(lambda a, b: 2 * a, (ones, ones), v=ones, strict=True)
    with pytest.raises(RuntimeError, match="independent of input 1"):
        F.jacobian(lambda a, b: 2 * a, (ones, ones), strict=True)
    with pytest.raises(unigrad.UnusedInputError, match="independent of input 1"):
        F.jvp(lambda a, b: 2 * a, (ones, ones), v=(ones, ones), strict=True)
    # a linear function has a constant jacobian: the hessian family refuses it
    with pytest.raises(unigrad.UnusedInputError, match="jacobian"):
        F.hessian(lambda a: xp.sum(3 * a), ones, strict=True)
    with pytest.raises(unigrad.UnusedInputError, match="jacobian"):
        F.vhp(lambda a: xp.sum(3 * a), ones, ones, strict=True)
    backend.close(F.hessian(lambda a: xp.sum(a * a), ones, strict=True), 2 * np.eye(2))
    backend.close(F.hessian(lambda a: xp.sum(3 * a), ones), np.zeros((2, 2)))


def test_argument_errors(backend):
    x = arr(backend, [1.0, 2.0])
    xp = ns(backend, x)
    with pytest.raises(unigrad.GradOutputsError, match="v is None"):
        F.vjp(lambda a: a * a, x)
    with pytest.raises(unigrad.GradOutputsError, match="wrong shape"):
        F.vjp(lambda a: a * a, x, v=arr(backend, [1.0, 1.0, 1.0]))
    with pytest.raises(unigrad.GradOutputsError, match="wrong length"):
        F.jvp(lambda a, b: a * b, (x, x), v=(x,))
    with pytest.raises(unigrad.GradOutputsError, match="v is None"):
        F.hvp(lambda a: xp.sum(a), x)
    with pytest.raises(unigrad.GradArgumentError, match="single element"):
        F.hessian(lambda a: a * a, x)
    with pytest.raises(unigrad.GradArgumentError, match="single tensor"):
        F.vhp(lambda a: (xp.sum(a),), x, x)
    with pytest.raises(unigrad.GradArgumentError, match="vectorize=True"):
        F.jacobian(lambda a: a, x, strategy="forward-mode")
    with pytest.raises(unigrad.GradArgumentError, match="strategy"):
        F.jacobian(lambda a: a, x, strategy="sideways")
    with pytest.raises(unigrad.GradArgumentError, match="strict=True and vectorize=True"):
        F.jacobian(lambda a: a, x, strict=True, vectorize=True)
    with pytest.raises(unigrad.GradArgumentError, match="not callable"):
        F.vjp(3, x)
    with pytest.raises(unigrad.GradArgumentError, match="tuple of tensors"):
        F.vjp(lambda a: a, [1.0, 2.0])
    out, _res = F.vjp(lambda a: [a], x, v=x)  # a list output reads as a tuple (paddle)
    assert isinstance(out, tuple)
    with pytest.raises(unigrad.GradArgumentError, match="tuple of tensors"):
        F.vjp(lambda a: (a, 3.0), x, v=(x, x))
    with pytest.raises(unigrad.NotDifferentiableError):
        F.vjp(lambda a: a, arr(backend, [1, 2], "int64"), v=arr(backend, [1, 2], "int64"))
    with pytest.raises(unigrad.GradArgumentError, match="create_graph"):
        F.vjp(lambda a: a, x, v=x, create_graph="yes")


def test_mixed_frameworks_and_tape_tensors(backend):
    x = arr(backend, [1.0, 2.0])
    other = np.ones(2, np.float32) if backend.name != "numpy" else arr_torch()
    with pytest.raises(unigrad.BackendError):
        F.vjp(lambda a, b: a * b, (x, other), v=x)
    if backend.name in ("jax", "numpy", "tensorflow"):
        with pytest.raises(unigrad.TapeError):
            F.vjp(lambda a: a, unigrad.watch(x), v=x)


def arr_torch():
    return pytest.importorskip("torch").ones(2)


def test_complex_convention(backend):
    # torch's convention everywhere (anchors §3 items 27, 34)
    z = arr(backend, [1 + 1j], "complex64")
    one = arr(backend, [1.0], "complex64")
    out, g = F.vjp(lambda a: a * a, z, v=one)
    backend.close(out, [2j])
    backend.close(g, [2 - 2j])
    xp = ns(backend, z)
    j = F.jacobian(lambda a: xp.real(a * xp.conj(a)), z)  # |z|^2: 2z
    backend.close(j, [[2 + 2j]], rtol=1e-5)
    with pytest.raises(unigrad.UnsupportedDtypeError):
        F.jvp(lambda a: a * a, z, v=one)
    with pytest.raises(unigrad.UnsupportedDtypeError):
        F.jacobian(lambda a: a * a, z)


def test_create_graph(backend):
    x = arr(backend, [1.0, 2.0])
    xp = ns(backend, x)
    if backend.name in ("torch", "paddle"):
        w = unigrad.watch(arr(backend, [1.0, 2.0]))
        _, g = F.vjp(lambda a: xp.sum(a**3), w, create_graph=True)
        assert unigrad.get_backend(backend.name).requires_grad(g)
        (h,) = unigrad.grad(xp.sum(g), w)
        backend.close(h, [6.0, 12.0])
        _out, g = F.vjp(lambda a: xp.sum(a**3), w)
        assert not unigrad.get_backend(backend.name).requires_grad(g)
    elif backend.name == "jax":
        import jax

        h = jax.grad(lambda a: F.vjp(lambda b: (b**3).sum(), a)[1].sum())(x)
        backend.close(h, [6.0, 12.0])
        jitted = jax.jit(lambda a: F.jacobian(lambda b: b * b, a))(x)
        backend.close(jitted, np.diag([2.0, 4.0]))
    elif backend.name == "tensorflow":  # a call is recorded by an enclosing tape
        import tensorflow as tf

        with tf.GradientTape() as tape:
            tape.watch(x)
            g = F.vjp(lambda b: xp.sum(b**3), x, create_graph=True)[1]
            s = xp.sum(g)
        backend.close(tape.gradient(s, x), [6.0, 12.0])
    else:
        import autograd

        h = autograd.grad(lambda a: F.vjp(lambda b: (b**3).sum(), a, create_graph=True)[1].sum())(
            np.array([1.0, 2.0])
        )
        np.testing.assert_allclose(h, [6.0, 12.0])


def test_results_are_plain_arrays(backend):
    x = arr(backend, [1.0, 2.0])
    _, g = F.vjp(lambda a: a * a, x, v=x)
    assert getattr(type(g), "__unigrad_backend__", None) is None
    frameworks = {"torch", "paddle", "jax", "jaxlib", "numpy", "tensorflow"}
    assert type(g).__module__.split(".")[0] in frameworks


def test_each_backend_provides_its_engine_half(backend):
    # unigrad.functional reaches a backend through Backend.functional(): one exactly
    # where the capability says so, and the base class's default (a plug-in's) is None
    from unigrad.backends._base import Backend

    be = unigrad.get_backend(backend.name)
    impl = be.functional()
    assert be.capabilities.functional is (impl is not None)
    assert all(callable(getattr(impl, n)) for n in ("vjp", "jvp", "jacobian", "hessian"))
    assert all(callable(getattr(impl, n)) for n in ("vhp", "hvp"))
    assert Backend.functional(be) is None


def test_dtype_refusals_name_the_framework_dtype(backend):
    # the backend's kind decides (integer and bool refused); the message prints the
    # dtype as the framework does
    x = arr(backend, [1.0, 2.0])
    xp = ns(backend, x)
    ints = arr(backend, [1, 2], "int32")
    with pytest.raises(unigrad.NotDifferentiableError, match="inputs\\[1\\] given to jvp") as err:
        F.jvp(lambda a, b: a, (x, ints), v=(x, x))
    assert f"dtype {ints.dtype}" in str(err.value)
    flags = arr(backend, [True, False], "bool")
    with pytest.raises(unigrad.NotDifferentiableError, match="inputs\\[0\\] given to hessian"):
        F.hessian(lambda a: xp.sum(a), flags)
    with pytest.raises(unigrad.NotDifferentiableError, match="output 0 of the function") as err:
        F.jacobian(lambda a: a > 1.5, x)
    assert "dtype" in str(err.value)
    with pytest.raises(unigrad.UnsupportedDtypeError, match="output 1 of the function"):
        F.jacobian(lambda a: (a, xp.astype(a, xp.complex64)), x)


def test_strict_hessian_judges_each_gradient(backend):
    # f = sum(a^2 + 3b): the gradient for b is the constant 3, which strict=True refuses
    # for input 1 alone, as torch does (numpy's walk gave every gradient the union of the
    # inputs, and let it through)
    x, y = arr(backend, [0.5, -1.5]), arr(backend, [2.0, 3.0])
    xp = ns(backend, x)
    with pytest.raises(unigrad.UnusedInputError, match="input 1"):  # torch words it
        # as the outer Jacobian's ("Output 0 ... is independent of input 1")
        F.hessian(lambda a, b: xp.sum(a**2 + 3 * b), (x, y), strict=True)
    match = "jacobian of the user-provided function with respect to input 1"
    with pytest.raises(unigrad.UnusedInputError, match=match):
        F.vhp(lambda a, b: xp.sum(a**2 + 3 * b), (x, y), (x, y), strict=True)
    _, res = F.vhp(lambda a, b: xp.sum(a**2 + 3 * b), (x, y), (x, y))  # not strict: zeros
    backend.close(res[1], [0.0, 0.0])
