"""Hypothesis strategies for random differential programs.

`programs` draws 1-3 leaves (watched or constant, of one dtype), 1-7 namespace ops
over them, then one or two ``grad``/``backward`` calls with random flags: single or
sequence outputs and inputs, duplicates, None/explicit/batched/wrongly shaped seeds,
``no_grad_vars``, ``allow_unused``/``materialize_grads``, ``retain_graph``/
``create_graph``, a second- or third-order call through the first call's results, or a
second pass through a graph the first call may have consumed.

Every op comes from the one op table (`_ops.TABLE`): its draw picks its arguments,
shapes, dtypes and parameters. No op is kept out of any mode: piecewise-linear ops,
cuts and complex functions appear in create_graph programs like every other op.

``focus`` (`focus_for`) makes a program draw given namespace functions in a given
mode first: `_certify.generate` cycles through every (function, mode) pair by program
index, so that 300 programs draw every differentiable function in every mode.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st

from ._ops import DIFFERENTIABLE, MODES, OPS, TABLE, Drawn, OpSpec, Var, remember
from ._program import Backward, Grad, Leaf, Op, Program, Seed, Step, shape_field

__all__ = ["focus_for", "generate_focused", "programs"]

_SHAPES: tuple[tuple[int, ...], ...] = ((), (3,), (2, 3), (3, 2), (2, 2))
_DRAWN = tuple(s for s in TABLE if s.draw is not None)
#: One op per differentiable function: the first in the table that draws it.
_FOR_FUNCTION: dict[str, OpSpec] = {}
for _s in _DRAWN:
    for _c in _s.covers:
        _FOR_FUNCTION.setdefault(_c, _s)

#: Programs `focus_for` plans for: this many draw every function in every mode.
PLANNED = 300


def focus_for(index: int, planned: int = PLANNED) -> tuple[tuple[str, ...], str]:
    """The ops and the mode program ``index`` draws first: a deterministic cycle over
    (function, mode) pairs, so that ``planned`` programs reach every pair."""
    funcs = DIFFERENTIABLE
    per_mode = max(planned // len(MODES), 1)
    mode = MODES[index % len(MODES)]
    # the functions spread evenly over a mode's ``per_mode`` programs (each draws
    # floor or ceil of len(funcs) / per_mode of them, not all the ceiling: every op
    # drawn adds a chance of a degenerate program)
    turn, j = divmod(index // len(MODES), per_mode)
    lo = (j * len(funcs)) // per_mode + turn * len(funcs)
    hi = ((j + 1) * len(funcs)) // per_mode + turn * len(funcs)
    names = tuple(_FOR_FUNCTION[funcs[i % len(funcs)]].name for i in range(lo, hi))
    return names, mode


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


_COMPLEX_OF = {"float32": "complex64", "float64": "complex128"}
_REAL_OF = {"complex64": "float32", "complex128": "float64"}


class _Builder:
    """Draws a program step by step; implements `_ops.Builder` for the ops' draws."""

    def __init__(self, source: Any, dtype: str) -> None:
        self.source = source
        self.dtype = dtype
        self.complex = "complex" in dtype
        self.real_dtype = _REAL_OF.get(dtype, dtype)
        self.steps: list[Step] = []
        self.vars: list[Var] = []
        self.n = 0
        self.rng = np.random.default_rng(self.integer(0, 2**32 - 1))

    # ---- the `_ops.Builder` protocol ------------------------------------------------
    def integer(self, lo: int, hi: int) -> int:
        got: int = self.source.integer(lo, hi)
        return got

    def choice(self, options: Any) -> Any:
        return options[self.integer(0, len(options) - 1)]

    def flip(self) -> bool:
        return self.integer(0, 1) == 1

    def partner(
        self, a: Var, shape: tuple[int, ...] | None = None, *, broadcast: bool = False
    ) -> Var:
        """Another floating value of ``a``'s kind: of ``shape``, broadcastable with
        ``a``, or any; a new leaf where none fits."""
        cands = [v for v in self.floats() if v.complex == a.complex and v is not a]
        if shape is not None:
            cands = [v for v in cands if v.shape == shape]
        elif broadcast:
            cands = [v for v in cands if _broadcastable(a.shape, v.shape)]
        if cands and self.integer(0, 4):
            return self.pick(cands)
        return self.add_leaf(
            self.integer(0, 3) > 0, shape if shape is not None else a.shape, a.dtype
        )

    def real_of(self, a: Var) -> Var:
        if not a.complex:
            return a
        name = self.choice(("real", "imag", "abs"))
        return self.emit(OPS[name], ((a,), a.shape, _REAL_OF[a.dtype], {}))

    def mask(self, shape: tuple[int, ...]) -> Var:
        name = self.fresh("m")
        m = self.rng.random(shape) < 0.6
        if m.size:
            m.flat[0] = True  # never an empty selection
        data = m.tolist()
        self.steps.append(Leaf(name, data, "bool", False, shape_field(shape)))
        remember(name, data)
        return Var(name, shape, "bool", False)

    def data(self, values: Any, dtype: str, shape: tuple[int, ...] | None = None) -> Var:
        """A constant leaf of ``values``; ``shape`` where nested lists cannot say it (a
        zero-size value of more than one axis: ``[]`` of shape ``(0, 2)``)."""
        if shape is None:
            shape = tuple(np.shape(values))
        name = self.fresh("i")
        self.steps.append(Leaf(name, values, dtype, False, shape_field(shape)))
        remember(name, values)
        return Var(name, shape, dtype, False)

    # ---- building ---------------------------------------------------------------------
    def fresh(self, prefix: str = "v") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def floats(self) -> list[Var]:
        return [v for v in self.vars if v.floating]

    def pick(self, vs: list[Var]) -> Var:
        # prefer recent values: programs then chain instead of fanning out
        i = self.integer(0, len(vs) - 1)
        j = self.integer(0, len(vs) - 1)
        picked: Var = vs[max(i, j)]
        return picked

    def add_leaf(
        self, watched: bool, shape: tuple[int, ...] | None = None, dtype: str | None = None
    ) -> Var:
        if shape is None:
            shape = self.choice(_SHAPES)
        dtype = dtype or self.dtype
        name = self.fresh("x")
        data = _data(self.rng, shape, "complex" in dtype)
        self.steps.append(Leaf(name, data, dtype, watched, shape_field(shape)))
        v = Var(name, shape, dtype, watched, leaf=True, deps=frozenset({name} if watched else ()))
        self.vars.append(v)
        return v

    def emit(self, spec: OpSpec, drawn: Drawn) -> Var:
        args, shape, dtype, params = drawn
        name = self.fresh()
        self.steps.append(
            Op(name, spec.name, tuple(a.name for a in args), tuple(sorted(params.items())))
        )
        cuts = spec.cuts and not (spec.cuts_real_only and "complex" in dtype)
        rg = any(a.rg for a in args) and not cuts
        deps = frozenset() if cuts else frozenset().union(*(a.deps for a in args))
        v = Var(name, tuple(shape), dtype, rg, deps=deps)
        self.vars.append(v)
        return v

    def try_op(self, spec: OpSpec, force: bool) -> bool:
        """Draw ``spec`` on a value that fits it; with ``force``, make one if none does."""
        assert spec.draw is not None
        fits = [v for v in self.floats() if spec.fits(v)]
        tries = 3 if force else 1
        for _ in range(tries):
            if fits:
                a = self.pick(fits)
            elif not force:
                return False
            else:
                a = self.fitting_leaf(spec)
            drawn = spec.draw(self, a)
            if drawn is not None:
                self.emit(spec, drawn)
                return True
            fits = []
        a = self.fitting_leaf(spec)
        drawn = spec.draw(self, a)
        if drawn is not None:
            self.emit(spec, drawn)
            return True
        return False

    def fitting_leaf(self, spec: OpSpec) -> Var:
        """A value ``spec`` can take: a new leaf of its example shape and kind (real
        from a complex program's value through ``real``/``imag``/``abs``)."""
        shape = spec.example if spec.min_nd <= len(spec.example) else (2, 2, 2)
        if self.complex and not spec.complex:
            return self.real_of(self.add_leaf(True, shape))
        if not self.complex and not spec.real:
            return self.add_leaf(True, shape, _COMPLEX_OF[self.dtype])
        return self.add_leaf(True, shape)

    def op(self) -> None:
        spec = self.choice(_DRAWN)
        if not self.try_op(spec, force=False):
            a = self.pick(self.floats())
            self.emit(OPS["neg"], ((a,), a.shape, a.dtype, {}))

    # ---- calls ---------------------------------------------------------------------
    def seed(self, v: Var, batched: bool) -> Seed | None:
        kind = self.choice(("none", "none", "explicit", "explicit", "explicit", "wrong"))
        if batched:
            kind = "wrong" if kind == "wrong" else "explicit"
            shape: tuple[int, ...] = (2, *v.shape)
        else:
            shape = v.shape
        if kind == "none":
            return None
        if kind == "wrong":
            shape = (*shape, 2) if self.flip() or not shape else shape[:-1]
        return Seed(_data(self.rng, shape, v.complex), v.dtype, shape_field(shape))

    def grad(
        self, name: str, outs: list[Var], ins: list[Var], create: bool, mode: str | None
    ) -> Grad:
        batched = mode == "batched" or self.integer(0, 9) == 0
        seeds: tuple[Seed | None, ...] | None = None
        if batched or any(o.complex for o in outs) or self.flip():
            seeds = tuple(self.seed(o, batched) for o in outs)
        ngv = None
        if mode == "no_grad_vars" or self.integer(0, 5) == 0:
            ngv = (self.pick([v for v in self.floats() if v.rg] or self.floats()).name,)
        materialize = self.integer(0, 4) == 0
        allow = self.choice((None, None, True, False))
        if mode == "allow_unused":
            allow = True
        retain = self.choice((None, None, True, False))
        if mode == "consumed":
            retain = False
        return Grad(
            name,
            tuple(o.name for o in outs),
            tuple(i.name for i in ins),
            seeds,
            retain_graph=retain,
            create_graph=create,
            allow_unused=allow,
            materialize_grads=materialize and allow is not False,
            no_grad_vars=ngv,
            batched=batched,
            single=len(outs) == 1 and len(ins) == 1 and self.flip(),
        )

    def call(self, mode: str | None, create: bool | None = None) -> Grad | None:
        fl = self.floats()
        inner = [v for v in fl if not v.leaf and not v.name.startswith("g")] or fl
        if self.integer(0, 9):  # mostly outputs that require grad
            inner = [v for v in inner if v.rg] or inner
        n_out = self.integer(1, 2)
        # the latest values first: the ops just drawn are on the path
        outs = [inner[-1] if self.flip() else self.pick(inner) for _ in range(n_out)]
        n_in = self.integer(1, 3)
        leaves = [v for v in fl if v.leaf]
        # mostly leaves the outputs depend on (an unused input is one draw in eight)
        reach = [v for v in leaves if any(v.name in o.deps for o in outs)] or leaves
        ins = [
            self.pick(reach) if self.integer(0, 7) else self.pick(leaves if self.flip() else fl)
            for _ in range(n_in)
        ]
        if create is None:
            create = self.flip()
        if mode == "backward" or (mode is None and self.integer(0, 5) == 0):
            by_inputs = create or self.flip()
            inputs = tuple(v.name for v in ins) if by_inputs else None
            seeds = None
            if any(o.complex for o in outs) or self.flip():
                seeds = tuple(self.seed(o, False) for o in outs)
            self.steps.append(
                Backward(
                    tuple(o.name for o in outs),
                    seeds,
                    retain_graph=self.choice((None, True, False)),
                    create_graph=create,
                    inputs=inputs,
                )
            )
            return None
        name = self.fresh("g")
        g = self.grad(name, outs, ins, create, mode)
        self.steps.append(g)
        return g

    def results_of(self, g: Grad) -> None:
        """Make ``g``'s results values later ops may use."""
        ins = {v.name: v for v in self.vars}
        for j, name in enumerate(g.inputs):
            v = ins[name]
            shape = (2, *v.shape) if g.batched else v.shape  # batched results lead with B
            deps = frozenset(u.name for u in self.vars if u.leaf and u.rg)
            self.vars.append(Var(f"{g.name}[{j}]", shape, v.dtype, True, deps=deps))


class _Hypothesis:
    """Choices drawn by Hypothesis (so that it shrinks a failing program)."""

    def __init__(self, draw: Any) -> None:
        self.draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return int(self.draw(st.integers(lo, hi)))


class _Seeded:
    """Choices from a NumPy generator: `generate_focused`'s programs, whose draws
    depend on their focus (which Hypothesis's engine would call flaky)."""

    def __init__(self, seed: tuple[int, ...]) -> None:
        self.rng = np.random.default_rng(list(seed))

    def integer(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi + 1))


@st.composite
def programs(draw: Any, max_ops: int = 7) -> Program:
    """A random `_program.Program` (see the module docstring), drawn by Hypothesis."""
    return _build(_Hypothesis(draw), max_ops, None)


#: How many times `generate_focused` draws a program again where ``keep`` rejects it.
REDRAWS = 3


def generate_focused(
    n: int, seed: int, max_ops: int = 7, keep: Callable[[Program], bool] | None = None
) -> list[Program]:
    """``n`` programs, program ``i`` drawing `focus_for` ``(i)`` first (from NumPy
    generators seeded with ``(seed, i)``: the same programs for the same seed).

    Where ``keep`` (the certification's: the reference finds it not degenerate) rejects
    a program, it is drawn again with the same focus from ``(seed, i, k)``, up to
    `REDRAWS` times; the last draw stays whatever ``keep`` says."""
    out = []
    for i in range(n):
        p = _build(_Seeded((seed, i)), max_ops, focus_for(i))
        for k in range(1, REDRAWS + 1):
            if keep is None or keep(p):
                break
            p = _build(_Seeded((seed, i, k)), max_ops, focus_for(i))
        out.append(p)
    return out


def _build(source: Any, max_ops: int, focus: tuple[tuple[str, ...], str] | None) -> Program:
    b = _Builder(source, "float64")
    b.dtype = dtype = b.choice(("float64", "float64", "float32", "complex128", "complex64"))
    b.complex = "complex" in dtype
    b.real_dtype = _REAL_OF.get(dtype, dtype)
    for i in range(b.integer(1, 3)):
        b.add_leaf(watched=i == 0 or b.integer(0, 3) > 0)
    ops, mode = focus if focus is not None else ((), None)
    for _ in range(b.integer(0 if ops else 1, max_ops)):
        b.op()
    for name in ops:
        b.try_op(OPS[name], force=True)
    if mode is None:
        g = b.call(None)
        follow = b.choice(("none", "again", "higher", "higher"))
        if follow == "again":
            b.call(None)
        elif follow == "higher" and g is not None and g.create_graph:
            b.results_of(g)
            for _ in range(b.integer(1, 3)):
                b.op()
            b.call(None)
        return Program(tuple(b.steps))
    higher = mode in ("create_graph", "third_order")
    g = b.call(mode, create=True if higher else None)
    if mode == "consumed":
        b.call(None)
    elif higher and g is not None:
        b.results_of(g)
        for _ in range(b.integer(1, 2)):
            b.op()
        g2 = b.call("higher", create=mode == "third_order")
        if mode == "third_order" and g2 is not None:
            b.results_of(g2)
            b.op()
            b.call("higher")
    elif b.flip():
        b.call(None)
    return Program(tuple(b.steps))
