"""PyTorch's autograd tests, replayed through unigrad on every backend.

Sources (pytorch/pytorch):

* ``test/test_autograd.py``, class ``TestAutograd``
  (https://github.com/pytorch/pytorch/blob/main/test/test_autograd.py)
* ``test/functorch/test_eager_transforms.py``, class ``TestGradTransform`` (the tests about
  grad / vjp and their compositions)
  (https://github.com/pytorch/pytorch/blob/main/test/functorch/test_eager_transforms.py)

``torch.autograd.grad`` is ``unigrad.grad``, ``torch.autograd.backward`` / ``t.backward``
is ``unigrad.backward``, ``requires_grad=True`` is ``unigrad.watch``. functorch's
``grad(f)(x)`` is ``unigrad.grad(f(x), x)`` on a watched ``x``, its ``vjp(f, x)[1](v)`` is
``unigrad.grad(f(x), x, v)`` and ``grad(grad(f))`` is two calls, the first with
``create_graph=True``. ``torch.randn`` draws are NumPy draws of the same shape and dtype
(test_autograd.py's default dtype is float64). Ops are upstream's: ``torch.X`` on torch,
paddle's function of the same name on paddle, the namespace's on the tapes
(``_native.py``). Where unigrad's contract (docs/semantics.md) decides differently from
torch, the test names the rule and asserts unigrad's answer.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from _native import matmul, native

import unigrad

RTOL = 1e-12  # float64 closed forms


def randn(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def chunk(backend, x, n):
    """torch.chunk / paddle.chunk on their backends; equal slices on the tapes (the
    namespace has no chunk)."""
    if backend.name in ("torch", "paddle"):
        return importlib.import_module(backend.name).chunk(x, n)
    size = x.shape[0] // n
    return [x[i * size : (i + 1) * size] for i in range(n)]


# ---- test/test_autograd.py::TestAutograd ---------------------------------------------------
@pytest.mark.needs("backward_create_graph")
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")
def test_hessian_vector(backend) -> None:
    """test_autograd.py::TestAutograd::test_hessian_vector."""
    xn, yn = randn(2, 2, seed=1), randn(2, 2, seed=2)
    x, y = backend.leaf(xn, "float64"), backend.leaf(yn, "float64")
    z = x**2 + y * x + y**2
    unigrad.backward(z, backend.ones((2, 2), "float64"), create_graph=True)
    backend.close(backend.grad_of(x), 2 * xn + yn, rtol=RTOL)
    backend.close(backend.grad_of(y), xn + 2 * yn, rtol=RTOL)
    grad_sum = 2 * backend.grad_of(x) + backend.grad_of(y)
    unigrad.backward(grad_sum, backend.ones((2, 2), "float64"))
    backend.close(backend.grad_of(x), 2 * xn + yn + 5, rtol=RTOL)
    backend.close(backend.grad_of(y), xn + 2 * yn + 4, rtol=RTOL)


@pytest.mark.needs("backward_create_graph")
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")
def test_grad(backend) -> None:
    """test_autograd.py::TestAutograd::test_grad (torch's shape-mismatch RuntimeError is
    GradOutputsError, a RuntimeError, rule 4)."""
    xn, yn = randn(2, 2, seed=3), randn(2, 2, seed=4)
    x, y = backend.leaf(xn, "float64"), backend.leaf(yn, "float64")
    z = x**2 + y * x + y**2
    unigrad.backward(z, backend.ones((2, 2), "float64"), create_graph=True)
    backend.close(backend.grad_of(x), 2 * xn + yn, rtol=RTOL)
    backend.close(backend.grad_of(y), xn + 2 * yn, rtol=RTOL)
    grad_sum = 2 * backend.grad_of(x) + backend.grad_of(y)
    x_hv = unigrad.grad(
        outputs=[grad_sum],
        grad_outputs=[backend.ones((2, 2), "float64")],
        inputs=[x],
        create_graph=True,
    )
    backend.close(x_hv[0], np.ones((2, 2)) * 5, rtol=RTOL)
    backend.close(backend.grad_of(x), 2 * xn + yn, rtol=RTOL)  # grad writes no .grad
    backend.close(backend.grad_of(y), xn + 2 * yn, rtol=RTOL)
    with pytest.raises(RuntimeError, match="shape"):
        unigrad.grad(
            outputs=[grad_sum],
            grad_outputs=[backend.ones((2,), "float64")],
            inputs=[x],
            create_graph=True,
        )


@pytest.mark.filterwarnings("ignore:The .grad attribute of a Tensor that is not a leaf:UserWarning")
def test_grad_nonleaf(backend) -> None:
    """test_autograd.py::TestAutograd::test_grad_nonleaf (torch warns, as upstream's run does,
    when its x.grad of a non-leaf is read)."""
    x_init = backend.leaf(randn(2, 2, seed=5), "float64")
    x = x_init
    yn = randn(2, 2, seed=6)
    y = backend.leaf(yn, "float64")
    grad_output = backend.ones((2, 2), "float64")

    def fn(x):
        return x**2 + y * x + y**2

    for _ in range(5):
        (grad_x,) = unigrad.grad(fn(x), x, grad_outputs=grad_output, create_graph=True)
        backend.close(grad_x, 2 * backend.np(x) + yn, rtol=RTOL)
        assert backend.grad_of(y) is None
        assert backend.grad_of(x) is None
        x = x + 0.05 * grad_x
    val_init = backend.value(backend.xp.sum(fn(x_init)))
    val_final = backend.value(backend.xp.sum(fn(x)))
    assert val_final > val_init
    unigrad.backward(x, grad_output)
    assert backend.grad_of(y) is not None
    assert backend.grad_of(x_init) is not None


def test_grad_nonleaf_many_outputs(backend) -> None:
    """test_autograd.py::TestAutograd::test_grad_nonleaf_many_outputs (without the hook:
    leaf hooks are the framework's, rule 17; x.chunk(2) as ``chunk``). paddle 3.3.1's
    ``paddle.grad`` cannot stop at outputs of ``chunk`` (a raw ``SystemError``, natively
    too): unigrad raises UnsupportedFeatureError there, and the graph stays usable."""
    x = backend.leaf(randn(4, 2, seed=7), "float64")
    a, b = chunk(backend, x, 2)
    go_np = randn(2, 2, seed=8)
    go = backend.tensor(go_np, "float64")
    if backend.name == "paddle":
        with pytest.raises(unigrad.UnsupportedFeatureError, match="split, chunk or unbind"):
            unigrad.grad((a + 2 * b), [a, b], grad_outputs=go, create_graph=True)
        (gx,) = unigrad.grad((a + 2 * b), x, grad_outputs=go)
        backend.close(gx, np.concatenate([go_np, 2 * go_np]), rtol=RTOL)
        return
    grad_a, grad_b = unigrad.grad((a + 2 * b), [a, b], grad_outputs=go, create_graph=True)
    backend.close(grad_a, go_np, rtol=RTOL)
    backend.close(grad_b, go_np * 2, rtol=RTOL)
    assert backend.grad_of(x) is None


def test_sharded_grad(backend) -> None:
    """test_autograd.py::TestAutograd::test_sharded_grad."""
    leaves = [backend.leaf(np.zeros((5, 5)), "float64") for _ in range(10)]
    intermediates = [lf * i + lf * lf for i, lf in enumerate(leaves)]
    loss = backend.xp.sum(sum(v * i for i, v in enumerate(intermediates)))
    shard_size = 2
    groups = [intermediates[i : i + shard_size] for i in range(0, 10, shard_size)]
    d_intermediates = [d for batch in groups for d in unigrad.grad(loss, batch, retain_graph=True)]
    unigrad.backward(intermediates, d_intermediates)
    for i, lf in enumerate(leaves):
        backend.close(backend.grad_of(lf), i * i * (1 + backend.np(lf)), rtol=RTOL)


def test_backward_badcalls(backend) -> None:
    """test_autograd.py::TestAutograd::test_backward_badcalls ('does not require grad':
    NotDifferentiableError, a RuntimeError, rule 10)."""
    x = backend.ones((1,))
    with pytest.raises(unigrad.NotDifferentiableError, match="does not require grad"):
        unigrad.backward(x)


def test_grad_badcalls(backend) -> None:
    """test_autograd.py::TestAutograd::test_grad_badcalls.

    torch raises for ``grad(x, y)`` where y = x**2 of a constant x; rule 10: the output
    does not require grad (NotDifferentiableError, a RuntimeError). ``grad(y, x)`` of the
    constant x: the output y does not require grad either.
    """
    x = backend.ones((1,))
    y = x**2
    with pytest.raises(unigrad.NotDifferentiableError, match="does not require grad"):
        unigrad.grad(x, y)
    with pytest.raises(unigrad.NotDifferentiableError, match="does not require grad"):
        unigrad.grad(y, x)
    x = backend.leaf(np.ones(1))
    y = x**2
    backend.close(unigrad.grad(y, x)[0], [2.0])


def test_grad_unreachable(backend) -> None:
    """test_autograd.py::TestAutograd::test_grad_unreachable (rule 9: 'Set allow_unused=True'
    is UnusedInputError, a RuntimeError)."""
    x, y = backend.leaf(np.ones(1)), backend.leaf(np.ones(1))
    _z, _w = x * 2, y * 2
    grad_x, grad_y = unigrad.grad(x * 2, [x, y], allow_unused=True)
    backend.close(grad_x, [2.0])
    assert grad_y is None
    z = backend.leaf(np.ones(1))
    grad_x, grad_z = unigrad.grad(x * 2, [x, z], allow_unused=True)
    backend.close(grad_x, [2.0])
    assert grad_z is None
    with pytest.raises(RuntimeError, match="allow_unused=True"):
        unigrad.grad(x * 2, [x, y], allow_unused=False)


def test_grad_unreachable_discovery(backend) -> None:
    """test_autograd.py::TestAutograd::test_grad_unreachable_discovery (upstream's MyFunc, a
    custom Function that must not run, is ``t * 2`` of a leaf of its own here: the pass must
    not reach it): y is unused, z is used; ``backward(x, inputs=(y,))`` leaves y.grad None
    ("allow_unused is implicitly True")."""
    x = backend.leaf(randn(1, seed=106), "float64") * 2
    y = backend.leaf(randn(1, seed=107), "float64")
    (g_y,) = unigrad.grad(x, (y,), allow_unused=True)
    assert g_y is None
    z = backend.leaf(randn(1, seed=108), "float64")
    g_y, g_z = unigrad.grad(x + z, (y, z), allow_unused=True)
    assert g_y is None
    assert g_z is not None
    x = backend.leaf(randn(1, seed=109), "float64") * 2
    unigrad.backward(x, inputs=(y,))
    assert backend.grad_of(y) is None


def test_backward(backend) -> None:
    """test_autograd.py::TestAutograd::test_backward."""
    vn, xn, zn = randn(5, 5, seed=9), randn(5, 5, seed=10), randn(5, 5, seed=11)
    yn = np.random.default_rng(12).random((5, 5)) + 0.1
    go_np = randn(5, 5, seed=13)
    v, x = backend.leaf(vn, "float64"), backend.leaf(xn, "float64")
    y, z = backend.leaf(yn, "float64"), backend.leaf(zn, "float64")
    go = backend.tensor(go_np, "float64")
    unigrad.backward(v, go)
    backend.close(backend.grad_of(v), go_np, rtol=RTOL)
    a = x + (y * z) + 4 * z**2 * x / y
    unigrad.backward(a, go)
    backend.close(backend.grad_of(x), (4 * zn**2 / yn + 1) * go_np, rtol=1e-10)
    backend.close(backend.grad_of(y), (zn - 4 * xn * zn**2 / yn**2) * go_np, rtol=1e-10)
    backend.close(backend.grad_of(z), (8 * xn * zn / yn + yn) * go_np, rtol=1e-10)


def test_multi_backward(backend) -> None:
    """test_autograd.py::TestAutograd::test_multi_backward."""
    n = {k: randn(5, 5, seed=20 + i) for i, k in enumerate("xyqab")}
    t = {k: backend.leaf(v, "float64") for k, v in n.items()}
    q2 = t["q"] * 2
    z = t["x"] + t["y"] + q2
    c = t["a"] * t["b"] + q2
    gz, gc = randn(5, 5, seed=30), randn(5, 5, seed=31)
    unigrad.backward([z, c], [backend.tensor(gz, "float64"), backend.tensor(gc, "float64")])
    backend.close(backend.grad_of(t["x"]), gz, rtol=RTOL)
    backend.close(backend.grad_of(t["y"]), gz, rtol=RTOL)
    backend.close(backend.grad_of(t["a"]), gc * n["b"], rtol=RTOL)
    backend.close(backend.grad_of(t["b"]), gc * n["a"], rtol=RTOL)
    backend.close(backend.grad_of(t["q"]), (gc + gz) * 2, rtol=RTOL)


def test_multi_backward_no_grad(backend) -> None:
    """test_autograd.py::TestAutograd::test_multi_backward_no_grad (an output with no
    history: NotDifferentiableError, a RuntimeError, rule 10)."""
    x = backend.leaf(randn(5, 5, seed=32), "float64")
    y = backend.tensor(randn(5, 5, seed=33), "float64")
    z = x + y
    q = y * 2
    with pytest.raises(RuntimeError):
        unigrad.backward([z, q], [backend.ones((5, 5), "float64"), backend.ones((5, 5), "float64")])


def test_dependent_backward(backend) -> None:
    """test_autograd.py::TestAutograd::test_dependent_backward."""
    xn = randn(10, seed=34)
    x = backend.leaf(xn, "float64")
    y = x**2
    z = y**3
    go_y, go_z = randn(10, seed=35), randn(10, seed=36)
    unigrad.backward([y, z], [backend.tensor(go_y, "float64"), backend.tensor(go_z, "float64")])
    backend.close(backend.grad_of(x), 2 * xn * go_y + 6 * xn**5 * go_z, rtol=1e-10)


def test_duplicate_backward_root(backend) -> None:
    """test_autograd.py::TestAutograd::test_duplicate_backward_root (rule 1)."""
    an, bn = randn(5, 5, seed=37), randn(5, 5, seed=38)
    a, b = backend.leaf(an, "float64"), backend.leaf(bn, "float64")
    x = a * b
    go = randn(5, 5, seed=39)
    unigrad.backward([x, x], [backend.tensor(go, "float64"), backend.tensor(go, "float64")])
    backend.close(backend.grad_of(a), bn * go * 2, rtol=RTOL)
    backend.close(backend.grad_of(b), an * go * 2, rtol=RTOL)


def test_backward_no_grad(backend) -> None:
    """test_autograd.py::TestAutograd::test_backward_no_grad.

    torch raises RuntimeError for a ``None`` seed of a non-scalar output; rule 3 decides:
    a ``None`` seed means ones for a real output of any shape (paddle's rule).
    """
    a = backend.leaf(randn(5, 5, seed=40), "float64")
    b = a + 2
    unigrad.backward([b], [None])
    backend.close(backend.grad_of(a), np.ones((5, 5)), rtol=0)


def test_backward_twice_with_saved_values(backend) -> None:
    """test_autograd.py::TestAutograd::test_backward_twice_with_saved_values ('Specify
    retain_graph=True': GraphFreedError, a RuntimeError, rule 6). torch writes
    ``c[[1, 2]] = b[[1, 1]]`` into a zero tensor; the replay builds the same ``c`` without
    in-place writes (jax and numpy arrays are immutable): ``c = b[[0, 1, 1]] * [0, 1, 1]``."""
    b = backend.leaf(randn(3, seed=41), "float64")
    c = b[backend.tensor([0, 1, 1], "int64")] * backend.tensor([0.0, 1.0, 1.0], "float64")
    seed = backend.tensor([1, 1, 1], "float64")
    unigrad.backward(c, seed)
    backend.close(backend.grad_of(b), [0.0, 2.0, 0.0], rtol=0)
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        unigrad.backward(c, seed)


def test_backward_twice_retained_graph_with_saved_values(backend) -> None:
    """test_autograd.py::TestAutograd::test_backward_twice_retained_graph_with_saved_values
    (``c`` built as in the previous replay)."""
    b = backend.leaf(randn(3, seed=42), "float64")
    c = b[backend.tensor([0, 1, 1], "int64")] * backend.tensor([0.0, 1.0, 1.0], "float64")
    seed = backend.tensor([1, 1, 1], "float64")
    unigrad.backward(c, seed, retain_graph=True)
    unigrad.backward(c, seed)
    backend.close(backend.grad_of(b), [0.0, 4.0, 0.0], rtol=0)


def test_backward_twice_without_saved_values(backend) -> None:
    """test_autograd.py::TestAutograd::test_backward_twice_without_saved_values.

    torch lets ``c = b + 1`` be differentiated twice (its node saved nothing); rule 6
    decides: every node a pass ran is consumed, GraphFreedError.
    """
    b = backend.leaf(randn(3, seed=43), "float64")
    c = b + 1
    seed = backend.tensor([1, 1, 1], "float64")
    unigrad.backward(c, seed)
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.backward(c, seed)
    backend.close(backend.grad_of(b), [1.0, 1.0, 1.0], rtol=0)


def test_backward_twice_retained_graph_without_saved_values(backend) -> None:
    """test_autograd.py::TestAutograd::test_backward_twice_retained_graph_without_saved_values."""
    b = backend.leaf(randn(3, seed=44), "float64")
    c = b[backend.tensor([0, 1, 1], "int64")] * backend.tensor([0.0, 1.0, 1.0], "float64")
    seed = backend.tensor([1, 1, 1], "float64")
    unigrad.backward(c, seed, retain_graph=True)
    unigrad.backward(c, seed)
    backend.close(backend.grad_of(b), [0.0, 4.0, 0.0], rtol=0)


def test_requires_grad(backend) -> None:
    """test_autograd.py::TestAutograd::test_requires_grad (without the private hooks)."""
    x, y = backend.tensor(randn(5, 5, seed=45)), backend.tensor(randn(5, 5, seed=46))
    z = backend.leaf(randn(5, 5, seed=47))
    a = x + y
    assert not backend.requires_grad(a)
    b = a + z
    assert backend.requires_grad(b)
    unigrad.backward(b, backend.ones((5, 5)))
    backend.close(backend.grad_of(z), np.ones((5, 5)), rtol=0)


def _key(backend, idx):
    """upstream's index with its lists as int64 tensors of the backend."""
    conv = lambda i: backend.tensor(i, "int64") if isinstance(i, list) else i  # noqa: E731
    return tuple(conv(i) for i in idx) if isinstance(idx, tuple) else conv(idx)


INDICES_2D = [
    1,
    (1, 1),
    slice(1, None),
    slice(None, 2),
    (slice(None, 2), 2),
    (slice(1, 2), 2),
    (1, slice(2, None)),
    (slice(None, None), slice(2, None)),
    [0, 2],
    (Ellipsis, slice(2, None)),
    ([0], [0]),
    ([1, 2, 3], [0]),
    ([1, 2], [2, 1]),
    ([[1, 2], [3, 0]], [[0, 1], [2, 3]]),
    (slice(None), [2, 3]),
    ([2, 3], slice(None)),
    [0],
    ([0],),
]
INDICES_3D = [
    (slice(None), [0], [0]),
    ([0], [0], slice(None)),
    (slice(None), [0, 1, 2], [0]),
    ([0, 1, 2], [0], slice(None)),
    (slice(None), [1, 2], [2, 1]),
    ([1, 2], [2, 1], slice(None)),
    (slice(None), [[1, 2], [2, 0]], [[0, 1], [2, 3]]),
    ([[1, 2], [3, 0]], [[0, 1], [2, 2]], slice(None)),
    (slice(None), slice(None), [2, 1]),
    (slice(None), [2, 1], slice(None)),
    ([2, 1], slice(None), slice(None)),
    ([0],),
    ([0], slice(None)),
    ([0], Ellipsis),
    ([1, 2], [0, 1]),
    ([1, 2], [0, 1], Ellipsis),
    (Ellipsis, [1, 2], [0, 1]),
]


def test_indexing(backend) -> None:
    """test_autograd.py::TestAutograd::test_indexing: each ``check_index`` of upstream's list,
    on a 4x4 and a 4x3x4 tensor, compares the indexed values and the gradient of their sum
    (ones at the indexed places). Each index gets a leaf of its own and all of them run in
    one backward (upstream zeroes one leaf's .grad between indices; one pass keeps the
    jax tape at one compilation); index lists are int64 tensors; upstream's random
    bool mask is a fixed draw.
    """
    mask = np.random.default_rng(48).random((4, 4)) > 0.5
    x2, x3 = np.arange(1.0, 17).reshape(4, 4), np.arange(1.0, 49).reshape(4, 3, 4)
    cases = [(x2, i) for i in INDICES_2D] + [(x3, i) for i in INDICES_3D]
    leaves, parts = [], []
    for xn, idx in cases:
        y = backend.leaf(xn, "float64")
        indexed = y[_key(backend, idx)]
        np.testing.assert_array_equal(backend.np(indexed), xn[idx])
        leaves.append(y)
        parts.append(backend.xp.sum(indexed))
    y_mask = backend.leaf(x2, "float64")
    parts.append(backend.xp.sum(y_mask[backend.tensor(mask, "bool")]))
    unigrad.backward(parts)
    for (xn, idx), y in zip(cases, leaves, strict=True):
        expected = np.zeros_like(xn)
        expected[idx] = 1
        np.testing.assert_array_equal(backend.np(backend.grad_of(y)), expected, err_msg=str(idx))
    np.testing.assert_array_equal(backend.np(backend.grad_of(y_mask)), mask * 1.0)


def test_indexing_duplicates(backend) -> None:
    """test_autograd.py::TestAutograd::test_indexing_duplicates (the four cases on leaves of
    their own, in one backward)."""
    t = lambda v: backend.tensor(v, "int64")  # noqa: E731
    idx = [1, 1, 3, 2, 1, 2]
    ys = [backend.leaf(np.arange(1.0, 17).reshape(4, 4), "float64") for _ in range(3)]
    ys.append(backend.leaf(np.arange(1.0, 65).reshape(4, 4, 4), "float64"))
    keys = [
        t(idx),
        (t(idx), t([0])),
        (t([[1, 2], [0, 0]]), t([[0, 1], [1, 1]])),
        (t([1, 1, 1]), slice(None), slice(None)),
    ]
    unigrad.backward([backend.xp.sum(y[k]) for y, k in zip(ys, keys, strict=True)])
    e0, e1 = np.zeros((4, 4)), np.zeros((4, 4))
    for i in idx:
        e0[i] += 1
        e1[i][0] += 1
    e2 = np.array([[0, 2, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]], float)
    e3 = np.zeros((4, 4, 4))
    e3[1] = 3
    for y, e in zip(ys, (e0, e1, e2, e3), strict=True):
        np.testing.assert_array_equal(backend.np(backend.grad_of(y)), e)


def test_sum_to_with_empty_dim_grad(backend) -> None:
    """test_autograd.py::TestAutograd::test_sum_to_with_empty_dim_grad."""
    a = backend.leaf(np.random.default_rng(49).random((4, 0)), "float64")
    b = backend.leaf(np.random.default_rng(50).random((4, 1)), "float64")
    c = a + b
    assert backend.shape(c) == (4, 0)
    unigrad.backward(backend.xp.sum(c))
    np.testing.assert_array_equal(backend.np(backend.grad_of(b)), np.zeros((4, 1)))
    np.testing.assert_array_equal(backend.np(backend.grad_of(a)), np.zeros((4, 0)))


@pytest.mark.parametrize("create_graph", [False, True])
def test_accumulate_grad(backend, create_graph) -> None:
    """test_autograd.py::TestAutograd::test_accumulate_grad (the values; whether .grad is
    accumulated in place is the framework's, not part of the contract)."""
    if create_graph and not backend.caps.backward_create_graph:
        pytest.skip(f"{backend.name} lacks capability backward_create_graph")
    x = backend.leaf(randn(5, 5, seed=51), "float64")
    y = x + 2
    grad_output = backend.ones((5, 5), "float64")
    unigrad.backward(y, grad_output, retain_graph=True)
    first = backend.np(backend.grad_of(x)).copy()
    unigrad.backward(y, grad_output, create_graph=create_graph)
    np.testing.assert_array_equal(first, np.ones((5, 5)))
    np.testing.assert_array_equal(backend.np(backend.grad_of(x)), first * 2)


def test_stack(backend) -> None:
    """test_autograd.py::TestAutograd::test_stack (torch.stack / paddle.stack / xp.stack)."""
    xs = [backend.leaf(randn(10, 10, seed=52 + i), "float64") for i in range(3)]
    stack = native(backend, "stack")
    stacked = stack(xs, 0) if backend.name in ("torch", "paddle") else stack(xs, axis=0)
    g = randn(3, 10, 10, seed=55)
    unigrad.backward(stacked, backend.tensor(g, "float64"))
    for i, x in enumerate(xs):
        np.testing.assert_array_equal(backend.np(backend.grad_of(x)), g[i])


def test_unbind(backend) -> None:
    """test_autograd.py::TestAutograd::test_unbind (torch.unbind / paddle.unbind /
    xp.unstack)."""
    g = randn(3, 10, 10, seed=56)

    def unbind(t):
        if backend.name in ("torch", "paddle"):
            return importlib.import_module(backend.name).unbind(t)
        return backend.xp.unstack(t)

    stacked = backend.leaf(randn(3, 10, 10, seed=57), "float64")
    x, y, z = unbind(stacked)
    unigrad.backward([x, y, z], [backend.tensor(g[i], "float64") for i in range(3)])
    np.testing.assert_array_equal(backend.np(backend.grad_of(stacked)), g)
    for i in range(3):
        stacked = backend.leaf(randn(3, 10, 10, seed=58 + i), "float64")
        outs = unbind(stacked)
        (gi,) = unigrad.grad(outs[i], stacked, backend.tensor(g[i], "float64"))
        expected = np.stack([g[i] if j == i else np.zeros_like(g[i]) for j in range(3)])
        np.testing.assert_array_equal(backend.np(gi), expected)


def test_unused_output(backend) -> None:
    """test_autograd.py::TestAutograd::test_unused_output (x.chunk(5) as ``chunk``; a fresh
    leaf instead of zeroing .grad in place)."""
    x = backend.leaf(randn(10, 10, seed=61), "float64")
    o = chunk(backend, x, 5)[2]
    o = o * 4 + 2
    unigrad.backward(backend.xp.sum(o))
    expected = np.zeros((10, 10))
    expected[4:6] = 4
    np.testing.assert_array_equal(backend.np(backend.grad_of(x)), expected)
    x = backend.leaf(randn(10, 10, seed=61), "float64")
    go = randn(2, 10, seed=62)
    unigrad.backward(chunk(backend, x, 5)[0], backend.tensor(go, "float64"))
    expected = np.zeros((10, 10))
    expected[:2] = go
    np.testing.assert_array_equal(backend.np(backend.grad_of(x)), expected)


def test_isolated_node(backend) -> None:
    """test_autograd.py::TestAutograd::test_isolated_node (``torch.max(a, 1, True)[1]`` is
    argmax with keepdims: an index, which cuts dependence; ``.repeat(1, 5).double()`` as a
    broadcast and a float64 cast)."""
    xp = backend.xp
    x, y = (
        backend.leaf(randn(5, 5, seed=63), "float64"),
        backend.leaf(randn(5, 5, seed=64), "float64"),
    )
    a = x + y
    b = xp.astype(xp.argmax(a, axis=1, keepdims=True), xp.float64) * backend.ones((1, 5), "float64")
    o = xp.sum(b + a)
    unigrad.backward(o)
    np.testing.assert_array_equal(backend.np(backend.grad_of(x)), np.ones((5, 5)))
    np.testing.assert_array_equal(backend.np(backend.grad_of(y)), np.ones((5, 5)))


def test_backward_copy(backend) -> None:
    """test_autograd.py::TestAutograd::test_backward_copy."""
    x, y = backend.leaf(np.ones((5, 5))), backend.leaf(np.ones((5, 5)))
    a, b, c = x + 2, y + 2, x + 2
    add1 = a + b
    add2 = add1 + c
    for _ in range(4):
        a, b, c = a * 2, b * 2, c * 2
    branch = a + b + c
    out = add2 + branch
    unigrad.backward(out, backend.ones((5, 5)))
    np.testing.assert_array_equal(backend.np(backend.grad_of(x)), np.ones((5, 5)) * 34)
    np.testing.assert_array_equal(backend.np(backend.grad_of(y)), np.ones((5, 5)) * 17)


def test_select_sum(backend) -> None:
    """test_autograd.py::TestAutograd::test_select_sum (gradcheck and gradgradcheck of
    ``x.select(0, 1).sum()``: the gradient is e_1, and a constant of x, so its second
    derivative is unused (rule 9; zeros materialized, gradgradcheck's number))."""
    x = backend.leaf(randn(10, seed=65), "float64")
    (g,) = unigrad.grad(backend.xp.sum(x[1]), x, create_graph=True)
    expected = np.zeros(10)
    expected[1] = 1
    np.testing.assert_array_equal(backend.np(g), expected)
    assert not backend.requires_grad(g)


def test_custom_autograd_repeated_grad_grad(backend) -> None:
    """test_autograd.py::TestAutograd::test_custom_autograd_repeated_grad_grad (``mult1``,
    the prod of prods; upstream's custom Function ``Mult`` is torch-only)."""
    xp = backend.xp
    x = backend.leaf(np.ones((2, 4, 4)), "float64")
    y = xp.prod(xp.prod(x, axis=-1), axis=-1)
    (gy,) = unigrad.grad(y[0], x, create_graph=True)
    (ggy_1,) = unigrad.grad(gy[0, 0, 0], x, retain_graph=True)
    (gy,) = unigrad.grad(y[0], x, create_graph=True)
    (ggy_2,) = unigrad.grad(gy[0, 0, 0], x, retain_graph=True)
    assert backend.np(ggy_1)[0, 0, 1] == backend.np(ggy_2)[0, 0, 1] == 1.0


def test_pow_zero_tensor_gradient(backend) -> None:
    """test_autograd.py::TestAutograd::test_pow_zero_tensor_gradient (0 ** 0: gradient 0)."""
    for size, exponent in (((10,), np.zeros(10)), ((10, 10), np.zeros((10, 10))), ((10,), 0)):
        inp = backend.leaf(np.zeros(size), "float64")
        e = backend.tensor(exponent, "float64") if isinstance(exponent, np.ndarray) else exponent
        unigrad.backward(backend.xp.sum(native(backend, "pow", exponent=e)(inp)))
        assert np.abs(backend.np(backend.grad_of(inp))).sum() == 0


def test_pow_scalar_base(backend) -> None:
    """test_autograd.py::TestAutograd::test_pow_scalar_base (gradcheck of ``torch.pow(2, a)``,
    written ``2 ** a`` on every backend: each framework's own ``__rpow__``; d/da = 2**a ln 2)."""
    an = np.arange(1, 13, dtype=np.float64).reshape(3, 4)
    a = backend.leaf(an, "float64")
    (g,) = unigrad.grad(2**a, a)
    backend.close(g, 2**an * np.log(2), rtol=1e-12)


def test_grad_empty_inputs(backend) -> None:
    """test_autograd.py::TestAutograd::test_grad_empty_inputs ('grad requires non-empty
    inputs': GradArgumentError, a ValueError, rule 1)."""
    x = backend.leaf([1.0])
    with pytest.raises(ValueError, match="empty"):
        unigrad.grad(2 * x, [], grad_outputs=backend.tensor([1.0]))


def test_grad_batched_grad(backend) -> None:
    """test_autograd.py::TestAutograd::test_grad_batched_grad (rule 12; torch's
    RuntimeError for a seed without the batch dimension is GradOutputsError, a
    RuntimeError)."""
    x = backend.leaf(randn(2, 2, seed=66), "float64")
    out = x * 1.0  # x.clone()
    bg = np.broadcast_to(np.arange(3.0), (2, 2, 3)).transpose(2, 1, 0)
    (g,) = unigrad.grad(out, (x,), (backend.tensor(bg, "float64"),), is_grads_batched=True)
    np.testing.assert_array_equal(backend.np(g), bg)
    with pytest.raises(RuntimeError):
        unigrad.grad(out, (x,), (backend.ones((2, 2), "float64"),), is_grads_batched=True)
    out = backend.xp.sum(x)
    (g,) = unigrad.grad(
        out, (x,), (backend.tensor(np.arange(3.0), "float64"),), is_grads_batched=True
    )
    np.testing.assert_array_equal(backend.np(g), bg)
    with pytest.raises(RuntimeError):
        unigrad.grad(out, (x,), (backend.ones((2, 1), "float64"),), is_grads_batched=True)


def test_backward_with_inputs(backend) -> None:
    """test_autograd.py::TestAutograd::test_backward_with_inputs (fresh leaves instead of
    zeroing .grad; rule 13: an input not given gets no .grad, where torch's test reads
    zeros it had zeroed itself; ``inputs=[]``: 'cannot be empty', a RuntimeError)."""
    xn, yn = randn(2, 2, seed=67), randn(2, 2, seed=68)
    gradient = backend.ones((2, 2), "float64")
    for which in (("x", "y"), ("x",), ("y",), "y"):
        x, y = backend.leaf(xn, "float64"), backend.leaf(yn, "float64")
        inputs = y if which == "y" else [{"x": x, "y": y}[k] for k in which]
        unigrad.backward(x**2 + y * x + y**2, gradient, inputs=inputs)
        gx, gy = backend.grad_of(x), backend.grad_of(y)
        if "x" in which:
            backend.close(gx, 2 * xn + yn, rtol=RTOL)
        else:
            assert gx is None
        if "y" in which:
            backend.close(gy, xn + 2 * yn, rtol=RTOL)
        else:
            assert gy is None
    x, y = backend.leaf(xn, "float64"), backend.leaf(yn, "float64")
    with pytest.raises(RuntimeError, match="empty"):
        unigrad.backward(x**2 + y * x + y**2, gradient, inputs=[])


@pytest.mark.needs("backward_create_graph")
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")
def test_backward_with_nonleaf_inputs(backend) -> None:
    """test_autograd.py::TestAutograd::test_backward_with_nonleaf_inputs.

    torch leaves ``z.grad`` None for an input off the graph ("as if allow_unused were
    true"); unigrad answers the same (rule 13 raises only for an input that does not
    require grad).
    """
    xn, yn = randn(2, 2, seed=69), randn(2, 2, seed=70)
    x, y = backend.leaf(xn, "float64"), backend.leaf(yn, "float64")
    z = backend.leaf(randn(2, 2, seed=71), "float64")
    x_nonleaf = x * 1
    out = x_nonleaf**2 + y * x_nonleaf + y**2
    ones = backend.ones((2, 2), "float64")
    unigrad.backward(out, ones, create_graph=True, inputs=[x, y, x_nonleaf])
    backend.close(backend.grad_of(y), xn + 2 * yn, rtol=RTOL)
    backend.close(backend.grad_of(x), 2 * xn + yn, rtol=RTOL)
    backend.close(backend.grad_of(x_nonleaf), 2 * xn + yn, rtol=RTOL)
    unigrad.backward(out, ones, create_graph=True, inputs=[z])
    assert backend.grad_of(z) is None


# ---- test/functorch/test_eager_transforms.py::TestGradTransform ----------------------------
def _fgrad(backend, f, *args):
    """functorch's grad(f)(*args): the gradient with respect to the first argument."""
    x = unigrad.watch(args[0])
    (g,) = unigrad.grad(f(x, *args[1:]), x)
    return g


def test_primitive(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_primitive."""
    xn = randn(seed=72)
    backend.close(
        _fgrad(backend, native(backend, "sin"), backend.tensor(xn, "float64")),
        np.cos(xn),
        rtol=RTOL,
    )


def test_composite_simple(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_composite_simple (torch.flatten as
    reshape(-1))."""
    x = backend.tensor(randn(2, 3, 4, seed=73), "float64")
    g = _fgrad(backend, lambda t: backend.xp.sum(backend.xp.reshape(t, (-1,))), x)
    np.testing.assert_array_equal(backend.np(g), np.ones((2, 3, 4)))


def test_fn_with_kwargs(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_fn_with_kwargs."""
    xn, yn = randn(3, seed=74), randn(3, seed=75)

    def foo(x, y):
        return backend.xp.sum(x * y)

    y = backend.tensor(yn, "float64")
    x = unigrad.watch(backend.tensor(xn, "float64"))
    (result,) = unigrad.grad(foo(x, y=y), x)
    backend.close(result, yn, rtol=RTOL)


def test_composite_complicated(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_composite_complicated."""
    xn, yn = randn(3, seed=76), randn(3, 5, seed=77)
    y = backend.tensor(yn, "float64")
    g = _fgrad(
        backend, lambda x: backend.xp.sum(matmul(backend)(x, y)), backend.tensor(xn, "float64")
    )
    backend.close(g, yn.sum(axis=1), rtol=RTOL)


def test_nesting_simple(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_nesting_simple (grad(grad(sin)))."""
    xn = randn(seed=78)
    x = backend.leaf(xn, "float64")
    (g,) = unigrad.grad(native(backend, "sin")(x), x, create_graph=True)
    (gg,) = unigrad.grad(g, x)
    backend.close(gg, -np.sin(xn), rtol=RTOL)


def test_vjp(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_vjp."""
    xn, vn = randn(seed=79), randn(seed=80)
    x = backend.leaf(xn, "float64")
    out = native(backend, "sin")(x)
    backend.close(out, np.sin(xn), rtol=RTOL)
    (result,) = unigrad.grad(out, x, backend.tensor(vn, "float64"))
    backend.close(result, vn * np.cos(xn), rtol=RTOL)


def test_vjp_two_outputs(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_vjp_two_outputs (f(x) = (x, x),
    seeded with its own result: 1 + 1)."""
    x = backend.leaf(1.0, "float64")
    result = (x, x)
    (g,) = unigrad.grad(result, x, [backend.tensor(1.0, "float64")] * 2)
    backend.close(g, 2.0, rtol=0)


def test_conj_bit(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_conj_bit (grad of |conj(x)| at 1+1j
    is sgn(x), torch's convention §3.2)."""
    x = backend.leaf(1 + 1j, "complex128")
    y = backend.xp.abs(backend.xp.conj(x))
    (res,) = unigrad.grad(y, x)
    backend.close(res, (1 + 1j) / abs(1 + 1j), rtol=RTOL)


def test_composed_with_autograd(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_composed_with_autograd."""
    xn = randn(seed=81)
    x = backend.leaf(xn, "float64")
    (y,) = unigrad.grad(native(backend, "sin")(x), x, create_graph=True)
    (result,) = unigrad.grad(y, x)
    backend.close(result, -np.sin(xn), rtol=RTOL)


def test_grad_of_vjp_composition(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_grad_of_vjp_composition (vjp_fn(y)
    = y cos(x), its gradient with respect to y: cos(x))."""
    xn, yn = randn(seed=82), randn(seed=83)
    x, y = backend.leaf(xn, "float64"), backend.leaf(yn, "float64")
    (v,) = unigrad.grad(native(backend, "sin")(x), x, y, create_graph=True)
    (result,) = unigrad.grad(v, y)
    backend.close(result, np.cos(xn), rtol=RTOL)


def test_vjp_of_grad_composition(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_vjp_of_grad_composition."""
    xn, yn = randn(seed=84), randn(seed=85)
    x = backend.leaf(xn, "float64")
    (g,) = unigrad.grad(native(backend, "sin")(x), x, create_graph=True)
    (result,) = unigrad.grad(g, x, backend.tensor(yn, "float64"))
    backend.close(result, -yn * np.sin(xn), rtol=RTOL)


def test_grad_of_vjp_of_grad_composition(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_grad_of_vjp_of_grad_composition."""
    xn, yn = randn(seed=86), randn(seed=87)
    x, y = backend.leaf(xn, "float64"), backend.leaf(yn, "float64")
    (df,) = unigrad.grad(-native(backend, "cos")(x), x, create_graph=True)
    (v,) = unigrad.grad(df, x, y, create_graph=True)
    (result,) = unigrad.grad(v, y)
    backend.close(result, np.cos(xn), rtol=RTOL)


def test_views(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_views (x.view([]) as reshape(()))."""
    xn, yn = randn(seed=88), randn(seed=89)
    x, y = backend.leaf(xn, "float64"), backend.leaf(yn, "float64")
    (z1,) = unigrad.grad(native(backend, "sin")(backend.xp.reshape(x, ())), x, create_graph=True)
    result = z1 + native(backend, "cos")(y)
    gx, gy = unigrad.grad(result, [x, y])
    backend.close(gx, -np.sin(xn), rtol=RTOL)
    backend.close(gy, -np.sin(yn), rtol=RTOL)


def test_argnums(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_argnums and test_out_of_order_argnums
    (argnums are the order of ``inputs``)."""
    xn, yn = randn(seed=90), randn(seed=91)
    x, y = backend.leaf(xn, "float64"), backend.leaf(yn, "float64")
    mul = native(backend, "multiply")
    backend.close(unigrad.grad(mul(x, y), x)[0], yn, rtol=RTOL)
    backend.close(unigrad.grad(mul(x, y), y)[0], xn, rtol=RTOL)
    gx, gy = unigrad.grad(mul(x, y), (x, y))
    backend.close(gx, yn, rtol=RTOL)
    backend.close(gy, xn, rtol=RTOL)
    gy, gx = unigrad.grad(mul(x, y), (y, x))
    backend.close(gx, yn, rtol=RTOL)
    backend.close(gy, xn, rtol=RTOL)


def test_grad_pytree_inputs(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_grad_pytree_inputs (the same tensor
    three times: rule 1's duplicated inputs, each its own gradient by position)."""
    x = backend.leaf(randn(seed=92), "float64")
    out = 1 * x + 2 * x + 3 * x
    gx, gy, gz = unigrad.grad(out, [x, x, x])
    # one tensor used three times: each position gets d out / d x = 6 (rule 1)
    for g in (gx, gy, gz):
        backend.close(g, 6.0, rtol=0)
    a, b, c = (backend.leaf(randn(seed=92), "float64") for _ in range(3))
    ga, gb, gc = unigrad.grad(1 * a + 2 * b + 3 * c, [a, b, c])
    backend.close(ga, 1.0, rtol=0)
    backend.close(gb, 2.0, rtol=0)
    backend.close(gc, 3.0, rtol=0)


def test_grad_aux_tensor(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_grad_aux_tensor (the gradient part:
    f(t) = (sum(sin t), cos t))."""
    xn = randn(3, seed=93)
    x = backend.leaf(xn, "float64")
    y = native(backend, "sin")(x)
    out, aux = backend.xp.sum(y), native(backend, "cos")(x)
    (g,) = unigrad.grad(out, x)
    backend.close(aux, np.cos(xn), rtol=RTOL)
    backend.close(g, np.cos(xn), rtol=RTOL)


def test_zero_grad(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_zero_grad.

    functorch's gradient for the unused dict entry "b" is zeros: unigrad's
    ``materialize_grads=True`` (rule 9).
    """
    a = backend.leaf(randn(10, seed=94) + 3, "float64")
    b = backend.leaf(randn(10, seed=95), "float64")
    ga, gb = unigrad.grad(backend.xp.sum(a**2.0), [a, b], allow_unused=True, materialize_grads=True)
    assert backend.np(ga).sum() != 0.0
    assert backend.np(gb).sum() == 0.0


def test_unrelated_grad(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_unrelated_grad.

    functorch returns zeros for a function that returns a constant; rule 10 decides: an
    output that does not require grad is a NotDifferentiableError.
    """
    x = backend.leaf(1.0, "float64")
    y = backend.tensor(2.0, "float64")
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.grad(y, x)


def test_unrelated_vjp_multiple_inputs_outputs(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_unrelated_vjp_multiple_inputs_outputs.

    ``unrelated(w, x) = (y, y, x)``: functorch gives (0, 1). The constant outputs y do not
    require grad: rule 10 raises for them as outputs; with the one output that does,
    w is unused (rule 9: zeros with materialize_grads) and x gets 1.
    """
    w, x = backend.leaf(3.0, "float64"), backend.leaf(4.0, "float64")
    y, v = backend.tensor(2.0, "float64"), backend.tensor(1.0, "float64")
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.grad([y, y, x], [w, x], [v, v, v])
    gw, gx = unigrad.grad([x], [w, x], [v], allow_unused=True, materialize_grads=True)
    backend.close(gw, 0.0, rtol=0)
    backend.close(gx, 1.0, rtol=0)


def test_unrelated_hessian(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_unrelated_hessian.

    functorch's jacrev(jacrev(W @ x)) is zeros. Issue 23's Decision (structure follows
    differentiable dependence) and rule 10: the Jacobian W is a constant of x even with
    create_graph=True, and differentiating it again is a NotDifferentiableError.
    """
    wn = randn(5, 3, seed=96)
    x = backend.leaf(randn(3, seed=97), "float64")
    jac = unigrad.jacobian(matmul(backend)(backend.tensor(wn, "float64"), x), x, create_graph=True)
    backend.close(jac, wn, rtol=RTOL)
    assert not backend.requires_grad(jac)
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.grad(jac[0, 0], x, allow_unused=True, materialize_grads=True)


def test_vjp_pytree_input(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_vjp_pytree_input (x[0] * x[1][0] of
    (x, (x, x)): functorch differentiates each pytree leaf on its own, so the replay gives
    each position a leaf of its own: x v, x v, and 0 for the unused third, materialized
    (rule 9))."""
    xn, vn = randn(seed=98), randn(seed=99)
    a, b, c = (backend.leaf(xn, "float64") for _ in range(3))
    ga, gb, gc = unigrad.grad(
        a * b, [a, b, c], backend.tensor(vn, "float64"), allow_unused=True, materialize_grads=True
    )
    backend.close(ga, xn * vn, rtol=RTOL)
    backend.close(gb, xn * vn, rtol=RTOL)
    backend.close(gc, 0.0, rtol=0)


def test_vjp_pytree_output(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_vjp_pytree_output (f(x) = x, (x, x)
    seeded with v1, v2, v3: v1 + v2 + v3)."""
    x = backend.leaf(randn(seed=100), "float64")
    vs = [randn(seed=101 + i) for i in range(3)]
    (result,) = unigrad.grad([x, x, x], x, [backend.tensor(v, "float64") for v in vs])
    backend.close(result, sum(vs), rtol=RTOL)


def test_vjp_aux_tensor(backend) -> None:
    """test_eager_transforms.py::TestGradTransform::test_vjp_aux_tensor (the vjp part)."""
    xn, vn = randn(3, seed=104), randn(3, seed=105)
    x = backend.leaf(xn, "float64")
    out = native(backend, "sin")(x)
    backend.close(out, np.sin(xn), rtol=RTOL)
    (grad_x,) = unigrad.grad(out, x, backend.tensor(vn, "float64"))
    backend.close(grad_x, vn * np.cos(xn), rtol=RTOL)


# ---- test/test_autograd.py::TestAutogradFunctional (torch.autograd.functional) ------------
# These lived in test_autograd.py (pytorch/pytorch@0011ee059a1ed8ca92d609383f466095d1bb1fcf,
# https://github.com/pytorch/pytorch/blob/0011ee059a1ed8ca92d609383f466095d1bb1fcf/test/test_autograd.py)
# before moving to test/autograd/test_functional.py. ``autogradF.X`` is
# ``unigrad.functional.X`` on plain arrays; ``a.narrow(0, 0, 3)`` is ``a[0:3]``.
def arr(backend, data, dtype="float64"):
    """A plain array of the backend's framework (unigrad.functional takes plain arrays)."""
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
    return np.random.default_rng(seed).random(shape)


def test_jacobian_scalar(backend) -> None:
    """test_autograd.py::TestAutogradFunctional::test_jacobian_scalar (``x.unsqueeze(0)
    .repeat(4)`` as a reshape times ones(4))."""
    from unigrad import functional as F

    inp = arr(backend, rand(4, 4, seed=1))
    xp = unigrad.namespace(inp)
    res = F.jacobian(lambda x: xp.sum(x), inp)
    np.testing.assert_array_equal(backend.np(res), np.ones((4, 4)))
    ones = arr(backend, np.ones(4))
    res = F.jacobian(lambda x: xp.reshape(x, (1,)) * ones, arr(backend, rand(seed=2)))
    np.testing.assert_array_equal(backend.np(res), np.ones(4))


def test_hessian_err_check(backend) -> None:
    """test_autograd.py::TestAutogradFunctional::test_hessian_err_check (torch's TypeError
    and RuntimeError classes; GradArgumentError is both)."""
    from unigrad import functional as F

    inp_np = rand(4, seed=3)
    inp = arr(backend, inp_np)
    xp = unigrad.namespace(inp)

    def foo(a):
        return 3 * xp.sum(xp.exp(a[0:3]))

    with pytest.raises(TypeError):
        F.hessian(foo, (inp, 2))
    with pytest.raises(TypeError):
        F.hessian(lambda a: (3 * a[0:3], "bar"), inp)
    with pytest.raises(RuntimeError):
        F.hessian(lambda a: 3 * a[0:3], inp)
    with pytest.raises(RuntimeError):
        F.hessian(lambda a: (3 * a[0:3], 3 * a[0:3]), inp)
    res = F.hessian(foo, inp)
    backend.close(res, np.diag(np.r_[3 * np.exp(inp_np[:3]), 0.0]), rtol=1e-12)
    a_np, b_np = rand(4, seed=4), rand(5, seed=5)
    res = F.hessian(
        lambda a, b: xp.sum(3 * b[0:3] * a[0:3]), (arr(backend, a_np), arr(backend, b_np))
    )
    h_ab = np.zeros((4, 5))
    h_ab[[0, 1, 2], [0, 1, 2]] = 3
    backend.close(res[0][0], np.zeros((4, 4)), rtol=0)
    backend.close(res[0][1], h_ab, rtol=0)
    backend.close(res[1][0], h_ab.T, rtol=0)
    backend.close(res[1][1], np.zeros((5, 5)), rtol=0)


def test_hessian_output(backend) -> None:
    """test_autograd.py::TestAutogradFunctional::test_hessian_output (x.pow(3).sum(), written
    ``(x ** 3).sum()``, methods every framework's arrays have: 6x on the diagonal;
    (x + y).pow(3).sum(): 6(x + y) on each block's diagonal)."""
    from unigrad import functional as F

    def total(t):  # a plain tf.Tensor has no .sum() (tensorflow's NumPy methods are off)
        return unigrad.namespace(t).sum(t) if backend.name == "tensorflow" else t.sum()

    xn = rand(2, 2, seed=6)
    res = F.hessian(lambda x: total(x**3), arr(backend, xn))
    backend.close(res, np.diag(6 * xn.ravel()).reshape(2, 2, 2, 2), rtol=1e-12)
    yn = rand(2, 2, seed=7)
    res = F.hessian(lambda x, y: total((x + y) ** 3), (arr(backend, xn), arr(backend, yn)))
    block = np.diag(6 * (xn + yn).ravel()).reshape(2, 2, 2, 2)
    for i in range(2):
        for j in range(2):
            backend.close(res[i][j], block, rtol=1e-12)


def test_hessian_scalar(backend) -> None:
    """test_autograd.py::TestAutogradFunctional::test_hessian_scalar (sum: zeros; a 0-d
    input; a one-element (1, 1, 1) output, which torch accepts)."""
    from unigrad import functional as F

    inp = arr(backend, rand(4, 4, seed=8))
    xp = unigrad.namespace(inp)
    np.testing.assert_array_equal(backend.np(F.hessian(xp.sum, inp)), np.zeros((4, 4, 4, 4)))
    np.testing.assert_array_equal(backend.np(F.hessian(xp.sum, arr(backend, rand(seed=9)))), 0.0)
    res = F.hessian(lambda x: xp.reshape(xp.sum(x), (1, 1, 1)), inp)
    np.testing.assert_array_equal(backend.np(res), np.zeros((4, 4, 4, 4)))


def _vhp_foo_bar(backend, fn_name):
    from unigrad import functional as F

    fn = getattr(F, fn_name)
    an = rand(4, 4, seed=10)
    inputs = arr(backend, an)
    xp = unigrad.namespace(inputs)
    out, res = fn(lambda a: 3 * xp.sum(xp.exp(a[0:3])), inputs, arr(backend, np.ones((4, 4))))
    backend.close(out, 3 * np.exp(an[:3]).sum(), rtol=1e-12)
    backend.close(res, np.r_[3 * np.exp(an[:3]), np.zeros((1, 4))], rtol=1e-12)
    a3, b4 = rand(3, seed=11), rand(4, seed=12)
    out, val = fn(
        lambda a, b: xp.sum(xp.exp(a + 3 * b[0:3])),
        (arr(backend, a3), arr(backend, b4)),
        (arr(backend, np.ones(3)), arr(backend, np.ones(4))),
    )
    e = np.exp(a3 + 3 * b4[:3])
    backend.close(out, e.sum(), rtol=1e-12)
    backend.close(val[0], 4 * e, rtol=1e-12)  # H = e [[1, 3], [3, 9]] per element
    backend.close(val[1], np.r_[12 * e, 0.0], rtol=1e-12)


@pytest.mark.parametrize("fn_name", ["vhp", "hvp"])
def test_vhp_hvp_output(backend, fn_name) -> None:
    """test_autograd.py::TestAutogradFunctional::test_vhp_output and test_hvp_output (the
    values of upstream's two functions with ones as v; the Hessians are symmetric, so vhp
    and hvp agree)."""
    _vhp_foo_bar(backend, fn_name)


@pytest.mark.parametrize("fn_name", ["vhp", "hvp"])
def test_vhp_hvp_scalar(backend, fn_name) -> None:
    """test_autograd.py::TestAutogradFunctional::test_vhp_scalar and test_hvp_scalar (sum:
    zeros; a 0-d input with and without v; a one-element (1, 1, 1) output)."""
    from unigrad import functional as F

    fn = getattr(F, fn_name)
    inp = arr(backend, rand(4, 4, seed=13))
    xp = unigrad.namespace(inp)
    _, res = fn(xp.sum, inp, arr(backend, np.ones((4, 4))))
    np.testing.assert_array_equal(backend.np(res), np.zeros((4, 4)))
    scalar = arr(backend, rand(seed=14))
    _, res = fn(xp.sum, scalar, arr(backend, rand(seed=15)))
    np.testing.assert_array_equal(backend.np(res), 0.0)
    _, res = fn(xp.sum, scalar)
    np.testing.assert_array_equal(backend.np(res), 0.0)
    _, res = fn(lambda x: xp.reshape(xp.sum(x), (1, 1, 1)), inp, arr(backend, rand(4, 4, seed=16)))
    np.testing.assert_array_equal(backend.np(res), np.zeros((4, 4)))


@pytest.mark.parametrize("fn_name", ["vhp", "hvp"])
def test_vhp_hvp_err_check(backend, fn_name) -> None:
    """test_autograd.py::TestAutogradFunctional::test_vhp_err_check and test_hvp_err_check
    (torch's TypeError / RuntimeError classes)."""
    from unigrad import functional as F

    fn = getattr(F, fn_name)
    inp, v = arr(backend, rand(4, seed=17)), arr(backend, rand(4, seed=18))
    xp = unigrad.namespace(inp)

    def foo(a):
        return 3 * xp.sum(xp.exp(a[0:3]))

    with pytest.raises(TypeError):
        fn(foo, (inp, 2), v)
    with pytest.raises(TypeError):
        fn(lambda a: (3 * a[0:3], "bar"), inp, v)
    with pytest.raises(RuntimeError):
        fn(lambda a: 3 * a[0:3], inp, v)
    with pytest.raises(RuntimeError):
        fn(foo, inp, arr(backend, rand(5, seed=19)))
    with pytest.raises(TypeError):
        fn(foo, inp, (v, 2))
    _, res = fn(foo, inp, v)
    assert backend.shape(res) == (4,)
