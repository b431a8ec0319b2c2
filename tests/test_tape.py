"""Tape-specific behaviour of the jax and numpy backends (unigrad.tape)."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import unigrad
from unigrad.tape import Node, Tensor, cache_info

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pytest.importorskip("autograd")
jax.config.update("jax_enable_x64", True)


@pytest.fixture(params=["jax", "numpy"])
def eng(request):
    """(name, make-array) for the two tape backends."""
    if request.param == "jax":
        return "jax", lambda d, dt="float32": jnp.asarray(np.asarray(d, dtype=dt))
    return "numpy", lambda d, dt="float32": np.asarray(d, dtype=dt)


def arr(x):
    return np.asarray(unigrad.to_numpy(x))


# ---- tensors and recording -------------------------------------------------------
def test_watch_makes_a_leaf_and_plain_arrays_do_not_require_grad(eng):
    name, mk = eng
    a = mk([1.0, 2.0])
    x = unigrad.watch(a)
    assert isinstance(x, Tensor)
    assert x.is_leaf
    assert x.requires_grad
    assert unigrad.watch(x) is x
    assert unigrad.backend_of(x) == name == unigrad.backend_of(a)
    be = unigrad.get_backend(name)
    assert be.requires_grad(x)
    assert not be.requires_grad(a)
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.watch(mk([1, 2], "int32"))
    with pytest.raises(unigrad.NotDifferentiableError, match="does not require grad"):
        unigrad.grad(a * 2, a)  # a plain output has no history


def test_operators_methods_and_metadata(eng):
    _, mk = eng
    data = np.arange(1.0, 7.0).reshape(2, 3)
    x = unigrad.watch(mk(data))
    assert (x.shape, x.ndim, x.size, str(x.dtype)) == ((2, 3), 2, 6, "float32")
    ys = {
        "add": (x + 1, data + 1),
        "radd": (1 + x, 1 + data),
        "sub": (x - 2, data - 2),
        "rsub": (2 - x, 2 - data),
        "mul": (x * x, data * data),
        "div": (x / 2, data / 2),
        "rdiv": (2 / x, 2 / data),
        "pow": (x**2, data**2),
        "rpow": (2**x, 2**data),
        "neg": (-x, -data),
        "abs": (abs(-x), data),
        "matmul": (x @ x.T, data @ data.T),
        "rmatmul": (mk(data.T) @ x, data.T @ data),
        "index": (x[1], data[1]),
        "slice": (x[:, 1:], data[:, 1:]),
        "fancy": (x[:, [0, 2]], data[:, [0, 2]]),
        "mask": (x[mk(data > 2, "bool")], data[data > 2]),
        "sum": (x.sum(axis=0), data.sum(0)),
        "mean": (x.mean(), data.mean()),
        "reshape": (x.reshape(3, 2), data.reshape(3, 2)),
        "reshape_t": (x.reshape((6,)), data.reshape(6)),
        "max": (x.max(axis=1), data.max(1)),
        "transpose": (x.transpose(1, 0), data.T),
        "astype": (x.astype("float64"), data),
        "radd_array": (mk(data) + x, 2 * data),
        "iter": (list(x)[1], data[1]),
    }
    for key, (y, expected) in ys.items():
        assert isinstance(y, Tensor), key
        np.testing.assert_allclose(arr(y), expected, rtol=1e-6, err_msg=key)
    # comparisons are not differentiable: constant tape tensors (array API: same type),
    # which convert to plain arrays freely since they carry no history
    lt = x < 3
    assert isinstance(lt, Tensor)
    assert not lt.requires_grad
    assert lt.is_leaf
    np.testing.assert_array_equal(np.asarray(lt), data < 3)
    assert float(x[0, 0]) == 1.0
    assert bool(x[0, 0] == 1.0)
    # gradients through indexing, slicing and matmul
    (g,) = unigrad.grad((x[:, 1:] ** 2).sum() + (x @ x.T)[0, 1], x)
    expected = np.zeros_like(data)
    expected[:, 1:] = 2 * data[:, 1:]
    expected[0] += data[1]
    expected[1] += data[0]
    np.testing.assert_allclose(arr(g), expected, rtol=1e-6)


def test_complex_attributes(eng):
    _, mk = eng
    z = unigrad.watch(mk([1 + 2j], "complex64"))
    np.testing.assert_allclose(arr(z.real), [1.0])
    np.testing.assert_allclose(arr(z.imag), [2.0])
    np.testing.assert_allclose(arr(z.conj()), [1 - 2j])


def test_implicit_conversion_raises_tape_error(eng):
    name, mk = eng
    x = unigrad.watch(mk([1.0, 2.0]))
    with pytest.raises(unigrad.TapeError, match="to_numpy"):
        np.asarray(x)
    if name == "jax":
        with pytest.raises(unigrad.TapeError):
            jnp.asarray(x)
        with pytest.raises(TypeError):  # the plain jnp functions do not accept tape tensors
            jnp.sin(x)
    # NumPy's ufuncs and functions record with the tape's function of the same name
    np.testing.assert_allclose(arr(unigrad.grad(np.sum(np.sin(x)), x)[0]), np.cos([1.0, 2.0]))
    with pytest.raises(unigrad.TapeError, match=r"unigrad\.lift"):
        np.add(x, x, out=np.zeros(2, dtype=np.float32))
    # the explicit ways
    assert isinstance(unigrad.to_numpy(x), np.ndarray)
    assert x.value is x.detach()
    assert not isinstance(x.value, Tensor)


def test_namespace_records_lists_and_passes_plain_values_through(eng):
    _, mk = eng
    x = unigrad.watch(mk([1.0, 2.0]))
    xp = unigrad.namespace(x)
    s = xp.stack([x, x * 2, mk([5.0, 6.0])])
    assert isinstance(s, Tensor)
    assert s.shape == (3, 2)
    c = xp.concat([x, x])
    (g,) = unigrad.grad(s.sum() + (c * c).sum(), x)
    np.testing.assert_allclose(arr(g), 3 + 4 * np.array([1.0, 2.0]))
    plain = xp.sin(mk([0.0]))
    assert not isinstance(plain, Tensor)
    assert xp.float32 is not None
    assert xp.pi == pytest.approx(np.pi)
    # integer results are not recorded: constants, without history
    assert isinstance(xp.argmax(x), Tensor)
    assert not xp.argmax(x).requires_grad


def test_mixing_tape_frameworks_is_an_error():
    x = unigrad.watch(jnp.ones(2))
    y = unigrad.watch(np.ones(2))
    with pytest.raises(unigrad.BackendError):
        x + y


# ---- lift ------------------------------------------------------------------------
def _mlp(xnp):
    def mlp(params, x):
        h = x
        for layer in params["hidden"]:
            h = xnp.tanh(h @ layer["W"] + layer["b"])
        return (h @ params["out"]).sum(axis=-1)

    return mlp


def test_lift_records_a_function_of_a_params_pytree(eng):
    name, mk = eng
    rng = np.random.default_rng(0)
    raw = {
        "hidden": [{"W": rng.normal(size=(3, 4)), "b": rng.normal(size=4)}],
        "out": rng.normal(size=(4, 2)),
    }
    xdata = rng.normal(size=(5, 3))
    params = {
        "hidden": [{k: unigrad.watch(mk(v, "float64")) for k, v in raw["hidden"][0].items()}],
        "out": unigrad.watch(mk(raw["out"], "float64")),
    }
    if name == "jax":
        xnp = jnp
    else:
        import autograd.numpy as xnp
    mlp = _mlp(xnp)
    lifted = unigrad.lift(mlp)
    y = lifted(params, mk(xdata, "float64"))
    assert isinstance(y, Tensor)
    assert y.shape == (5,)
    assert y._node is not None
    assert y._node.key[0] is mlp  # one node for the whole call
    W = params["hidden"][0]["W"]
    gW, gout = unigrad.grad((y**2).sum(), [W, params["out"]])
    import autograd
    import autograd.numpy as anp

    ref = autograd.grad(lambda p: (_mlp(anp)(p, xdata) ** 2).sum())(raw)
    np.testing.assert_allclose(arr(gW), ref["hidden"][0]["W"], rtol=1e-10)
    np.testing.assert_allclose(arr(gout), ref["out"], rtol=1e-10)


def test_lift_returns_plain_results_without_tape_tensors(eng):
    _, mk = eng
    f = unigrad.lift(lambda a: a * 2)
    assert not isinstance(f(mk([1.0])), Tensor)


# ---- create_graph ----------------------------------------------------------------
def test_fourth_order(eng):
    _, mk = eng
    x = unigrad.watch(mk(0.5, "float64"))
    g = unigrad.namespace(x).sin(x) * x**4
    values = []
    for _ in range(4):
        (g,) = unigrad.grad(g, x, create_graph=True)
        assert isinstance(g, Tensor)
        values.append(float(g))
    s, c, t = np.sin(0.5), np.cos(0.5), 0.5
    # d^4/dt^4 of t^4 sin t, by Leibniz
    d = [
        4 * t**3 * s + t**4 * c,
        12 * t**2 * s + 8 * t**3 * c - t**4 * s,
        24 * t * s + 36 * t**2 * c - 12 * t**3 * s - t**4 * c,
        24 * s + 96 * t * c - 72 * t**2 * s - 16 * t**3 * c + t**4 * s,
    ]
    np.testing.assert_allclose(values, d, rtol=1e-10)


def test_create_graph_false_returns_plain_arrays(eng):
    name, mk = eng
    x = unigrad.watch(mk([1.0, 2.0]))
    (g,) = unigrad.grad((x**3).sum(), x)
    assert not isinstance(g, Tensor)
    assert unigrad.backend_of(g) == name
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.grad(g.sum(), x)


def test_seed_that_is_a_tape_tensor_is_differentiable(eng):
    """The double-vjp trick: u -> vjp(u) is linear; its vjp is the jvp."""
    _, mk = eng
    A = np.array([[1.0, 2.0], [3.0, 4.0]])
    x = unigrad.watch(mk([0.3, -0.2], "float64"))
    y = unigrad.namespace(x).tanh(mk(A, "float64") @ x)
    u = unigrad.watch(mk([0.0, 0.0], "float64"))  # dummy seed
    (vjp,) = unigrad.grad(y, x, u, create_graph=True)
    v = mk([1.0, -1.0], "float64")
    (jvp,) = unigrad.grad(vjp, u, v)
    J = (1 - np.tanh(A @ [0.3, -0.2]) ** 2)[:, None] * A
    np.testing.assert_allclose(arr(jvp), J @ [1.0, -1.0], rtol=1e-10)


def test_gradient_penalty_reaches_parameters_through_constants(eng):
    """WGAN-GP shape: d/dw of ||d/dx f(x, w)||^2, where w is a constant of the inner grad."""
    _, mk = eng
    w = unigrad.watch(mk([0.5, -1.5], "float64"))
    x = unigrad.watch(mk([1.0, 2.0], "float64"))
    f = ((w * x) ** 3).sum()
    (gx,) = unigrad.grad(f, x, create_graph=True)  # 3 w^3 x^2
    pen = (gx * gx).sum()
    (gw,) = unigrad.grad(pen, w)
    wv, xv = np.array([0.5, -1.5]), np.array([1.0, 2.0])
    np.testing.assert_allclose(arr(gw), 2 * (3 * wv**3 * xv**2) * 9 * wv**2 * xv**2, rtol=1e-10)


def test_cotangents_stay_in_their_values_dtype(eng):
    """A float32 pass runs in float32, as torch's does: autograd's VJPs of ``maximum`` (a
    ReLU) and ``mean`` return float64 cotangents for float32 values; the engine brings
    each back to its value's dtype, so what reaches the primals is float32 (not a float64
    sum cast at the end) and still the gradient, to float32 precision."""
    from unigrad.tape._engine import jax_engine, numpy_engine

    name, mk = eng
    engine = jax_engine if name == "jax" else numpy_engine
    xnp = engine.np
    rng = np.random.default_rng(0)
    x64, w64 = rng.normal(size=(4, 3)), rng.normal(size=(3, 5))

    def f(x, w):
        h = xnp.maximum(x @ w, 0.0)
        return (xnp.mean(h * h),), ()

    (out,), pull, _ = engine.vjp(f, (mk(x64), mk(w64)))
    gx, gw = pull((xnp.ones(out.shape, out.dtype),))
    assert (str(gx.dtype), str(gw.dtype)) == ("float32", "float32")
    h = np.maximum(x64 @ w64, 0.0)
    dh = 2 * h / h.size
    np.testing.assert_allclose(np.asarray(gx), dh @ w64.T, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(gw), x64.T @ dh, rtol=1e-5, atol=1e-6)


# ---- consumed graphs -------------------------------------------------------------
def test_consumed_graph_raises_everywhere_it_ran(eng):
    _, mk = eng
    x = unigrad.watch(mk([1.0, 2.0]))
    h = x * x
    y1, y2 = (h * 3).sum(), (h + 1).sum()
    unigrad.grad(y1, x)
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.grad(y1, x)
    with pytest.raises(unigrad.GraphFreedError):  # shares the consumed h node
        unigrad.grad(y2, x)
    (g,) = unigrad.grad(y2, h)  # h's own node is not needed: fine
    np.testing.assert_allclose(arr(g), [1.0, 1.0])
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.backward(y1)


def test_retain_graph_keeps_it(eng):
    _, mk = eng
    x = unigrad.watch(mk([1.0, 2.0]))
    y = (x * x).sum()
    for _ in range(3):
        (g,) = unigrad.grad(y, x, retain_graph=True)
    np.testing.assert_allclose(arr(g), [2.0, 4.0])


def test_consumed_nodes_release_their_values(eng):
    _, mk = eng
    x = unigrad.watch(mk(np.ones(1000)))
    h = x * 2
    y = (h * h).sum()
    ref = weakref.ref(h)
    del h
    gc.collect()
    assert ref() is not None  # the graph holds it
    unigrad.grad(y, x)
    gc.collect()
    assert ref() is None  # consumed: released although y is alive


# ---- other contract points specific to the tape ----------------------------------
def test_batched_and_complex(eng):
    _, mk = eng
    x = unigrad.watch(mk([1.0, 2.0, 3.0]))
    (j,) = unigrad.grad(x**2, x, mk(np.eye(3)), is_grads_batched=True)
    np.testing.assert_allclose(arr(j), np.diag([2.0, 4.0, 6.0]))
    z = unigrad.watch(mk(1 + 2j, "complex64"))
    (g,) = unigrad.grad(abs(z) ** 2, z)
    np.testing.assert_allclose(arr(g), 2 + 4j, rtol=1e-6)
    (g,) = unigrad.grad(z * z, z, mk(1, "complex64"))
    np.testing.assert_allclose(arr(g), 2 - 4j, rtol=1e-6)


def test_backward_accumulates(eng):
    _, mk = eng
    x = unigrad.watch(mk([1.0, 2.0]))
    w = unigrad.watch(mk([3.0, 4.0]))
    h = x * w
    (h.sum()).backward(retain_graph=True)
    unigrad.backward(h.sum(), inputs=[x])
    np.testing.assert_allclose(arr(x.grad), [6.0, 8.0])
    np.testing.assert_allclose(arr(w.grad), [1.0, 2.0])
    unigrad.backward((h * h).sum(), inputs=[h])  # a non-leaf target
    np.testing.assert_allclose(arr(h.grad), 2 * np.array([3.0, 8.0]))
    x.grad = None
    unigrad.backward((x**3).sum(), create_graph=True)
    assert isinstance(x.grad, Tensor)
    (g2,) = unigrad.grad(x.grad.sum(), x)
    np.testing.assert_allclose(arr(g2), 6 * np.array([1.0, 2.0]))


# ---- jax speed -------------------------------------------------------------------
def test_jax_loop_traces_once():
    traces = []

    def body(w, x):
        traces.append(1)  # runs only while tracing
        return jnp.tanh(w * x).sum()

    f = unigrad.lift(body)
    for i in range(5):
        w = unigrad.watch(jnp.ones(3) * i)
        x = jnp.arange(3.0) + i
        unigrad.grad(f(w, x) ** 2, w)
        if i == 0:
            size, n_traces = cache_info()["size"], len(traces)
    assert cache_info()["size"] == size
    assert len(traces) == n_traces  # later iterations reuse the compiled functions


def test_a_mutated_unhashable_static_is_never_served_from_a_cache(eng):
    # Compiled functions are cached by graph structure, and the caches outlive the
    # arguments: an opaque unhashable static must never be keyed by identity, or a
    # mutated (or, after garbage collection, a new) object would reuse stale code.
    _, mk = eng

    class Scale:
        __hash__ = None  # unhashable, mutable configuration

        def __init__(self, k):
            self.k = k

    f = unigrad.lift(lambda x, s: x * s.k)
    s = Scale(2.0)
    for k in (2.0, 3.0, 5.0):
        s.k = k
        x = unigrad.watch(mk([1.0, 2.0]))
        y = f(x, s)
        (g,) = unigrad.grad(y.sum(), x)
        np.testing.assert_allclose(arr(y), [k, 2 * k])
        np.testing.assert_allclose(arr(g), [k, k])


def test_equal_list_statics_share_the_compiled_function():
    traces = []

    def body(x, shape):
        traces.append(1)  # runs only while tracing
        return jnp.reshape(x, shape).sum()

    f = unigrad.lift(body)
    for _ in range(3):
        x = unigrad.watch(jnp.arange(6.0))
        unigrad.grad(f(x, [2, 3]), x)  # a new list each time, equal contents
    n_traces = len(traces)
    x = unigrad.watch(jnp.arange(6.0))
    unigrad.grad(f(x, [2, 3]), x)
    assert len(traces) == n_traces


def test_grad_under_caller_jit():
    @jax.jit
    def step(W, x):
        w = unigrad.watch(W)
        y = (jnp.sin(x) * w).sum() ** 2
        (g,) = unigrad.grad(y, w, create_graph=True)
        (h,) = unigrad.grad(g.sum(), w)
        return g.value, h

    g, h = step(jnp.ones(3), jnp.arange(3.0))
    f = lambda w: (jnp.sin(jnp.arange(3.0)) * w).sum() ** 2  # noqa: E731
    np.testing.assert_allclose(g, jax.grad(f)(jnp.ones(3)), rtol=1e-6)
    np.testing.assert_allclose(h, jax.hessian(f)(jnp.ones(3)).sum(0), rtol=1e-6)


def test_vmap_of_a_tape_computation():
    def f(W):
        w = unigrad.watch(W)
        return unigrad.grad((w**3).sum(), w)[0]

    out = jax.vmap(f)(jnp.arange(6.0).reshape(2, 3))
    np.testing.assert_allclose(out, 3 * np.arange(6.0).reshape(2, 3) ** 2)


# ---- memory ----------------------------------------------------------------------
@pytest.mark.parametrize("name", ["numpy", "jax"])
def test_live_nodes_do_not_grow(name, long_run):
    mk = np.asarray if name == "numpy" else jnp.asarray
    n_iter = (10_000 if name == "numpy" else 2_000) if long_run else 500
    refs: list[weakref.ref] = []
    for i in range(n_iter):
        x = unigrad.watch(mk(np.array([1.0, 2.0])))
        y = (x * x).sum()
        unigrad.grad(y, x)
        if i % 100 == 0:
            refs.append(weakref.ref(y._node))
        if i == 100:
            gc.collect()
            base = sum(type(o) is Node for o in gc.get_objects())
    del x, y
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    assert sum(type(o) is Node for o in gc.get_objects()) <= base
