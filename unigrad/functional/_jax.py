"""unigrad.functional on jax: ``jax.vjp``, ``jax.jvp``, ``jax.jacfwd``, ``jax.hessian``.

Functions of plain jax arrays; results are plain arrays, and every call is traceable
(it composes with ``jax.jit``, ``jax.grad`` and ``jax.vmap``), which is what
``create_graph`` means here. Complex numbers follow torch's convention: the
vector-Jacobian product is ``conj(vjp(conj(v)))`` of jax's. ``strict`` is judged on
the jaxpr: an output depends on an input when a chain of equations links them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from jax.extend.core import Literal

from . import _strict

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def _scalar(x: Any) -> Any:
    return jnp.reshape(x, ())


def _complex(x: Any) -> bool:
    return bool(jnp.iscomplexobj(x))


def _conj(xs: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(jnp.conj(x) if _complex(x) else x for x in xs)


def _like(vs: tuple[Any, ...], refs: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(jnp.asarray(v, dtype=r.dtype) for v, r in zip(vs, refs, strict=False))


def _deps(func: Callable[..., Any], ins: tuple[Any, ...]) -> list[set[int]]:
    """For each output of ``func``, the inputs it depends on, read from the jaxpr.

    torch's strict mode asks whether an output was *recorded* from an input, so every
    equation links its operands to its results. The tape's walk
    (`unigrad.tape._deps.jax_dependencies`) asks the contract's rule 14 instead
    (differentiable dependence: no link through ``floor``/``sign``/``round``, through
    integer or boolean values such as a ``where`` mask, and only through the operands a
    nested ``jit`` really uses), and would refuse under ``strict=True`` calls that torch
    accepts (``floor(x) + y``, the Hessian of ``relu``); so this walk stays apart.
    """
    closed = jax.make_jaxpr(func)(*ins)
    jaxpr = closed.jaxpr
    env: dict[Any, set[int]] = {}
    for i, var in enumerate(jaxpr.invars):
        env[var] = {i}

    def read(var: Any) -> set[int]:
        return env.get(var, set()) if not isinstance(var, Literal) else set()

    for eqn in jaxpr.eqns:
        dep: set[int] = set()
        for var in eqn.invars:
            dep |= read(var)
        for var in eqn.outvars:
            env[var] = dep
    return [read(v) for v in jaxpr.outvars]


def vjp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    check_v: Callable[[tuple[Any, ...]], None],
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    outs, pullback = jax.vjp(func, *ins)
    check_v(outs)
    if strict:
        _strict.check_deps(_deps(func, ins), len(ins))
    v = (jnp.ones_like(outs[0]),) if vs is None else _like(vs, outs)
    return outs, _conj(pullback(_conj(v)))


def jvp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    v = (jnp.ones_like(ins[0]),) if vs is None else _like(vs, ins)
    outs, tangents = jax.jvp(func, ins, v)
    if strict:
        _strict.check_deps(_deps(func, ins), len(ins))
    return outs, tangents


def jacobian(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    create_graph: bool,
    strict: bool,
    vectorize: bool,
    strategy: str,
) -> Any:
    argnums = tuple(range(len(ins)))
    if strict:
        _strict.check_deps(_deps(func, ins), len(ins))
    if strategy == "forward-mode" and not any(_complex(x) for x in ins):
        return jax.jacfwd(func, argnums=argnums)(*ins)
    # reverse mode: vmap of the VJP over the rows of an identity, in torch's convention
    outs, pullback = jax.vjp(func, *ins)
    rows = []
    for k, o in enumerate(outs):
        m = o.size
        eye = jnp.eye(m, dtype=o.dtype).reshape((m, *o.shape))
        cts = tuple(
            eye if j == k else jnp.zeros((m, *p.shape), p.dtype) for j, p in enumerate(outs)
        )
        blocks = _conj(jax.vmap(pullback)(cts))
        rows.append(
            tuple(jnp.reshape(b, (*o.shape, *x.shape)) for b, x in zip(blocks, ins, strict=False))
        )
    return tuple(rows)


def _grad_fn(func: Callable[..., Any], n: int) -> Callable[..., Any]:
    def loss(*xs: Any) -> tuple[Any, Any]:
        out = func(*xs)
        return _scalar(out), out

    return jax.grad(loss, argnums=tuple(range(n)), has_aux=True)  # type: ignore[no-any-return]


def _check_hessian(func: Callable[..., Any], ins: tuple[Any, ...]) -> None:
    out_deps = _deps(func, ins)[0]
    grad_deps = _deps(lambda *xs: _grad_fn(func, len(ins))(*xs)[0], ins)
    _strict.check_hessian_deps(out_deps, grad_deps, len(ins))


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
    argnums = tuple(range(len(ins)))

    def loss(*xs: Any) -> Any:
        return _scalar(func(*xs))

    outer = jax.jacfwd if strategy == "forward-mode" else jax.jacrev
    return outer(jax.jacrev(loss, argnums=argnums), argnums=argnums)(*ins)


def vhp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    if strict:
        _check_hessian(func, ins)
    v = (jnp.ones_like(ins[0]),) if vs is None else _like(vs, ins)
    _, pullback, out = jax.vjp(_grad_fn(func, len(ins)), *ins, has_aux=True)
    # jax.grad of a real function of complex inputs is the conjugate of torch's
    # gradient: torch's vhp is the conjugate of this pullback of v (real inputs: equal)
    return out, _conj(tuple(pullback(v)))


def hvp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    if strict:
        _check_hessian(func, ins)
    v = (jnp.ones_like(ins[0]),) if vs is None else _like(vs, ins)
    _, tangents, out = jax.jvp(_grad_fn(func, len(ins)), ins, v, has_aux=True)
    return out, _conj(tuple(tangents))  # (jax.grad's conjugate gradient: see vhp)
