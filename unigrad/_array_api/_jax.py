"""The jax tape's primitive namespace: ``jax.numpy``, which implements the standard.

``jax.numpy`` is an array API namespace of its own (and ``jax.vjp`` differentiates all of
it), so this is ``jax.numpy`` itself, save the rules where it departs from the standard:
``finfo``/``iinfo`` (NumPy's objects, whose limits are NumPy scalars, not Python numbers)
``searchsorted`` (int32 indices even where the namespace's indexing dtype is int64) and
``sign`` (``sign(-0.0)`` is -0.0 in jax, +0 in the standard), ``linalg.svd`` (jax has
no derivative of ``full_matrices=True``: ``_common.svd_via_reduced``) and ``pow``/``power``
(jax 0.10.2's rule ``y * x**(y - 1)`` is ``0 * inf = nan`` at ``x = 0, y = 0``, where torch,
paddle and HIPS autograd give 0: ``_pow``), ``linalg.matrix_norm`` of matrices with no row
or no column (``_common.empty_matrix_norm``: jax raises for the ords NumPy answers, 2
included), ``take`` of no index (jax's is a constant zero array, with no dependence on
``x``: ``lax.gather`` keeps it, rule 14) and ``where`` of an empty result (jax's is
``x1``, with no dependence on ``x2``: ``lax.select`` keeps it), ``hypot`` of an empty
result (jax's is a constant, for the same reason) and ``linalg.det`` of a matrix with no
element (jax's derivative raises).
"""

from __future__ import annotations

import functools
import types
from typing import Any

from . import _c99
from . import _common as c
from ._autograd import _Module

__all__ = ["build"]


@functools.cache
def build() -> Any:
    """The namespace (built once)."""
    import jax
    import jax.numpy as jnp

    ns = _Module("unigrad._array_api.jax_tape", jnp)

    def searchsorted(
        x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None
    ) -> Any:  # not differentiable (indices): the default indexing dtype
        out = jnp.searchsorted(x1, x2, side=side, sorter=sorter)
        return out.astype(jnp.__array_namespace_info__().default_dtypes()["indexing"])

    def sign(x: Any, /) -> Any:
        if jnp.iscomplexobj(x):
            # z / |z| (0 at 0): jax 0.10's sign has a zero derivative for complex z too,
            # where torch's sgn has z / |z|'s. Taken of z / max(|Re z|, |Im z|) held
            # constant (sign is homogeneous of degree 0: the derivative is exact, and
            # |z|^2 in it cannot underflow); the value is jnp.sign's (the quotient plus
            # the exactly computed difference, a constant; jnp.sign's where not finite)
            stop = jax.lax.stop_gradient
            zero = x == 0
            v = stop(x)
            m = jnp.where(zero, 1, jnp.maximum(jnp.abs(v.real), jnp.abs(v.imag)))
            safe = jnp.where(zero, jnp.ones((), x.dtype), x / m.astype(v.real.dtype))
            q = jnp.where(zero, jnp.zeros((), x.dtype), safe / jnp.abs(safe))
            value = jnp.sign(v)
            return jnp.where(jnp.isfinite(stop(q)), q + stop(value - q), value)
        return jnp.sign(x) + 0  # -0.0 + 0 is +0.0; values and gradients otherwise jnp's

    def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        indices = jnp.asarray(indices)
        if indices.size != 0 or x.size == 0:
            return jnp.take(x, indices, axis=axis)
        # jax 0.10.2's jnp.take of no index is ``lax.full_like(x, 0)``, a constant: the
        # result (and every gradient through it) lost its dependence on x, which the
        # contract's rule 14 keeps whatever the sizes (torch's index_select keeps it).
        # lax.gather of the zero-size index keeps it (differential seed 7 program 1)
        if axis is None:
            x, axis = jnp.reshape(x, (-1,)), 0
        axis = c.normalize_axis(axis, x.ndim)
        dnums = jax.lax.GatherDimensionNumbers(
            offset_dims=(*range(axis), *range(axis + indices.ndim, x.ndim + indices.ndim - 1)),
            collapsed_slice_dims=(axis,),
            start_index_map=(axis,),
        )
        sizes = (*x.shape[:axis], 1, *x.shape[axis + 1 :])
        return jax.lax.gather(x, indices[..., None], dnums, sizes, mode="clip")

    def where(condition: Any, x1: Any, x2: Any, /) -> Any:
        out = jnp.where(condition, x1, x2)
        if out.size != 0:
            return out
        # jax 0.10.2's ``jnp.where`` of an empty result is ``x1`` broadcast
        # (jax/_src/numpy/util.py ``_where``): ``x2`` reached nothing, where rule 14 and
        # every other backend keep its dependence whatever the sizes (differential seed
        # 9204, program 207). ``lax.select`` of the broadcast operands keeps both.
        c, a, b = jnp.broadcast_arrays(
            jnp.asarray(condition, bool), jnp.asarray(x1, out.dtype), jnp.asarray(x2, out.dtype)
        )
        return jax.lax.select(c, a, b)

    def hypot(x1: Any, x2: Any, /) -> Any:
        out = jnp.hypot(x1, x2)
        if out.size != 0:
            return out
        # jax 0.10.2's jnp.hypot ends in ``_where(isinf, inf, h)``, which of an empty
        # result is the constant broadcast (``where`` above): the result lost its
        # dependence on both legs. sqrt(x1**2 + x2**2) keeps it (empty: no value differs)
        a, b = jnp.asarray(x1, out.dtype), jnp.asarray(x2, out.dtype)
        return jnp.sqrt(a * a + b * b)

    def svd(x: Any, /, *, full_matrices: bool = True) -> Any:
        return c.svd_via_reduced(jnp, jax.lax.stop_gradient, x, full_matrices=full_matrices)

    def complex_special(name: str) -> Any:
        fn = getattr(jnp, name)

        def f(x: Any, /) -> Any:  # XLA's complex kernels miss many: the standard's values
            out = fn(x)
            if not jnp.iscomplexobj(x):
                return out
            if name == "acosh":
                out = c.acosh_branch_gradient(jnp, jax.lax.stop_gradient, x, out)
            v = jax.lax.stop_gradient(x)
            mask, re, im = _c99.special(jnp, name, jnp.real(v), jnp.imag(v))
            return _c99.pin(jnp, mask, jax.lax.complex(re, im), out, jax.lax.stop_gradient)

        f.__name__ = f.__qualname__ = name
        return f

    for name in _c99.FUNCTIONS:
        setattr(ns, name, complex_special(name))

    def zero_at_zero(norm: Any, x: Any, **kw: Any) -> Any:
        # jax 0.10's 2-norm and Frobenius norm have a NaN gradient at the zero vector
        # (sqrt's derivative at 0 times 0); torch's subgradient there is 0, as
        # `_common.sqrt_at_zero_zero` gives the other backends: the norm of ones where
        # the whole vector is zero, then 0 there (the same values)
        stop = jax.lax.stop_gradient
        zero = norm(stop(x), keepdims=True, **kw) == 0
        safe = jnp.where(zero, jnp.ones((), x.dtype), x)
        out = norm(safe, keepdims=True, **kw)
        out = jnp.where(zero, jnp.zeros((), out.dtype), out)
        return out

    def vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:
        if ord != 2 or x.size == 0:
            return jnp.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)
        out = zero_at_zero(jnp.linalg.vector_norm, x, axis=axis)
        if keepdims:
            return out
        return jnp.reshape(out, jnp.linalg.vector_norm(x, axis=axis).shape)

    def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
        if x.ndim >= 2 and (x.shape[-2] == 0 or x.shape[-1] == 0):
            return c.empty_matrix_norm(jnp, x, keepdims=keepdims, ord=ord)
        if ord != "fro":
            return jnp.linalg.matrix_norm(x, keepdims=keepdims, ord=ord)
        out = zero_at_zero(jnp.linalg.matrix_norm, x, ord=ord)
        return out if keepdims else out[..., 0, 0]

    def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:
        """The standard's ``clip``: the result keeps ``x``'s dtype (jax 0.10's
        ``jnp.clip`` promotes ``x`` to its bounds' wider dtype); a bound of another
        dtype is cast to ``x``'s, so its gradient comes back in its own dtype."""

        def same(b: Any) -> Any:
            return b.astype(x.dtype) if hasattr(b, "dtype") and b.dtype != x.dtype else b

        return jnp.clip(x, same(min), same(max))

    def eigh(x: Any, /) -> Any:
        """LAPACK's eigendecomposition of the lower triangle, as torch, paddle and numpy
        give it (docs/semantics.md, "eigh of a matrix that is not Hermitian"): jax 0.10
        symmetrizes its input, ``(x + x^H) / 2`` (other values), and with
        ``symmetrize_input=False`` differentiates at the symmetrized input (measured: a
        gradient that is not the values' one). The input is
        `_common.hermitian_lower_input`'s (the same values bit for bit)."""
        if x.ndim < 2:
            return jnp.linalg.eigh(x)  # (jax's own error)
        x = c.hermitian_lower_input(
            x,
            stop=jax.lax.stop_gradient,
            adjoint=lambda a: jnp.conj(jnp.swapaxes(a, -1, -2)),
            lower_parts=lambda a: (jnp.tril(a), jnp.tril(a, -1)),
        )
        return jnp.linalg.eigh(x, symmetrize_input=False)

    def eigvalsh(x: Any, /) -> Any:
        return eigh(x).eigenvalues

    def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        """The product; in a float or complex dtype, `_common.prod_by_multiplies` (a
        tree of multiplies): jax 0.10's ``reduce_prod`` derivative is a tree that pads
        an odd level with ones (a tensor of products and single factors), so the n-th
        derivative of a product of n factors kept a spurious dependence for n not a
        power of 2 (dependence is read from the jaxpr, tensor by tensor)."""
        x = jnp.asarray(x)
        if dtype is not None and jnp.issubdtype(dtype, jnp.inexact):
            x = x.astype(dtype)
        if (dtype is None or x.dtype == dtype) and jnp.issubdtype(x.dtype, jnp.inexact):
            return c.prod_by_multiplies(jnp, x, axis=axis, keepdims=keepdims)
        return jnp.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)

    def cumprod(x: Any, axis: int, dtype: Any = None) -> Any:
        if dtype is not None:
            x = x.astype(dtype)
        if jnp.issubdtype(x.dtype, jnp.inexact) and 1 < x.shape[axis] <= c.RUNNING_PRODUCTS_MAX:
            return c.running_products(jnp, x, axis)
        return jnp.cumprod(x, axis=axis)

    def cumulative_prod(
        x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
    ) -> Any:
        """The cumulative products; in a float or complex dtype over an axis of at most
        `_common.RUNNING_PRODUCTS_MAX` elements, `_common.running_products`: jax 0.10's
        ``cumprod`` derivative reads its input at every order (a spurious dependence at
        order k + 1 of the k-th product; exact to the 8th order beyond)."""
        prims = types.SimpleNamespace(
            stack=jnp.stack, full=jnp.full, concatenate=jnp.concatenate, cumprod=cumprod
        )
        x = jnp.asarray(x)
        return c.cumulative_prod(prims, x, axis=axis, dtype=dtype, include_initial=include_initial)

    def det(x: Any, /) -> Any:
        """``jnp.linalg.det``; of a matrix with no element, 1 plus ``sum(x * x)`` (zeros,
        so that the result stays on a node of ``x`` with a derivative that depends on
        ``x``, rule 14): jax 0.10.2's derivative of ``det`` indexes the LU pivots of an
        empty matrix (a raw ``IndexError``, natively too)."""
        if x.ndim >= 2 and x.shape[-1] == 0:
            return 1 + jnp.sum(x * x, axis=(-2, -1))
        return jnp.linalg.det(x)

    linalg = _Module("unigrad._array_api.jax_tape.linalg", jnp.linalg)
    vars(linalg).update(
        det=det,
        svd=svd,
        matrix_norm=matrix_norm,
        vector_norm=vector_norm,
        eigh=eigh,
        eigvalsh=eigvalsh,
    )
    fft = _Module("unigrad._array_api.jax_tape.fft", jnp.fft)
    vars(fft).update({name: _row_major(getattr(jnp.fft, name)) for name in _TRANSFORMS})
    pow_ = _pow()
    vars(ns).update(
        linalg=linalg,
        fft=fft,
        sign=sign,
        clip=clip,
        pow=pow_,
        power=pow_,
        finfo=c.bind(c.finfo, jnp, "finfo"),
        iinfo=c.bind(c.iinfo, jnp, "iinfo"),
        searchsorted=searchsorted,
        take=take,
        where=where,
        hypot=hypot,
        prod=prod,
        cumulative_prod=cumulative_prod,
        __array_namespace_info__=jnp.__array_namespace_info__,
    )
    vars(ns).update(_extensions())
    return ns


_TRANSFORMS = ("fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft")


def _row_major(fn: Any) -> Any:
    """``fn`` (an FFT of ``jnp.fft``) whose result XLA must lay out row-major.

    jaxlib 0.10.2 on CPU: in a compiled gradient (the tape's create_graph pass) XLA's
    layout assignment may give an FFT a column-major layout where a consumer transposes
    (``pinv(hfft(x))``: ``f32[2,2]{0,1} fft(...)``), and the CPU runtime then fails its own
    check (``RET_CHECK failure (xla/backends/cpu/runtime/fft_thunk.cc:168)
    LayoutUtil::IsMonotonicWithDim0Major``: a raw ``JaxRuntimeError``; differential CI seed
    20261123). A flattening reshape between optimization barriers makes the result's row
    major order observable, so the FFT keeps the default layout; values and derivatives
    are the FFT's."""
    import jax
    import jax.numpy as jnp

    barrier = jax.lax.optimization_barrier

    @functools.wraps(fn)
    def f(*args: Any, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        return barrier(jnp.reshape(barrier(jnp.reshape(out, (-1,))), out.shape))

    return f


def _pow() -> Any:
    """``pow`` whose derivative in the base is 0 where the exponent is 0.

    jax 0.10.2 differentiates ``x**y`` in ``x`` as ``y * x**(y - 1)``, which is
    ``0 * inf = nan`` at ``x = 0, y = 0`` (also for a float exponent 0.0, and for the
    second derivative of ``x**1`` at 0); torch, paddle and HIPS autograd give 0 there. This
    ``custom_jvp`` writes the base's derivative as ``where(x == 0 & y == 0, 0,
    y * x**(y - 1))`` with a safe exponent in the branch not taken, recursively through
    itself, so every order is 0 where the factor in front is 0 and exact elsewhere (the
    mixed derivative at ``y = 0, x != 0`` is ``1 / x``). The exponent's derivative is
    jax's own ``x**y * log(x)`` with ``log(1)`` where ``x = 0``. Integer bases and integer
    exponents (``lax.integer_pow`` for a Python int, no derivative for an integer array)
    keep ``jnp.power``.
    """
    import jax
    import jax.numpy as jnp

    @jax.custom_jvp  # type: ignore[untyped-decorator]
    def real_pow(x: Any, y: Any) -> Any:
        return jnp.power(x, y)

    @real_pow.defjvp  # type: ignore[untyped-decorator]
    def _jvp(primals: Any, tangents: Any) -> Any:
        x, y = primals
        dx, dy = tangents
        out = real_pow(x, y)
        # masked where x = 0 and y = 0 only: at y = 0 and x != 0 the derivative's own
        # derivative in y is x**-1, not 0 (a mask on y == 0 alone gave 0 there)
        both = (y == 0) & (x == 0)
        ysafe = jnp.where(both, jnp.ones_like(y), y)
        dfdx = jnp.where(both, jnp.zeros_like(out), y * real_pow(x, ysafe - 1))
        dfdy = out * jnp.log(jnp.where(x == 0, jnp.ones_like(x), x))
        return out, (dfdx * dx + dfdy * dy).astype(out.dtype)

    def pow(x1: Any, x2: Any, /) -> Any:
        ints = [
            isinstance(v, (bool, int)) or jnp.issubdtype(jnp.result_type(v), jnp.integer)
            for v in (x1, x2)
        ]
        if ints[0] or ints[1] or jnp.result_type(x1, x2) == jnp.bool_:
            return jnp.power(x1, x2)
        return real_pow(x1, x2)

    return pow


def _extensions() -> dict[str, Any]:
    """unigrad's extension set (``_portable.EXTENSIONS``): ``jax.nn``'s and
    ``jax.scipy.special``'s functions under the standard's signature style."""
    import jax
    import jax.numpy as jnp
    import jax.scipy.special as jsp

    def einsum(subscripts: str, /, *operands: Any) -> Any:
        return jnp.einsum(subscripts, *operands)

    def logsumexp(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        if jnp.ndim(x) == 0 or axis == ():  # nothing is reduced: the array (a constant
            return jnp.copy(x)  # derivative, as on the other backends)
        return jsp.logsumexp(x, axis=axis, keepdims=keepdims)

    def sigmoid(x: Any, /) -> Any:
        return jax.nn.sigmoid(x)

    def softplus(x: Any, /) -> Any:
        return jax.nn.softplus(x)

    def relu(x: Any, /) -> Any:
        return jax.nn.relu(x)

    def erf(x: Any, /) -> Any:
        return jsp.erf(x)

    def softmax(x: Any, /, *, axis: int = -1) -> Any:
        return jax.nn.softmax(x, axis=axis)

    def log_softmax(x: Any, /, *, axis: int = -1) -> Any:
        return jax.nn.log_softmax(x, axis=axis)

    return {
        f.__name__: f
        for f in (einsum, logsumexp, sigmoid, softplus, relu, erf, softmax, log_softmax)
    }
