"""Tape tensors: a value of jax or numpy plus the node that made it.

A `Tensor` holds a framework array (``_value``, pending until it is needed: see
``_lazy``) and, unless it is a leaf, the `unigrad.tape._node.Node` that produced it
(its data are `unigrad.tape._node.TensorBase`'s). Its operators and methods record
(`unigrad.tape._operators`, `unigrad.tape._record`); the array API's protocols are
`unigrad.tape._array_object.ArrayObject`'s.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from .._errors import TapeError
from . import _lazy
from ._array_object import ArrayObject
from ._hooks import HOOKS
from ._node import Node, TensorBase
from ._operators import (
    _ENGINE_METHODS,
    _METHOD_ALIASES,
    _NO_CONVERSION,
    _astype,
    _binop,
    _check_operand,
    _getitem,
    _integer_masks,
    _mT,
    _rbinop,
    _record_static_index,
    _reshape,
    _static_index,
    _transpose_T,
    _unop,
)
from ._record import record, record_call
from ._slices import mark_if_full_slice
from ._snapshots import owned

if TYPE_CHECKING:
    from ._engine import Engine

__all__ = ["JaxTensor", "NumpyTensor", "Tensor"]


class Tensor(ArrayObject, TensorBase):
    """A value of jax or numpy with the tape history that made it.

    Created by `unigrad.watch` (a leaf) and by every recorded operation on tape
    tensors. Supports the Python operators, indexing, ``.T``, ``.shape``, ``.dtype``,
    ``.ndim``, the framework's array methods (``sum``, ``mean``, ``reshape``, ...),
    and `unigrad.namespace` for everything else. Converting to a plain array is
    explicit: `detach` (or `value`) and `unigrad.to_numpy`.

    Examples:
        >>> import numpy as np, unigrad
        >>> x = unigrad.watch(np.array([1.0, 2.0]))
        >>> y = (x * x).sum()
        >>> unigrad.grad(y, x)
        (array([2., 4.]),)
    """

    __slots__ = ()
    __unigrad_backend__: ClassVar[str] = "?"
    _engine: ClassVar[Engine]
    __array_priority__ = 1_000_000

    def __init__(self, value: Any) -> None:
        """Prefer `unigrad.watch`: this makes a leaf holding ``value``."""
        self._v: Any = value  # None while pending (see ``_lazy``)
        self._aval: Any = self._engine.describe(value)  # (shape, dtype, weak_type)
        self._node: Node | None = None
        self._index = 0
        self.grad: Any = None

    @classmethod
    def _make(cls, value: Any, node: Node | None, index: int) -> Tensor:
        t = cls.__new__(cls)
        t._v = owned(value)
        t._aval = cls._engine.describe(value)
        t._node = node
        t._index = index
        t.grad = None
        return t

    @classmethod
    def _pending(cls, node: Node, index: int, aval: Any) -> Tensor:
        t = cls.__new__(cls)
        t._v = None
        t._aval = aval
        t._node = node
        t._index = index
        t.grad = None
        return t

    @classmethod
    def _constant(cls, value: Any) -> Tensor:
        """A tensor without history that does not require grad (index -1 marks it)."""
        return cls._make(value, None, -1)

    def _store(self, value: Any) -> None:
        """Give a pending tensor the value the tape computed for it."""
        self._v = owned(type(self)._engine.canon(value))

    @property
    def _value(self) -> Any:
        """The framework array, computed now if it is pending."""
        if self._v is None:
            _lazy.materialize(type(self), (self,))
        return self._v

    @_value.setter
    def _value(self, value: Any) -> None:  # a constant's assignment (x[key] = v)
        self._v = value
        self._aval = type(self)._engine.describe(value)

    # ---- explicit conversion --------------------------------------------------
    @property
    def value(self) -> Any:
        """The framework array (a ``jax.Array`` / ``numpy.ndarray``), cut from unigrad's
        tape. Under a caller's ``jax.grad`` / ``jax.jit`` / ``jax.vmap`` it is the
        caller's tracer, still differentiable by the caller (`unigrad.detach` cuts
        both)."""
        return self._value

    def detach(self) -> Any:
        """The framework array, cut from unigrad's tape (as `value`: under a caller's
        jax transformation still a value of its trace; `unigrad.detach` cuts both)."""
        return self._value

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        if self.requires_grad:
            raise TapeError(_NO_CONVERSION)
        import numpy as np

        return np.asarray(self._value, *args, **kwargs)

    # ---- autograd attributes --------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        """Whether gradients flow to this tensor: False only for constants.

        A watched leaf and every floating or complex result computed from one require
        grad. Integer and bool results, and the arrays that the namespace creates from
        plain data (``xp.asarray``, ``xp.zeros``, ...), are constants: no history, no
        gradient, and they convert to plain arrays freely.
        """
        return self._index >= 0

    @property
    def is_leaf(self) -> bool:
        """Whether the tensor was made by `unigrad.watch` (not by an operation)."""
        return self._node is None

    def backward(
        self,
        gradient: Any = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Any = None,
    ) -> None:
        """``unigrad.backward(self, gradient, ...)``: accumulate into leaves' ``.grad``."""
        HOOKS.backward(self, gradient, retain_graph, create_graph, inputs)

    # ---- metadata ---------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._aval[0])

    @property
    def dtype(self) -> Any:
        return self._aval[1]

    @property
    def ndim(self) -> int:
        return len(self._aval[0])

    @property
    def size(self) -> int:
        return math.prod(self._aval[0])

    def __len__(self) -> int:
        shape = self._aval[0]
        if not shape:
            msg = "len() of unsized object"
            raise TypeError(msg)
        return int(shape[0])

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        kind = "const" if not self.requires_grad else "leaf" if self._node is None else "tape"
        return f"{type(self).__name__}({self._value!r}, {kind})"

    # scalar conversions are explicit calls: they drop the history knowingly. One rule
    # (torch's): the one element of a one-element tensor of any rank (docs/tape.md)
    def __float__(self) -> float:
        return float(self._element("float"))

    def __int__(self) -> int:
        return int(self._element("int"))

    def __complex__(self) -> complex:
        return complex(self._element("complex"))

    def __bool__(self) -> bool:
        return bool(self._element("bool"))

    __hash__ = object.__hash__

    # ---- recorded views and methods -------------------------------------------
    def __getitem__(self, idx: Any) -> Any:
        cls = type(self)
        if type(idx) is tuple and _static_index(idx):  # x[:, 0]: no pytree to walk
            out = _record_static_index(cls, self, idx)
        else:
            out = record_call(cls, _getitem, (self, _integer_masks(idx)), {})
        mark_if_full_slice(out, self, idx)
        return out

    @property
    def T(self) -> Any:
        return record(type(self), _transpose_T, self)

    @property
    def mT(self) -> Any:
        return record(type(self), _mT, self)

    @property
    def real(self) -> Any:
        cls = type(self)
        return record(cls, cls._engine.np.real, self)

    @property
    def imag(self) -> Any:
        cls = type(self)
        return record(cls, cls._engine.imag, self)

    def conj(self) -> Any:
        cls = type(self)
        return record(cls, cls._engine.np.conj, self)

    conjugate = conj

    def astype(self, dtype: Any) -> Any:
        return record(type(self), _astype, self, dtype)

    def reshape(self, *shape: Any) -> Any:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return record_call(type(self), _reshape, (self, tuple(shape)), {})

    def transpose(self, *axes: Any) -> Any:
        cls = type(self)
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        if not axes:
            return record(cls, _transpose_T, self)
        return record_call(cls, cls._engine.np.transpose, (self, tuple(axes)), {})

    def __getattr__(self, name: str) -> Any:
        # Array methods (sum, mean, max, clip, cumsum, ...) record the namespace function
        # of the same name with the tensor as first argument.
        if name.startswith("_"):
            raise AttributeError(name)
        cls = type(self)
        fn = _ENGINE_METHODS.get((cls._engine.name, name))
        if fn is None:
            fn = getattr(cls._engine.np, _METHOD_ALIASES.get(name, name), None)
        if fn is None or not callable(fn):
            msg = f"{cls.__name__} has no attribute {name!r}"
            raise AttributeError(msg)

        def method(*args: Any, **kwargs: Any) -> Any:
            return record_call(cls, fn, (self, *args), kwargs)

        method.__name__ = name
        return method

    # ---- operators --------------------------------------------------------------
    __add__ = _binop("add")
    __radd__ = _rbinop("add")
    __sub__ = _binop("subtract")
    __rsub__ = _rbinop("subtract")
    __mul__ = _binop("multiply")
    __rmul__ = _rbinop("multiply")
    __truediv__ = _binop("true_divide")
    __rtruediv__ = _rbinop("true_divide")

    def __floordiv__(self, other: Any) -> Any:
        # the namespace's floor_divide: a real result depends on nothing (rule 14)
        _check_operand(type(self), other, "floor_divide")
        from ._namespace import namespace_for

        return namespace_for(type(self)).floor_divide(self, other)

    def __rfloordiv__(self, other: Any) -> Any:
        _check_operand(type(self), other, "floor_divide")
        from ._namespace import namespace_for

        return namespace_for(type(self)).floor_divide(other, self)

    __mod__ = _binop("mod")
    __rmod__ = _rbinop("mod")
    __pow__ = _binop("power")
    __rpow__ = _rbinop("power")
    __matmul__ = _binop("matmul")
    __rmatmul__ = _rbinop("matmul")
    __neg__ = _unop("negative")
    __pos__ = _unop("positive")
    __abs__ = _unop("abs")

    __and__ = _binop("bitwise_and")
    __rand__ = _rbinop("bitwise_and")
    __or__ = _binop("bitwise_or")
    __ror__ = _rbinop("bitwise_or")
    __xor__ = _binop("bitwise_xor")
    __rxor__ = _rbinop("bitwise_xor")
    __lshift__ = _binop("left_shift")
    __rlshift__ = _rbinop("left_shift")
    __rshift__ = _binop("right_shift")
    __rrshift__ = _rbinop("right_shift")
    __invert__ = _unop("invert")

    # comparisons: bool tensors without history (nothing to differentiate)
    __lt__ = _binop("less")
    __le__ = _binop("less_equal")
    __gt__ = _binop("greater")
    __ge__ = _binop("greater_equal")
    __eq__ = _binop("equal")
    __ne__ = _binop("not_equal")


class JaxTensor(Tensor):
    """A tape tensor over a ``jax.Array`` (it may hold a tracer under ``jax.jit``)."""

    __slots__ = ()
    __unigrad_backend__ = "jax"


class NumpyTensor(Tensor):
    """A tape tensor over a ``numpy.ndarray``, differentiated with HIPS autograd."""

    __slots__ = ()
    __unigrad_backend__ = "numpy"


def _attach_engines() -> None:
    from ._engine import jax_engine, numpy_engine

    JaxTensor._engine = jax_engine
    NumpyTensor._engine = numpy_engine


_attach_engines()
