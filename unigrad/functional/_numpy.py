"""unigrad.functional on numpy: HIPS ``autograd``.

Functions of plain NumPy arrays (written with ``autograd.numpy``); results are plain
arrays, and every call can itself be differentiated by ``autograd.grad``. Complex
numbers follow torch's convention: ``conj(vjp(conj(v)))`` of autograd's. ``jvp`` is the
reverse-over-reverse trick (``autograd.make_jvp_reversemode``). ``strict`` is judged on
autograd's trace, walked by the tape's one walk of this engine
(`unigrad.tape.dependencies`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import autograd.numpy as anp
import numpy as np
from autograd import grad as ag_grad
from autograd.builtins import tuple as ag_tuple
from autograd.core import make_vjp
from autograd.tracer import isbox

from ..tape import dependencies
from . import _strict

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def _scalar(x: Any) -> Any:
    return anp.reshape(x, ())


def _complex(x: Any) -> bool:
    return bool(anp.iscomplexobj(x))


def _conj(xs: Any) -> tuple[Any, ...]:
    return tuple(anp.conj(x) if _complex(x) else x for x in xs)


def _like(vs: tuple[Any, ...], refs: Any) -> tuple[Any, ...]:
    out = []
    for v, r in zip(vs, refs, strict=False):
        dt = anp.result_type(r)
        out.append(
            v
            if anp.result_type(v) == dt
            else anp.astype(v, dt)
            if isbox(v)
            else anp.asarray(v, dtype=dt)
        )
    return tuple(out)


def _dtype_of(gs: Any, ins: tuple[Any, ...]) -> tuple[Any, ...]:
    """autograd may promote float32 gradients to float64: give each the input's dtype."""
    out = []
    for g, x in zip(gs, ins, strict=False):
        dt = anp.result_type(x)
        if not isbox(g) and anp.result_type(g) != dt:
            g = anp.asarray(g, dtype=dt)
        out.append(g)
    return tuple(out)


def _plain(xs: Any) -> tuple[Any, ...]:
    """NumPy scalars (``np.float32``) as 0-d arrays, like every other backend's results."""
    return tuple(anp.asarray(x) if isinstance(x, np.generic) else x for x in xs)


def _tupled(func: Callable[..., Any], n: int) -> Callable[[Any], Any]:
    def f(xs: Any) -> Any:
        outs = func(*[xs[i] for i in range(n)])
        return ag_tuple(outs) if isinstance(outs, tuple) else outs

    return f


def _make_vjp(func: Callable[..., Any], ins: tuple[Any, ...]) -> tuple[Any, Any]:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Output seems independent of input")
        pullback, outs = make_vjp(_tupled(func, len(ins)), ag_tuple(ins))
    return pullback, outs


def _deps(func: Callable[..., Any], ins: tuple[Any, ...]) -> list[set[int]]:
    """For each output of ``func``, the inputs it depends on: the tape's walk of
    autograd's trace (`unigrad.tape.dependencies`, one run). On this engine it
    answers torch's strict-mode question too: autograd traces no function without a
    derivative, and the inputs here are all floating-point or complex."""

    def tupled(*xs: Any) -> tuple[Any, ...]:
        outs = func(*xs)
        return outs if isinstance(outs, tuple) else (outs,)

    return [set(d) for d in dependencies("numpy", tupled, ins)]


def vjp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    check_v: Callable[[tuple[Any, ...]], None],
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    pullback, outs = _make_vjp(func, ins)
    outs = _plain(outs)
    check_v(outs)
    if strict:
        _strict.check_deps(_deps(func, ins), len(ins))
    v = (anp.ones_like(outs[0]),) if vs is None else _like(vs, outs)
    return outs, _dtype_of(_conj(pullback(ag_tuple(_conj(v)))), ins)


def jvp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    pullback, outs = _make_vjp(func, ins)
    outs = _plain(outs)
    if strict:
        _strict.check_deps(_deps(func, ins), len(ins))
    v = (anp.ones_like(ins[0]),) if vs is None else _like(vs, ins)
    zeros = ag_tuple(tuple(anp.zeros_like(o) for o in outs))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Output seems independent of input")
        pullback2, _ = make_vjp(lambda u: ag_tuple(pullback(u)), zeros)
    return outs, _dtype_of(tuple(pullback2(ag_tuple(v))), outs)


def _rows(pullback: Any, outs: tuple[Any, ...], ins: tuple[Any, ...]) -> tuple[Any, ...]:
    rows = []
    for k, o in enumerate(outs):
        shape = anp.shape(o)
        m = int(anp.size(o))
        blocks: list[list[Any]] = [[] for _ in ins]
        for e in range(m):
            basis = anp.zeros(m, dtype=anp.result_type(o))
            basis[e] = 1
            cts = tuple(
                anp.reshape(basis, shape) if j == k else anp.zeros_like(p)
                for j, p in enumerate(outs)
            )
            for j, g in enumerate(_dtype_of(_conj(pullback(ag_tuple(cts))), ins)):
                blocks[j].append(g)
        rows.append(
            tuple(
                anp.reshape(
                    anp.stack(b) if b else anp.zeros((0, *anp.shape(x)), anp.result_type(x)),
                    (*shape, *anp.shape(x)),
                )
                for b, x in zip(blocks, ins, strict=False)
            )
        )
    return tuple(rows)


def jacobian(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    create_graph: bool,
    strict: bool,
    vectorize: bool,
    strategy: str,
) -> Any:
    if strict:
        _strict.check_deps(_deps(func, ins), len(ins))
    pullback, outs = _make_vjp(func, ins)
    return _rows(pullback, tuple(outs), ins)


def _grad_fn(func: Callable[..., Any], n: int) -> Callable[..., Any]:
    g = ag_grad(lambda xs: _scalar(func(*[xs[i] for i in range(n)])))

    def grads(*xs: Any) -> tuple[Any, ...]:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Output seems independent of input")
            return tuple(g(ag_tuple(xs)))

    return grads


def _check_hessian(func: Callable[..., Any], ins: tuple[Any, ...]) -> None:
    _strict.check_hessian_deps(_deps(func, ins)[0], _deps(_grad_fn(func, len(ins)), ins), len(ins))


def hessian(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    create_graph: bool,
    strict: bool,
    vectorize: bool,
    strategy: str,
) -> Any:
    if strict:
        _check_hessian(func, ins)
    gfun = _grad_fn(func, len(ins))
    pullback, gs = _make_vjp(gfun, ins)
    return _rows(pullback, tuple(gs), ins)


def vhp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    if strict:
        _check_hessian(func, ins)
    v = (anp.ones_like(ins[0]),) if vs is None else _like(vs, ins)
    pullback, _ = _make_vjp(_grad_fn(func, len(ins)), ins)
    (out,) = _plain((func(*ins),))
    # autograd's gradient of a real function of complex inputs is the conjugate of
    # torch's, and its VJP is conjugate-linear in torch's terms: torch's vhp is the
    # conjugate of this pullback of v (the same for real inputs)
    return out, _dtype_of(_conj(tuple(pullback(ag_tuple(v)))), ins)


hvp = vhp
