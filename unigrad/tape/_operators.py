"""The operators and methods of tape tensors, as functions `unigrad.tape.Tensor` binds.

Each is module-level so that the nodes it records have stable keys: the same function
object every time, hashed cheaply (`_operator` explains the jax case).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._errors import BackendError, CompiledStepError, message
from ._hooks import HOOKS
from ._node import TensorBase, in_traced_step
from ._record import constants, emit, record

if TYPE_CHECKING:
    from ._tensor import Tensor


def _getitem(x: Any, idx: Any) -> Any:
    """``x[idx]``; an empty float or complex result of a non-empty ``x`` stays on a node
    of ``x``: jax 0.10.2 gathers an empty slice shape as ``lax.full_like(x, 0)``
    (jax/_src/numpy/indexing.py ``_gather``), a constant, where rule 14 and every other
    backend keep the dependence whatever the sizes (``x[idx]`` of no index, ``x[mask]``
    of an all-false mask). ``0 * sum(x)`` adds nothing to no element."""
    out = x[idx]
    if out.size == 0 and x.size != 0 and out.dtype.kind in "fc":
        return out + x.sum() * 0
    return out


_STATIC_INDEX = frozenset({int, type(None), type(Ellipsis)})


def _static_index(idx: tuple[Any, ...]) -> bool:
    """Whether an index tuple holds only ints, None, ``...`` and slices of ints."""
    for e in idx:
        t = type(e)
        if t is slice:
            if not (
                type(e.start) in _STATIC_INDEX
                and type(e.stop) in _STATIC_INDEX
                and type(e.step) in _STATIC_INDEX
            ):
                return False
        elif t not in _STATIC_INDEX:
            return False
    return True


class _StaticIndex:
    """The tag of an index tuple's key in `_record_static_index` (never instantiated, so
    no key `skey` makes carries it)."""


def _record_static_index(cls: type[Tensor], x: Tensor, idx: tuple[Any, ...]) -> Any:
    """``x[idx]`` for an index that `_static_index` accepts, keyed by the index itself.

    Its elements are exactly ints (not bools), None, ``...`` and slices of those, so a
    slice written as its ``(start, stop, step)`` is told apart from every other element,
    and equal keys are equal indices. The key is laid out as `_record_flat`'s (the
    index is argument 1), under a tag of its own.
    """
    if x._index < 0:  # a constant: compute, record nothing
        return constants(cls, x._value[idx])
    skey = tuple((e.start, e.stop, e.step) if type(e) is slice else e for e in idx)

    def fn(v: Any) -> Any:
        return _getitem(v, idx)

    return emit(cls, fn, (_getitem, 2, ((1, (_StaticIndex, skey)),), ()), (x,))


def _is_mask(v: Any) -> bool:
    """Whether ``v`` is a boolean array of at least one dimension (a ``tf.Tensor`` too:
    it has no ``ndim``, and its dtype prints as ``<dtype: 'bool'>``)."""
    dtype = getattr(v, "dtype", None)
    if dtype is None or getattr(dtype, "name", None) != "bool":
        return False
    ndim = getattr(v, "ndim", None)
    if ndim is None:
        ndim = getattr(getattr(v, "shape", None), "rank", 0)
    return bool(ndim)


def _integer_masks(idx: Any) -> Any:
    """A concrete boolean mask in an index as the integer indices it selects.

    ``x[mask]`` is documented for tape tensors, but the rebuilt function is traced
    (``jax.jit``), where a boolean mask has no static shape. Its ``nonzero`` indices are
    integer arrays, which trace. A tape tensor used as a mask (``x[x > 0]``) has a
    concrete value outside a compiled step (a comparison runs eagerly): its value is
    read the same way. A mask that is itself a tracer (inside `unigrad.jit` or the
    caller's ``jax.jit``) is left alone, and the trace raises (`unigrad.jit`: a
    `CompiledStepError`, as for any value read while tracing). Inside a `unigrad.jit`
    step the refusal is raised here, for every engine: TensorFlow does not refuse a
    graph tensor as a mask but gives a result of unknown shape ``(None,)``, on which a
    ``grad`` seed cannot be checked or made.
    """
    items = idx if isinstance(idx, tuple) else (idx,)
    if not any(_is_mask(i) for i in items):
        return idx
    import numpy as np

    out: list[Any] = []
    for i in items:
        if _is_mask(i):
            try:
                host = np.asarray(i._value if isinstance(i, TensorBase) else i)
            except Exception as err:  # a tracer under a jit: keep the mask
                if in_traced_step():
                    from ._step import STEP_READ

                    raise CompiledStepError(STEP_READ) from err
                out.append(i)
                continue
            out.extend(np.nonzero(host))
        else:
            out.append(i)
    return tuple(out)


def _transpose_T(x: Any) -> Any:
    return x.T


def _mT(x: Any) -> Any:
    return x.swapaxes(-1, -2)


def _astype(x: Any, dtype: Any) -> Any:
    return x.astype(dtype)


def _reshape(x: Any, shape: Any) -> Any:
    return x.reshape(shape)


def _rev(op: Callable[..., Any]) -> Callable[..., Any]:
    def rop(a: Any, b: Any) -> Any:
        return op(b, a)

    rop.__name__ = f"r{getattr(op, '__name__', 'op')}"
    return rop


_REV_CACHE: dict[Any, Callable[..., Any]] = {}


def _reverse(op: Callable[..., Any]) -> Callable[..., Any]:
    r = _REV_CACHE.get(op)
    if r is None:
        r = _REV_CACHE[op] = _rev(op)
    return r


#: (engine name, function name) -> the function an operator records (`_operator`).
_OPERATORS: dict[tuple[str, str], Callable[..., Any]] = {}


def _operator(cls: type[Tensor], name: str) -> Callable[..., Any]:
    """The engine's function ``name`` as an operator records it.

    Every recorded op's key is hashed a few times per step (the output spec cache, the
    compiled-function cache). ``jax.numpy``'s ufuncs (``jnp.add``, ...) hash in Python
    (jax 0.10.2: ~0.8 us each): on jax an operator records a plain function calling the ufunc (same
    name, same result), which hashes by identity. autograd's functions hash cheaply and
    run on every pass, so numpy's are recorded as they are.
    """
    engine = cls._engine
    op = _OPERATORS.get((engine.name, name))
    if op is None:
        fn = getattr(engine.np, name)
        if engine.name == "numpy" and name in ("abs", "positive"):
            # the namespace's: abs differentiated through sign (rule 14: its gradient is
            # a constant; autograd's own reads x / |x|), positive as x * 1 (autograd
            # 1.9.1 has no VJP for np.positive: ``+x`` raised NotImplementedError)
            from .._array_api import _autograd

            fn = getattr(_autograd.build(), name)
        op = fn
        hash_of: Any = type(fn).__hash__
        if engine.compiles and hash_of is not object.__hash__:

            def op(*args: Any) -> Any:
                return fn(*args)

            op.__name__ = op.__qualname__ = name
        _OPERATORS[(engine.name, name)] = op
    return op


_PLAIN_OPERANDS = (int, float, complex, bool)


def _check_operand(cls: type[Tensor], other: Any, name: str) -> None:
    """Refuse another framework's tensor as an operator's operand (torch and paddle
    tensors would be converted through NumPy, or fail with the framework's own error).
    Plain arrays of the tape's framework, and NumPy arrays, stay accepted."""
    if isinstance(other, (TensorBase, *_PLAIN_OPERANDS)) or cls._engine.is_array(other):
        return
    be = HOOKS.owner(other)
    if be is None or be.name in ("jax", "numpy"):
        return
    mine = cls.__unigrad_backend__
    msg = message(
        f"the operator {name!r} mixes two frameworks",
        expected=f"operands of one framework ({mine} tape tensors, {mine} arrays or "
        f"Python numbers)",
        got=f"a {mine} tape tensor and a {be.name} tensor "
        f"({type(other).__module__}.{type(other).__qualname__})",
        fix="Convert one side first: unigrad.to_numpy(t) gives a host copy, from which "
        "the other framework makes its tensor.",
    )
    raise BackendError(msg)


def _binop(name: str) -> Callable[[Tensor, Any], Any]:
    def method(self: Tensor, other: Any) -> Any:
        cls = type(self)
        _check_operand(cls, other, name)
        return record(cls, _operator(cls, name), self, other)

    method.__name__ = f"__{name}__"
    return method


def _rbinop(name: str) -> Callable[[Tensor, Any], Any]:
    def method(self: Tensor, other: Any) -> Any:
        cls = type(self)
        _check_operand(cls, other, name)
        return record(cls, _reverse(_operator(cls, name)), self, other)

    method.__name__ = f"__r{name}__"
    return method


def _unop(name: str) -> Callable[[Tensor], Any]:
    def method(self: Tensor) -> Any:
        cls = type(self)
        return record(cls, _operator(cls, name), self)

    method.__name__ = f"__{name}__"
    return method


_NO_CONVERSION = message(
    "a tape tensor cannot be converted to a plain array implicitly",
    expected="an explicit conversion, which drops the tensor's history",
    got="an implicit one (np.asarray, jnp.asarray, __array__)",
    fix="Use unigrad.to_numpy(t) for a host copy, or t.detach() (or t.value) for the "
    "framework array; write the computation with operators, unigrad.namespace(t) or "
    "unigrad.lift(fn) to keep it differentiable.",
)

_METHOD_ALIASES = {"flatten": "ravel"}


def _np_diagonal(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """``x.diagonal(...)`` (NumPy's method: axes 0 and 1 by default) through the numpy
    tape's differentiable diagonal: autograd's own VJP supports only the last two axes."""
    import autograd.numpy as anp

    from .._array_api._autograd import _Prims

    return _Prims(anp).diagonal(x, offset, axis1, axis2)


#: Methods an engine's own function cannot differentiate: (engine, name) -> function.
_ENGINE_METHODS: dict[tuple[str, str], Callable[..., Any]] = {("numpy", "diagonal"): _np_diagonal}
