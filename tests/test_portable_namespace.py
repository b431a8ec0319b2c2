"""One namespace (issue 24): the same names, values and derivatives on every backend.

``unigrad.namespace(x)`` shows exactly ``unigrad._array_api.PORTABLE`` on torch, paddle,
jax and numpy; the extension set's values are checked against float64 closed forms
(``math`` only), derivatives to third order against closed forms, and the rules around
it (the functional API tracing the namespace, scalar conversions, operators between two
frameworks) on all four.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import unigrad
from unigrad._array_api import EXTENSIONS, FFT, LINALG, PORTABLE, STANDARD
from unigrad._array_api._portable import AXIS_FUNCTIONS

X = np.array([-30.0, -2.5, -0.5, 0.0, 0.7, 3.0, 40.0])


# ---- 1. names ----------------------------------------------------------------------
def test_dir_is_the_portable_list(backend):
    xp = unigrad.namespace(backend.leaf([1.0]))
    assert dir(xp) == sorted(PORTABLE)
    assert dir(xp.linalg) == sorted(LINALG)
    assert dir(xp.fft) == sorted(FFT)
    assert PORTABLE == STANDARD | EXTENSIONS
    assert xp.__array_api_version__ == "2023.12"


def test_every_portable_name_is_there(backend):
    xp = unigrad.namespace(backend.leaf([1.0]))
    # paddle 3.3.1 has no unsigned dtypes wider than uint8 (see docs/namespace.md)
    lacking = {"uint16", "uint32", "uint64"} if backend.name == "paddle" else set()
    assert {n for n in PORTABLE if not hasattr(xp, n)} == lacking
    assert all(hasattr(xp.linalg, n) for n in LINALG)
    assert all(hasattr(xp.fft, n) for n in FFT)


def test_plain_arrays_get_the_same_list(backend):
    xp = unigrad.namespace(backend.tensor([1.0]))
    assert dir(xp) == sorted(PORTABLE)


@pytest.mark.parametrize("name", ["concatenate", "einsum_path", "amax", "nn", "sinc"])
def test_another_name_raises_the_same_error(backend, name):
    xp = unigrad.namespace(backend.leaf([1.0]))
    with pytest.raises(unigrad.NamespaceAttributeError) as info:
        getattr(xp, name)
    assert isinstance(info.value, AttributeError)
    text = str(info.value)
    assert f"has no attribute {name!r}" in text
    assert "portable namespace" in text
    assert ", ".join(sorted(EXTENSIONS)) in text
    assert "framework's module" in text
    assert not hasattr(xp, name)


def test_the_error_is_the_same_on_every_backend():
    messages = set()
    for name in ("torch", "paddle", "jax", "numpy"):
        pytest.importorskip(name if name != "numpy" else "autograd")
        kit = unigrad.conformance.Kit(unigrad.get_backend(name))
        try:
            kit.xp.concatenate  # noqa: B018
        except unigrad.NamespaceAttributeError as err:
            messages.add(str(err))
    assert len(messages) == 1


def test_a_submodule_refuses_other_names(backend):
    xp = unigrad.namespace(backend.leaf([1.0]))
    with pytest.raises(unigrad.NamespaceAttributeError, match="'norm'"):
        xp.linalg.norm  # noqa: B018


# ---- 1. the extension set's values -------------------------------------------------
def _sigmoid(v: float) -> float:
    return 1 / (1 + math.exp(-v)) if v >= 0 else math.exp(v) / (1 + math.exp(v))


def _softplus(v: float) -> float:
    return max(v, 0.0) + math.log1p(math.exp(-abs(v)))


_ELEMENTWISE = {
    "sigmoid": _sigmoid,
    "softplus": _softplus,
    "relu": lambda v: max(v, 0.0),
    "erf": math.erf,
}


@pytest.mark.parametrize("name", sorted(_ELEMENTWISE))
def test_extension_elementwise_values(backend, name):
    xp = unigrad.namespace(backend.leaf(X, "float64"))
    out = getattr(xp, name)(backend.leaf(X, "float64"))
    backend.close(out, [_ELEMENTWISE[name](v) for v in X], rtol=1e-14, atol=1e-300)


def _lse(row: list[float]) -> float:
    m = max(row)
    return m + math.log(math.fsum(math.exp(v - m) for v in row))


def test_extension_reductions_values(backend):
    a = np.array([[0.5, -1.0, 3.0], [2.0, 2.0, -40.0]])
    x = backend.leaf(a, "float64")
    xp = unigrad.namespace(x)
    rows = [list(r) for r in a]
    backend.close(xp.logsumexp(x), _lse([v for r in rows for v in r]), rtol=1e-14)
    backend.close(xp.logsumexp(x, axis=1), [_lse(r) for r in rows], rtol=1e-14)
    backend.close(
        xp.logsumexp(x, axis=0, keepdims=True), [[_lse(list(c)) for c in a.T]], rtol=1e-14
    )
    lsm = [[v - _lse(r) for v in r] for r in rows]
    backend.close(xp.log_softmax(x, axis=-1), lsm, rtol=1e-14)
    backend.close(xp.softmax(x, axis=1), [[math.exp(v) for v in r] for r in lsm], rtol=1e-14)
    cols = [list(c) for c in a.T]
    backend.close(
        xp.softmax(x, axis=0),
        [[math.exp(a[i, j] - _lse(cols[j])) for j in range(3)] for i in range(2)],
        rtol=1e-14,
    )


def test_einsum_values(backend):
    a = np.arange(6.0).reshape(2, 3) / 7
    b = np.arange(12.0).reshape(3, 4) / 5
    xa, xb = backend.leaf(a, "float64"), backend.leaf(b, "float64")
    xp = unigrad.namespace(xa)
    want = [[math.fsum(a[i, k] * b[k, j] for k in range(3)) for j in range(4)] for i in range(2)]
    backend.close(xp.einsum("ij,jk->ik", xa, xb), want, rtol=1e-14)
    backend.close(xp.einsum("ij,jk", xa, xb), want, rtol=1e-14)
    backend.close(xp.einsum("ij->j", xa), [math.fsum(a[:, j]) for j in range(3)], rtol=1e-14)
    backend.close(xp.einsum("...j,jk->...k", xa, xb), want, rtol=1e-14)


# ---- 2. derivatives to third order -------------------------------------------------
def _derivatives(backend, f, points, order=3):
    """f's first ``order`` derivatives at ``points`` (elementwise f, summed)."""
    x = backend.leaf(points, "float64")
    xp = unigrad.namespace(x)
    out, g = [], f(xp, x)
    for _ in range(order):
        (g,) = unigrad.grad(xp.sum(g), x, create_graph=True)
        out.append(backend.np(g))
    return out


_S = np.array([-2.0, -0.3, 0.0, 0.4, 1.7])
_CLOSED = {  # name: (f(xp, x), [f', f'', f'''] of one float)
    "sigmoid": (
        lambda xp, x: xp.sigmoid(x),
        [
            lambda v: _sigmoid(v) * (1 - _sigmoid(v)),
            lambda v: _sigmoid(v) * (1 - _sigmoid(v)) * (1 - 2 * _sigmoid(v)),
            lambda v: _sigmoid(v) * (1 - _sigmoid(v)) * (1 - 6 * _sigmoid(v) * (1 - _sigmoid(v))),
        ],
    ),
    "softplus": (
        lambda xp, x: xp.softplus(x),
        [
            _sigmoid,
            lambda v: _sigmoid(v) * (1 - _sigmoid(v)),
            lambda v: _sigmoid(v) * (1 - _sigmoid(v)) * (1 - 2 * _sigmoid(v)),
        ],
    ),
    "log1p": (
        lambda xp, x: xp.log1p(x * x),
        [
            lambda v: 2 * v / (1 + v * v),
            lambda v: (2 - 2 * v * v) / (1 + v * v) ** 2,
            lambda v: (4 * v**3 - 12 * v) / (1 + v * v) ** 3,
        ],
    ),
    "logaddexp": (  # logaddexp(x, 0) = softplus(x)
        lambda xp, x: xp.logaddexp(x, xp.zeros_like(x)),
        [
            _sigmoid,
            lambda v: _sigmoid(v) * (1 - _sigmoid(v)),
            lambda v: _sigmoid(v) * (1 - _sigmoid(v)) * (1 - 2 * _sigmoid(v)),
        ],
    ),
    "pow_int": (
        lambda xp, x: xp.pow(x, 3),
        [lambda v: 3 * v * v, lambda v: 6 * v, lambda v: 6.0],
    ),
    "divide": (
        lambda xp, x: xp.divide(xp.ones_like(x), x * x + 1.0),
        [
            lambda v: -2 * v / (v * v + 1) ** 2,
            lambda v: (6 * v * v - 2) / (v * v + 1) ** 3,
            lambda v: 24 * v * (1 - v * v) / (v * v + 1) ** 4,
        ],
    ),
    "sqrt": (
        lambda xp, x: xp.sqrt(x * x + 1.0),
        [
            lambda v: v / (v * v + 1) ** 0.5,
            lambda v: 1 / (v * v + 1) ** 1.5,
            lambda v: -3 * v / (v * v + 1) ** 2.5,
        ],
    ),
    "relu": (  # relu(x) x^2 = x^3 for x > 0, else 0 (and relu'(0) = 0, as torch)
        lambda xp, x: xp.relu(x) * x * x,
        [lambda v: 3 * v * v * (v > 0), lambda v: 6 * v * (v > 0), lambda v: 6.0 * (v > 0)],
    ),
}


@pytest.mark.parametrize("name", sorted(_CLOSED))
def test_third_order_against_closed_forms(backend, name):
    f, closed = _CLOSED[name]
    got = _derivatives(backend, f, _S)
    for k, (g, d) in enumerate(zip(got, closed, strict=True)):
        np.testing.assert_allclose(
            g, [d(v) for v in _S], rtol=1e-10, atol=1e-12, err_msg=f"order {k + 1}"
        )


def test_third_order_of_the_reductions(backend):
    # logsumexp, log_softmax, softmax and prod: third derivatives along a direction,
    # against the same quantities on the float64 reference (autograd on NumPy: where it is
    # not installed, a single-framework environment, the full environment checks it)
    pytest.importorskip("autograd", reason="the float64 reference of this test is autograd's")
    import autograd.numpy as anp
    import autograd.scipy.special as sps
    from autograd import grad as agrad

    a = np.array([0.3, -0.7, 1.1, 0.2])
    w = np.array([1.0, 2.0, -1.0, 0.5])
    cases = {
        "logsumexp": (lambda xp, x: xp.logsumexp(x), lambda x: sps.logsumexp(x)),
        "log_softmax": (
            lambda xp, x: xp.sum(xp.log_softmax(x) * xp.asarray(w, dtype=x.dtype)),
            lambda x: anp.sum((x - sps.logsumexp(x)) * w),
        ),
        "softmax": (
            lambda xp, x: xp.sum(xp.softmax(x) * xp.asarray(w, dtype=x.dtype)),
            lambda x: anp.sum(anp.exp(x - sps.logsumexp(x)) * w),
        ),
        "prod": (lambda xp, x: xp.prod(x), lambda x: anp.prod(x)),
        "cumulative_prod": (
            lambda xp, x: xp.sum(xp.cumulative_prod(x) * xp.asarray(w, dtype=x.dtype)),
            lambda x: sum(w[i] * anp.prod(x[: i + 1]) for i in range(len(w))),
        ),
        "sort": (
            lambda xp, x: xp.sum(xp.sort(x * x * x) * xp.asarray(w, dtype=x.dtype)),
            lambda x: anp.sum(anp.sort(x * x * x) * w),
        ),
        "roll": (
            lambda xp, x: xp.sum(xp.roll(x * x * x, 1) * xp.asarray(w, dtype=x.dtype)),
            lambda x: anp.sum(anp.roll(x * x * x, 1) * w),
        ),
        "trace": (
            lambda xp, x: xp.linalg.trace(xp.linalg.outer(x * x, x), offset=1),
            lambda x: anp.trace(anp.outer(x * x, x), offset=1),
        ),
        "max": (
            lambda xp, x: xp.max(x * x * x),
            lambda x: anp.max(x * x * x),
        ),
        "einsum": (
            lambda xp, x: xp.einsum("i,i,i->", x, x, x),
            lambda x: anp.sum(x * x * x),
        ),
    }
    for name, (f, ref) in cases.items():
        x = backend.leaf(a, "float64")
        xp = unigrad.namespace(x)
        g = f(xp, x)
        r = ref
        for k in range(3):
            (g,) = unigrad.grad(g, x, create_graph=True)
            g = xp.sum(g * xp.asarray(w, dtype=x.dtype))
            r = (lambda rr: lambda v: anp.sum(agrad(rr)(v) * w))(r)
            backend.close(g, r(a), rtol=1e-10, atol=1e-12)
            assert k >= 0, name


@pytest.mark.parametrize("form", ["log1p", "logaddexp"])
def test_logistic_loss_has_an_exact_hessian(backend, form):
    rng = np.random.default_rng(0)
    xm = rng.standard_normal((6, 3))
    w0 = np.array([0.4, -0.3, 0.8])
    w = backend.leaf(w0, "float64")
    xp = unigrad.namespace(w)
    xx = xp.asarray(xm, dtype=xp.float64)
    z = -(xx @ w)
    terms = xp.log1p(xp.exp(z)) if form == "log1p" else xp.logaddexp(xp.zeros_like(z), z)
    loss = xp.mean(terms)
    (g,) = unigrad.grad(loss, w, create_graph=True)
    rows = [unigrad.grad(g[i], w, retain_graph=True)[0] for i in range(3)]
    s = 1 / (1 + np.exp(-(xm @ w0)))
    want = xm.T @ np.diag(s * (1 - s)) @ xm / len(xm)
    backend.close(xp.stack(rows), want, rtol=1e-12, atol=1e-14)
    # (functional's function gets plain tensors: on tensorflow, plain tf.Tensor's `@`
    # refuses a 1-d operand, so the namespace's matmul)
    hv = unigrad.functional.hvp(
        lambda v: (
            lambda ns: ns.mean(ns.log1p(ns.exp(-ns.matmul(ns.asarray(xm, dtype=ns.float64), v))))
        )(unigrad.namespace(v)),
        backend.tensor(w0, "float64"),
        backend.tensor([1.0, 0.0, 0.0], "float64"),
    )[1]
    backend.close(hv, want[0], rtol=1e-12, atol=1e-14)


def test_erf_to_third_order(backend):
    # erf has no elementary formulation: paddle's namespace differentiates a quadrature
    # of its derivative (exact to the 16th order); the others their kernels
    pts = [0.3, -0.2, 1.7]
    x = backend.leaf(pts, "float64")
    xp = unigrad.namespace(x)
    (g,) = unigrad.grad(xp.sum(xp.erf(x)), x, create_graph=True)
    (h,) = unigrad.grad(xp.sum(g), x, create_graph=True)
    (t,) = unigrad.grad(xp.sum(h), x)
    c = 2 / math.sqrt(math.pi)
    backend.close(g, [c * math.exp(-v * v) for v in pts], rtol=1e-13, atol=1e-15)
    backend.close(h, [-2 * v * c * math.exp(-v * v) for v in pts], rtol=1e-13, atol=1e-15)
    backend.close(t, [(4 * v * v - 2) * c * math.exp(-v * v) for v in pts], rtol=1e-12)
    backend.close(xp.erf(x), [math.erf(v) for v in pts], rtol=1e-15)


def test_values_keep_the_kernels_special_cases(backend):
    # the higher-order formulations keep the kernel's values: signed zeros, infinities
    x = backend.leaf([-0.0, 0.0, -1.0, math.inf], "float64")
    xp = unigrad.namespace(x)
    with np.errstate(divide="ignore"):
        out = backend.np(xp.log1p(x))
    assert math.copysign(1.0, out[0]) == -1.0
    assert math.copysign(1.0, out[1]) == 1.0
    assert out[2] == -math.inf
    assert out[3] == math.inf
    la = backend.np(xp.logaddexp(x, xp.zeros_like(x)))
    assert la[3] == math.inf
    assert la[2] == pytest.approx(_softplus(-1.0), rel=1e-15)
    y = backend.leaf([-0.0, 2.0], "float64")
    with np.errstate(divide="ignore"):
        d = backend.np(xp.divide(y, xp.asarray([3.0, 0.0], dtype=xp.float64)))
    assert math.copysign(1.0, d[0]) == -1.0
    assert d[1] == math.inf


# ---- 4. unigrad.functional with the namespace inside -------------------------------
def _f(w):
    xp = unigrad.namespace(w)
    return xp.sum(xp.sin(w) * w) + xp.logsumexp(w)


@pytest.mark.needs("functional")
def test_functional_traces_the_namespace(backend):
    w0 = np.array([0.3, -0.2, 0.5])
    w, v = backend.tensor(w0, "float64"), backend.tensor([1.0, 2.0, -1.0], "float64")
    hess = np.diag(2 * np.cos(w0) - w0 * np.sin(w0))
    p = np.exp(w0) / np.exp(w0).sum()
    hess = hess + np.diag(p) - np.outer(p, p)
    grad = np.sin(w0) + w0 * np.cos(w0) + p
    F = unigrad.functional
    backend.close(F.vjp(_f, w, backend.tensor(1.0, "float64"))[1], grad, rtol=1e-12)
    backend.close(F.jvp(_f, w, v)[1], grad @ [1.0, 2.0, -1.0], rtol=1e-12)
    backend.close(F.hvp(_f, w, v)[1], hess @ [1.0, 2.0, -1.0], rtol=1e-12)
    backend.close(F.vhp(_f, w, v)[1], hess @ [1.0, 2.0, -1.0], rtol=1e-12)
    backend.close(F.hessian(_f, w), hess, rtol=1e-12)
    backend.close(F.jacobian(_f, w), grad, rtol=1e-12)


# ---- 5. scalar conversions ---------------------------------------------------------
@pytest.mark.filterwarnings("ignore:Converting a tensor with requires_grad")
@pytest.mark.parametrize("shape", [(), (1,), (1, 1, 1)])
@pytest.mark.parametrize("watched", [True, False])
def test_one_element_converts(backend, shape, watched):
    # the one rule (docs/tape.md): the one element of a one-element tensor of any rank
    if not watched and backend.name in ("jax", "numpy", "tensorflow"):
        pytest.skip(
            "an unwatched jax, NumPy or TensorFlow array is the framework's (not a tape tensor)"
        )
    data = np.full(shape, 2.5)
    t = backend.leaf(data, "float64") if watched else backend.tensor(data, "float64")
    assert t.item() == 2.5
    assert bool(t) is True
    assert float(t) == 2.5
    assert type(float(t)) is float
    assert int(t) == 2
    assert complex(t) == 2.5
    z = backend.leaf(np.zeros(shape), "float64")
    assert bool(z) is False


# the framework's class where it raises its own (torch), ScalarConversionError elsewhere
_REFUSAL = {
    "float": (float, ValueError),
    "int": (int, ValueError),
    "complex": (complex, (ValueError, TypeError)),
    "bool": (bool, RuntimeError),
    "item": (lambda v: v.item(), RuntimeError),
}


@pytest.mark.parametrize("what", sorted(_REFUSAL))
@pytest.mark.parametrize("shape", [(2,), (0,), (1, 2)])
def test_several_elements_do_not_convert(backend, shape, what):
    t = backend.leaf(np.full(shape, 2.5), "float64")
    op, torch_class = _REFUSAL[what]
    if backend.name == "torch":  # torch.Tensor's own errors (unigrad does not patch them)
        with pytest.raises(torch_class):
            op(t)
        return
    with pytest.raises(unigrad.ScalarConversionError, match="exactly one element") as info:
        op(t)
    assert isinstance(info.value, torch_class)  # code that catches torch's class catches it
    call = "t.item()" if what == "item" else f"{what}(t)"
    assert str(info.value).startswith(f"{call} of a tensor of shape {shape}")


# ---- 6. operators between two frameworks -------------------------------------------
_FRAMEWORKS = ("torch", "paddle", "jax", "numpy")


def _watched(name):
    if name == "torch":
        torch = pytest.importorskip("torch")
        return unigrad.watch(torch.ones(2, dtype=torch.float64))
    if name == "paddle":
        paddle = pytest.importorskip("paddle")
        return unigrad.watch(paddle.ones([2], dtype="float64"))
    if name == "jax":
        jnp = pytest.importorskip("jax.numpy")
        return unigrad.watch(jnp.ones(2))
    pytest.importorskip("autograd")
    return unigrad.watch(np.ones(2))


@pytest.mark.parametrize(("a", "b"), list(itertools.permutations(_FRAMEWORKS, 2)))
@pytest.mark.parametrize("op", ["mul", "add", "matmul", "sub", "truediv", "pow", "lt", "eq"])
def test_an_operator_between_two_frameworks_names_both(a, b, op):
    # every ordered pair, so both operand orders: the left operand's operator, or
    # (torch's returning NotImplemented) the right one's reflected operator answers
    x, y = _watched(a), _watched(b)
    import operator

    with pytest.raises(unigrad.BackendError, match="two frameworks") as info:
        getattr(operator, op)(x, y)
    assert isinstance(info.value, TypeError)
    assert a in str(info.value)
    assert b in str(info.value)


def test_paddle_operators_keep_their_other_operands():
    # the refusal is for another framework's tensor only: NumPy arrays and numbers
    # still meet paddle tensors as paddle defines
    paddle = pytest.importorskip("paddle")
    x = unigrad.watch(paddle.ones([2], dtype="float64"))
    np.testing.assert_array_equal(unigrad.to_numpy(x * np.array([2.0, 3.0])), [2.0, 3.0])
    np.testing.assert_array_equal(unigrad.to_numpy(2.0 - x), [1.0, 1.0])
    assert (x == None) is False  # noqa: E711 (paddle's own answer, unchanged)


# ---- the 2024.12 functions every backend has ---------------------------------------
def test_the_2024_functions(backend):
    a = np.array([[0.0, 1.5, -2.0], [3.0, 0.0, 0.25]])
    x = backend.leaf(a, "float64")
    xp = unigrad.namespace(x)
    backend.close(xp.count_nonzero(x), 4)
    backend.close(xp.count_nonzero(x, axis=1), [2, 2])
    backend.close(xp.count_nonzero(x, axis=0, keepdims=True), [[1, 1, 2]])
    backend.close(xp.diff(x), np.diff(a), rtol=1e-15)
    backend.close(xp.diff(x, axis=0), np.diff(a, axis=0), rtol=1e-15)
    backend.close(xp.diff(x, n=2), np.diff(a, n=2), rtol=1e-15)
    pre = xp.asarray([[9.0], [8.0]], dtype=xp.float64)
    backend.close(xp.diff(x, prepend=pre), np.diff(a, prepend=[[9.0], [8.0]]), rtol=1e-15)
    backend.close(xp.diff(x, append=pre), np.diff(a, append=[[9.0], [8.0]]), rtol=1e-15)
    y = backend.leaf([0.5, -4.0], "float64")
    backend.close(xp.reciprocal(y), [2.0, -0.25], rtol=1e-15)
    up = xp.nextafter(y, xp.asarray([1.0, 1.0], dtype=xp.float64))
    backend.close(up, np.nextafter([0.5, -4.0], 1.0), rtol=0, atol=0)
    idx = xp.asarray([[2, 0], [1, 1]])
    backend.close(
        xp.take_along_axis(x, idx, axis=1), np.take_along_axis(a, np.array([[2, 0], [1, 1]]), 1)
    )
    (g,) = unigrad.grad(xp.sum(xp.diff(x) * xp.diff(x)), x)  # differentiable
    d = np.diff(a)
    want = np.zeros_like(a)
    want[:, 1:] += 2 * d
    want[:, :-1] -= 2 * d
    backend.close(g, want, rtol=1e-14)
    (g,) = unigrad.grad(xp.sum(xp.take_along_axis(x, idx, axis=1)), x)
    backend.close(g, [[1.0, 0.0, 1.0], [0.0, 2.0, 0.0]])


def test_copysign_sign_argument_is_a_cut(backend):
    # rule 14: the sign argument has no derivative, so a constant magnitude with a
    # watched sign is a constant: it does not require grad on any backend
    a = backend.tensor([1.0, -2.0], "float64")
    b = backend.leaf([-1.0, 3.0], "float64")
    xp = unigrad.namespace(b)
    out = xp.copysign(a, b * b)
    backend.close(out, [1.0, 2.0])
    assert not backend.requires_grad(out)
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.grad(xp.sum(out), b)


@pytest.mark.parametrize("name", sorted(n for n in AXIS_FUNCTIONS if n != "vector_norm"))
def test_an_axis_out_of_range_is_an_axis_error(backend, name):
    # the array API standard: an axis the array does not have is an error. torch reduced
    # a 0-d array along axis 0 (var gave 0), jax raised ValueError, numpy and paddle an
    # IndexError or answered, per function: one class everywhere, plain arrays too
    xp = backend.xp
    fn = getattr(xp, name)
    for x in (backend.leaf(0.3, "float64"), backend.tensor(0.3, "float64")):
        for axis in (0, -1):
            with pytest.raises(unigrad.AxisError, match="dimension 0"):
                fn(x > 0 if name in ("all", "any") else x, axis=axis)
    v = backend.leaf([0.5, -1.0, 2.0], "float64")
    with pytest.raises(unigrad.AxisError, match="dimension 1"):
        fn(v > 0 if name in ("all", "any") else v, axis=1)
    with pytest.raises(unigrad.AxisError):
        xp.linalg.vector_norm(v, axis=(0, 2))
    # an axis the array has answers, and so does axis=None or none at all
    fn(v > 0 if name in ("all", "any") else v, axis=-1)
    backend.close(xp.sum(backend.leaf(0.3, "float64"), axis=None), 0.3)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_eigh_of_a_matrix_that_is_not_hermitian(backend, dtype):
    # the values are LAPACK's of the lower triangle (torch, paddle and numpy by default;
    # jax 0.10 symmetrized its input, other values), and the gradient is torch's, the
    # Hermitian one V diag(g) V^H of the eigenvalues' seed g (the numpy tape gave the
    # lower-triangle function's own: zeros above the diagonal). Tolerance 1e-10 absolute
    # (float64, a well-separated spectrum)
    xp = backend.xp
    a = np.array([[2.0, 0.3, 0.1], [-1.1, 1.0, 0.4], [0.5, -0.7, -0.5]])
    if dtype == "complex128":
        a = a + 1j * np.array([[0.1, 0.5, -0.3], [0.2, -0.2, 0.6], [-0.4, 0.3, 0.2]])
    w, v = np.linalg.eigh(a)  # UPLO="L"
    seed = np.array([1.0, 2.0, 3.0])
    x = backend.leaf(a, dtype)
    for got in (xp.linalg.eigvalsh(x), xp.linalg.eigh(x).eigenvalues):
        backend.close(got, w, rtol=0, atol=1e-10)
    (g,) = unigrad.grad(xp.sum(xp.linalg.eigvalsh(x) * backend.tensor(seed, "float64")), x)
    backend.close(g, (v * seed) @ v.conj().T, rtol=0, atol=1e-10)
    # through the eigenvectors too: a Hermitian gradient
    u = xp.linalg.eigh(x).eigenvectors
    weights = backend.tensor([[0.3, -1.2, 0.5], [0.9, 0.1, -0.4], [0.2, 0.6, 1.1]], "float64")
    (g,) = unigrad.grad(xp.sum(xp.real(u * xp.conj(u)) * weights), x)
    gn = backend.np(g)
    np.testing.assert_allclose(gn, gn.conj().T, rtol=0, atol=1e-10)
