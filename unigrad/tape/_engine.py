"""The two engines behind the tape: how to evaluate, flatten, differentiate and compile.

An engine wraps one framework (``jax`` or HIPS ``autograd`` over NumPy). The tape itself
knows no derivative rule: it records pure functions and hands a rebuilt function to the
engine's ``vjp``. Frameworks are imported lazily, when the engine is first used.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["Engine", "jax_engine", "numpy_engine"]

_NO_CONTEXT = contextlib.nullcontext()


#: What XLA's CPU FFT raises for an operand in a layout it cannot take (see `_JaxEngine.jit`).
_XLA_FFT_LAYOUT = "IsMonotonicWithDim0Major"


class Engine:
    """What the tape needs from a framework. Subclasses fill every method."""

    name: str = "?"
    #: Whether the rebuilt functions are compiled (and so worth caching).
    compiles: bool = False

    @property
    def np(self) -> Any:  # the numpy-like module whose functions record
        raise NotImplementedError

    @property
    def imag(self) -> Any:
        """The function a tensor's ``.imag`` records (the namespace's ``imag``)."""
        return self.np.imag

    def is_array(self, v: Any) -> bool:
        raise NotImplementedError

    def flatten(self, tree: Any, is_leaf: Callable[[Any], bool]) -> tuple[list[Any], Any]:
        raise NotImplementedError

    def unflatten(self, treedef: Any, leaves: Sequence[Any]) -> Any:
        raise NotImplementedError

    def vjp(self, fn: Callable[..., Any], primals: Sequence[Any]) -> tuple[Any, Any, Any]:
        """``(outputs, pullback, aux)``: ``fn(*primals)`` returns ``(outputs, aux)``, two
        tuples of arrays, and only ``outputs`` are differentiated; the pullback takes a
        tuple of cotangents and returns one per primal."""
        raise NotImplementedError

    def jit(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        return fn

    #: Whether a Python number given to a `unigrad.jit` step is static (part of the
    #: compiled function's key) rather than one of its traced arguments.
    static_numbers: bool = False

    def compile_step(self, body: Callable[[list[Any]], list[Any]]) -> Callable[..., Any]:
        """A `unigrad.jit` step's body (a list of arrays in, a list out) compiled as one
        function (`unigrad.tape.CompiledStep`); only engines that compile steps."""
        raise NotImplementedError

    def is_step_read(self, err: BaseException) -> bool:
        """Whether ``err`` is the framework's refusal of a value read while it traces a
        `unigrad.jit` step (a conversion, a value-dependent shape)."""
        return False

    def batched(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn(ins, consts, seeds)`` mapped over dim 0 of every seed."""
        raise NotImplementedError

    def canon(self, v: Any) -> Any:
        """A value as the engine's array type (numpy scalars become 0-d arrays)."""
        return v

    def differentiates(self, dtype: Any) -> bool:
        """Whether the engine's autodiff handles arrays of this (float or complex) dtype."""
        return True

    def to_numpy(self, v: Any) -> Any:
        import numpy as np

        return np.asarray(v)

    def asarray(self, data: Any, dtype: str) -> Any:
        raise NotImplementedError

    def defers(self) -> bool:
        """Whether ops may be recorded now and computed later (see ``_lazy``)."""
        return True

    def evaluating(self, *groups: Sequence[Any]) -> Any:
        """A context to compute pending values from the values in ``groups`` in: on
        jax, inside a trace (``jax.jit``, `unigrad.jit`) with no traced value among
        them, eagerly, so that a tensor recorded outside the trace never receives a
        tracer."""
        return _NO_CONTEXT

    def describe(self, v: Any) -> tuple[tuple[int, ...], Any, bool]:
        """``(shape, dtype, weak_type)`` of an array."""
        return (tuple(v.shape), v.dtype, False)

    def dtype_of(self, v: Any) -> Any:
        """``v.dtype`` of an array or a value being traced, None for a Python scalar."""
        return getattr(v, "dtype", None)

    def aval(self, v: Any) -> Any:
        """`describe` for a float/complex array, else None: an integer or boolean
        array (an index, a mask) may decide a result's shape by its values."""
        return self.describe(v) if is_inexact(v.dtype) else None

    def zeros(self, shape: tuple[int, ...], dtype: Any) -> Any:
        return self.np.zeros(shape, dtype=dtype)

    def zeros_like(self, v: Any) -> Any:
        """Zeros of ``v``'s shape and dtype (a fresh array)."""
        return self.np.zeros_like(v)

    def ones_of(self, v: Any) -> Any:
        """Ones of ``v``'s shape and dtype, not a function of ``v`` (the default seed
        of an output: autograd records ``ones_like`` as a function of its argument)."""
        return self.np.ones(v.shape, self.dtype_of(v))

    def cast(self, x: Any, dtype: Any) -> Any:
        raise NotImplementedError


class _JaxEngine(Engine):
    name = "jax"
    compiles = True

    @functools.cached_property
    def _jax(self) -> Any:
        import jax

        return jax

    @functools.cached_property
    def np(self) -> Any:
        import jax.numpy as jnp

        return jnp

    @functools.cached_property
    def _array_types(self) -> tuple[type, ...]:
        import numpy as np

        return (self._jax.Array, np.ndarray, np.generic)

    def is_array(self, v: Any) -> bool:
        return isinstance(v, self._array_types)

    def flatten(self, tree: Any, is_leaf: Callable[[Any], bool]) -> tuple[list[Any], Any]:
        leaves, treedef = self._jax.tree_util.tree_flatten(tree, is_leaf=is_leaf)
        return leaves, treedef

    def compile_step(self, body: Callable[[list[Any]], list[Any]]) -> Callable[..., Any]:
        """``jax.jit(body)``, with `jit`'s op-by-op fallback for XLA's FFT layout check:
        the step's body then runs uncompiled, each recorded graph compiled on its own."""
        return self.jit(body)

    @functools.cached_property
    def _read_errors(self) -> tuple[type[BaseException], ...]:
        errors = self._jax.errors
        return (
            errors.ConcretizationTypeError,
            errors.TracerArrayConversionError,
            errors.TracerIntegerConversionError,
            errors.NonConcreteBooleanIndexError,
        )

    def is_step_read(self, err: BaseException) -> bool:
        """jax's refusals of a value read while it traces (a conversion, a
        value-dependent shape such as ``nonzero``'s, a boolean mask)."""
        return isinstance(err, self._read_errors)

    def unflatten(self, treedef: Any, leaves: Sequence[Any]) -> Any:
        return self._jax.tree_util.tree_unflatten(treedef, leaves)

    def vjp(self, fn: Callable[..., Any], primals: Sequence[Any]) -> tuple[Any, Any, Any]:
        out, pull, aux = self._jax.vjp(fn, *primals, has_aux=True)
        return out, pull, aux

    def jit(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``jax.jit(fn)``, run op by op instead where XLA cannot run it compiled.

        XLA's CPU backend (jaxlib 0.10.2 and 0.11.2) miscompiles some functions that take
        an FFT of an ``inv``/``solve`` result (``fftn(acos(inv(a)))``, and their
        gradients): its layout assignment gives the FFT a column-major operand and
        ``fft_thunk.cc`` rejects it (``RET_CHECK ... IsMonotonicWithDim0Major``; the same
        check as jax-ml/jax#22484). Eagerly each primitive is compiled on its own, with
        default layouts, and the same numbers come out; so on that error the function
        runs uncompiled from then on. The check fails when the executable runs, and
        jax's CPU dispatch is asynchronous: the error would surface where the caller
        first reads the result. So the first run of each new executable (the jit's
        cache grew) is waited for here, and later runs of it, which the check passed,
        stay asynchronous. A `unigrad.jit` step falls back the same way
        (`compile_step`); inside a caller's own ``jax.jit`` the error surfaces at the
        caller's run.
        """
        jax = self._jax
        compiled = jax.jit(fn)
        executables = getattr(compiled, "_cache_size", None)
        runtime_error = jax.errors.JaxRuntimeError
        run = [compiled]

        def jitted(*args: Any) -> Any:
            if run[0] is fn:
                return fn(*args)
            try:
                if executables is None:  # (a jax without the count: wait for each run)
                    return jax.block_until_ready(compiled(*args))
                known = executables()
                out = compiled(*args)
                if executables() != known:
                    jax.block_until_ready(out)
                return out
            except runtime_error as err:
                if _XLA_FFT_LAYOUT not in str(err):
                    raise
                run[0] = fn
                return fn(*args)

        return jitted

    def batched(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        return self._jax.vmap(fn, in_axes=(None, None, 0))  # type: ignore[no-any-return]

    def asarray(self, data: Any, dtype: str) -> Any:
        import numpy as np

        arr = np.asarray(data, dtype=dtype)
        wide = (arr.dtype.itemsize == 8 and arr.dtype.kind in "fiu") or arr.dtype.itemsize == 16
        if wide and not self._jax.config.jax_enable_x64:
            from .._errors import UnsupportedDtypeError, message

            msg = message(
                f"jax would silently turn {dtype} into its 32-bit dtype",
                expected="jax_enable_x64 on for 64-bit dtypes",
                got="jax_enable_x64 off",
                fix='Call jax.config.update("jax_enable_x64", True) first.',
            )
            raise UnsupportedDtypeError(msg)
        return self.np.asarray(arr)

    def cast(self, x: Any, dtype: Any) -> Any:
        return x.astype(dtype)

    @functools.cached_property
    def _config(self) -> Any:
        return self._jax.config

    def defers(self) -> bool:
        cfg = self._config
        return not (cfg.jax_debug_nans or cfg.jax_debug_infs)

    def describe(self, v: Any) -> tuple[tuple[int, ...], Any, bool]:
        return (tuple(v.shape), v.dtype, bool(getattr(v, "weak_type", False)))

    @functools.cached_property
    def _tracing(self) -> tuple[type, Callable[[], bool]]:
        try:
            from jax._src.core import trace_state_clean
        except ImportError:  # pragma: no cover - a jax without it: assume a trace
            return (self._jax.core.Tracer, lambda: False)
        return (self._jax.core.Tracer, trace_state_clean)

    def evaluating(self, *groups: Sequence[Any]) -> Any:
        tracer, clean = self._tracing
        if clean() or any(isinstance(v, tracer) for values in groups for v in values):
            return _NO_CONTEXT
        return self._jax.ensure_compile_time_eval()

    @functools.cached_property
    def _zeros(self) -> tuple[Callable[..., Any], Callable[..., Any]]:
        # On jax 0.10.2 an eager jnp.zeros costs two primitive dispatches (~75 us on
        # CPU), a compiled one ~3 us. The same functions, so the same dtypes, weak types
        # and placement.
        jnp = self.np
        return (
            self._jax.jit(jnp.zeros, static_argnums=(0, 1)),
            self._jax.jit(jnp.zeros_like),
        )

    def zeros(self, shape: tuple[int, ...], dtype: Any) -> Any:
        try:
            return self._zeros[0](tuple(shape), dtype)
        except TypeError:  # an unhashable dtype spelling: the eager call takes it
            return self.np.zeros(shape, dtype=dtype)

    def zeros_like(self, v: Any) -> Any:
        return self._zeros[1](v)


class _NumpyEngine(Engine):
    name = "numpy"

    @functools.cached_property
    def np(self) -> Any:
        import autograd.numpy as anp

        return anp

    @functools.cached_property
    def imag(self) -> Any:
        from .._array_api._autograd import imag_primitive

        return imag_primitive()

    @functools.cached_property
    def _np(self) -> Any:
        import numpy as np

        return np

    def is_array(self, v: Any) -> bool:
        return isinstance(v, (self._np.ndarray, self._np.generic))

    def flatten(self, tree: Any, is_leaf: Callable[[Any], bool]) -> tuple[list[Any], Any]:
        leaves: list[Any] = []
        treedef = _flatten(tree, is_leaf, leaves)
        return leaves, treedef

    def unflatten(self, treedef: Any, leaves: Sequence[Any]) -> Any:
        it = iter(leaves)
        return _unflatten(treedef, it)

    def vjp(self, fn: Callable[..., Any], primals: Sequence[Any]) -> tuple[Any, Any, Any]:
        # autograd's make_vjp over a tuple of primals, with one root node per primal.
        # Through make_vjp(argnum=(0, ..., n-1)) a primal's cotangent reaches it via the
        # tuple's getitem, whose VJP is a sparse container gradient: autograd allocates
        # zeros for the whole tuple and adds each primal's total into them (an array and
        # a full add per primal and pass, differentiated again by an outer pass). Each
        # root here collects its primal's cotangent itself; the arithmetic of every op
        # is autograd's own, and nested passes trace this code as they trace make_vjp.
        # Cotangents are kept in their value's dtype, as torch keeps a gradient in its
        # tensor's: autograd's VJPs of ``maximum`` (a ReLU), ``mean`` and a few others
        # return float64 for float32 values, and everything upstream would then run, and
        # accumulate, in float64 (twice the memory traffic) only to be cast back at the
        # end. Each node of this trace records its value's dtype (`_typed_node`) and the
        # pullback casts a cotangent of the same kind (float, complex) to it.
        (atuple, add_outgrads, vspace, getval, isbox, new_box, trace_stack, toposort) = self._ag
        ndarray, dtype_of, array_box = self._np.ndarray, self.dtype_of, self._array_box
        node_type = self._node_type
        roots = []
        for x in primals:
            r = node_type.new_root()
            r.dtype = dtype_of(x)
            roots.append(r)
        with trace_stack.new_trace() as t:
            boxes = [new_box(x, t, r) for x, r in zip(primals, roots, strict=True)]
            outs, extra = fn(*boxes)
            # One output is the trace's end itself; several are tied by autograd's tuple
            # primitive (traced, and differentiated again by every enclosing pass).
            single = len(outs) == 1
            end = outs[0] if single else atuple(outs)
            aux = tuple(getval(v) for v in extra)  # values only: not differentiated
        if isbox(end) and end._trace == t:
            out, end_node = end._value, end._node
        else:  # no output depends on a primal: every gradient is zeros
            out, end_node = end, None
        if single:
            out = (out,)
        where = {r: i for i, r in enumerate(roots)}

        def pullback(cts: Sequence[Any]) -> Any:
            result: list[Any] = [None] * len(primals)
            if end_node is not None:
                # (one output: the seed in the end's dtype, as the tuple's VJP gave it)
                seed = _in_dtype(cts[0], end_node.dtype, dtype_of) if single else atuple(cts)
                outgrads: dict[Any, Any] = {end_node: (seed, False)}
                for node in toposort(end_node):
                    g = outgrads.pop(node)[0]
                    i = where.get(node)
                    if i is not None:
                        result[i] = g
                        continue
                    for parent, ingrad in zip(node.parents, node.vjp(g), strict=False):
                        dt = parent.dtype
                        if dt is not None:
                            # `dtype_of`, inlined: this loop runs once per edge of
                            # every pass, and in a nested pass most cotangents are boxes
                            kind = type(ingrad)
                            if kind is ndarray:
                                gdt = ingrad.dtype
                            elif kind is array_box:
                                v = ingrad._value
                                while type(v) is array_box:
                                    v = v._value
                                gdt = v.dtype if type(v) is ndarray else dtype_of(v)
                            else:
                                gdt = getattr(ingrad, "dtype", None)
                            # (NumPy's dtypes are mostly singletons: `is` decides first)
                            if (
                                gdt is not None
                                and gdt is not dt
                                and gdt != dt
                                and gdt.kind == dt.kind
                            ):
                                ingrad = ingrad.astype(dt)
                        outgrads[parent] = add_outgrads(outgrads.get(parent), ingrad)
            return tuple(
                vspace(x).zeros() if g is None else g for x, g in zip(primals, result, strict=True)
            )

        return out, pullback, aux

    @functools.cached_property
    def _node_type(self) -> Any:
        return _typed_node(self.dtype_of)

    @functools.cached_property
    def _ag(self) -> tuple[Any, ...]:
        """The autograd internals `vjp` uses (imported once, not on every pass)."""
        from autograd.builtins import tuple as atuple
        from autograd.core import add_outgrads, vspace
        from autograd.tracer import getval, isbox, new_box, trace_stack
        from autograd.util import toposort

        return (atuple, add_outgrads, vspace, getval, isbox, new_box, trace_stack, toposort)

    @functools.cached_property
    def _array_box(self) -> Any:
        from autograd.numpy.numpy_boxes import ArrayBox

        return ArrayBox

    def batched(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        anp = self.np

        def loop(ins: Any, consts: Any, seeds: Any) -> Any:
            batch = next(s.shape[0] for s in seeds if s is not None)
            rows = [fn(ins, consts, tuple(s[b] for s in seeds)) for b in range(batch)]
            return tuple(anp.stack([r[i] for r in rows]) for i in range(len(rows[0])))

        return loop

    def dtype_of(self, v: Any) -> Any:
        # An ArrayBox's dtype is a property making three Python calls (autograd's
        # result_type primitive on the value inside); the rebuilt passes ask it of every
        # seed and gradient of every nested pass. The same answer, read from the value.
        kind = type(v)
        if kind is self._np.ndarray:
            return v.dtype
        array_box = self._array_box
        if kind is not array_box:
            return getattr(v, "dtype", None)
        v = v._value
        while type(v) is array_box:
            v = v._value
        return v.dtype if type(v) is self._np.ndarray else self._np.result_type(v)

    def differentiates(self, dtype: Any) -> bool:
        # HIPS autograd registers the NumPy float and complex types, not ml_dtypes'
        return bool(self._np.issubdtype(dtype, self._np.inexact))

    def canon(self, v: Any) -> Any:
        np = self._np
        if isinstance(v, np.generic):
            return np.asarray(v)
        return v

    def asarray(self, data: Any, dtype: str) -> Any:
        return self._np.array(data, dtype=dtype)

    def defers(self) -> bool:
        # np.seterr(...="raise"/"call"): the op that overflows must be the one to raise.
        # Asked on every recorded op: the answer is kept with the error state it was read
        # from (NumPy's context variable holds one immutable object per state, replaced by
        # every seterr/errstate), so that an unchanged state costs one lookup.
        state = self._errstate
        if state is None:
            return self._defers_now()
        current = state.get(None)
        cached = self._defers_cache
        if cached is not None and cached[0] is current:
            return bool(cached[1])
        answer = self._defers_now()
        self._defers_cache = (current, answer)  # holds the object: its id is not reused
        return answer

    def _defers_now(self) -> bool:
        err = self._np.geterr()
        return "raise" not in err.values() and "call" not in err.values()

    _defers_cache: tuple[Any, bool] | None = None

    @functools.cached_property
    def _errstate(self) -> Any:
        """NumPy's error-state context variable (NumPy 2), or None: ask ``geterr``."""
        import contextvars

        umath = getattr(getattr(self._np, "_core", None), "umath", None)
        var = getattr(umath, "_extobj_contextvar", None)
        return var if isinstance(var, contextvars.ContextVar) else None

    def cast(self, x: Any, dtype: Any) -> Any:
        from autograd.tracer import isbox

        if isbox(x):
            return x.astype(dtype)
        return self._np.asarray(x).astype(dtype)


def _in_dtype(g: Any, dt: Any, dtype_of: Callable[[Any], Any]) -> Any:
    """Cotangent ``g`` cast to ``dt`` where it has another dtype of the same kind (the
    pullback's rule for every edge, here for the seed of a one-output pass)."""
    gdt = None if dt is None else dtype_of(g)
    if gdt is not None and gdt is not dt and gdt != dt and gdt.kind == dt.kind:
        return g.astype(dt)
    return g


def _typed_node(dtype_of: Callable[[Any], Any]) -> Any:
    """autograd's reverse-mode node, also holding its value's dtype (not the value).

    autograd builds each node of a trace with the node type of its boxed arguments, so
    roots of this type make every node of the trace one; the primitives autograd does not
    trace for its own node type are not traced for this one either."""
    import numpy as np
    from autograd.core import VJPNode, primitive_vjps
    from autograd.tracer import notrace_primitives

    ndarray = np.ndarray

    init = VJPNode.__init__

    class TypedVJPNode(VJPNode):  # type: ignore[misc]
        __slots__ = ("dtype",)

        def __init__(
            self,
            value: Any,
            fun: Any,
            args: Any,
            kwargs: Any,
            parent_argnums: Any,
            parents: Any,
        ) -> None:
            # autograd 1.9.1's VJPNode.__init__ (two lines), inlined: one node is made
            # per primitive of every pass, and calling it would add a Python frame and
            # an argument tuple per node. A primitive without a VJP goes through
            # autograd's own __init__, which raises its own error. (VJPNode's slots:
            # mypy does not see them.)
            self.parents = parents  # type: ignore[misc]
            vjpmaker = primitive_vjps.get(fun)
            if vjpmaker is None:
                init(self, value, fun, args, kwargs, parent_argnums, parents)
            else:
                self.vjp = vjpmaker(parent_argnums, value, args, kwargs)  # type: ignore[misc]
            # (in a nested pass, value is a box of the enclosing pass)
            self.dtype = value.dtype if type(value) is ndarray else dtype_of(value)

        def initialize_root(self) -> None:
            super().initialize_root()
            self.dtype = None

    notrace_primitives[TypedVJPNode] = notrace_primitives[VJPNode]
    return TypedVJPNode


_INEXACT: dict[Any, bool] = {}


def is_inexact(dtype: Any) -> bool:
    """Float or complex (bfloat16 and the ml_dtypes floats included)."""
    ok = _INEXACT.get(dtype)
    if ok is None:
        import numpy as np

        try:  # (a dtype object naming its NumPy dtype: TensorFlow's tf.DType)
            ok = bool(np.issubdtype(getattr(dtype, "as_numpy_dtype", dtype), np.inexact))
        except TypeError:
            ok = False
        if not ok and "float" in str(dtype):
            ok = True
        _INEXACT[dtype] = ok
    return ok


# ---- a small pytree for the numpy engine: lists, tuples, dicts, None ----------
_LEAF = "*"


def _flatten(tree: Any, is_leaf: Callable[[Any], bool], leaves: list[Any]) -> Any:
    if is_leaf(tree):
        leaves.append(tree)
        return _LEAF
    if type(tree) in (list, tuple):
        return (type(tree), tuple(_flatten(v, is_leaf, leaves) for v in tree))
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):  # a namedtuple (eigh, svd, ...)
        return (_namedtuple(type(tree)), tuple(_flatten(v, is_leaf, leaves) for v in tree))
    if type(tree).__name__ == "SequenceBox" and type(tree).__module__ == "autograd.builtins":
        # autograd traces a function that returns a tuple (eigh, svd, slogdet, qr) as one
        # box over the tuple: its items, as the untraced call's tuple
        return (tuple, tuple(_flatten(tree[i], is_leaf, leaves) for i in range(len(tree))))
    if type(tree) is dict:
        keys = tuple(tree)
        return (dict, keys, tuple(_flatten(tree[k], is_leaf, leaves) for k in keys))
    leaves.append(tree)
    return _LEAF


def _namedtuple(cls: type) -> Callable[[Any], Any]:
    def make(items: Any) -> Any:
        return cls(*items)

    return make


def _unflatten(treedef: Any, it: Any) -> Any:
    if treedef is _LEAF:
        return next(it)
    if treedef[0] is dict:
        return {k: _unflatten(d, it) for k, d in zip(treedef[1], treedef[2], strict=True)}
    return treedef[0](_unflatten(d, it) for d in treedef[1])


jax_engine = _JaxEngine()
numpy_engine = _NumpyEngine()
