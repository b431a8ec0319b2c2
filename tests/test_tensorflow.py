"""The tensorflow backend's own translations (issue 29); the contract itself is tested on
it by the ``backend`` fixture. Skipped where TensorFlow is not importable."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import numpy as np
import pytest

import unigrad

tf = pytest.importorskip("tensorflow")


def test_import_unigrad_imports_no_tensorflow():
    code = "import sys, unigrad; assert 'tensorflow' not in sys.modules, 'imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_tape_tensors_report_numpy_dtypes():
    x = unigrad.watch(tf.constant([1.0, 2.0], tf.float64))
    assert x.dtype == np.dtype("float64")
    assert unigrad.namespace(x).float64 == x.dtype
    (g,) = unigrad.grad((x * x).sum(), x)
    assert isinstance(g, tf.Tensor)
    assert g.dtype == tf.float64


def test_a_variable_is_watched_through_its_value():
    v = tf.Variable([1.0, 2.0])
    x = unigrad.watch(v)
    (g,) = unigrad.grad((x * x).sum(), x)
    np.testing.assert_allclose(g.numpy(), [2.0, 4.0])


def test_complex_gradient_is_torchs_convention():
    # d Re(z^2) / dz in torch's convention: conj(2 z)
    z0 = np.array([1 + 2j, -0.5 + 0.25j], np.complex128)
    z = unigrad.watch(tf.constant(z0))
    (g,) = unigrad.grad(unigrad.namespace(z).real(z * z).sum(), z)
    np.testing.assert_allclose(g.numpy(), np.conj(2 * z0), rtol=1e-12)


def test_third_order_through_nested_gradient_tapes():
    x = unigrad.watch(tf.constant([0.5, 2.0], tf.float64))
    xp = unigrad.namespace(x)
    (g1,) = unigrad.grad(xp.sin(x).sum(), x, create_graph=True)
    (g2,) = unigrad.grad(g1.sum(), x, create_graph=True)
    (g3,) = unigrad.grad(g2.sum(), x)
    np.testing.assert_allclose(g3.numpy(), -np.cos([0.5, 2.0]), rtol=1e-12)


def test_cumulative_prod_gradient_at_an_exact_zero():
    # TensorFlow's own Cumprod gradient divides by x (NaN here); the namespace's is not
    x = unigrad.watch(tf.constant([2.0, 0.0, 3.0], tf.float64))
    xp = unigrad.namespace(x)
    (g,) = unigrad.grad(xp.cumulative_prod(x).sum(), x)
    np.testing.assert_allclose(g.numpy(), [1.0, 2.0 + 6.0, 0.0])


def test_cumulative_prod_complex_gradient_is_conjugated():
    z0 = np.array([1 + 1j, 2 - 1j], np.complex128)
    z = unigrad.watch(tf.constant(z0))
    xp = unigrad.namespace(z)
    (g,) = unigrad.grad(xp.real(xp.cumulative_prod(z)).sum(), z)
    # d/dz Re(z0 + z0 z1) = conj(1 + z1), d/dz1 = conj(z0)
    np.testing.assert_allclose(g.numpy(), np.conj([1 + z0[1], z0[0]]), rtol=1e-12)


@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "fftn", "ifftn"])
def test_fft_values_are_numpys(name, norm):
    a = np.random.default_rng(0).normal(size=(3, 4))
    x = unigrad.watch(tf.constant(a))
    out = getattr(unigrad.namespace(x).fft, name)(x, norm=norm)
    np.testing.assert_allclose(
        unigrad.to_numpy(out), getattr(np.fft, name)(a, norm=norm), rtol=1e-10, atol=1e-12
    )


def test_item_assignment_on_a_constant_makes_a_new_tensor():
    x = unigrad.watch(tf.constant([1.0]))
    c = unigrad.namespace(x).zeros((3,))
    c[1] = 5.0
    np.testing.assert_array_equal(unigrad.to_numpy(c), [0.0, 5.0, 0.0])
    with pytest.raises(unigrad.TapeError):
        (x * 1.0)[0] = 2.0


_NEEDS_PADDLE = pytest.mark.skipif(
    importlib.util.find_spec("paddle") is None, reason="paddle is not installed"
)


@_NEEDS_PADDLE
def test_loading_paddle_after_tensorflow_refuses_instead_of_crashing():
    # TensorFlow 2.21 then paddle 3.3.1 in one process is a SIGSEGV (unigrad/_dispatch.py,
    # `_paddle_loader`): unigrad's own import of paddle says so first
    code = (
        "import tensorflow, unigrad\n"
        "try:\n"
        "    unigrad.get_backend('paddle')\n"
        "except unigrad.BackendError as e:\n"
        "    assert 'import paddle before tensorflow' in str(e).lower(), e\n"
        "else:\n"
        "    raise SystemExit('no BackendError')\n"
        "import sys; assert 'paddle' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


@_NEEDS_PADDLE
def test_the_conformance_runner_loads_paddle_before_tensorflow():
    code = (
        "from unigrad.conformance._runner import load_backends\n"
        "infos = [info for _, info in load_backends(['tensorflow', 'paddle'])]\n"
        "assert [i.name for i in infos] == ['tensorflow', 'paddle'], infos\n"
        "assert not any(i.error for i in infos), infos\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_plain_tensors_are_not_arrays_of_the_standard_and_the_constants_are():
    # TensorFlow's own tf.Tensor has no .T and no integer-array indexing
    # (tensorflow#50438): a differential program's constants are the namespace's on
    # tensorflow (Kit.constant, caps.standard_arrays False), which have both
    from unigrad.conformance import Kit

    plain = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert not hasattr(plain, "T")
    kit = Kit(unigrad.get_backend("tensorflow"))
    assert not kit.caps.standard_arrays
    c = kit.constant([[1.0, 2.0], [3.0, 4.0]], "float64")
    i = kit.constant([1, -2, 1], "int64")
    np.testing.assert_array_equal(unigrad.to_numpy(c.T), [[1.0, 3.0], [2.0, 4.0]])
    np.testing.assert_array_equal(unigrad.to_numpy(c[i]), [[3.0, 4.0], [1.0, 2.0], [3.0, 4.0]])
    assert not c.requires_grad


def test_functional_complex_vhp_is_torchs():
    # unigrad.functional on tensorflow: tf.GradientTape's gradient is already torch's
    # complex convention, the vhp of a real function of complex inputs included
    torch = pytest.importorskip("torch")
    from unigrad import functional as F

    rng = np.random.default_rng(0)
    z0 = rng.normal(size=3) + 1j * rng.normal(size=3)
    u0 = rng.normal(size=3) + 1j * rng.normal(size=3)
    _, got = F.vhp(
        lambda z: tf.reduce_sum(tf.math.real(tf.exp(z) * z * z)), tf.constant(z0), tf.constant(u0)
    )
    _, want = torch.autograd.functional.vhp(
        lambda z: (torch.exp(z) * z * z).real.sum(), torch.tensor(z0), torch.tensor(u0)
    )
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)


def test_functional_inputs_given_twice_are_two_inputs():
    from unigrad import functional as F

    x = tf.constant([1.0, 2.0])
    ja, jb = F.jacobian(lambda a, b: a * b, (x, x))
    np.testing.assert_array_equal(ja.numpy(), np.diag([1.0, 2.0]))
    np.testing.assert_array_equal(jb.numpy(), np.diag([1.0, 2.0]))


def test_jit_compiles_a_tensorflow_step_with_tf_function():
    # the step's Python runs once per signature (the trace); its grad calls, a
    # create_graph penalty included, are in the tf.function; the numbers are the eager
    # step's (tolerance 1e-12, float64)
    assert unigrad.get_backend("tensorflow").capabilities.compiles_steps
    calls = []

    def step(w, x):
        calls.append(1)
        w, x = unigrad.watch(w), unigrad.watch(x)
        xp = unigrad.namespace(w)
        (gx,) = unigrad.grad(xp.sum(xp.tanh(x @ w)), x, create_graph=True)
        loss = xp.sum((x @ w) ** 2) + xp.mean(gx**2)
        (g,) = unigrad.grad(loss, w)
        return loss, g

    compiled = unigrad.jit(step)
    w = tf.constant([[0.5], [1.0]], tf.float64)
    x = tf.constant([[1.0, 2.0], [0.5, -1.0]], tf.float64)
    want_loss, want_g = step(w, x)
    calls.clear()
    for _ in range(3):
        loss, g = compiled(w, x)
        assert isinstance(loss, tf.Tensor)
        assert isinstance(g, tf.Tensor)
        np.testing.assert_allclose(loss.numpy(), unigrad.to_numpy(want_loss), rtol=1e-12)
        np.testing.assert_allclose(g.numpy(), unigrad.to_numpy(want_g), rtol=1e-12)
    assert len(calls) == 1
    compiled(tf.constant([[0.5], [1.0], [2.0]], tf.float64), tf.ones((2, 3), tf.float64))
    assert len(calls) == 2  # a new shape traces again


def test_jit_keeps_python_numbers_static_on_tensorflow():
    # a Python number stays a weakly typed operand (float64 weights times 0.1), and a
    # new value traces the step again
    calls = []

    @unigrad.jit
    def sgd(w, lr):
        calls.append(lr)
        w = unigrad.watch(w)
        (g,) = unigrad.grad(unigrad.namespace(w).sum(w * w), w)
        return w - lr * g

    w = tf.constant([1.0, 2.0], tf.float64)
    np.testing.assert_allclose(sgd(w, 0.25).numpy(), [0.5, 1.0])
    np.testing.assert_allclose(sgd(w, 0.25).numpy(), [0.5, 1.0])
    np.testing.assert_allclose(sgd(w, 0.5).numpy(), [0.0, 0.0])
    assert calls == [0.25, 0.5]


def test_watch_of_a_graph_tensor_outside_a_step_is_refused():
    @tf.function(autograph=False)
    def f(x):
        return unigrad.watch(x)

    with pytest.raises(unigrad.NotDifferentiableError, match=r"unigrad\.jit"):
        f(tf.constant([1.0]))
