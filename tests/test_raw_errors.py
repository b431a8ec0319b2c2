"""Issue 23: programs where one backend let a raw framework error escape (or refused)
while the others answered. Each test runs on all four backends and states the answer."""

from __future__ import annotations

import collections

import numpy as np
import pytest

import unigrad


# ---- the front: containers of any sequence type ------------------------------------------
def test_a_namedtuple_is_a_sequence_in_every_argument(backend) -> None:
    # torch 2.13's engine takes exact tuples only ("inputs to run_backward must be a
    # tuple"); the front hands every backend plain tuples
    pair = collections.namedtuple("pair", "a b")
    one = collections.namedtuple("one", "a")
    x = backend.leaf([1.0, 2.0])
    w = backend.leaf([3.0, 4.0])
    xp = backend.xp
    y = xp.sum(x * x * w)
    gx, gw = unigrad.grad(pair(y, y * 1), pair(x, w), pair(None, backend.tensor(2.0)), True)
    backend.close(gx, 3 * 2 * np.array([1.0, 2.0]) * [3.0, 4.0])
    backend.close(gw, 3 * np.array([1.0, 4.0]))
    (gx,) = unigrad.grad(one(y), one(x), one(None), no_grad_vars=one(w), retain_graph=True)
    backend.close(gx, 2 * np.array([1.0, 2.0]) * [3.0, 4.0])
    unigrad.backward(pair(xp.sum(x * w), xp.sum(x)), inputs=pair(x, w))
    backend.close(backend.grad_of(x), [4.0, 5.0])
    backend.close(backend.grad_of(w), [1.0, 2.0])
    unigrad.backward(one(xp.sum(x * x)), one(None), inputs=one(x))
    backend.close(backend.grad_of(x), [6.0, 9.0])


# ---- the jax tape: boolean masks that are tape tensors -----------------------------------
def test_a_mask_computed_from_a_tape_tensor_indexes_it(backend) -> None:
    # jax raised NonConcreteBooleanIndexError: the mask reached the traced replay
    x = backend.leaf([1.0, -2.0, 3.0, -0.5])
    xp = backend.xp
    (g,) = unigrad.grad(xp.sum(x[x > 0] ** 2), x)
    backend.close(g, [2.0, 0.0, 6.0, 0.0])
    (h,) = unigrad.grad(xp.sum(x[x < 0] ** 3), x, create_graph=True)
    backend.close(h, [0.0, 12.0, 0.0, 0.75])
    (h2,) = unigrad.grad(xp.sum(h), x)
    backend.close(h2, [0.0, -12.0, 0.0, -3.0])


@pytest.mark.needs("compiles_steps")
def test_a_mask_computed_inside_a_compiled_step_is_refused(backend) -> None:
    @unigrad.jit
    def step(w):
        w = unigrad.watch(w)
        xp = unigrad.namespace(w)
        loss = xp.sum(w[w > 0] ** 2)
        return unigrad.grad(loss, w)[0]

    # (tf.function could trace the value-dependent shape; the step is refused as on
    # jax, so that a step has one outcome on every compiling backend: test_compile.py)
    with pytest.raises(unigrad.CompiledStepError, match="read a value"):
        step(backend.tensor([1.0, -2.0]))


# ---- paddle: powers and list ops in a gradient's graph -----------------------------------
@pytest.mark.parametrize("power", ["operator", "xp.pow", "cube"])
def test_the_second_derivative_of_a_power_with_respect_to_another_factor(backend, power) -> None:
    # paddle 3.3's PowDoubleGradNode raised "The output DenseTensor DX can not be
    # nullptr" when the second pass did not ask for the base (a PINN output transform
    # x[:, 0:1] ** 2 times a network's output)
    x = backend.leaf([[1.0, 2.0], [3.0, -1.5]])
    w = backend.leaf([[0.5], [-2.0]])
    xp = backend.xp
    xs = x[:, 0:1]
    p = {"operator": xs**2, "xp.pow": xp.pow(xs, 2), "cube": xp.pow(xs, 3)}[power]
    n = 3 if power == "cube" else 2
    (g,) = unigrad.grad(xp.sum(p * w), x, create_graph=True)
    (gw,) = unigrad.grad(xp.sum(g), w)
    xs_np = np.array([[1.0], [3.0]])
    backend.close(gw, n * xs_np ** (n - 1))
    (gx,) = unigrad.grad(xp.sum(p * w), x, create_graph=True)
    (hx,) = unigrad.grad(xp.sum(gx), x)
    expected = np.zeros((2, 2))
    expected[:, 0:1] = n * (n - 1) * xs_np ** (n - 2) * np.array([[0.5], [-2.0]])
    backend.close(hx, expected)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_tensor_power_operator_differentiates_twice(backend, dtype) -> None:
    # paddle 3.3.1's ``x ** y`` of two tensors and ``2.0 ** x`` run elementwise_pow,
    # which has no double-grad kernel: HigherOrderUnavailableError where the other
    # backends answer (the namespace's pow answered). Closed forms; float32 to 1e-5.
    xn, yn = np.array([0.5, 1.5, 2.0]), np.array([1.5, 2.5, 3.0])
    x, y = backend.leaf(xn, dtype), backend.leaf(yn, dtype)
    xp = backend.xp
    tol = {"rtol": 1e-5, "atol": 1e-6} if dtype == "float32" else {"rtol": 1e-12, "atol": 0}
    (g,) = unigrad.grad(xp.sum(x**y), x, create_graph=True)
    backend.close(g, yn * xn ** (yn - 1), **tol)
    hx, hy = unigrad.grad(xp.sum(g), [x, y], create_graph=True)
    backend.close(hx, yn * (yn - 1) * xn ** (yn - 2), **tol)
    backend.close(hy, xn ** (yn - 1) * (1 + yn * np.log(xn)), **tol)
    (kx,) = unigrad.grad(xp.sum(hx), x)
    backend.close(kx, yn * (yn - 1) * (yn - 2) * xn ** (yn - 3), **tol)
    (g,) = unigrad.grad(xp.sum(2.0**x), x, create_graph=True)
    (h,) = unigrad.grad(xp.sum(g), x)
    backend.close(h, 2.0**xn * np.log(2.0) ** 2, **tol)


def test_a_number_to_a_complex_power_has_the_right_gradient(backend) -> None:
    # paddle 3.3.1's ``3.0 ** z`` (Tensor.__rpow__) of a complex z ran elementwise_pow,
    # whose complex gradient is wrong (a wrong number: differential seed 9802, programs
    # 853 and 4579). d(3 ** z)/dz = 3 ** z log 3; the gradient is its conjugate times the
    # seed (torch's convention). float64 products: 1e-12.
    zn = np.array([-0.89 - 1.18j, 0.41 - 0.48j])
    z = backend.leaf(zn, "complex128")
    seed = np.array([0.86 + 1.5j, -0.5 + 0.25j])
    (g,) = unigrad.grad(3.0**z, z, grad_outputs=backend.tensor(seed, "complex128"))
    backend.close(g, seed * np.conj(3.0**zn * np.log(3.0)), rtol=1e-12, atol=1e-12)


def test_a_remainder_operator_differentiates_twice(backend) -> None:
    # paddle 3.3.1's ``a % b`` runs remainder, which has no double-grad kernel:
    # HigherOrderUnavailableError from a create_graph pass where the other backends
    # answer. d(a % b)/da = 1 and d/db = -floor(a / b): constants (rule 14: floor cuts)
    an = np.array([[0.5, 1.5, 2.0], [1.25, 0.75, 1.8]])
    bn = np.array([[1.5, 2.5, 0.6]])
    a, b = backend.leaf(an, "float64"), backend.leaf(bn, "float64")
    xp = backend.xp
    ga, gb = unigrad.grad(xp.sum(a % b), [a, b], create_graph=True)
    backend.close(ga, np.ones((2, 3)), rtol=0, atol=0)
    backend.close(gb, -np.floor(an / bn).sum(axis=0, keepdims=True), rtol=0, atol=0)
    assert not backend.requires_grad(ga)
    assert not backend.requires_grad(gb)
    (g,) = unigrad.grad(xp.sum(3.0 % a), a, create_graph=True)
    backend.close(g, -np.floor(3.0 / an), rtol=0, atol=0)
    assert not backend.requires_grad(g)


def test_unary_plus_differentiates(backend) -> None:
    # HIPS autograd 1.9.1 has no VJP for np.positive: the numpy tape's ``+x`` raised
    # NotImplementedError when differentiated; ``+x`` keeps -0.0
    a = backend.leaf([0.5, -0.0], "float64")
    b = backend.leaf([2.0, 3.0], "float64")
    xp = backend.xp
    ga, gb = unigrad.grad(xp.sum((+a) * b), [a, b], create_graph=True)
    backend.close(ga, [2.0, 3.0], rtol=0, atol=0)
    backend.close(gb, [0.5, 0.0], rtol=0, atol=0)
    (h,) = unigrad.grad(xp.sum(ga * a), b)
    backend.close(h, [0.5, 0.0], rtol=0, atol=0)
    assert np.signbit(backend.np(+a)).tolist() == [False, True]


@pytest.mark.parametrize("op", ["concat", "stack"])
def test_a_list_op_with_a_constant_operand_differentiates_twice(backend, op) -> None:
    # paddle 3.3: ConcatDoubleGradNode / StackDoubleGradNode raised "Unable to fill
    # empty grad inputs due to empty GradSlotMeta" for the constant's slot
    x = backend.leaf([1.0, 2.0])
    c = backend.tensor([3.0, 4.0])
    xp = backend.xp
    n = getattr(xp, op)([x, c, x])
    (g,) = unigrad.grad(xp.sum(n / n + n * n), x, create_graph=True)
    backend.close(g, 4 * np.array([1.0, 2.0]))
    (h,) = unigrad.grad(xp.sum(g * g), x)
    backend.close(h, 32 * np.array([1.0, 2.0]))
    assert not backend.requires_grad(c)
    (gc,) = unigrad.grad(xp.sum(n * n), c, allow_unused=True)
    assert gc is None


@pytest.mark.parametrize("op", ["sin", "tanh", "exp", "square", "abs", "sqrt"])
def test_a_cut_inside_a_create_graph_call_then_backward_through_its_result(backend, op) -> None:
    # paddle 3.3: the zeros unigrad sends through a cut made the double-grad node behind
    # it fail in the later pass ("The current MetaTensor is not initialized", paddle's
    # own test_example_with_gradient_accumulation_and_no_grad_vars with relu)
    x = backend.leaf([0.3, 0.8, 1.4], "float64")
    xp = backend.xp
    f = getattr(xp, op)
    y1, y2 = f(x), f(x)
    z = y1 + y2
    (dx,) = unigrad.grad(xp.sum(z * z), x, create_graph=True, no_grad_vars=[y2])
    x_np = np.array([0.3, 0.8, 1.4])
    ref = {
        "sin": (np.sin, np.cos, lambda v: -np.sin(v)),
        "tanh": (
            np.tanh,
            lambda v: 1 - np.tanh(v) ** 2,
            lambda v: -2 * np.tanh(v) * (1 - np.tanh(v) ** 2),
        ),
        "exp": (np.exp, np.exp, np.exp),
        "square": (np.square, lambda v: 2 * v, lambda v: 2 + 0 * v),
        "abs": (np.abs, np.sign, lambda v: 0 * v),
        "sqrt": (np.sqrt, lambda v: 0.5 / np.sqrt(v), lambda v: -0.25 * v**-1.5),
    }[op]
    fv, d1, d2 = (h(x_np) for h in ref)
    backend.close(dx, 2 * (2 * fv) * d1, rtol=1e-12)
    unigrad.backward(xp.sum(dx * dx))
    # d/dx of dx = 2 (y1 + y2) f'(x), both y1 and y2 functions of x (row 14)
    ddx = 2 * (2 * d1) * d1 + 2 * (2 * fv) * d2
    backend.close(backend.grad_of(x), 2 * (2 * 2 * fv * d1) * ddx, rtol=1e-10, atol=1e-12)


# ---- paddle: prod under create_graph -----------------------------------------------------
@pytest.mark.parametrize(("axis", "keepdims"), [(None, False), (1, False), ((0, 2), True)])
def test_prod_differentiates_to_second_order(backend, axis, keepdims) -> None:
    # paddle 3.3's prod_grad has no double-grad kernel: create_graph=True through prod
    # raised HigherOrderUnavailableError, even where no later pass ran through it
    rng = np.random.default_rng(3)
    a = rng.uniform(0.5, 1.5, size=(2, 3, 2)) * rng.choice([-1.0, 1.0], size=(2, 3, 2))
    a[1, 2, 0] = 0.0
    x = backend.leaf(a, "float64")
    w = backend.leaf([2.0, -1.0], "float64")
    xp = backend.xp
    p = xp.prod(x, axis=axis, keepdims=keepdims)
    backend.close(p, np.prod(a, axis=axis, keepdims=keepdims), rtol=1e-12, atol=1e-15)
    (gw,) = unigrad.grad(xp.sum(p) + xp.sum(w * w), w, create_graph=True)
    backend.close(gw, [4.0, -2.0])
    (g,) = unigrad.grad(xp.sum(p), x, create_graph=True)
    (h,) = unigrad.grad(xp.sum(g), x)
    # the closed forms, from the product of the other elements of each reduced group
    flat_axes = tuple(range(3)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    eps = 1e-6
    num_g = np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        d = np.zeros_like(a)
        d[idx] = eps
        num_g[idx] = (
            np.prod(a + d, axis=flat_axes).sum() - np.prod(a - d, axis=flat_axes).sum()
        ) / (2 * eps)
    backend.close(g, num_g, rtol=1e-6, atol=1e-8)

    def gsum(v: np.ndarray) -> float:
        total = 0.0
        for idx in np.ndindex(v.shape):
            d = np.zeros_like(v)
            d[idx] = eps
            total += (
                np.prod(v + d, axis=flat_axes).sum() - np.prod(v - d, axis=flat_axes).sum()
            ) / (2 * eps)
        return total

    num_h = np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        d = np.zeros_like(a)
        d[idx] = 1e-4
        num_h[idx] = (gsum(a + d) - gsum(a - d)) / 2e-4
    backend.close(h, num_h, rtol=1e-4, atol=1e-6)


# ---- torch: hooks under unigrad.backward(inputs=...) fire as torch's backward fires them --
def test_torch_hook_edge_case_when_called_with_grad_as_upstream_writes_it() -> None:
    # pytorch/pytorch test/test_autograd.py, TestAutograd.test_hook_edge_case_when_called_
    # with_grad, with torch.autograd.grad/backward through unigrad: backward(inputs=...)
    # fired (2, 1, 1) where torch fires (2, 2, 2) (it ran as grad)
    torch = pytest.importorskip("torch")
    a = torch.tensor(1.0, requires_grad=True)
    b = a * 2
    c = b * 2
    counts = {"tensor": 0, "pre": 0, "post": 0}

    def tensor_prehook(g):
        counts["tensor"] += 1

    def prehook(g):
        counts["pre"] += 1

    def posthook(g_in, g_out):
        counts["post"] += 1

    a.register_hook(tensor_prehook)
    b.register_hook(tensor_prehook)
    acc = b.grad_fn.next_functions[0][0]
    acc.register_hook(posthook)
    acc.register_prehook(prehook)
    b.grad_fn.register_hook(posthook)
    b.grad_fn.register_prehook(prehook)

    def seen() -> tuple[int, int, int]:
        out = (counts["tensor"], counts["post"], counts["pre"])
        counts.update(tensor=0, pre=0, post=0)
        return out

    unigrad.grad(c, inputs=(b), retain_graph=True)
    assert seen() == (1, 0, 0)
    unigrad.grad(c, inputs=(a, b), retain_graph=True)
    assert seen() == (2, 1, 1)
    unigrad.backward(c, retain_graph=True)
    assert seen() == (2, 2, 2)
    unigrad.backward(c, inputs=(a, b), retain_graph=True)
    assert seen() == (2, 2, 2)


def test_torch_prehook_ordering_as_upstream_writes_it() -> None:
    # pytorch/pytorch test/test_autograd.py, TestAutograd.test_prehook_ordering, through
    # unigrad (tensor hooks before the node's pre-hooks; backward(inputs=(b,)) runs b's
    # tensor hook and b's node's pre-hooks, and b.grad sees the tensor hook only)
    torch = pytest.importorskip("torch")
    log: list[int] = []

    def hook1(g):
        log.append(1)
        return g * 3

    def hook2(gs):
        log.append(2)
        return tuple(g * 2 for g in gs)

    a = torch.tensor(1.0, requires_grad=True)
    b = a.clone()
    b.grad_fn.register_prehook(hook2)
    b.register_hook(hook1)
    b.grad_fn.register_prehook(hook2)
    acc = b.grad_fn.next_functions[0][0]
    a.register_hook(hook1)
    acc.register_prehook(hook2)
    a.register_hook(hook1)

    unigrad.backward(b.sum(), retain_graph=True)
    assert log == [1, 2, 2, 1, 1, 2]
    log.clear()
    unigrad.grad(b.sum(), inputs=(a,), retain_graph=True)
    assert log == [1, 2, 2, 1, 1]
    log.clear()
    unigrad.backward(b.sum(), inputs=(b,))
    assert log == [1, 2, 2]
    assert b.grad.item() == 3


def test_backward_with_inputs_accumulates_and_consumes_as_without(backend) -> None:
    # the engine call behind backward(inputs=...) changed on torch: the contract's
    # accumulation (leaves and intermediates) and consumption (rule 6) on every backend
    x = backend.leaf([1.0, 2.0])
    xp = backend.xp
    h = xp.sin(x)
    y = xp.sum(h * h)
    unigrad.backward(y, inputs=[x, h], retain_graph=True)
    x_np = np.array([1.0, 2.0])
    backend.close(backend.grad_of(x), 2 * np.sin(x_np) * np.cos(x_np))
    backend.close(backend.grad_of(h), 2 * np.sin(x_np))
    unigrad.backward(y, inputs=[h])
    backend.close(backend.grad_of(h), 4 * np.sin(x_np))
    backend.close(backend.grad_of(x), 2 * np.sin(x_np) * np.cos(x_np))
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.grad(y, x)
    (g,) = unigrad.grad(xp.sum(h), x)  # h's own node was not run: not consumed
    backend.close(g, np.cos(x_np))


def test_a_consumed_list_op_over_computed_operands_raises_in_a_plain_pass(backend) -> None:
    # paddle no longer marks the list-op node of a create_graph=True, retain_graph=False
    # call (its results' graphs cross it); a plain pass raises from the operands' nodes
    xp = backend.xp
    for op in ("stack", "concat"):
        x = backend.leaf([1.0, 2.0])
        h = getattr(xp, op)([x * x, x * 3.0])
        (g,) = unigrad.grad(xp.sum(h * h), x, create_graph=True, retain_graph=False)
        with pytest.raises(unigrad.GraphFreedError):
            unigrad.grad(xp.sum(h), x)
        with pytest.raises(unigrad.GraphFreedError):
            unigrad.backward(xp.sum(h))
        (gg,) = unigrad.grad(xp.sum(g), x)
        backend.close(gg, 12.0 * np.array([1.0, 4.0]) + 18.0)
