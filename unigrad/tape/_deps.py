"""Which arguments a traced function's outputs really depend on (differentiably).

``create_graph=True`` makes each gradient a tape tensor whose node is the VJP function.
Following torch, a gradient requires grad exactly when it depends on a tensor that
requires grad, and an input it does not depend on is unused by a later ``grad``. The
tape learns this from the function itself, never assuming "every argument":

* jax: the function's jaxpr (`jax.make_jaxpr`), walked equation by equation;
  nested jaxprs (``jit``, ``custom_jvp_call``, ``custom_vjp_call``) and each branch of
  a ``cond`` are entered, other higher-order primitives (``while``, ``scan``) depend on
  all their operands.
* numpy: HIPS autograd's own trace: each argument is boxed under its own root node and
  the output boxes' node graphs are walked back to the roots. The traced values are
  not the plain run's bitwise (a boxed array takes other NumPy paths: ``y ** 2`` of a
  complex box is ``power``, of a plain array ``square``): the tape's values come from
  the plain run (``unigrad.tape._replay``).

In both, a value of a non-float dtype (a comparison's mask, an index) carries no
dependence, and neither does the result of an op whose derivative is identically zero
(`CUT_PRIMITIVES` on jax, autograd's own non-differentiable functions on numpy): the
contract's rule 14, structure follows differentiable dependence (``docs/semantics.md``,
"Dependence"). So the gradient of ``abs``, ``clip``, ``maximum`` or ``max`` is a constant.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

__all__ = [
    "CUT_FUNCTIONS",
    "CUT_PRIMITIVES",
    "dependencies",
    "jax_dependencies",
    "numpy_trace",
    "trace",
    "trace_saw_empty",
]

Deps = list[frozenset[int]]


def _inexact(aval: Any) -> bool:
    import numpy as np

    dtype = getattr(aval, "dtype", None)
    if dtype is None:
        return False
    dtype = getattr(dtype, "as_numpy_dtype", dtype)  # TensorFlow's tf.DType
    try:
        return bool(np.issubdtype(dtype, np.inexact)) or "float" in str(dtype)
    except TypeError:
        return "float" in str(dtype)


_SUB_JAXPR_PARAMS = ("jaxpr", "call_jaxpr", "fun_jaxpr")

#: jax primitives whose derivative is identically zero: their results depend on nothing
#: (``jnp.trunc`` is ``select_n(x < 0, floor, ceil)``; comparisons give bools already).
CUT_PRIMITIVES = frozenset({"sign", "floor", "ceil", "round", "is_finite", "nextafter"})

#: The namespace functions (both tapes) whose real results depend on nothing: the
#: recording namespace returns them as constants, as comparisons (`_namespace`).
CUT_FUNCTIONS = frozenset({"sign", "floor", "ceil", "round", "trunc", "floor_divide", "nextafter"})


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
        elif eqn.primitive.name == "cond" and "branches" in eqn.params:
            # each output depends on what it depends on in some branch (the index, an
            # integer, carries none): jax 0.10.2's ``jnp.diagonal`` is a ``cond`` on
            # ``platform_index`` whose branches read the operand for the residuals
            # only, so "all operands" gave the constant gradient of a diagonal (a
            # linear map) a dependence on it (differential seed 9106, program 215)
            outs = [empty] * len(eqn.outvars)
            for branch in eqn.params["branches"]:
                found = _walk(getattr(branch, "jaxpr", branch), ins[1:])
                outs = [a | b for a, b in zip(outs, found, strict=True)]
        elif eqn.primitive.name in CUT_PRIMITIVES:
            outs = [empty] * len(eqn.outvars)
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


def _dep_node_class() -> type:
    from autograd.core import VJPNode
    from autograd.tracer import Node, notrace_primitives, register_notrace

    class DepNode(Node):  # type: ignore[misc]
        """An autograd trace node that records what it computed, not how to differentiate."""

        __slots__ = ("argnums", "args", "fun", "parents")

        def __init__(
            self, value: Any, fun: Any, args: Any, kwargs: Any, argnums: Any, parents: Any
        ) -> None:
            if getattr(value, "size", 1) == 0:
                _EMPTY.seen = True
            self.parents = parents
            self.fun = fun
            self.args = args  # unboxed values
            self.argnums = tuple(argnums)

        def initialize_root(self) -> None:
            self.parents = []
            self.fun = None
            self.args = ()
            self.argnums = ()

    # autograd's functions with no derivative (comparisons, sign, floor, round, the
    # ``*_like`` creators, argmax, ...) are not traced under its own VJPNode: nor here,
    # so no dependence flows through them (and no boolean value is boxed, which a later
    # pass through the trace refused: "Can't differentiate w.r.t. type numpy.bool")
    for fun in notrace_primitives[VJPNode]:
        register_notrace(DepNode, fun)
    return DepNode


_DEP_NODE: list[type] = []

#: Per thread: whether the latest `numpy_trace` traced a zero-size value (see
#: `trace_saw_empty`).
_EMPTY = threading.local()


def trace_saw_empty() -> bool:
    """Whether the latest `numpy_trace` of this thread traced a zero-size value.

    Such a trace's dependence holds for these shapes only: autograd's derivative rules
    branch on emptiness (autograd 1.x ``numpy_vjps.grad_diff`` returns a constant
    ``zeros`` for an empty difference), and the same structure with non-empty values may
    depend on more. What it learned must not be kept for the structure (issue 23)."""
    return bool(getattr(_EMPTY, "seen", False))


def _reach(node: Any, position: dict[int, int]) -> set[int]:
    """The root positions behind ``node``.

    autograd's VJP of several arguments packs every gradient into one tuple (built by
    ``container_untake``/``sparse_add``, read back by ``container_take``); followed
    naively, each gradient would depend on all of them. Along such a chain this walk
    follows only the element that is taken.
    """
    from autograd.builtins import container_take, container_untake, make_sequence
    from autograd.core import sparse_add
    from autograd.numpy import power

    from .._array_api._autograd_pow import pow_primitive

    powers = (power, pow_primitive())
    found: set[int] = set()
    seen: set[tuple[int, tuple[int, ...]]] = set()
    stack: list[tuple[Any, tuple[int, ...]]] = [(node, ())]

    def parent(n: Any, argnum: int) -> Any:
        for a, p in zip(n.argnums, n.parents, strict=True):
            if a == argnum:
                return p
        return None

    while stack:
        n, path = stack.pop()
        if n is None or (id(n), path) in seen:
            continue
        seen.add((id(n), path))
        i = position.get(id(n))
        if i is not None:
            found.add(i)
            continue
        fun = getattr(n, "fun", None)
        if fun is container_take and isinstance(n.args[1], int):
            stack.append((parent(n, 0), (n.args[1], *path)))
        elif path and fun is make_sequence:
            stack.append((parent(n, path[0] + 1), path[1:]))
        elif path and fun is sparse_add:
            stack.extend((p, path) for p in n.parents)
        elif path and fun is container_untake:
            if n.args[1] == path[0]:
                stack.append((parent(n, 0), path[1:]))
        elif fun in powers and _all_zero(n.args[1]):
            # x ** 0: no dependence on x (derivative 0 x^-1 = 0); autograd's VJP of
            # x ** 2 is g * 2 * x ** 1, whose own VJP records x ** 0 (the namespace's
            # pow of two arrays, the same for an array exponent)
            stack.extend((p, path) for a, p in zip(n.argnums, n.parents, strict=True) if a != 0)
        else:
            stack.extend((p, ()) for p in n.parents)
    return found


def _all_zero(v: Any) -> bool:
    """Whether ``v`` (a traced argument's plain value) is 0 everywhere."""
    import numpy as np

    try:
        return bool(np.all(np.asarray(v) == 0))
    except (TypeError, ValueError):
        return False


def numpy_trace(fn: Callable[..., Any], vals: Sequence[Any]) -> tuple[tuple[Any, ...], Deps]:
    """``fn(*vals)`` (a tuple of arrays) and, for each output, the argument positions it
    depends on, from one run under autograd's tracer."""
    from autograd.tracer import getval, isbox, new_box, trace_stack

    if not _DEP_NODE:
        _DEP_NODE.append(_dep_node_class())
    node_cls: Any = _DEP_NODE[0]
    _EMPTY.seen = any(getattr(v, "size", 1) == 0 for v in vals)
    with trace_stack.new_trace() as t:
        roots = [node_cls.new_root() for _ in vals]
        boxed = [new_box(v, t, r) if _inexact(v) else v for v, r in zip(vals, roots, strict=True)]
        outs = fn(*boxed)
    position = {id(r): i for i, r in enumerate(roots)}
    deps: Deps = []
    values = []
    for o in outs:
        values.append(getval(o))
        if isbox(o) and o._trace == t:
            deps.append(frozenset(_reach(o._node, position)))
        else:
            deps.append(frozenset())
    return tuple(values), deps


def trace(engine: str, fn: Callable[..., Any], vals: Sequence[Any]) -> tuple[tuple[Any, ...], Deps]:
    """``fn(*vals)`` (a tuple of arrays) and, for each output, the argument positions it
    depends on differentiably: the one dependence walk of each engine (``"jax"``: the
    jaxpr; ``"numpy"``: autograd's trace, whose values are the boxed run's, not
    bitwise the plain run's: see the module docstring)."""
    if engine == "numpy":
        return numpy_trace(fn, vals)
    if engine == "tensorflow":
        from ._tensorflow import tensorflow_trace

        return tensorflow_trace(fn, vals)
    values = tuple(fn(*vals))
    return values, jax_dependencies(fn, vals)


def dependencies(engine: str, fn: Callable[..., Any], vals: Sequence[Any]) -> Deps:
    """For each output of ``fn(*vals)`` (a tuple of arrays), the argument positions it
    depends on differentiably, on ``engine`` (``"jax"`` or ``"numpy"``); see `trace`."""
    if engine in ("numpy", "tensorflow"):
        return trace(engine, fn, vals)[1]
    return jax_dependencies(fn, vals)
