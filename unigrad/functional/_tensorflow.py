"""unigrad.functional on tensorflow: ``tf.GradientTape``.

Functions of plain ``tf.Tensor`` values (written with TensorFlow ops); results are plain
tensors, and every call is itself recorded by an enclosing ``tf.GradientTape`` (nested
tapes), as the jax and numpy calls compose with ``jax.grad`` and ``autograd.grad``:
``create_graph`` is accepted and changes nothing. Complex numbers need no translation:
``tf.GradientTape.gradient`` already returns torch's ``conj(J^T conj(v))``. ``jvp`` is
the double-backward trick (the VJP is linear in its seed), ``hvp`` equals ``vhp`` (the
Hessian is symmetric) as on the other backends. Unreachable inputs get zeros
(``unconnected_gradients=ZERO``); ``strict`` is judged on the recorded ops, walked by the
tape's dependence walk of this engine (`unigrad.tape.dependencies`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

from ..tape import dependencies
from . import _strict

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def _watched(ins: tuple[Any, ...]) -> tuple[Any, ...]:
    """Each input as a tensor of its own (a ``tf.Variable`` read once): one tensor given
    twice is two inputs, as torch's functional makes a view of each (``tf.identity``,
    which an enclosing tape records, so the results stay differentiable in ``ins``)."""
    return tuple(tf.identity(x) for x in ins)


def _dense(gs: Sequence[Any], refs: Sequence[Any]) -> tuple[Any, ...]:
    """Dense gradients (a gather's ``tf.IndexedSlices``), zeros for an input that is not
    differentiable (TensorFlow answers ``None`` for an integer source)."""
    out = []
    for g, r in zip(gs, refs, strict=True):
        if g is None:
            g = tf.zeros_like(r)
        elif isinstance(g, tf.IndexedSlices):
            g = tf.convert_to_tensor(g)
        out.append(g)
    return tuple(out)


def _tupled(func: Callable[..., Any]) -> Callable[..., tuple[Any, ...]]:
    def f(*xs: Any) -> tuple[Any, ...]:
        outs = func(*xs)
        return outs if isinstance(outs, tuple) else (outs,)

    return f


def _deps(func: Callable[..., Any], ins: tuple[Any, ...]) -> list[set[int]]:
    """For each output of ``func``, the inputs it depends on (the tape's walk of this
    engine: a recorded path, not through ops whose gradient TensorFlow registers as
    none)."""
    return [set(d) for d in dependencies("tensorflow", _tupled(func), ins)]


def _gradient(tape: Any, targets: Any, sources: Any, seeds: Any) -> tuple[Any, ...]:
    gs = tape.gradient(
        list(targets),
        list(sources),
        output_gradients=None if seeds is None else list(seeds),
        unconnected_gradients=tf.UnconnectedGradients.ZERO,
    )
    return _dense(gs, sources)


def _like(vs: tuple[Any, ...], refs: Sequence[Any]) -> tuple[Any, ...]:
    """Each ``v`` in its reference's dtype (a seed of another dtype is cast, as torch's
    ``grad_outputs`` are read)."""
    return tuple(
        v if v.dtype == r.dtype else tf.cast(v, r.dtype)
        for v, r in zip((tf.convert_to_tensor(v) for v in vs), refs, strict=False)
    )


def vjp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    check_v: Callable[[tuple[Any, ...]], None],
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    xs = _watched(ins)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(xs)
        outs = func(*xs)
    check_v(outs)
    if strict:
        _strict.check_deps(_deps(func, xs), len(xs))
    v = (tf.ones_like(outs[0]),) if vs is None else _like(vs, outs)
    return tuple(outs), _gradient(tape, outs, xs, v)


def jvp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    xs = _watched(ins)
    if strict:
        _strict.check_deps(_deps(func, xs), len(xs))
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as outer:
        with tf.GradientTape(persistent=True, watch_accessed_variables=False) as inner:
            inner.watch(xs)
            outs = tuple(func(*xs))
        us = tuple(tf.zeros_like(o) for o in outs)
        outer.watch(us)
        back = _gradient(inner, outs, xs, us)  # u -> J^H u, linear in u
    v = (tf.ones_like(xs[0]),) if vs is None else _like(vs, xs)
    return outs, _dense(
        outer.gradient(
            list(back),
            list(us),
            output_gradients=list(v),
            unconnected_gradients=tf.UnconnectedGradients.ZERO,
        ),
        us,
    )


def _rows(tape: Any, outs: Sequence[Any], ins: tuple[Any, ...]) -> tuple[Any, ...]:
    """torch's Jacobian rows: one VJP per element of each output (basis seeds)."""
    rows = []
    for k, o in enumerate(outs):
        shape = tuple(o.shape)
        m = int(tf.size(o))
        blocks: list[list[Any]] = [[] for _ in ins]
        for e in range(m):
            basis = tf.reshape(tf.one_hot(e, m, dtype=o.dtype), shape)
            cts = [basis if j == k else tf.zeros_like(p) for j, p in enumerate(outs)]
            for j, g in enumerate(_gradient(tape, outs, ins, cts)):
                blocks[j].append(g)
        rows.append(
            tuple(
                tf.reshape(
                    tf.stack(b) if b else tf.zeros((0, *x.shape), x.dtype),
                    (*shape, *x.shape),
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
    xs = _watched(ins)
    if strict:
        _strict.check_deps(_deps(func, xs), len(xs))
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(xs)
        outs = tuple(func(*xs))
    return _rows(tape, outs, xs)


def _grad_fn(func: Callable[..., Any]) -> Callable[..., tuple[Any, ...]]:
    """The gradient of the scalar ``func`` (torch's convention), itself recorded by an
    enclosing tape."""

    def grads(*xs: Any) -> tuple[Any, ...]:
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(xs)
            out = tf.reshape(func(*xs), ())
        return _gradient(tape, (out,), xs, None)

    return grads


def _check_hessian(func: Callable[..., Any], xs: tuple[Any, ...]) -> None:
    _strict.check_hessian_deps(_deps(func, xs)[0], _deps(_grad_fn(func), xs), len(xs))


def hessian(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    create_graph: bool,
    strict: bool,
    vectorize: bool,
    strategy: str,
) -> Any:
    xs = _watched(ins)
    if strict:
        _check_hessian(func, xs)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(xs)
        gs = _grad_fn(func)(*xs)
    return _rows(tape, gs, xs)


def vhp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    xs = _watched(ins)
    if strict:
        _check_hessian(func, xs)
    v = (tf.ones_like(xs[0]),) if vs is None else _like(vs, xs)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(xs)
        gs = _grad_fn(func)(*xs)
    out = func(*xs)
    return out, _gradient(tape, gs, xs, v)


hvp = vhp
