"""What unigrad says when it refuses: its own message, and nothing from the framework.

An error unigrad catches and re-raises prints nothing of the framework's on stderr
(paddle's engine logs a glog ``W...`` line before each error a node raises), and the
messages name what was given: a SciPy ufunc by its name, a list as a list, a batched
shape without a stray space.
"""

from __future__ import annotations

import importlib.util
import re

import numpy as np
import pytest

import unigrad

#: A glog line: severity letter, date, time, thread, file:line] (paddle's logging).
_GLOG = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d", re.M)


def _clean(err: str) -> None:
    assert not _GLOG.search(err), f"a framework log line reached stderr:\n{err}"
    assert err == "", f"stderr is not empty:\n{err}"


def test_a_consumed_graph_prints_nothing_on_stderr(backend, capfd):
    x = backend.leaf([0.3, 0.4])
    xp = unigrad.namespace(x)
    y = xp.sum(x * x)
    unigrad.grad(y, x)
    capfd.readouterr()  # (what setting up the backend printed is not this test's)
    for _ in range(2):
        with pytest.raises(unigrad.GraphFreedError):
            unigrad.grad(y, x)
        with pytest.raises(unigrad.GraphFreedError):
            unigrad.backward(y)
    _clean(capfd.readouterr().err)


@pytest.mark.skip_backend("jax", reason="jax arrays are immutable: nothing to modify")
@pytest.mark.skip_backend("numpy", reason="tape values are never modified in place")
@pytest.mark.skip_backend("tensorflow", reason="tensorflow tensors are immutable")
def test_an_inplace_change_prints_nothing_on_stderr(backend, capfd):
    x = backend.leaf([1.0, 2.0])
    a = x * 1.0
    y = (a * a).sum()
    a.add_(backend.tensor(1.0))
    capfd.readouterr()
    with pytest.raises(unigrad.InplaceModifiedError):
        unigrad.grad(y, x)
    _clean(capfd.readouterr().err)


def test_paddle_missing_higher_order_kernel_prints_nothing_on_stderr(capfd):
    paddle = pytest.importorskip("paddle")
    x = unigrad.watch(paddle.to_tensor([0.3, 0.4]))
    y = paddle.nn.functional.gelu(x).sum()
    capfd.readouterr()
    with pytest.raises(unigrad.HigherOrderUnavailableError, match="gelu"):
        unigrad.grad(y, x, create_graph=True)  # paddle 3.3.1: gelu_grad has no grad op
    _clean(capfd.readouterr().err)
    # and paddle's own warnings are back after unigrad's pass
    from unigrad.backends.paddle import _engine as adapter

    if adapter._MINLOGLEVEL is not None:
        assert adapter._MINLOGLEVEL.value < 2
        assert adapter._GLOG.depth == 0


def test_to_numpy_of_a_list_says_a_list_is_not_a_tensor(backend):
    ts = [backend.tensor([1.0]), backend.tensor([2.0])]
    for call in (unigrad.to_numpy, unigrad.watch, unigrad.detach):
        with pytest.raises(unigrad.BackendError, match="a list of 2 values, not a tensor") as info:
            call(ts)
        text = str(info.value)
        assert "Import the framework" not in text
        assert f"[unigrad.{call.__name__}(t) for t in ts]" in text
    assert [float(unigrad.to_numpy(t)[0]) for t in ts] == [1.0, 2.0]  # (the advice works)


def test_a_batched_seed_of_a_scalar_output_shows_its_shape_without_a_stray_space(backend):
    x = backend.leaf([1.0, 2.0])
    y = unigrad.namespace(x).sum(x * x)
    with pytest.raises(unigrad.GradOutputsError, match=re.escape("expected (B,) (a batch")) as info:
        unigrad.grad(y, x, backend.ones((3, 1)), is_grads_batched=True)
    assert "(B, )" not in str(info.value)
    z = x * x
    with pytest.raises(unigrad.GradOutputsError, match=re.escape("expected (B, 2) (a batch")):
        unigrad.grad(z, x, backend.ones((3,)), is_grads_batched=True)


@pytest.mark.skip_backend("torch", reason="scipy converts torch tensors by torch's own rules")
@pytest.mark.skip_backend("paddle", reason="scipy converts paddle tensors by paddle's own rules")
def test_a_scipy_ufunc_on_a_tape_tensor_is_named_as_scipy_names_it(backend):
    special = pytest.importorskip("scipy.special")
    x = backend.leaf([0.1, 0.2])
    with pytest.raises(unigrad.TapeError, match=r"^scipy\.special\.expit on a tape tensor") as info:
        special.expit(x)
    text = str(info.value)
    assert "np.expit" not in text
    assert "unigrad.lift(" in text
    # NumPy's own ufuncs still record
    (g,) = unigrad.grad(unigrad.namespace(x).sum(np.sin(x)), x)
    backend.close(g, np.cos([0.1, 0.2]))


@pytest.mark.skipif(
    importlib.util.find_spec("scipy") is None or importlib.util.find_spec("autograd") is None,
    reason="needs scipy and autograd",
)
def test_the_scipy_ufunc_advice_works_on_numpy():
    import autograd.scipy.special as asp

    x = unigrad.watch(np.array([0.1, 0.2]))
    (g,) = unigrad.grad(unigrad.lift(asp.expit)(x).sum(), x)
    s = 1 / (1 + np.exp(-np.array([0.1, 0.2])))
    np.testing.assert_allclose(g, s * (1 - s), rtol=1e-12)
