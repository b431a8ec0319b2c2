"""Tape tensors are array API standard array objects (issue 11).

The tape is what unigrad adds for jax and numpy, so these run on its two backends; torch
and paddle tensors are the frameworks' own array objects.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad
from unigrad.tape import Tensor

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pytest.importorskip("autograd")
jax.config.update("jax_enable_x64", True)


@pytest.fixture(params=["jax", "numpy"])
def mk(request):
    if request.param == "jax":
        return lambda d, dt="float64": jnp.asarray(np.asarray(d, dtype=dt))
    return lambda d, dt="float64": np.asarray(d, dtype=dt)


def test_namespace_and_metadata(mk):
    x = unigrad.watch(mk([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    xp = x.__array_namespace__()
    assert xp is unigrad.namespace(x)
    assert xp.__array_api_version__ == "2023.12"
    assert isinstance(xp.__name__, str)
    assert x.__array_namespace__(api_version="2022.12") is xp
    with pytest.raises(ValueError, match=r"2023\.12"):
        x.__array_namespace__(api_version="2099.01")
    assert (x.shape, x.ndim, x.size) == ((2, 3), 2, 6)
    assert x.dtype == xp.float64
    assert x.device == xp.asarray(1.0).device
    assert x.mT.shape == (3, 2)
    assert x.T.shape == (3, 2)
    (g,) = unigrad.grad(xp.sum(x.to_device(x.device).mT * 2.0), x)
    np.testing.assert_array_equal(unigrad.to_numpy(g), np.full((2, 3), 2.0))


def test_scalar_conveniences(mk):
    x = unigrad.watch(mk(2.0 / 3.0))
    assert x.item() == pytest.approx(2.0 / 3.0)
    assert isinstance(x.item(), float)
    assert f"{x:.3f}" == "0.667"
    assert unigrad.to_numpy(round(x, 2)) == pytest.approx(0.67)
    y = unigrad.watch(mk([1.5, 2.5]))
    assert y.tolist() == [1.5, 2.5]
    i = unigrad.namespace(y).asarray(3, dtype=unigrad.namespace(y).int64)
    assert [10, 20, 30, 40][i] == 40  # __index__


def test_constants_and_operators(mk):
    x = unigrad.watch(mk([1.0, -2.0, 3.0]))
    xp = unigrad.namespace(x)
    c = xp.asarray([1.0, 1.0, 2.0])
    assert isinstance(c, Tensor)
    assert not c.requires_grad
    assert x.requires_grad
    np.testing.assert_array_equal(np.asarray(c), [1.0, 1.0, 2.0])  # no history to drop
    mask = x > 0
    assert isinstance(mask, Tensor)
    assert mask.dtype == xp.bool
    assert not mask.requires_grad
    assert not (c + c).requires_grad  # constants only: nothing recorded
    n = xp.asarray([6, 5], dtype=xp.int32)
    np.testing.assert_array_equal(np.asarray(n & 3), [2, 1])
    np.testing.assert_array_equal(np.asarray(n >> 1), [3, 2])
    np.testing.assert_array_equal(np.asarray(~n), [-7, -6])
    np.testing.assert_array_equal(np.asarray(1 << n), [64, 32])
    y = xp.where(mask, x * c, -x)
    (g,) = unigrad.grad(xp.sum(y), x)
    np.testing.assert_array_equal(unigrad.to_numpy(g), [1.0, -1.0, 2.0])


def test_assignment_into_constants_only(mk):
    x = unigrad.watch(mk([1.0, 2.0]))
    xp = unigrad.namespace(x)
    c = xp.zeros(3)
    c[1] = 5.0
    c[xp.asarray([True, False, False])] = 7.0
    np.testing.assert_array_equal(np.asarray(c), [7.0, 5.0, 0.0])
    with pytest.raises(unigrad.TapeError, match=r"xp\.where"):
        x[0] = 1.0
    with pytest.raises(unigrad.TapeError):
        c[0] = x[0]  # would drop x's history


def test_dlpack_refuses_a_history(mk):
    x = unigrad.watch(mk([1.0, 2.0]))
    xp = unigrad.namespace(x)
    with pytest.raises(unigrad.TapeError, match=r"unigrad\.namespace"):
        x.__dlpack__()
    c = xp.asarray([1.0, 2.0])
    assert np.from_dlpack(c).tolist() == [1.0, 2.0]
    assert xp.from_dlpack(x) is x  # a tape tensor keeps its history


def test_numpy_functions_record_or_raise(mk):
    x = unigrad.watch(mk([0.5, 1.0]))
    y = np.concatenate([np.exp(x), x * 2.0])
    assert isinstance(y, Tensor)
    (g,) = unigrad.grad(np.sum(y), x)
    np.testing.assert_allclose(unigrad.to_numpy(g), np.exp([0.5, 1.0]) + 2.0, rtol=1e-12)
    with pytest.raises(unigrad.TapeError, match=r"unigrad\.lift"):
        np.add.reduce(x)


def test_plain_arrays_stay_plain(mk):
    a = mk([1.0, 2.0])
    xp = unigrad.namespace(a)
    assert not isinstance(xp.sin(a), Tensor)
    assert not isinstance(xp.zeros(2), Tensor)


def test_constants_do_not_require_grad_as_in_torch(mk):
    x = unigrad.watch(mk([1.0, 2.0]))
    xp = unigrad.namespace(x)
    c = xp.asarray([3.0, 4.0])
    with pytest.raises(unigrad.UnusedInputError, match="does not require grad"):
        unigrad.grad(xp.sum(x * c), c)
    with pytest.raises(unigrad.NotDifferentiableError, match="does not require grad"):
        unigrad.grad(xp.sum(c * 2.0), x)
    xp.sum(x * c).backward()
    np.testing.assert_array_equal(unigrad.to_numpy(x.grad), [3.0, 4.0])
    assert c.grad is None


def test_asarray_of_a_list_keeps_history_or_refuses(mk):
    x = unigrad.watch(mk([1.0, 2.0]))
    xp = unigrad.namespace(x)
    with pytest.raises(unigrad.TapeError, match=r"xp\.stack"):
        xp.asarray([x, x])
    c = xp.asarray([xp.asarray(1.0), 2.0])  # constants only: nothing to lose
    assert not c.requires_grad


def test_assigning_into_a_used_constant_does_not_change_the_gradient(mk):
    x = unigrad.watch(mk([1.0, 2.0]))
    xp = unigrad.namespace(x)
    c = xp.asarray([3.0, 4.0])
    y = xp.sum(x * c)
    c[0] = 100.0  # after the forward pass: the graph keeps the value it read
    (g,) = unigrad.grad(y, x)
    np.testing.assert_array_equal(unigrad.to_numpy(g), [3.0, 4.0])
