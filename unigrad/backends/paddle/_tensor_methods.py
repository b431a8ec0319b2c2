"""The ``paddle.Tensor`` methods unigrad wraps, each passing every other call to paddle.

Installed once, when the paddle backend loads (`install`); a wrapper is marked, so a
second load wraps nothing twice:

* ``__getitem__``: marks the full-range slices that alias their source (rule 17c reads
  the mark through `_records._PaddleGraph.full_slice`);
* ``a / b`` and ``a % b`` where an operand requires grad: computed as ``xp.divide`` and
  ``xp.remainder`` (differentiable to any order; paddle 3.3.1's ``divide_double_grad``
  and ``remainder_grad`` have no gradient);
* ``x ** n`` and ``x ** y`` where an operand requires grad: computed as ``xp.pow``;
* ``a * b`` whose broadcast result has no element: operands expanded first;
* ``+t`` where ``t`` requires grad: a new tensor (paddle's is ``t`` itself);
* ``a @ b`` between paddle tensors of two dtypes: computed as ``xp.matmul`` (promoting);
* ``float``/``int``/``complex``/``bool``/``item``: one rule on every backend (docs/tape.md);
* the binary operators and comparisons: `unigrad.BackendError` naming both frameworks
  when the other operand is another framework's tensor.
"""

from __future__ import annotations

import functools
from typing import Any

import paddle

from ..._errors import BackendError, message, not_one_element

__all__ = ["install"]


#: Set on a tensor that paddle's ``__getitem__`` returned as an alias of its source.
_ALIAS = "_unigrad_full_slice"


def _mark_full_slices() -> None:
    """Make ``Tensor.__getitem__`` mark the aliases it returns.

    For a full-range index (``x[0:n]``, ``x[:]``, ``x[...]``) paddle returns a new
    Python tensor that shares ``x``'s storage *and autograd identity* (node, output
    slot, and for a leaf its name): nothing in the tensor tells it from ``x`` (node,
    ``is_leaf``, inplace version, data pointer, shape and strides all agree), so a
    gradient with respect to it is ``x``'s, where torch gives the slice's own. Only the
    moment it is made shows it: the wrapper compares the result with its source
    (``_is_shared_underline_tensor_with``, the same tensor implementation: ~0.1 us)
    and marks an alias with an attribute; `_PaddleGraph.full_slice` reads it. Slices taken
    before unigrad first loads its paddle backend are not marked.
    """
    cls = paddle.Tensor
    original = cls.__getitem__
    if getattr(original, _ALIAS, False):
        return

    @functools.wraps(original)
    def __getitem__(self: Any, item: Any) -> Any:
        out = original(self, item)
        if out is not self and isinstance(out, cls) and out._is_shared_underline_tensor_with(self):
            setattr(out, _ALIAS, True)
        return out

    setattr(__getitem__, _ALIAS, True)
    cls.__getitem__ = __getitem__


def _is_alias(x: Any) -> bool:
    return getattr(x, _ALIAS, False) and not x.stop_gradient


def _divide_to_any_order() -> None:
    """Make ``a / b`` and ``a % b`` between paddle tensors differentiable to any order.

    paddle 3.3.1's ``Tensor.__truediv__`` runs the ``divide`` kernel, whose
    ``divide_double_grad`` has no gradient: a third derivative through ``a / b`` (or
    ``1.0 / b``) raised HigherOrderUnavailableError where ``xp.divide`` answers; its
    ``Tensor.__mod__`` runs ``remainder``, which has no double-grad kernel at all (a
    second derivative raised it: ``test_a_remainder_operator_differentiates_twice``).
    Where an operand requires grad and both are real floating tensors of one dtype (a
    Python number on the other side becomes one), the operator computes the
    namespace's way (`unigrad._array_api._paddle_ho.divide` and ``remainder``: the
    kernel's value, derivatives written in ops paddle differentiates again); otherwise
    paddle's own operator runs, unchanged.
    """
    from ..._array_api import _paddle_ho as ho

    cls = paddle.Tensor
    if getattr(cls.__truediv__, _ALIAS, False):
        return

    def operand(like: Any, v: Any) -> Any:
        """``v`` as a tensor where the result may need higher derivatives (either side
        requires grad; a Python number becomes a 0-d tensor of ``like``'s dtype), else
        None: paddle's operator (``stop_gradient`` first, it costs least)."""
        if isinstance(v, cls):
            if like.stop_gradient and v.stop_gradient:
                return None
        elif like.stop_gradient or not isinstance(v, (int, float)) or isinstance(v, bool):
            return None
        else:
            v = paddle.full([], float(v), dtype=like.dtype)
        return v if v.dtype == like.dtype and ho.needs(like, v) else None

    def wrap(names: tuple[str, ...], rnames: tuple[str, ...], fn: Any) -> None:
        forward, reflected = getattr(cls, names[0]), getattr(cls, rnames[0])

        def method(self: Any, other: Any) -> Any:
            b = operand(self, other)
            return forward(self, other) if b is None else fn(self, b)

        def rmethod(self: Any, other: Any) -> Any:
            a = operand(self, other)
            return reflected(self, other) if a is None else fn(a, self)

        for f, orig, name in ((method, forward, names[0]), (rmethod, reflected, rnames[0])):
            f.__doc__ = orig.__doc__
            f.__name__ = f.__qualname__ = name
            setattr(f, _ALIAS, True)
        for name in names:
            setattr(cls, name, method)
        for name in rnames:
            setattr(cls, name, rmethod)

    wrap(("__truediv__", "__div__"), ("__rtruediv__", "__rdiv__"), ho.divide)
    wrap(("__mod__",), ("__rmod__",), ho.remainder)


def _power_to_any_order() -> None:
    """Make ``x ** n`` and ``n ** x`` (a Python number ``n``) and ``x ** y`` (a tensor
    ``y``) compute as ``xp.pow`` where an operand requires grad.

    paddle 3.3.1's ``Tensor.__pow__`` runs its scalar ``pow`` kernel, whose double-grad
    node keeps ``x`` in ``x ** 2``'s second derivative (a constant, 2: rule 14; seed
    2026's corpus program "x ** 2's second derivative") and raises "DX can not be
    nullptr" where a later pass does not differentiate toward ``x``; with a tensor
    exponent, and ``__rpow__`` always, it runs ``elementwise_pow``, which has no
    double-grad kernel
    (`HigherOrderUnavailableError` at second order where the other backends answer:
    ``test_a_tensor_power_operator_differentiates_twice``). The namespace's ``pow``
    (`unigrad._array_api._paddle.pow`: ``x * x`` for 2, a product of squarings for
    another integer, `_paddle_ho.pow` for a tensor exponent, paddle's value with
    differentiable derivatives otherwise) answers all of them, and complex ``z ** 1`` (a
    copy: paddle's complex pow reads ``z`` in its constant derivative). Where no operand
    requires grad, or one is not floating, or ``n`` is neither a Python number nor a
    paddle tensor, paddle's operator runs unchanged.
    """
    from ..._array_api import _paddle as namespace

    cls = paddle.Tensor
    if getattr(cls.__pow__, _ALIAS, False):
        return
    original, reflected = cls.__pow__, cls.__rpow__
    floating = (paddle.float32, paddle.float64)
    inexact = (*floating, paddle.complex64, paddle.complex128)

    def __pow__(self: Any, other: Any) -> Any:
        if isinstance(other, cls):
            if (self.stop_gradient and other.stop_gradient) or not (
                self.dtype in inexact and other.dtype in inexact
            ):
                return original(self, other)
            return namespace.pow(self, other)
        if self.stop_gradient or type(other) not in (int, float):
            return original(self, other)
        if self.dtype in floating or (other == 1 and self.dtype in inexact):
            return namespace.pow(self, other)  # (complex z ** 1: a copy)
        return original(self, other)

    def __rpow__(self: Any, other: Any) -> Any:
        # (complex too: paddle 3.3.1's complex elementwise_pow_grad gives wrong values,
        # `_paddle_ho.pow`; differential seed 9802, programs 853 and 4579)
        if self.stop_gradient or type(other) not in (int, float) or self.dtype not in inexact:
            return reflected(self, other)
        return namespace.pow(other, self)

    for f, orig in ((__pow__, original), (__rpow__, reflected)):
        f.__doc__ = orig.__doc__
        setattr(f, _ALIAS, True)
    cls.__pow__ = __pow__
    cls.__rpow__ = __rpow__


def _empty_broadcast_products() -> None:
    """Make ``a * b`` between paddle tensors multiply operands expanded to their
    broadcast shape where that shape has no element and one requires grad
    (`unigrad._array_api._paddle_contract.expanded`, which says why: paddle 3.3.1's
    broadcasting ``multiply`` fails at second order there). Every other product goes to
    paddle's operator with its operands as they are (costs two ``stop_gradient`` reads,
    and two ``shape`` reads where an operand requires grad)."""
    from ..._array_api import _paddle_contract as contract

    cls = paddle.Tensor
    if getattr(cls.__mul__, _ALIAS, False):
        return
    original = cls.__mul__

    def __mul__(self: Any, other: Any) -> Any:
        if isinstance(other, cls):
            return original(*contract.expanded(self, other))
        return original(self, other)

    __mul__.__doc__ = original.__doc__
    setattr(__mul__, _ALIAS, True)
    cls.__mul__ = __mul__


def _positive_copies() -> None:
    """Make ``+t`` of a paddle tensor that requires grad a new tensor, as the
    namespace's ``positive`` gives it: paddle 3.3.1's ``Tensor.__pos__`` returns ``t``
    itself, so a pass that consumed ``+t``'s node consumed nothing (differential seed
    9920, program 968, on torch, whose ``+t`` does the same)."""
    cls = paddle.Tensor
    original = getattr(cls, "__pos__", None)
    if original is None or getattr(original, _ALIAS, False):
        return

    @functools.wraps(original)
    def __pos__(self: Any) -> Any:
        return original(self) if self.stop_gradient else self.clone()

    setattr(__pos__, _ALIAS, True)
    cls.__pos__ = __pos__


def _matmul_promotes() -> None:
    """Make ``a @ b`` between paddle tensors of two dtypes compute as ``xp.matmul(a, b)``
    (`unigrad._array_api._paddle_arrays.matmul`: promoted as the standard says, as the
    other backends' ``@`` does).

    paddle 3.3.1's ``Tensor.__matmul__`` gives the left operand's dtype: float32 @
    float64 is float32, computed in float32, so the float64 operand's precision is lost
    (a wrong number: tests/test_divergences_2026.py
    ``test_matmul_operator_promotes_mixed_float_dtypes`` and the differential corpus's
    "paddle: float32 @ float64 came out float32"). Operands of one dtype, and any
    operand that is not a paddle tensor, go to paddle's operator unchanged.
    """
    from ..._array_api import _paddle_arrays as arrays

    cls = paddle.Tensor
    if getattr(cls.__matmul__, _ALIAS, False):
        return
    forward, reflected = cls.__matmul__, cls.__rmatmul__

    def __matmul__(self: Any, other: Any) -> Any:
        if isinstance(other, cls) and other.dtype != self.dtype:
            return arrays.matmul(self, other)
        return forward(self, other)

    def __rmatmul__(self: Any, other: Any) -> Any:
        if isinstance(other, cls) and other.dtype != self.dtype:
            return arrays.matmul(other, self)
        return reflected(self, other)

    for f, orig in ((__matmul__, forward), (__rmatmul__, reflected)):
        f.__doc__ = orig.__doc__
        setattr(f, _ALIAS, True)
    cls.__matmul__ = __matmul__
    cls.__rmatmul__ = __rmatmul__


def _convert_one_element() -> None:
    """Make ``float()``, ``int()``, ``complex()``, ``bool()`` and ``.item()`` of paddle
    tensors follow unigrad's one rule (docs/tape.md): the one element of a one-element
    tensor of any rank, `unigrad.ScalarConversionError` for any other size.

    paddle 3.3.1's ``float``/``int``/``complex`` take 0-d tensors only (NumPy's
    ``TypeError`` for shape ``(1,)``), where torch and the tapes answer; for several
    elements paddle raises ``AssertionError`` (``ValueError`` from ``item``). A
    one-element tensor goes to paddle's own method as a 0-d copy; ``t.item(i)`` with an
    index is paddle's, unchanged.
    """
    cls = paddle.Tensor
    if getattr(cls.__float__, _ALIAS, False):
        return

    def wrap(name: str, what: str) -> None:
        original = getattr(cls, name)

        @functools.wraps(original)
        def convert(self: Any, *args: Any) -> Any:
            if args:
                return original(self, *args)
            if self.size != 1:
                raise not_one_element(what, tuple(self.shape), int(self.size))
            return original(self.detach().reshape([]) if self.ndim else self)

        setattr(convert, _ALIAS, True)
        setattr(cls, name, convert)

    for name, what in (
        ("__float__", "float"),
        ("__int__", "int"),
        ("__complex__", "complex"),
        ("__bool__", "bool"),
        ("__nonzero__", "bool"),
        ("item", "item"),
    ):
        wrap(name, what)


#: paddle.Tensor's binary operators (forward and reflected) that `_refuse_other_frameworks`
#: wraps.
_OPERATORS = (
    "add",
    "sub",
    "mul",
    "truediv",
    "div",
    "floordiv",
    "mod",
    "pow",
    "matmul",
    "and",
    "or",
    "xor",
    "lshift",
    "rshift",
)
_COMPARISONS = ("lt", "le", "gt", "ge", "eq", "ne")
_REFUSES = "_unigrad_refuses_other_frameworks"


def _other_framework(other: Any) -> str | None:
    """The unigrad backend name of ``other`` where it is another framework's tensor
    (torch, a jax array or tape tensor, a numpy tape tensor); None for paddle tensors,
    Python numbers, NumPy arrays and anything unigrad does not know."""
    if isinstance(other, (paddle.Tensor, int, float, complex, bool)) or other is None:
        return None
    import numpy as np

    if isinstance(other, (np.ndarray, np.generic)):
        return None
    from ..._dispatch import owner

    be = owner(other)
    return None if be is None or be.name == "paddle" else be.name


def _refuse_other_frameworks() -> None:
    """Make paddle.Tensor's operators raise `unigrad.BackendError` (a ``TypeError``)
    naming both frameworks when the other operand is another framework's tensor.

    paddle 3.3.1 answers ``paddle_t * torch_t`` (and ``torch_t * paddle_t``: torch's
    operator returns NotImplemented, then Python calls paddle's reflected one) with
    ``TypeError: unsupported operand type(s)``, ``(InvalidType) __matmul__(): argument
    (position 1) must be int, float, bool or Tensor, but got Tensor``, a ``ValueError``
    (``&``), or ``False`` (``==``); the tapes name both frameworks (tape ``_tensor``).
    Every other operand goes to paddle's operator unchanged.
    """
    cls = paddle.Tensor
    if getattr(cls.__add__, _REFUSES, False):
        return
    # the common operands, by exact type: paddle's operator at once, no call per operator
    native = frozenset({cls, int, float, bool, complex})

    def wrap(dunder: str, symbol: str, reflected: bool) -> None:
        original = getattr(cls, dunder, None)
        if original is None:
            return

        @functools.wraps(original)
        def method(self: Any, other: Any) -> Any:
            if other.__class__ in native:
                return original(self, other)
            theirs = _other_framework(other)
            if theirs is not None:
                pair = (f"a {theirs}", "a paddle")
                left, right = pair if reflected else pair[::-1]
                msg = message(
                    f"the operator {symbol!r} mixes two frameworks",
                    expected="operands of one framework (paddle tensors, NumPy arrays or "
                    "Python numbers)",
                    got=f"{left} tensor and {right} tensor ({type(other).__module__}."
                    f"{type(other).__qualname__} and paddle.Tensor)",
                    fix="Convert one side first: unigrad.to_numpy(t) gives a host copy, "
                    "from which the other framework makes its tensor.",
                )
                raise BackendError(msg)
            return original(self, other)

        setattr(method, _REFUSES, True)
        setattr(cls, dunder, method)

    for name in _OPERATORS:
        wrap(f"__{name}__", name, False)
        wrap(f"__r{name}__", name, True)
    for name in _COMPARISONS:
        wrap(f"__{name}__", name, False)


def install() -> None:
    """Wrap the methods above (once per process)."""
    _mark_full_slices()
    _divide_to_any_order()
    _power_to_any_order()
    _empty_broadcast_products()
    _positive_copies()
    _matmul_promotes()
    _convert_one_element()
    _refuse_other_frameworks()
