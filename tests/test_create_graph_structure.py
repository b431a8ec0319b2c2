"""Row 14: a create_graph gradient depends on exactly what its backward formulas read.

One test per class of formula (semantics row 14): linear ops read nothing, a product
and a matmul read the other operand, tanh reads its output, ``a / b`` reads ``b`` for
``a`` and both for ``b``, a cut branch is not on any path, and two results of one node
(paddle shares one double-grad node between them) each have their own dependence.
paddle learns it from a table of formulas (`unigrad.backends.paddle._structure`), the tape
from the VJP it differentiates, torch from its own graph: the answers are the same.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad


def _unused(backend, out, inputs, seed=None):
    """``grad(out, inputs, seed, retain_graph=True, allow_unused=True)``, with a ones seed
    by default (results of one call share graph nodes on torch: keep them)."""
    if seed is None:
        seed = backend.tensor(np.ones(backend.shape(out)), backend.dtype(out))
    return unigrad.grad(out, inputs, seed, retain_graph=True, allow_unused=True)


def test_a_linear_op_reads_only_the_seed(backend) -> None:
    xp = backend.xp
    x, a = backend.leaf([0.5, -1.0], "float64"), backend.leaf([2.0, 3.0], "float64")
    s = backend.leaf([[1.5], [-2.0]], "float64")
    y = xp.reshape(x * 3.0 + a - 1.0, (2, 1))
    gx, ga = unigrad.grad(y, [x, a], s, create_graph=True)
    backend.close(gx, [4.5, -6.0])
    assert backend.requires_grad(gx)
    assert backend.requires_grad(ga)
    hx, ha, hs = _unused(backend, gx, [x, a, s])
    assert hx is None
    assert ha is None
    backend.close(hs, [[3.0], [3.0]])
    # without a seed that requires grad, the gradient is a constant
    (c,) = unigrad.grad(xp.sum(x * 3.0 + a), x, create_graph=True)
    assert not backend.requires_grad(c)


def test_a_product_reads_the_other_factors(backend) -> None:
    x, a, b = (backend.leaf(v, "float64") for v in ([0.5, 2.0], [1.5, -1.0], [3.0, 0.25]))
    gx, ga = unigrad.grad(x * a * b, [x, a], create_graph=True)
    hx, ha, hb = _unused(backend, gx, [x, a, b])  # gx = a * b
    assert hx is None
    backend.close(ha, [3.0, 0.25])
    backend.close(hb, [1.5, -1.0])
    hx, ha, hb = _unused(backend, ga, [x, a, b])  # ga = x * b
    assert ha is None
    backend.close(hx, [3.0, 0.25])
    backend.close(hb, [0.5, 2.0])


def test_matmul_reads_the_other_operand(backend) -> None:
    xs = np.arange(6.0).reshape(2, 3) / 4
    ws = np.arange(6.0).reshape(3, 2) / 3 - 1
    x, w = backend.leaf(xs, "float64"), backend.leaf(ws, "float64")
    gx, gw = unigrad.grad(x @ w, [x, w], create_graph=True)
    backend.close(gx, np.ones((2, 2)) @ ws.T)
    hx, hw = _unused(backend, gx, [x, w])  # ones @ w.T
    assert hx is None
    backend.close(hw, np.full((3, 2), 2.0))
    hx, hw = _unused(backend, gw, [x, w])  # x.T @ ones
    assert hw is None
    backend.close(hx, np.full((2, 3), 2.0))


def test_tanh_reads_its_output(backend) -> None:
    xp = backend.xp
    x, a = backend.leaf([0.5, -1.0], "float64"), backend.leaf([2.0, 3.0], "float64")
    t = np.tanh([0.5, -1.0])
    gx, ga = unigrad.grad(xp.tanh(x) * a, [x, a], create_graph=True)
    backend.close(ga, t, rtol=1e-12)
    hx, ha = _unused(backend, ga, [x, a])  # ga = tanh(x): not a
    assert ha is None
    backend.close(hx, 1 - t * t, rtol=1e-12)
    hx, ha = _unused(backend, gx, [x, a])  # gx = a (1 - tanh(x)^2): both
    backend.close(hx, -2 * np.array([2.0, 3.0]) * t * (1 - t * t), rtol=1e-12)
    backend.close(ha, 1 - t * t, rtol=1e-12)


def test_a_division_reads_the_divisor_and_for_it_both(backend) -> None:
    a, b = backend.leaf([1.0, -2.0], "float64"), backend.leaf([2.0, 4.0], "float64")
    ga, gb = unigrad.grad(a / b, [a, b], create_graph=True)
    ha, hb = _unused(backend, ga, [a, b])  # 1 / b
    assert ha is None
    backend.close(hb, [-0.25, -1 / 16], rtol=1e-12)
    ha, hb = _unused(backend, gb, [a, b])  # -a / b^2
    backend.close(ha, [-0.25, -1 / 16], rtol=1e-12)
    backend.close(hb, [0.25, -4 / 64], rtol=1e-12)


def test_a_cut_branch_reads_nothing_for_the_other_inputs(backend) -> None:
    xp = backend.xp
    x, a, b = (backend.leaf(v, "float64") for v in ([0.5, 2.0], [1.5, -1.0], [3.0, 0.25]))
    v = x * a
    (gx,) = unigrad.grad(xp.sin(v) * b + x * b, x, no_grad_vars=[v], create_graph=True)
    backend.close(gx, [3.0, 0.25])
    hx, ha, hb = _unused(backend, gx, [x, a, b])  # b: the branch through v is cut
    assert hx is None
    assert ha is None
    backend.close(hb, [1.0, 1.0])


def test_results_of_one_node_have_their_own_dependence(backend) -> None:
    # paddle computes both in one double-grad node: each result gets a node of its own
    x, a = backend.leaf([0.5, 2.0], "float64"), backend.leaf([1.5, -1.0], "float64")
    gx, ga = unigrad.grad(x * a, [x, a], create_graph=True)  # a, x
    hx, ha = _unused(backend, gx, [x, a])
    assert hx is None
    backend.close(ha, [1.0, 1.0])
    with pytest.raises(unigrad.UnusedInputError):
        unigrad.grad(gx, x, backend.tensor([1.0, 1.0], "float64"))
    # (the graph kept: a pass through gx consumes the forward node x * a, which ga
    # carries too: rule 6b)
    (ha,) = unigrad.grad(gx, a, backend.tensor([1.0, 1.0], "float64"), retain_graph=True)
    backend.close(ha, [1.0, 1.0])
    hx, ha = _unused(backend, ga, [x, a])
    assert ha is None
    backend.close(hx, [1.0, 1.0])
    (z,) = unigrad.grad(gx, x, backend.tensor([1.0, 1.0], "float64"), materialize_grads=True)
    backend.close(z, [0.0, 0.0])


def test_a_cut_leaf_read_by_a_formula_is_a_dependence(backend) -> None:
    # differential seed 11: d(x1 @ x2)/dx1 is ones @ x2.T; the cut stops the flow to x2,
    # not the dependence of the result on x2's value (paddle returned a constant)
    x1 = backend.leaf([[1.07, -0.98], [-0.84, -0.35], [-1.37, -0.74]], "float64")
    x2 = backend.leaf([[-0.43, -0.4, 1.26], [1.2, 0.89, 1.34]], "float64")
    (g,) = unigrad.grad(x1 @ x2, x1, create_graph=True, no_grad_vars=[x2])
    assert backend.requires_grad(g)
    (h,) = unigrad.grad(backend.xp.sum(g), x2)
    backend.close(h, np.full((2, 3), 3.0))


@pytest.mark.parametrize("batched", [False, True])
def test_a_view_of_a_product_differentiates_twice_to_a_constant(backend, batched) -> None:
    # differential seed 10 (shrunk): paddle's graph of g reaches its copy of the constant
    # seed through the view op's double-grad node; that copy is unigrad's, a constant
    x = backend.leaf([[0.7, -1.01], [-0.48, 1.23]], "float64")
    (g,) = unigrad.grad(backend.xp.expand_dims(x * x, axis=2), x, create_graph=True)
    backend.close(g, 2 * np.array([[0.7, -1.01], [-0.48, 1.23]]))
    if batched:
        seed = backend.tensor(np.ones((3, 2, 2)), "float64")
        (h,) = unigrad.grad(g, x, seed, create_graph=True, is_grads_batched=True)
        backend.close(h, np.full((3, 2, 2), 2.0))
    else:
        (h,) = unigrad.grad(g, x, create_graph=True)
        backend.close(h, np.full((2, 2), 2.0))
    assert not backend.requires_grad(h)


@pytest.mark.parametrize("backend", ["paddle"], indirect=True)
def test_paddle_an_unknown_formula_reads_everything(backend, monkeypatch) -> None:
    # a node in no table keeps paddle's own answer (a spurious dependence, zeros), never
    # a missing one: with multiply's formula forgotten, d(x*a)/dx reaches x again
    from unigrad.backends.paddle import _formulas

    monkeypatch.delitem(_formulas.READS, "MultiplyGradNode")
    x, a = backend.leaf([0.5, -1.0], "float64"), backend.leaf([2.0, 3.0], "float64")
    (gx,) = unigrad.grad(x * a, x, create_graph=True)
    hx, ha = _unused(backend, gx, [x, a])
    backend.close(hx, [0.0, 0.0])
    backend.close(ha, [1.0, 1.0])
    monkeypatch.undo()
    (gx,) = unigrad.grad(x * a, x, create_graph=True)
    assert _unused(backend, gx, [x, a])[0] is None


def test_a_complex_product_reads_the_other_factor(backend) -> None:
    z = backend.leaf([0.3 + 0.4j, -0.5 + 0.2j], "complex128")
    w = backend.leaf([1.0 - 1.0j, 0.5 + 2.0j], "complex128")
    seed = backend.tensor([1.0, 1.0j], "complex128")
    (gz,) = unigrad.grad(z * w, z, seed, create_graph=True)  # conj(w) * seed
    backend.close(gz, np.conj([1.0 - 1.0j, 0.5 + 2.0j]) * np.array([1.0, 1.0j]))
    assert backend.requires_grad(gz)
    assert _unused(backend, gz, [z], seed) == (None,)
    with pytest.raises(unigrad.UnusedInputError):
        unigrad.grad(gz, z, seed)
    (c,) = unigrad.grad(z * 2.0 + 1.0j, z, seed, create_graph=True)
    assert not backend.requires_grad(c)


@pytest.mark.parametrize("backend", ["paddle"], indirect=True)
def test_paddle_node_memo_lives_only_as_long_as_its_graphs(backend) -> None:
    # the memo of node edges (`_paddle_nodes`) holds nodes, which hold their graphs: it
    # must be emptied once a tensor it walked from is freed, without the collector
    import gc

    from unigrad.backends.paddle import _nodes as _paddle_nodes

    xp = backend.xp
    was = gc.isenabled()
    gc.disable()
    try:
        x = backend.leaf([0.5, -1.0], "float64")
        y = xp.tanh(x * 2.0)
        out = xp.sum(y * y)
        (g,) = unigrad.grad(out, x, create_graph=True)
        assert _paddle_nodes._MEMO.kids
        assert _paddle_nodes._MEMO.names
        del out  # a tensor the walk started from: the memo lets go of every graph
        assert not _paddle_nodes._MEMO.kids
        assert not _paddle_nodes._MEMO.names
        out = xp.sum(g)
        (h,) = unigrad.grad(out, x, create_graph=True)
        backend.close(h, _tanh_square_second(np.array([0.5, -1.0])))
        assert _paddle_nodes._MEMO.kids
        del out
        assert not _paddle_nodes._MEMO.kids
        # a consuming call holds no tensor: it keeps nothing in the memo
        out = xp.sum(h)
        unigrad.grad(out, x)
        assert not _paddle_nodes._MEMO.kids
    finally:
        if was:
            gc.enable()


def _tanh_square_second(v):
    # d/dv of d/dv sum(tanh(2v)^2) = d/dv 4 t (1 - t^2), t = tanh(2v)
    t = np.tanh(2 * v)
    return 8 * (1 - t**2) * (1 - 3 * t**2)


@pytest.mark.parametrize("backend", ["paddle"], indirect=True)
def test_paddle_node_wrappers_are_one_object_per_node(backend) -> None:
    # the memo and every structure walk key nodes by their wrapper: paddle (pybind11)
    # must give back the live wrapper of a node, whichever route reaches it
    from unigrad.backends.paddle._refcounts import _grad_fn

    x = backend.leaf([0.5, -1.0], "float64")
    y = backend.xp.tanh(x * 2.0)
    z = y * y
    node = _grad_fn(y)
    assert node is _grad_fn(z).next_functions[0]
    assert node is _grad_fn(z).next_functions[1]
    assert _grad_fn(x) is node.next_functions[0].next_functions[0]


@pytest.mark.parametrize("backend", ["paddle"], indirect=True)
def test_paddle_walks_after_an_in_place_change_see_the_new_graph(backend) -> None:
    # a memoized graph, then an in-place op gives y a new node: the next call walks it
    x, a = backend.leaf([0.5, -1.0], "float64"), backend.leaf([2.0, 3.0], "float64")
    y = x * a
    (gx,) = unigrad.grad(y, x, backend.tensor([1.0, 1.0], "float64"), create_graph=True)
    backend.close(gx, [2.0, 3.0])
    y = y * 1.0
    y.add_(x * x)  # y = x*a + x^2
    ga, gx2 = unigrad.grad(y, [a, x], backend.tensor([1.0, 1.0], "float64"), create_graph=True)
    backend.close(ga, [0.5, -1.0])
    backend.close(gx2, [3.0, 1.0])  # a + 2x
    hx, ha = _unused(backend, gx2, [x, a])
    backend.close(hx, [2.0, 2.0])
    backend.close(ha, [1.0, 1.0])
    hx, ha = _unused(backend, ga, [x, a])  # ga = x
    backend.close(hx, [1.0, 1.0])
    assert ha is None
