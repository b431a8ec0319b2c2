"""PaddlePaddle's double- and triple-grad tests, replayed through unigrad on every backend.

Sources (PaddlePaddle/Paddle, ``develop``):

* ``test/legacy_test/test_imperative_double_grad.py``
  (https://github.com/PaddlePaddle/Paddle/blob/develop/test/legacy_test/test_imperative_double_grad.py)
* ``test/legacy_test/test_imperative_triple_grad.py``
  (https://github.com/PaddlePaddle/Paddle/blob/develop/test/legacy_test/test_imperative_triple_grad.py)
* ``test/legacy_test/test_activation_nn_grad.py``, the ``*DoubleGradCheck`` and
  ``*TripleGradCheck`` classes
  (https://github.com/PaddlePaddle/Paddle/blob/develop/test/legacy_test/test_activation_nn_grad.py)

Each replay keeps upstream's ops (``paddle.nn.functional.relu`` on paddle, ``torch.relu`` on
torch, the namespace's definition on the tapes: see ``_native.py``), shapes, seeds and
expected numbers. ``paddle.grad(...)`` is ``unigrad.grad(...)``, ``t.stop_gradient`` is
``not requires_grad``, ``t.backward()`` is ``unigrad.backward(t)`` and ``x.gradient()`` /
``x.grad`` is the leaf's ``.grad``. Where unigrad's contract (docs/semantics.md) decides
differently from paddle, the test names the rule and asserts unigrad's answer. The
``gradient_checker`` tests compare with the closed-form derivatives of the op (paddle's
checker compares with finite differences of the same functions).
"""

from __future__ import annotations

import numpy as np
import pytest
from _native import matmul, native

import unigrad

RTOL = 1e-5  # upstream's rtol for float32 results
RTOL64 = 1e-9  # float64 closed forms


def random_var(backend, size, low=-1.0, high=1.0, dtype="float32", seed=None):
    """upstream's ``random_var``: a uniform tensor that does not require grad."""
    if seed is not None:
        np.random.seed(seed)
    return np.random.uniform(low=low, high=high, size=size).astype(dtype)


# ---- test_imperative_double_grad.py::TestEagerGrad -----------------------------------------
def _eager_inputs(backend):
    np.random.seed(2021)
    np_x, np_y, np_z = np.random.random((3, 3)), np.random.random((3, 1)), np.random.random((3, 1))
    x = backend.leaf(np_x, "float64")
    y = backend.leaf(np_y, "float64")
    z = backend.leaf(np_z, "float64")
    return np_x, np_y, x, y, z


def test_simple_example_eager_grad(backend) -> None:
    """test_imperative_double_grad.py::TestEagerGrad::test_simple_example_eager_grad."""
    _, np_y, x, y, _ = _eager_inputs(backend)
    out = matmul(backend)(x, y)
    dx = unigrad.grad(out, x)
    expected_dx = np.matmul(np.ones_like(np_y), np.transpose(np_y))
    assert not backend.requires_grad(dx[0])  # stop_gradient = not create_graph
    backend.close(dx[0], expected_dx, rtol=1e-5)


def test_simple_example_eager_grad_allow_unused(backend) -> None:
    """test_imperative_double_grad.py::TestEagerGrad::test_simple_example_eager_grad_allow_unused."""
    _, np_y, x, y, z = _eager_inputs(backend)
    native(backend, "sigmoid")(z)  # out_z, unused
    out = matmul(backend)(x, y)
    dx = unigrad.grad(out, [x, z], allow_unused=True)
    backend.close(dx[0], np.matmul(np.ones_like(np_y), np_y.T), rtol=1e-5)
    assert not backend.requires_grad(dx[0])
    assert dx[1] is None


def test_simple_example_eager_grad_not_allow_unused(backend) -> None:
    """test_imperative_double_grad.py::TestEagerGrad::test_simple_example_eager_grad_not_allow_unused.

    paddle raises ValueError mentioning allow_unused; unigrad's UnusedInputError (rule 9)
    is a ValueError and says so.
    """
    _, _, x, y, z = _eager_inputs(backend)
    native(backend, "sigmoid")(z)
    out = matmul(backend)(x, y)
    with pytest.raises(ValueError, match="allow_unused"):
        unigrad.grad(out, [x, z])


def test_simple_example_eager_grad_duplicate_input(backend) -> None:
    """test_imperative_double_grad.py::TestEagerGrad::test_simple_example_eager_grad_duplicate_input.

    paddle raises RuntimeError ("duplicate"); rule 1 (torch's answer): a duplicated input
    gets the same gradient twice.
    """
    _, np_y, x, y, _ = _eager_inputs(backend)
    out = matmul(backend)(x, y)
    dx0, dx1 = unigrad.grad(out, [x, x])
    backend.close(dx0, np.matmul(np.ones_like(np_y), np_y.T), rtol=1e-12)
    backend.close(dx1, np.matmul(np.ones_like(np_y), np_y.T), rtol=1e-12)


def test_simple_example_eager_grad_duplicate_output(backend) -> None:
    """test_imperative_double_grad.py::TestEagerGrad::test_simple_example_eager_grad_duplicate_output.

    paddle raises RuntimeError ("duplicate"); rule 1 (torch's answer): a duplicated output
    contributes once per occurrence.
    """
    _, np_y, x, y, _ = _eager_inputs(backend)
    out = matmul(backend)(x, y)
    (dx,) = unigrad.grad([out, out], [x])
    backend.close(dx, 2 * np.matmul(np.ones_like(np_y), np_y.T), rtol=1e-12)


def test_simple_example_eager_two_grad_output(backend) -> None:
    """test_imperative_double_grad.py::TestEagerGrad::test_simple_example_eager_two_grad_output.

    (upstream's hook, which records d out4 / d out2, is replaced by comparing with the
    closed form it records: out1 / 2 = [1, 2]; hooks are the framework's, rule 17.)
    """
    xp = backend.xp
    x1, x2 = backend.leaf([1.0, 2.0]), backend.leaf([1.0, 2.0])
    out1, out2 = x1 * 2, x2 * 2
    out3 = out1 * out2  # paddle.multiply
    out4 = xp.mean(out3)
    dout2, dout3 = unigrad.grad([out4], [out2, out3])
    backend.close(dout2, [1.0, 2.0], rtol=0, atol=0)
    backend.close(dout3, [0.5, 0.5], rtol=0, atol=0)
    assert not backend.requires_grad(dout2)
    assert not backend.requires_grad(dout3)


# ---- test_imperative_double_grad.py::TestDygraphDoubleGrad ----------------------------------
SHAPE = [5, 10]


def test_exception(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGrad::test_exception.

    paddle asserts (AssertionError). unigrad: ``None`` containers and a seed count that
    differs from the output count are GradArgumentError / GradOutputsError, which are
    AssertionErrors too (the error table); a Python number where a tensor belongs is a
    value of no backend, BackendError (a TypeError: "tensors of no framework", §3.3).
    """
    leaf = lambda: backend.leaf(random_var(backend, SHAPE))  # noqa: E731
    with pytest.raises(unigrad.GradArgumentError) as e:
        unigrad.grad(None, None)
    assert isinstance(e.value, AssertionError)
    for outputs, inputs in ((1, leaf()), (leaf(), 1), ([1], [leaf()]), ([leaf()], [1])):
        with pytest.raises(unigrad.BackendError):
            unigrad.grad(outputs, inputs)
    with pytest.raises(unigrad.GradOutputsError) as e:
        unigrad.grad([leaf(), leaf()], [leaf()], [leaf()])
    assert isinstance(e.value, AssertionError)
    with pytest.raises(unigrad.BackendError):
        unigrad.grad([leaf()], [leaf()], no_grad_vars=[1])
    with pytest.raises(unigrad.BackendError):
        unigrad.grad([leaf()], [leaf()], no_grad_vars=1)


@pytest.mark.parametrize("create_graph", [False, True])
def test_simple_example(backend, create_graph) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGrad::test_simple_example.

    paddle gives ``dx.stop_gradient != create_graph``. The Decision of issue 23 (structure
    follows differentiable dependence): the gradient of x by x is the seed, a constant, so
    with create_graph=True it does not require grad either; the numbers are upstream's.
    """
    x = backend.leaf(random_var(backend, SHAPE))
    y = x + 1
    (dx,) = unigrad.grad([x], [x], create_graph=create_graph, retain_graph=True)
    assert backend.shape(dx) == tuple(SHAPE)
    assert np.all(backend.np(dx) == 1)
    assert not backend.requires_grad(dx)
    (dx_mul_2,) = unigrad.grad([y, x], [x], create_graph=create_graph, retain_graph=True)
    assert backend.shape(dx_mul_2) == tuple(SHAPE)
    assert np.all(backend.np(dx_mul_2) == 2)
    assert not backend.requires_grad(dx_mul_2)
    (none_grad,) = unigrad.grad([x], [y], create_graph=create_graph, allow_unused=True)
    assert none_grad is None
    (grad_with_none_and_not_none,) = unigrad.grad([x, y], [y], create_graph=create_graph)
    assert backend.shape(grad_with_none_and_not_none) == tuple(SHAPE)
    assert np.all(backend.np(grad_with_none_and_not_none) == 1)
    assert not backend.requires_grad(grad_with_none_and_not_none)


def test_example_no_grad_vars(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGrad::test_example_no_grad_vars (relu is
    paddle.nn.functional.relu / torch.relu; xp.maximum(x, 0) on the tapes)."""
    x_np = random_var(backend, SHAPE)
    numel = x_np.size
    x = backend.leaf(x_np)
    relu = native(backend, "relu")
    y1 = relu(x)
    y2 = relu(x)
    z = y1 + y2
    w = z * z
    w_mean = backend.xp.mean(w)
    del y1, z, w
    (dx_actual,) = unigrad.grad([w_mean], [x], create_graph=True, no_grad_vars=[y2])
    assert backend.requires_grad(y2)
    assert backend.requires_grad(dx_actual)
    dx_expected = (1.0 / numel * (np.maximum(x_np, 0) + backend.np(y2)) * (x_np > 0) * 2).astype(
        "float32"
    )
    backend.close(dx_actual, dx_expected, rtol=RTOL)


def test_none_one_initial_gradient(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGrad::test_none_one_initial_gradient
    (leaky_relu(x, 0.2) is paddle's / torch's; xp.where(x > 0, x, 0.2 x) on the tapes)."""
    numel = int(np.prod(SHAPE))
    half = numel // 2
    np.random.seed(0)
    x_np = np.array(
        list(np.random.uniform(1, 2, size=[half])) + list(np.random.uniform(-2, -1, numel - half))
    ).astype("float32")
    np.random.shuffle(x_np)
    x = backend.leaf(x_np)
    alpha = 0.2
    y = native(backend, "leaky_relu", negative_slope=alpha)(x)
    y = y * y
    z = y * y
    relu_x_np = np.maximum(x_np, alpha * x_np).astype("float32")
    relu_x_grad_np = ((x_np > 0) + (x_np < 0) * alpha).astype("float32")
    dy_expected = (relu_x_np * relu_x_grad_np * 2).astype("float32")
    dz_expected = (np.power(relu_x_np, 3) * relu_x_grad_np * 4).astype("float32")
    grad_y_np = random_var(backend, [numel], low=1, high=2)
    grad_z_np = random_var(backend, [numel], low=1, high=2)
    grad_y, grad_z = backend.tensor(grad_y_np), backend.tensor(grad_z_np)
    for create_graph in [False, True]:
        (dx_actual,) = unigrad.grad(
            outputs=[y, z],
            inputs=[x],
            grad_outputs=[grad_y, grad_z],
            create_graph=create_graph,
            retain_graph=True,
        )
        backend.close(dx_actual, dy_expected * grad_y_np + dz_expected * grad_z_np, rtol=RTOL)
        assert not backend.requires_grad(grad_y)
        assert not backend.requires_grad(grad_z)
        np.testing.assert_array_equal(backend.np(grad_y), grad_y_np)
        np.testing.assert_array_equal(backend.np(grad_z), grad_z_np)


def test_example_with_gradient_accumulation_and_create_graph(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGrad::
    test_example_with_gradient_accumulation_and_create_graph (relu as upstream's)."""
    x_np = random_var(backend, SHAPE)
    numel = x_np.size
    x = backend.leaf(x_np)
    y = native(backend, "relu")(x)
    z = y + 1
    w = z * z
    w_mean = backend.xp.mean(w)
    del y, z, w
    (dx_actual,) = unigrad.grad([w_mean], [x], create_graph=True)
    del w_mean
    assert backend.requires_grad(dx_actual)
    dx_expected = (1.0 / numel * (np.maximum(x_np, 0) + 1) * (x_np > 0) * 2).astype("float32")
    backend.close(dx_actual, dx_expected, rtol=RTOL)
    loss = backend.xp.mean(dx_actual * dx_actual + x * x)
    unigrad.backward(loss, retain_graph=True)
    one = 2.0 / numel * (x_np + dx_expected * (x_np > 0) * 2 / numel)
    backend.close(backend.grad_of(x), one, rtol=RTOL)
    for i in range(5):
        unigrad.backward(loss, retain_graph=True)
        backend.close(backend.grad_of(x), (i + 2) * one, rtol=RTOL)


def test_example_with_gradient_accumulation_and_no_grad_vars_relu(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGrad::
    test_example_with_gradient_accumulation_and_no_grad_vars, with relu as upstream writes it
    (tests/test_any_program.py replays it with maximum(x, 0); issue 23 saw paddle's relu
    raise a raw ``(InvalidArgument) The current MetaTensor is not initialized``).

    Rule 11 (the note under the rules): a cut tensor is a constant of the pass it is given
    to only, so dx depends on x through both relus: ``* 4 / numel`` where paddle's own test
    expects ``* 2 / numel``.
    """
    x_np = random_var(backend, SHAPE)
    numel = x_np.size
    x = backend.leaf(x_np)
    relu = native(backend, "relu")
    y1 = relu(x)
    y2 = relu(x)
    z = y1 + y2
    w = z * z
    w_mean = backend.xp.mean(w)
    del y1, z, w
    (dx_actual,) = unigrad.grad(
        [w_mean], [x], retain_graph=True, create_graph=True, no_grad_vars=[y2]
    )
    assert backend.requires_grad(y2)
    assert backend.requires_grad(dx_actual)
    dx_expected = (1.0 / numel * (np.maximum(x_np, 0) + backend.np(y2)) * (x_np > 0) * 2).astype(
        "float32"
    )
    backend.close(dx_actual, dx_expected, rtol=RTOL)
    loss = backend.xp.mean(dx_actual * dx_actual + x * x)
    unigrad.backward(loss)
    expected = 2.0 / numel * (x_np + dx_expected * (x_np > 0) * 4 / numel)
    backend.close(backend.grad_of(x), expected, rtol=RTOL)


def test_example_with_gradient_accumulation_and_not_create_graph(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGrad::
    test_example_with_gradient_accumulation_and_not_create_graph (relu as upstream's)."""
    x_np = random_var(backend, SHAPE)
    numel = x_np.size
    x = backend.leaf(x_np)
    y = native(backend, "relu")(x)
    z = y + 1
    w = z * z
    w_mean = backend.xp.mean(w)
    del y, z, w
    (dx_actual,) = unigrad.grad([w_mean], [x], create_graph=False)
    del w_mean
    assert not backend.requires_grad(dx_actual)
    dx_expected = (1.0 / numel * (np.maximum(x_np, 0) + 1) * (x_np > 0) * 2).astype("float32")
    backend.close(dx_actual, dx_expected, rtol=RTOL)
    loss = backend.xp.mean(dx_actual * dx_actual + x * x)
    unigrad.backward(loss)
    backend.close(backend.grad_of(x), (2.0 * x_np / numel).astype("float32"), rtol=RTOL)


def test_visited_uniq_compare(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGradVisitedUniq::test_compare.

    One ``Linear(5, 3)`` applied ten times and summed: ``grad`` and ``backward`` agree
    exactly. (paddle's Linear is ``a @ W + b``, written with the backend's matmul and
    fixed weights.)
    """
    np.random.seed(123)
    value = np.random.uniform(-0.5, 0.5, 100).reshape(10, 2, 5).astype("float32")
    w_np = np.random.uniform(-0.5, 0.5, (5, 3)).astype("float32")
    b_np = np.random.uniform(-0.5, 0.5, (3,)).astype("float32")
    mm = matmul(backend)

    def model_f(inp, w, b):
        out = None
        for _ in range(10):
            out = mm(inp, w) + b if out is None else out + (mm(inp, w) + b)
        return out

    a = backend.leaf(value)
    w, b = backend.tensor(w_np), backend.tensor(b_np)
    (grad_1,) = unigrad.grad(outputs=[model_f(a, w, b)], inputs=[a], create_graph=False)
    a2 = backend.leaf(value)
    unigrad.backward(model_f(a2, w, b))
    np.testing.assert_array_equal(backend.np(grad_1), backend.np(backend.grad_of(a2)))
    backend.close(grad_1, np.broadcast_to(10 * w_np.sum(axis=1), (10, 2, 5)), rtol=RTOL)


# ---- test_imperative_double_grad.py::TestDoubleGradBasics / Matmul --------------------------
def test_double_grad_basics_matmul(backend) -> None:
    """test_imperative_double_grad.py::TestDoubleGradBasics::test_matmul.

    paddle expects ``x.grad`` = zeros; x is not on any path of ``new_x_g = grad_out @ y.T``
    that has a non-zero derivative, so under rule 13 and issue 23's Decision (structure
    follows differentiable dependence) backward leaves ``x.grad`` None, as torch does.
    """
    input_numpy = np.ones([3, 3]) * 2
    x, y = backend.leaf(input_numpy), backend.leaf(input_numpy)
    grad_out = backend.leaf(np.ones([3, 3]))
    out = matmul(backend)(x, y)
    new_x_g, new_y_g = unigrad.grad([out], [x, y], [grad_out], retain_graph=True, create_graph=True)
    unigrad.backward(new_x_g)
    np.testing.assert_array_equal(backend.np(out), np.ones([3, 3]) * 12.0)
    np.testing.assert_array_equal(backend.np(new_x_g), np.ones([3, 3]) * 6.0)
    np.testing.assert_array_equal(backend.np(new_y_g), np.ones([3, 3]) * 6.0)
    assert backend.grad_of(x) is None
    np.testing.assert_array_equal(backend.np(backend.grad_of(y)), np.ones([3, 3]) * 3.0)
    np.testing.assert_array_equal(backend.np(backend.grad_of(grad_out)), np.ones([3, 3]) * 6.0)


def test_matmul_double_grad_case1(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGradMatmul::test_matmul_double_grad_case1."""
    np.random.seed(1)
    nx, ny = np.random.random([3, 3]).astype("float32"), np.random.random([3, 3]).astype("float32")
    x, y = backend.leaf(nx), backend.leaf(ny)
    out = matmul(backend)(x, y)
    dout = backend.leaf(np.ones([3, 3]))
    dx, dy = unigrad.grad([out], [x, y], [dout], retain_graph=True, create_graph=True)
    ddx = backend.leaf(np.ones([3, 3]))
    ddy = ddx
    dx_double_grad, dy_double_grad, ddout = unigrad.grad(
        [dx, dy], [x, y, dout], [ddx, ddy], retain_graph=True, create_graph=True
    )
    ones = np.ones([3, 3], dtype="float32")
    backend.close(dx_double_grad, ones @ ones, rtol=1e-6)
    backend.close(dy_double_grad, ones @ ones, rtol=1e-6)
    backend.close(ddout, ones @ ny + nx @ ones, rtol=1e-6)


def test_matmul_double_grad_case2(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGradMatmul::test_matmul_double_grad_case2."""
    np.random.seed(2)
    nx, ny = np.random.random([3, 3]).astype("float32"), np.random.random([3, 3]).astype("float32")
    x, y = backend.leaf(nx), backend.leaf(ny)
    out = matmul(backend)(x, y)
    dout = backend.leaf(np.ones([3, 3]))
    (dy,) = unigrad.grad([out], [y], [dout], retain_graph=True, create_graph=True)
    ddy = backend.leaf(np.ones([3, 3]))
    dx_double_grad, ddout = unigrad.grad(
        [dy], [x, dout], [ddy], retain_graph=True, create_graph=True
    )
    ones = np.ones([3, 3], dtype="float32")
    backend.close(dx_double_grad, ones @ ones, rtol=1e-6)
    backend.close(ddout, nx @ ones, rtol=1e-6)


def _matmul_1d_double_grad(backend, wrt_y: bool):
    np.random.seed(3)
    nx, ny = np.random.random([3]).astype("float32"), np.random.random([3]).astype("float32")
    x, y = backend.leaf(nx), backend.leaf(ny)
    out = matmul(backend)(x, y)  # a 0-d result
    first, other = (y, x) if wrt_y else (x, y)
    with pytest.raises(unigrad.GradOutputsError):  # upstream's seed: shape [1]
        unigrad.grad([out], [first], [backend.leaf(np.ones([1]))], retain_graph=True)
    dout = backend.leaf(np.ones(()))  # rule 4: exactly the output's shape
    (d,) = unigrad.grad([out], [first], [dout], retain_graph=True, create_graph=True)
    dd = backend.leaf(np.ones([3]))
    other_double_grad, ddout = unigrad.grad(
        [d], [other, dout], [dd], retain_graph=True, create_graph=True
    )
    backend.close(other_double_grad, np.ones([3]), rtol=1e-6)
    backend.close(ddout, (nx if wrt_y else ny) @ np.ones([3], dtype="float32"), rtol=1e-6)


def test_matmul_double_grad_case3(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGradMatmul::test_matmul_double_grad_case3.

    upstream seeds the 0-d output of a 1-d matmul with a shape-[1] tensor; rule 4 asks for
    exactly the output's shape (GradOutputsError otherwise): the replay asserts the
    refusal, then seeds with a 0-d tensor and checks upstream's numbers.
    """
    _matmul_1d_double_grad(backend, wrt_y=True)


def test_matmul_double_grad_case4(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGradMatmul::test_matmul_double_grad_case4
    (seed shape: rule 4, as in case3)."""
    _matmul_1d_double_grad(backend, wrt_y=False)


def test_matmul_double_grad_case5(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGradMatmul::test_matmul_double_grad_case5."""
    np.random.seed(5)
    nx, ny = np.random.random([2, 1]).astype("float32"), np.random.random([1]).astype("float32")
    x, y = backend.leaf(nx), backend.leaf(ny)
    out = matmul(backend)(x, y)
    dout = backend.leaf(np.ones([2]))
    (dy,) = unigrad.grad([out], [y], [dout], retain_graph=True, create_graph=True)
    ddy = backend.leaf(np.ones([1]))
    dx_double_grad, ddout = unigrad.grad(
        [dy], [x, dout], [ddy], retain_graph=True, create_graph=True
    )
    backend.close(dx_double_grad, np.ones([2, 1]), rtol=1e-6)
    backend.close(ddout, nx @ np.ones([1], dtype="float32"), rtol=1e-6)


def test_matmul_double_grad_case6(backend) -> None:
    """test_imperative_double_grad.py::TestDygraphDoubleGradMatmul::test_matmul_double_grad_case6."""
    np.random.seed(6)
    nx, ny = np.random.random([2, 1]).astype("float32"), np.random.random([1]).astype("float32")
    x, y = backend.leaf(nx), backend.leaf(ny)
    out = matmul(backend)(x, y)
    dout = backend.leaf(np.ones([2]))
    (dx,) = unigrad.grad([out], [x], [dout], retain_graph=True, create_graph=True)
    ddx = backend.leaf(np.ones([2, 1]))
    dy_double_grad, ddout = unigrad.grad(
        [dx], [y, dout], [ddx], retain_graph=True, create_graph=True
    )
    backend.close(dy_double_grad, np.ones([1]) * 2, rtol=1e-6)
    backend.close(ddout, np.ones([2]) * ny[0], rtol=1e-6)


# ---- test_imperative_triple_grad.py ---------------------------------------------------------
def test_matmul_triple_grad(backend) -> None:
    """test_imperative_triple_grad.py::TestDygraphTripleGradMatmul::test_matmul_triple_grad.

    paddle leaves ``x.grad`` and ``new_x_g_g.grad`` None, as unigrad does (rule 13).
    """
    input_numpy = np.ones([3, 3]) * 2
    x, y = backend.leaf(input_numpy), backend.leaf(input_numpy)
    out = matmul(backend)(x, y)
    new_out_g = backend.leaf(np.ones([3, 3]))
    new_x_g, new_y_g = unigrad.grad(
        [out], [x, y], [new_out_g], retain_graph=True, create_graph=True
    )
    new_x_g_g, new_y_g_g = backend.leaf(np.ones([3, 3])), backend.leaf(np.ones([3, 3]))
    new_a, new_b, new_c = unigrad.grad(
        [new_x_g, new_y_g],
        [x, y, new_out_g],
        [new_x_g_g, new_y_g_g],
        retain_graph=True,
        create_graph=True,
    )
    unigrad.backward(new_a)
    ones = np.ones([3, 3])
    np.testing.assert_array_equal(backend.np(out), ones * 12.0)
    np.testing.assert_array_equal(backend.np(new_x_g), ones * 6.0)
    np.testing.assert_array_equal(backend.np(new_y_g), ones * 6.0)
    np.testing.assert_array_equal(backend.np(new_a), ones * 3.0)
    np.testing.assert_array_equal(backend.np(new_b), ones * 3.0)
    np.testing.assert_array_equal(backend.np(new_c), ones * 12.0)
    assert backend.grad_of(x) is None
    assert backend.grad_of(y) is None
    np.testing.assert_array_equal(backend.np(backend.grad_of(new_out_g)), ones * 3.0)
    assert backend.grad_of(new_x_g_g) is None
    np.testing.assert_array_equal(backend.np(backend.grad_of(new_y_g_g)), ones * 3.0)


def _sigmoid_matmul_triple(backend, x_shape, y_shape, z_shape, axes):
    x_np = random_var(backend, x_shape, seed=2021)
    y_np = random_var(backend, y_shape, seed=2021)
    z_np = random_var(backend, z_shape, seed=2021)
    x, y, z = backend.leaf(x_np), backend.leaf(y_np), backend.leaf(z_np)
    out = native(backend, "sigmoid")(matmul(backend)(x, y) + z)
    out_np = backend.np(out)
    (dx_actual,) = unigrad.grad([out], [x], create_graph=True)
    dout = np.ones(x_shape).astype("float32")
    y_t = np.transpose(y_np, axes=axes)
    backend.close(dx_actual, np.matmul(dout * out_np * (1 - out_np), y_t), rtol=RTOL)
    (ddx_actual,) = unigrad.grad([dx_actual], [x], create_graph=True)
    ddy = np.zeros(y_shape).astype("float32")
    ddx = np.ones(x_shape).astype("float32")
    tmp1 = np.matmul(dout * out_np * (1 - out_np), np.transpose(ddy, axes=axes))
    tmp2 = np.matmul(ddx, y_np) + np.matmul(x_np, ddy)
    tmp3 = (1 - 2 * out_np) * dout * tmp2 * out_np * (1 - out_np)
    backend.close(ddx_actual, tmp1 + np.matmul(tmp3, y_t), rtol=RTOL)
    d_ddout = np.zeros(x_shape).astype("float32")
    tmp0 = np.matmul(ddx, y_np) + np.matmul(x_np, ddy)
    t1 = (1 - 2 * out_np) * ((1 - 2 * out_np) * dout * tmp0 * tmp0)
    t2 = tmp0 * (1 - 2 * out_np) * d_ddout - 2 * dout * (1 - out_np) * out_np * tmp0 * tmp0
    dddx_expected = np.matmul((t1 + t2) * out_np * (1 - out_np), y_t)
    unigrad.backward(ddx_actual)
    backend.close(backend.grad_of(x), dddx_expected, rtol=RTOL, atol=1e-6)


def test_triple_grad_all_cases(backend) -> None:
    """test_imperative_triple_grad.py::TestDygraphTripleGrad::test_all_cases (func_exception and
    func_example_with_gradient_and_create_graph: sigmoid(matmul(x, y) + z), three orders)."""
    leaf = lambda: backend.leaf(random_var(backend, [5, 5], seed=2021))  # noqa: E731
    with pytest.raises(unigrad.GradArgumentError):
        unigrad.grad(None, None)
    with pytest.raises(unigrad.GradOutputsError):
        unigrad.grad([leaf(), leaf()], [leaf()], [leaf()])
    with pytest.raises(unigrad.BackendError):
        unigrad.grad([leaf()], [leaf()], no_grad_vars=1)
    _sigmoid_matmul_triple(backend, [5, 5], [5, 5], [5, 5], (1, 0))


def test_triple_grad_broadcast_case(backend) -> None:
    """test_imperative_triple_grad.py::TestDygraphTripleGradBroadcastCase::test_all_cases."""
    _sigmoid_matmul_triple(backend, [3, 2, 2], [1, 2, 2], [2, 2], (0, 2, 1))


def _matmul_triple_d_ddout_none(backend, nx, ny, ndout, nddx, nddy):
    x, y = backend.leaf(nx), backend.leaf(ny)
    out = matmul(backend)(x, y)
    dout = backend.leaf(ndout)
    dx, dy = unigrad.grad([out], [x, y], [dout], retain_graph=True, create_graph=True)
    ddx, ddy = backend.leaf(nddx), backend.leaf(nddy)
    dx_double_grad, dy_double_grad = unigrad.grad(
        [dx, dy], [x, y], [ddx, ddy], retain_graph=True, create_graph=True
    )
    return unigrad.grad(
        [dx_double_grad, dy_double_grad],
        [dout, ddx, ddy],
        retain_graph=False,
        create_graph=False,
    )


def test_matmul_triple_grad_case1(backend) -> None:
    """test_imperative_triple_grad.py::TestDygraphTripleGradMatmulcase1::test_matmul_triple_grad_case1."""
    np.random.seed(11)
    nx, ny = np.random.random([3, 3]).astype("float32"), np.random.random([3, 3]).astype("float32")
    ones = np.ones([3, 3], dtype="float32")
    d_dout, d_ddx, d_ddy = _matmul_triple_d_ddout_none(backend, nx, ny, ones, ones, ones)
    backend.close(d_dout, ones * 6, rtol=1e-6)
    backend.close(d_ddx, ones * 3, rtol=1e-6)
    backend.close(d_ddy, ones * 3, rtol=1e-6)


def test_matmul_triple_grad_case2(backend) -> None:
    """test_imperative_triple_grad.py::TestDygraphTripleGradMatmulcase1::test_matmul_triple_grad_case2.

    upstream's dout has shape [1] for the 0-d output of a 1-d matmul: rule 4 wants the
    output's shape, so the replay seeds with a 0-d dout (d_dout is then 0-d: 6).
    """
    np.random.seed(12)
    nx, ny = np.random.random([3]).astype("float32"), np.random.random([3]).astype("float32")
    ones = np.ones([3], dtype="float32")
    d_dout, d_ddx, d_ddy = _matmul_triple_d_ddout_none(
        backend, nx, ny, np.ones((), "float32"), ones, ones
    )
    backend.close(d_dout, 6.0, rtol=1e-6)
    backend.close(d_ddx, ones, rtol=1e-6)
    backend.close(d_ddy, ones, rtol=1e-6)


def test_matmul_triple_grad_case3(backend) -> None:
    """test_imperative_triple_grad.py::TestDygraphTripleGradMatmulcase1::test_matmul_triple_grad_case3."""
    np.random.seed(13)
    nx, ny = np.random.random([3, 1]).astype("float32"), np.random.random([1]).astype("float32")
    d_dout, d_ddx, d_ddy = _matmul_triple_d_ddout_none(
        backend,
        nx,
        ny,
        np.ones([3], "float32"),
        np.ones([3, 1], "float32"),
        np.ones([1], "float32"),
    )
    backend.close(d_dout, np.ones([3]) * 2, rtol=1e-6)
    backend.close(d_ddx, np.ones([3, 1]), rtol=1e-6)
    backend.close(d_ddy, np.ones([1]) * 3, rtol=1e-6)


def _matmul_triple_one_side(backend, shapes, wrt_y, seed):
    """TestDygraphTripleGradMatmulcase3 (``wrt_y``: the double grad with respect to y, then
    d/d[dout, ddx]) and ...case5 (with respect to x, then d/d[dout, ddy]); a 0-d dout for
    the 0-d output of a 1-d matmul (rule 4, as in case2 above)."""
    np.random.seed(seed)
    x_shape, y_shape, out_shape = shapes
    x = backend.leaf(np.random.random(x_shape).astype("float32"))
    y = backend.leaf(np.random.random(y_shape).astype("float32"))
    out = matmul(backend)(x, y)
    dout = backend.leaf(np.ones(out_shape, "float32"))
    dx, dy = unigrad.grad([out], [x, y], [dout], retain_graph=True, create_graph=True)
    ddx = backend.leaf(np.ones(x_shape, "float32"))
    ddy = backend.leaf(np.ones(y_shape, "float32"))
    (double_grad,) = unigrad.grad(
        [dx, dy], [y if wrt_y else x], [ddx, ddy], retain_graph=True, create_graph=True
    )
    return unigrad.grad(
        [double_grad], [dout, ddx if wrt_y else ddy], retain_graph=False, create_graph=False
    )


@pytest.mark.parametrize(
    ("case", "shapes", "expected"),
    [
        ("case1", ([3, 3], [3, 3], [3, 3]), (np.ones([3, 3]) * 3, np.ones([3, 3]) * 3)),
        ("case2", ([3], [3], []), (3.0, np.ones([3]))),
        ("case3", ([3, 1], [1], [3]), (np.ones([3]), np.ones([3, 1]))),
    ],
)
def test_matmul_triple_grad_matmulcase3(backend, case, shapes, expected) -> None:
    """test_imperative_triple_grad.py::TestDygraphTripleGradMatmulcase3::test_matmul_triple_grad_<case>
    (d_ddout and d_dx are None: d_dout and d_ddx only)."""
    d_dout, d_ddx = _matmul_triple_one_side(backend, shapes, wrt_y=True, seed=len(case) + 30)
    backend.close(d_dout, expected[0], rtol=1e-6)
    backend.close(d_ddx, expected[1], rtol=1e-6)


@pytest.mark.parametrize(
    ("case", "shapes", "expected"),
    [
        ("case1", ([3, 3], [3, 3], [3, 3]), (np.ones([3, 3]) * 3, np.ones([3, 3]) * 3)),
        ("case2", ([3], [3], []), (3.0, np.ones([3]))),
        ("case3", ([3, 1], [1], [3]), (np.ones([3]), np.ones([1]) * 3)),
    ],
)
def test_matmul_triple_grad_matmulcase5(backend, case, shapes, expected) -> None:
    """test_imperative_triple_grad.py::TestDygraphTripleGradMatmulcase5::test_matmul_triple_grad_<case>
    (d_ddout and d_dy are None: d_dout and d_ddy only; the numbers are the closed forms
    dx_double_grad = dout @ ddy.T differentiated, as upstream's expected arrays)."""
    d_dout, d_ddy = _matmul_triple_one_side(backend, shapes, wrt_y=False, seed=len(case) + 50)
    backend.close(d_dout, expected[0], rtol=1e-6)
    backend.close(d_ddy, expected[1], rtol=1e-6)


# ---- test_activation_nn_grad.py: gradient_checker.double_grad_check / triple_grad_check ------
def _sig(x):
    return 1.0 / (1.0 + np.exp(-x))


# name -> (upstream class, op kwargs, x_init(rng, shape), f', f'', f''')
_A = 0.2
ACTIVATIONS = {
    "sigmoid": (
        {},
        lambda s: _sig(s) * (1 - _sig(s)),
        lambda s: _sig(s) * (1 - _sig(s)) * (1 - 2 * _sig(s)),
        lambda s: _sig(s) * (1 - _sig(s)) * (1 - 6 * _sig(s) + 6 * _sig(s) ** 2),
    ),
    "tanh": (
        {},
        lambda x: 1 - np.tanh(x) ** 2,
        lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2),
        lambda x: -2 * (1 - np.tanh(x) ** 2) * (1 - 3 * np.tanh(x) ** 2),
    ),
    "abs": ({}, np.sign, np.zeros_like, np.zeros_like),
    "relu": ({}, lambda x: (x > 0) * 1.0, np.zeros_like, np.zeros_like),
    "leaky_relu": (
        {"negative_slope": _A},
        lambda x: np.where(x > 0, 1.0, _A),
        np.zeros_like,
        np.zeros_like,
    ),
    "elu": (
        {"alpha": _A},
        lambda x: np.where(x > 0, 1.0, _A * np.exp(x)),
        lambda x: np.where(x > 0, 0.0, _A * np.exp(x)),
        None,
    ),
    "celu": (
        {"alpha": _A},
        lambda x: np.where(x > 0, 1.0, np.exp(x / _A)),
        lambda x: np.where(x > 0, 0.0, np.exp(x / _A) / _A),
        None,
    ),
    "softplus": ({"beta": 1, "threshold": 20}, _sig, lambda x: _sig(x) * (1 - _sig(x)), None),
    "sqrt": ({}, lambda x: 0.5 * x**-0.5, lambda x: -0.25 * x**-1.5, None),
    "rsqrt": ({}, lambda x: -0.5 * x**-1.5, lambda x: 0.75 * x**-2.5, None),
    "square": ({}, lambda x: 2 * x, lambda x: 2 * np.ones_like(x), None),
    "log": ({}, lambda x: 1 / x, lambda x: -1 / x**2, None),
    "sin": ({}, np.cos, lambda x: -np.sin(x), lambda x: -np.cos(x)),
    "cos": ({}, lambda x: -np.sin(x), lambda x: -np.cos(x), np.sin),
    "pow2": ({"exponent": 2}, lambda x: 2 * x, lambda x: 2 * np.ones_like(x), np.zeros_like),
    "pow1": ({"exponent": 1}, np.ones_like, np.zeros_like, np.zeros_like),
    "pow4": ({"exponent": 4}, lambda x: 4 * x**3, lambda x: 12 * x**2, lambda x: 24 * x),
}

#: ops whose first derivative is piecewise constant: issue 23's Decision makes it a constant
#: of x (its gradient with respect to x is unused: None, or zeros when materialized).
PIECEWISE_LINEAR = {"abs", "relu", "leaky_relu"}

# (upstream class, op, x_init range, shape)
DOUBLE = [
    ("TestSigmoidDoubleGradCheck", "sigmoid", (-1, 1), [2, 3, 7, 9]),
    ("TestTanhDoubleGradCheck", "tanh", (-1, 1), [2, 3, 7, 9]),
    ("TestAbsDoubleGradCheck", "abs", (-1, 1), [2, 3, 7, 9]),
    ("TestReluDoubleGradCheck", "relu", (-1, 1), [2, 3, 7, 9]),
    ("TestLeakyReluDoubleGradCheck", "leaky_relu", (-1, 1), [2, 3, 7, 9]),
    ("TestELUDoubleGradCheck", "elu", (-1, 1), [2, 4, 4, 4]),
    ("TestCELUDoubleGradCheck", "celu", (-1, 1), [2, 4, 4, 4]),
    ("TestSoftplusDoubleGradCheck", "softplus", (-1, 1), [2, 4, 4, 4]),
    ("TestSqrtDoubleGradCheck", "sqrt", (0.1, 1), [2, 3, 7, 9]),
    ("TestRsqrtDoubleGradCheck", "rsqrt", (0.1, 1), [2, 3, 7, 9]),
    ("TestSquareDoubleGradCheck", "square", (-1, 1), [2, 3, 7, 9]),
    ("TestLogDoubleGradCheck", "log", (0.1, 1), [2, 3, 7, 9]),
    ("TestSinDoubleGradCheck", "sin", (-1, 1), [2, 3, 7, 9]),
    ("TestCosDoubleGradCheck", "cos", (-1, 1), [2, 3, 7, 9]),
    ("TestPowDoubleGradCheck1", "pow2", (-1, 1), [2, 3, 7, 9]),
    ("TestPowDoubleGradCheck2", "pow1", (-1, 1), [2, 3, 7, 9]),
]

#: the replays that fail because of a unigrad bug, by (upstream class, backend)
BUGS: dict[tuple[str, str], str] = {}


def _params(cases):
    return [
        pytest.param(
            *case,
            id=case[0],
            marks=[
                pytest.mark.xfail_backend(be, reason=why)
                for (cls, be), why in BUGS.items()
                if cls == case[0]
            ],
        )
        for case in cases
    ]


TRIPLE = [
    ("TestSigmoidTripleGradCheck", "sigmoid", (0, 1), [2, 3, 7, 9]),
    ("TestTanhTripleGradCheck", "tanh", (0, 1), [2, 3, 7, 9]),
    ("TestSinTripleGradCheck", "sin", (0, 1), [2, 3, 7, 9]),
    ("TestCosTripleGradCheck", "cos", (0, 1), [2, 3, 7, 9]),
    ("TestPowTripleGradCheck1", "pow1", (-1, 1), [2, 3, 7, 9]),
    ("TestPowTripleGradCheck2", "pow2", (-1, 1), [2, 3, 7, 9]),
    ("TestPowTripleGradCheck3", "pow4", (-1, 1), [2, 3, 7, 9]),
]


def _op(backend, key):
    kw = ACTIVATIONS[key][0]
    return native(backend, "pow" if key.startswith("pow") else key, **kw)


def _x_init(low, high, shape):
    x = np.random.uniform(low, high, shape)
    x[np.abs(x) < 0.005] = 0.02  # upstream moves the kink / singular points away
    return x


@pytest.mark.parametrize(("cls", "key", "rng", "shape"), _params(DOUBLE))
def test_activation_double_grad_check(backend, cls, key, rng, shape) -> None:
    """test_activation_nn_grad.py::<cls>::test_grad (gradient_checker.double_grad_check).

    dx = grad(y, x, dy, create_graph=True); the checker differentiates dx with respect to
    [x, dy] with seed ddx: f''(x) dy ddx and f'(x) ddx, float64. For abs, relu and
    leaky_relu f' is piecewise constant: issue 23's Decision makes dx a constant of x, so
    its gradient with respect to x is unused (None; zeros with materialize_grads, the
    checker's number).
    """
    _, f1, f2, _ = ACTIVATIONS[key]
    # elu's and celu's alpha is a float32 attribute in paddle's and torch's kernels
    # (0.2 rounds to 0.200000003): their float64 results agree to about 1e-7
    rtol = 1e-6 if key in ("elu", "celu") else RTOL64
    np.random.seed(sum(map(ord, cls)))
    x_np = _x_init(*rng, shape)
    dy_np = np.random.uniform(-1, 1, shape)
    ddx_np = np.random.uniform(-1, 1, shape)
    x, dy = backend.leaf(x_np, "float64"), backend.leaf(dy_np, "float64")
    y = _op(backend, key)(x)
    (dx,) = unigrad.grad(y, x, dy, create_graph=True)
    backend.close(dx, f1(x_np) * dy_np, rtol=rtol, atol=1e-12)
    ddx = backend.tensor(ddx_np, "float64")
    if key in PIECEWISE_LINEAR:
        gx, gdy = unigrad.grad(dx, [x, dy], ddx, allow_unused=True, retain_graph=True)
        assert gx is None
        backend.close(gdy, f1(x_np) * ddx_np, rtol=RTOL64, atol=1e-12)
        (gx,) = unigrad.grad(dx, [x], ddx, allow_unused=True, materialize_grads=True)
        backend.close(gx, np.zeros(shape), rtol=0, atol=0)
        return
    gx, gdy = unigrad.grad(dx, [x, dy], ddx, allow_unused=True, materialize_grads=True)
    backend.close(gx, f2(x_np) * dy_np * ddx_np, rtol=rtol, atol=1e-12)
    backend.close(gdy, f1(x_np) * ddx_np, rtol=rtol, atol=1e-12)


@pytest.mark.parametrize(("cls", "key", "rng", "shape"), _params(TRIPLE))
def test_activation_triple_grad_check(backend, cls, key, rng, shape) -> None:
    """test_activation_nn_grad.py::<cls>::test_grad (gradient_checker.triple_grad_check).

    dx = grad(y, x, dy, create_graph=True), ddx_out = grad(dx, x, ddx, create_graph=True)
    = f''(x) dy ddx; the checker differentiates it with respect to [x, dy, ddx] with seed v:
    f'''(x) dy ddx v, f''(x) ddx v and f''(x) dy v, float64.
    """
    _, _, f2, f3 = ACTIVATIONS[key]
    np.random.seed(sum(map(ord, cls)))
    x_np = _x_init(*rng, shape)
    dy_np, ddx_np, v_np = (np.random.uniform(-1, 1, shape) for _ in range(3))
    x = backend.leaf(x_np, "float64")
    dy, ddx = backend.leaf(dy_np, "float64"), backend.leaf(ddx_np, "float64")
    y = _op(backend, key)(x)
    (dx,) = unigrad.grad(y, x, dy, create_graph=True)
    (ddx_out,) = unigrad.grad(
        dx, x, ddx, create_graph=True, allow_unused=True, materialize_grads=True
    )
    backend.close(ddx_out, f2(x_np) * dy_np * ddx_np, rtol=RTOL64, atol=1e-12)
    v = backend.tensor(v_np, "float64")
    gx, gdy, gddx = unigrad.grad(
        ddx_out, [x, dy, ddx], v, allow_unused=True, materialize_grads=True
    )
    backend.close(gx, f3(x_np) * dy_np * ddx_np * v_np, rtol=RTOL64, atol=1e-12)
    backend.close(gdy, f2(x_np) * ddx_np * v_np, rtol=RTOL64, atol=1e-12)
    backend.close(gddx, f2(x_np) * dy_np * v_np, rtol=RTOL64, atol=1e-12)


def test_cos_double_grad_check2(backend) -> None:
    """test_activation_nn_grad.py::TestCosDoubleGradCheck2::test_cos_double_grad (the dynamic
    half: grad(grad(cos(x), x, create_graph=True), x) = -cos(x), float32)."""
    np.random.seed(64)
    x_np = np.random.randn(64, 64).astype("float32")
    x = backend.leaf(x_np)
    dx = unigrad.grad(native(backend, "cos")(x), x, create_graph=True)
    (dxx,) = unigrad.grad(dx, x)
    backend.close(dxx, -np.cos(x_np), rtol=1e-6, atol=1e-6)
