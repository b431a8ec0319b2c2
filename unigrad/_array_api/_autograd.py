"""The numpy tape's primitive namespace: NumPy's array API, differentiable by autograd.

NumPy 2 implements the standard in its main namespace; ``autograd.numpy`` wraps every
NumPy function, but only some have derivative rules, and some of NumPy's signatures are
not the standard's (``sort`` has no ``descending``, ``fft.fftfreq`` no ``device``). This
module is ``autograd.numpy`` with those names replaced by the common rules
(``unigrad._array_api._common``) over differentiable primitives. The recording namespace
(``unigrad.namespace(t)``) wraps it, so every function records on tape tensors.
"""

from __future__ import annotations

import functools
import types
from typing import Any

from . import _c99
from . import _common as c
from ._autograd_linalg import cholesky as _cholesky
from ._autograd_linalg import det as _det
from ._autograd_linalg import qr as _qr
from ._autograd_linalg import svdvals as _svdvals
from ._autograd_pow import pow_ as _pow
from ._autograd_repeats import repeat as _repeat
from ._autograd_repeats import tile as _tile

__all__ = ["build"]

_MAIN = (
    "argsort",
    "broadcast_arrays",
    "clip",
    "concat",
    "cumulative_prod",
    "cumulative_sum",
    "flip",
    "matrix_transpose",
    "meshgrid",
    "sort",
    "std",
    "take",
    "unstack",
    "var",
    "vecdot",
)
_LINALG = (
    "cross",
    "diagonal",
    "matrix_norm",
    "matrix_power",
    "matrix_transpose",
    "outer",
    "svdvals",
    "trace",
    "vecdot",
    "vector_norm",
)
_FFT = ("hfft", "ihfft")
_DTYPES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
)


class _Module(types.ModuleType):
    """A module whose missing attributes come from ``fallback`` (autograd's module)."""

    def __init__(self, name: str, fallback: Any) -> None:
        super().__init__(name)
        self._fallback = fallback

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._fallback, name)

    def __dir__(self) -> list[str]:
        return sorted(set(dir(self._fallback)) | set(self.__dict__))


def _freq(fn: Any, name: str) -> Any:
    def freq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
        if device not in (None, "cpu"):
            msg = (
                f'numpy arrays live on the CPU only: expected device "cpu" or None, got {device!r}'
            )
            raise ValueError(msg)
        out = fn(n, d)
        return out if dtype is None else out.astype(dtype)

    freq.__name__ = freq.__qualname__ = name
    return freq


class _Prims:
    """``autograd.numpy`` where its derivative rules fall short of what ``_common`` uses."""

    def __init__(self, anp: Any) -> None:
        self._anp = anp

    def __getattr__(self, name: str) -> Any:
        return getattr(self._anp, name)

    @property
    def fft(self) -> Any:
        return _RealFFT(self._anp)

    def sort(self, x: Any, axis: int = -1, kind: Any = None) -> Any:
        # autograd differentiates sort of 1-d arrays only: gather with argsort instead
        # (the permutation from the plain value: autograd's argsort of a box nested in a
        # create_graph replay is a box too, and the gather's index arithmetic fails on it)
        import numpy as np
        from autograd.tracer import getval

        anp = self._anp
        idx = np.argsort(getval(x), axis=axis, kind=kind)
        return _gather(anp, x, idx, axis)

    def broadcast_to(self, x: Any, shape: Any) -> Any:
        return _broadcast_to(self._anp, x, shape)

    def where(self, condition: Any, x1: Any, x2: Any, /) -> Any:
        # (``clip``'s bounds: a scalar bound's gradient was left unreduced, a raw
        # ``ValueError`` in the accumulation of ``x[0]``'s gradient)
        return _where(self._anp, condition, x1, x2)

    def cumsum(self, x: Any, axis: int, dtype: Any = None) -> Any:
        anp = self._anp  # autograd's cumsum rule takes no dtype: cast first
        return anp.cumsum(x if dtype is None else x.astype(dtype), axis=axis)

    def cumprod(self, x: Any, axis: int, dtype: Any = None) -> Any:
        # autograd has no cumprod rule: `_common.running_products` at every length (one
        # multiply each, NumPy's order, so the same values), which autograd differentiates
        if dtype is not None:
            x = x.astype(dtype)
        return c.running_products(self._anp, x, axis)

    def diagonal(self, x: Any, offset: int = 0, axis1: int = -2, axis2: int = -1) -> Any:
        # autograd's diagonal rule wants offset 0: index the diagonal instead
        import numpy as np

        if (axis1, axis2) != (-2, -1):
            x = self._anp.moveaxis(x, (axis1, axis2), (-2, -1))
        rows, cols = x.shape[-2], x.shape[-1]
        n = max(0, min(rows - max(0, -offset), cols - max(0, offset)))
        i: Any = np.arange(n) + max(0, -offset)
        return x[..., i, i + offset]


def _where(xp: Any, condition: Any, x1: Any, x2: Any, /) -> Any:
    # autograd's where does not unbroadcast its gradients: broadcast the operands first
    shape = xp.broadcast_shapes(xp.shape(condition), xp.shape(x1), xp.shape(x2))

    return xp.where(condition, _expand(xp, x1, shape), _expand(xp, x2, shape))


def _diff(
    anp: Any,
    x: Any,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: Any = None,
    append: Any = None,
) -> Any:
    """NumPy's ``diff``, step by step as NumPy computes it (``a[1:] - a[:-1]``, ``n``
    times: the same values), from slices and subtractions.

    autograd 1.x's own rule (``numpy_vjps.grad_diff``) returns a constant ``zeros`` when
    the difference is empty, so a ``create_graph`` gradient through ``diff`` of a length-1
    axis depended on nothing; the slices' rules keep the dependence (rule 14 follows the
    graph, not the sizes; issue 23)."""
    import numpy as np
    from autograd.tracer import getval

    ndim = anp.ndim(x)
    if n < 0 or ndim == 0 or not -ndim <= axis < ndim:  # NumPy's errors
        return anp.diff(x, n=n, axis=axis, prepend=prepend, append=append)
    if n == 0:
        return x  # as NumPy: before prepend and append
    ax = axis % ndim
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        edge = (*anp.shape(x)[:ax], 1, *anp.shape(x)[ax + 1 :])
        parts = [p if anp.ndim(p) else _broadcast_to(anp, p, edge) for p in parts]
        x = anp.concatenate(parts, axis=axis)
    if np.asarray(getval(x)).dtype == np.bool_:
        return anp.diff(x, n=n, axis=axis)  # NumPy's not_equal
    head = (slice(None),) * ax
    later, earlier = (*head, slice(1, None)), (*head, slice(None, -1))
    for _ in range(n):
        x = x[later] - x[earlier]
    return x


def _gather(anp: Any, x: Any, idx: Any, axis: int) -> Any:
    """``take_along_axis(x, idx, axis)`` as one differentiable flat index."""
    import numpy as np

    if x.ndim == 0 or x.size == 0:
        return x
    xm = anp.moveaxis(x, axis, -1)
    im = np.moveaxis(np.asarray(idx), axis, -1)
    n = xm.shape[-1]
    rows = np.arange(im.size // n if n else 0).reshape((*im.shape[:-1], 1)) * n
    flat = anp.reshape(xm, (-1,))[(rows + im).reshape(-1)] if n else xm
    return anp.moveaxis(anp.reshape(flat, xm.shape), -1, axis)


def _take_along_axis(anp: Any, x: Any, indices: Any, /, *, axis: int = -1) -> Any:
    """The standard's ``take_along_axis`` as one differentiable flat index (autograd has
    no derivative rule for NumPy's)."""
    import numpy as np
    from autograd.tracer import getval

    idx = np.asarray(getval(indices))
    if x.ndim == 0:
        return x
    xm = anp.moveaxis(x, axis, -1)
    im = np.moveaxis(idx, axis, -1)
    n = xm.shape[-1]
    im = np.broadcast_to(im, (*xm.shape[:-1], im.shape[-1])) % max(n, 1)
    rows = np.arange(int(np.prod(im.shape[:-1]))).reshape((*im.shape[:-1], 1)) * n
    flat = anp.reshape(xm, (-1,))[(rows + im).reshape(-1)]
    return anp.moveaxis(anp.reshape(flat, im.shape), -1, axis)


def _complex_special(anp: Any, name: str, fn: Any) -> Any:
    """``fn`` (the namespace's ``<name>``) with the standard's complex special cases
    (``_c99``): NumPy's complex kernels miss some (``expm1``, ``tanh``); NumPy's result
    stays elsewhere."""
    import numpy as np
    from autograd.tracer import getval

    def f(x: Any, /) -> Any:
        out = fn(x)
        v = getval(x)
        if not np.iscomplexobj(v):
            return out
        if name == "acosh":
            out = c.acosh_branch_gradient(anp, getval, x, out)
        v = np.asarray(v)
        with np.errstate(all="ignore"):
            mask, re, im = _c99.special(np, name, v.real, v.imag)
        if not mask.any():
            return out
        value = np.empty(v.shape, v.dtype)
        value.real, value.imag = re, im
        return _c99.pin(anp, mask, value, out, getval)

    f.__name__ = f.__qualname__ = name
    return f


@functools.cache
def _tan_tanh() -> tuple[Any, Any]:
    """``tan`` and ``tanh`` with their derivatives written from the result:
    ``1 + tan(x)^2`` and ``1 - tanh(x)^2``. autograd 1.9.1's ``g / cos(x)**2`` and
    ``g / cosh(x)**2`` overflow to ``inf/inf`` (NaN) for a complex ``x`` far from the
    real axis (tan: large imaginary part; tanh: large real part), where the derivative
    is finite (torch's formulas are these)."""
    import numpy as np
    from autograd.extend import defvjp, primitive

    tan = primitive(np.tan)
    tanh = primitive(np.tanh)
    defvjp(tan, lambda ans, x: lambda g: g * (1 + ans * ans))
    defvjp(tanh, lambda ans, x: lambda g: g * (1 - ans * ans))
    return tan, tanh


@functools.cache
def imag_primitive() -> Any:
    """``imag`` whose derivative keeps NumPy's types: autograd 1.9.1's rule is
    ``-1j * g``, and a Python complex times a NumPy scalar (a 0-d gradient) is a Python
    complex, which the next rule up the chain (``astype``'s ``g.astype``) cannot take
    (differential seed 5054 program 4025: ``imag(astype(det(x), complex128)) * 2``).
    ``g * -1j`` keeps the NumPy scalar."""
    import numpy as np
    from autograd.extend import defvjp, primitive
    from autograd.numpy.numpy_vjps import match_complex

    def raw_imag(x: Any, /) -> Any:
        return np.imag(x)

    raw_imag.__name__ = raw_imag.__qualname__ = "imag"
    imag: Any = primitive(raw_imag)
    defvjp(imag, lambda ans, x: lambda g: match_complex(x, g * -1j))
    return imag


@functools.cache
def astype_primitive() -> Any:
    """``astype`` whose derivative of a cast from real to complex is the real part of
    the gradient: autograd 1.9.1's rule casts the complex gradient to the real dtype,
    which NumPy does with a ``ComplexWarning`` ("discards the imaginary part") on every
    pass through such a cast (``abs(astype(x, complex128) + 0.5j)``). The value is the
    same: the real part."""
    import autograd.numpy as anp
    import numpy as np
    from autograd.extend import defvjp, primitive

    def raw_astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        return np.astype(np.asarray(x), dtype, copy=copy)

    raw_astype.__name__ = raw_astype.__qualname__ = "astype"

    def vjp(ans: Any, x: Any, dtype: Any, **_: Any) -> Any:
        real, source = not np.iscomplexobj(x), np.result_type(x)

        def back(g: Any) -> Any:  # (g may be boxed: a create_graph pass differentiates it)
            if real and anp.iscomplexobj(g):
                g = anp.real(g)
            return astype(g, source)

        return back

    astype: Any = primitive(raw_astype)
    defvjp(astype, vjp)
    return astype


# ---- fft: autograd differentiates real FFTs of even lengths only -----------------
def _axis_slice(ndim: int, axis: int, sl: slice) -> tuple[slice, ...]:
    idx = [slice(None)] * ndim
    idx[axis] = sl
    return tuple(idx)


def _rfft(
    anp: Any, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
) -> Any:
    """The first ``n // 2 + 1`` terms of the full FFT (autograd differentiates that)."""
    size = x.shape[axis] if n is None else n
    out = anp.fft.fft(x, n=n, axis=axis, norm=norm)
    return out[_axis_slice(out.ndim, axis, slice(0, size // 2 + 1))]


def _irfft(
    anp: Any, x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward"
) -> Any:
    """The real part of the inverse FFT of the Hermitian extension of ``x``: NumPy's
    irfft (the imaginary parts of the zero and Nyquist terms drop out, as there)."""
    m = x.shape[axis]
    size = 2 * (m - 1) if n is None else n
    if size < 1:
        msg = f"irfft: invalid number of data points ({size}) specified"
        raise ValueError(msg)
    h = size // 2 + 1
    xm = anp.moveaxis(x, axis, -1)
    if m >= h:
        xm = xm[..., :h]
    else:
        pad = anp.zeros((*xm.shape[:-1], h - m), dtype=xm.dtype)
        xm = anp.concatenate([xm, pad], axis=-1)
    tail = anp.conj(xm[..., 1 : size - h + 1][..., ::-1])
    full = anp.concatenate([xm, tail], axis=-1)
    out = anp.real(anp.fft.ifft(full, n=size, axis=-1, norm=norm))
    return anp.moveaxis(out, -1, axis)


def _nd_axes(x: Any, s: Any, axes: Any) -> tuple[list[Any], list[int]]:
    if axes is None:
        axes = list(range(x.ndim)) if s is None else list(range(x.ndim - len(s), x.ndim))
    axes = [c.normalize_axis(a, x.ndim) for a in axes]
    sizes = [None] * len(axes) if s is None else list(s)
    return sizes, axes


def _rfftn(anp: Any, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    sizes, axes_ = _nd_axes(x, s, axes)
    out = _rfft(anp, x, n=sizes[-1], axis=axes_[-1], norm=norm)
    for n, a in zip(sizes[:-1], axes_[:-1], strict=True):
        out = anp.fft.fft(out, n=n, axis=a, norm=norm)
    return out


def _irfftn(anp: Any, x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    sizes, axes_ = _nd_axes(x, s, axes)
    out = x
    for n, a in zip(sizes[:-1], axes_[:-1], strict=True):
        out = anp.fft.ifft(out, n=n, axis=a, norm=norm)
    return _irfft(anp, out, n=sizes[-1], axis=axes_[-1], norm=norm)


class _RealFFT:
    """``autograd.numpy.fft`` with the real FFTs above (the primitives' ``xp.fft``)."""

    def __init__(self, anp: Any) -> None:
        self._anp = anp

    def __getattr__(self, name: str) -> Any:
        return getattr(self._anp.fft, name)

    def rfft(self, x: Any, n: Any = None, axis: int = -1, norm: str = "backward") -> Any:
        return _rfft(self._anp, x, n=n, axis=axis, norm=norm)

    def irfft(self, x: Any, n: Any = None, axis: int = -1, norm: str = "backward") -> Any:
        return _irfft(self._anp, x, n=n, axis=axis, norm=norm)


def _copysign(xp: Any, x1: Any, x2: Any, /) -> Any:
    # autograd has no copysign rule: x1 or -x1 (-x flips a NaN's sign bit too)
    import numpy as np
    from autograd.tracer import getval

    v1, v2 = getval(x1), getval(x2)
    dtype = np.result_type(v1, v2)
    flip = np.signbit(v1) != np.signbit(v2)
    return _where(xp, flip, -x1, x1).astype(dtype)


def _svd(xp: Any, x: Any, /, *, full_matrices: bool = True) -> Any:
    from autograd.tracer import getval

    return c.svd_via_reduced(xp, getval, x, full_matrices=full_matrices)


def _broadcast_to(xp: Any, x: Any, /, shape: Any) -> Any:
    return _expand(xp, x, tuple(shape))


def _expand(xp: Any, x: Any, shape: tuple[int, ...]) -> Any:
    """``x`` broadcast to ``shape`` with a gradient of ``x``'s shape.

    autograd 1.9.1's broadcast_to VJP keeps the rank ("Can't handle extra leading dims",
    ``numpy_vjps.grad_broadcast_to``): new leading axes go through reshape. It also sums
    only the axes that grow from 1 to more than 1, so a gradient of an axis broadcast from
    1 to 0 keeps length 0 and the reshape back raises NumPy's raw "cannot reshape array of
    size 0": that case adds zeros of ``shape`` instead (an empty result; the sum's VJP
    unbroadcasts every axis of length 1).
    """
    lead = len(shape) - xp.ndim(x)
    if lead > 0:
        x = xp.reshape(x, (1,) * lead + xp.shape(x))
    if any(n == 0 and m == 1 for n, m in zip(shape, xp.shape(x), strict=True)):
        return x + xp.zeros(shape, dtype=x.dtype)
    return xp.broadcast_to(x, shape)


def _positive(xp: Any, x: Any, /) -> Any:
    return x * 1  # autograd has no rule for np.positive; x * 1 keeps -0.0 and the dtype


def _tensordot(xp: Any, x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    return xp.tensordot(x1, x2, axes=axes)


def _mean(xp: Any, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return xp.mean(x, axis=axis, keepdims=keepdims)


def _eigh(anp: Any) -> tuple[Any, Any]:
    """``linalg.eigh`` and ``eigvalsh`` with torch's gradient (docs/semantics.md, "eigh of
    a matrix that is not Hermitian"): the values are LAPACK's of the lower triangle, as
    autograd's; autograd's gradient is the lower-triangle function's own (zero above the
    diagonal, twice the off-diagonal entries below), torch's, paddle's and jax's its
    Hermitian part ``(g + g^H) / 2``. An identity whose derivative takes the Hermitian
    part (linear: differentiable to any order) goes in front."""
    from autograd.extend import defvjp, primitive

    def raw_hermitian_gradient(x: Any) -> Any:
        return x

    hermitian_gradient: Any = primitive(raw_hermitian_gradient)

    def vjp(ans: Any, x: Any) -> Any:
        return lambda g: (g + anp.conj(anp.swapaxes(g, -1, -2))) / 2

    defvjp(hermitian_gradient, vjp)

    def eigh(x: Any, /) -> Any:
        return anp.linalg.eigh(hermitian_gradient(x))

    def eigvalsh(x: Any, /) -> Any:
        return eigh(x)[0]

    return eigh, eigvalsh


def _abs(anp: Any) -> Any:
    """``abs`` whose real derivative is ``sign(x)``: autograd's is ``x / |x|`` (the same
    numbers, 0 at 0), a path to ``x`` that its dependence trace would follow, where the
    derivative is piecewise constant (rule 14: ``sign`` cuts dependence). Complex
    ``abs`` keeps autograd's rule."""
    import numpy as np
    from autograd.extend import defvjp, primitive
    from autograd.numpy.numpy_vjps import np_abs_vjp

    def raw_abs(x: Any, /) -> Any:
        return np.abs(x)

    raw_abs.__name__ = raw_abs.__qualname__ = "abs"
    abs_: Any = primitive(raw_abs)

    def vjp(ans: Any, x: Any) -> Any:
        if np.iscomplexobj(x):
            return np_abs_vjp(ans, x)
        return lambda g: g * anp.sign(x)

    defvjp(abs_, vjp)
    return abs_


def _sign(anp: Any, abs_: Any, x: Any, /) -> Any:
    """``sign``; complex ``sign`` is ``z / |z|`` (0 at 0), which has a derivative (torch's
    ``sgn``): autograd 1.9.1 lists ``sign`` among its functions without one, so a gradient
    through complex ``sign`` was zeros. Real ``sign`` stays autograd's: a cut (rule 14).

    The quotient is taken of ``z / m`` with ``m = max(|Re z|, |Im z|)`` held constant
    (``sign`` is homogeneous of degree 0, so the derivative is exact), so that ``|z|^2``
    in the quotient's derivative cannot underflow. The value is NumPy's ``sign``: the
    quotient plus the (exactly computed, Sterbenz) difference to it, a constant; where
    the quotient is not finite (an infinite part), NumPy's value, a constant."""
    import numpy as np
    from autograd.tracer import getval, isbox

    v = getval(x)
    value = np.sign(v)
    if not isbox(x):
        return value
    if not np.iscomplexobj(v):
        return anp.sign(x)
    zero = v == 0
    real = np.abs(v.real).dtype
    m = np.where(zero, np.ones((), real), np.maximum(np.abs(v.real), np.abs(v.imag)))
    safe = anp.where(zero, np.ones((), v.dtype), x / m)
    q = anp.where(zero, np.zeros((), v.dtype), safe / abs_(safe))
    qv = getval(q)
    with np.errstate(invalid="ignore"):
        return anp.where(np.isfinite(qv), q + (value - qv), value)


def _sign_of(anp: Any, abs_: Any) -> Any:
    def sign(x: Any, /) -> Any:
        return _sign(anp, abs_, x)

    sign.__doc__ = _sign.__doc__
    return sign


def _prod(
    xp: Any, x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False
) -> Any:
    """``prod``; of a floating array, `_common.prod_by_multiplies` (a tree of multiplies,
    exact at every order): autograd 1.7's ``prod`` rule is ``g * ans / x``, NaN at an
    exact zero (torch and jax give the product of the other elements there)."""
    import numpy as np

    if dtype is not None:
        x = x.astype(dtype)
    elif np.dtype(x.dtype).kind in "biu":
        return xp.prod(x, axis=axis, keepdims=keepdims, dtype=dtype)
    if np.dtype(x.dtype).kind not in "fc":
        return xp.prod(x, axis=axis, keepdims=keepdims)
    return c.prod_by_multiplies(xp, x, axis=axis, keepdims=keepdims)


@functools.cache
def build() -> _Module:
    """The namespace (built once): ``autograd.numpy`` with the standard's rules."""
    import autograd.numpy as anp
    import numpy as np

    prims = _Prims(anp)
    abs_ = _abs(anp)
    setattr(prims, "abs", abs_)  # noqa: B010 - the rules of `_common` read it (norms)
    ns = _Module("unigrad._array_api.numpy_tape", anp)
    linalg = _Module("unigrad._array_api.numpy_tape.linalg", anp.linalg)
    fft = _Module("unigrad._array_api.numpy_tape.fft", anp.fft)
    for name in _MAIN:
        setattr(ns, name, c.bind(getattr(c, name), prims, name))
    for name in _LINALG:
        setattr(linalg, name, c.bind(getattr(c, name), prims, name))
    eigh, eigvalsh = _eigh(anp)
    vars(linalg).update(
        eigh=eigh,
        eigvalsh=eigvalsh,
        matmul=anp.matmul,
        tensordot=c.bind(_tensordot, anp, "tensordot"),
        cholesky=c.bind(_cholesky, anp, "cholesky"),
        qr=c.bind(_qr, anp, "qr"),
        det=c.bind(_det, anp, "det"),
        svd=c.bind(_svd, anp, "svd"),
        svdvals=c.bind(_svdvals, anp, "svdvals"),
    )
    for name, fn in (("rfft", _rfft), ("irfft", _irfft), ("rfftn", _rfftn), ("irfftn", _irfftn)):
        setattr(fft, name, c.bind(fn, anp, name))
    for name in _FFT:
        setattr(fft, name, c.bind(getattr(c, name), prims, name))
    # the frequencies are not differentiable (no input array): NumPy's, standard signature
    vars(fft).update(
        fftfreq=_freq(np.fft.fftfreq, "fftfreq"), rfftfreq=_freq(np.fft.rfftfreq, "rfftfreq")
    )
    tan, tanh = _tan_tanh()
    vars(ns).update(
        abs=abs_,
        sign=_sign_of(anp, abs_),
        tan=tan,
        tanh=tanh,
        imag=imag_primitive(),
        astype=astype_primitive(),
        mean=c.bind(_mean, anp, "mean"),
        copysign=c.bind(_copysign, anp, "copysign"),
        positive=c.bind(_positive, anp, "positive"),
        prod=c.bind(_prod, anp, "prod"),
        pow=c.bind(_pow, anp, "pow"),
        power=c.bind(_pow, anp, "power"),
        broadcast_to=c.bind(_broadcast_to, anp, "broadcast_to"),
        diff=c.bind(_diff, anp, "diff"),
        repeat=c.bind(_repeat, anp, "repeat"),
        tile=c.bind(_tile, anp, "tile"),
        where=c.bind(_where, anp, "where"),
        take_along_axis=c.bind(_take_along_axis, anp, "take_along_axis"),
        finfo=c.bind(c.finfo, np, "finfo"),
        iinfo=c.bind(c.iinfo, np, "iinfo"),
        __array_namespace_info__=np.__array_namespace_info__,
    )
    for name in _c99.FUNCTIONS:
        setattr(ns, name, _complex_special(anp, name, getattr(ns, name)))
    for name in _DTYPES:  # NumPy's own: autograd wraps the integer ones in subclasses
        setattr(ns, name, getattr(np, name))
    vars(ns).update(linalg=linalg, fft=fft)
    vars(ns).update(_extensions(anp))
    return ns


def _extensions(anp: Any) -> dict[str, Any]:
    """unigrad's extension set (``_portable.EXTENSIONS``) over autograd, whose rules for
    these (``autograd.scipy.special``'s, ``logaddexp``'s, ``einsum``'s) are written in
    ``autograd.numpy`` and so differentiable to any order."""
    import autograd.scipy.special as sps
    import numpy as np

    def einsum(subscripts: str, /, *operands: Any) -> Any:
        return anp.einsum(subscripts, *operands)

    def logsumexp(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        if anp.ndim(x) == 0 or axis == ():
            return x + 0.0 * x  # nothing is reduced (autograd's rule wants an axis)
        return sps.logsumexp(x, axis=axis, keepdims=keepdims)

    def sigmoid(x: Any, /) -> Any:
        return sps.expit(x)

    def softplus(x: Any, /) -> Any:
        return anp.logaddexp(x, np.zeros((), dtype=anp.result_type(x)))

    def relu(x: Any, /) -> Any:
        return anp.where(x > 0, x, anp.zeros_like(x))

    def erf(x: Any, /) -> Any:
        return sps.erf(x)

    def log_softmax(x: Any, /, *, axis: int = -1) -> Any:
        return x - sps.logsumexp(x, axis=axis, keepdims=True)

    def softmax(x: Any, /, *, axis: int = -1) -> Any:
        return anp.exp(log_softmax(x, axis=axis))

    return {
        f.__name__: f
        for f in (einsum, logsumexp, sigmoid, softplus, relu, erf, softmax, log_softmax)
    }
