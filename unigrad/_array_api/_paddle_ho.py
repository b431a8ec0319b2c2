"""paddle functions with derivatives of every order, for the namespace's real floating ops.

paddle 3.3.1 has no higher-order gradient kernel for many ops (``log1p_grad``,
``divide_double_grad``, ``elementwise_pow_grad``, ``prod_grad``, ``sigmoid_triple_grad``,
``erf_grad``, ``einsum_grad`` ...: "The Op X doesn't have any grad op"), so a Hessian or
an HVP through them fails. Each function here keeps paddle's kernel for the value and
gives its derivative as a `paddle.autograd.PyLayer` whose backward is written with
functions paddle differentiates again (``exp``, ``log``, ``tanh``, ``multiply``,
``where``, sums, and this module's own functions, recursively): the same values, and
derivatives of every order. They are used only where an input requires grad and is real
floating; otherwise paddle's kernel runs as it is.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import paddle

__all__ = [
    "binary",
    "einsum",
    "logsumexp",
    "prod",
    "reduce_extreme",
    "unary",
]

_REAL = (paddle.float16, paddle.bfloat16, paddle.float32, paddle.float64)


def needs(*xs: Any) -> bool:
    """Whether a derivative may be asked of a result of ``xs``: one requires grad and
    every tensor is real floating."""
    tensors = [x for x in xs if isinstance(x, paddle.Tensor)]
    return any(not x.stop_gradient for x in tensors) and all(x.dtype in _REAL for x in tensors)


Backward = Callable[..., Any]


def _layer(name: str, forward: Callable[..., Any], backward: Backward) -> type:
    """A PyLayer: ``forward(*xs)`` (paddle's kernel, no recording) and
    ``backward(g, y, *xs)`` returning one gradient per input (same shapes)."""

    def fwd(ctx: Any, *xs: Any) -> Any:
        y = forward(*xs)
        ctx.save_for_backward(*xs, y)
        ctx.wanted = [not x.stop_gradient for x in xs]  # paddle wants None for the others
        return y

    def bwd(ctx: Any, g: Any) -> Any:
        *xs, y = ctx.saved_tensor()
        grads = backward(g, y, *xs)
        if len(xs) == 1:
            return grads[0]
        return tuple(gx if w else None for w, gx in zip(ctx.wanted, grads, strict=True))

    return type(
        f"{name}_any_order",
        (paddle.autograd.PyLayer,),
        {"forward": staticmethod(fwd), "backward": staticmethod(bwd)},
    )


def unary(name: str, kernel: Callable[[Any], Any], backward: Backward) -> Callable[[Any], Any]:
    """``kernel`` with the derivative ``backward(g, y, x) -> (gx,)`` of every order."""
    layer = _layer(name, kernel, backward)

    def f(x: Any) -> Any:
        return layer.apply(x) if needs(x) else kernel(x)

    f.__name__ = f.__qualname__ = name
    return f


class _Operands:
    """The operands of a call, handed to a PyLayer as one non-tensor argument (so that
    the layer's one tensor input is the operand it differentiates)."""

    __slots__ = ("xs", "y")

    def __init__(self, xs: tuple[Any, ...], y: Any) -> None:
        self.xs, self.y = xs, y


def _partial(name: str, i: int, backward: Callable[..., Any]) -> type:
    """A PyLayer adding -0.0 (the exact identity of addition) to a value, whose gradient
    w.r.t. operand ``i`` is ``backward(g, *xs)``, computed on the operands themselves so
    that it is differentiable again, in each of them.

    One layer per operand: paddle 3.3.1 requires a multi-input PyLayer's backward to
    return None for each input the current ``paddle.grad`` does not ask for, and does not
    say which those are."""

    def fwd(ctx: Any, x: Any, ops: _Operands) -> Any:
        ctx.ops = ops
        return paddle.full_like(ops.y, -0.0)

    def bwd(ctx: Any, g: Any) -> Any:
        return backward(g, *ctx.ops.xs)

    return type(
        f"{name}_{i}_any_order",
        (paddle.autograd.PyLayer,),
        {"forward": staticmethod(fwd), "backward": staticmethod(bwd)},
    )


def _with_partials(y: Any, xs: tuple[Any, ...], layers: list[type]) -> Any:
    """``y`` (computed without a graph) plus one `_partial` layer per operand that
    requires grad: the value is ``y``'s, the derivatives the layers'."""
    ops = _Operands(xs, y)
    out = y
    for x, layer in zip(xs, layers, strict=True):
        if not x.stop_gradient:
            out = out + layer.apply(x, ops)
    return out


def binary(
    name: str, kernel: Callable[[Any, Any], Any], backward: Backward
) -> Callable[[Any, Any], Any]:
    """``kernel`` with the derivative ``backward(g, a, b) -> (ga, gb)`` of every order
    (the operands are broadcast first, by paddle's differentiable broadcast)."""
    layers = [
        _partial(name, 0, lambda g, a, b: backward(g, a, b)[0]),
        _partial(name, 1, lambda g, a, b: backward(g, a, b)[1]),
    ]

    def f(a: Any, b: Any) -> Any:
        if not needs(a, b):
            return kernel(a, b)
        if a.shape != b.shape:
            a, b = paddle.broadcast_tensors([a, b])
        with paddle.no_grad():
            y = kernel(a, b)
        return _with_partials(y, (a, b), layers)

    f.__name__ = f.__qualname__ = name
    return f


# ---- the elementwise functions -----------------------------------------------------
def _one(x: Any) -> Any:
    return paddle.ones_like(x)


reciprocal = unary("reciprocal", paddle.reciprocal, lambda g, y, x: (-(g * y * y),))
log1p = unary("log1p", paddle.log1p, lambda g, y, x: (g * reciprocal(x + 1.0),))
expm1 = unary("expm1", paddle.expm1, lambda g, y, x: (g * (y + 1.0),))
log2 = unary("log2", paddle.log2, lambda g, y, x: (g * reciprocal(x) * (1 / math.log(2)),))
log10 = unary("log10", paddle.log10, lambda g, y, x: (g * reciprocal(x) * (1 / math.log(10)),))
sqrt = unary("sqrt", paddle.sqrt, lambda g, y, x: (g * reciprocal(y) * 0.5,))
sin = unary("sin", paddle.sin, lambda g, y, x: (g * cos(x),))
cos = unary("cos", paddle.cos, lambda g, y, x: (-(g * sin(x)),))
sinh = unary("sinh", paddle.sinh, lambda g, y, x: (g * cosh(x),))
cosh = unary("cosh", paddle.cosh, lambda g, y, x: (g * sinh(x),))
tan = unary("tan", paddle.tan, lambda g, y, x: (g * (y * y + 1.0),))
asin = unary("asin", paddle.asin, lambda g, y, x: (g * reciprocal(sqrt(1.0 - x * x)),))
acos = unary("acos", paddle.acos, lambda g, y, x: (-(g * reciprocal(sqrt(1.0 - x * x))),))
atan = unary("atan", paddle.atan, lambda g, y, x: (g * reciprocal(x * x + 1.0),))
asinh = unary("asinh", paddle.asinh, lambda g, y, x: (g * reciprocal(sqrt(x * x + 1.0)),))
acosh = unary("acosh", paddle.acosh, lambda g, y, x: (g * reciprocal(sqrt(x * x - 1.0)),))
atanh = unary("atanh", paddle.atanh, lambda g, y, x: (g * reciprocal(1.0 - x * x),))
sigmoid = unary(
    "sigmoid", paddle.nn.functional.sigmoid, lambda g, y, x: (g * y * (1.0 - y),)
)
erf = unary(
    "erf", paddle.erf, lambda g, y, x: (g * paddle.exp(-(x * x)) * (2 / math.sqrt(math.pi)),)
)


def _softplus_kernel(x: Any) -> Any:
    # max(x, 0) + log1p(exp(-|x|)): exact everywhere (paddle's softplus has torch's
    # threshold=20, above which it returns x)
    return paddle.maximum(x, paddle.zeros_like(x)) + paddle.log1p(paddle.exp(-paddle.abs(x)))


softplus = unary("softplus", _softplus_kernel, lambda g, y, x: (g * sigmoid(x),))


def _safe_log(a: Any) -> Any:
    """log(a), and 0 where a is 0 (for x**y's derivative in y, 0 there as in torch)."""
    zero = a == 0
    return paddle.where(zero, paddle.zeros_like(a), paddle.log(paddle.where(zero, _one(a), a)))


divide = binary(
    "divide",
    paddle.divide,
    lambda g, a, b: (g * reciprocal(b), -(g * divide(a, b) * reciprocal(b))),
)
pow = binary(
    "pow",
    paddle.pow,
    lambda g, a, b: (g * b * pow(a, b - 1.0), g * pow(a, b) * _safe_log(a)),
)
atan2 = binary(
    "atan2",
    paddle.atan2,
    lambda g, a, b: (
        g * b * reciprocal(a * a + b * b),
        -(g * a * reciprocal(a * a + b * b)),
    ),
)
hypot = binary(
    "hypot",
    paddle.hypot,
    lambda g, a, b: (g * a * reciprocal(hypot(a, b)), g * b * reciprocal(hypot(a, b))),
)
copysign = binary(
    "copysign",
    paddle.copysign,
    lambda g, a, b: (
        g * paddle.where(paddle.signbit(a) == paddle.signbit(b), _one(a), -_one(a)),
        g * 0.0 * b,
    ),
)
remainder = binary(
    "remainder",
    paddle.remainder,
    lambda g, a, b: (g, -(g * paddle.floor_divide(a, b).detach())),
)
logaddexp = binary(
    "logaddexp",
    paddle.logaddexp,
    lambda g, a, b: (g * sigmoid(a - b), g * sigmoid(b - a)),
)


# ---- reductions --------------------------------------------------------------------
def _axes(x: Any, axis: Any) -> list[int]:
    if axis is None:
        return list(range(x.ndim))
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    return sorted(a % x.ndim for a in axes) if x.ndim else []


def _to_end(x: Any, axes: list[int]) -> tuple[Any, list[int]]:
    """``x`` with ``axes`` moved last and flattened into one (and the kept shape)."""
    keep = [d for d in range(x.ndim) if d not in axes]
    xt = paddle.transpose(x, keep + axes) if axes else x
    kept = [x.shape[d] for d in keep]
    n = 1
    for a in axes:
        n *= x.shape[a]
    return paddle.reshape(xt, [*kept, n]), kept


def _keepdims_shape(x: Any, axes: list[int]) -> list[int]:
    return [1 if d in axes else s for d, s in enumerate(x.shape)]


def prod(x: Any, axis: Any, keepdims: bool) -> Any:
    """The product over ``axis`` as a tree of multiplies (differentiable to any order,
    zeros included; paddle's ``prod_grad`` has no gradient)."""
    axes = _axes(x, axis)
    flat, kept = _to_end(x, axes)
    n = flat.shape[-1]
    if n == 0:
        out = paddle.ones(kept, dtype=x.dtype)
    else:
        carry = None  # the odd entries left over at each level (no concat with ones:
        # paddle 3.3.1's concat double grad fails on a constant operand)
        while n > 1:
            if n % 2:
                last = flat[..., n - 1]
                carry = last if carry is None else carry * last
                flat = flat[..., : n - 1]
                n -= 1
            pairs = paddle.reshape(flat, [*kept, n // 2, 2])
            flat = pairs[..., 0] * pairs[..., 1]
            n //= 2
        out = paddle.reshape(flat, kept)
        if carry is not None:
            out = out * paddle.reshape(carry, kept)
    return paddle.reshape(out, _keepdims_shape(x, axes)) if keepdims else out


def logsumexp(x: Any, axis: Any, keepdims: bool) -> Any:
    """log(sum(exp(x - m))) + m with m the (constant) maximum: paddle's logsumexp has no
    second derivative; exp, log and sum have all."""
    axes = _axes(x, axis)
    if not axes or x.size == 0 and not axes:
        return x * 1.0
    m = paddle.max(x.detach(), axis=axes, keepdim=True) if x.size else paddle.zeros(
        _keepdims_shape(x, axes), dtype=x.dtype
    )
    m = paddle.where(paddle.isfinite(m), m, paddle.zeros_like(m))
    out = paddle.log(paddle.sum(paddle.exp(x - m), axis=axes, keepdim=True)) + m
    return out if keepdims else paddle.squeeze(out, axis=axes)


def _extreme_backward(g: Any, y: Any, x: Any, *, axes: list[int], keepdims: bool) -> Any:
    shape = _keepdims_shape(x, axes)
    yk, gk = (y, g) if keepdims else (paddle.reshape(y, shape), paddle.reshape(g, shape))
    mask = (x == yk).astype(x.dtype)  # ties share the gradient evenly, as paddle's kernel
    share = mask / paddle.sum(mask, axis=axes, keepdim=True)
    return (gk * share,)


def reduce_extreme(kernel: Callable[..., Any], x: Any, axis: Any, keepdims: bool) -> Any:
    """``paddle.max``/``paddle.min`` with a derivative of every order (``max_grad`` has
    none): the gradient goes to the extreme entries, shared among ties."""
    axes = _axes(x, axis)
    if not needs(x) or not axes:
        return kernel(x, axis=axes if axes else None, keepdim=keepdims)

    def fwd(ctx: Any, x: Any) -> Any:
        y = kernel(x, axis=axes, keepdim=keepdims)
        ctx.save_for_backward(x, y)
        return y

    def bwd(ctx: Any, g: Any) -> Any:
        x, y = ctx.saved_tensor()
        return _extreme_backward(g, y, x, axes=axes, keepdims=keepdims)[0]

    layer = type(
        "extreme_any_order",
        (paddle.autograd.PyLayer,),
        {"forward": staticmethod(fwd), "backward": staticmethod(bwd)},
    )
    return layer.apply(x)


def cumsum(x: Any, axis: int) -> Any:
    """``paddle.cumsum`` along ``axis`` with a derivative of every order (``cumsum_grad``
    has none): the gradient is the reversed running sum, itself differentiable."""

    def fwd(ctx: Any, x: Any) -> Any:
        return paddle.cumsum(x, axis=axis)

    def bwd(ctx: Any, g: Any) -> Any:
        return paddle.flip(cumsum(paddle.flip(g, [axis]), axis), [axis])

    if not needs(x):
        return paddle.cumsum(x, axis=axis)
    layer = type(
        "cumsum_any_order",
        (paddle.autograd.PyLayer,),
        {"forward": staticmethod(fwd), "backward": staticmethod(bwd)},
    )
    return layer.apply(x)


# ---- einsum ------------------------------------------------------------------------
def _parse(subscripts: str, operands: tuple[Any, ...]) -> tuple[list[str], str] | None:
    """Explicit letter subscripts (ellipses spelled out when every operand's ellipsis
    dimensions have one shape), or None when an operand repeats a letter or an ellipsis
    broadcasts: those keep paddle's einsum (first order only)."""
    s = subscripts.replace(" ", "")
    lhs, arrow, rhs = s.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(operands):
        return None
    used = set(s) - {".", ",", "-", ">"}
    spare = [ch for ch in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if ch not in used]
    ell_shape: list[int] | None = None
    out_ins = []
    for sub, op in zip(ins, operands, strict=True):
        if "..." in sub:
            k = op.ndim - (len(sub) - 3)
            i0 = sub.index("...")
            shape = list(op.shape[i0 : i0 + k])
            if ell_shape is None:
                ell_shape = shape
            elif shape != ell_shape:
                return None
            sub = sub.replace("...", "".join(spare[:k]))
        if len(set(sub)) != len(sub):
            return None
        out_ins.append(sub)
    ell = "".join(spare[: len(ell_shape)]) if ell_shape is not None else ""
    if arrow:
        out = rhs.replace("...", ell)
    else:
        letters = "".join(out_ins)
        single = sorted(ch for ch in set(letters) if letters.count(ch) == 1 and ch not in ell)
        out = ell + "".join(single)
    return out_ins, out


def einsum(subscripts: str, *operands: Any) -> Any:
    """``paddle.einsum`` with a derivative of every order (``einsum_grad`` has none): the
    gradient of each operand is again an einsum, of the output's gradient and the other
    operands."""
    parsed = _parse(subscripts, operands) if needs(*operands) else None
    if parsed is None:
        return paddle.einsum(subscripts, *operands)
    ins, out = parsed
    spec = ",".join(ins) + "->" + out
    n = len(operands)

    def partial(i: int) -> Callable[..., Any]:
        others = [j for j in range(n) if j != i]
        have = set(out).union(*(set(ins[j]) for j in others))
        target = "".join(ch for ch in ins[i] if ch in have)
        sub = ",".join([out, *(ins[j] for j in others)]) + "->" + target

        def backward(g: Any, *xs: Any) -> Any:
            gi = einsum(sub, g, *(xs[j] for j in others))
            if target != ins[i]:  # letters summed in operand i alone: broadcast back
                shape = [xs[i].shape[k] if ch in have else 1 for k, ch in enumerate(ins[i])]
                gi = paddle.expand(paddle.reshape(gi, shape), xs[i].shape)
            return gi

        return backward

    layers = [_partial("einsum", i, partial(i)) for i in range(n)]
    with paddle.no_grad():
        y = paddle.einsum(spec, *operands)
    return _with_partials(y, tuple(operands), layers)
