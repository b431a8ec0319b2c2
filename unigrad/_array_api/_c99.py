"""The standard's special cases of complex elementwise functions, written once.

The array API standard (2023.12) gives, for complex ``x = a + bj``, the value of ``exp``,
``expm1``, ``log``, ``log1p``, ``sqrt``, ``sinh``, ``cosh``, ``tanh``, ``acos``, ``acosh``,
``asinh`` and ``atanh`` where a component is infinite, NaN or a signed zero (C99's
Annex G). Frameworks' complex kernels miss some of them (XLA's most, NumPy's ``expm1``,
paddle's ``exp`` and ``tanh``). `special` computes, from the components' values, where
an element is such a case and the standard's value there; a namespace keeps its kernel's
result everywhere else (``where(mask, value, kernel(x))``), so values and gradients
at every other element are the framework's own. The special elements' inputs are
infinite or NaN (or an exact zero whose value only the rules pin): their gradient is
the framework's, not defined by the standard.

The rules are the standard's for ``a >= 0`` and/or ``b >= 0``, extended by the
symmetries the standard and C99 state: every function here commutes with conjugation
(``f(conj(x)) == conj(f(x))``), ``sinh``, ``tanh``, ``asinh`` and ``atanh`` are odd and
``cosh`` is even.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["FUNCTIONS", "pin", "special"]

_PI = math.pi
_INF = math.inf
_NAN = math.nan

#: name -> "odd", "even" or "" (conjugation symmetry alone)
_SYMMETRY = {
    "acos": "",
    "acosh": "",
    "asinh": "odd",
    "atanh": "odd",
    "cosh": "even",
    "exp": "",
    "expm1": "",
    "log": "",
    "log1p": "",
    "sinh": "odd",
    "sqrt": "",
    "tanh": "odd",
}
FUNCTIONS = frozenset(_SYMMETRY)


def _eq(v: Any, c: float) -> Any:
    # exact: paddle's == on floats has a tolerance (1e-300 == 0 there)
    return (v <= c) & (v >= c)


class _P:
    """Predicates on one component's values (``vp`` is a framework's array namespace)."""

    def __init__(self, vp: Any, v: Any) -> None:
        self.nan = vp.isnan(v)
        self.fin = vp.isfinite(v)
        self.zero = _eq(v, 0.0)
        self.nz = self.fin & ~self.zero  # a nonzero finite number
        self.pinf = vp.isinf(v) & (v > 0)
        self.ninf = vp.isinf(v) & (v < 0)
        self.inf = vp.isinf(v)
        self.neg = vp.signbit(v)
        self.pzero = self.zero & ~self.neg
        self.mzero = self.zero & self.neg
        self.one = _eq(v, 1.0)
        self.mone = _eq(v, -1.0)


# A rule: (condition of the predicates of a and b, real part, imaginary part); a part is
# a number, or a function of the components' values (a, b). The first rule that holds
# gives the value. Conditions are on a >= 0 for odd/even functions and on b >= 0 always:
# `special` folds the other signs in by the symmetries.
_Rule = tuple[Callable[[_P, _P], Any], Any, Any]


def _cis(scale: float, shift: float = 0.0) -> tuple[Any, Any]:
    # multiply, not scale * x: paddle's scalar ops lose the sign of a zero
    def re(vp: Any, a: Any, b: Any) -> Any:
        out = vp.multiply(vp.full_like(b, scale), vp.cos(b))
        return out if not shift else vp.add(out, vp.full_like(b, shift))

    def im(vp: Any, a: Any, b: Any) -> Any:
        return vp.multiply(vp.full_like(b, scale), vp.sin(b))

    return re, im


def _log_rules() -> list[_Rule]:  # log and log1p share every rule but the pole's
    return [
        (lambda a, b: a.fin & b.pinf, _INF, _PI / 2),
        (lambda a, b: a.fin & b.nan, _NAN, _NAN),
        (lambda a, b: a.ninf & b.fin, _INF, _PI),
        (lambda a, b: a.pinf & b.fin, _INF, 0.0),
        (lambda a, b: a.ninf & b.pinf, _INF, 3 * _PI / 4),
        (lambda a, b: a.pinf & b.pinf, _INF, _PI / 4),
        (lambda a, b: a.inf & b.nan, _INF, _NAN),
        (lambda a, b: a.nan & b.fin, _NAN, _NAN),
        (lambda a, b: a.nan & b.pinf, _INF, _NAN),
        (lambda a, b: a.nan & b.nan, _NAN, _NAN),
    ]


def _exp_rules(minus_one: bool) -> list[_Rule]:  # exp, and expm1 (exp - 1)
    one = 0.0 if minus_one else 1.0
    shift = -1.0 if minus_one else 0.0
    return [
        (lambda a, b: a.zero & b.zero, one, 0.0),  # expm1(-0 + 0j) too: +0 + 0j
        (lambda a, b: a.fin & (b.pinf | b.nan), _NAN, _NAN),
        (lambda a, b: a.pinf & b.zero, _INF, 0.0),
        (lambda a, b: a.ninf & b.fin, *_cis(0.0, shift)),
        (lambda a, b: a.pinf & b.nz, *_cis(_INF)),
        (lambda a, b: a.ninf & (b.pinf | b.nan), -1.0 if minus_one else 0.0, 0.0),
        (lambda a, b: a.pinf & (b.pinf | b.nan), _INF, _NAN),
        (lambda a, b: a.nan & b.zero, _NAN, 0.0),
        (lambda a, b: a.nan & ~b.zero, _NAN, _NAN),
    ]


_RULES: dict[str, list[_Rule]] = {
    "acos": [
        (lambda a, b: a.zero & b.zero, _PI / 2, -0.0),
        (lambda a, b: a.zero & b.nan, _PI / 2, _NAN),
        (lambda a, b: a.fin & b.pinf, _PI / 2, -_INF),
        (lambda a, b: a.nz & b.nan, _NAN, _NAN),
        (lambda a, b: a.ninf & b.fin, _PI, -_INF),
        (lambda a, b: a.pinf & b.fin, 0.0, -_INF),
        (lambda a, b: a.ninf & b.pinf, 3 * _PI / 4, -_INF),
        (lambda a, b: a.pinf & b.pinf, _PI / 4, -_INF),
        (lambda a, b: a.inf & b.nan, _NAN, _INF),
        (lambda a, b: a.nan & b.fin, _NAN, _NAN),
        (lambda a, b: a.nan & b.pinf, _NAN, -_INF),
        (lambda a, b: a.nan & b.nan, _NAN, _NAN),
    ],
    "acosh": [
        (lambda a, b: a.zero & b.zero, 0.0, _PI / 2),
        (lambda a, b: a.fin & b.pinf, _INF, _PI / 2),
        (lambda a, b: a.nz & b.nan, _NAN, _NAN),
        (lambda a, b: a.zero & b.nan, _NAN, _PI / 2),
        (lambda a, b: a.ninf & b.fin, _INF, _PI),
        (lambda a, b: a.pinf & b.fin, _INF, 0.0),
        (lambda a, b: a.ninf & b.pinf, _INF, 3 * _PI / 4),
        (lambda a, b: a.pinf & b.pinf, _INF, _PI / 4),
        (lambda a, b: a.inf & b.nan, _INF, _NAN),
        (lambda a, b: a.nan & b.fin, _NAN, _NAN),
        (lambda a, b: a.nan & b.pinf, _INF, _NAN),
        (lambda a, b: a.nan & b.nan, _NAN, _NAN),
    ],
    "asinh": [
        (lambda a, b: a.zero & b.zero, 0.0, 0.0),
        (lambda a, b: a.fin & b.pinf, _INF, _PI / 2),
        (lambda a, b: a.fin & b.nan, _NAN, _NAN),
        (lambda a, b: a.pinf & b.fin, _INF, 0.0),
        (lambda a, b: a.pinf & b.pinf, _INF, _PI / 4),
        (lambda a, b: a.pinf & b.nan, _INF, _NAN),
        (lambda a, b: a.nan & b.zero, _NAN, 0.0),
        (lambda a, b: a.nan & b.nz, _NAN, _NAN),
        (lambda a, b: a.nan & b.pinf, _INF, _NAN),
        (lambda a, b: a.nan & b.nan, _NAN, _NAN),
    ],
    "atanh": [
        (lambda a, b: a.zero & b.zero, 0.0, 0.0),
        (lambda a, b: a.zero & b.nan, 0.0, _NAN),
        (lambda a, b: a.one & b.zero, _INF, 0.0),
        (lambda a, b: a.fin & b.pinf, 0.0, _PI / 2),
        (lambda a, b: a.nz & b.nan, _NAN, _NAN),
        (lambda a, b: a.pinf & (b.fin | b.pinf), 0.0, _PI / 2),
        (lambda a, b: a.pinf & b.nan, 0.0, _NAN),
        (lambda a, b: a.nan & b.fin, _NAN, _NAN),
        (lambda a, b: a.nan & b.pinf, 0.0, _PI / 2),
        (lambda a, b: a.nan & b.nan, _NAN, _NAN),
    ],
    "cosh": [
        (lambda a, b: a.zero & b.zero, 1.0, 0.0),
        (lambda a, b: a.zero & (b.pinf | b.nan), _NAN, 0.0),
        (lambda a, b: a.nz & (b.pinf | b.nan), _NAN, _NAN),
        (lambda a, b: a.pinf & b.zero, _INF, 0.0),
        (lambda a, b: a.pinf & b.nz, *_cis(_INF)),
        (lambda a, b: a.pinf & (b.pinf | b.nan), _INF, _NAN),
        (lambda a, b: a.nan & b.zero, _NAN, 0.0),
        (lambda a, b: a.nan & ~b.zero, _NAN, _NAN),
    ],
    "exp": _exp_rules(minus_one=False),
    "expm1": _exp_rules(minus_one=True),
    "log": [
        (lambda a, b: a.mzero & b.zero, -_INF, _PI),
        (lambda a, b: a.pzero & b.zero, -_INF, 0.0),
        *_log_rules(),
    ],
    "log1p": [(lambda a, b: a.mone & b.zero, -_INF, 0.0), *_log_rules()],
    "sinh": [
        (lambda a, b: a.zero & b.zero, 0.0, 0.0),
        (lambda a, b: a.zero & (b.pinf | b.nan), 0.0, _NAN),
        (lambda a, b: a.nz & (b.pinf | b.nan), _NAN, _NAN),
        (lambda a, b: a.pinf & b.zero, _INF, 0.0),
        (lambda a, b: a.pinf & b.nz, *_cis(_INF)),
        (lambda a, b: a.pinf & (b.pinf | b.nan), _INF, _NAN),
        (lambda a, b: a.nan & b.zero, _NAN, 0.0),
        (lambda a, b: a.nan & ~b.zero, _NAN, _NAN),
    ],
    "sqrt": [
        (lambda a, b: a.zero & b.zero, 0.0, 0.0),
        (lambda a, b: b.pinf, _INF, _INF),
        (lambda a, b: a.fin & b.nan, _NAN, _NAN),
        (lambda a, b: a.ninf & b.fin, 0.0, _INF),
        (lambda a, b: a.pinf & b.fin, _INF, 0.0),
        (lambda a, b: a.ninf & b.nan, _NAN, _INF),
        (lambda a, b: a.pinf & b.nan, _INF, _NAN),
        (lambda a, b: a.nan, _NAN, _NAN),
    ],
    "tanh": [
        (lambda a, b: a.zero & b.zero, 0.0, 0.0),
        (lambda a, b: a.nz & (b.pinf | b.nan), _NAN, _NAN),
        (lambda a, b: a.zero & (b.pinf | b.nan), 0.0, _NAN),
        (lambda a, b: a.pinf & (b.fin | b.pinf | b.nan), 1.0, 0.0),
        (lambda a, b: a.nan & b.zero, _NAN, 0.0),
        (lambda a, b: a.nan & ~b.zero, _NAN, _NAN),
    ],
}


def special(vp: Any, name: str, a: Any, b: Any) -> tuple[Any, Any, Any]:
    """``(mask, re, im)``: where ``a + bj`` is one of the standard's special cases of
    ``name``, and the real and imaginary parts of the standard's value there (any value
    elsewhere). ``a`` and ``b`` are real arrays of the same shape, without history;
    ``vp`` is their framework's array namespace (``isnan``, ``isfinite``, ``isinf``,
    ``signbit``, ``abs``, ``where``, ``cos``, ``sin``, ``multiply``, ``add``,
    ``zeros_like``, ``full_like``)."""
    sym = _SYMMETRY[name]
    sa, sb = vp.signbit(a), vp.signbit(b)
    a0 = vp.abs(a) if sym else a  # fold the quadrants the rules do not list
    b0 = vp.abs(b)
    pa, pb = _P(vp, a0), _P(vp, b0)
    mask = vp.isnan(vp.zeros_like(a))  # all False
    re = im = vp.zeros_like(a)
    for cond, vre, vim in reversed(_RULES[name]):  # the first rule that holds wins
        hit = cond(pa, pb)
        mask = mask | hit
        # full_like, not zero + v: the sign of a zero is part of the value
        re = vp.where(hit, vre(vp, a0, b0) if callable(vre) else vp.full_like(a, vre), re)
        im = vp.where(hit, vim(vp, a0, b0) if callable(vim) else vp.full_like(a, vim), im)
    # f(conj(x)) == conj(f(x)); odd: f(-x) == -f(x); even: f(-x) == f(x)
    # (multiply by -1, not -x: paddle's negation loses the sign of a zero)
    mone = vp.full_like(a, -1.0)
    flip_im = (sa ^ sb) if sym == "even" else sb
    im = vp.where(flip_im, vp.multiply(im, mone), im)
    if sym == "odd":
        re = vp.where(sa, vp.multiply(re, mone), re)
    return mask, re, im


def pin(vp: Any, mask: Any, value: Any, out: Any, const: Callable[[Any], Any]) -> Any:
    """``where(mask, value, out)`` (``value`` from `special`, ``out`` the kernel's result),
    differentiable as ``out`` wherever ``out`` is finite: at a special case with a finite
    input (an exact zero: ``exp(0j)``, the value of ``x - x``) the function is analytic
    and its derivative is the kernel's, where a plain ``where`` gave 0 (a wrong number).
    ``value - (const(out) - out)`` is ``value`` exactly (``out - out`` is ``+0``, and
    ``v - +0`` keeps the sign of a zero) with ``out``'s derivative; ``const`` is the
    framework's stop-gradient. Where ``out`` is not finite, ``value`` as it is."""
    o = const(out)  # (the mask has no history: autograd's boxes have no ``&``)
    fin = vp.isfinite(vp.real(o)) & vp.isfinite(vp.imag(o))
    carried = value - (o - out)
    return vp.where(mask & fin, carried, vp.where(mask, value, out))
