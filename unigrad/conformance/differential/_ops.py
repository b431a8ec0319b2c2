"""The differential tester's op vocabulary: one table that the generator, the renderer
and the oracle all read.

Each `OpSpec` is one kind of program op: how it renders (the line of Python against
the namespace ``xp``), how the generator draws it (`OpSpec.draw`: its arguments, their
shapes, dtypes and domain, and its static parameters), its oracle (a NumPy float64
forward written with the oracle's recorded primitives, `_closed_forms`, whose VJPs are
recorded too, so create_graph to any order is exact), whether it *cuts* dependence
(issue 23's structure rule: its result depends on no input) and where its derivative
is undefined (the oracle raises `Degenerate` there and the program is skipped).

`DIFFERENTIABLE` lists every differentiable function of the array API namespace
unigrad exposes (2023.12, with its ``linalg`` and ``fft`` extensions and
``cumulative_prod``), plus the indexing forms; `NOT_DIFFERENTIABLE` lists the others,
each with why. ``tests/test_differential.py`` asserts that the two partition the
namespace (a new namespace function fails until it is classified) and that every
differentiable function is drawn by some op of the table; the run prints its
coverage by mode (`coverage`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from . import _closed_forms as F
from ._closed_forms import RV

__all__ = [
    "DIFFERENTIABLE",
    "EXTENSION_OPS",
    "MODES",
    "NOT_DIFFERENTIABLE",
    "OPS",
    "TABLE",
    "OpSpec",
    "Var",
    "coverage",
    "modes_of",
]


# ---- what the generator hands an op's draw -----------------------------------------------
@dataclass
class Var:
    """A program value as the generator sees it."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    rg: bool  # depends on a watched leaf (as far as the generator can tell)
    leaf: bool = False
    #: The watched leaves it depends on (through ops that do not cut).
    deps: frozenset[str] = frozenset()

    @property
    def complex(self) -> bool:
        return "complex" in self.dtype

    @property
    def floating(self) -> bool:
        return self.dtype.startswith(("float", "complex"))

    @property
    def nd(self) -> int:
        return len(self.shape)


class Builder(Protocol):
    """What an op's `OpSpec.draw` may ask of the generator."""

    def integer(self, lo: int, hi: int) -> int: ...
    def choice(self, options: Sequence[Any]) -> Any: ...
    def partner(
        self, a: Var, shape: tuple[int, ...] | None = None, *, broadcast: bool = False
    ) -> Var: ...
    def real_of(self, a: Var) -> Var: ...
    def mask(self, shape: tuple[int, ...]) -> Var: ...
    def data(self, values: Any, dtype: str, shape: tuple[int, ...] | None = None) -> Var: ...


#: What a draw returns: the op's arguments, its result's shape and dtype, its params.
Drawn = tuple[tuple[Var, ...], tuple[int, ...], str, dict[str, Any]]


@dataclass(frozen=True)
class OpSpec:
    """One op of the vocabulary (see the module docstring)."""

    name: str
    covers: tuple[str, ...]
    render: Callable[[tuple[str, ...], dict[str, Any]], str]
    oracle: Callable[[Sequence[RV], dict[str, Any]], RV]
    #: Draw the op on ``a`` (or None where ``a`` does not fit); None: corpus only.
    draw: Callable[[Builder, Var], Drawn | None] | None = None
    real: bool = True
    complex: bool = True
    min_nd: int = 0
    #: The result depends on no input (the structure rule's cuts: comparisons, rounding,
    #: sign, integer casts, constant-creating ops). Ops that use a cut inside
    #: (``a * astype(signbit(a), ...)``, ``where(a > b, a, b)``) do not set it.
    cuts: bool = False
    #: With ``cuts``: only a real result cuts (complex ``sign`` is ``z / |z|``).
    cuts_real_only: bool = False
    #: Where the derivative (or the value, for cuts) is undefined: Degenerate there.
    kinks: str = ""
    #: Example shape of an argument when the generator must make one.
    example: tuple[int, ...] = (2, 3)

    def fits(self, a: Var) -> bool:
        return (
            a.floating
            and (self.complex if a.complex else self.real)
            and a.nd >= self.min_nd
            and self.draw is not None
        )


def _same(a: Var, **p: Any) -> Drawn:
    return (a,), a.shape, a.dtype, p


def _real_dt(dtype: str) -> str:
    return {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)


def _bshape(a: Var, b: Var) -> tuple[int, ...]:
    return tuple(np.broadcast_shapes(a.shape, b.shape))


def _promote(a: Var, b: Var) -> str:
    cplx = a.complex or b.complex
    wide = any(d in ("float64", "complex128") for d in (a.dtype, b.dtype))
    return ("complex128" if wide else "complex64") if cplx else ("float64" if wide else "float32")


def _binary(b: Builder, a: Var) -> Drawn:
    o = b.partner(a, broadcast=True)
    args = (a, o) if b.choice((True, False)) else (o, a)
    return args, _bshape(a, o), _promote(a, o), {}


def _axis_drawn(b: Builder, a: Var) -> Any:
    nd = a.nd
    if nd == 0:
        return None
    return b.choice((None, b.integer(-nd, nd - 1), tuple(range(nd))))


def _reduced_shape(shape: tuple[int, ...], axis: Any, keep: bool) -> tuple[int, ...]:
    nd = len(shape)
    if axis is None:
        axes = set(range(nd))
    elif isinstance(axis, int):
        axes = {axis % nd}
    else:
        axes = {i % nd for i in axis}
    if keep:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def _reduce(b: Builder, a: Var, **p: Any) -> Drawn:
    axis = _axis_drawn(b, a)
    keep = b.choice((True, False))
    return (a,), _reduced_shape(a.shape, axis, keep), a.dtype, {"axis": axis, "keepdims": keep, **p}


def _extreme(b: Builder, a: Var) -> Drawn | None:
    """max/min: declined where a reduced slice has no element. The maximum of nothing is
    implementation-defined (the array API standard): torch, paddle, jax and NumPy each
    raise their own error and no backend answers, so there is nothing to compare; the
    reference's one-hot mask failed on it (differential seed 2026, program 2562)."""
    drawn = _reduce(b, a)
    axis = drawn[3]["axis"]
    axes = range(a.nd) if axis is None else (axis,) if isinstance(axis, int) else axis
    if math.prod(a.shape[i] for i in axes) == 0:
        return None
    return drawn


# ---- renderers --------------------------------------------------------------------------
def _fn(name: str) -> Callable[[tuple[str, ...], dict[str, Any]], str]:
    return lambda a, p: f"xp.{name}({', '.join(a)})"


def _dom(kind: str, a: str) -> str:
    """The argument of a domain-limited function, made to lie in its domain."""
    if kind == "pos":  # log, sqrt, pow's base: a*a + 0.25 > 0 (complex: off the cut)
        return f"{a} * {a} + 0.25"
    if kind == "unit":  # asin, acos, atanh: |a / (a*a + 1)| <= 0.5
        return f"{a} / ({a} * {a} + 1.0)"
    if kind == "gt1":  # acosh: a*a + 1.25 > 1
        return f"{a} * {a} + 1.25"
    return a


def _dom_ref(kind: str, a: RV) -> RV:
    if kind == "pos":
        return F.add_c(F.mul(a, a), 0.25)
    if kind == "unit":
        return F.mul(a, F.recip(F.add_c(F.mul(a, a), 1.0)))
    if kind == "gt1":
        return F.add_c(F.mul(a, a), 1.25)
    return a


def _red(name: str) -> Callable[[tuple[str, ...], dict[str, Any]], str]:
    return lambda a, p: f"xp.{name}({a[0]}, axis={p['axis']!r}, keepdims={p['keepdims']})"


def _index_code(a: tuple[str, ...], p: dict[str, Any]) -> str:
    idx = p["index"]
    if idx[0] == "int":
        return f"{a[0]}[{idx[1]}]"
    if idx[0] == "slice":
        return f"{a[0]}[{idx[1]}:{idx[2]}]"
    return f"{a[0]}[{a[1]}]"  # a boolean mask or an integer index array


def _index_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    idx = p["index"]
    if idx[0] == "int":
        return F.getitem(r[0], idx[1], alias=True)
    if idx[0] == "slice":
        return F.getitem(r[0], slice(idx[1], idx[2]), alias=True)
    if idx[0] == "array":
        return F.getitem(r[0], r[1].v.astype(np.int64))
    return F.getitem(r[0], np.nonzero(r[1].v.astype(bool)))


# ---- draws of the families -----------------------------------------------------------------
def _draw_index(kind: str) -> Callable[[Builder, Var], Drawn | None]:
    def draw(b: Builder, a: Var) -> Drawn | None:
        n0 = a.shape[0]
        if n0 == 0 and kind != "mask":  # no element to pick along an empty axis
            return None
        if kind == "int":
            i = b.integer(-n0, n0 - 1)
            return (a,), a.shape[1:], a.dtype, {"index": ("int", i)}
        if kind == "slice":
            lo = b.integer(0, n0 - 1)
            hi = b.integer(lo + 1, n0)
            return (a,), (hi - lo, *a.shape[1:]), a.dtype, {"index": ("slice", lo, hi)}
        if kind == "array":
            k = b.integer(1, 4)
            ix = [b.integer(-n0, n0 - 1) for _ in range(k)]
            m = b.data(ix, "int64")
            return (a, m), (k, *a.shape[1:]), a.dtype, {"index": ("array",)}
        full = b.choice((True, False))
        m = b.mask(a.shape if full else a.shape[:1])
        count = int(np.sum(np.asarray(m_data(m))))
        shape = (count,) if full else (count, *a.shape[1:])
        return (a, m), shape, a.dtype, {"index": ("mask",)}

    return draw


#: The data of the mask and index leaves the generator made (read back for shapes).
_LEAF_DATA: dict[str, Any] = {}


def m_data(v: Var) -> Any:
    return _LEAF_DATA[v.name]


def remember(name: str, data: Any) -> None:
    """Record a constant leaf's data (the generator calls it for masks and indices)."""
    if len(_LEAF_DATA) > 10000:
        _LEAF_DATA.clear()
    _LEAF_DATA[name] = data


def _matmul(b: Builder, a: Var) -> Drawn | None:
    if a.nd != 2:
        return None
    m, k = a.shape
    o = b.partner(a, b.choice(((k,), (k, 2), (k, 3))))
    return (a, o), (m,) if o.nd == 1 else (m, o.shape[1]), _promote(a, o), {}


def _square(b: Builder, a: Var) -> Var | None:
    """A square 2x2 argument for the matrix functions: ``a`` itself, or a partner."""
    if a.shape == (2, 2):
        return a
    return b.partner(a, (2, 2))


def _mat(fn: Callable[[Builder, Var], Drawn | None]) -> Callable[[Builder, Var], Drawn | None]:
    def draw(b: Builder, a: Var) -> Drawn | None:
        s = _square(b, a)
        return None if s is None else fn(b, s)

    return draw


def _eye(a: str, p: dict[str, Any]) -> str:
    return f"k.eye({p['n']}, {p['dtype']!r})"


# ---- the table ---------------------------------------------------------------------------
def _unary(
    name: str,
    ref: Callable[[RV], RV],
    *,
    dom: str = "",
    real: bool = True,
    complex_: bool = True,
    kinks: str = "",
    covers: tuple[str, ...] | None = None,
) -> OpSpec:
    return OpSpec(
        name,
        covers or (name,),
        lambda a, p: f"xp.{name}({_dom(dom, a[0])})",
        lambda r, p: ref(_dom_ref(dom, r[0])),
        lambda b, a: _same(a),
        real=real,
        complex=complex_,
        kinks=kinks,
    )


def _cut_unary(name: str, fn: Any, kinks: str) -> OpSpec:
    return OpSpec(
        name,
        (name,),
        lambda a, p: f"xp.{name}({a[0]})",
        lambda r, p: F.floor_like(r[0], fn, name),
        lambda b, a: _same(a),
        complex=False,
        cuts=True,
        kinks=kinks,
    )


def _cmp(name: str, fn: Any) -> OpSpec:
    """A comparison feeding ``where``: ``xp.where(cmp(a, b), a, b)``."""

    def draw(b: Builder, a: Var) -> Drawn:
        o = b.partner(a, broadcast=True)
        return (a, o), _bshape(a, o), _promote(a, o), {}

    return OpSpec(
        f"where_{name}",
        (name, "where"),
        lambda a, p: f"xp.where(xp.{name}({a[0]}, {a[1]}), {a[0]}, {a[1]})",
        lambda r, p: F.where(F.compare(r[0], r[1], fn).v, r[0], r[1]),
        draw,
        complex=name in ("equal", "not_equal"),
        kinks="ties",
    )


def _mask_cast(name: str, code: str, fn: Any, complex_: bool = False) -> OpSpec:
    """A boolean-valued function used as a constant factor: ``a * astype(f(a), dtype)``."""
    return OpSpec(
        name,
        (name, "astype"),
        lambda a, p: f"{a[0]} * xp.astype({code.format(a=a[0])}, xp.{p['dtype']})",
        lambda r, p: F.mul(r[0], F.cut(fn(r[0]).astype(float), r[0].dtype)),
        lambda b, a: _same(a, dtype=a.dtype),
        complex=complex_,
    )


def _signbit_ref(r: RV) -> np.ndarray:
    F._away(r.v, 0.0, "signbit at 0")
    out: np.ndarray = np.signbit(r.v)
    return out


def _logical(name: str, fn: Any) -> OpSpec:
    """A logical function of two masks (``a > 0``, ``b < 0``) feeding ``where``."""

    def ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
        m1 = F.compare(r[0], F.const(0.0, r[0].dtype), np.greater).v
        m2 = F.compare(r[1], F.const(0.0, r[1].dtype), np.less).v
        m = np.logical_not(m1) if name == "logical_not" else fn(m1, m2)
        return F.where(m, r[0], r[1])

    code = (
        "xp.where(xp.logical_not({a} > 0), {a}, {b})"
        if name == "logical_not"
        else "xp.where(xp.{n}({a} > 0, {b} < 0), {a}, {b})"
    )

    def draw(b: Builder, a: Var) -> Drawn:
        o = b.partner(a, broadcast=True)
        return (a, o), _bshape(a, o), _promote(a, o), {}

    return OpSpec(
        name,
        (name, "where"),
        lambda a, p: code.format(a=a[0], b=a[1], n=name),
        ref,
        draw,
        complex=False,
        kinks="a sign at 0",
    )


def _gather_op(
    name: str,
    covers: tuple[str, ...],
    render: Callable[[tuple[str, ...], dict[str, Any]], str],
    how: Callable[[np.ndarray, dict[str, Any]], np.ndarray],
    draw: Callable[[Builder, Var], Drawn | None],
    min_nd: int = 1,
) -> OpSpec:
    return OpSpec(
        name,
        covers,
        render,
        lambda r, p: F.gather(r[0], lambda i: how(i, p)),
        draw,
        min_nd=min_nd,
    )


def _ax(b: Builder, a: Var) -> int:
    return b.integer(-a.nd, a.nd - 1)


def _flip_draw(b: Builder, a: Var) -> Drawn:
    return _same(a, axis=b.choice((None, _ax(b, a))))


def _roll_draw(b: Builder, a: Var) -> Drawn:
    return _same(a, shift=b.integer(-2, 2), axis=b.choice((None, _ax(b, a))))


def _tile_draw(b: Builder, a: Var) -> Drawn:
    reps = tuple(b.integer(1, 2) for _ in range(a.nd))
    return (a,), tuple(n * r for n, r in zip(a.shape, reps, strict=True)), a.dtype, {"reps": reps}


def _repeat_draw(b: Builder, a: Var) -> Drawn:
    r = b.integer(1, 3)
    ax = b.choice((None, _ax(b, a)))
    if ax is None:
        shape: tuple[int, ...] = (int(np.prod(a.shape)) * r,)
    else:
        s = list(a.shape)
        s[ax] *= r
        shape = tuple(s)
    return (a,), shape, a.dtype, {"repeats": r, "axis": ax}


def _moveaxis_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd < 2:
        return None
    src, dst = _ax(b, a), _ax(b, a)
    order = list(range(a.nd))
    order.insert(dst % a.nd, order.pop(src % a.nd))
    return (a,), tuple(a.shape[i] for i in order), a.dtype, {"source": src, "destination": dst}


def _moveaxis_how(i: np.ndarray, p: dict[str, Any]) -> np.ndarray:
    return np.moveaxis(i, p["source"], p["destination"])


def _broadcast_draw(b: Builder, a: Var) -> Drawn:
    shape = b.choice(((2, *a.shape), (3, *a.shape)))
    return (a,), shape, a.dtype, {"shape": shape}


def _take_draw(b: Builder, a: Var) -> Drawn | None:
    ax = _ax(b, a)
    n = a.shape[ax]
    if n == 0:  # no element to pick along an empty axis
        return None
    k = b.integer(1, 4)
    idx = b.data([b.integer(0, n - 1) for _ in range(k)], "int64")
    s = list(a.shape)
    s[ax] = k
    return (a, idx), tuple(s), a.dtype, {"axis": ax}


def _take_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    ix = r[1].v.astype(np.int64)
    return F.gather(r[0], lambda i: np.take(i, ix, axis=p["axis"]))


def _take_along_draw(b: Builder, a: Var) -> Drawn | None:
    ax = _ax(b, a)
    n = a.shape[ax]
    if n == 0:  # no element to pick along an empty axis
        return None
    s = list(a.shape)
    s[ax] = b.integer(1, 3)
    flat = [b.integer(0, n - 1) for _ in range(math.prod(s))]
    values = np.reshape(np.array(flat, dtype=np.int64), s).tolist()
    idx = b.data(values, "int64", tuple(s))
    return (a, idx), tuple(s), a.dtype, {"axis": ax}


def _take_along_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    ix = r[1].v.astype(np.int64)
    return F.gather(r[0], lambda i: np.take_along_axis(i, ix, axis=p["axis"]))


def _sort_draw(b: Builder, a: Var) -> Drawn:
    return _same(a, axis=_ax(b, a), descending=b.choice((False, True)))


def _sort_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a, ax = r[0], p["axis"]
    key = -a.v if p["descending"] else a.v
    s = np.sort(key, axis=ax)
    if a.shape[ax] > 1 and np.any(np.abs(np.diff(s, axis=ax)) < F.KINK):
        msg = "sort at a tie"
        raise F.Degenerate(msg)
    order = np.argsort(key, axis=ax, kind="stable")
    return F.gather(a, lambda i: np.take_along_axis(i, order, axis=ax))


def _argsel_draw(b: Builder, a: Var) -> Drawn | None:
    if math.prod(a.shape) == 0:  # argmax of no element: every framework raises
        return None
    o = b.partner(a, a.shape)
    return (a, o), (1,), a.dtype, {}


def _argsel_ref(name: str) -> Callable[[Sequence[RV], dict[str, Any]], RV]:
    def ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
        key = r[1].v.ravel()
        if key.size > 1:
            s = np.sort(key)
            gap = s[-1] - s[-2] if name == "argmax" else s[1] - s[0]
            if gap < F.KINK:
                msg = f"{name} at a tie"
                raise F.Degenerate(msg)
        i = int(np.argmax(key) if name == "argmax" else np.argmin(key))
        return F.take_flat(r[0], np.array([i]))

    return ref


def _argsort_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd != 1:
        return None
    o = b.partner(a, a.shape)
    return (a, o), a.shape, a.dtype, {}


def _argsort_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    key = r[1].v
    if key.size > 1 and np.any(np.diff(np.sort(key)) < F.KINK):
        msg = "argsort at a tie"
        raise F.Degenerate(msg)
    return F.take_flat(r[0], np.argsort(key, kind="stable"))


def _nonzero_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    return F.take_flat(r[0], np.nonzero(r[1].v.ravel().astype(bool))[0])


def _nonzero_draw(b: Builder, a: Var) -> Drawn:
    m = b.mask(a.shape)
    return (a, m), (int(np.sum(np.asarray(m_data(m)))),), a.dtype, {}


def _searchsorted_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd != 1:
        return None
    o = b.partner(a, (3,))
    return (a, o), a.shape, a.dtype, {"dtype": a.dtype}


def _searchsorted_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a, s = r
    edges = np.sort(s.v)
    F._away(a.v[:, None], edges[None, :], "searchsorted at an edge")
    return F.mul(a, F.cut(np.searchsorted(edges, a.v).astype(float), a.dtype))


def _stack_draw(b: Builder, a: Var) -> Drawn:
    o = b.partner(a, a.shape)
    ax = b.integer(-a.nd - 1, a.nd)
    dims = list(a.shape)
    dims.insert(ax % (a.nd + 1), 2)
    return (a, o), tuple(dims), _promote(a, o), {"axis": ax}


def _concat_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd == 0:
        return None
    o = b.partner(a, a.shape)
    ax = _ax(b, a)
    dims = list(a.shape)
    dims[ax] *= 2
    return (a, o), tuple(dims), _promote(a, o), {"axis": ax}


def _where_draw(b: Builder, a: Var) -> Drawn:
    o = b.partner(a, a.shape)
    m = b.mask(a.shape)
    return (a, o, m), a.shape, _promote(a, o), {}


def _reshape_draw(b: Builder, a: Var) -> Drawn:
    size = int(np.prod(a.shape))
    targets = [(size,), (1, size)] + ([(size // 2, 2)] if size % 2 == 0 and size else [])
    shape = tuple(b.choice(targets))
    return (a,), shape, a.dtype, {"shape": shape}


def _permute_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd < 2:
        return None
    axes = tuple(int(i) for i in np.roll(np.arange(a.nd), b.integer(1, a.nd - 1)))
    return (a,), tuple(a.shape[i] for i in axes), a.dtype, {"axes": axes}


def _expand_draw(b: Builder, a: Var) -> Drawn:
    ax = b.integer(0, a.nd)
    return (a,), (*a.shape[:ax], 1, *a.shape[ax:]), a.dtype, {"axis": ax}


def _squeeze_draw(b: Builder, a: Var) -> Drawn | None:
    if 1 not in a.shape:
        return None
    ax = a.shape.index(1)
    return (a,), a.shape[:ax] + a.shape[ax + 1 :], a.dtype, {"axis": ax}


def _squeeze_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a = r[0]
    ax = p["axis"] % a.v.ndim
    return F.reshape(a, a.shape[:ax] + a.shape[ax + 1 :])


def _expand_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a = r[0]
    ax = p["axis"] % (a.v.ndim + 1)
    return F.reshape(a, (*a.shape[:ax], 1, *a.shape[ax:]))


def _remainder_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    """``remainder(a, b * b + 0.5)``: the divisor kept away from 0."""
    return F.remainder(r[0], F.add_c(F.mul(r[1], r[1]), 0.5))


def _scalar_draw(b: Builder, a: Var) -> Drawn:
    return _same(a, c=b.choice((0.5, -1.5, 2.0, 3.0)))


def _norm_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd == 0:
        return None
    axis = _axis_drawn(b, a)
    keep = b.choice((True, False))
    ord_ = b.choice((2, 1, "inf", "-inf", 3))
    axes = range(a.nd) if axis is None else (axis,) if isinstance(axis, int) else axis
    if ord_ in ("inf", "-inf") and math.prod(a.shape[i] for i in axes) == 0:
        # the max or min of no element: torch, paddle and NumPy raise (each its own
        # error), jax gives 0 for inf; the reference failed (differential seed 7,
        # program 454)
        ord_ = 2
    shape = _reduced_shape(a.shape, axis, keep)
    return (a,), shape, _real_dt(a.dtype), {"axis": axis, "keepdims": keep, "ord": ord_}


def _ord_code(o: Any) -> str:
    return (
        {"inf": "float('inf')", "-inf": "-float('inf')"}.get(o, repr(o))
        if isinstance(o, str) and o in ("inf", "-inf")
        else repr(o)
    )


def _vnorm_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a, o = r[0], p["ord"]
    if o in (1, 2):
        return F.vector_norm(a, p["axis"], p["keepdims"], o)
    mag = F.absolute(a)
    if o in ("inf", "-inf"):
        return F.rmax(mag, p["axis"], p["keepdims"], smallest=o == "-inf")
    return F.powc(F.rsum(F.powc(mag, o), p["axis"], p["keepdims"]), 1.0 / o)


def _mnorm_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a, o = r[0], p["ord"]
    if 0 in a.shape[-2:]:
        # a matrix with no row or no column: 0 for every ord drawn (a sum of nothing,
        # the largest of no non-negative number, the smallest of zero sums), as NumPy's
        # linalg.norm; a sum over the matrix axes, so it depends on the input
        return F.rsum(F.absolute(a), (-2, -1), p["keepdims"])
    if o == "fro":
        return F.vector_norm(a, (-2, -1), p["keepdims"], 2)
    mag = F.absolute(a)
    axis = -2 if o in (1, -1) else -1  # column sums for 1, row sums for inf
    sums = F.rsum(mag, axis, True)
    out = F.rmax(sums, (-2, -1), True, smallest=o in (-1, "-inf"))
    return out if p["keepdims"] else F.reshape(out, a.shape[:-2])


def _mnorm_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd < 2:
        return None
    keep = b.choice((True, False))
    o = b.choice(("fro", 1, "inf", -1, "-inf"))
    m, n = a.shape[-2:]
    if m == 0 or n == 0:
        # a matrix with no row or no column: every ord whose norm is defined there, as
        # NumPy's linalg.norm (docs/namespace.md, "Norms of empty matrices"): the sums
        # and maxima are 0, -1 needs a column and -inf a row; -2 (the smallest of no
        # singular value) is a ValueError, left to tests/test_divergences_2026.py
        ords = ("fro", "nuc", 1, 2, "inf") + ((-1,) if n else ()) + (("-inf",) if m else ())
        o = b.choice(ords)
    shape = (*a.shape[:-2], 1, 1) if keep else a.shape[:-2]
    return (a,), shape, _real_dt(a.dtype), {"keepdims": keep, "ord": o}


def _cum_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd == 0:
        return None
    ax = _ax(b, a)
    init = b.choice((False, True))
    s = list(a.shape)
    s[ax] += int(init)
    return (a,), tuple(s), a.dtype, {"axis": ax, "include_initial": init}


def _stat_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd == 0 or a.shape[-1] < 2:
        return None
    axis = b.choice((-1, None))
    keep = b.choice((True, False))
    return (
        (a,),
        _reduced_shape(a.shape, axis, keep),
        a.dtype,
        {
            "axis": axis,
            "keepdims": keep,
            "correction": b.choice((0, 1)),
        },
    )


def _clip_draw(b: Builder, a: Var) -> Drawn:
    lo = b.choice((-0.7, -0.3, None))
    hi = b.choice((0.8, 0.4, None)) if lo is not None else b.choice((0.8, 0.4))
    return _same(a, lo=lo, hi=hi)


def _clip_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    lo = -np.inf if p["lo"] is None else p["lo"]
    hi = np.inf if p["hi"] is None else p["hi"]
    return F.clip(r[0], lo, hi)


def _astype_draw(b: Builder, a: Var) -> Drawn:
    """The other width of ``a``'s kind, or (from a real dtype) the complex dtype of its
    width: a real call may compute through complex values."""
    to = b.choice(
        {
            "float32": ("float64", "complex64"),
            "float64": ("float32", "complex128"),
            "complex64": ("complex128",),
            "complex128": ("complex64",),
        }[a.dtype]
    )
    return (a,), a.shape, to, {"dtype": to}


def _astype_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a = r[0]
    to = p["dtype"]
    if "complex" in to and not a.is_complex:  # rounded to the real width, then complex
        part = _real_dt(to)
        mid = a if a.dtype == part else _astype_ref((a,), {"dtype": part})
        return F.to_complex(mid, to)

    def apply(a: RV) -> RV:
        return _astype_ref((a,), p)

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (_astype_ref((ct,), {"dtype": a.dtype if ct.is_complex else _real_dt(a.dtype)}),)

    v = a.v
    if to in ("float32", "complex64"):  # the value rounds to the narrower type
        v = v.astype(np.complex64 if "complex" in to else np.float32)
    return F._mk(v, to, (a,), apply, vjp)


def _int_cast_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a = r[0]
    F._away(a.v, np.round(a.v), "an integer cast at an integer")
    return F.cut(np.trunc(a.v), a.dtype)


def _like_draw(b: Builder, a: Var) -> Drawn:
    return _same(a, dtype=a.dtype)


def _const_like(name: str) -> OpSpec:
    code = {
        "ones_like": "xp.ones_like({a})",
        "zeros_like": "xp.zeros_like({a})",
        "full_like": "xp.full_like({a}, 2.5)",
        "empty_like": "xp.full_like(xp.empty_like({a}), -1.5)",
    }[name]
    val = {"ones_like": 1.0, "zeros_like": 0.0, "full_like": 2.5, "empty_like": -1.5}[name]
    covers = ("empty_like", "full_like") if name == "empty_like" else (name,)
    return OpSpec(
        name,
        covers,
        lambda a, p: code.format(a=a[0]),
        lambda r, p: F.cut(np.full(r[0].shape, val), r[0].dtype),
        lambda b, a: _same(a),
        cuts=True,
    )


def _pair_real(b: Builder, a: Var) -> Drawn:
    o = b.partner(a, broadcast=True)
    return (a, o), _bshape(a, o), _promote(a, o), {}


def _vec_draw(n: int) -> Callable[[Builder, Var], Drawn | None]:
    def draw(b: Builder, a: Var) -> Drawn | None:
        if a.nd != 1:
            return None
        o = b.partner(a, (n,))
        return (a, o), (a.shape[0], n), _promote(a, o), {}

    return draw


def _cross_draw(b: Builder, a: Var) -> Drawn | None:
    if a.shape[-1:] != (3,):
        x = b.partner(a, (2, 3))
        a = x
    o = b.partner(a, a.shape)
    return (a, o), a.shape, _promote(a, o), {}


def _cross_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a, c = r
    comps = []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        aj, ak = F.getitem(a, (..., j)), F.getitem(a, (..., k))
        cj, ck = F.getitem(c, (..., j)), F.getitem(c, (..., k))
        comps.append(F.sub(F.mul(aj, ck), F.mul(ak, cj)))
    return F.stack(comps, -1)


def _vecdot_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd == 0:
        return None
    o = b.partner(a, a.shape)
    return (a, o), a.shape[:-1], _promote(a, o), {}


def _vecdot_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a, c = r
    return F.rsum(F.mul(F._cj(a), c), -1, False)


def _tensordot_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd == 0:
        return None
    k = a.shape[-1]
    o = b.partner(a, b.choice(((k,), (k, 2))))
    return (a, o), (*a.shape[:-1], *o.shape[1:]), _promote(a, o), {"axes": 1}


def _tensordot_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a, c = r
    k = a.shape[-1]  # (0 contracts an empty axis: zeros)
    lhs = F.reshape(a, (math.prod(a.shape[:-1]), k))
    rhs = F.reshape(c, (k, math.prod(c.shape[1:])))
    return F.reshape(F.matmul(lhs, rhs), (*a.shape[:-1], *c.shape[1:]))


def _diag_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd != 2:
        return None
    off = b.integer(-1, 1)
    m, n = a.shape
    length = max(0, min(m, n - off) if off >= 0 else min(m + off, n))
    if length == 0:
        return None
    return (a,), (length,), a.dtype, {"offset": off}


def _diag_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    return F.gather(r[0], lambda i: np.diagonal(i, offset=p["offset"]).copy())


def _trace_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    return F.rsum(_diag_ref(r, p), -1, False)


def _trace_draw(b: Builder, a: Var) -> Drawn | None:
    d = _diag_draw(b, a)
    return None if d is None else ((a,), (), a.dtype, d[3])


def _solve_draw(b: Builder, a: Var) -> Drawn | None:
    s = _square(b, a)
    if s is None:
        return None
    rhs = b.partner(s, (2, b.integer(1, 2)))
    return (s, rhs), rhs.shape, _promote(s, rhs), {}


def _mpow_draw(b: Builder, a: Var) -> Drawn | None:
    s = _square(b, a)
    return None if s is None else ((s,), s.shape, s.dtype, {"n": b.choice((2, 3))})


def _mpow_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    out = r[0]
    for _ in range(p["n"] - 1):
        out = F.matmul(out, r[0])
    return out


def _slogdet_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    d = F.det2(r[0])
    if np.any(np.abs(d.v) < 0.05):
        msg = "slogdet near a singular matrix"
        raise F.Degenerate(msg)
    if d.is_complex:
        return F.scale(F.log(F.real(F.mul(d, F.conj(d)))), 0.5)
    return F.log(F.absolute(d))


def _spd_code(a: str, p: dict[str, Any]) -> str:
    return f"{a} @ xp.matrix_transpose({a}) + k.eye(2, {p['dtype']!r})"


def _spd_ref(a: RV) -> RV:
    return F.add(F.matmul(a, F.permute(a, (1, 0))), F.cut(np.eye(2), a.dtype))


def _sym_code(a: str) -> str:
    return f"{a} + xp.matrix_transpose({a})"


def _sym_ref(a: RV) -> RV:
    return F.add(a, F.permute(a, (1, 0)))


def _mat_same(b: Builder, a: Var) -> Drawn:
    return _same(a, dtype=a.dtype)


def _qr_draw(b: Builder, a: Var) -> Drawn | None:
    s = a if a.shape in ((2, 2), (3, 2)) else b.partner(a, b.choice(((2, 2), (3, 2))))
    which = b.choice((0, 1))
    shape = s.shape if which == 0 else (2, 2)
    return (s,), shape, s.dtype, {"which": which}


def _svd_draw(b: Builder, a: Var) -> Drawn | None:
    s = _square(b, a)
    if s is None:
        return None
    which = b.choice((0, 1, 2))
    return (s,), (2,) if which == 1 else (2, 2), s.dtype, {"which": which}


def _svd_code(a: tuple[str, ...], p: dict[str, Any]) -> str:
    if p["which"] == 1:
        return f"xp.linalg.svd({a[0]})[1]"
    return f"xp.square(xp.linalg.svd({a[0]})[{p['which']}])"


def _eigh_draw(b: Builder, a: Var) -> Drawn | None:
    s = _square(b, a)
    if s is None:
        return None
    which = b.choice((0, 1))
    return (s,), (2,) if which == 0 else (2, 2), s.dtype, {"which": which}


def _eigh_code(a: tuple[str, ...], p: dict[str, Any]) -> str:
    e = f"xp.linalg.eigh({_sym_code(a[0])})"
    return f"{e}[0]" if p["which"] == 0 else f"xp.square({e}[1])"


def _eigh_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    s = _sym_ref(r[0])
    return F.eigvalsh2(s) if p["which"] == 0 else F.eigvecs_sq2(s)


def _unstack_draw(b: Builder, a: Var) -> Drawn | None:
    ax = _ax(b, a)
    if a.shape[ax] == 0:  # no slice to take along an empty axis
        return None
    i = b.integer(0, a.shape[ax] - 1)
    return (a,), a.shape[: ax % a.nd] + a.shape[ax % a.nd + 1 :], a.dtype, {"axis": ax, "i": i}


def _unstack_how(i: np.ndarray, p: dict[str, Any]) -> np.ndarray:
    out: np.ndarray = np.take(i, p["i"], axis=p["axis"])
    return out


def _bcast_arrays_draw(b: Builder, a: Var) -> Drawn:
    o = b.partner(a, broadcast=True)
    shape = _bshape(a, o)
    return (a, o), shape, a.dtype, {"i": 0}


def _bcast_arrays_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    shape = tuple(np.broadcast_shapes(r[0].shape, r[1].shape))
    return F.broadcast_to(r[0], shape)


def _meshgrid_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd != 1:
        return None
    o = b.partner(a, (b.integer(2, 3),))
    ij = b.choice(("xy", "ij"))
    which = b.choice((0, 1))
    n, m = a.shape[0], o.shape[0]
    shape = (m, n) if ij == "xy" else (n, m)
    return (a, o), shape, a.dtype if which == 0 else o.dtype, {"indexing": ij, "i": which}


def _meshgrid_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a, o = r
    n, m = a.shape[0], o.shape[0]
    grids: list[np.ndarray] = list(np.meshgrid(np.arange(n), np.arange(m), indexing=p["indexing"]))
    ia: np.ndarray = grids[0]
    io: np.ndarray = grids[1]
    return F.take_flat(r[p["i"]], ia if p["i"] == 0 else io)


def _tri_draw(b: Builder, a: Var) -> Drawn | None:
    if a.nd < 2:
        return None
    return _same(a, k=b.integer(-1, 1))


def _fft_mat(n: int, inverse: bool) -> np.ndarray:
    j = np.arange(n)
    w = np.exp((2j if inverse else -2j) * np.pi * np.outer(j, j) / n)
    out: np.ndarray = w / n if inverse else w
    return out


def _along(a: RV, axis: int, mat: np.ndarray, dtype: str) -> RV:
    """``a`` times the constant matrix ``mat`` along ``axis`` (a DFT, say)."""
    last = F.moveaxis(a, axis, -1)
    n = last.shape[-1]
    # (rows: the product of the other axes, 0 where one is empty: an fft of an empty
    # diff along a non-empty axis, seed 77 program 85)
    flat = F.reshape(last, (math.prod(last.shape[:-1]), n))
    out = F.matmul(flat, F.cut(mat, dtype))
    return F.moveaxis(F.reshape(out, (*last.shape[:-1], mat.shape[1])), -1, axis)


def _cplx(a: RV) -> RV:
    if a.is_complex:
        return a
    return F.to_complex(a, "complex128" if a.dtype == "float64" else "complex64")


def _fft_ref(kind: str) -> Callable[[Sequence[RV], dict[str, Any]], RV]:
    def ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
        a = r[0]
        axes = [p["axis"]] if "axis" in p else list(range(a.v.ndim))
        out = a
        if kind in ("fft", "ifft", "fftn", "ifftn"):
            inv = kind.startswith("i")
            out = _cplx(out)
            for ax in axes:
                out = _along(out, ax, _fft_mat(out.shape[ax], inv), out.dtype)
            return out
        if kind in ("rfft", "rfftn"):
            out = _cplx(out)
            for k, ax in enumerate(reversed(axes)):
                n = out.shape[ax]
                m = _fft_mat(n, False)
                out = _along(out, ax, m[:, : n // 2 + 1] if k == 0 else m, out.dtype)
            return out
        if kind in ("irfft", "hfft"):
            ax = axes[-1]
            src = F.conj(out) if kind == "hfft" else out
            m_in = src.shape[ax]
            n = 2 * (m_in - 1)
            j = np.arange(m_in)[:, None]
            w = np.where((j == 0) | (j == n // 2), 1.0, 2.0)
            g = w * np.exp(2j * np.pi * j * np.arange(n)[None, :] / n) / n
            if kind == "hfft":
                g = g * n
            return F.real(_along(src, ax, g, src.dtype))
        if kind == "ihfft":
            ax = axes[-1]
            n = out.shape[ax]
            m = np.conj(_fft_mat(n, False)[:, : n // 2 + 1]) / n
            return _along(_cplx(out), ax, m, _cplx(out).dtype)
        if kind == "irfftn":
            for ax in axes[:-1]:
                out = _along(out, ax, _fft_mat(out.shape[ax], True), out.dtype)
            return _fft_ref("irfft")((out,), {"axis": axes[-1]})
        msg = kind
        raise ValueError(msg)

    return ref


def _fft_draw(kind: str) -> Callable[[Builder, Var], Drawn | None]:
    def draw(b: Builder, a: Var) -> Drawn | None:
        cdt = a.dtype if a.complex else ("complex128" if a.dtype == "float64" else "complex64")
        rdt = _real_dt(a.dtype)
        # a transform of length 0 is invalid (NumPy, torch and jax all refuse it)
        if kind.endswith("n"):
            if 0 in a.shape:
                return None
            shape = list(a.shape)
            if kind == "rfftn":
                shape[-1] = shape[-1] // 2 + 1
            if kind == "irfftn":
                shape[-1] = 2 * (shape[-1] - 1)
                if shape[-1] <= 0:
                    return None
            return (a,), tuple(shape), rdt if kind == "irfftn" else cdt, {}
        ax = _ax(b, a)
        if a.shape[ax] == 0:
            return None
        shape = list(a.shape)
        if kind in ("rfft", "ihfft"):
            shape[ax] = shape[ax] // 2 + 1
        if kind in ("irfft", "hfft"):
            shape[ax] = 2 * (shape[ax] - 1)
            if shape[ax] <= 0:
                return None
        out = rdt if kind in ("irfft", "hfft") else cdt
        return (a,), tuple(shape), out, {"axis": ax}

    return draw


def _fft_spec(kind: str) -> OpSpec:
    real_in = kind in ("rfft", "rfftn", "ihfft")
    cplx_in = kind in ("irfft", "irfftn", "hfft")
    return OpSpec(
        f"fft.{kind}",
        (f"fft.{kind}",),
        lambda a, p: (
            f"xp.fft.{kind}({a[0]}, axis={p['axis']})" if "axis" in p else f"xp.fft.{kind}({a[0]})"
        ),
        _fft_ref(kind),
        _fft_draw(kind),
        real=not cplx_in,
        complex=not real_in,
        min_nd=1,
    )


def _shift_how(inverse: bool) -> Callable[[np.ndarray, dict[str, Any]], np.ndarray]:
    def how(i: np.ndarray, p: dict[str, Any]) -> np.ndarray:
        out: np.ndarray = np.fft.ifftshift(i) if inverse else np.fft.fftshift(i)
        return out

    return how


def _ref2(fn: Callable[[RV, RV], RV]) -> Callable[[Sequence[RV], dict[str, Any]], RV]:
    return lambda r, p: fn(r[0], r[1])


def _div_ref(r: Sequence[RV], p: dict[str, Any]) -> RV:
    a, b = r
    return F.mul(a, F.recip(F.add_c(F.mul(b, b), 1.0)))


#: The extension set (docs/namespace.md) and 2024.12's ``reciprocal`` and ``diff``, with
#: their closed forms; `TABLE` draws them after the standard's ops.
EXTENSION_OPS: tuple[OpSpec, ...] = (
    _unary("sigmoid", lambda a: F.recip(F.add_c(F.exp(F.neg(a)), 1.0)), complex_=False),
    _unary("softplus", lambda a: F.log1p(F.exp(a)), complex_=False),
    _unary("erf", F.erf, complex_=False),
    _unary("reciprocal", F.recip, dom="pos"),
    OpSpec(
        "relu",
        ("relu",),
        lambda a, p: f"xp.relu({a[0]})",
        lambda r, p: F.maximum(r[0], F.const(np.zeros_like(r[0].v), r[0].dtype)),
        lambda b, a: _same(a),
        complex=False,
        kinks="0",
    ),
    OpSpec(
        "logsumexp",
        ("logsumexp",),
        lambda a, p: f"xp.logsumexp({a[0]})",
        # of a 0-d array: the array (docs/namespace.md: nothing is reduced), whose
        # derivative 1 is a constant, not exp(a - logsumexp(a)) (differential CI seed)
        lambda r, p: (
            F.reshape(r[0], ()) if r[0].v.ndim == 0 else F.log(F.rsum(F.exp(r[0]), None, False))
        ),
        lambda b, a: ((a,), (), a.dtype, {}),
        complex=False,
    ),
    OpSpec(
        "log_softmax",
        ("log_softmax",),
        lambda a, p: f"xp.log_softmax({a[0]}, axis=-1)",
        lambda r, p: F.sub(r[0], F.log(F.rsum(F.exp(r[0]), -1, True))),
        lambda b, a: _same(a),
        complex=False,
        min_nd=1,
    ),
    OpSpec(
        "softmax",
        ("softmax",),
        lambda a, p: f"xp.softmax({a[0]}, axis=-1)",
        lambda r, p: F.exp(F.sub(r[0], F.log(F.rsum(F.exp(r[0]), -1, True)))),
        lambda b, a: _same(a),
        complex=False,
        min_nd=1,
    ),
    OpSpec(
        "einsum_rowdot",
        ("einsum",),
        lambda a, p: f"xp.einsum('...i,...i->...', {a[0]}, {a[0]})",
        lambda r, p: F.rsum(F.mul(r[0], r[0]), -1, False),
        lambda b, a: ((a,), a.shape[:-1], a.dtype, {}),
        min_nd=1,
    ),
    OpSpec(
        "diff",
        ("diff",),
        lambda a, p: f"xp.diff({a[0]}, axis=-1)",
        lambda r, p: F.sub(
            F.getitem(r[0], (..., slice(1, None))), F.getitem(r[0], (..., slice(None, -1)))
        ),
        # (an empty last axis: the diff is empty too, not of length -1)
        lambda b, a: ((a,), (*a.shape[:-1], max(a.shape[-1] - 1, 0)), a.dtype, {}),
        min_nd=1,
    ),
)


TABLE: tuple[OpSpec, ...] = (
    # -- arithmetic (operators and functions) --
    OpSpec(
        "neg",
        ("negative",),
        lambda a, p: f"-{a[0]}",
        lambda r, p: F.neg(r[0]),
        lambda b, a: _same(a),
    ),
    OpSpec(
        "negative", ("negative",), _fn("negative"), lambda r, p: F.neg(r[0]), lambda b, a: _same(a)
    ),
    OpSpec(
        "positive",
        ("positive",),
        _fn("positive"),
        lambda r, p: F.reshape(r[0], r[0].shape),
        lambda b, a: _same(a),
    ),
    OpSpec(
        "pos",
        ("positive",),
        lambda a, p: f"+{a[0]}",
        lambda r, p: F.reshape(r[0], r[0].shape),
        lambda b, a: _same(a),
    ),
    OpSpec("add", ("add",), lambda a, p: f"{a[0]} + {a[1]}", _ref2(F.add), _binary),
    OpSpec("xp_add", ("add",), _fn("add"), _ref2(F.add), _binary),
    OpSpec("sub", ("subtract",), lambda a, p: f"{a[0]} - {a[1]}", _ref2(F.sub), _binary),
    OpSpec("subtract", ("subtract",), _fn("subtract"), _ref2(F.sub), _binary),
    OpSpec("mul", ("multiply",), lambda a, p: f"{a[0]} * {a[1]}", _ref2(F.mul), _binary),
    OpSpec("multiply", ("multiply",), _fn("multiply"), _ref2(F.mul), _binary),
    OpSpec(
        "square",
        ("multiply",),
        lambda a, p: f"{a[0]} * {a[0]}",
        lambda r, p: F.mul(r[0], r[0]),
        lambda b, a: _same(a),
    ),
    OpSpec(
        "xp_square",
        ("square",),
        _fn("square"),
        lambda r, p: F.mul(r[0], r[0]),
        lambda b, a: _same(a),
    ),
    OpSpec(
        "div",
        ("divide", "multiply", "add"),
        lambda a, p: f"{a[0]} / ({a[1]} * {a[1]} + 1.0)",
        _div_ref,
        _binary,
    ),
    OpSpec(
        "divide",
        ("divide",),
        lambda a, p: f"xp.divide({a[0]}, {a[1]} * {a[1]} + 1.0)",
        _div_ref,
        _binary,
    ),
    OpSpec(
        "scale",
        ("multiply",),
        lambda a, p: f"{a[0]} * {p['c']!r}",
        lambda r, p: F.scale(r[0], p["c"]),
        _scalar_draw,
    ),
    OpSpec(
        "shift",
        ("add",),
        lambda a, p: f"{a[0]} + {p['c']!r}",
        lambda r, p: F.add_c(r[0], p["c"]),
        _scalar_draw,
    ),
    OpSpec(
        "rsub",
        ("subtract",),
        lambda a, p: f"{p['c']!r} - {a[0]}",
        lambda r, p: F.sub(F.const(p["c"], r[0].dtype), r[0]),
        _scalar_draw,
    ),
    OpSpec(
        "pow",
        ("pow",),
        lambda a, p: f"xp.pow({_dom('pos', a[0])}, {a[1]})",
        lambda r, p: F.powt(_dom_ref("pos", r[0]), r[1]),
        _binary,
    ),
    OpSpec(
        "pow_scalar",
        ("pow",),
        lambda a, p: f"{a[0]} ** {p['c']!r}",
        lambda r, p: F.powc(r[0], p["c"]),
        lambda b, a: _same(a, c=b.choice((2, 3, 2.0, -1, 1))),
    ),
    OpSpec(
        "pow_op",
        ("pow",),
        lambda a, p: f"({_dom('pos', a[0])}) ** {a[1]}",
        lambda r, p: F.powt(_dom_ref("pos", r[0]), r[1]),
        _binary,
    ),
    OpSpec(
        "rpow",
        ("pow",),
        lambda a, p: f"{p['c']!r} ** {a[0]}",
        lambda r, p: F.powt(F.const(p["c"], r[0].dtype), r[0]),
        lambda b, a: _same(a, c=b.choice((2.0, 0.5, 3.0))),
    ),
    OpSpec(
        "xp_pow_scalar",
        ("pow",),
        lambda a, p: f"xp.pow({a[0]}, {p['c']!r})",
        lambda r, p: F.powc(r[0], p["c"]),
        lambda b, a: _same(a, c=b.choice((2, 3.0))),
    ),
    # -- smooth elementwise --
    _unary("exp", F.exp),
    _unary("expm1", F.expm1),
    _unary("sin", F.sin),
    _unary("cos", F.cos),
    _unary("tan", F.tan, kinks="poles"),
    _unary("tanh", F.tanh),
    _unary("sinh", F.sinh),
    _unary("cosh", F.cosh),
    _unary("atan", F.atan, kinks="complex cuts"),
    _unary("asinh", F.asinh, kinks="complex cuts"),
    _unary("log", F.log, dom="pos", kinks="cut"),
    _unary("log2", lambda a: F.scale(F.log(a), 1 / np.log(2.0)), dom="pos", kinks="cut"),
    _unary("log10", lambda a: F.scale(F.log(a), 1 / np.log(10.0)), dom="pos", kinks="cut"),
    _unary("log1p", F.log1p, dom="pos", kinks="cut"),
    _unary("sqrt", F.sqrt, dom="pos", kinks="cut"),
    _unary("asin", F.asin, dom="unit", kinks="cuts"),
    _unary("acos", F.acos, dom="unit", kinks="cuts"),
    _unary("atanh", F.atanh, dom="unit", kinks="cuts"),
    _unary("acosh", F.acosh, dom="gt1", kinks="cut"),
    OpSpec(
        "log1p_sq",
        ("log1p", "multiply"),
        lambda a, p: f"xp.log1p({a[0]} * {a[0]})",
        lambda r, p: F.log1p(F.mul(r[0], r[0])),
        lambda b, a: _same(a),
        complex=False,
    ),
    OpSpec(
        "atan2",
        ("atan2",),
        _fn("atan2"),
        _ref2(F.atan2),
        _pair_real,
        complex=False,
        kinks="origin, cut",
    ),
    OpSpec(
        "hypot", ("hypot",), _fn("hypot"), _ref2(F.hypot), _pair_real, complex=False, kinks="origin"
    ),
    OpSpec(
        "logaddexp", ("logaddexp",), _fn("logaddexp"), _ref2(F.logaddexp), _pair_real, complex=False
    ),
    # -- complex parts --
    OpSpec(
        "real",
        ("real",),
        _fn("real"),
        lambda r, p: F.real(r[0]),
        lambda b, a: ((a,), a.shape, _real_dt(a.dtype), {}),
        real=False,
    ),
    OpSpec(
        "imag",
        ("imag",),
        _fn("imag"),
        lambda r, p: F.imag(r[0]),
        lambda b, a: ((a,), a.shape, _real_dt(a.dtype), {}),
        real=False,
    ),
    OpSpec("conj", ("conj",), _fn("conj"), lambda r, p: F.conj(r[0]), lambda b, a: _same(a)),
    # -- piecewise linear (first derivative constant: cuts in the derivative) --
    OpSpec(
        "abs",
        ("abs",),
        _fn("abs"),
        lambda r, p: F.absolute(r[0]),
        lambda b, a: ((a,), a.shape, _real_dt(a.dtype), {}),
        kinks="0",
    ),
    OpSpec(
        "clip",
        ("clip",),
        lambda a, p: f"xp.clip({a[0]}, {p['lo']!r}, {p['hi']!r})",
        _clip_ref,
        _clip_draw,
        complex=False,
        kinks="bounds",
    ),
    OpSpec(
        "maximum",
        ("maximum",),
        _fn("maximum"),
        _ref2(F.maximum),
        _pair_real,
        complex=False,
        kinks="ties",
    ),
    OpSpec(
        "minimum",
        ("minimum",),
        _fn("minimum"),
        _ref2(F.minimum),
        _pair_real,
        complex=False,
        kinks="ties",
    ),
    # copysign(a, b) = |a| sign(b): b is reached only through sign, a cut, so a result
    # does not depend on b (the structure rule's general statement; issue 23's list of
    # cutting ops does not name copysign)
    OpSpec(
        "copysign",
        ("copysign",),
        _fn("copysign"),
        _ref2(F.copysign),
        _pair_real,
        complex=False,
        kinks="0",
    ),
    # nextafter(a, b) steps to the adjacent float: piecewise constant in both arguments,
    # a cut (rule 14)
    OpSpec(
        "nextafter",
        ("nextafter",),
        _fn("nextafter"),
        _ref2(F.nextafter),
        _pair_real,
        complex=False,
        cuts=True,
        kinks="ties",
    ),
    OpSpec(
        "remainder",
        ("remainder",),
        lambda a, p: f"xp.remainder({a[0]}, {a[1]} * {a[1]} + 0.5)",
        _remainder_ref,
        _pair_real,
        complex=False,
        kinks="multiples",
    ),
    OpSpec(
        "mod",
        ("remainder",),
        lambda a, p: f"{a[0]} % ({a[1]} * {a[1]} + 0.5)",
        _remainder_ref,
        _pair_real,
        complex=False,
        kinks="multiples",
    ),
    OpSpec(
        "rmod",
        ("remainder",),
        lambda a, p: f"{p['c']!r} % ({a[0]} * {a[0]} + 0.5)",
        lambda r, p: F.remainder(F.const(p["c"], r[0].dtype), F.add_c(F.mul(r[0], r[0]), 0.5)),
        lambda b, a: _same(a, c=b.choice((2.5, -1.5, 3.0))),
        complex=False,
        kinks="multiples",
    ),
    OpSpec(
        "where_gt",
        ("where", "greater"),
        lambda a, p: f"xp.where({a[0]} > {a[1]}, {a[0]}, {a[1]})",
        lambda r, p: F.where(F.compare(r[0], r[1], np.greater).v, r[0], r[1]),
        _pair_real,
        complex=False,
        kinks="ties",
    ),
    OpSpec(
        "where",
        ("where",),
        lambda a, p: f"xp.where({a[2]}, {a[0]}, {a[1]})",
        lambda r, p: F.where(r[2].v.astype(bool), r[0], r[1]),
        _where_draw,
    ),
    # -- cuts: comparisons, rounding, sign, casts, constants --
    _cmp("greater", np.greater),
    _cmp("greater_equal", np.greater_equal),
    _cmp("less", np.less),
    _cmp("less_equal", np.less_equal),
    _cmp("equal", np.equal),
    _cmp("not_equal", np.not_equal),
    _logical("logical_and", np.logical_and),
    _logical("logical_or", np.logical_or),
    _logical("logical_xor", np.logical_xor),
    _logical("logical_not", np.logical_not),
    _cut_unary("floor", np.floor, "integers"),
    _cut_unary("ceil", np.ceil, "integers"),
    _cut_unary("trunc", np.trunc, "integers"),
    _cut_unary("round", np.round, "halves"),
    # real sign cuts (rule 14); complex sign(z) = z/|z| has a derivative (torch's sgn,
    # docs/semantics.md "Dependence"): ``cuts_real_only``
    OpSpec(
        "sign",
        ("sign",),
        _fn("sign"),
        lambda r, p: F.sign_complex(r[0]) if r[0].is_complex else F.sign_cut(r[0]),
        lambda b, a: _same(a),
        cuts=True,
        cuts_real_only=True,
        kinks="0",
    ),
    OpSpec(
        "floor_divide",
        ("floor_divide",),
        lambda a, p: f"xp.floor_divide({a[0]}, {a[1]} * {a[1]} + 0.5)",
        lambda r, p: F.floor_like(
            F.mul(r[0], F.recip(F.add_c(F.mul(r[1], r[1]), 0.5))), np.floor, "floor"
        ),
        _pair_real,
        complex=False,
        cuts=True,
        kinks="multiples",
    ),
    _mask_cast("signbit", "xp.signbit({a})", _signbit_ref),
    _mask_cast("isfinite", "xp.isfinite({a})", lambda r: np.isfinite(r.v), complex_=True),
    _mask_cast("isinf", "xp.isinf({a} * 1e300 * 1e300)", lambda r: np.abs(r.v) > 0, complex_=False),
    _mask_cast("isnan", "xp.isnan({a})", lambda r: np.isnan(r.v), complex_=True),
    OpSpec(
        "astype",
        ("astype",),
        lambda a, p: f"xp.astype({a[0]}, xp.{p['dtype']})",
        _astype_ref,
        _astype_draw,
    ),
    OpSpec(
        "int_cast",
        ("astype",),
        lambda a, p: f"xp.astype(xp.astype({a[0]}, xp.int64), xp.{p['dtype']})",
        _int_cast_ref,
        _like_draw,
        complex=False,
        cuts=True,
        kinks="integers",
    ),
    _const_like("ones_like"),
    _const_like("zeros_like"),
    _const_like("full_like"),
    _const_like("empty_like"),
    # -- reductions --
    OpSpec(
        "sum", ("sum",), _red("sum"), lambda r, p: F.rsum(r[0], p["axis"], p["keepdims"]), _reduce
    ),
    OpSpec(
        "mean",
        ("mean",),
        _red("mean"),
        lambda r, p: F.mean(r[0], p["axis"], p["keepdims"]),
        _reduce,
    ),
    OpSpec(
        "prod",
        ("prod",),
        _red("prod"),
        lambda r, p: F.rprod(r[0], p["axis"], p["keepdims"]),
        _reduce,
        kinks="near 0 (the closed form divides)",
    ),
    OpSpec(
        "max",
        ("max",),
        _red("max"),
        lambda r, p: F.rmax(r[0], p["axis"], p["keepdims"]),
        _extreme,
        complex=False,
        kinks="ties",
    ),
    OpSpec(
        "min",
        ("min",),
        _red("min"),
        lambda r, p: F.rmax(r[0], p["axis"], p["keepdims"], smallest=True),
        _extreme,
        complex=False,
        kinks="ties",
    ),
    OpSpec(
        "std",
        ("std",),
        lambda a, p: (
            f"xp.std({a[0]}, axis={p['axis']!r}, correction={p['correction']}, "
            f"keepdims={p['keepdims']})"
        ),
        lambda r, p: F.std(r[0], p["axis"], p["correction"], p["keepdims"]),
        _stat_draw,
        complex=False,
        min_nd=1,
        kinks="0",
    ),
    OpSpec(
        "var",
        ("var",),
        lambda a, p: (
            f"xp.var({a[0]}, axis={p['axis']!r}, correction={p['correction']}, "
            f"keepdims={p['keepdims']})"
        ),
        lambda r, p: F.var(r[0], p["axis"], p["correction"], p["keepdims"]),
        _stat_draw,
        complex=False,
        min_nd=1,
    ),
    OpSpec(
        "cumulative_sum",
        ("cumulative_sum",),
        lambda a, p: (
            f"xp.cumulative_sum({a[0]}, axis={p['axis']}, include_initial={p['include_initial']})"
        ),
        lambda r, p: F.cumsum(r[0], p["axis"], p["include_initial"]),
        _cum_draw,
        min_nd=1,
    ),
    OpSpec(
        "cumulative_prod",
        ("cumulative_prod",),
        lambda a, p: (
            f"xp.cumulative_prod({a[0]}, axis={p['axis']}, include_initial={p['include_initial']})"
        ),
        lambda r, p: F.cumprod(r[0], p["axis"], p["include_initial"]),
        _cum_draw,
        min_nd=1,
        kinks="near 0",
    ),
    # -- norms and linear algebra --
    OpSpec(
        "vector_norm",
        ("linalg.vector_norm",),
        lambda a, p: (
            f"xp.linalg.vector_norm({a[0]}, axis={p['axis']!r}, keepdims={p['keepdims']}, "
            f"ord={_ord_code(p['ord'])})"
        ),
        _vnorm_ref,
        _norm_draw,
        min_nd=1,
        kinks="0 (ord 1: each entry at 0; inf: ties)",
    ),
    OpSpec(
        "matrix_norm",
        ("linalg.matrix_norm",),
        lambda a, p: (
            f"xp.linalg.matrix_norm({a[0]}, keepdims={p['keepdims']}, ord={_ord_code(p['ord'])})"
        ),
        _mnorm_ref,
        _mnorm_draw,
        min_nd=2,
        kinks="0, ties",
    ),
    OpSpec(
        "matmul", ("matmul",), lambda a, p: f"{a[0]} @ {a[1]}", _ref2(F.matmul), _matmul, min_nd=2
    ),
    OpSpec("xp_matmul", ("matmul",), _fn("matmul"), _ref2(F.matmul), _matmul, min_nd=2),
    OpSpec(
        "linalg.matmul",
        ("linalg.matmul",),
        _fn("linalg.matmul"),
        _ref2(F.matmul),
        _matmul,
        min_nd=2,
    ),
    OpSpec(
        "T",
        (),
        lambda a, p: f"{a[0]}.T",
        lambda r, p: F.permute(r[0], (1, 0)),
        lambda b, a: ((a,), a.shape[::-1], a.dtype, {}) if a.nd == 2 else None,
        min_nd=2,
    ),
    OpSpec(
        "matrix_transpose",
        ("matrix_transpose",),
        _fn("matrix_transpose"),
        lambda r, p: F.moveaxis(r[0], -1, -2),
        lambda b, a: ((a,), (*a.shape[:-2], a.shape[-1], a.shape[-2]), a.dtype, {}),
        min_nd=2,
    ),
    OpSpec(
        "linalg.matrix_transpose",
        ("linalg.matrix_transpose",),
        _fn("linalg.matrix_transpose"),
        lambda r, p: F.moveaxis(r[0], -1, -2),
        lambda b, a: ((a,), (*a.shape[:-2], a.shape[-1], a.shape[-2]), a.dtype, {}),
        min_nd=2,
    ),
    OpSpec("vecdot", ("vecdot",), _fn("vecdot"), _vecdot_ref, _vecdot_draw, min_nd=1),
    OpSpec(
        "linalg.vecdot",
        ("linalg.vecdot",),
        _fn("linalg.vecdot"),
        _vecdot_ref,
        _vecdot_draw,
        min_nd=1,
    ),
    OpSpec(
        "tensordot",
        ("tensordot",),
        lambda a, p: f"xp.tensordot({a[0]}, {a[1]}, axes=1)",
        _tensordot_ref,
        _tensordot_draw,
        min_nd=1,
    ),
    OpSpec(
        "linalg.tensordot",
        ("linalg.tensordot",),
        lambda a, p: f"xp.linalg.tensordot({a[0]}, {a[1]}, axes=1)",
        _tensordot_ref,
        _tensordot_draw,
        min_nd=1,
    ),
    OpSpec(
        "linalg.outer",
        ("linalg.outer",),
        _fn("linalg.outer"),
        lambda r, p: F.mul(
            F.reshape(r[0], (r[0].shape[0], 1)), F.reshape(r[1], (1, r[1].shape[0]))
        ),
        _vec_draw(3),
        min_nd=1,
        example=(3,),
    ),
    OpSpec(
        "linalg.cross", ("linalg.cross",), _fn("linalg.cross"), _cross_ref, _cross_draw, min_nd=1
    ),
    OpSpec(
        "linalg.diagonal",
        ("linalg.diagonal",),
        lambda a, p: f"xp.linalg.diagonal({a[0]}, offset={p['offset']})",
        _diag_ref,
        _diag_draw,
        min_nd=2,
    ),
    OpSpec(
        "linalg.trace",
        ("linalg.trace",),
        lambda a, p: f"xp.linalg.trace({a[0]}, offset={p['offset']})",
        _trace_ref,
        _trace_draw,
        min_nd=2,
    ),
    OpSpec(
        "linalg.det",
        ("linalg.det",),
        _fn("linalg.det"),
        lambda r, p: F.det2(r[0]),
        _mat(lambda b, s: ((s,), (), s.dtype, {})),
    ),
    OpSpec(
        "linalg.inv",
        ("linalg.inv",),
        _fn("linalg.inv"),
        lambda r, p: F.inv2(r[0]),
        _mat(lambda b, s: _same(s)),
        kinks="singular",
    ),
    OpSpec(
        "linalg.pinv",
        ("linalg.pinv",),
        _fn("linalg.pinv"),
        lambda r, p: F.inv2(r[0]),
        _mat(lambda b, s: _same(s)),
        complex=False,
        kinks="singular (drawn square, where pinv is inv)",
    ),
    OpSpec(
        "linalg.solve",
        ("linalg.solve",),
        _fn("linalg.solve"),
        lambda r, p: F.matmul(F.inv2(r[0]), r[1]),
        _solve_draw,
        kinks="singular",
    ),
    OpSpec(
        "linalg.matrix_power",
        ("linalg.matrix_power",),
        lambda a, p: f"xp.linalg.matrix_power({a[0]}, {p['n']})",
        _mpow_ref,
        _mpow_draw,
    ),
    OpSpec(
        "linalg.slogdet",
        ("linalg.slogdet",),
        lambda a, p: f"xp.linalg.slogdet({a[0]})[1]",
        _slogdet_ref,
        _mat(lambda b, s: ((s,), (), _real_dt(s.dtype), {})),
        kinks="singular",
    ),
    OpSpec(
        "linalg.cholesky",
        ("linalg.cholesky",),
        lambda a, p: f"xp.linalg.cholesky({_spd_code(a[0], p)})",
        lambda r, p: F.cholesky2(_spd_ref(r[0])),
        _mat(_mat_same),
        complex=False,
    ),
    OpSpec(
        "linalg.eigvalsh",
        ("linalg.eigvalsh",),
        lambda a, p: f"xp.linalg.eigvalsh({_sym_code(a[0])})",
        lambda r, p: F.eigvalsh2(_sym_ref(r[0])),
        _mat(lambda b, s: ((s,), (2,), s.dtype, {})),
        complex=False,
        kinks="crossing eigenvalues",
    ),
    OpSpec(
        "linalg.eigh",
        ("linalg.eigh",),
        _eigh_code,
        _eigh_ref,
        _eigh_draw,
        complex=False,
        kinks="crossing eigenvalues; eigenvectors read squared (sign-free)",
    ),
    OpSpec(
        "linalg.svdvals",
        ("linalg.svdvals",),
        _fn("linalg.svdvals"),
        lambda r, p: F.svd_parts(r[0], 1),
        _mat(lambda b, s: ((s,), (2,), s.dtype, {})),
        complex=False,
        kinks="equal or zero singular values",
    ),
    OpSpec(
        "linalg.svd",
        ("linalg.svd",),
        _svd_code,
        lambda r, p: F.svd_parts(r[0], p["which"]),
        _svd_draw,
        complex=False,
        kinks="equal or zero singular values; U and Vh read squared",
    ),
    OpSpec(
        "linalg.qr",
        ("linalg.qr",),
        lambda a, p: f"xp.square(xp.linalg.qr({a[0]})[{p['which']}])",
        lambda r, p: F.qr_sq(r[0], p["which"]),
        _qr_draw,
        complex=False,
        kinks="dependent columns; Q and R read squared",
    ),
    # -- manipulation --
    OpSpec(
        "reshape",
        ("reshape",),
        lambda a, p: f"xp.reshape({a[0]}, {p['shape']!r})",
        lambda r, p: F.reshape(r[0], tuple(p["shape"])),
        _reshape_draw,
    ),
    OpSpec(
        "permute_dims",
        ("permute_dims",),
        lambda a, p: f"xp.permute_dims({a[0]}, {p['axes']!r})",
        lambda r, p: F.permute(r[0], tuple(p["axes"])),
        _permute_draw,
        min_nd=2,
    ),
    OpSpec(
        "expand_dims",
        ("expand_dims",),
        lambda a, p: f"xp.expand_dims({a[0]}, axis={p['axis']})",
        _expand_ref,
        _expand_draw,
    ),
    OpSpec(
        "squeeze",
        ("squeeze",),
        lambda a, p: f"xp.squeeze({a[0]}, axis={p['axis']})",
        _squeeze_ref,
        _squeeze_draw,
        min_nd=1,
        example=(2, 1),
    ),
    OpSpec(
        "stack",
        ("stack",),
        lambda a, p: f"xp.stack([{', '.join(a)}], axis={p['axis']})",
        lambda r, p: F.stack(list(r), p["axis"]),
        _stack_draw,
    ),
    OpSpec(
        "concat",
        ("concat",),
        lambda a, p: f"xp.concat([{', '.join(a)}], axis={p['axis']})",
        lambda r, p: F.concat(list(r), p["axis"]),
        _concat_draw,
        min_nd=1,
    ),
    _gather_op(
        "flip",
        ("flip",),
        lambda a, p: f"xp.flip({a[0]}, axis={p['axis']!r})",
        lambda i, p: np.flip(i, p["axis"]),
        _flip_draw,
    ),
    _gather_op(
        "roll",
        ("roll",),
        lambda a, p: f"xp.roll({a[0]}, {p['shift']}, axis={p['axis']!r})",
        lambda i, p: np.roll(i, p["shift"], p["axis"]),
        _roll_draw,
    ),
    _gather_op(
        "tile",
        ("tile",),
        lambda a, p: f"xp.tile({a[0]}, {p['reps']!r})",
        lambda i, p: np.tile(i, p["reps"]),
        _tile_draw,
    ),
    _gather_op(
        "repeat",
        ("repeat",),
        lambda a, p: f"xp.repeat({a[0]}, {p['repeats']}, axis={p['axis']!r})",
        lambda i, p: np.repeat(i, p["repeats"], p["axis"]),
        _repeat_draw,
    ),
    _gather_op(
        "moveaxis",
        ("moveaxis",),
        lambda a, p: f"xp.moveaxis({a[0]}, {p['source']}, {p['destination']})",
        _moveaxis_how,
        _moveaxis_draw,
        min_nd=2,
    ),
    OpSpec(
        "broadcast_to",
        ("broadcast_to",),
        lambda a, p: f"xp.broadcast_to({a[0]}, {p['shape']!r})",
        lambda r, p: F.broadcast_to(r[0], tuple(p["shape"])),
        _broadcast_draw,
    ),
    OpSpec(
        "broadcast_arrays",
        ("broadcast_arrays",),
        lambda a, p: f"xp.broadcast_arrays({a[0]}, {a[1]})[0]",
        _bcast_arrays_ref,
        _bcast_arrays_draw,
    ),
    _gather_op(
        "unstack",
        ("unstack",),
        lambda a, p: f"xp.unstack({a[0]}, axis={p['axis']})[{p['i']}]",
        _unstack_how,
        _unstack_draw,
    ),
    OpSpec(
        "meshgrid",
        ("meshgrid",),
        lambda a, p: f"xp.meshgrid({a[0]}, {a[1]}, indexing={p['indexing']!r})[{p['i']}]",
        _meshgrid_ref,
        _meshgrid_draw,
        min_nd=1,
        example=(3,),
    ),
    OpSpec(
        "tril",
        ("tril",),
        lambda a, p: f"xp.tril({a[0]}, k={p['k']})",
        lambda r, p: F.tri_mask(r[0], p["k"], True),
        _tri_draw,
        min_nd=2,
    ),
    OpSpec(
        "triu",
        ("triu",),
        lambda a, p: f"xp.triu({a[0]}, k={p['k']})",
        lambda r, p: F.tri_mask(r[0], p["k"], False),
        _tri_draw,
        min_nd=2,
    ),
    # -- indexing, searching, sorting --
    OpSpec(
        "index",
        ("x[int]", "x[slice]", "x[int array]", "x[mask]"),
        _index_code,
        _index_ref,
        None,
        min_nd=1,
    ),
    OpSpec("index_int", ("x[int]",), _index_code, _index_ref, _draw_index("int"), min_nd=1),
    OpSpec("index_slice", ("x[slice]",), _index_code, _index_ref, _draw_index("slice"), min_nd=1),
    OpSpec(
        "index_array", ("x[int array]",), _index_code, _index_ref, _draw_index("array"), min_nd=1
    ),
    OpSpec("index_mask", ("x[mask]",), _index_code, _index_ref, _draw_index("mask"), min_nd=1),
    OpSpec(
        "take",
        ("take",),
        lambda a, p: f"xp.take({a[0]}, {a[1]}, axis={p['axis']})",
        _take_ref,
        _take_draw,
        min_nd=1,
    ),
    OpSpec(
        "sort",
        ("sort",),
        lambda a, p: f"xp.sort({a[0]}, axis={p['axis']}, descending={p['descending']})",
        _sort_ref,
        _sort_draw,
        complex=False,
        min_nd=1,
        kinks="ties",
    ),
    OpSpec(
        "argsort_take",
        ("argsort", "take"),
        lambda a, p: f"xp.take({a[0]}, xp.argsort({a[1]}), axis=0)",
        _argsort_ref,
        _argsort_draw,
        complex=False,
        min_nd=1,
        kinks="ties",
        example=(3,),
    ),
    OpSpec(
        "argmax_take",
        ("argmax", "take"),
        lambda a, p: (
            f"xp.take(xp.reshape({a[0]}, (-1,)), xp.reshape(xp.argmax({a[1]}), (1,)), axis=0)"
        ),
        _argsel_ref("argmax"),
        _argsel_draw,
        complex=False,
        kinks="ties",
    ),
    OpSpec(
        "argmin_take",
        ("argmin", "take"),
        lambda a, p: (
            f"xp.take(xp.reshape({a[0]}, (-1,)), xp.reshape(xp.argmin({a[1]}), (1,)), axis=0)"
        ),
        _argsel_ref("argmin"),
        _argsel_draw,
        complex=False,
        kinks="ties",
    ),
    OpSpec(
        "nonzero_take",
        ("nonzero", "take"),
        lambda a, p: (
            f"xp.take(xp.reshape({a[0]}, (-1,)), xp.nonzero(xp.reshape({a[1]}, (-1,)))[0], axis=0)"
        ),
        _nonzero_ref,
        _nonzero_draw,
    ),
    OpSpec(
        "searchsorted",
        ("searchsorted", "sort", "astype"),
        lambda a, p: (
            f"{a[0]} * xp.astype(xp.searchsorted(xp.sort({a[1]}), {a[0]}), xp.{p['dtype']})"
        ),
        _searchsorted_ref,
        _searchsorted_draw,
        complex=False,
        min_nd=1,
        kinks="edges",
        example=(3,),
    ),
    # -- fft --
    *(
        _fft_spec(k)
        for k in (
            "fft",
            "ifft",
            "fftn",
            "ifftn",
            "rfft",
            "irfft",
            "rfftn",
            "irfftn",
            "hfft",
            "ihfft",
        )
    ),
    _gather_op(
        "fft.fftshift",
        ("fft.fftshift",),
        lambda a, p: f"xp.fft.fftshift({a[0]})",
        _shift_how(False),
        lambda b, a: _same(a),
    ),
    _gather_op(
        "fft.ifftshift",
        ("fft.ifftshift",),
        lambda a, p: f"xp.fft.ifftshift({a[0]})",
        _shift_how(True),
        lambda b, a: _same(a),
    ),
    OpSpec(
        "take_along_axis",
        ("take_along_axis",),
        lambda a, p: f"xp.take_along_axis({a[0]}, {a[1]}, axis={p['axis']})",
        _take_along_ref,
        _take_along_draw,
        min_nd=1,
    ),
    *EXTENSION_OPS,
)


OPS: dict[str, OpSpec] = {s.name: s for s in TABLE}
assert len(OPS) == len(TABLE), "op names are unique"

#: Every differentiable function of the namespace unigrad exposes (the array API
#: standard 2023.12 with its linalg and fft extensions, and cumulative_prod), and the
#: indexing forms (``x[...]``). M of the coverage line.
DIFFERENTIABLE: tuple[str, ...] = tuple(
    sorted({c for s in TABLE if s.draw is not None for c in s.covers})
)

#: The namespace's other functions, each with why it has no derivative to check.
NOT_DIFFERENTIABLE: dict[str, str] = {
    "count_nonzero": "its result is an integer count (no derivative)",
    **dict.fromkeys(
        (
            "arange",
            "empty",
            "eye",
            "full",
            "linspace",
            "ones",
            "zeros",
            "fft.fftfreq",
            "fft.rfftfreq",
        ),
        "creates an array from Python numbers: no array argument to differentiate",
    ),
    "asarray": "converts Python data or an existing array (no computation on arrays)",
    "from_dlpack": "shares an existing array's memory (no computation)",
    **dict.fromkeys(
        ("can_cast", "finfo", "iinfo", "isdtype", "result_type"),
        "a data type function: its result is a dtype or dtype information, not an array",
    ),
    **dict.fromkeys(("all", "any"), "a boolean reduction: its result is boolean (no derivative)"),
    **dict.fromkeys(
        (
            "bitwise_and",
            "bitwise_invert",
            "bitwise_left_shift",
            "bitwise_or",
            "bitwise_right_shift",
            "bitwise_xor",
        ),
        "defined for integer and boolean arrays only (no floating result)",
    ),
    "linalg.matrix_rank": "an integer result (a count of singular values)",
    **dict.fromkeys(
        ("unique_all", "unique_counts", "unique_inverse", "unique_values"),
        "a set function: equal values merge (the derivative is undefined exactly where "
        "the function does anything sort would not); not drawn",
    ),
}

#: The modes a program exercises (`modes_of`); coverage is counted per mode.
MODES: tuple[str, ...] = (
    "grad",
    "create_graph",
    "third_order",
    "batched",
    "no_grad_vars",
    "allow_unused",
    "consumed",
    "backward",
)


def modes_of(program: Any) -> set[str]:
    """The `MODES` a `_program.Program` exercises."""
    from ._program import Backward, Grad

    calls = [s for s in program.steps if isinstance(s, (Grad, Backward))]
    out: set[str] = set()
    creates = [c for c in calls if c.create_graph]
    for i, c in enumerate(calls):
        if isinstance(c, Backward):
            out.add("backward")
            continue
        out.add("grad")
        if c.batched:
            out.add("batched")
        if c.no_grad_vars:
            out.add("no_grad_vars")
        if c.allow_unused or c.materialize_grads:
            out.add("allow_unused")
        retains = c.create_graph if c.retain_graph is None else c.retain_graph
        if not retains and i + 1 < len(calls):
            out.add("consumed")
    if creates and len(calls) >= 2:
        out.add("create_graph")
    if len(creates) >= 2 and len(calls) >= 3:
        out.add("third_order")
    return out


def functions_of(program: Any) -> set[str]:
    """The namespace functions a program draws."""
    from ._program import Op

    found: set[str] = set()
    for s in program.steps:
        if isinstance(s, Op):
            spec = OPS.get(s.op)
            if spec is not None:
                if s.op == "index":
                    found.add(
                        {"int": "x[int]", "slice": "x[slice]", "array": "x[int array]"}.get(
                            dict(s.params)["index"][0], "x[mask]"
                        )
                    )
                else:
                    found.update(spec.covers)
    return found


@dataclass
class Coverage:
    """Which functions of `DIFFERENTIABLE` the programs drew, overall and by mode."""

    drawn: set[str] = field(default_factory=set)
    by_mode: dict[str, set[str]] = field(default_factory=lambda: {m: set() for m in MODES})

    def add(self, program: Any) -> None:
        fns = functions_of(program) & set(DIFFERENTIABLE)
        self.drawn |= fns
        for m in modes_of(program):
            self.by_mode[m] |= fns

    def missing(self) -> dict[str, list[str]]:
        want = set(DIFFERENTIABLE)
        out = {"any": sorted(want - self.drawn)}
        out.update({m: sorted(want - got) for m, got in self.by_mode.items()})
        return {k: v for k, v in out.items() if v}

    def line(self) -> str:
        m = len(DIFFERENTIABLE)
        per = ", ".join(f"{k} {len(v)}" for k, v in self.by_mode.items())
        return f"coverage: {len(self.drawn)} of {m} namespace functions drawn; by mode: {per}"


def coverage(programs: Sequence[Any]) -> Coverage:
    """The `Coverage` of ``programs``."""
    c = Coverage()
    for p in programs:
        c.add(p)
    return c
