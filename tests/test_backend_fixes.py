"""Regression tests for divergences the differential tester found on one backend.

Each test runs on all four backends (the ``backend`` fixture) and failed on the backend
named in its docstring before the fix. Tolerances: float64 results to 1e-12 relative
unless stated.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

import unigrad

if TYPE_CHECKING:
    from conftest import B

ROOT = Path(__file__).resolve().parents[1]
RTOL64 = 1e-12

A_DATA = [[2.0, 0.5, -0.3], [0.3, 1.5, 0.2], [-0.1, 0.4, 1.8]]
B_DATA = [[1.0, -0.5], [2.0, 0.25], [-0.7, 1.1]]

_SOLVE_SCRIPT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import unigrad
    from unigrad.conformance import Kit
    from unigrad.conformance._runner import load_backend

    k = Kit(load_backend(sys.argv[1])[0])
    xp = k.xp
    A_DATA, B_DATA = json.loads(sys.argv[2])
    out = {}
    for wrt in ("A", "B", "both", "A_with_B_constant", "B_with_A_constant"):
        a = k.tensor(A_DATA, "float64") if wrt == "B_with_A_constant" else k.leaf(A_DATA, "float64")
        b = k.tensor(B_DATA, "float64") if wrt == "A_with_B_constant" else k.leaf(B_DATA, "float64")
        y = xp.sum(xp.linalg.solve(a, b))
        inputs = {"A": [a], "B": [b], "both": [a, b], "A_with_B_constant": [a],
                  "B_with_A_constant": [b]}[wrt]
        out[wrt] = [np.asarray(k.np(g)).tolist() for g in unigrad.grad(y, inputs)]
        print(wrt, "done", file=sys.stderr, flush=True)
    print(json.dumps(out))
    """
)


def test_solve_gradient_with_respect_to_one_operand(backend: B) -> None:
    """paddle 3.3.1 crashed (SIGSEGV in SolveGradKernel) when a pass needed the gradient
    of one operand of ``solve`` alone. Run in a subprocess: a crash fails this test only."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    proc = subprocess.run(
        [sys.executable, "-c", _SOLVE_SCRIPT, backend.name, json.dumps([A_DATA, B_DATA])],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    a, b = np.array(A_DATA), np.array(B_DATA)
    x = np.linalg.solve(a, b)
    g_b = np.linalg.solve(a.T, np.ones_like(b))  # d sum(A^-1 B) / dB
    g_a = -g_b @ x.T  # d sum(A^-1 B) / dA
    want = {
        "A": [g_a],
        "B": [g_b],
        "both": [g_a, g_b],
        "A_with_B_constant": [g_a],
        "B_with_A_constant": [g_b],
    }
    for key, grads in want.items():
        assert len(got[key]) == len(grads), key
        for g, w in zip(got[key], grads, strict=True):
            np.testing.assert_allclose(np.array(g), w, rtol=RTOL64, atol=1e-14, err_msg=key)


def _complex(re: Any, im: Any) -> np.ndarray:
    return np.array(re) + 1j * np.array(im)


def test_complex_solve_value_and_gradient(backend: B) -> None:
    """paddle 3.3.1 has no complex ``solve`` kernel: the op itself raised a raw error."""
    xp = backend.xp
    an = _complex(A_DATA, np.array(A_DATA).T * 0.3)
    bn = _complex(B_DATA, np.array(B_DATA)[::-1] * 0.5)
    a = backend.leaf(an, "complex128")
    b = backend.tensor(bn, "complex128")
    x = xp.linalg.solve(a, b)
    want = np.linalg.solve(an, bn)
    backend.close(x, want, rtol=RTOL64, atol=1e-14)
    backend.close(xp.linalg.solve(a, b[:, 0]), want[:, 0], rtol=RTOL64, atol=1e-14)
    # torch's convention for a real loss: grad_B = A^-H G, grad_A = -grad_B X^H (G = 1)
    (g,) = backend.grad(xp.sum(xp.real(x)), a)
    g_b = np.linalg.solve(an.conj().T, np.ones_like(bn))
    backend.close(g, -g_b @ want.conj().T, rtol=1e-10, atol=1e-12)


def test_complex_slogdet_logabsdet_is_real(backend: B) -> None:
    """paddle 3.3.1 returned a complex ``logabsdet`` for complex input."""
    an = _complex(A_DATA, np.array(A_DATA).T * 0.3)
    sign, logabsdet = backend.xp.linalg.slogdet(backend.tensor(an, "complex128"))
    want_sign, want_log = np.linalg.slogdet(an)
    assert backend.dtype(logabsdet) == "float64"
    backend.close(logabsdet, want_log, rtol=RTOL64, atol=0)
    backend.close(sign, want_sign, rtol=RTOL64, atol=1e-15)


def test_vector_norm_fractional_root_is_float64_precise(backend: B) -> None:
    """paddle 3.3.1's ``x ** (1/3)`` in float64 kept the exponent in float32 (~1e-8 off)."""
    xn = np.array([1.3, -0.7, 2.1, 0.45])
    x = backend.leaf(xn, "float64")
    for ord_ in (3, 1.7, -2.5):
        want = np.sum(np.abs(xn) ** ord_) ** (1 / ord_)
        backend.close(backend.xp.linalg.vector_norm(x, ord=ord_), want, rtol=1e-14, atol=0)
    (g,) = backend.grad(backend.xp.linalg.vector_norm(x, ord=3), x)
    n3 = np.sum(np.abs(xn) ** 3) ** (1 / 3)
    backend.close(g, np.sign(xn) * xn**2 / n3**2, rtol=1e-13, atol=0)


def test_floor_divide_carries_no_gradient(backend: B) -> None:
    """torch 2.x raised "derivative for aten::floor_divide is not implemented"."""
    xn = np.array([0.5, -1.2])
    x = backend.leaf(xn, "float64")
    xp = backend.xp
    (g,) = backend.grad(xp.sum(x * xp.floor_divide(x, 0.7)), x)
    backend.close(g, np.floor_divide(xn, 0.7), rtol=0, atol=0)


def test_positive_is_a_new_tensor(backend: B) -> None:
    """torch's ``positive`` returned its argument itself, so cutting ``positive(y)`` cut
    ``y`` (torch raised UnusedInputError where the others answered)."""
    xn = np.array([0.5, -1.2])
    x = backend.leaf(xn, "float64")
    xp = backend.xp
    y = 2.0 * x
    assert xp.positive(y) is not y
    (g,) = backend.grad(xp.sum(y * y), x, no_grad_vars=[xp.positive(y)])
    backend.close(g, 8.0 * xn, rtol=RTOL64, atol=0)


@pytest.mark.parametrize("op", ["conj", "real"])
def test_conj_and_real_of_a_real_tensor_are_new_tensors(backend: B, op: str) -> None:
    """torch's ``conj`` and ``real`` of a real tensor returned the tensor itself, so
    ``copysign(v, conj(v))`` took its sign from ``v`` itself and a gradient with respect
    to ``conj(v)`` was ``v``'s (differential seed 7, program 1712: ones where the
    reference has None)."""
    xn = np.array([0.5, -1.2])
    x = backend.leaf(xn, "float64")
    xp = backend.xp
    v = 2.0 * x
    w = getattr(xp, op)(v)
    assert w is not v
    backend.close(w, 2.0 * xn, rtol=0, atol=0)
    (g,) = backend.grad(xp.sum(xp.copysign(v, w)), w, allow_unused=True)
    assert g is None
    (g,) = backend.grad(xp.sum(v * v), x, no_grad_vars=[w])
    backend.close(g, 8.0 * xn, rtol=RTOL64, atol=0)


def test_copysign_sign_argument_is_no_dependence(backend: B) -> None:
    """``copysign(a, x)`` reads only ``x``'s sign: its derivative in ``x`` is identically
    zero, so ``x`` is a cut (rule 14); torch and paddle reported it used (a zero)."""
    xn = np.array([0.5, -1.2])
    x = backend.leaf(xn, "float64")
    a = backend.leaf([1.0, 2.0], "float64")
    y = backend.xp.sum(backend.xp.copysign(a, x))
    g_a, g_x = backend.grad(y, [a, x], allow_unused=True)
    assert g_x is None
    backend.close(g_a, np.sign(xn), rtol=0, atol=0)


def test_copysign_derivative_is_constant(backend: B) -> None:
    """d copysign(a, x) / da is +1 or -1: a create_graph gradient carries no history
    (torch's backward of copysign kept ``a`` in the graph)."""
    a = backend.leaf([0.5, -1.2, 0.3], "float64")
    x = backend.tensor([-1.0, -2.0, 3.0], "float64")
    (g,) = backend.grad(backend.xp.sum(backend.xp.copysign(a, x)), a, create_graph=True)
    assert not backend.requires_grad(g)
    backend.close(g, [-1.0, 1.0, 1.0], rtol=0, atol=0)


@pytest.mark.parametrize("view", ["real_of_complex", "transpose"])
def test_take_of_a_non_contiguous_view(backend: B, view: str) -> None:
    """paddle 3.3.1 indexed a strided view (``real(z)``, ``x.T``) by its memory layout:
    ``take(real(z), [0, 0], axis=1)`` of a 2x3 ``z`` came out 3x2 (differential seed
    20261123, program 243)."""
    xp = backend.xp
    zn = np.array(
        [[-0.37 - 0.35j, -1.25 + 0.43j, -1.12 - 0.59j], [-0.9 + 0.37j, 1.48 + 1.23j, 1.13 + 1.39j]]
    )
    xn = np.array([[0.5, -1.0], [2.0, 0.25], [-1.5, 0.75]])
    idx = backend.tensor([0, 0, 2], "int64")
    if view == "real_of_complex":
        z = backend.leaf(zn, "complex128")
        v, vn = xp.real(z), zn.real
    else:
        z = backend.leaf(xn, "float64")
        v, vn = xp.permute_dims(z, (1, 0)), xn.T
    y = xp.take(v, idx, axis=1)
    backend.close(y, vn[:, [0, 0, 2]], rtol=0, atol=0)
    (g,) = backend.grad(xp.sum(y * y), z)
    want = np.zeros(vn.shape)
    np.add.at(want, (slice(None), [0, 0, 2]), 2 * vn[:, [0, 0, 2]])
    backend.close(g, want if view == "real_of_complex" else want.T, rtol=RTOL64, atol=0)


_Z = _complex([0.3, -1.2, 0.8], [0.7, 0.4, -0.5])
_W = _complex([0.5, 1.3, -0.4], [-0.2, 0.6, 0.9])
_SEED = _complex([1.0, -0.3, 0.6], [0.5, 1.0, -0.8])


def test_complex_pow_with_a_tensor_exponent_gradients(backend: B) -> None:
    """paddle 3.3.1's complex ``elementwise_pow_grad`` gives wrong values (a missing
    conjugation, and a different number for the exponent): x1's gradient came out far
    from torch's (differential seed 7, program 1047). torch's convention: the VJP is
    conj(derivative) * seed, d/dz z**w = w z**(w-1), d/dw z**w = log(z) z**w."""
    z = backend.leaf(_Z, "complex64")
    w = backend.leaf(_W, "complex64")
    y = backend.xp.pow(z, w)
    backend.close(y, _Z**_W, rtol=1e-5, atol=1e-6)
    gz, gw = backend.grad(y, [z, w], grad_outputs=backend.tensor(_SEED, "complex64"))
    backend.close(gz, np.conj(_W * _Z ** (_W - 1)) * _SEED, rtol=1e-5, atol=1e-6)
    backend.close(gw, np.conj(np.log(_Z) * _Z**_W) * _SEED, rtol=1e-5, atol=1e-6)


def test_complex_prod_gradient_is_conjugated(backend: B) -> None:
    """The VJP of a complex ``prod`` is conj(the other factors' product) * seed."""
    z = backend.leaf(_Z, "complex64")
    p = backend.xp.prod(z, axis=None, keepdims=True)
    backend.close(p, np.prod(_Z, keepdims=True), rtol=1e-5, atol=1e-6)
    seed = _SEED[:1]
    (g,) = backend.grad(p, [z], grad_outputs=backend.tensor(seed, "complex64"))
    others = np.array([np.prod(np.delete(_Z, i)) for i in range(_Z.size)])
    backend.close(g, np.conj(others) * seed, rtol=1e-5, atol=1e-6)


# ---- issue 23, differential seed 2026 (paddle) ---------------------------------------------
@pytest.mark.parametrize("which", ["svdvals", "svd.S", "svd.Vh", "eigh.eigenvectors"])
def test_a_later_result_of_a_decomposition_as_an_input(backend: B, which: str) -> None:
    """paddle 3.3.1 crashed (raw ``SystemError: Invalid slot_id for
    GradTensorHolder::add()``) where a pass stopped at a result other than the first of
    a multi-output op (differential seed 2026, programs 4588, 12878, 48395)."""
    xp = backend.xp
    x = backend.leaf([[0.54, 1.16], [0.63, 0.77]], "float64")
    a = backend.leaf([[2.0, 0.5], [0.5, 1.0]], "float64")
    v = {
        "svdvals": lambda: xp.linalg.svdvals(x),
        "svd.S": lambda: xp.linalg.svd(x)[1],
        "svd.Vh": lambda: xp.linalg.svd(x)[2],
        "eigh.eigenvectors": lambda: xp.linalg.eigh(a)[1],
    }[which]()
    w = backend.leaf(np.full(backend.shape(v), 0.5).tolist(), "float64")
    (g,) = unigrad.grad(xp.sum(v * w), v)
    backend.close(g, np.full(backend.shape(v), 0.5), rtol=RTOL64, atol=0)
    # beside an input upstream of the op, and an output that reaches only the op's result
    gv, gw = unigrad.grad([xp.sum(v * w), v], [v, w])
    backend.close(gv, np.full(backend.shape(v), 1.5), rtol=RTOL64, atol=0)
    backend.close(gw, backend.np(v), rtol=RTOL64, atol=0)


def test_a_third_derivative_of_a_scalar_power_toward_another_input(backend: B) -> None:
    """paddle 3.3.1's ``PowTripleGradNode`` raised a raw ``RuntimeError: (NotFound) The
    output DenseTensor D_X can not be nullptr`` in a pass through the second derivative
    of ``x ** 2.0`` that did not differentiate with respect to ``x`` (differential seed
    2026, program 23898)."""
    xp = backend.xp
    x = backend.leaf([-0.97, 1.41, 0.69], "float64")
    w = backend.leaf([-1.23, 1.48, 0.67], "float64")
    s = np.array([0.39, 0.69, -0.34])
    (g1,) = unigrad.grad(
        xp.sum(x**2.0 * backend.tensor(s.tolist(), "float64")), x, create_graph=True
    )
    (g2,) = unigrad.grad(xp.sum(g1 / (w * w + 1.0)), x, create_graph=True)
    (gw,) = unigrad.grad(xp.sum(g2), w)
    wn = backend.np(w)
    backend.close(gw, -4.0 * s * wn / (wn * wn + 1.0) ** 2, rtol=RTOL64, atol=0)
