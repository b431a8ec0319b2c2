"""A `unigrad.jit` step on a compiling engine (jax, tensorflow): the whole step as one
function.

`CompiledStep` is made by the jax and tensorflow backends (``unigrad.backends._tape``,
``unigrad.backends.tensorflow``), which hand it the backend and the front's step rules
(`StepRules`): the tape imports neither.

The step's arguments are flattened (the engine's pytrees, tape tensors as leaves).
Arrays, tape tensors and (where the engine traces them) Python numbers become the
compiled function's arguments; every other leaf is static, part of the cache key with
the tree's structure, the leaves' kinds and their shapes and dtypes. Inside the trace
each tensor argument is rebuilt: a watched leaf as a fresh watched leaf, a constant as
a constant. The same object passed twice enters once, so that ``watch`` of it gives one
leaf, as it does outside. The step then runs on the engine's traced values: its ops
record, its ``grad`` calls rebuild and differentiate, all of it staged into one
compiled function (`Engine.compile_step`: ``jax.jit``, ``tf.function``). Results come
back as values: tape tensors that require grad as their arrays, detached
(`unigrad.detach`), tape constants as tape constants, arrays as arrays, static values
as they were traced.

What each engine decides is named on `unigrad.tape.Engine`: `Engine.describe` (an
array's part of the key), `Engine.static_numbers`, `Engine.is_step_read` (which of the
framework's errors are a value read: `unigrad.CompiledStepError`) and
`Engine.compile_step`.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, NamedTuple

from .._errors import CompiledStepError, message
from ._caches import CACHES
from ._node import TracingStep, in_traced_step
from ._tensor import Tensor

__all__ = ["STEP_READ", "CompiledStep", "StepRules", "step_read_error"]

_NUMBERS = (int, float, complex)

STEP_READ = message(
    "a unigrad.jit step read a value while it was traced",
    expected="a step whose Python does not depend on the values it computes (jax and "
    "tensorflow run the Python once, on abstract values, and replay the compiled result)",
    got="a conversion of a traced value (float(t), int(t), if t > 0, to_numpy, a value "
    "used as a shape, a boolean mask given as an argument)",
    fix="Move the read out of the step (return the value instead), use xp.where for a "
    "branch or a mask, close over a mask the step needs concrete, or mark the argument "
    "a value comes from static (static_argnums / static_argnames).",
)


class StepRules(NamedTuple):
    """What a compiled step takes from ``unigrad.jit``'s front (``unigrad._compile``)."""

    #: A context manager: the thread is inside a compiled step while the function runs.
    step_scope: Callable[[], AbstractContextManager[Any]]
    #: The refusal of an argument computed by recorded operations: (backend, tensor).
    history_error: Callable[[Any, Any], CompiledStepError]
    #: The refusal of a static argument that cannot key a compiled function: (where, value).
    unhashable_error: Callable[[str, Any], CompiledStepError]


class CompiledStep:
    """``run(args, kwargs)``: one compiled function per argument signature (kept in an
    `unigrad.tape._caches.LRU` of the step's own, which dies with the step).

    What differs between engines is the engine's (`unigrad.tape.Engine`): how an array
    is described in the key (`Engine.describe`), whether Python numbers are static
    (`Engine.static_numbers`), which errors are a value read (`Engine.is_step_read`) and
    how the step's body is compiled (`Engine.compile_step`)."""

    def __init__(
        self,
        backend: Any,
        fn: Callable[..., Any],
        static_argnums: tuple[int, ...],
        static_argnames: tuple[str, ...],
        rules: StepRules,
    ) -> None:
        self.backend = backend
        self.cls: type[Tensor] = backend.tensor_cls
        self.engine = self.cls._engine
        self.fn = fn
        self.nums = static_argnums
        self.names = static_argnames
        self.rules = rules
        self.array_types = self.engine._array_types
        self.numbers = () if self.engine.static_numbers else _NUMBERS
        self.cache = CACHES.new()

    def __call__(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        cls, engine = self.cls, self.engine
        tree: Any = (args, kwargs)
        if self.nums or self.names:
            n, nums, names = len(args), self.nums, self.names
            tree = (
                tuple(_Static(a) if i in nums or i - n in nums else a for i, a in enumerate(args)),
                {k: _Static(v) if k in names else v for k, v in kwargs.items()},
            )
        leaves, treedef = engine.flatten(tree, _is_leaf)
        kinds: list[Any] = []
        values: list[Any] = []
        first: dict[int, int] = {}
        array, numbers = self.array_types, self.numbers
        for i, v in enumerate(leaves):
            j = first.get(id(v))
            if j is not None:  # the same object again: one argument, one leaf inside
                kinds.append(("same", j))
                continue
            first[id(v)] = i
            if isinstance(v, array):
                kinds.append(("array", engine.describe(v)))
                values.append(engine.canon(v))
            elif isinstance(v, cls):
                if v._node is not None and v.requires_grad:
                    raise self.rules.history_error(self.backend, v)
                value = v._value
                kind = "watched" if v.requires_grad else "constant"
                kinds.append((kind, engine.describe(value)))
                values.append(value)
            elif type(v) in numbers:  # (static where the engine keys numbers)
                kinds.append(("number", type(v)))
                values.append(v)
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
            arrays = compiled(values)
        except BaseException as err:
            self.cache.discard(key)
            if engine.is_step_read(err):
                raise CompiledStepError(STEP_READ) from err
            raise
        out_tree, out_kinds = box
        it = iter(arrays)
        out = []
        for kind, static in out_kinds:
            if kind == "tensor":
                out.append(cls._constant(engine.canon(next(it))))
            elif kind == "array":
                out.append(next(it))
            else:
                out.append(static)
        return engine.unflatten(out_tree, out)

    def _compile(
        self, treedef: Any, leaves: list[Any], kinds: list[Any]
    ) -> tuple[Callable[..., Any], list[Any]]:
        cls, fn, step_scope, engine = self.cls, self.fn, self.rules.step_scope, self.engine
        array, detach = self.array_types, self.backend.detach
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
                else:  # an array or a number
                    inner.append(next(it))
            args, kwargs = engine.unflatten(treedef, inner)
            with step_scope(), TracingStep():
                out = fn(*args, **kwargs)
            out_leaves, out_tree = engine.flatten(out, _is_tensor)
            arrays: list[Any] = []
            out_kinds: list[tuple[str, Any]] = []
            for v in out_leaves:
                if isinstance(v, cls) and v.requires_grad:
                    # a value, detached: `detach_results`' rule, on the engine's leaves
                    out_kinds.append(("array", None))
                    arrays.append(detach(v))
                elif isinstance(v, cls):
                    out_kinds.append(("tensor", None))
                    arrays.append(v._value)
                elif isinstance(v, array):
                    out_kinds.append(("array", None))
                    arrays.append(v)
                else:  # a Python value the trace computed from static information
                    out_kinds.append(("static", v))
            box[:] = [out_tree, out_kinds]
            return arrays

        return engine.compile_step(body), box


def step_read_error(err: BaseException, engine: Any) -> CompiledStepError | None:
    """The documented error for ``err`` raised by a function of a `unigrad.jit` step
    while ``engine`` traces it, where ``err`` is the engine's refusal of a value read
    (`Engine.is_step_read`); else None."""
    if in_traced_step() and engine.is_step_read(err):
        return CompiledStepError(STEP_READ)
    return None


def _is_tensor(v: Any) -> bool:
    return isinstance(v, Tensor)


def _is_leaf(v: Any) -> bool:
    return isinstance(v, (Tensor, _Static))


class _Static:
    """An argument named static: a leaf of the flattened tree, whatever it holds."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value
