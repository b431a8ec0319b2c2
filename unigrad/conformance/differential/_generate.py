"""Hypothesis strategies for random differential programs.

`programs` draws 1-3 leaves (watched or constant, of one dtype), 1-7 namespace ops
over them, then one or two ``grad``/``backward`` calls with random flags: single or
sequence outputs and inputs, duplicates, None/explicit/batched/wrongly shaped seeds,
``no_grad_vars``, ``allow_unused``/``materialize_grads``, ``retain_graph``/
``create_graph``, a second-order call through the first call's results, or a second pass
through a graph the first call may have consumed.

Piecewise-linear ops (real ``abs``, ``clip``, ``maximum``/``minimum``, comparisons,
1-norms) appear only in programs without ``create_graph``: their second derivatives are
zero almost everywhere, and whether that zero is a tensor or an unused input differs
between torch's own kernels (``abs`` keeps a graph, ``clamp`` does not). Complex ``tanh``
appears only without ``create_graph`` too: paddle refuses its double grad (a kernel with
wrong values), which ``tests/test_any_program.py`` checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

from ._program import _REAL_SMOOTH, Backward, Grad, Leaf, Op, Program, Seed, Step

__all__ = ["programs"]

_SHAPES: tuple[tuple[int, ...], ...] = ((), (3,), (2, 3), (3, 2), (2, 2))
_SMOOTH_UNARY = ("neg", "exp", "sin", "cos", "tanh", "square")
_PIECEWISE_UNARY = ("abs", "clip")
_PIECEWISE_BINARY = ("maximum", "minimum", "where_gt")


@dataclass
class _Var:
    name: str
    shape: tuple[int, ...]
    complex: bool
    rg: bool  # depends on a watched leaf (as far as the generator can tell)
    leaf: bool = False


def _data(rng: np.random.Generator, shape: tuple[int, ...], complex_: bool) -> Any:
    def draw() -> Any:
        v = rng.uniform(0.2, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
        return np.round(v, 2)

    v = draw()
    if complex_:
        v = v + 1j * draw()
    return v.tolist()


def _broadcastable(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        return False
    return True


class _Builder:
    def __init__(self, draw: Any, dtype: str, smooth: bool) -> None:
        self.draw = draw
        self.dtype = dtype
        self.complex = "complex" in dtype
        self.real_dtype = {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)
        self.smooth = smooth
        self.steps: list[Step] = []
        self.vars: list[_Var] = []
        self.n = 0
        self.rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))

    def fresh(self, prefix: str = "v") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def pick(self, vs: list[_Var]) -> _Var:
        # prefer recent values: programs then chain instead of fanning out
        i = self.draw(st.integers(0, len(vs) - 1))
        j = self.draw(st.integers(0, len(vs) - 1))
        picked: _Var = vs[max(i, j)]
        return picked

    def add_leaf(self, watched: bool) -> None:
        shape = self.draw(st.sampled_from(_SHAPES))
        name = self.fresh("x")
        self.steps.append(Leaf(name, _data(self.rng, shape, self.complex), self.dtype, watched))
        self.vars.append(_Var(name, shape, self.complex, watched, leaf=True))

    def emit(
        self, op: str, args: tuple[_Var, ...], out_shape: tuple[int, ...], complex_: bool, **p: Any
    ) -> _Var:
        name = self.fresh()
        self.steps.append(Op(name, op, tuple(a.name for a in args), tuple(sorted(p.items()))))
        v = _Var(name, out_shape, complex_, any(a.rg for a in args))
        self.vars.append(v)
        return v

    def mask(self, shape: tuple[int, ...]) -> _Var:
        name = self.fresh("m")
        m = self.rng.random(shape) < 0.6
        if m.size:
            m.flat[0] = True  # never an empty selection
        self.steps.append(Leaf(name, m.tolist(), "bool", False))
        return _Var(name, shape, False, False)

    def op(self) -> None:
        d = self.draw
        a = self.pick(self.vars)
        nd = len(a.shape)
        choices = ["unary", "unary", "binary", "binary", "scalar", "reduce", "shape"]
        if nd >= 1:
            choices += ["index", "join", "matmul"]
        if not a.complex and not self.smooth:
            choices += ["piecewise", "piecewise"]
        if a.complex:
            choices += ["to_real"]
        kind = d(st.sampled_from(choices))
        c = a.complex
        if kind == "unary":
            ops = _SMOOTH_UNARY + (("conj",) if c else (*_REAL_SMOOTH, "log1p_sq"))
            if c and self.smooth:  # paddle refuses complex tanh's double grad (wrong kernel)
                ops = tuple(o for o in ops if o != "tanh")
            self.emit(d(st.sampled_from(ops)), (a,), a.shape, c)
        elif kind == "to_real":
            self.emit(d(st.sampled_from(("real", "imag", "abs"))), (a,), a.shape, False)
        elif kind == "scalar":
            cval = d(st.sampled_from((0.5, -1.5, 2.0, 3.0)))
            self.emit(d(st.sampled_from(("scale", "shift", "rsub"))), (a,), a.shape, c, c=cval)
        elif kind == "binary":
            others = [v for v in self.vars if v.complex == c and _broadcastable(a.shape, v.shape)]
            b = self.pick(others)
            ops = ("add", "sub", "mul") + (() if c else ("div",))
            shape = tuple(np.broadcast_shapes(a.shape, b.shape))
            args = (a, b) if d(st.booleans()) else (b, a)
            self.emit(d(st.sampled_from(ops)), args, shape, c)
        elif kind == "piecewise":
            name = d(st.sampled_from(_PIECEWISE_UNARY + _PIECEWISE_BINARY + ("norm1",)))
            if name == "abs":
                self.emit("abs", (a,), a.shape, False)
            elif name == "clip":
                self.emit("clip", (a,), a.shape, False, lo=-0.7, hi=0.8)
            elif name == "norm1":
                if nd:
                    self.emit("vector_norm", (a,), (), False, axis=None, keepdims=False, ord=1)
            else:
                others = [
                    v
                    for v in self.vars
                    if not v.complex and v is not a and _broadcastable(a.shape, v.shape)
                ]
                if others:
                    b = self.pick(others)
                    self.emit(name, (a, b), tuple(np.broadcast_shapes(a.shape, b.shape)), False)
        elif kind == "reduce":
            self.reduce(a)
        elif kind == "shape":
            self.reshape(a)
        elif kind == "index":
            self.index(a)
        elif kind == "join":
            same = [v for v in self.vars if v.shape == a.shape and v.complex == c]
            b = self.pick(same)
            how = d(st.sampled_from(("stack", "concat", "where")))
            if how == "stack":
                ax = d(st.integers(-nd - 1, nd))
                dims = list(a.shape)
                dims.insert(ax % (nd + 1), 2)
                self.emit("stack", (a, b), tuple(dims), c, axis=ax)
            elif how == "concat":
                ax = d(st.integers(-nd, nd - 1))
                dims = list(a.shape)
                dims[ax] *= 2
                self.emit("concat", (a, b), tuple(dims), c, axis=ax)
            else:
                m = self.mask(a.shape)
                self.emit("where", (a, b, m), a.shape, c)
        elif kind == "matmul":
            self.matmul(a)

    def reduce(self, a: _Var) -> None:
        d = self.draw
        nd = len(a.shape)
        op = d(st.sampled_from(("sum", "mean", "vector_norm")))
        if nd == 0:
            axis: Any = None
        else:
            axis = d(
                st.one_of(
                    st.none(),
                    st.integers(-nd, nd - 1),
                    st.just(tuple(range(nd))),
                )
            )
        keep = d(st.booleans())
        if axis is None:
            axes = set(range(nd))
        elif isinstance(axis, int):
            axes = {axis % nd}
        else:
            axes = set(axis)
        shape = (
            tuple(1 if i in axes else n for i, n in enumerate(a.shape))
            if keep
            else tuple(n for i, n in enumerate(a.shape) if i not in axes)
        )
        if op == "vector_norm":
            self.emit(op, (a,), shape, False, axis=axis, keepdims=keep, ord=2)
        else:
            self.emit(op, (a,), shape, a.complex, axis=axis, keepdims=keep)

    def reshape(self, a: _Var) -> None:
        d = self.draw
        nd = len(a.shape)
        size = int(np.prod(a.shape))
        how = d(st.sampled_from(("reshape", "permute", "expand", "squeeze")))
        if how == "reshape":
            targets = [(size,), (1, size)] + ([(size // 2, 2)] if size % 2 == 0 and size else [])
            shape = d(st.sampled_from(targets))
            self.emit("reshape", (a,), tuple(shape), a.complex, shape=tuple(shape))
        elif how == "permute" and nd == 2:
            if d(st.booleans()):
                self.emit("T", (a,), a.shape[::-1], a.complex)
            else:
                self.emit("permute_dims", (a,), a.shape[::-1], a.complex, axes=(1, 0))
        elif how == "squeeze" and 1 in a.shape:
            ax = a.shape.index(1)
            self.emit("squeeze", (a,), a.shape[:ax] + a.shape[ax + 1 :], a.complex, axis=ax)
        else:
            ax = d(st.integers(0, nd))
            self.emit("expand_dims", (a,), (*a.shape[:ax], 1, *a.shape[ax:]), a.complex, axis=ax)

    def index(self, a: _Var) -> None:
        d = self.draw
        n0 = a.shape[0]
        how = d(st.sampled_from(("int", "slice", "mask")))
        if how == "int":
            i = d(st.integers(-n0, n0 - 1))
            self.emit("index", (a,), a.shape[1:], a.complex, index=("int", i))
        elif how == "slice":
            lo = d(st.integers(0, n0 - 1))
            hi = d(st.integers(lo + 1, n0))
            self.emit("index", (a,), (hi - lo, *a.shape[1:]), a.complex, index=("slice", lo, hi))
        else:
            full = d(st.booleans())
            m = self.mask(a.shape if full else a.shape[:1])
            name = self.fresh()
            # the count is known from the mask's data
            leaf = self.steps[-1]
            assert isinstance(leaf, Leaf)
            k = int(np.sum(np.asarray(leaf.data)))
            shape = (k,) if full else (k, *a.shape[1:])
            self.steps.append(Op(name, "index", (a.name, m.name), (("index", ("mask",)),)))
            self.vars.append(_Var(name, shape, a.complex, a.rg))

    def matmul(self, a: _Var) -> None:
        if len(a.shape) != 2:
            return
        m, k = a.shape
        cands = [
            v
            for v in self.vars
            if v.complex == a.complex and len(v.shape) in (1, 2) and v.shape[0] == k
        ]
        if not cands:
            return
        b = self.pick(cands)
        shape = (m,) if len(b.shape) == 1 else (m, b.shape[1])
        self.emit("matmul", (a, b), shape, a.complex)

    # ---- calls ---------------------------------------------------------------------
    def seed(self, v: _Var, batched: bool) -> Seed | None:
        d = self.draw
        kind = d(st.sampled_from(("none", "explicit", "explicit", "wrong")))
        dtype = self.dtype if v.complex else self.real_dtype
        if batched:
            kind = "wrong" if kind == "wrong" else "explicit"
            shape: tuple[int, ...] = (2, *v.shape)
        else:
            shape = v.shape
        if kind == "none":
            return None
        if kind == "wrong":
            shape = (*shape, 2) if d(st.booleans()) or not shape else shape[:-1]
        return Seed(_data(self.rng, shape, v.complex), dtype)

    def grad(self, name: str, outs: list[_Var], ins: list[_Var], create: bool) -> Grad:
        d = self.draw
        batched = d(st.integers(0, 9)) == 0
        seeds: tuple[Seed | None, ...] | None = None
        if batched or any(o.complex for o in outs) or d(st.booleans()):
            seeds = tuple(self.seed(o, batched) for o in outs)
        ngv = None
        if d(st.integers(0, 5)) == 0:
            ngv = (self.pick([v for v in self.vars if v.rg] or self.vars).name,)
        materialize = d(st.integers(0, 4)) == 0
        return Grad(
            name,
            tuple(o.name for o in outs),
            tuple(i.name for i in ins),
            seeds,
            retain_graph=d(st.sampled_from((None, None, True, False))),
            create_graph=create,
            allow_unused=d(st.sampled_from((None, None, True, False))),
            materialize_grads=materialize,
            no_grad_vars=ngv,
            batched=batched,
            single=len(outs) == 1 and len(ins) == 1 and d(st.booleans()),
        )

    def call(self, first: bool) -> Grad | None:
        d = self.draw
        inner = [v for v in self.vars if not v.leaf and not v.name.startswith("g")] or self.vars
        if d(st.integers(0, 9)):  # mostly outputs that require grad
            inner = [v for v in inner if v.rg] or inner
        n_out = d(st.integers(1, 2))
        outs = [self.pick(inner) for _ in range(n_out)]
        n_in = d(st.integers(1, 3))
        pool = [v for v in self.vars if not v.name.startswith("m")]
        leaves = [v for v in pool if v.leaf]
        ins = [self.pick(leaves) if d(st.integers(0, 3)) else self.pick(pool) for _ in range(n_in)]
        create = self.smooth and d(st.booleans())
        if d(st.integers(0, 5)) == 0:  # backward
            watched = [v for v in leaves if v.rg]
            by_inputs = create or d(st.booleans())
            inputs = tuple(v.name for v in ins) if by_inputs else None
            seeds = None
            if any(o.complex for o in outs) or d(st.booleans()):
                seeds = tuple(self.seed(o, False) for o in outs)
            del watched
            self.steps.append(
                Backward(
                    tuple(o.name for o in outs),
                    seeds,
                    retain_graph=d(st.sampled_from((None, True, False))),
                    create_graph=create,
                    inputs=inputs,
                )
            )
            return None
        name = self.fresh("g")
        g = self.grad(name, outs, ins, create)
        self.steps.append(g)
        return g


@st.composite
def programs(draw: Any, max_ops: int = 7) -> Program:
    """A random `_program.Program` (see the module docstring)."""
    dtype = draw(st.sampled_from(("float64", "float64", "float32", "complex128", "complex64")))
    smooth = draw(st.booleans())
    b = _Builder(draw, dtype, smooth)
    for i in range(draw(st.integers(1, 3))):
        b.add_leaf(watched=i == 0 or draw(st.integers(0, 3)) > 0)
    for _ in range(draw(st.integers(1, max_ops))):
        b.op()
    g = b.call(first=True)
    follow = draw(st.sampled_from(("none", "again", "higher", "higher")))
    if follow == "again":
        b.call(first=False)
    elif follow == "higher" and g is not None and g.create_graph:
        ins = {v.name: v for v in b.vars}
        for j, name in enumerate(g.inputs):
            v = ins[name]
            shape = (2, *v.shape) if g.batched else v.shape  # batched results lead with B
            b.vars.append(_Var(f"{g.name}[{j}]", shape, v.complex, True))
        for _ in range(draw(st.integers(1, 3))):
            b.op()
        b.call(first=False)
    return Program(tuple(b.steps))
