"""The support of a polynomial in the graph nodes a paddle gradient reads, degrees
counted (`_structure._derivative_reads`): which products of which nodes a recorded
result holds, so that its derivative toward a root reads that root's degree one lower
and a product of ``n`` factors is a constant after ``n`` derivatives (docs/semantics.md,
"Dependence"). Only the support: coefficients are never computed."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = [
    "MANY",
    "ONE",
    "POLY_CAP",
    "SUM_EDGES",
    "Mono",
    "Poly",
    "Reads",
    "collapse",
    "derivative",
    "product",
    "times",
]


#: What a recorded result's derivative toward each of its roots reads (`_structure._Decided.roots`).
Reads = tuple[tuple[Any, ...], ...]

#: A read's degree in a product where it is not a polynomial of known degree (``exp``'s
#: output, ``1 / b``, an unknown node's read): it never counts down to 0.
MANY = 1 << 20

#: A monomial: the nodes it reads, each with its degree (> 0); the empty one is a constant.
Mono = frozenset[tuple[Any, int]]

#: A sum of monomials (the support of a polynomial in the nodes read: which products of
#: them it holds, not their coefficients).
Poly = frozenset[Mono]

#: The monomials a sum keeps before `collapse` makes it one (an over-approximation).
POLY_CAP = 64

ONE: Poly = frozenset({frozenset()})

#: Double-grad nodes' edges whose formula is a sum of terms each reading one input
#: (``MultiplyDoubleGradNode``'s edge to ``g`` is ``ggx * y + ggy * x``): each term a
#: monomial of its own, not one product of both.
SUM_EDGES: dict[str, int] = {"MultiplyDoubleGradNode": 2, "MatmulDoubleGradNode": 2}


def times(m: Mono, n: Mono) -> Mono:
    if not m:
        return n
    if not n:
        return m
    found = dict(m)
    for r, d in n:
        found[r] = min(MANY, found.get(r, 0) + d)
    return frozenset(found.items())


def collapse(p: Iterable[Mono]) -> Poly:
    """One monomial with each node's highest degree in ``p``: its derivatives read at
    least what those of ``p`` read (a spurious dependence, never a missing one)."""
    found: dict[Any, int] = {}
    for m in p:
        for r, d in m:
            if d > found.get(r, 0):
                found[r] = d
    return frozenset({frozenset(found.items())})


def product(p: Poly, q: Poly) -> Poly:
    if p is ONE:
        return q
    if q is ONE:
        return p
    out = frozenset(times(m, n) for m in p for n in q)
    return out if len(out) <= POLY_CAP else collapse(out)


def derivative(p: Poly, r: Any) -> Poly:
    """The monomials of ``d p / d r`` (``r``'s degree one lower; `MANY` stays)."""
    out = set()
    for m in p:
        found = dict(m)
        d = found.get(r, 0)
        if not d:
            continue
        if d == 1:
            del found[r]
        elif d < MANY:
            found[r] = d - 1
        out.add(frozenset(found.items()))
    return frozenset(out)
