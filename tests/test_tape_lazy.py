"""Deferred tape values (unigrad/tape/_lazy.py): computed once, and the same as eager.

A call is recorded without computing once its signature has been seen, so every test
runs its body at least twice: the first iteration is eager, the later ones deferred.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import unigrad

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pytest.importorskip("autograd")


@pytest.fixture(params=["jax", "numpy"])
def mk(request):
    if request.param == "jax":
        return lambda d, dt="float32": jnp.asarray(np.asarray(d, dtype=dt))
    return lambda d, dt="float32": np.asarray(d, dtype=dt)


def arr(x):
    return np.asarray(unigrad.to_numpy(x))


def test_second_iteration_records_without_computing(mk):
    x = unigrad.watch(mk([1.0, 2.0]))
    (x * 3.0).sum()  # first time: eager, and the signature is remembered
    y = x * 3.0
    assert y._v is None  # deferred
    assert y.shape == (2,)
    assert str(y.dtype) == "float32"
    np.testing.assert_array_equal(arr(y), [3.0, 6.0])  # a read computes it


def test_a_step_runs_each_op_once(mk):
    # the lifted function runs (on numpy) or is traced (on jax) once per evaluation
    calls = []

    def body(w, x):
        calls.append(1)
        return w * x

    f = unigrad.lift(body)
    for i in range(3):
        calls.clear()
        w = unigrad.watch(mk([1.0, 2.0]) + i)
        y = (f(w, mk([3.0, 4.0])) ** 2).sum()
        (g,) = unigrad.grad(y, w)
        value = float(y)  # computed by the same pass as the gradient
        expected = ((np.array([1.0, 2.0]) + i) * [3.0, 4.0]) ** 2
        assert value == pytest.approx(expected.sum())
        np.testing.assert_allclose(arr(g), 2 * (np.array([1.0, 2.0]) + i) * [9.0, 16.0])
        if i > 0 and isinstance(y.value, np.ndarray):
            assert len(calls) == 1  # numpy: once, inside autograd's trace


@pytest.mark.parametrize("i", range(3))
def test_values_held_by_the_caller_survive_a_consumed_graph(mk, i):
    for _ in range(2):
        x = unigrad.watch(mk([1.0, 2.0]) + i)
        h = x * x
        z = h + 1.0  # holds h in another, unconsumed node
        y = (h * 3.0).sum()
        (g,) = unigrad.grad(y, x)  # consumes h's node
        xv = np.array([1.0, 2.0]) + i
        np.testing.assert_allclose(arr(h), xv * xv)
        np.testing.assert_allclose(arr(z), xv * xv + 1)
        np.testing.assert_allclose(arr(y), 3 * (xv * xv).sum())
        np.testing.assert_allclose(arr(g), 6 * xv)
        with pytest.raises(unigrad.GraphFreedError):
            unigrad.grad(z.sum(), x)


def test_a_sibling_gradient_survives_when_the_other_consumes_their_node(mk):
    for _ in range(2):
        x = unigrad.watch(mk([1.0, 2.0]))
        w = unigrad.watch(mk([3.0, 4.0]))
        gx, gw = unigrad.grad((x * x * w).sum(), [x, w], create_graph=True)
        unigrad.grad((gx * gx).sum(), x, retain_graph=False)  # consumes the VJP node
        np.testing.assert_allclose(arr(gw), [1.0, 4.0])
        np.testing.assert_allclose(arr(gx), [6.0, 16.0])


def test_deferred_results_survive_a_pass_that_consumes_what_they_carry(mk):
    # a PINN step (x and y watched separately) run twice: the second time the create_graph
    # results are pending, and the last pass consumes the forward nodes they carry (rule
    # 6b); the results the caller still holds are computed before that, not lost
    w = np.array([[0.3, -1.2, 0.7], [1.1, 0.4, -0.6]])
    got = []
    for _ in range(2):
        x = unigrad.watch(mk([0.1, 0.5, -0.3], "float64"))
        y = unigrad.watch(mk([0.7, -0.2, 0.4], "float64"))
        ww = unigrad.watch(mk(w, "float64"))
        xp = unigrad.namespace(x)
        u = xp.sum(xp.tanh(x * ww[0] + y * ww[1]))
        (ux,) = unigrad.grad(u, x, create_graph=True)
        (uy,) = unigrad.grad(u, y, create_graph=True)
        (uxx,) = unigrad.grad(xp.sum(ux), x, create_graph=True)
        (uyy,) = unigrad.grad(xp.sum(uy), y, create_graph=True)
        (gw,) = unigrad.grad(xp.sum((uxx + uyy) ** 2), ww)
        got.append([arr(t) for t in (ux, uxx, gw)])
    # the closed form of the first derivative: ux = w0 * (1 - tanh(z)^2); rtol 1e-6:
    # jax computes in float32 here (x64 off in this file)
    z = np.array([0.1, 0.5, -0.3]) * w[0] + np.array([0.7, -0.2, 0.4]) * w[1]
    np.testing.assert_allclose(got[0][0], w[0] * (1 - np.tanh(z) ** 2), rtol=1e-6)
    for a, b in zip(got[0], got[1], strict=True):
        np.testing.assert_allclose(b, a, rtol=1e-6)


def test_create_graph_results_are_deferred_and_exact(mk):
    for k in range(2):
        x = unigrad.watch(mk([0.5, 1.5]))
        (g,) = unigrad.grad((x**3).sum(), x, create_graph=True)
        if k:
            assert g._v is None
        (h,) = unigrad.grad(g.sum(), x)
        np.testing.assert_allclose(arr(g), 3 * np.array([0.5, 1.5]) ** 2, rtol=1e-6)
        np.testing.assert_allclose(arr(h), 6 * np.array([0.5, 1.5]), rtol=1e-6)


def test_shape_errors_are_raised_by_the_op(mk):
    x = unigrad.watch(mk([1.0, 2.0]))
    for _ in range(2):
        y = x * 2.0
        with pytest.raises((ValueError, TypeError)):
            y + mk([1.0, 2.0, 3.0])


def test_masks_and_index_arrays_decide_shapes_by_value(mk):
    x = unigrad.watch(mk([1.0, 2.0, 3.0, 4.0]))
    for mask in ([True, False, True, True], [False, True, False, False]):
        y = (x * 2.0)[np.asarray(mask)]
        assert y.shape == (sum(mask),)
        np.testing.assert_allclose(arr(y), 2 * np.array([1.0, 2.0, 3.0, 4.0])[mask])
    for idx in ([0, 1], [3, 2]):
        y = (x * 2.0)[np.asarray(idx)]
        np.testing.assert_allclose(arr(y), 2 * np.array([1.0, 2.0, 3.0, 4.0])[idx])


def test_numpy_floating_point_errors_come_from_the_op():
    x = unigrad.watch(np.array([1.0, 0.0]))
    for _ in range(2):
        x / np.array([1.0, 1.0])  # the signature is seen, so the next call may defer
        with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
            1.0 / (x * 1.0)


def test_jax_debug_nans_checks_each_op():
    x = unigrad.watch(jnp.array([0.0, 1.0]))
    for _ in range(2):
        jnp.log(jnp.ones(2))  # warm jax's own caches
        (x * 1.0).sum()
    with jax.debug_nans(True):
        y = x * 1.0  # computed now (the flag forbids deferring)
        assert y._v is not None


def test_a_read_after_an_in_place_change_raises_as_grad_does():
    a = np.array([1.0, 2.0])
    x = unigrad.watch(np.array([3.0, 4.0]))
    (x * a).sum()  # seen once: the next call defers
    y = (x * a).sum()
    assert y._v is None
    a[0] = 5.0  # the value eager code would have read is gone
    with pytest.raises(unigrad.InplaceModifiedError):
        float(y)


def test_deferred_create_graph_results_keep_their_own_dependencies(mk):
    # after the merge of issue 10: a deferred gradient's node still holds only what the
    # gradient depends on, so a later grad finds the other input unused
    for k in range(3):
        x = unigrad.watch(mk([1.0, 2.0]))
        w = unigrad.watch(mk([3.0, 4.0]))
        gx, gw = unigrad.grad((x * w).sum(), [x, w], create_graph=True)
        if k:
            assert gx._v is None
            assert gw._v is None
        hx, hw = unigrad.grad(gx.sum(), [x, w], allow_unused=True)
        assert hx is None
        np.testing.assert_allclose(arr(hw), [1.0, 1.0])
        np.testing.assert_allclose(arr(gx), [3.0, 4.0])
        np.testing.assert_allclose(arr(gw), [1.0, 2.0])


def test_reads_of_one_array_share_its_snapshot_only_while_it_is_unchanged():
    from unigrad.tape._caches import CACHES

    w = np.array([1.0, 2.0])
    x = unigrad.watch(w)
    y1 = x * 2.0
    y2 = x * 3.0  # w unchanged since y1's snapshot: the copy is shared
    (c1,) = [c for a, c in y1._node.saved if a is w]
    (c2,) = [c for a, c in y2._node.saved if a is w]
    assert c1 is c2
    w[0] = 5.0  # changed in place after both reads
    with pytest.raises(unigrad.InplaceModifiedError):
        unigrad.grad((y1 + y2).sum(), x)
    # changed between two reads, then restored: the second read saw 5, not 1
    w = np.array([1.0, 2.0])
    x = unigrad.watch(w)
    y1 = x * 2.0
    w[0] = 5.0
    y2 = x * 3.0  # a new snapshot (5.0), not the first one
    (c2,) = [c for a, c in y2._node.saved if a is w]
    assert c2[0] == 5.0
    w[0] = 1.0
    with pytest.raises(unigrad.InplaceModifiedError):
        unigrad.grad((y1 + y2).sum(), x)
    # an array reshaped in place is not the array the snapshot saved
    w = np.array([1.0, 2.0])
    x = unigrad.watch(w)
    y1 = x * 2.0
    w.shape = (2, 1)
    y2 = x * 3.0
    (c2,) = [c for a, c in y2._node.saved if a is w]
    assert c2.shape == (2, 1)
    assert CACHES.snapshots.get(id(w))[1]() is c2


def test_static_index_tuples_are_keyed_by_their_values(mk):
    # x[:, 0] and x[:, 1] take the flat recording path: each index is its own op
    for _ in range(3):
        x = unigrad.watch(mk([[1.0, 2.0], [3.0, 4.0]]))
        y = x[:, 0] * 2.0 + x[:, 1] * 3.0 + x[..., None][1:, 0, 0].sum()
        np.testing.assert_array_equal(arr(y), [11.0, 21.0])
        (g,) = unigrad.grad(y.sum(), x)
        np.testing.assert_array_equal(arr(g), [[2.0, 3.0], [4.0, 3.0]])


@pytest.mark.parametrize("scratch_max", [1 << 22, 2])
def test_snapshot_comparison_is_numpys_equality_with_nans_equal(monkeypatch, scratch_max):
    from unigrad.tape import _snapshots

    monkeypatch.setattr(_snapshots, "_SCRATCH_MAX", scratch_max)
    a = np.array([1.0, np.nan, -0.0, 2.0])
    assert _snapshots.equal(a, a.copy())
    assert _snapshots.equal(np.array([0.0, 1.0]), np.array([-0.0, 1.0]))  # == says equal
    assert not _snapshots.equal(np.array([1.0, 2.0]), np.array([1.0, 3.0]))
    assert not _snapshots.equal(np.zeros((2, 1)), np.zeros(2))  # reshaped in place
    assert _snapshots.equal(np.arange(6).reshape(2, 3), np.arange(6).reshape(2, 3))
    strided = np.arange(6).reshape(2, 3)[:, ::2]  # not contiguous
    assert _snapshots.equal(strided, np.array([[0, 2], [3, 5]]))
    assert not _snapshots.equal(strided, np.array([[0, 2], [3, 4]]))
    assert _snapshots.equal(np.array(3.0), np.array(3.0))  # 0-d
    assert _snapshots.equal(np.zeros(0), np.zeros(0))


def test_recycled_snapshot_copies_are_never_shared_by_live_nodes():
    from unigrad.tape._snapshots import POOL

    shape = (128, 128)  # 128 KiB: large enough to be recycled
    w1, w2 = np.ones(shape), np.full(shape, 2.0)
    x1, x2 = unigrad.watch(w1), unigrad.watch(w2)
    y1, y2 = x1 * 3.0, x2 * 3.0  # two live nodes: two distinct copies
    (c1,) = [c for a, c in y1._node.saved if a is w1]
    (c2,) = [c for a, c in y2._node.saved if a is w2]
    assert c1 is not c2
    np.testing.assert_array_equal(c1, w1)
    np.testing.assert_array_equal(c2, w2)
    w1[0, 0] = 5.0
    with pytest.raises(unigrad.InplaceModifiedError):
        unigrad.grad(y1.sum(), x1)
    (g,) = unigrad.grad(y2.sum(), x2)  # its own snapshot is intact
    np.testing.assert_array_equal(g, np.full(shape, 3.0))
    # once no node holds a copy, the next snapshot of that shape takes it
    del y1, y2, g
    for _ in range(20):
        w = np.full(shape, 7.0)
        y = unigrad.watch(w) * 3.0
        (c,) = [c for a, c in y._node.saved if a is w]
        np.testing.assert_array_equal(c, w)
        del y, c
    assert len(POOL.bufs[(shape, w.dtype)]) <= POOL.depth


def test_the_snapshot_pool_keeps_a_bounded_number_of_bytes(monkeypatch):
    from unigrad.tape._snapshots import POOL

    monkeypatch.setattr(POOL, "bufs", {})
    monkeypatch.setattr(POOL, "nbytes", 0)
    monkeypatch.setattr(POOL, "max_bytes", 3 * 128 * 128 * 8)
    ws = [np.full((128, 128), float(k)) for k in range(5)]
    xs = [unigrad.watch(w) for w in ws]
    ys = [x * 2.0 for x in xs]  # five live snapshots of one shape
    assert len(POOL.bufs[((128, 128), ws[0].dtype)]) == 3
    assert POOL.nbytes == 3 * 128 * 128 * 8
    for y, w in zip(ys, ws, strict=True):
        (c,) = [c for a, c in y._node.saved if a is w]
        np.testing.assert_array_equal(c, w)


def test_index_tuples_keyed_by_their_contents_never_share_a_recipe(mk, monkeypatch):
    # x[idx] with ints, slices, None and ... is keyed by the index itself: indices that
    # give the same output shape (x[:, 0] and x[:, 1], x[0, :] and x[:, 2]) must each get
    # their own recorded function and compiled gradient, deferred or not.
    from unigrad.tape import _plan, _recompile

    monkeypatch.setattr(_plan, "RECOMPILES", _recompile.Recompiles())
    data = np.arange(9.0).reshape(3, 3)
    indices = [
        (slice(None), 0),
        (slice(None), 1),
        (0, slice(None)),
        (slice(None), 2),
        (slice(0, 2), 0),
        (slice(None, None, 2), 1),
        (None, 1),
        (Ellipsis, 0),
        (1, Ellipsis),
        (-1, slice(None, None, -1)),
    ]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _index_every_way(mk, data, indices)
    recompiles = [w for w in caught if issubclass(w.category, unigrad.tape.RecompileWarning)]
    if mk(data).__class__.__module__.startswith("jax"):  # a new index compiles: it says which
        assert len(recompiles) == 1
        assert "argument 1 of _getitem" in str(recompiles[0].message)


def _index_every_way(mk, data, indices):
    for _ in range(3):  # eager, then deferred, then from every cache
        for idx in indices:
            x = unigrad.watch(mk(data))
            y = x[idx]
            np.testing.assert_array_equal(arr(y), data[idx])
            weights = mk(np.arange(1.0, 1.0 + data[idx].size).reshape(data[idx].shape))
            (g,) = unigrad.grad((y * weights).sum(), x)
            expected = np.zeros_like(data)
            np.add.at(expected, idx, np.asarray(weights))
            np.testing.assert_allclose(arr(g), expected)


def test_writing_equal_values_with_other_bytes_is_not_an_inplace_change():
    # Small arrays' snapshots are compared by their bytes first; 0.0 and -0.0 differ in
    # bytes but not in value: not a change, as NumPy's comparison says.
    w = np.array([0.0, 2.0], dtype=np.float32)
    x = unigrad.watch(np.array([1.0, 3.0], dtype=np.float32))
    y = (x * w).sum()
    w[0] = -0.0
    (g,) = unigrad.grad(y, x)
    np.testing.assert_array_equal(arr(g), [0.0, 2.0])
    y = (x * w).sum()
    w[1] = 2.5
    with pytest.raises(unigrad.InplaceModifiedError):
        unigrad.grad(y, x)
