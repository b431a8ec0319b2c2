"""`unigrad.jit`: the same step, the same numbers and the same refusals on every backend.

jax compiles the whole step (capability ``compiles_steps``); torch, paddle and numpy run
it as written. Numbers are float32 at the suite's tolerance, against the step called
without `unigrad.jit` and against closed forms.
"""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import unigrad

XY = [[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]]
W1 = [[0.3, -0.2, 0.5], [0.1, 0.4, -0.3]]
W2 = [[0.2], [-0.5], [0.3]]


def pinn_step(w1, w2, xy):
    """A PINN-style step: u(xy), its Laplacian by nested create_graph grads, then the
    parameter gradients of the mean squared residual."""
    w1, w2, z = unigrad.watch(w1), unigrad.watch(w2), unigrad.watch(xy)
    xp = unigrad.namespace(w1)
    u = xp.matmul(xp.tanh(xp.matmul(z, w1)), w2)
    (g,) = unigrad.grad(u, z, create_graph=True)
    (gx,) = unigrad.grad(g[:, 0], z, create_graph=True)
    (gy,) = unigrad.grad(g[:, 1], z, create_graph=True)
    loss = xp.mean((gx[:, 0] + gy[:, 1] + 1.0) ** 2)
    g1, g2 = unigrad.grad(loss, [w1, w2])
    return loss.detach(), g1, g2


def test_a_compiled_step_gives_the_numbers_of_the_step_as_written(backend):
    args = (backend.tensor(W1), backend.tensor(W2), backend.tensor(XY))
    expected = pinn_step(*args)
    step = unigrad.jit(pinn_step)
    for _ in range(3):  # the first call traces (jax), the others replay
        got = step(*args)
        assert len(got) == 3
        for e, g in zip(expected, got, strict=True):
            assert type(g) is type(e)
            assert not backend.requires_grad(g)
            backend.close(g, backend.np(e), rtol=1e-5, atol=1e-6)


def test_a_step_computes_with_its_new_arguments(backend):
    step = unigrad.jit(pinn_step)
    w1 = np.array(W1, dtype=np.float32)
    for scale in (1.0, 0.5, -2.0):
        args = (backend.tensor(w1 * scale), backend.tensor(W2), backend.tensor(XY))
        for e, g in zip(pinn_step(*args), step(*args), strict=True):
            backend.close(g, backend.np(e), rtol=1e-5, atol=1e-6)


def test_the_step_runs_once_per_signature_where_it_compiles(backend):
    runs: list[int] = []

    @unigrad.jit
    def step(w, x):
        runs.append(1)
        w = unigrad.watch(w)
        xp = unigrad.namespace(w)
        (g,) = unigrad.grad(xp.sum(xp.sin(w) * x), w)
        return g

    w = backend.tensor([0.1, 0.2, 0.3])
    for k in range(3):
        backend.close(
            step(w, backend.tensor([1.0, 2.0, float(k)])), np.cos([0.1, 0.2, 0.3]) * [1, 2, k]
        )
    step(backend.tensor([0.1, 0.2]), backend.tensor([1.0, 1.0]))  # a new shape
    assert len(runs) == (2 if backend.caps.compiles_steps else 4)


def test_static_arguments_by_position_and_by_name(backend):
    @unigrad.jit(static_argnums=1, static_argnames="mode")
    def step(w, k, mode="sum"):
        w = unigrad.watch(w)
        xp = unigrad.namespace(w)
        y = w**k
        loss = xp.sum(y) if mode == "sum" else xp.mean(y)
        return unigrad.grad(loss, w)[0]

    w = backend.tensor([1.0, 2.0])
    backend.close(step(w, 2), [2.0, 4.0])
    backend.close(step(w, 3), [3.0, 12.0])
    backend.close(step(w, 3, mode="mean"), [1.5, 6.0])
    with pytest.raises(unigrad.CompiledStepError, match="not hashable") as info:
        step(w, [3])
    assert isinstance(info.value, TypeError)


def test_bools_strings_and_none_are_static(backend):
    @unigrad.jit
    def step(w, scale, squared, name, extra):
        assert isinstance(squared, bool)
        assert isinstance(name, str)
        assert extra is None
        w = unigrad.watch(w)
        xp = unigrad.namespace(w)
        y = w * w if squared else w
        return unigrad.grad(xp.sum(y * scale), w)[0], name

    w = backend.tensor([1.0, 2.0])
    g, name = step(w, 3.0, True, "a", None)
    backend.close(g, [6.0, 12.0])
    assert name == "a"
    g, name = step(w, 0.5, False, "b", None)
    backend.close(g, [0.5, 0.5])
    assert name == "b"


def test_an_argument_passed_twice_is_one_leaf(backend):
    @unigrad.jit
    def step(a, b):
        x, y = unigrad.watch(a), unigrad.watch(b)
        xp = unigrad.namespace(x)
        return unigrad.grad(xp.sum(x * y), y)[0]

    a = backend.tensor([1.0, -2.0])
    backend.close(step(a, a), [2.0, -4.0])  # x is y: d(y*y)/dy
    backend.close(step(a, backend.tensor([1.0, -2.0])), [1.0, -2.0])


def test_watched_leaves_and_constants_as_arguments(backend):
    @unigrad.jit
    def step(w, c):
        xp = unigrad.namespace(w)
        return unigrad.grad(xp.sum(w * w * c), w)[0]

    w = backend.leaf([1.0, 2.0])
    c = backend.tensor([3.0, 0.5])
    backend.close(step(w, c), [6.0, 2.0])
    backend.close(step(w, c), [6.0, 2.0])
    assert backend.requires_grad(w)  # the caller's leaf is untouched


def test_a_tensor_with_a_history_is_refused(backend):
    x = backend.leaf([1.0, 2.0])
    step = unigrad.jit(lambda h: unigrad.grad(h * h, h)[0])
    with pytest.raises(unigrad.CompiledStepError, match="tensor with a history") as info:
        step(x * 2.0)
    assert isinstance(info.value, TypeError)
    assert "unigrad.detach(t)" in str(info.value)  # (plain arrays have no .detach())
    watching = unigrad.jit(lambda h: (lambda v: unigrad.grad(v * v, v)[0])(unigrad.watch(h)))
    backend.close(watching(unigrad.detach(x * 2.0)), [4.0, 8.0])


def test_results_that_require_grad_come_back_detached(backend):
    @unigrad.jit
    def step(w):
        w = unigrad.watch(w)
        xp = unigrad.namespace(w)
        return {"twice": w * 2.0, "leaf": w, "parts": [xp.sum(w * w), 3]}

    w = backend.tensor([1.0, 2.0])
    for _ in range(2):
        out = step(w)
        assert set(out) == {"twice", "leaf", "parts"}
        assert out["parts"][1] == 3
        for v, expected in ((out["twice"], [2.0, 4.0]), (out["leaf"], [1.0, 2.0])):
            assert not backend.requires_grad(v)
            assert not backend.backend.has_history(v)
            backend.close(v, expected)
        assert not backend.requires_grad(out["parts"][0])
        backend.close(out["parts"][0], 5.0)
    assert not backend.requires_grad(w)


def test_backward_inside_a_step_is_refused(backend):
    @unigrad.jit
    def step(w):
        w = unigrad.watch(w)
        xp = unigrad.namespace(w)
        unigrad.backward(xp.sum(w * w))
        return w.grad

    with pytest.raises(unigrad.CompiledStepError, match="backward"):
        step(backend.tensor([1.0, 2.0]))
    # and the refusal ends with the step
    w = backend.leaf([1.0, 2.0])
    unigrad.backward((w * w).sum() if backend.name != "numpy" else unigrad.namespace(w).sum(w * w))
    backend.close(backend.grad_of(w), [2.0, 4.0])


@pytest.mark.needs("compiles_steps")
@pytest.mark.parametrize(
    "read",
    [
        lambda t: float(t),
        lambda t: bool(t > 0),
        lambda t: unigrad.to_numpy(t),
        lambda t: int(t),
    ],
    ids=["float", "bool", "to_numpy", "int"],
)
def test_a_value_read_inside_a_compiled_step_is_refused(backend, read):
    @unigrad.jit
    def step(w):
        w = unigrad.watch(w)
        xp = unigrad.namespace(w)
        loss = xp.sum(w * w)
        read(loss.detach())
        return unigrad.grad(loss, w)[0]

    with pytest.raises(unigrad.CompiledStepError, match="read a value") as info:
        step(backend.tensor([1.0, 2.0]))
    assert isinstance(info.value, TypeError)


def test_a_tensor_recorded_outside_the_step_keeps_its_value(backend):
    w0 = backend.leaf([0.5, 1.0])
    xp = unigrad.namespace(w0)
    xp.exp(w0)  # the tape now knows the op: the next one is recorded pending
    c = xp.exp(w0)

    @unigrad.jit
    def step(x):
        x = unigrad.watch(x)
        return unigrad.grad(xp.sum(c * x * x), x)[0]

    x = backend.tensor([1.0, 2.0])
    for _ in range(2):
        backend.close(step(x), 2 * np.exp([0.5, 1.0]) * [1.0, 2.0], rtol=1e-5)
    # the closure's graph is intact and its value concrete
    (g,) = unigrad.grad(xp.sum(c), w0)
    backend.close(g, np.exp([0.5, 1.0]), rtol=1e-6)
    backend.close(c, np.exp([0.5, 1.0]), rtol=1e-6)


def test_a_mask_the_step_closes_over_stays_concrete(backend):
    # nonzero of a namespace constant (reshaped inside the step) and a boolean mask: on
    # tensorflow a constants-only op inside the step used to be staged into the graph,
    # so nonzero's result had the unknown shape (None,) and the seed of a grad through
    # it could not be made (a raw ValueError; a GradOutputsError for a given seed)
    x = backend.tensor([1.0, -2.0, 3.0])
    xp = unigrad.namespace(x)
    mask = xp.asarray(backend.tensor([True, False, True], dtype="bool"))

    @unigrad.jit
    def step(x, seed):
        w = unigrad.watch(x)
        picked = xp.take(w * w, xp.nonzero(xp.reshape(mask, (-1,)))[0], axis=0)
        (g1,) = unigrad.grad(picked, w, retain_graph=True)
        (g2,) = unigrad.grad(picked, w, grad_outputs=seed, retain_graph=True)
        (g3,) = unigrad.grad((w * w)[mask], w, grad_outputs=seed)
        return g1, g2, g3

    seed = backend.tensor([0.5, 0.25])
    for _ in range(2):
        g1, g2, g3 = step(x, seed)
        backend.close(g1, [2.0, 0.0, 6.0], rtol=1e-6)
        backend.close(g2, [1.0, 0.0, 1.5], rtol=1e-6)
        backend.close(g3, [1.0, 0.0, 1.5], rtol=1e-6)


@pytest.mark.needs("compiles_steps")
def test_a_mask_computed_inside_a_compiled_step_is_refused(backend):
    # jax refuses a traced boolean mask; tensorflow gave a result of unknown shape and
    # then a raw ValueError (a seed of shape (None,)): the documented error on both
    @unigrad.jit
    def step(x):
        w = unigrad.watch(x)
        return unigrad.grad(w[w > 0], w)[0]

    with pytest.raises(unigrad.CompiledStepError, match="read a value"):
        step(backend.tensor([1.0, -2.0, 3.0]))


def test_a_step_without_tensors_runs_as_written():
    runs: list[int] = []

    @unigrad.jit
    def step(n):
        runs.append(n)
        return n + 1

    assert step(1) == 2
    assert step(2) == 3
    assert runs == [1, 2]


def test_static_options_are_checked():
    with pytest.raises(unigrad.CompiledStepError, match="static_argnums"):
        unigrad.jit(lambda x: x, static_argnums="x")
    with pytest.raises(unigrad.CompiledStepError, match="static_argnames"):
        unigrad.jit(lambda x: x, static_argnames=(1,))


def test_a_graph_recorded_outside_can_be_differentiated_inside(backend):
    w0 = backend.leaf([0.5, 1.0])
    xp = unigrad.namespace(w0)
    xp.exp(w0)
    c = xp.exp(w0)  # pending on the tapes

    @unigrad.jit
    def step(x):
        (g,) = unigrad.grad(xp.sum(c * x), w0, retain_graph=True)
        return g

    for x in ([1.0, 2.0], [3.0, -1.0]):
        backend.close(step(backend.tensor(x)), np.exp([0.5, 1.0]) * x, rtol=1e-6)
    backend.close(c, np.exp([0.5, 1.0]), rtol=1e-6)
    (g,) = unigrad.grad(xp.sum(c), w0)
    backend.close(g, np.exp([0.5, 1.0]), rtol=1e-6)


@pytest.mark.needs("compiles_steps")
def test_a_compiled_step_does_not_consume_a_graph_recorded_outside_it(backend):
    w0 = backend.leaf([0.5, 1.0])
    xp = unigrad.namespace(w0)
    c = xp.exp(w0)

    @unigrad.jit
    def step(x):
        return unigrad.grad(xp.sum(c * x), w0)[0]  # retain_graph=False

    with pytest.raises(unigrad.CompiledStepError, match="consumes a graph recorded outside"):
        step(backend.tensor([1.0, 2.0]))
    (g,) = unigrad.grad(xp.sum(c), w0)  # intact
    backend.close(g, np.exp([0.5, 1.0]), rtol=1e-6)
    backend.close(c, np.exp([0.5, 1.0]), rtol=1e-6)


# ---- the docstring's training loop ------------------------------------------------


def _tree_state(backend, t):
    """What a step must leave as it was: the object's type, flags, history and value."""
    flags = (
        getattr(t, "requires_grad", None),
        getattr(t, "stop_gradient", None),
        getattr(t, "grad_fn", None),
        getattr(t, "grad", None),
    )
    return type(t), flags, backend.backend.has_history(t), backend.np(t).tolist()


def test_the_docstring_training_loop_runs_on_every_backend(backend):
    """`unigrad.jit`'s docstring example, with its ``tensor = torch.tensor`` line bound
    to this backend's constructor: the update outside the step and inside it give the
    closed form of gradient descent, and the caller's tensors are untouched."""
    examples = doctest.DocTestParser().get_examples(unigrad.jit.__doc__)
    assert any("tensor = torch.tensor" in e.source for e in examples)
    examples = [e for e in examples if not e.source.startswith(("import torch", "tensor ="))]
    globs = {"unigrad": unigrad, "tensor": backend.tensor}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)

    def snapshot(names: dict) -> dict:
        return {k: _tree_state(backend, names[k]) for k in ("w0", "x", "y") if k in names}

    # run the examples up to the first loop, snapshot the caller's tensors, run the rest
    # (a DocTest runs in a copy of the names it is given: the tail gets the head's)
    first_loop = next(i for i, e in enumerate(examples) if e.source.startswith("for "))
    head = doctest.DocTest(examples[:first_loop], globs, "unigrad.jit", None, 0, None)
    assert runner.run(head, clear_globs=False).failed == 0
    caller = snapshot(head.globs)
    assert set(caller) == {"w0", "x", "y"}
    tail = doctest.DocTest(examples[first_loop:], head.globs, "unigrad.jit", None, 0, None)
    result = runner.run(tail, clear_globs=False)
    assert result.failed == 0, f"{result.failed} docstring examples failed on {backend.name}"
    assert result.attempted == len(examples) - first_loop
    globs = tail.globs
    assert snapshot(globs) == caller  # requires_grad / stop_gradient / history / values

    # the closed form of 20 steps of gradient descent on 0.5 * sum((x w - y)^2) from 0
    x, y, lr, n = np.array([1.0, 2.0]), np.array([2.0, 2.0]), 0.1, 20
    decay = 1.0 - lr * x**2
    w = (y + decay**n * (x * 0.0 - y)) / x
    loss = 0.5 * np.sum((decay ** (n - 1) * y) ** 2)
    backend.close(globs["w"], w, rtol=1e-5)
    backend.close(globs["loss"], loss, rtol=1e-5)
    assert not backend.requires_grad(globs["w"])
    assert not backend.requires_grad(globs["loss"])


def test_a_step_never_changes_the_callers_tensors(backend):
    """watch inside a step makes the step's own leaf, for an argument and for a tensor
    the step closes over; the same object watched twice is one leaf."""
    c = backend.tensor([3.0, -1.0])

    @unigrad.jit
    def step(w):
        a, b = unigrad.watch(w), unigrad.watch(w)
        k = unigrad.watch(c)
        xp = unigrad.namespace(a)
        loss = xp.sum(a * b * k)
        ga, gk = unigrad.grad(loss, [a, k])
        return loss, ga, gk

    w = backend.tensor([1.0, 2.0])
    before = (_tree_state(backend, w), _tree_state(backend, c))
    for _ in range(2):
        loss, ga, gk = step(w)
        backend.close(loss, 3.0 * 1 - 4.0)
        backend.close(ga, [6.0, -4.0])  # d(w*w*c)/dw: a is b
        backend.close(gk, [1.0, 4.0])
    assert (_tree_state(backend, w), _tree_state(backend, c)) == before
    w = w - 0.5 * ga  # a plain update: the next call takes it
    loss, ga, gk = step(w)
    backend.close(loss, 3.0 * 4.0 + -1.0 * 16.0)


def test_detach_on_every_backend(backend):
    w = backend.leaf([1.0, 2.0])
    xp = unigrad.namespace(w)
    h = xp.sin(w) * w
    for t in (w, h, backend.tensor([0.5, 0.25])):
        d = unigrad.detach(t)
        assert not backend.requires_grad(d)
        assert not backend.backend.has_history(d)
        backend.close(d, backend.np(t))
    # no gradient flows through a detached value
    (g,) = unigrad.grad(xp.sum(w * unigrad.detach(h)), w)
    backend.close(g, np.sin([1.0, 2.0]) * [1.0, 2.0])
    assert backend.requires_grad(w)  # the tensor detached from is as it was


def test_detach_of_plain_arrays():
    a = np.array([1.0, 2.0])
    assert unigrad.detach(a) is a
    assert unigrad.detach(np.float64(2.0)) == 2.0
    jax = pytest.importorskip("jax")
    j = jax.numpy.array([1.0, 2.0])
    assert unigrad.detach(j) is j  # a concrete array: nothing to cut

    def f(v):  # under jax.grad the value is a tracer: detach cuts the trace
        return jax.numpy.sum(v * unigrad.detach(v))

    np.testing.assert_allclose(np.asarray(jax.grad(f)(j)), [1.0, 2.0])
    with pytest.raises(unigrad.BackendError, match="not a tensor"):
        unigrad.detach([a])
