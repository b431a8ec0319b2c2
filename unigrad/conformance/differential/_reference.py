"""The float64 reference: a tiny tape in NumPy with closed-form VJPs, and the contract.

Every value is a :class:`RV`: a float64/complex128 NumPy array, the dtype the backends
hold it in, and (when it depends on a watched leaf) the node that made it. A node's VJP
is written with the same recorded operations, so gradients taken with
``create_graph=True`` are themselves recorded: higher orders are exact closed forms,
not finite differences, and *which* inputs a gradient depends on falls out of the
rules, which follow torch's (``d(x*c)/dx = c`` does not depend on ``x``; a clip's mask
is a constant).

``grad`` follows the tape's model (``unigrad.tape``): the live nodes between outputs
and inputs are replayed afresh and differentiated, so create_graph results never run
through nodes a ``retain_graph=False`` pass consumed. Errors follow the front's
precedence (``docs/semantics.md``). Points where a derivative is not defined (|x| at
0, ties of maximum, a clip at its bound) or numbers too large to compare in float32
raise :class:`Degenerate`: the program is skipped, not compared.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["RV", "ContractError", "Degenerate", "backward", "grad", "op"]

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


class Node:
    __slots__ = ("apply", "consumed", "parents", "vjp")

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


class RV:
    """A reference value: ``v`` (float64/complex128), ``dtype`` (the backends'), history."""

    __slots__ = ("dtype", "grad", "key", "node", "rg", "v", "watched")

    def __init__(self, v: Any, dtype: str, *, node: Node | None = None, rg: bool = False) -> None:
        self.v = np.asarray(v, dtype=np.complex128 if "complex" in dtype else np.float64)
        self.dtype = dtype
        self.node = node
        self.rg = rg
        self.watched = False
        self.grad: RV | None = None
        self.key = next(_ids)

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
        raise Degenerate("values too large for float32 comparisons")
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


# ---- primitives: forward value + VJP written with primitives ---------------------------
def _unbroadcast(ct: RV, shape: tuple[int, ...]) -> RV:
    if ct.shape == shape:
        return ct
    lead = len(ct.shape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and ct.shape[i + lead] != 1
    )
    out = rsum(ct, axes, keepdims=True) if axes else ct
    return reshape(out, shape)


def _fit(ct: RV, like: RV) -> RV:
    """A cotangent for ``like``: unbroadcast, and real for a real primal."""
    ct = _unbroadcast(ct, like.shape)
    if ct.is_complex and not like.is_complex:
        ct = real(ct)
    return ct


def _cj(a: RV) -> RV:
    return conj(a) if a.is_complex else a


def add(a: RV, b: RV) -> RV:
    return _mk(a.v + b.v, _dt(a, b), (a, b), add, lambda ct, a, b: (_fit(ct, a), _fit(ct, b)))


def _dt(a: RV, b: RV) -> str:
    if a.is_complex or not b.is_complex:
        return a.dtype
    return b.dtype


def neg(a: RV) -> RV:
    return _mk(-a.v, a.dtype, (a,), neg, lambda ct, a: (neg(ct),))


def sub(a: RV, b: RV) -> RV:
    return add(a, neg(b))


def mul(a: RV, b: RV) -> RV:
    def vjp(ct: RV, a: RV, b: RV) -> tuple[RV | None, ...]:
        return (
            _fit(mul(ct, _cj(b)), a) if a.rg else None,
            _fit(mul(ct, _cj(a)), b) if b.rg else None,
        )

    return _mk(a.v * b.v, _dt(a, b), (a, b), mul, vjp)


def recip(a: RV) -> RV:
    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        r = recip(a)
        return (neg(mul(ct, _cj(mul(r, r)))),)

    return _mk(1.0 / a.v, a.dtype, (a,), recip, vjp)


def exp(a: RV) -> RV:
    return _mk(np.exp(a.v), a.dtype, (a,), exp, lambda ct, a: (mul(ct, _cj(exp(a))),))


def sin(a: RV) -> RV:
    return _mk(np.sin(a.v), a.dtype, (a,), sin, lambda ct, a: (mul(ct, _cj(cos(a))),))


def cos(a: RV) -> RV:
    return _mk(np.cos(a.v), a.dtype, (a,), cos, lambda ct, a: (neg(mul(ct, _cj(sin(a)))),))


def tanh(a: RV) -> RV:
    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        t = tanh(a)
        one = const(np.ones(a.shape), a.dtype)
        return (mul(ct, _cj(sub(one, mul(t, t)))),)

    return _mk(np.tanh(a.v), a.dtype, (a,), tanh, vjp)


def sqrt(a: RV) -> RV:
    if np.any(a.v.real < KINK):
        raise Degenerate("sqrt at 0")

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, recip(scale(sqrt(a), 2.0))),)

    return _mk(np.sqrt(a.v), a.dtype, (a,), sqrt, vjp)


def conj(a: RV) -> RV:
    return _mk(np.conj(a.v), a.dtype, (a,), conj, lambda ct, a: (conj(ct),))


def real(a: RV) -> RV:
    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (to_complex(ct, a.dtype),)

    return _mk(np.real(a.v), _real_dtype(a.dtype), (a,), real, vjp)


def imag(a: RV) -> RV:
    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        # L = ct * Im(z): dL/dx + i dL/dy = i ct
        return (mul(to_complex(ct, a.dtype), const(1j, a.dtype)),)

    return _mk(np.imag(a.v), _real_dtype(a.dtype), (a,), imag, vjp)


def to_complex(a: RV, dtype: str) -> RV:
    return _mk(
        a.v.astype(np.complex128), dtype, (a,), _to_complex_of(dtype), lambda ct, a: (real(ct),)
    )


def _to_complex_of(dtype: str) -> Callable[[RV], RV]:
    def apply(a: RV) -> RV:
        return to_complex(a, dtype)

    return apply


def scale(a: RV, c: Any) -> RV:
    return mul(a, const(c, a.dtype))


def sign_const(a: RV) -> RV:
    return const(np.sign(a.v), a.dtype)


def absolute(a: RV) -> RV:
    if np.any(np.abs(a.v) < KINK):
        raise Degenerate("abs at 0")
    if a.is_complex:
        # |z| = sqrt(z conj z); the VJP is ct * z / |z|
        return sqrt(real(mul(a, conj(a))))

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (mul(ct, sign_const(a)),)

    return _mk(np.abs(a.v), a.dtype, (a,), absolute, vjp)


def _select(mask: np.ndarray, a: RV, b: RV) -> RV:
    m = np.asarray(mask)

    def apply(a: RV, b: RV) -> RV:
        return _select(m, a, b)

    def vjp(ct: RV, a: RV, b: RV) -> tuple[RV | None, ...]:
        zero = const(np.zeros(ct.shape), ct.dtype)
        return (_fit(_select(m, ct, zero), a), _fit(_select(m, zero, ct), b))

    return _mk(np.where(m, a.v, b.v), _dt(a, b), (a, b), apply, vjp)


def where(mask: np.ndarray, a: RV, b: RV) -> RV:
    return _select(np.broadcast_to(mask, np.broadcast_shapes(a.shape, b.shape, mask.shape)), a, b)


def _tie(a: RV, b: RV) -> Any:
    d = a.v - b.v
    if np.any(np.abs(d) < KINK):
        raise Degenerate("a tie")
    return d > 0


def maximum(a: RV, b: RV) -> RV:
    return where(_tie(a, b), a, b)


def minimum(a: RV, b: RV) -> RV:
    return where(_tie(b, a), a, b)


def clip(a: RV, lo: float, hi: float) -> RV:
    if np.any(np.abs(a.v - lo) < KINK) or np.any(np.abs(a.v - hi) < KINK):
        raise Degenerate("clip at a bound")
    inside = (a.v > lo) & (a.v < hi)
    zero = const(np.zeros(a.shape), a.dtype)
    bound = const(np.clip(a.v, lo, hi), a.dtype)
    return _select(inside, a, add(bound, zero))


def rsum(a: RV, axis: Any, keepdims: bool) -> RV:
    ax = tuple(range(a.v.ndim)) if axis is None else axis
    ax = (ax,) if isinstance(ax, int) else tuple(ax)
    ax = tuple(i % max(a.v.ndim, 1) for i in ax)
    shape = a.shape

    def apply(a: RV) -> RV:
        return rsum(a, axis, keepdims)

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        kept = tuple(1 if i in ax else n for i, n in enumerate(shape))
        return (broadcast_to(reshape(ct, kept), shape),)

    return _mk(np.sum(a.v, axis=ax, keepdims=keepdims), a.dtype, (a,), apply, vjp)


def mean(a: RV, axis: Any, keepdims: bool) -> RV:
    s = rsum(a, axis, keepdims)
    n = a.v.size // max(s.v.size, 1) if a.v.size else 1
    return scale(s, 1.0 / n)


def broadcast_to(a: RV, shape: tuple[int, ...]) -> RV:
    def apply(a: RV) -> RV:
        return broadcast_to(a, shape)

    return _mk(
        np.broadcast_to(a.v, shape).copy(),
        a.dtype,
        (a,),
        apply,
        lambda ct, a: (_unbroadcast(ct, a.shape),),
    )


def reshape(a: RV, shape: tuple[int, ...]) -> RV:
    def apply(a: RV) -> RV:
        return reshape(a, shape)

    return _mk(np.reshape(a.v, shape), a.dtype, (a,), apply, lambda ct, a: (reshape(ct, a.shape),))


def permute(a: RV, axes: tuple[int, ...]) -> RV:
    inv = tuple(int(i) for i in np.argsort(axes))

    def apply(a: RV) -> RV:
        return permute(a, axes)

    return _mk(np.transpose(a.v, axes), a.dtype, (a,), apply, lambda ct, a: (permute(ct, inv),))


def getitem(a: RV, idx: Any) -> RV:
    def apply(a: RV) -> RV:
        return getitem(a, idx)

    def vjp(ct: RV, a: RV) -> tuple[RV | None, ...]:
        return (scatter(ct, idx, a.shape),)

    return _mk(np.asarray(a.v[idx]).copy(), a.dtype, (a,), apply, vjp)


def scatter(ct: RV, idx: Any, shape: tuple[int, ...]) -> RV:
    """Zeros of ``shape`` with ``ct`` added at ``idx`` (the VJP of indexing)."""
    z = np.zeros(shape, dtype=ct.v.dtype)
    np.add.at(z, idx, ct.v)

    def apply(ct: RV) -> RV:
        return scatter(ct, idx, shape)

    return _mk(z, ct.dtype, (ct,), apply, lambda c, ct: (getitem(c, idx),))


def stack(xs: Sequence[RV], axis: int) -> RV:
    n = len(xs)

    def apply(*xs: RV) -> RV:
        return stack(xs, axis)

    def vjp(ct: RV, *xs: RV) -> tuple[RV | None, ...]:
        ax = axis % ct.v.ndim
        return tuple(getitem(ct, (slice(None),) * ax + (i,)) for i in range(n))

    return _mk(np.stack([x.v for x in xs], axis=axis), xs[0].dtype, tuple(xs), apply, vjp)


def concat(xs: Sequence[RV], axis: int) -> RV:
    def apply(*xs: RV) -> RV:
        return concat(xs, axis)

    def vjp(ct: RV, *xs: RV) -> tuple[RV | None, ...]:
        ax = axis % ct.v.ndim
        out: list[RV | None] = []
        start = 0
        for x in xs:
            stop = start + x.shape[ax]
            out.append(getitem(ct, (slice(None),) * ax + (slice(start, stop),)))
            start = stop
        return tuple(out)

    return _mk(np.concatenate([x.v for x in xs], axis=axis), xs[0].dtype, tuple(xs), apply, vjp)


def matmul(a: RV, b: RV) -> RV:
    def vjp(ct: RV, a: RV, b: RV) -> tuple[RV | None, ...]:
        if b.v.ndim == 1:  # (m,k) @ (k,) -> (m,)
            ga = mul(reshape(ct, (*ct.shape, 1)), reshape(_cj(b), (1, b.shape[0])))
            gb = matmul(permute(_cj(a), (1, 0)), ct)
        elif a.v.ndim == 1:  # (k,) @ (k,n) -> (n,)
            ga = matmul(_cj(b), ct)
            gb = mul(reshape(_cj(a), (a.shape[0], 1)), reshape(ct, (1, *ct.shape)))
        else:
            ga = matmul(ct, permute(_cj(b), (1, 0)))
            gb = matmul(permute(_cj(a), (1, 0)), ct)
        return (ga if a.rg else None, gb if b.rg else None)

    return _mk(a.v @ b.v, _dt(a, b), (a, b), matmul, vjp)


def vector_norm(a: RV, axis: Any, keepdims: bool, ord: Any) -> RV:
    if ord == 1:
        return rsum(absolute(a), axis, keepdims)
    sq = real(mul(a, conj(a))) if a.is_complex else mul(a, a)
    return sqrt(rsum(sq, axis, keepdims))


# ---- the namespace ops of a program -----------------------------------------------------
def op(name: str, args: Sequence[RV], p: dict[str, Any]) -> RV:
    """Evaluate program op ``name`` (see :func:`~._program.render_op`)."""
    a = args[0]
    unary: dict[str, Callable[[RV], RV]] = {
        "exp": exp,
        "sin": sin,
        "cos": cos,
        "tanh": tanh,
        "abs": absolute,
        "real": real,
        "imag": imag,
        "conj": conj,
        "neg": neg,
    }
    if name in unary:
        return unary[name](a)
    if name == "add":
        return add(a, args[1])
    if name == "sub":
        return sub(a, args[1])
    if name == "mul":
        return mul(a, args[1])
    if name == "square":
        return mul(a, a)
    if name == "div":
        b = args[1]
        return mul(a, recip(add(mul(b, b), const(1.0, b.dtype))))
    if name == "matmul":
        return matmul(a, args[1])
    if name == "maximum":
        return maximum(a, args[1])
    if name == "minimum":
        return minimum(a, args[1])
    if name == "where_gt":
        return where(_tie(a, args[1]), a, args[1])
    if name == "where":
        return where(args[2].v.real.astype(bool), a, args[1])
    if name == "T":
        return permute(a, (1, 0))
    if name == "scale":
        return scale(a, p["c"])
    if name == "shift":
        return add(a, const(p["c"], a.dtype))
    if name == "rsub":
        return sub(const(p["c"], a.dtype), a)
    if name == "clip":
        return clip(a, p["lo"], p["hi"])
    if name == "sum":
        return rsum(a, p["axis"], p["keepdims"])
    if name == "mean":
        return mean(a, p["axis"], p["keepdims"])
    if name == "vector_norm":
        return vector_norm(a, p["axis"], p["keepdims"], p["ord"])
    if name == "reshape":
        return reshape(a, tuple(p["shape"]))
    if name == "permute_dims":
        return permute(a, tuple(p["axes"]))
    if name == "expand_dims":
        ax = p["axis"] % (a.v.ndim + 1)
        return reshape(a, (*a.shape[:ax], 1, *a.shape[ax:]))
    if name == "squeeze":
        ax = p["axis"] % a.v.ndim
        return reshape(a, a.shape[:ax] + a.shape[ax + 1 :])
    if name == "stack":
        return stack(args, p["axis"])
    if name == "concat":
        return concat(args, p["axis"])
    if name == "index":
        idx = p["index"]
        if idx[0] == "int":
            return getitem(a, idx[1])
        if idx[0] == "slice":
            return getitem(a, slice(idx[1], idx[2]))
        return getitem(a, np.nonzero(args[1].v.real.astype(bool)))
    msg = f"unknown op {name!r}"
    raise ValueError(msg)


# ---- grad and backward, with the contract's errors ---------------------------------------
def _live(
    outputs: Sequence[RV], inputs: Sequence[RV], cut: set[int]
) -> tuple[list[Node], list[bool], dict[int, bool]]:
    """Live nodes in topological order (parents first) and which inputs are reached."""
    pos = {x.key: i for i, x in enumerate(inputs)}
    reached = [False] * len(inputs)
    live: dict[int, bool] = {}
    order: list[Node] = []
    for y in outputs:
        if y.key in cut:
            continue
        if y.key in pos:
            reached[pos[y.key]] = True

    def visit(r: RV) -> bool:
        """Whether ``r`` leads to an input (is one, or its node is live)."""
        if r.key in cut:
            return False
        hit = False
        if r.key in pos:
            reached[pos[r.key]] = True
            hit = True
        n = r.node
        if n is not None:
            if id(n) not in live:
                live[id(n)] = False  # placeholder against revisits; DAG so no cycles
                flag = False
                for p in n.parents:
                    if visit(p):
                        flag = True
                live[id(n)] = flag
                if flag:
                    order.append(n)
            if live[id(n)]:
                return True
        return hit

    for y in outputs:
        if y.key not in cut and y.node is not None:
            visit(y)
    return order, reached, live


def _replay_grad(
    outputs: Sequence[RV],
    inputs: Sequence[RV],
    seeds: Sequence[RV],
    order: list[Node],
    live: dict[int, bool],
    cut: set[int],
) -> list[RV | None]:
    """Replay the live nodes afresh from the inputs, then run their VJPs backwards."""
    out_of: dict[int, RV] = {}

    def rep(r: RV) -> RV:
        if r.key in cut:
            return r
        n = r.node
        if n is not None and live.get(id(n)):
            return out_of[id(n)]
        return r

    rep_parents: dict[int, tuple[RV, ...]] = {}
    for n in order:
        ps = tuple(rep(p) for p in n.parents)
        rep_parents[id(n)] = ps
        out_of[id(n)] = n.apply(*ps)
    wanted = {x.key for x in inputs} | {r.key for r in out_of.values()}
    cts: dict[int, RV] = {}

    def acc(r: RV, c: RV) -> None:
        prev = cts.get(r.key)
        cts[r.key] = c if prev is None else add(prev, c)

    for y, s in zip(outputs, seeds, strict=True):
        if y.key not in cut:
            acc(rep(y), s)
    for n in reversed(order):
        c = cts.get(out_of[id(n)].key)
        if c is None:
            continue
        ps = rep_parents[id(n)]
        for p, pc in zip(ps, n.vjp(c, *ps), strict=True):
            if pc is not None and p.key not in cut and p.key in wanted:
                acc(p, pc)
    return [cts.get(rep(x).key) for x in inputs]


def _seed_rv(y: RV, s: RV | None) -> RV:
    if s is None:
        return const(np.ones(y.shape), y.dtype)
    return RV(s.v if y.is_complex else s.v.real, y.dtype)


def _errors_front(
    outputs: Sequence[RV],
    seeds: Sequence[RV | None],
    batched: bool,
) -> None:
    for i, y in enumerate(outputs):
        if not y.rg:
            raise ContractError("NotDifferentiableError", f"outputs[{i}] does not require grad")
    for i, (y, s) in enumerate(zip(outputs, seeds, strict=True)):
        if s is None:
            if batched:
                raise ContractError("GradOutputsError", f"grad_outputs[{i}] None when batched")
            if y.is_complex:
                raise ContractError("GradOutputsError", f"grad_outputs[{i}] None, complex")
            continue
        want = y.shape
        got = s.shape[1:] if batched else s.shape
        if got != want or (batched and s.v.ndim != y.v.ndim + 1):
            raise ContractError("GradOutputsError", f"grad_outputs[{i}] shape {s.shape}")
        if s.is_complex and not y.is_complex:
            raise ContractError("GradOutputsError", f"grad_outputs[{i}] complex")
    if batched:
        sizes = {s.shape[0] for s in seeds if s is not None}
        if len(sizes) > 1:
            raise ContractError("GradOutputsError", "batch sizes differ")


def _consumed(order: list[Node]) -> None:
    for n in order:
        if n.consumed:
            raise ContractError("GraphFreedError", "through a consumed node")


def grad(
    outputs: Sequence[RV],
    inputs: Sequence[RV],
    seeds: Sequence[RV | None],
    *,
    retain_graph: bool | None,
    create_graph: bool,
    allow_unused: bool | None,
    materialize_grads: bool,
    no_grad_vars: Sequence[RV] | None,
    batched: bool,
) -> tuple[RV | None, ...]:
    """``unigrad.grad`` on reference values, by the contract."""
    retain = create_graph if retain_graph is None else retain_graph
    if materialize_grads and allow_unused is False:
        raise ContractError("GradArgumentError", "materialize_grads with allow_unused=False")
    _errors_front(outputs, seeds, batched)
    cut = {v.key for v in no_grad_vars or ()}
    # duplicated outputs contribute twice: keep them (the sum below adds both)
    distinct_in: list[RV] = []
    for x in inputs:
        if x.rg and all(x is not d for d in distinct_in):
            distinct_in.append(x)
    order, reached, live = _live(outputs, distinct_in, cut)
    if any(reached):
        _consumed(order)
    grads: list[RV | None] = [None] * len(distinct_in)
    if any(reached):
        if batched:
            batch = next(s.shape[0] for s in seeds if s is not None)
            rows = []
            for b in range(batch):
                row_seeds = [
                    _seed_rv(y, getitem(s, b) if s is not None else None)
                    for y, s in zip(outputs, seeds, strict=True)
                ]
                rows.append(_replay_grad(outputs, distinct_in, row_seeds, order, live, cut))
            for i in range(len(distinct_in)):
                if reached[i]:
                    grads[i] = stack([_zero_if_none(r[i], distinct_in[i]) for r in rows], 0)
        else:
            sd = [_seed_rv(y, s) for y, s in zip(outputs, seeds, strict=True)]
            got = _replay_grad(outputs, distinct_in, sd, order, live, cut)
            for i in range(len(distinct_in)):
                if reached[i]:
                    grads[i] = _zero_if_none(got[i], distinct_in[i])
    if not retain:
        for n in order:
            n.consumed = True
    out: list[RV | None] = []
    batch_n = next((s.shape[0] for s in seeds if s is not None), 0) if batched else None
    for i, x in enumerate(inputs):
        g: RV | None = None
        if x.rg:
            j = next(j for j, d in enumerate(distinct_in) if d is x)
            g = grads[j]
        if g is None:
            if materialize_grads:
                shape = x.shape if batch_n is None else (batch_n, *x.shape)
                g = leaf(np.zeros(shape), x.dtype, watched=create_graph)
            elif not allow_unused:
                raise ContractError("UnusedInputError", f"inputs[{i}] is unused")
            out.append(g)
            continue
        g = RV(g.v, x.dtype, node=g.node, rg=g.rg) if create_graph else RV(g.v, x.dtype)
        out.append(g)
    return tuple(out)


def _zero_if_none(g: RV | None, x: RV) -> RV:
    return const(np.zeros(x.shape), x.dtype) if g is None else g


def backward(
    outputs: Sequence[RV],
    seeds: Sequence[RV | None],
    leaves: Sequence[RV],
    *,
    retain_graph: bool | None,
    create_graph: bool,
    inputs: Sequence[RV] | None,
) -> None:
    """``unigrad.backward``: accumulate into ``.grad`` of ``inputs`` or every leaf."""
    _errors_front(outputs, seeds, False)
    if inputs is not None:
        for i, x in enumerate(inputs):
            if not x.rg:
                raise ContractError("UnusedInputError", f"inputs[{i}] does not require grad")
        targets: list[RV] = []
        for x in inputs:
            if all(x is not t for t in targets):
                targets.append(x)
    else:
        targets = [v for v in leaves if v.watched]
    retain = create_graph if retain_graph is None else retain_graph
    order, reached, live = _live(outputs, targets, set())
    if any(reached):
        _consumed(order)
        sd = [_seed_rv(y, s) for y, s in zip(outputs, seeds, strict=True)]
        got = _replay_grad(outputs, targets, sd, order, live, set())
        for t, g, hit in zip(targets, got, reached, strict=True):
            if not hit:
                continue
            g = _zero_if_none(g, t)
            g = RV(g.v, t.dtype, node=g.node, rg=g.rg) if create_graph else RV(g.v, t.dtype)
            t.grad = g if t.grad is None else add(t.grad, g)
    if not retain:
        for n in order:
            n.consumed = True
