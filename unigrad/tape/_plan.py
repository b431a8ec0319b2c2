"""Steps 2 and 3 of ``grad`` on the tape: the live nodes rebuilt as one function, and
its VJP.

`build` completes what `unigrad.tape._analyse.analyse` laid out: a `Plan`, the steps of
one pure function ``forward(inputs, constants)``, where a non-leaf input ``h`` is both
computed (so gradients flow through it to inputs upstream, as in torch) and perturbed by
a zero argument whose gradient is the gradient for ``h``. `make_run` wraps it as
``run(inputs, constants, seeds)``: the VJP of ``forward`` with the engine's own autodiff,
in torch's convention for complex numbers, ``conj(vjp(conj(seed)))``. `compiled_run`
compiles it on jax and caches it by the graph's structure (the ``gradients`` cache,
keyed by a canonical `unigrad.tape._caches.Key`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

from ._analyse import Analysis, Step
from ._caches import CACHES, canonical
from ._recompile import RECOMPILES
from ._tensor import Tensor

__all__ = ["Plan", "build", "compiled_run", "make_run"]


class Plan:
    """A rebuilt pure function and what to call it with."""

    __slots__ = ("consts", "deltas", "keep_srcs", "key", "n_slots", "out_srcs", "steps")

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.consts: list[Any] = []
        self.out_srcs: tuple[tuple[int, int], ...] = ()
        self.keep_srcs: tuple[tuple[int, int], ...] = ()
        self.deltas: frozenset[int] = frozenset()
        self.n_slots = 0
        self.key: Any = None


def build(
    a: Analysis,
    outputs: Sequence[Any],
    inputs: Sequence[Tensor],
    cut: set[int],
    keep: Sequence[Tensor] = (),
) -> Plan:
    """The live nodes as steps of one function; ``keep``: pending values it also returns.

    `analyse` has laid out the steps; this adds where the outputs and ``keep`` are read
    and the cache key."""
    plan = Plan()
    in_pos = a.in_pos
    live = a.live
    base = a.base
    const_pos = a.const_pos
    consts = plan.consts = a.consts

    def source(p: Any) -> tuple[int, int]:
        if isinstance(p, Tensor):
            pid = id(p)
            if pid not in cut:
                n = p._node
                if n is not None and live.get(n):
                    return (2, base[n] + p._index)
                i = in_pos.get(pid)
                if i is not None:
                    return (0, i)
        j = const_pos.get(id(p))
        if j is None:
            j = const_pos[id(p)] = len(consts)
            consts.append(p)
        return (1, j)

    plan.steps = a.steps
    plan.n_slots = a.n_slots
    plan.out_srcs = tuple(source(y) for y in outputs)
    plan.keep_srcs = tuple(source(t) for t in keep)
    plan.deltas = frozenset(a.deltas)
    plan.key = (
        tuple(a.keys),
        plan.out_srcs,
        plan.keep_srcs,
        len(inputs),
        len(consts),
        plan.deltas,
    )
    return plan


def _forward(plan: Plan) -> Callable[..., tuple[tuple[Any, ...], tuple[Any, ...]]]:
    steps = tuple(plan.steps)
    out_srcs = plan.out_srcs
    keep_srcs = plan.keep_srcs
    n_slots = plan.n_slots

    def forward(
        ins: Sequence[Any], consts: Sequence[Any]
    ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        slots: list[Any] = [None] * n_slots
        srcs_of = (ins, consts, slots)
        for fn, srcs, b, n_out, ds in steps:
            outs = fn(*[srcs_of[k][i] for k, i in srcs])
            slots[b : b + n_out] = outs
            for s, i in ds:
                slots[s] = slots[s] + ins[i]
        kept = tuple(srcs_of[k][i] for k, i in keep_srcs)
        return tuple(srcs_of[k][i] for k, i in out_srcs), kept

    return forward


_COMPLEX: dict[Any, bool] = {}


def _is_complex(dtype: Any) -> bool:
    try:
        return _COMPLEX[dtype]
    except (KeyError, TypeError):  # (TypeError: an unhashable dtype, asked each time)
        pass
    import numpy as np

    try:
        answer = bool(np.issubdtype(dtype, np.complexfloating))
    except TypeError:
        answer = False
    with contextlib.suppress(TypeError):
        _COMPLEX[dtype] = answer
    return answer


def make_run(
    engine: Any, plan: Plan, seed_none: tuple[bool, ...], values: bool = False
) -> Callable[..., Any]:
    """``run(ins, consts, seeds) -> one gradient per input``, in the torch convention.

    With ``values``, ``(gradients, outputs, kept)``: the forward's values of the outputs
    and of ``plan.keep_srcs``, computed by the same pass."""
    forward = _forward(plan)
    deltas = plan.deltas
    xnp = engine.np
    dtype_of = engine.dtype_of
    ones_of = engine.ones_of

    def run(ins: Sequence[Any], consts: Sequence[Any], seeds: Sequence[Any]) -> Any:
        # zeros(shape)/ones(shape) rather than *_like(x): autograd records zeros_like
        # as a function of x, which would make gradients "depend" on what they do not
        primals = tuple(
            xnp.zeros(x.shape, x.dtype) if i in deltas else x for i, x in enumerate(ins)
        )

        def f(*p: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
            return forward(p, consts)

        outs, pull, kept = engine.vjp(f, primals)
        cts = tuple(
            ones_of(o) if none else (xnp.conj(s) if _is_complex(dtype_of(s)) else s)
            for o, s, none in zip(outs, seeds, seed_none, strict=True)
        )
        gs = pull(cts)
        result = []
        for x, g in zip(primals, gs, strict=True):
            dt = dtype_of(g)
            if dt is None:  # autograd: a Python scalar for some 0-d gradients
                g = xnp.asarray(g)
                dt = dtype_of(g)
            if _is_complex(dt):
                g = xnp.conj(g)
            x_dt = dtype_of(x)
            if dt != x_dt:
                g = engine.cast(g, x_dt)
            result.append(g)
        if values:
            return tuple(result), outs, kept
        return tuple(result)

    return run


def compiled_run(
    engine: Any, plan: Plan, seed_none: tuple[bool, ...], batched: bool, values: bool = False
) -> tuple[Callable[..., Any], Any]:
    """The (cached, on jax compiled) run function for this plan, and its cache key."""
    key: Any
    try:
        key = canonical((plan.key, seed_none, batched, values))
    except TypeError:  # an unhashable static argument: no cache
        key = None
    gradients = CACHES.gradients
    if engine.compiles and key is not None:
        fn = gradients.get(key)
        if fn is not None:
            return fn, key
    run = make_run(engine, plan, seed_none, values)
    if batched:
        run = engine.batched(run)
    if engine.compiles:
        run = engine.jit(run)
        if key is not None:
            RECOMPILES.miss(key)
            gradients.put(key, run)
    return run, key
