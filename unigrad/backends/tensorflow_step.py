"""A `unigrad.jit` step on the tensorflow backend: the whole step as one ``tf.function``.

The step's arguments are flattened (lists, tuples, dicts; tape tensors as leaves) and
sorted as on jax (``unigrad.tape._step``): ``tf.Tensor`` values and tape tensors are the
function's tensor arguments, every other leaf is static and keys the cache with the
tree's structure and the tensors' shapes and dtypes, one ``tf.function`` per key.
Python numbers are static here, where jax traces them: TensorFlow does not promote a
tensor of one dtype against another (``float64 * float32`` is an error), so a number
stays a weakly typed Python operand inside the step, as it is outside; a new value
traces the step again (pass a learning rate that changes as a tensor).

Inside the trace each tensor argument is rebuilt (a watched leaf as a watched leaf, a
constant as a constant; the same object passed twice enters once); `unigrad.watch` of a
graph tensor is allowed there. The step's ops record on the tape and its ``grad`` calls
run ``tf.GradientTape`` on graph tensors, all of it traced into the function; the tape
computes every value at once while tracing (`TensorflowEngine.defers`). Results come
back as values: tape tensors that require grad as their tensors (detached), tape
constants as tape constants, tensors as tensors, static values as traced.

A step whose Python reads a value (``float(t)``, ``if t > 0``, `unigrad.to_numpy`)
cannot be traced: `unigrad.CompiledStepError`, as on jax.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tensorflow as tf

from .._errors import CompiledStepError
from ..tape import Tensor
from ..tape._caches import CACHES
from ..tape._engine import _flatten, _unflatten
from ..tape._node import TracingStep
from ..tape._step import STEP_READ, StepRules

__all__ = ["TensorflowStep"]


class _Static:
    """An argument named static: a leaf of the flattened tree, whatever it holds."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def _is_leaf(v: Any) -> bool:
    return isinstance(v, (Tensor, _Static))


def _out_leaf(v: Any) -> bool:
    return isinstance(v, Tensor)


class TensorflowStep:
    """``run(args, kwargs)``: one ``tf.function`` per argument signature (kept in an
    `unigrad.tape._caches.LRU` of the step's own, which dies with the step)."""

    def __init__(
        self,
        backend: Any,
        fn: Callable[..., Any],
        static_argnums: tuple[int, ...],
        static_argnames: tuple[str, ...],
        rules: StepRules,
    ) -> None:
        self.backend = backend
        self.cls = backend.tensor_cls
        self.fn = fn
        self.nums = static_argnums
        self.names = static_argnames
        self.rules = rules
        self.cache = CACHES.new()

    def __call__(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        cls = self.cls
        tree: Any = (args, kwargs)
        if self.nums or self.names:
            n, nums, names = len(args), self.nums, self.names
            tree = (
                tuple(_Static(a) if i in nums or i - n in nums else a for i, a in enumerate(args)),
                {k: _Static(v) if k in names else v for k, v in kwargs.items()},
            )
        leaves: list[Any] = []
        treedef = _flatten(tree, _is_leaf, leaves)
        kinds: list[Any] = []
        values: list[Any] = []
        first: dict[int, int] = {}
        for i, v in enumerate(leaves):
            j = first.get(id(v))
            if j is not None:  # the same object again: one argument, one leaf inside
                kinds.append(("same", j))
                continue
            first[id(v)] = i
            if isinstance(v, (tf.Tensor, tf.Variable)):
                kinds.append(("array", tuple(v.shape), v.dtype))
                values.append(tf.convert_to_tensor(v))
            elif isinstance(v, cls):
                if v._node is not None and v.requires_grad:
                    raise self.rules.history_error(self.backend, v)
                value = v._value
                kind = "watched" if v.requires_grad else "constant"
                kinds.append((kind, tuple(value.shape), value.dtype))
                values.append(value)
            elif isinstance(v, _Static):  # (named static: the front checked its hash)
                kinds.append(("static", (type(v.value), v.value)))
            else:
                try:
                    hash(v)
                except TypeError:
                    where = f"leaf {i} of the arguments"
                    raise self.rules.unhashable_error(where, v) from None
                kinds.append(("static", (type(v), v)))
        key = (treedef, tuple(kinds))
        try:
            hit = self.cache.get(key)
        except TypeError:  # an unhashable static value deep inside a tuple
            where = "inside a static argument"
            raise self.rules.unhashable_error(where, key) from None
        if hit is None:
            hit = self._compile(treedef, leaves, kinds)
            self.cache.put(key, hit)
        compiled, box = hit
        try:
            tensors = compiled(values)
        except BaseException as err:
            self.cache.discard(key)
            if _is_read(err):
                raise CompiledStepError(STEP_READ) from err
            raise
        out_tree, out_kinds = box
        it = iter(tensors)
        out = []
        for kind, static in out_kinds:
            if kind == "tensor":
                out.append(cls._constant(next(it)))
            elif kind == "array":
                out.append(next(it))
            else:
                out.append(static)
        return _unflatten(out_tree, iter(out))

    def _compile(
        self, treedef: Any, leaves: list[Any], kinds: list[Any]
    ) -> tuple[Callable[..., Any], list[Any]]:
        cls, fn, step_scope, backend = self.cls, self.fn, self.rules.step_scope, self.backend
        box: list[Any] = []
        template = [
            (v.value if isinstance(v, _Static) else v) if k[0] == "static" else None
            for v, k in zip(leaves, kinds, strict=True)
        ]

        def body(values: list[Any]) -> list[Any]:
            it = iter(values)
            inner: list[Any] = []
            for i, k in enumerate(kinds):
                kind = k[0]
                if kind == "same":
                    inner.append(inner[k[1]])
                elif kind == "watched":
                    inner.append(cls(next(it)))
                elif kind == "constant":
                    inner.append(cls._constant(next(it)))
                elif kind == "static":
                    inner.append(template[i])
                else:  # a tensor
                    inner.append(next(it))
            args, kwargs = _unflatten(treedef, iter(inner))
            with step_scope(), TracingStep():
                out = fn(*args, **kwargs)
            out_leaves: list[Any] = []
            out_tree = _flatten(out, _out_leaf, out_leaves)
            tensors: list[Any] = []
            out_kinds: list[tuple[str, Any]] = []
            for v in out_leaves:
                if isinstance(v, cls) and v.requires_grad:
                    out_kinds.append(("array", None))  # a value, detached
                    tensors.append(backend.detach(v))
                elif isinstance(v, cls):
                    out_kinds.append(("tensor", None))
                    tensors.append(v._value)
                elif isinstance(v, (tf.Tensor, tf.Variable)):
                    out_kinds.append(("array", None))
                    tensors.append(v)
                else:  # a Python value the trace computed from static information
                    out_kinds.append(("static", v))
            box[:] = [out_tree, out_kinds]
            return tensors

        return tf.function(body, autograph=False, reduce_retracing=False), box


def _is_read(err: BaseException) -> bool:
    """Whether ``err`` is TensorFlow's refusal of a value read while it traces (a graph
    tensor used as a Python bool, converted to NumPy, or read with ``.numpy()``)."""
    if isinstance(err, tf.errors.OperatorNotAllowedInGraphError):
        return True
    text = str(err)
    return isinstance(err, (NotImplementedError, AttributeError, TypeError)) and (
        "numpy" in text or "symbolic" in text.lower() or "graph tensor" in text
    )
