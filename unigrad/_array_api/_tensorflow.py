"""The tensorflow tape's primitive namespace: ``tf.experimental.numpy`` and the standard.

``tf.experimental.numpy`` (TensorFlow's NumPy API over ``tf.Tensor``, differentiable by
``tf.GradientTape``) gives most of NumPy's names; this module fills in the standard's
own (``acos``, ``concat``, ``permute_dims``, ``bitwise_*``, ``linalg``, ``fft``, ...) from
TensorFlow ops and the common rules (``_common``). Data types are NumPy's (the tape's
tensors report ``numpy.dtype``). `prims` is the primitive namespace the tape's operators
and ``_common`` read; `build` is the standard namespace the recording namespace wraps.
Nothing here enables ``tnp.experimental_enable_numpy_behavior`` (a process-wide switch
of TensorFlow's own promotion rules): tensors are handled through functions only.
"""

from __future__ import annotations

import builtins
import functools
from typing import Any

from . import _common as c
from ._autograd import _DTYPES, _Module

__all__ = ["build", "prims"]


def _tf() -> Any:
    import tensorflow as tf

    return tf


def _np_dtype(dtype: Any) -> Any:
    import numpy as np

    if dtype is None:
        return None
    return np.dtype(getattr(dtype, "as_numpy_dtype", dtype))


def _dtype(x: Any) -> Any:
    return _np_dtype(x.dtype)


class _Linalg:
    """NumPy-signature linear algebra over ``tf.linalg`` (what ``_common`` reads)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(_tf().linalg, name)

    def svd(self, x: Any, full_matrices: bool = True, compute_uv: bool = True) -> Any:
        tf = _tf()
        if not compute_uv:
            return tf.linalg.svd(x, compute_uv=False)
        s, u, v = tf.linalg.svd(x, full_matrices=full_matrices)
        return c.SVDResult(u, s, tf.linalg.adjoint(v))

    def eigh(self, x: Any) -> Any:
        w, v = _tf().linalg.eigh(x)
        return c.EighResult(w, v)

    def inv(self, x: Any) -> Any:
        return _tf().linalg.inv(x)

    def det(self, x: Any) -> Any:
        return _det()(x)

    def solve(self, a: Any, b: Any) -> Any:
        return _tf().linalg.solve(a, b)


@functools.cache
def _det() -> Any:
    """``tf.linalg.det`` with the cofactor matrix as its derivative, in TensorFlow's
    gradient convention. TensorFlow 2.21's ``MatrixDeterminant`` gradient
    (``grad * det(A) * inv(A^H)``, tensorflow/python/ops/linalg_grad.py) misses the
    conjugate of ``det(A)`` for complex ``A`` (the gradient of ``Re det`` came out wrong)
    and inverts ``A``, an ``InvalidArgumentError`` at a singular matrix where the
    derivative exists. The cofactors are the signed determinants of the minors (exact at
    every matrix, and differentiable again through this same function) for matrices up
    to 4x4 or ill-conditioned ones, ``det(A) inv(A)^T`` for larger well-conditioned
    ones: the numpy tape's rule (``_autograd._det_primitive``)."""
    import numpy as np
    import tensorflow as tf

    def cofactors(a: Any) -> Any:
        n = a.shape[-1]
        if n == 0:
            return tf.zeros_like(a)
        if n == 1:
            return tf.ones_like(a)
        if n > 4 and hasattr(a, "numpy"):
            value = a.numpy()
            eps = np.finfo(value.dtype).eps
            if np.all(np.linalg.cond(value) < 1.0 / np.sqrt(eps)):
                return det(a)[..., None, None] * tf.linalg.matrix_transpose(tf.linalg.inv(a))
        # minor (i, j): rows without i, columns without j, for all (i, j) at once
        keep = np.array([[k for k in range(n) if k != i] for i in range(n)])
        rows = tf.gather(a, keep, axis=-2)  # (..., i, n-1, n)
        minors = tf.gather(rows, keep, axis=-1)  # (..., i, n-1, j, n-1)
        r = len(minors.shape)
        minors = tf.transpose(minors, [*range(r - 4), r - 4, r - 2, r - 3, r - 1])
        sign = np.array([[(-1.0) ** (i + j) for j in range(n)] for i in range(n)])
        return det(minors) * tf.constant(sign, a.dtype)

    @tf.custom_gradient  # type: ignore[untyped-decorator]
    def det(a: Any) -> Any:
        def grad(g: Any) -> Any:  # TensorFlow's convention: conj of the holomorphic VJP
            return g[..., None, None] * tf.math.conj(cofactors(a))

        return tf.linalg.det(a), grad

    return det


def _integer_pow(x: Any, n: int) -> Any:
    """``x ** n`` for a Python integer ``n``, its derivative ``n x ** (n - 1)`` written
    through this same function (jax's ``integer_pow``): ``x ** 0`` is a constant.
    TensorFlow 2.21's ``Pow`` gradient (``grad * y * pow(x, y - 1)``, math_grad.py) keeps
    ``x`` in ``pow(x, 0)``, so ``x ** 2``'s second derivative, the constant 2, came out
    connected to ``x`` (rule 14)."""
    tf = _tf()
    if n == 0:
        return tf.ones_like(x)

    @tf.custom_gradient  # type: ignore[untyped-decorator]
    def f(x: Any) -> Any:
        def grad(g: Any) -> Any:  # TensorFlow's convention: conj of the holomorphic VJP
            return g * tf.math.conj(tf.cast(n, x.dtype) * _integer_pow(x, n - 1))

        return tf.pow(x, tf.cast(n, x.dtype)), grad

    return f(x)


class _FFT:
    """NumPy-signature complex FFTs along one axis over ``tf.signal`` (which transforms
    the innermost axis of complex tensors only and has no ``n`` or ``norm``)."""

    def _one(self, x: Any, n: Any, axis: int, norm: str, inverse: bool) -> Any:
        import math

        import tensorflow as tf
        import tensorflow.experimental.numpy as tnp

        x = tf.convert_to_tensor(x)
        if not x.dtype.is_complex:
            x = tf.cast(x, tf.complex64 if x.dtype in (tf.float32, tf.float16) else tf.complex128)
        xm = tnp.moveaxis(x, axis, -1)
        m = xm.shape[-1]
        if n is not None and n < m:
            xm = xm[..., :n]
        elif n is not None and n > m:
            pad = tf.zeros((*xm.shape[:-1], n - m), xm.dtype)
            xm = tf.concat([xm, pad], axis=-1)
        size = xm.shape[-1]
        out = tf.signal.ifft(xm) if inverse else tf.signal.fft(xm)
        # tf.signal.ifft divides by n (NumPy's "backward"), tf.signal.fft does not
        if norm not in ("backward", "ortho", "forward"):
            msg = f"norm must be 'backward', 'ortho' or 'forward', got {norm!r}"
            raise ValueError(msg)
        scale = {"backward": 1.0, "ortho": math.sqrt(size), "forward": float(size)}[norm]
        if scale != 1.0:
            out = out * tf.constant(scale if inverse else 1 / scale, out.dtype)
        return tnp.moveaxis(out, -1, axis)

    def fft(self, x: Any, n: Any = None, axis: int = -1, norm: str = "backward") -> Any:
        return self._one(x, n, axis, norm, False)

    def ifft(self, x: Any, n: Any = None, axis: int = -1, norm: str = "backward") -> Any:
        return self._one(x, n, axis, norm, True)

    def rfft(self, x: Any, n: Any = None, axis: int = -1, norm: str = "backward") -> Any:
        from ._autograd import _rfft

        return _rfft(prims(), x, n=n, axis=axis, norm=norm)

    def irfft(self, x: Any, n: Any = None, axis: int = -1, norm: str = "backward") -> Any:
        from ._autograd import _irfft

        return _irfft(prims(), x, n=n, axis=axis, norm=norm)


def _cumprod(x: Any, axis: int, dtype: Any = None) -> Any:
    """Running products, one multiply each: TensorFlow's ``Cumprod`` gradient
    (``cumsum(g * out) / x``, tensorflow/python/ops/math_grad.py, 2.21) is NaN at an
    exact zero and misses the conjugate of a complex input."""
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp

    if dtype is not None:
        x = tf.cast(x, _np_dtype(dtype))
    if not (x.dtype.is_floating or x.dtype.is_complex):
        return tnp.cumprod(x, axis=axis)
    xm = tnp.moveaxis(x, axis, 0)
    if xm.shape[0] == 0:
        return x
    outs = [xm[0]]
    for i in range(1, xm.shape[0]):
        outs.append(outs[-1] * xm[i])
    return tnp.moveaxis(tf.stack(outs), 0, axis)


def _cumsum(x: Any, axis: int, dtype: Any = None) -> Any:
    import tensorflow as tf

    if dtype is not None:
        x = tf.cast(x, _np_dtype(dtype))
    elif x.dtype == tf.bool:
        x = tf.cast(x, tf.int64)
    elif x.dtype.is_integer and x.dtype.size < 8:  # NumPy's (the standard's) sum dtype
        x = tf.cast(x, tf.uint64 if x.dtype.is_unsigned else tf.int64)
    if x.dtype.is_unsigned and x.dtype.size == 8:
        # (no CPU Cumsum kernel for uint64 in TensorFlow 2.21: the same bits in int64)
        return tf.bitcast(tf.cumsum(tf.bitcast(x, tf.int64), axis=axis), tf.uint64)
    return tf.cumsum(x, axis=axis)


class _Info:
    """The namespace's ``__array_namespace_info__()``: NumPy's, with this namespace's
    defaults (float32 and complex64, as TensorFlow's; int64 integers and indices)."""

    def __init__(self) -> None:
        import numpy as np

        self._np = np.__array_namespace_info__()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._np, name)

    def default_device(self) -> Any:
        return "cpu"

    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        import numpy as np

        return {
            "real floating": np.dtype(np.float32),
            "complex floating": np.dtype(np.complex64),
            "integral": np.dtype(np.int64),
            "indexing": np.dtype(np.int64),
        }


class _Prims(_Module):
    """``tf.experimental.numpy`` plus the names the tape's operators and ``_common``
    read that it lacks."""


def _getitem(x: Any, idx: Any) -> Any:
    from tensorflow.python.ops.numpy_ops import np_array_ops

    def plain(i: Any) -> Any:
        from ..tape import Tensor

        return i._value if isinstance(i, Tensor) else i

    idx = tuple(plain(i) for i in idx) if isinstance(idx, tuple) else plain(idx)
    one = idx[0] if isinstance(idx, tuple) and len(idx) == 1 else idx
    if getattr(one, "dtype", None) == "bool" and len(getattr(one, "shape", (1,))) == 0:
        # a 0-d mask (NumPy: a new axis of length 1 or 0); TensorFlow refuses it
        new = np_array_ops._getitem(x, None)
        return new if bool(one) else new[:0]
    return np_array_ops._getitem(x, idx)


@functools.cache
def prims() -> Any:
    """The primitive namespace (built once)."""
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp

    p = _Prims("unigrad._array_api.tensorflow_prims", tnp)

    def matrix_transpose(x: Any) -> Any:
        return tnp.swapaxes(x, -1, -2)

    def invert(x: Any) -> Any:
        x = tf.convert_to_tensor(x)
        return tf.logical_not(x) if x.dtype == tf.bool else tf.bitwise.invert(x)

    def left_shift(x1: Any, x2: Any) -> Any:
        x1, x2 = _promote(tnp, x1, x2)
        return tf.bitwise.left_shift(x1, x2)

    def right_shift(x1: Any, x2: Any) -> Any:
        x1, x2 = _promote(tnp, x1, x2)
        return tf.bitwise.right_shift(x1, x2)

    def positive(x: Any) -> Any:
        return tnp.positive(x)

    def broadcast_shapes(*shapes: Any) -> tuple[int, ...]:
        import numpy as np

        return tuple(np.broadcast_shapes(*(tuple(s) for s in shapes)))

    def shape(x: Any) -> tuple[int, ...]:
        return tuple(x.shape)

    def argsort(x: Any, axis: int = -1, kind: Any = None) -> Any:
        x = tf.convert_to_tensor(x)
        if len(x.shape) == 0:
            return tf.zeros((), tf.int64)
        return tf.cast(tf.argsort(x, axis=axis, stable=True), tf.int64)

    def sort(x: Any, axis: int = -1, kind: Any = None) -> Any:
        # a gather by the stable permutation (the permutation from the value: a constant)
        x = tf.convert_to_tensor(x)
        if len(x.shape) == 0:
            return x
        return tnp.take_along_axis(x, argsort(tf.stop_gradient(x), axis), axis)

    def _complex_test(fn: Any, both: Any) -> Any:
        def test(x: Any) -> Any:
            x = tf.convert_to_tensor(x)
            if x.dtype.is_integer or x.dtype == tf.bool:  # (no kernel: the answer)
                filled = fn is tnp.isfinite
                return tf.fill(tf.shape(x), filled)
            if x.dtype.is_complex:
                return both(fn(tf.math.real(x)), fn(tf.math.imag(x)))
            return fn(x)

        return test

    def round_(x: Any, decimals: int = 0) -> Any:
        # tnp.round calls ndarray.astype, which needs TensorFlow's process-wide numpy
        # behaviour (2.21): tf.math.round rounds half to even, as NumPy
        x = tf.convert_to_tensor(x)
        if x.dtype.is_complex:
            return tf.complex(round_(tf.math.real(x), decimals), round_(tf.math.imag(x), decimals))
        if not x.dtype.is_floating:
            return x
        if decimals == 0:
            return tf.math.round(x)
        scale = tf.constant(10.0**decimals, x.dtype)
        return tf.math.round(x * scale) / scale

    @tf.custom_gradient  # type: ignore[untyped-decorator]
    def _real_abs(x: Any) -> Any:
        sign = tf.stop_gradient(tf.sign(x))

        def grad(g: Any) -> Any:
            return g * sign

        return tf.abs(x), grad

    def _unsigned_safe(fn: Any, unsigned: Any) -> Any:
        # TensorFlow 2.21 registers many elementwise kernels for signed types only
        # (InvalidArgumentError "Value for attr 'T' of uint8 is not in the list"):
        # the unsigned answer written out
        def f(x: Any, *args: Any, **kwargs: Any) -> Any:
            x = tf.convert_to_tensor(x)
            if x.dtype.is_unsigned:
                return unsigned(x)
            return fn(x, *args, **kwargs)

        f.__name__ = f.__qualname__ = getattr(fn, "__name__", "f")
        return f

    def _integral_identity(fn: Any) -> Any:
        def f(x: Any) -> Any:  # floor/ceil/trunc of an integer or bool: itself
            x = tf.convert_to_tensor(x)
            return x if (x.dtype.is_integer or x.dtype == tf.bool) else fn(x)

        f.__name__ = f.__qualname__ = getattr(fn, "__name__", "f")
        return f

    def abs_(x: Any) -> Any:
        # real abs differentiated through sign(x) cut from x: TensorFlow's own rule
        # (grad * sign(x), tensorflow/python/ops/math_grad.py) connects the derivative to
        # x through Sign, whose gradient is registered as zeros, and the tape's
        # dependence walk (rule 14: abs's derivative is a constant) would follow it
        x = tf.convert_to_tensor(x)
        if x.dtype.is_unsigned:
            return x
        return _real_abs(x) if x.dtype.is_floating else tf.abs(x)

    def _neg_unsigned(x: Any) -> Any:  # NumPy's wraparound: 0 - x
        return tf.zeros_like(x) - x

    def _sign_unsigned(x: Any) -> Any:
        return tf.cast(x > 0, x.dtype)

    def power(x1: Any, x2: Any) -> Any:
        # no unsigned Pow kernel (TensorFlow 2.21): the same bits in the signed integer of
        # that width (products wrap modulo 2^bits either way)
        d1 = getattr(x1, "dtype", None)
        d2 = getattr(x2, "dtype", None)
        if (
            d1 is not None
            and (tf.as_dtype(d1).is_floating or tf.as_dtype(d1).is_complex)
            and isinstance(x2, (int, float))
            and not isinstance(x2, bool)
            and float(x2).is_integer()
            and builtins.abs(x2) <= 2**31
        ):
            return _integer_pow(tf.convert_to_tensor(x1), int(x2))
        if not any(d is not None and tf.as_dtype(d).is_unsigned for d in (d1, d2)):
            return tnp.power(x1, x2)
        x1, x2 = _promote(tnp, x1, x2)
        if not x1.dtype.is_unsigned:
            return tnp.power(x1, x2)
        signed = {1: tf.int16, 2: tf.int32, 4: tf.int64, 8: tf.int64}[x1.dtype.size]
        out = tnp.power(tf.cast(x1, signed), tf.cast(x2, signed))
        return tf.cast(out, x1.dtype)

    vars(p).update(
        power=power,
        negative=_unsigned_safe(tnp.negative, _neg_unsigned),
        sign=_unsigned_safe(tnp.sign, _sign_unsigned),
        floor=_integral_identity(tnp.floor),
        ceil=_integral_identity(tnp.ceil),
        fix=_integral_identity(tnp.fix),
        abs=abs_,
        absolute=abs_,
        round=round_,
        argsort=argsort,
        sort=sort,
        isnan=_complex_test(tnp.isnan, tf.logical_or),
        isinf=_complex_test(tnp.isinf, tf.logical_or),
        isfinite=_complex_test(tnp.isfinite, tf.logical_and),
        broadcast_shapes=broadcast_shapes,
        shape=shape,
        getitem=_getitem,
        matrix_transpose=matrix_transpose,
        invert=invert,
        left_shift=left_shift,
        right_shift=right_shift,
        positive=positive,
        astype=_astype,
        cumprod=_cumprod,
        cumsum=_cumsum,
        fft=_FFT(),
        linalg=_Linalg(),
    )
    return p


def _astype(x: Any, dtype: Any) -> Any:
    """``tf.cast``; bool to complex through float (TensorFlow 2.21's Cast has no
    bool -> complex kernel)."""
    import tensorflow as tf

    dt = _np_dtype(dtype)
    x = tf.convert_to_tensor(x)
    if x.dtype == tf.bool and dt.kind == "c":
        x = tf.cast(x, tf.float64)
    return tf.cast(x, dt)


def _promote(tnp: Any, x1: Any, x2: Any) -> tuple[Any, Any]:
    """Both operands in their NumPy result type (TensorFlow's binary ops want one)."""
    import numpy as np
    import tensorflow as tf

    def dt(v: Any) -> Any:
        return _dtype(v) if hasattr(v, "dtype") else v

    target = np.result_type(dt(x1), dt(x2))

    def to(v: Any) -> Any:  # (a Python number straight to the target: no float32 step)
        return tf.cast(v, target) if hasattr(v, "dtype") else tf.constant(v, target)

    return to(x1), to(x2)


@functools.cache
def build() -> Any:
    """The standard namespace (built once)."""
    import numpy as np
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp

    p = prims()
    ns = _Module("unigrad._array_api.tensorflow_tape", p)

    def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        return _astype(x, dtype)

    def permute_dims(x: Any, /, axes: Any) -> Any:
        return tf.transpose(x, tuple(axes))

    def bitwise_invert(x: Any, /) -> Any:
        return p.invert(x)

    def bitwise_left_shift(x1: Any, x2: Any, /) -> Any:
        return p.left_shift(x1, x2)

    def bitwise_right_shift(x1: Any, x2: Any, /) -> Any:
        return p.right_shift(x1, x2)

    def trunc(x: Any, /) -> Any:
        return p.fix(x)

    def copysign(x1: Any, x2: Any, /) -> Any:
        x1, x2 = _promote(tnp, x1, x2)
        flip = tf.not_equal(_signbit(x1), _signbit(x2))
        return tf.where(flip, -x1, x1)

    def _signbit(v: Any) -> Any:
        return tnp.signbit(v)

    def hypot(x1: Any, x2: Any, /) -> Any:
        # tnp.hypot adds the squares without promoting them first (TensorFlow 2.21: a
        # float32 and a float64 argument raised InvalidArgumentError in AddV2)
        x1, x2 = _promote(tnp, x1, x2)
        return tnp.hypot(x1, x2)

    def can_cast(from_: Any, to: Any, /) -> bool:
        return bool(np.can_cast(_dtype_or(from_), _np_dtype(to)))

    def _dtype_or(x: Any) -> Any:
        """An array's NumPy dtype, or a dtype (object or scalar type) as NumPy's."""
        if not isinstance(x, type) and hasattr(x, "dtype"):
            return _dtype(x)
        return _np_dtype(x)

    def finfo(type: Any, /) -> Any:
        return c.finfo(np, _dtype_or(type))

    def iinfo(type: Any, /) -> Any:
        return c.iinfo(np, _dtype_or(type))

    def isdtype(dtype: Any, kind: Any) -> bool:
        return bool(np.isdtype(_np_dtype(dtype), kind))

    def result_type(*arrays_and_dtypes: Any) -> Any:
        return np.result_type(*(_dtype(a) if hasattr(a, "dtype") else a for a in arrays_and_dtypes))

    def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        if sorter is not None:
            x1 = tnp.take(x1, sorter)
        x2 = tf.convert_to_tensor(x2)
        shape = tf.shape(x2)
        out = tf.searchsorted(x1, tf.reshape(x2, (-1,)), side=side, out_type=tf.int64)
        return tf.reshape(out, shape)

    def nonzero(x: Any, /) -> Any:
        if len(x.shape) == 0:
            msg = "nonzero of a 0-d array: expected at least one dimension (the standard)"
            raise ValueError(msg)
        return tuple(tf.cast(i, tf.int64) for i in tnp.nonzero(x))

    def _unique(x: Any) -> Any:
        v = np.asarray(x)
        return np.unique(v.reshape(-1), return_index=True, return_inverse=True, return_counts=True)

    def unique_values(x: Any, /) -> Any:
        return tf.constant(_unique(x)[0])

    def unique_counts(x: Any, /) -> Any:
        u, _, _, n = _unique(x)
        return c.UniqueCounts(tf.constant(u), tf.constant(n.astype(np.int64)))

    def unique_inverse(x: Any, /) -> Any:
        u, _, inv, _ = _unique(x)
        inv = inv.reshape(np.shape(x)).astype(np.int64)
        return c.UniqueInverse(tf.constant(u), tf.constant(inv))

    def unique_all(x: Any, /) -> Any:
        u, idx, inv, n = _unique(x)
        return c.UniqueAll(
            tf.constant(u),
            tf.constant(idx.astype(np.int64)),
            tf.constant(inv.reshape(np.shape(x)).astype(np.int64)),
            tf.constant(n.astype(np.int64)),
        )

    def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return tnp.sum(x, axis=axis, dtype=_np_dtype(dtype), keepdims=keepdims)

    def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        """The product; over axes of length 1 alone (of a float or complex ``x``), the
        factor itself: TensorFlow 2.21's ``Prod`` gradient (exclusive cumulative products
        of ``x``) keeps ``x`` in the constant 1 a ``create_graph`` gradient then is."""
        x = tf.convert_to_tensor(x)
        rank = len(x.shape)
        axes = range(rank) if axis is None else (axis,) if isinstance(axis, int) else axis
        dims = tuple(d % builtins.max(rank, 1) for d in axes)
        if (
            (x.dtype.is_floating or x.dtype.is_complex)
            and (dtype is None or _np_dtype(dtype) == _dtype(x))
            and builtins.all(x.shape[d] == 1 for d in dims)
        ):
            return tf.identity(x if keepdims or not dims else tf.squeeze(x, dims))
        return tnp.prod(x, axis=axis, dtype=_np_dtype(dtype), keepdims=keepdims)

    def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return tnp.mean(x, axis=axis, keepdims=keepdims)

    def max(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return tnp.max(x, axis=axis, keepdims=keepdims)

    def min(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return tnp.min(x, axis=axis, keepdims=keepdims)

    def _int_via_int64(fn: Any) -> Any:
        # TensorFlow 2.21 has no CPU MatMul kernel for int8/int16/uint* (NotFoundError):
        # integer products in int64, cast back (NumPy's wraparound)
        def f(x1: Any, x2: Any, **kwargs: Any) -> Any:
            x1, x2 = _promote(tnp, x1, x2)
            if x1.dtype.is_integer and x1.dtype not in (tf.int32, tf.int64):
                out = fn(tf.cast(x1, tf.int64), tf.cast(x2, tf.int64), **kwargs)
                return tf.cast(out, x1.dtype)
            return fn(x1, x2, **kwargs)

        return f

    _matmul = _int_via_int64(tnp.matmul)
    _tensordot = _int_via_int64(tnp.tensordot)

    def matmul(x1: Any, x2: Any, /) -> Any:
        return _matmul(x1, x2)

    def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
        return _tensordot(x1, x2, axes=axes)

    def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        if axis is None:
            if len(x.shape) != 1:
                msg = f"take needs axis for a {len(x.shape)}-d array"
                raise ValueError(msg)
            axis = 0
        return tnp.take(x, indices, axis=axis)

    def take_along_axis(x: Any, indices: Any, /, *, axis: int = -1) -> Any:
        return tnp.take_along_axis(x, indices, axis)

    def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        return tnp.repeat(x, repeats, axis=axis)

    def squeeze(x: Any, /, axis: Any) -> Any:
        return tnp.squeeze(x, axis=axis)

    def expand_dims(x: Any, /, axis: int = 0) -> Any:
        return tnp.expand_dims(x, axis)

    def reshape(x: Any, /, shape: Any, *, copy: bool | None = None) -> Any:
        return tf.reshape(x, tuple(shape))

    def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
        return tnp.roll(x, shift, axis=axis)

    def tile(x: Any, repetitions: Any, /) -> Any:
        reps = tuple(int(r) for r in repetitions)
        nd = len(x.shape)
        if len(reps) < nd:
            reps = (1,) * (nd - len(reps)) + reps
        elif len(reps) > nd:
            x = tf.reshape(x, (1,) * (len(reps) - nd) + tuple(x.shape))
        try:
            return tf.tile(x, reps)
        except tf.errors.OpError:
            # no Tile kernel for this dtype on the CPU (TensorFlow 2.21: uint16 and
            # wider unsigned): the same bits as the signed integer of that width
            signed = {tf.uint16: tf.int16, tf.uint32: tf.int32, tf.uint64: tf.int64}
            if x.dtype not in signed:
                raise
            return tf.bitcast(tf.tile(tf.bitcast(x, signed[x.dtype]), reps), x.dtype)

    def where(condition: Any, x1: Any, x2: Any, /) -> Any:
        return tnp.where(condition, x1, x2)

    def argmax(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        out = tnp.argmax(x, axis=axis)
        if keepdims:
            out = tnp.expand_dims(out, axis if axis is not None else 0)
            if axis is None:
                out = tf.reshape(out, (1,) * len(x.shape))
        return tf.cast(out, tf.int64)

    def argmin(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        out = tnp.argmin(x, axis=axis)
        if keepdims:
            out = tnp.expand_dims(out, axis if axis is not None else 0)
            if axis is None:
                out = tf.reshape(out, (1,) * len(x.shape))
        return tf.cast(out, tf.int64)

    def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return tnp.zeros(shape, dtype=_np_dtype(dtype) or np.float32)

    def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return tnp.ones(shape, dtype=_np_dtype(dtype) or np.float32)

    def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
        return zeros(shape, dtype=dtype)

    def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        if dtype is None:
            dtype = _default_dtype(fill_value)
        return tf.fill(
            tuple(shape) if not isinstance(shape, int) else (shape,),
            tf.cast(fill_value, _np_dtype(dtype)),
        )

    def _default_dtype(v: Any) -> Any:
        if isinstance(v, bool):
            return np.bool_
        if isinstance(v, int):
            return np.int64
        if isinstance(v, complex):
            return np.complex64
        if isinstance(v, float):
            return np.float32
        return _dtype(v)

    def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return tf.zeros(tf.shape(x), _np_dtype(dtype) or _dtype(x))

    def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return tf.ones(tf.shape(x), _np_dtype(dtype) or _dtype(x))

    def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
        return zeros_like(x, dtype=dtype)

    def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
        dt = _np_dtype(dtype) or _dtype(x)
        return tf.fill(tf.shape(x), tf.constant(np.asarray(fill_value, dtype=dt)))

    def eye(
        n_rows: int,
        n_cols: int | None = None,
        /,
        *,
        k: int = 0,
        dtype: Any = None,
        device: Any = None,
    ) -> Any:
        return tf.constant(np.eye(n_rows, n_cols, k=k, dtype=_np_dtype(dtype) or np.float32))

    def arange(
        start: Any,
        /,
        stop: Any = None,
        step: Any = 1,
        *,
        dtype: Any = None,
        device: Any = None,
    ) -> Any:
        out = np.arange(start, stop, step, dtype=_np_dtype(dtype))
        if dtype is None and out.dtype == np.float64:
            out = out.astype(np.float32)
        return tf.constant(out)

    def linspace(
        start: Any,
        stop: Any,
        /,
        num: int,
        *,
        dtype: Any = None,
        device: Any = None,
        endpoint: bool = True,
    ) -> Any:
        default = (
            np.complex64 if isinstance(start, complex) or isinstance(stop, complex) else np.float32
        )
        out = np.linspace(start, stop, num, endpoint=endpoint, dtype=_np_dtype(dtype) or default)
        return tf.constant(out)

    def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Any:
        if isinstance(obj, tf.Tensor):
            return obj if dtype is None else tf.cast(obj, _np_dtype(dtype))
        arr = np.asarray(obj, dtype=_np_dtype(dtype))
        if dtype is None and arr.dtype == np.float64 and not isinstance(obj, np.ndarray):
            arr = arr.astype(np.float32)
        if dtype is None and arr.dtype == np.complex128 and not isinstance(obj, np.ndarray):
            arr = arr.astype(np.complex64)
        return tf.constant(arr)

    def sign(x: Any, /) -> Any:
        x = tf.convert_to_tensor(x)
        if x.dtype.is_unsigned or x.dtype == tf.bool:
            return p.sign(x)
        return tnp.sign(x) + tf.zeros((), _dtype(x))

    def logaddexp(x1: Any, x2: Any, /) -> Any:
        # tnp.logaddexp's derivative at x1 == x2 is (1, 0) (TensorFlow 2.21 differentiates
        # its maximum(x1, x2) branch); with the shift cut from the graph it is (1/2, 1/2)
        x1, x2 = _promote(tnp, x1, x2)
        m = tf.stop_gradient(tf.maximum(x1, x2))
        finite = tf.math.is_finite(m)
        shift = tf.where(finite, m, tf.zeros_like(m))
        out = shift + tf.math.log(tf.exp(x1 - shift) + tf.exp(x2 - shift))
        return tf.where(finite, out, tnp.logaddexp(x1, x2))

    def diff(
        x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None
    ) -> Any:
        parts = [v for v in (prepend, x, append) if v is not None]
        if len(parts) > 1:
            x = tf.concat([tf.convert_to_tensor(v, x.dtype) for v in parts], axis=axis)
        return tnp.diff(x, n=n, axis=axis)

    def count_nonzero(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        return tf.math.count_nonzero(x, axis=axis, keepdims=keepdims, dtype=tf.int64)

    def logsumexp(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        if axis == () or len(x.shape) == 0:
            return x + 0.0 * x
        return tf.reduce_logsumexp(x, axis=axis, keepdims=keepdims)

    def sigmoid(x: Any, /) -> Any:
        return tf.math.sigmoid(x)

    def softplus(x: Any, /) -> Any:
        return tf.math.softplus(x)

    def relu(x: Any, /) -> Any:
        return tf.where(x > 0, x, tf.zeros_like(x))

    def erf(x: Any, /) -> Any:
        return tf.math.erf(x)

    def log_softmax(x: Any, /, *, axis: int = -1) -> Any:
        return x - tf.reduce_logsumexp(x, axis=axis, keepdims=True)

    def softmax(x: Any, /, *, axis: int = -1) -> Any:
        return tf.exp(log_softmax(x, axis=axis))

    def einsum(subscripts: str, /, *operands: Any) -> Any:
        return tf.einsum(subscripts, *operands)

    linalg = _Module("unigrad._array_api.tensorflow_tape.linalg", tf.linalg)
    for name in (
        "cross",
        "diagonal",
        "eigvalsh",
        "matrix_norm",
        "matrix_power",
        "matrix_transpose",
        "outer",
        "svdvals",
        "trace",
        "vecdot",
        "vector_norm",
    ):
        setattr(linalg, name, c.bind(getattr(c, name), p, name))

    def cholesky(x: Any, /, *, upper: bool = False) -> Any:
        low = tf.linalg.cholesky(x)
        return tf.linalg.adjoint(low) if upper else low

    def svd(x: Any, /, *, full_matrices: bool = True) -> Any:
        return c.svd_via_reduced(p, tf.stop_gradient, x, full_matrices=full_matrices)

    def qr(x: Any, /, *, mode: str = "reduced") -> Any:
        q, r = tf.linalg.qr(x, full_matrices=mode == "complete")
        return c.QRResult(q, r)

    def slogdet(x: Any, /) -> Any:
        sign_, logabs = tf.linalg.slogdet(x)
        # TensorFlow 2.21 gives log|det| in the input's complex dtype: the standard's is real
        return c.SlogdetResult(sign_, tf.math.real(logabs) if logabs.dtype.is_complex else logabs)

    def pinv(x: Any, /, *, rtol: Any = None) -> Any:
        # through the SVD (tf.linalg.pinv takes real matrices only), NumPy's cutoff
        u, sv, vh = p.linalg.svd(x, full_matrices=False)
        m, n = x.shape[-2], x.shape[-1]
        real = sv.dtype
        if rtol is None:
            rtol = builtins.max(m, n) * float(np.finfo(_np_dtype(real)).eps)
        cutoff = tf.cast(rtol, real) * tf.reduce_max(sv, axis=-1, keepdims=True)
        inv = tf.where(sv > cutoff, 1 / tf.where(sv > cutoff, sv, tf.ones_like(sv)), 0)
        inv = tf.cast(inv, x.dtype)
        return tf.linalg.adjoint(vh) @ (inv[..., :, None] * tf.linalg.adjoint(u))

    def solve(x1: Any, x2: Any, /) -> Any:
        # the standard's broadcasting (a 1-d x2 is one vector); tf.linalg.solve wants
        # equal ranks and batch shapes
        x1, x2 = _promote(tnp, x1, x2)
        vector = len(x2.shape) == 1
        if vector:
            x2 = x2[:, None]
        batch = np.broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2]))
        x1 = tf.broadcast_to(x1, (*batch, *x1.shape[-2:]))
        x2 = tf.broadcast_to(x2, (*batch, *x2.shape[-2:]))
        out = tf.linalg.solve(x1, x2)
        return out[..., 0] if vector else out

    def outer(x1: Any, x2: Any, /) -> Any:
        x1, x2 = _promote(tnp, x1, x2)
        return c.outer(p, x1, x2)

    def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        x1, x2 = _promote(tnp, x1, x2)
        return c.cross(p, x1, x2, axis=axis)

    def matrix_rank(x: Any, /, *, rtol: Any = None) -> Any:
        return tf.cast(tf.linalg.matrix_rank(x, tol=None if rtol is None else rtol), tf.int64)

    fft = _Module("unigrad._array_api.tensorflow_tape.fft", tf.signal)

    def _nd(inverse: bool) -> Any:
        def transform(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
            from ._autograd import _nd_axes

            sizes, axes_ = _nd_axes(x, s, axes)
            out = x
            for n, a in zip(sizes, axes_, strict=True):
                out = p.fft._one(out, n, a, norm, inverse)
            return out

        transform.__name__ = transform.__qualname__ = "ifftn" if inverse else "fftn"
        return transform

    def _one(inverse: bool) -> Any:
        def transform(x: Any, /, *, n: Any = None, axis: int = -1, norm: str = "backward") -> Any:
            return p.fft._one(x, n, axis, norm, inverse)

        transform.__name__ = transform.__qualname__ = "ifft" if inverse else "fft"
        return transform

    def _freq(fn: Any, name: str) -> Any:
        def freq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
            out = fn(n, d)
            return tf.constant(out.astype(_np_dtype(dtype) or np.float32))

        freq.__name__ = freq.__qualname__ = name
        return freq

    def fftshift(x: Any, /, *, axes: Any = None) -> Any:
        axes_ = tuple(range(len(x.shape))) if axes is None else axes
        axes_ = (axes_,) if isinstance(axes_, int) else tuple(axes_)
        return tnp.roll(x, [x.shape[a] // 2 for a in axes_], axis=axes_)

    def ifftshift(x: Any, /, *, axes: Any = None) -> Any:
        axes_ = tuple(range(len(x.shape))) if axes is None else axes
        axes_ = (axes_,) if isinstance(axes_, int) else tuple(axes_)
        return tnp.roll(x, [-(x.shape[a] // 2) for a in axes_], axis=axes_)

    from . import _autograd as ag

    vars(fft).update(
        fft=_one(False),
        ifft=_one(True),
        fftn=_nd(False),
        ifftn=_nd(True),
        rfft=c.bind(ag._rfft, p, "rfft"),
        irfft=c.bind(ag._irfft, p, "irfft"),
        rfftn=c.bind(ag._rfftn, p, "rfftn"),
        irfftn=c.bind(ag._irfftn, p, "irfftn"),
        hfft=c.bind(c.hfft, p, "hfft"),
        ihfft=c.bind(c.ihfft, p, "ihfft"),
        fftfreq=_freq(np.fft.fftfreq, "fftfreq"),
        rfftfreq=_freq(np.fft.rfftfreq, "rfftfreq"),
        fftshift=fftshift,
        ifftshift=ifftshift,
    )
    vars(linalg).update(
        matmul=matmul,
        tensordot=tensordot,
        cholesky=cholesky,
        qr=qr,
        svd=svd,
        eigh=p.linalg.eigh,
        inv=p.linalg.inv,
        det=p.linalg.det,
        solve=solve,
        outer=outer,
        cross=cross,
        slogdet=slogdet,
        pinv=pinv,
        matrix_rank=matrix_rank,
    )
    for name in (
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
        "unstack",
        "var",
        "vecdot",
    ):
        setattr(ns, name, c.bind(getattr(c, name), p, name))

    def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        # the common rule multiplies with `*`, which does not promote on tf.Tensor
        # (TensorFlow 2.21: a float32 and a float64 vector raised InvalidArgumentError)
        x1, x2 = _promote(tnp, x1, x2)
        return c.vecdot(p, x1, x2, axis=axis)

    ns.vecdot = linalg.vecdot = vecdot
    from . import _c99

    def complex_special(name: str) -> Any:
        fn = getattr(ns, name)

        def f(x: Any, /) -> Any:  # the standard's complex special cases (TF's kernels miss some)
            out = fn(x)
            x = tf.convert_to_tensor(x)
            if not x.dtype.is_complex:
                return out
            v = x.numpy()
            with np.errstate(all="ignore"):
                mask, re, im = _c99.special(np, name, v.real, v.imag)
            if not mask.any():
                return out
            value = np.empty(v.shape, v.dtype)
            value.real, value.imag = re, im
            return _c99.pin(tnp, tf.constant(mask), tf.constant(value), out, tf.stop_gradient)

        f.__name__ = f.__qualname__ = name
        return f

    def signbit(x: Any, /) -> Any:  # the sign bit itself (-0.0 and -NaN included)
        x = tf.convert_to_tensor(x)
        if not x.dtype.is_floating:
            return tnp.signbit(x)
        ints = {2: tf.int16, 4: tf.int32, 8: tf.int64}[x.dtype.size]
        return tf.bitcast(x, ints) < 0

    vars(ns).update(
        signbit=signbit,
        abs=p.abs,
        logaddexp=logaddexp,
        count_nonzero=count_nonzero,
        diff=diff,
        acos=tnp.arccos,
        acosh=tnp.arccosh,
        asin=tnp.arcsin,
        asinh=tnp.arcsinh,
        atan=tnp.arctan,
        atanh=tnp.arctanh,
        atan2=tnp.arctan2,
        pow=p.power,
        astype=astype,
        permute_dims=permute_dims,
        bitwise_invert=bitwise_invert,
        bitwise_left_shift=bitwise_left_shift,
        bitwise_right_shift=bitwise_right_shift,
        trunc=trunc,
        copysign=copysign,
        hypot=hypot,
        can_cast=can_cast,
        isdtype=isdtype,
        result_type=result_type,
        searchsorted=searchsorted,
        nonzero=nonzero,
        unique_values=unique_values,
        unique_counts=unique_counts,
        unique_inverse=unique_inverse,
        unique_all=unique_all,
        sum=sum,
        prod=prod,
        mean=mean,
        max=max,
        min=min,
        matmul=matmul,
        tensordot=tensordot,
        take=take,
        take_along_axis=take_along_axis,
        repeat=repeat,
        squeeze=squeeze,
        expand_dims=expand_dims,
        reshape=reshape,
        roll=roll,
        tile=tile,
        where=where,
        argmax=argmax,
        argmin=argmin,
        zeros=zeros,
        ones=ones,
        empty=empty,
        full=full,
        zeros_like=zeros_like,
        ones_like=ones_like,
        empty_like=empty_like,
        full_like=full_like,
        eye=eye,
        arange=arange,
        linspace=linspace,
        asarray=asarray,
        sign=sign,
        finfo=finfo,
        iinfo=iinfo,
        logsumexp=logsumexp,
        sigmoid=sigmoid,
        softplus=softplus,
        relu=relu,
        erf=erf,
        softmax=softmax,
        log_softmax=log_softmax,
        einsum=einsum,
        linalg=linalg,
        fft=fft,
        e=float(np.e),
        pi=float(np.pi),
        inf=float("inf"),
        nan=float("nan"),
        newaxis=None,
        __array_namespace_info__=_Info,
    )
    for name in _DTYPES:
        setattr(ns, name, getattr(np, name))
    for name in _c99.FUNCTIONS:
        if hasattr(ns, name):
            setattr(ns, name, complex_special(name))
    return ns
