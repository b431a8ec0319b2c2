"""watch, to_numpy, namespace, lift, backend_of, backends: uniform on every backend."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad


def test_watch_marks_a_leaf_that_requires_grad(backend):
    x = unigrad.watch(backend.tensor([1.0, 2.0]))
    assert backend.requires_grad(x)
    (g,) = unigrad.grad(x * 3, x)
    backend.close(g, [3.0, 3.0])


def test_to_numpy_is_a_host_copy(backend):
    x = backend.leaf([1.0, 2.0])
    arr = unigrad.to_numpy(x)
    assert isinstance(arr, np.ndarray)
    np.testing.assert_array_equal(arr, [1.0, 2.0])


def test_namespace_array_api_subset(backend):
    x = backend.leaf([3.0, 4.0])
    xp = unigrad.namespace(x)
    y = xp.linalg.vector_norm(x)
    backend.close(y, 5.0)
    (g,) = unigrad.grad(y, x)
    backend.close(g, [0.6, 0.8])
    s = xp.sum(xp.reshape(x * x, (2, 1)), axis=0)
    backend.close(s, [25.0])


def test_lift_calls_the_function(backend):
    x = backend.leaf([1.0, 2.0])
    xp = unigrad.namespace(x)
    f = unigrad.lift(lambda t: xp.sum(t * t))
    y = f(x)
    backend.close(y, 5.0)
    (g,) = unigrad.grad(y, x)
    backend.close(g, [2.0, 4.0])


def test_backends_lists_installed_names():
    names = unigrad.backends()
    assert isinstance(names, tuple)
    assert set(names) >= {"torch", "paddle"} & set(names)


def test_get_backend_unknown_name_raises():
    with pytest.raises(unigrad.BackendError, match="unknown backend"):
        unigrad.get_backend("no-such-framework")


def test_backend_of_needs_a_tensor():
    with pytest.raises(unigrad.BackendError):
        unigrad.backend_of(None)
    with pytest.raises(unigrad.BackendError, match="no unigrad backend owns"):
        unigrad.backend_of(3.0)


def test_register_backend_refuses_a_taken_name():
    be = unigrad.get_backend(unigrad.backends()[0])
    with pytest.raises(unigrad.BackendError, match="already registered"):
        unigrad.register_backend(be)
