"""torch's portable namespace: array-api-compat's, with unigrad's corrections and extension set.

``array_api_compat.torch`` implements the standard over torch; unigrad exposes it through
`unigrad._array_api._portable.Portable`, which hides the rest of torch it re-exports,
and adds the extension set (``EXTENSIONS``) with the signatures of docs/namespace.md.

The corrections make results obey the contract where torch's own function does not:

* ``positive``, and ``conj`` and ``real`` of a real tensor, return a new tensor: torch's
  return their argument itself, so ``xp.conj(y)`` could not be told apart from ``y`` (a
  ``no_grad_vars`` cut or an input on it would be ``y``).
* ``floor_divide`` is piecewise constant: its derivative is zero wherever it exists, and
  its result carries no history (rule 14); torch 2.x records a node whose backward raises
  "derivative for aten::floor_divide is not implemented" (pytorch/pytorch#43327).
* ``clip`` keeps ``x``'s dtype with bounds of another dtype, as the standard says:
  torch 2.13's ``clamp`` promotes a float32 ``x`` to float64 bounds' dtype.
* ``prod`` of a tensor that requires grad is a tree of multiplies, and
  ``cumulative_prod`` of one over at most 8 elements running products: torch 2.13's
  ``prod_backward`` and ``cumprod_backward`` read their input at every order, so the
  n-th derivative of a product of n factors kept a spurious dependence (a product of
  one factor's derivative, the constant 1, was ``prod / x``).
* ``remainder`` of a Python number by a tensor takes the number as a tensor: torch 2.13's
  ``remainder(Scalar, Tensor)`` has no derivative ("derivative for aten::remainder is
  not implemented").
* ``nextafter`` steps to the adjacent float, piecewise constant: its result carries no
  history (rule 14), as on paddle (torch 2.13's ``NextafterBackward0`` passes the
  gradient to ``x1`` unchanged).
* ``copysign(x1, x2)`` reads only ``x2``'s sign, so ``x2`` is no dependence (rule 14): it
  enters detached (torch records a zero derivative for it, which makes it "used"), and
  the derivative in ``x1`` (+1 or -1) is a constant.
* ``linalg.det`` of a tensor that requires grad differentiates as the cofactor matrix
  at every matrix: torch 2.13's first derivative (without ``create_graph``) is zero at a
  matrix whose determinant is exactly zero (pytorch/pytorch#104675), where the cofactor
  matrix is not (a rank n - 1 matrix).
* ``pow`` of two tensors, one of which requires grad, differentiates as ``y x**(y - 1)``
  (0 where ``x == 0`` and ``y == 0``) and ``x**y log(x)`` (0 where ``x == 0`` and
  ``y >= 0``) with exponents and bases that keep every masked branch finite, so the
  derivatives of those derivatives are finite too: torch 2.13's ``pow_backward`` masks
  ``y x**(y - 1)`` with ``where(y == 0, 0, ...)``, whose masked branch's own derivative
  is ``0 * inf = nan`` at ``x = 0, y = 0`` (the second derivative there is 0;
  pytorch/pytorch#95180, and #89757 for the higher derivatives of a tensor-exponent pow
  at zero).
* the ``fft`` transforms of an empty array (a batch of no transforms, or a padded
  empty transform) give the empty (or zero) result of the right shape and dtype, as
  NumPy does: torch 2.13's MKL backend raises ``RuntimeError: MKL FFT error: Intel
  oneMKL DFTI ERROR: Inconsistent configuration parameters`` for a transform along a
  non-empty axis of an array with an empty other axis
  (test_fft_of_an_array_with_an_empty_axis in test_divergences_2026.py). A
  zero-length transform without ``n`` keeps torch's own error, as NumPy raises.
"""

from __future__ import annotations

import functools
import types
from typing import Any

from . import _common as c
from ._portable import FFT, LINALG, Portable, portable

#: The transforms of ``xp.fft`` (the others make frequencies or shift)
_TRANSFORMS = ("fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft")

__all__ = ["build"]


@functools.cache
def build() -> Portable:
    """The namespace (built once)."""
    import array_api_compat.torch as xp
    import torch

    def _detached(x: Any) -> Any:
        return x.detach() if isinstance(x, torch.Tensor) else x

    def _dims(x: Any, axis: Any) -> tuple[int, ...]:
        if axis is None:
            return tuple(range(x.ndim))
        return tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)

    def positive(x: Any, /) -> Any:
        """``+x`` as a new tensor (torch's ``positive`` returns ``x`` itself)."""
        return torch.clone(xp.positive(x))

    def conj(x: Any, /) -> Any:
        """The conjugate; of a real tensor a new tensor (torch returns ``x`` itself)."""
        return xp.conj(x) if torch.is_complex(x) else torch.clone(x)

    def real(x: Any, /) -> Any:
        """The real part; of a real tensor a new tensor (torch returns ``x`` itself)."""
        return xp.real(x) if torch.is_complex(x) else torch.clone(x)

    def floor_divide(x1: Any, x2: Any, /) -> Any:
        """``floor(x1 / x2)``, with no history: its derivative is zero (rule 14)."""
        return xp.floor_divide(_detached(x1), _detached(x2))

    def remainder(x1: Any, x2: Any, /) -> Any:
        """``x1 - floor(x1 / x2) * x2``; a Python number ``x1`` enters as a tensor of the
        common dtype (torch 2.13's ``remainder(Scalar, Tensor)`` overload has no
        derivative: "derivative for aten::remainder is not implemented")."""
        if not isinstance(x1, torch.Tensor) and isinstance(x2, torch.Tensor):
            x1 = torch.as_tensor(x1, dtype=torch.result_type(x1, x2), device=x2.device)
        return xp.remainder(x1, x2)

    def nextafter(x1: Any, x2: Any, /) -> Any:
        """The adjacent float, with no history: piecewise constant, a cut (rule 14)."""
        return xp.nextafter(_detached(x1), _detached(x2))

    def copysign(x1: Any, x2: Any, /) -> Any:
        """``|x1|`` with ``x2``'s sign; ``x2`` enters detached (rule 14).

        Where ``x1`` requires grad the result is ``x1`` or ``-x1`` picked by a constant
        mask (``torch.where``), so its derivative (+1 or -1) carries no history either:
        torch's own backward of ``copysign`` keeps ``x1`` in the graph of a
        ``create_graph`` gradient that is constant.
        """
        value = xp.copysign(_detached(x1), _detached(x2))
        if not (isinstance(x1, torch.Tensor) and x1.requires_grad):
            return value
        flip = torch.signbit(value) != torch.signbit(x1.detach())
        return torch.where(flip, -x1, x1).to(value.dtype)

    def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:
        """The standard's ``clip``: the result keeps ``x``'s dtype (torch 2.13's ``clamp``
        promotes to a tensor bound's wider dtype); a bound of another dtype enters cast
        to it, so its gradient comes back in its own dtype."""

        def same(b: Any) -> Any:
            return b.to(x.dtype) if isinstance(b, torch.Tensor) and b.dtype != x.dtype else b

        return xp.clip(x, same(min), same(max))

    def _differentiable(x: Any) -> bool:
        return (
            isinstance(x, torch.Tensor)
            and x.requires_grad
            and torch.is_grad_enabled()
            and (x.is_floating_point() or x.is_complex())
        )

    def split_last(t: Any, h: int) -> tuple[Any, Any, Any]:
        # one split (its backward concatenates): a slice's backward fills a zero tensor
        # of the whole size, and those fills made a tree over 64 elements 3x slower
        if t.shape[-1] % 2:
            first, second, odd = torch.split(t, [h, h, 1], dim=-1)
            return first, second, odd
        first, second = torch.split(t, h, dim=-1)
        return first, second, None

    tree = types.SimpleNamespace(
        split_last=split_last,
        reshape=torch.reshape,
        transpose=lambda x, axes: torch.permute(x, tuple(axes)),
        sum=lambda x, axis, keepdims: torch.sum(x, dim=axis, keepdim=keepdims),
        stack=lambda arrays, axis: torch.stack(list(arrays), dim=axis),
        unbind=lambda x, axis: torch.unbind(x, dim=axis),
        full=lambda shape, fill, dtype: torch.full(shape, fill, dtype=dtype),
        concatenate=lambda arrays, axis: torch.cat(list(arrays), dim=axis),
        cumprod=lambda x, axis, dtype=None: cumprod(x, axis, dtype),
    )

    def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        """The product; of a tensor that requires grad (grad mode on), in a float or
        complex dtype, `_common.prod_by_multiplies` (a tree of multiplies): torch 2.13's
        ``prod_backward`` reads the input and the result at every order, so the n-th
        derivative of a product of n factors kept a spurious dependence (and a product
        of one factor's derivative, the constant 1, was ``prod / x``). Otherwise torch's
        kernel."""
        if _differentiable(x) and (dtype is None or dtype.is_floating_point or dtype.is_complex):
            if dtype is not None and dtype != x.dtype:
                x = x.to(dtype)
            return c.prod_by_multiplies(tree, x, axis=axis, keepdims=keepdims)
        return xp.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)

    def cumprod(x: Any, axis: int, dtype: Any = None) -> Any:
        if dtype is not None and dtype != x.dtype:
            x = x.to(dtype)
        if _differentiable(x) and 1 < x.shape[axis] <= c.RUNNING_PRODUCTS_MAX:
            return c.running_products(tree, x, axis)
        return torch.cumprod(x, dim=axis)

    def cumulative_prod(
        x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
    ) -> Any:
        """The cumulative products; of a tensor that requires grad over an axis of at most
        `_common.RUNNING_PRODUCTS_MAX` elements, `_common.running_products`: torch 2.13's
        ``cumprod_backward`` reads its input at every order (a spurious dependence at
        order k + 1 of the k-th product; exact to the 8th order beyond)."""
        return c.cumulative_prod(tree, x, axis=axis, dtype=dtype, include_initial=include_initial)

    def einsum(subscripts: str, /, *operands: Any) -> Any:
        return torch.einsum(subscripts, *operands)

    def logsumexp(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        dims = _dims(x, axis)
        if not dims:  # a 0-d array, or axis=(): nothing is reduced
            return x.clone()
        return torch.logsumexp(x, dim=dims, keepdim=keepdims)

    def sigmoid(x: Any, /) -> Any:
        return torch.sigmoid(x)

    def softplus(x: Any, /) -> Any:
        # not torch.nn.functional.softplus: its threshold=20 returns x above 20, which is
        # off by log1p(exp(-x)) (2e-9 at 20); logaddexp(x, 0) is exact everywhere
        return torch.logaddexp(x, torch.zeros_like(x))

    def relu(x: Any, /) -> Any:
        return torch.relu(x)

    def erf(x: Any, /) -> Any:
        return torch.erf(x)

    def softmax(x: Any, /, *, axis: int = -1) -> Any:
        return torch.softmax(x, dim=axis)

    def log_softmax(x: Any, /, *, axis: int = -1) -> Any:
        return torch.log_softmax(x, dim=axis)

    class _Det(torch.autograd.Function):  # type: ignore[misc]
        """``torch.linalg.det`` whose derivative is the cofactor matrix (conjugated, torch's
        convention for complex), built of this same function, so it differentiates again
        to any order."""

        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            ctx.save_for_backward(a)
            # an undefined gradient stays undefined (torch's default fills zeros, and
            # zeros times the cofactors keep ``a`` in a create_graph result that a
            # no_grad_vars cut made constant: rule 14)
            ctx.set_materialize_grads(False)
            return torch.linalg.det(a)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            if g is None:
                return None
            (a,) = ctx.saved_tensors
            return g[..., None, None] * _cofactors(a).conj()

    def _cofactors(a: Any) -> Any:
        """The cofactor matrix: signed determinants of the minors for matrices up to 4x4
        and for larger ill-conditioned ones (exact at singular matrices), det(a) inv(a)^T
        for larger well-conditioned ones."""
        n = a.shape[-1]
        if n == 0:
            return torch.zeros_like(a)
        if n == 1:
            return torch.ones_like(a)
        if n > 4:
            eps = torch.finfo(a.dtype).eps
            if bool(torch.all(torch.linalg.cond(a.detach()) < eps**-0.5)):
                return _Det.apply(a)[..., None, None] * torch.linalg.inv(a).mT
        keep = torch.tensor([[k for k in range(n) if k != i] for i in range(n)])
        minors = a[..., keep[:, None, :, None], keep[None, :, None, :]]  # (..., n, n, n-1, n-1)
        sign = torch.tensor([[(-1.0) ** (i + j) for j in range(n)] for i in range(n)])
        return _Det.apply(minors) * sign.to(a.dtype)

    def _reduced(g: Any, like: Any) -> Any:
        """``g`` summed to ``like``'s shape (broadcasting), real where ``like`` is."""
        if g.shape != like.shape:
            g = g.sum_to_size(like.shape)
        if g.is_complex() and not like.is_complex():
            g = g.real
        return g

    class _Pow(torch.autograd.Function):  # type: ignore[misc]
        """``torch.pow(x, y)`` of two tensors of one dtype, whose derivatives are built
        of this same function with every masked branch finite, so it differentiates
        again to any order (torch's convention for complex: conjugated derivatives)."""

        @staticmethod
        def forward(ctx: Any, x: Any, y: Any) -> Any:
            ctx.save_for_backward(x, y)
            ctx.set_materialize_grads(False)  # an undefined gradient stays undefined
            return torch.pow(x, y)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            if g is None:
                return None, None
            x, y = ctx.saved_tensors
            gx = gy = None
            if ctx.needs_input_grad[0]:
                # y x**(y - 1), 0 where x == 0 and y == 0 (torch's convention), where the
                # power is taken with exponent 0 instead (0**-1 = inf), so the masked
                # branch's own derivatives are finite
                both = (y == 0) & (x == 0)
                safe = torch.where(both, torch.ones_like(y), y)
                d = torch.where(both, torch.zeros_like(g), y * _Pow.apply(x, safe - 1))
                gx = _reduced(g * d.conj(), x)
            if ctx.needs_input_grad[1]:
                # x**y log(x), 0 where x == 0 and y >= 0 (torch's convention): the
                # logarithm there is of 1, so the masked branch stays finite
                real_y = torch.real(y) if y.is_complex() else y
                nonneg = real_y >= 0
                if y.is_complex():
                    nonneg = nonneg & (torch.imag(y) == 0)
                at_zero = (x == 0) & nonneg
                safe = torch.where(at_zero, torch.ones_like(x), x)
                d = torch.where(at_zero, torch.zeros_like(g), _Pow.apply(x, y) * torch.log(safe))
                gy = _reduced(g * d.conj(), y)
            return gx, gy

    def pow(x1: Any, x2: Any, /) -> Any:
        """``x1 ** x2``; of two float tensors one of which requires grad, with derivatives
        that are finite to any order at a zero base (`_Pow`)."""
        if (
            isinstance(x1, torch.Tensor)
            and isinstance(x2, torch.Tensor)
            and (x1.requires_grad or x2.requires_grad)
        ):
            dtype = xp.result_type(x1, x2)
            if dtype.is_floating_point or dtype.is_complex:
                return _Pow.apply(x1.to(dtype), x2.to(dtype))
        return xp.pow(x1, x2)

    def meshgrid(*arrays: Any, indexing: str = "xy") -> list[Any]:
        """The grids; of arrays of several dtypes, each grid in its own array's dtype, as
        NumPy's (torch 2.13's ``meshgrid`` raises ``RuntimeError: meshgrid expects all
        tensors to have the same dtype``; test_meshgrid_of_two_dtypes in
        test_divergences_2026.py)."""
        if len({a.dtype for a in arrays}) > 1:
            return c.meshgrid(xp, *arrays, indexing=indexing)
        return list(xp.meshgrid(*arrays, indexing=indexing))

    def det(x: Any, /) -> Any:
        """The determinant; its derivative is the cofactor matrix at every matrix."""
        if isinstance(x, torch.Tensor) and x.requires_grad:
            return _Det.apply(x)
        return xp.linalg.det(x)

    def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
        """The matrix norm; of matrices with no row or no column, NumPy's answer
        (`_common.empty_matrix_norm`): torch 2.13 gives 0 for -1 or -inf where NumPy
        does, but raises its IndexError for the others and gives 0 without history for 2."""
        if x.ndim >= 2 and (x.shape[-2] == 0 or x.shape[-1] == 0):
            return c.empty_matrix_norm(xp, x, keepdims=keepdims, ord=ord)
        return xp.linalg.matrix_norm(x, keepdims=keepdims, ord=ord)

    linalg = Portable(
        xp.linalg,
        names=LINALG,
        overrides={"det": det, "matrix_norm": matrix_norm},
        label="linalg",
    )

    def _empty_safe(transform: Any) -> Any:
        """``transform``, which of an empty array gives its result's shape and dtype
        (found on the meta device) filled with zeros, depending on the array."""

        @functools.wraps(transform)
        def f(x: Any, /, *args: Any, **kwargs: Any) -> Any:
            if not (isinstance(x, torch.Tensor) and x.numel() == 0):
                return transform(x, *args, **kwargs)
            meta = transform(torch.empty(x.shape, dtype=x.dtype, device="meta"), *args, **kwargs)
            out = torch.zeros(meta.shape, dtype=meta.dtype, device=x.device)
            if not x.requires_grad:
                return out
            s = torch.sum(x)  # zero, so that the result depends on x (its gradient: empty)
            return out + (torch.real(s) if s.is_complex() and not out.is_complex() else s)

        return f

    fft = Portable(
        xp.fft,
        names=FFT,
        overrides={name: _empty_safe(getattr(xp.fft, name)) for name in _TRANSFORMS},
        label="fft",
    )

    overrides = {
        "linalg": linalg,
        "fft": fft,
        **{
            f.__name__: f
            for f in (
                positive,
                conj,
                real,
                floor_divide,
                remainder,
                copysign,
                nextafter,
                clip,
                meshgrid,
                pow,
                prod,
                cumulative_prod,
                einsum,
                logsumexp,
                sigmoid,
                softplus,
                relu,
                erf,
                softmax,
                log_softmax,
            )
        },
    }
    return portable(xp, overrides)
