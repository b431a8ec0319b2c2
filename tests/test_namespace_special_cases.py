"""The standard's special cases of complex elementwise functions (C99 Annex G), which
unigrad's namespaces (paddle, jax tape, numpy tape) give where the frameworks' complex
kernels do not (unigrad._array_api._c99). torch's namespace is array-api-compat,
unchanged, and is not unigrad's to patch."""

from __future__ import annotations

import math

import numpy as np
import pytest

import unigrad

INF, NAN, PI = math.inf, math.nan, math.pi

# (function, input, expected real part, expected imaginary part); None: a NaN; a signed
# zero is compared with its sign; "±" cases (sign unspecified) compare magnitudes.
CASES = [
    ("exp", complex(INF, INF), INF, None, "±re"),
    ("exp", complex(INF, NAN), INF, None, "±re"),
    ("exp", complex(-INF, 3.0), -0.0, 0.0, ""),  # +0 * cis(3): cos(3) < 0 < sin(3)
    ("exp", complex(-INF, -3.0), -0.0, -0.0, ""),  # conjugate symmetry
    ("exp", complex(NAN, 0.0), None, 0.0, ""),
    ("expm1", complex(-0.0, 0.0), 0.0, 0.0, ""),
    ("expm1", complex(-INF, NAN), -1.0, 0.0, "±im"),
    ("expm1", complex(INF, 0.0), INF, 0.0, ""),
    ("tanh", complex(INF, 2.0), 1.0, 0.0, ""),  # sin(4) < 0: kernels give 1 - 0j
    ("tanh", complex(-INF, 2.0), -1.0, 0.0, ""),  # odd
    ("tanh", complex(0.0, NAN), 0.0, None, ""),
    ("cosh", complex(0.0, INF), None, 0.0, "±im"),
    ("cosh", complex(INF, NAN), INF, None, ""),
    ("sinh", complex(0.0, INF), 0.0, None, "±re"),
    ("sinh", complex(INF, INF), INF, None, "±re"),
    ("log", complex(NAN, INF), INF, None, ""),
    ("log", complex(-0.0, 0.0), -INF, PI, ""),
    ("log1p", complex(-INF, NAN), INF, None, ""),
    ("sqrt", complex(-INF, NAN), None, INF, "±im"),
    ("sqrt", complex(INF, NAN), INF, None, ""),
    ("acos", complex(0.0, NAN), PI / 2, None, ""),
    ("acos", complex(0.0, 0.0), PI / 2, -0.0, ""),
    ("acosh", complex(0.0, NAN), None, PI / 2, "±im"),
    ("asinh", complex(NAN, 0.0), None, 0.0, ""),
    ("atanh", complex(1.0, 0.0), INF, 0.0, ""),
    ("atanh", complex(NAN, NAN), None, None, ""),
    ("atanh", complex(INF, NAN), 0.0, None, ""),
]


def _same(got: float, want: float | None, signed: bool) -> bool:
    if want is None:
        return math.isnan(got)
    if not signed:
        return abs(got) == abs(want)
    return got == want and math.copysign(1, got) == math.copysign(1, want)


@pytest.mark.skip_backend("torch", reason="array-api-compat's namespace, unchanged")
@pytest.mark.parametrize(("name", "z", "re", "im", "free"), CASES)
def test_complex_special_case(backend, name, z, re, im, free):
    x = backend.leaf(np.array([z, 0.5 + 0.25j]), "complex128")
    xp = unigrad.namespace(x)
    with np.errstate(all="ignore"):  # NumPy's kernel warns on these inputs, as NumPy does
        out = backend.np(getattr(xp, name)(x))
        ordinary = getattr(np, name if name[0] != "a" else "arc" + name[1:])(0.5 + 0.25j)
    got = complex(out[0])
    assert _same(got.real, re, "±re" not in free), (name, z, got)
    assert _same(got.imag, im, "±im" not in free), (name, z, got)
    np.testing.assert_allclose(out[1], ordinary, rtol=1e-7)  # elsewhere: the kernel's value


@pytest.mark.skip_backend("torch", reason="array-api-compat's namespace, unchanged")
def test_equal_is_exact(backend):
    # paddle's == on floats has a tolerance (1e-300 == 0 there)
    x = backend.leaf(np.array([1e-300, 0.0, 2.59e-42, NAN]), "float64")
    xp = unigrad.namespace(x)
    zero = xp.zeros_like(x)
    assert backend.np(xp.equal(x, zero)).tolist() == [False, True, False, False]
    assert backend.np(xp.not_equal(x, zero)).tolist() == [True, False, True, True]
    z = backend.leaf(np.array([1e-300 + 0j, 1e-300j, 0j]), "complex128")
    assert backend.np(xp.equal(z, xp.zeros_like(z))).tolist() == [False, False, True]
    assert backend.np(xp.sign(z))[0] == pytest.approx(1.0)  # 1e-300 is not 0
