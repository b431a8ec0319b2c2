"""The jax tape inside a caller's ``jax.grad`` / ``jax.jit`` / ``jax.vmap``.

A library that ports its gradient layer to unigrad (DeepXDE's) builds a tape inside the
function its user differentiates with ``jax.jit(jax.grad(loss))``: the tape's values are
the caller's tracers, ``unigrad.grad`` differentiates the tape, and the caller's
``jax.grad`` differentiates through all of it. docs/tape.md ("The tape inside your own
jax.grad, jax.jit, jax.vmap") states the rules; each is checked here against closed
forms (float32, rtol 1e-5).
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad

jax = pytest.importorskip("jax")
jnp = jax.numpy

RTOL, ATOL = 1e-5, 1e-6
W = np.array([0.3, -0.7, 1.1], dtype=np.float32)


def grad_norm(w):
    """sum(g^2) with g = d/dx sum(sin(x) x) = cos(x) x + sin(x), computed on the tape
    and returned as a jax value (``.value``: cut from the tape, not from the caller)."""
    x = unigrad.watch(w)
    xp = unigrad.namespace(x)
    (g,) = unigrad.grad(xp.sum(xp.sin(x) * x), x, create_graph=True)
    return xp.sum(g * g).value


def _g(w):
    return np.cos(w) * w + np.sin(w)


def _dgrad_norm(w):  # d/dw sum(g^2) = 2 g g', g' = 2 cos(w) - w sin(w)
    return 2 * _g(w) * (2 * np.cos(w) - w * np.sin(w))


def test_the_value_without_a_transformation():
    np.testing.assert_allclose(float(grad_norm(jnp.asarray(W))), np.sum(_g(W) ** 2), rtol=RTOL)


@pytest.mark.parametrize(
    "transform",
    [jax.grad, lambda f: jax.jit(jax.grad(f)), lambda f: jax.grad(jax.jit(f))],
    ids=["grad", "jit(grad)", "grad(jit)"],
)
def test_the_callers_grad_differentiates_through_the_tape(transform):
    got = transform(grad_norm)(jnp.asarray(W))
    np.testing.assert_allclose(np.asarray(got), _dgrad_norm(W), rtol=RTOL, atol=ATOL)


def test_vmap_of_a_function_using_the_tape():
    batch = np.stack([W, 2 * W, -W]).astype(np.float32)
    values = jax.vmap(grad_norm)(jnp.asarray(batch))
    np.testing.assert_allclose(np.asarray(values), np.sum(_g(batch) ** 2, axis=1), rtol=RTOL)
    grads = jax.jit(jax.vmap(jax.grad(grad_norm)))(jnp.asarray(batch))
    np.testing.assert_allclose(np.asarray(grads), _dgrad_norm(batch), rtol=RTOL, atol=ATOL)


def _pinn_loss(p, x, f):
    """DeepXDE's shape: u(x) = p0 x^2 + p1 x, its derivative by the tape, the residual
    u_x - f; the caller differentiates with respect to the parameters ``p``, which the
    tape sees as constants (it never watches them)."""
    xw = unigrad.watch(x)
    xp = unigrad.namespace(xw)
    u = p[0] * xw**2 + p[1] * xw
    (u_x,) = unigrad.grad(xp.sum(u), xw)  # a jax value, connected to the caller's p
    return jnp.mean((u_x - f) ** 2)


def test_a_pinn_loss_under_jit_of_grad_with_respect_to_parameters():
    p = jnp.asarray([0.5, -1.5], dtype=jnp.float32)
    x = jnp.linspace(-1.0, 1.0, 7, dtype=jnp.float32)
    f = jnp.cos(x)
    got = jax.jit(jax.grad(_pinn_loss))(p, x, f)
    xs, fs = np.asarray(x, np.float64), np.cos(np.asarray(x, np.float64))
    r = 2 * 0.5 * xs - 1.5 - fs  # u_x - f
    expected = [np.mean(2 * r * 2 * xs), np.mean(2 * r)]
    np.testing.assert_allclose(np.asarray(got), expected, rtol=RTOL, atol=ATOL)


def test_value_and_detach_cut_the_tape_but_not_the_callers_trace():
    def through(kind):
        def f(w):
            x = unigrad.watch(w)
            y = unigrad.namespace(x).sum(x * x)
            if kind == "value":
                return y.value
            if kind == "method":
                return y.detach()
            return unigrad.detach(y)  # cut from both

        return f

    w = jnp.asarray(W)
    for kind in ("value", "method"):
        np.testing.assert_allclose(np.asarray(jax.grad(through(kind))(w)), 2 * W, rtol=RTOL)
    np.testing.assert_allclose(np.asarray(jax.grad(through("function"))(w)), 0.0)
    # and the tape itself has no history through them: unigrad.grad refuses
    x = unigrad.watch(w)
    v = unigrad.namespace(x).sum(x * x).detach()
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.grad(unigrad.namespace(x).asarray(v), x)


@pytest.mark.parametrize("transform", [jax.jit, jax.grad, jax.vmap], ids=["jit", "grad", "vmap"])
def test_to_numpy_under_a_trace_raises_a_tape_error_saying_what_to_use(transform):
    def f(w):
        x = unigrad.watch(w)
        y = unigrad.namespace(x).sum(x * x)
        unigrad.to_numpy(y)
        return y.value

    with pytest.raises(unigrad.TapeError, match="jax transformation is tracing") as info:
        transform(f)(jnp.asarray(W))
    text = str(info.value)
    assert "t.value" in text
    assert "unigrad.detach(t)" in text
    assert not isinstance(info.value, jax.errors.TracerArrayConversionError)

    def plain(w):  # a plain traced array too
        unigrad.to_numpy(w * 2.0)
        return jnp.sum(w)

    with pytest.raises(unigrad.TapeError, match="jax transformation is tracing"):
        transform(plain)(jnp.asarray(W))


def test_the_docs_example_gives_the_closed_form():
    """docs/tape.md's block (``<!-- test: under-jax -->``), run as written."""
    import pathlib
    import re

    doc = pathlib.Path(__file__).resolve().parents[1] / "docs" / "tape.md"
    code = re.search(r"<!-- test: under-jax -->\s*```python\n(.*?)```", doc.read_text(), re.S)
    assert code is not None
    scope: dict = {}
    exec(compile(code.group(1), str(doc), "exec"), scope)
    xs = np.linspace(-1.0, 1.0, 7)
    r = 2 * 0.5 * xs - 1.5 - np.cos(xs)
    np.testing.assert_allclose(
        np.asarray(scope["g"]), [np.mean(4 * r * xs), np.mean(2 * r)], rtol=RTOL, atol=ATOL
    )
    r2 = 2 * 1.0 * xs - 3.0 - np.cos(xs)
    np.testing.assert_allclose(
        np.asarray(scope["batch"]), [np.mean(r**2), np.mean(r2**2)], rtol=RTOL, atol=ATOL
    )
