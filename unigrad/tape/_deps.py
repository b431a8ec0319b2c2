"""Which arguments a traced function's outputs really depend on (differentiably).

``create_graph=True`` makes each gradient a tape tensor whose node is the VJP function.
Following torch, a gradient requires grad exactly when it depends on a tensor that
requires grad, and an input it does not depend on is unused by a later ``grad``. The
tape learns this from the function itself, never assuming "every argument":

* jax: the function's jaxpr (:func:`jax.make_jaxpr`), walked equation by equation;
  nested jaxprs (``jit``, ``custom_jvp_call``, ``custom_vjp_call``) are entered, other
  higher-order primitives (``cond``, ``while``, ``scan``) depend on all their operands.
* numpy: HIPS autograd's own trace: each argument is boxed under its own root node and
  the output boxes' node graphs are walked back to the roots (the traced values are the
  results, so nothing is computed twice).

In both, a value of a non-float dtype (a comparison's mask, an index) carries no
dependence: no derivative flows through it, exactly as torch computes a clip's or a
maximum's mask without grad.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["jax_dependencies", "numpy_trace"]

Deps = list[frozenset[int]]


def _inexact(aval: Any) -> bool:
    import numpy as np

    dtype = getattr(aval, "dtype", None)
    if dtype is None:
        return False
    try:
        return bool(np.issubdtype(dtype, np.inexact)) or "float" in str(dtype)
    except TypeError:
        return "float" in str(dtype)


_SUB_JAXPR_PARAMS = ("jaxpr", "call_jaxpr", "fun_jaxpr")


def _walk(jaxpr: Any, in_deps: Sequence[frozenset[int]]) -> Deps:
    from jax.extend import core as jcore

    env: dict[Any, frozenset[int]] = {}
    empty: frozenset[int] = frozenset()
    for v, d in zip(jaxpr.invars, in_deps, strict=True):
        env[v] = d if _inexact(v.aval) else empty

    def read(v: Any) -> frozenset[int]:
        if isinstance(v, jcore.Literal):
            return empty
        return env.get(v, empty)

    for eqn in jaxpr.eqns:
        ins = [read(v) for v in eqn.invars]
        sub = next((eqn.params[p] for p in _SUB_JAXPR_PARAMS if p in eqn.params), None)
        outs: Deps
        if sub is not None and len(getattr(sub, "jaxpr", sub).invars) == len(ins):
            inner = getattr(sub, "jaxpr", sub)
            outs = _walk(inner, ins)
        else:
            union = frozenset().union(*ins) if ins else empty
            outs = [union] * len(eqn.outvars)
        for v, d in zip(eqn.outvars, outs, strict=True):
            env[v] = d if _inexact(v.aval) else empty
    return [read(v) for v in jaxpr.outvars]


def jax_dependencies(fn: Callable[..., Any], vals: Sequence[Any]) -> Deps:
    """For each output of ``fn(*vals)`` (a tuple of arrays), the argument positions it
    depends on differentiably."""
    import jax

    closed = jax.make_jaxpr(fn)(*vals)
    return _walk(closed.jaxpr, [frozenset((i,)) for i in range(len(vals))])


def numpy_trace(fn: Callable[..., Any], vals: Sequence[Any]) -> tuple[tuple[Any, ...], Deps]:
    """``fn(*vals)`` (a tuple of arrays) and, for each output, the argument positions it
    depends on, from one run under autograd's tracer."""
    from autograd.core import VJPNode
    from autograd.tracer import getval, isbox, new_box, trace_stack

    with trace_stack.new_trace() as t:
        roots = [VJPNode.new_root() for _ in vals]
        boxed = [new_box(v, t, r) if _inexact(v) else v for v, r in zip(vals, roots, strict=True)]
        outs = fn(*boxed)
    position = {id(r): i for i, r in enumerate(roots)}
    deps: Deps = []
    values = []
    for o in outs:
        values.append(getval(o))
        if not (isbox(o) and o._trace == t):
            deps.append(frozenset())
            continue
        found: set[int] = set()
        seen: set[int] = set()
        stack = [o._node]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            i = position.get(id(node))
            if i is not None:
                found.add(i)
            stack.extend(node.parents)
        deps.append(frozenset(found))
    return tuple(values), deps
