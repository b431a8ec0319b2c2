"""Derivatives of any order for paddle ops whose gradient kernels paddle cannot differentiate.

paddle 3.3 has no double-grad kernel for ``asin``, ``asinh``, ``acosh``, ``atan``,
``atanh``, ``sinh``, ``cosh``, ``expm1``, ``log1p``, ``log2``, ``log10``, ``atan2`` and
``pow`` of two tensors: a ``create_graph=True`` pass through one of them raises
("The Op sinh_grad doesn't have any grad op"), so a PINN residual with a ``sinh``
activation, or a softplus (``log1p(exp(x))``) loss, has no second derivative on paddle
where torch and the tapes give one. Here each of those ops, on a real floating tensor
that requires grad, is a `paddle.autograd.PyLayer`: the forward is paddle's kernel (the
same value), the backward is the derivative written with the namespace's own functions
(``1 / sqrt(1 - x*x)`` for ``asin``), which paddle differentiates again, to any order
(``sinh``'s derivative is the wrapped ``cosh``, whose derivative is the wrapped
``sinh``). Everything else (constants, integers, complex tensors, grad mode off) takes
paddle's op directly: a ``PyLayer`` costs about 10 us more per call.

The dependence structure the paddle adapter reads for ``create_graph`` results
(``unigrad.backends._paddle_deps``) needs nothing more: a ``PyLayer`` node is unknown
there, and an unknown node reads everything it reaches, which is what each of these
formulas reads (every input of a smooth op).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import paddle

__all__ = ["binary", "unary"]

_REAL = (paddle.float16, paddle.bfloat16, paddle.float32, paddle.float64)


def _needs_layer(*xs: Any) -> bool:
    """Whether a call records a node whose gradient paddle must differentiate again:
    grad mode on, and a real floating tensor that requires grad."""
    if not paddle.is_grad_enabled():
        return False
    found = False
    for x in xs:
        if isinstance(x, paddle.Tensor):
            if x.dtype not in _REAL:
                return False
            found = found or not x.stop_gradient
    return found


#: name -> the derivative of the unary op at x, in differentiable paddle ops (``f`` is
#: the wrapped op itself, for the derivatives that are the op's value or its sibling)
_UNARY: dict[str, Callable[[Any, Any], Any]] = {
    "asin": lambda x, y: paddle.rsqrt(1.0 - x * x),
    "acosh": lambda x, y: paddle.rsqrt(x * x - 1.0),
    "asinh": lambda x, y: paddle.rsqrt(x * x + 1.0),
    "atan": lambda x, y: 1.0 / (1.0 + x * x),
    "atanh": lambda x, y: 1.0 / (1.0 - x * x),
    "sinh": lambda x, y: _WRAPPED["cosh"](x),
    "cosh": lambda x, y: _WRAPPED["sinh"](x),
    "expm1": lambda x, y: y + 1.0,
    "log1p": lambda x, y: 1.0 / (1.0 + x),
    "log2": lambda x, y: 1.0 / (x * math.log(2.0)),
    "log10": lambda x, y: 1.0 / (x * math.log(10.0)),
}

_WRAPPED: dict[str, Callable[..., Any]] = {}


def unary(op: Callable[[Any], Any], name: str) -> Callable[[Any], Any]:
    """``op`` (paddle's kernel for ``name``), differentiable to any order on real
    floating tensors that require grad."""
    derivative = _UNARY[name]

    class _Layer(paddle.autograd.PyLayer):  # type: ignore[misc]
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            y = op(x)
            ctx.save_for_backward(x, y)
            return y

        @staticmethod
        def backward(ctx: Any, dy: Any) -> Any:
            x, y = ctx.saved_tensor()
            return dy * derivative(x, y)

    _Layer.__name__ = _Layer.__qualname__ = name.capitalize()

    def f(x: Any) -> Any:
        return _Layer.apply(x) if _needs_layer(x) else op(x)

    f.__name__ = f.__qualname__ = name
    _WRAPPED[name] = f
    return f


def _atan2(a: Any, b: Any, y: Any) -> tuple[Any, Any]:
    r = 1.0 / (a * a + b * b)
    return b * r, -a * r


def _pow(a: Any, b: Any, y: Any) -> tuple[Any, Any]:
    # torch's rule: d/da = b * a^(b-1) (0 where b == 0); d/db = a^b * log(a), 0 where
    # a == 0 and b >= 0 (the limit of a^b log a), so no 0 * -inf
    da = paddle.where(b == 0, paddle.zeros_like(a), b * _WRAPPED["pow"](a, b - 1.0))
    safe = paddle.where(a == 0, paddle.ones_like(a), a)
    db = paddle.where((a == 0) & (b >= 0), paddle.zeros_like(y), y * paddle.log(safe))
    return da, db


_BINARY: dict[str, Callable[[Any, Any, Any], tuple[Any, Any]]] = {
    "atan2": _atan2,
    "pow": _pow,
}


def _unbroadcast(g: Any, shape: list[int]) -> Any:
    """``g`` summed down to ``shape`` (the gradient of a broadcast operand)."""
    if list(g.shape) == list(shape):
        return g
    lead = g.ndim - len(shape)
    axes = list(range(lead)) + [
        lead + i for i, n in enumerate(shape) if n == 1 and g.shape[lead + i] != 1
    ]
    out = paddle.sum(g, axis=axes, keepdim=True) if axes else g
    return paddle.reshape(out, shape)


def binary(op: Callable[[Any, Any], Any], name: str) -> Callable[[Any, Any], Any]:
    """``op`` (paddle's kernel for ``name``, operands of one dtype), differentiable to
    any order on real floating tensors that require grad."""
    derivative = _BINARY[name]

    class _Layer(paddle.autograd.PyLayer):  # type: ignore[misc]
        @staticmethod
        def forward(ctx: Any, a: Any, b: Any) -> Any:
            y = op(a, b)
            ctx.save_for_backward(a, b, y)
            return y

        @staticmethod
        def backward(ctx: Any, dy: Any) -> Any:
            a, b, y = ctx.saved_tensor()
            da, db = derivative(a, b, y)
            ga = None if a.stop_gradient else _unbroadcast(dy * da, a.shape)
            gb = None if b.stop_gradient else _unbroadcast(dy * db, b.shape)
            return ga, gb

    _Layer.__name__ = _Layer.__qualname__ = name.capitalize()

    def f(a: Any, b: Any) -> Any:
        if _needs_layer(a, b) and isinstance(a, paddle.Tensor) and isinstance(b, paddle.Tensor):
            return _Layer.apply(a, b)
        return op(a, b)

    f.__name__ = f.__qualname__ = name
    _WRAPPED[name] = f
    return f
