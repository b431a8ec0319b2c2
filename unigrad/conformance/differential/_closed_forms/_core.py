"""The oracle's tape: reference values (`RV`), their nodes, leaves and constants, the
degenerate-program and contract signals, and the cut that makes a constant."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

#: Distance to a kink (and smallest norm) below which a program is degenerate.
KINK = 1e-3


#: Magnitude above which float32 comparisons are meaningless.
HUGE = 1e4


class Degenerate(Exception):
    """The program hits a point where the derivative is undefined: skip it."""


class ContractError(Exception):
    """The contract says this call raises ``name`` (a unigrad error class name)."""

    def __init__(self, name: str, why: str) -> None:
        super().__init__(f"{name}: {why}")
        self.name = name
        self.why = why


_ids = itertools.count()


#: How the oracle holds values of each dtype (floats in float64, complex in complex128).
_HOLD: dict[str, Any] = {
    "complex64": np.complex128,
    "complex128": np.complex128,
    "bool": np.bool_,
    "int64": np.int64,
    "int32": np.int64,
}


class Node:
    __slots__ = ("apply", "carried", "consumed", "consumed_by", "kept", "parents", "vjp")

    def __init__(
        self,
        parents: tuple[Any, ...],
        apply: Callable[..., RV],
        vjp: Callable[..., tuple[RV | None, ...]],
    ) -> None:
        self.parents = parents
        self.apply = apply
        self.vjp = vjp
        self.consumed = False
        #: Never consumed: a full-range slice's node (see `getitem`).
        self.kept = False
        #: Rule 6: the forward nodes a create_graph result made by this node carries,
        #: each with the number of the call that made the result.
        self.carried: frozenset[tuple[Node, int]] = frozenset()
        #: The number of the first call that consumed this node.
        self.consumed_by: int | None = None


class RV:
    """A reference value: ``v`` (float64/complex128), ``dtype`` (the backends'), history."""

    __slots__ = ("dtype", "full_slice", "grad", "key", "node", "records", "rg", "v", "watched")

    def __init__(self, v: Any, dtype: str, *, node: Node | None = None, rg: bool = False) -> None:
        self.v = np.asarray(v, dtype=_HOLD.get(dtype, np.float64))
        self.dtype = dtype
        self.node = node
        self.rg = rg
        self.watched = False
        self.grad: RV | None = None
        self.key = next(_ids)
        #: The records (`_rules.Call`) of the create_graph calls that returned this
        #: value.
        self.records: tuple[Any, ...] = ()
        #: Made by a full-range index of another value (refused as an input or cut).
        self.full_slice = False

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.v.shape)

    @property
    def is_complex(self) -> bool:
        return "complex" in self.dtype

    def __repr__(self) -> str:
        return f"RV({self.v!r}, {self.dtype}, rg={self.rg})"


def const(v: Any, dtype: str) -> RV:
    return RV(v, dtype)


def leaf(v: Any, dtype: str, watched: bool) -> RV:
    r = RV(v, dtype, rg=watched)
    r.watched = watched
    return r


def _check(v: np.ndarray) -> np.ndarray:
    if v.size and np.max(np.abs(v)) > HUGE:
        msg = "values too large for float32 comparisons"
        raise Degenerate(msg)
    return v


def _real_dtype(dtype: str) -> str:
    return {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)


def _mk(
    value: Any,
    dtype: str,
    args: Sequence[RV],
    apply: Callable[..., RV],
    vjp: Callable[..., tuple[RV | None, ...]],
) -> RV:
    rg = any(a.rg for a in args)
    node = Node(tuple(args), apply, vjp) if rg else None
    return RV(_check(np.asarray(value)), dtype, node=node, rg=rg)


def _dt(a: RV, b: RV) -> str:
    """The array API's promotion of two floating dtypes (constants take their operand's)."""
    cplx = a.is_complex or b.is_complex
    wide = any(d in ("float64", "complex128") for d in (a.dtype, b.dtype))
    if cplx:
        return "complex128" if wide else "complex64"
    return "float64" if wide else "float32"


def _cut_check(v: np.ndarray, what: str, lo: float = 0.0) -> None:
    """Degenerate where ``v`` is near the branch cut ``(-inf, lo]`` of the real axis
    (complex values) or below ``lo + KINK`` (real values): log, sqrt and their kin."""
    if np.iscomplexobj(v):
        near = (np.abs(v.imag) < KINK) & (v.real < lo + KINK)
        if np.any(near) or np.any(np.abs(v - lo) < KINK):
            msg = f"{what} near its branch cut"
            raise Degenerate(msg)
    elif np.any(v < lo + KINK):
        msg = f"{what} outside its domain"
        raise Degenerate(msg)


# ---- more primitives: the rest of the namespace ------------------------------------------
def cut(v: Any, dtype: str) -> RV:
    """A value that depends on no input (the structure rule's cut): a constant."""
    return const(v, dtype)
