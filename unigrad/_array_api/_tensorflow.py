"""The tensorflow tape's namespaces: ``tf.experimental.numpy`` and the standard.

``tf.experimental.numpy`` (TensorFlow's NumPy API over ``tf.Tensor``, differentiable by
``tf.GradientTape``) gives most of NumPy's names; this module fills in the standard's
own (``acos``, ``concat``, ``permute_dims``, ``bitwise_*``, ``linalg``, ``fft``, ...) from
TensorFlow ops and the common rules (``_common``). Data types are NumPy's (the tape's
tensors report ``numpy.dtype``). `prims` (``_tensorflow_prims``) is the primitive
namespace the tape's operators and ``_common`` read; `build` is the standard namespace
the recording namespace wraps (its ``linalg`` and ``fft``: ``_tensorflow_linalg``).
Nothing here enables ``tnp.experimental_enable_numpy_behavior`` (a process-wide switch
of TensorFlow's own promotion rules): tensors are handled through functions only.
"""

from __future__ import annotations

import functools
from typing import Any

from . import _common as c
from ._autograd import _DTYPES, _Module
from ._tensorflow_linalg import _dtype, _np_dtype, _promote, fft_module, linalg_module
from ._tensorflow_prims import _acosh, _asinh, _astype, _Info, prims

__all__ = ["build", "prims"]


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
        # float32 and a float64 argument raised InvalidArgumentError in AddV2; test:
        # test_divergences_tf.py::test_hypot_of_float32_and_float64_promotes)
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
        if x1.dtype != x2.dtype:  # (TensorFlow 2.21's LowerBound takes one dtype)
            common = tf.as_dtype(result_type(x1, x2))
            x1, x2 = tf.cast(x1, common), tf.cast(x2, common)
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
        """The product; of a float or complex ``x``, `_common.prod_by_multiplies` (a
        tree of multiplies, exact at every order): TensorFlow 2.21's ``Prod`` gradient
        (exclusive ``cumprod`` of ``x``, math_grad.py) differentiates again through
        ``Cumprod``'s gradient, which divides by ``x``: the second derivative came out 0
        where an element is an exact zero, and the constant 1 of a product of one factor
        stayed connected to ``x``. Multiplies and slices are exact to any order. Tests:
        test_raw_errors.py::test_prod_differentiates_to_second_order,
        test_divergences_2026.py::test_product_of_one_factor_has_a_constant_derivative."""
        x = tf.convert_to_tensor(x)
        if dtype is not None and not (x.dtype.is_floating or x.dtype.is_complex):
            return tnp.prod(x, axis=axis, dtype=_np_dtype(dtype), keepdims=keepdims)
        if dtype is not None:
            x = tf.cast(x, _np_dtype(dtype))
        if not (x.dtype.is_floating or x.dtype.is_complex):
            return tnp.prod(x, axis=axis, keepdims=keepdims)
        return c.prod_by_multiplies(tnp, x, axis=axis, keepdims=keepdims)

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
        if x.dtype.is_complex:
            # x / |x|: TensorFlow 2.21's complex Sign gives 0 where |x|**2 underflows
            # (1e-300). Test: test_namespace_special_cases.py::test_equal_is_exact.
            mag = tf.cast(tf.abs(x), x.dtype)
            nz = tf.not_equal(x, 0)
            return tf.where(nz, x / tf.where(nz, mag, tf.ones_like(mag)), tf.zeros_like(x))
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

    linalg = linalg_module(p, matmul, tensordot)
    fft = fft_module(p)

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
        # (TensorFlow 2.21: a float32 and a float64 vector raised InvalidArgumentError;
        # test: test_divergences_tf.py::test_vecdot_of_float32_and_float64_promotes)
        x1, x2 = _promote(tnp, x1, x2)
        return c.vecdot(p, x1, x2, axis=axis)

    vars(ns)["vecdot"] = vars(linalg)["vecdot"] = vecdot
    from . import _c99

    def complex_special(name: str) -> Any:
        fn = getattr(ns, name)

        def f(x: Any, /) -> Any:  # the standard's complex special cases (TF's kernels miss some)
            out = fn(x)
            x = tf.convert_to_tensor(x)
            if not x.dtype.is_complex:
                return out
            if not hasattr(x, "numpy"):  # a graph tensor (a unigrad.jit step): on the host
                mask, value = tf.numpy_function(host, [x], [tf.bool, x.dtype], stateful=False)
                mask.set_shape(x.shape)
                value.set_shape(x.shape)
                return _c99.pin(tnp, mask, value, out, tf.stop_gradient)
            mask, value = host(x.numpy())
            if not mask.any():
                return out
            return _c99.pin(tnp, tf.constant(mask), tf.constant(value), out, tf.stop_gradient)

        def host(v: Any) -> tuple[Any, Any]:
            with np.errstate(all="ignore"):
                mask, re, im = _c99.special(np, name, v.real, v.imag)
            value = np.empty(v.shape, v.dtype)
            value.real, value.imag = re, im
            return mask, value

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
        acosh=_acosh,
        asin=tnp.arcsin,
        asinh=_asinh,
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
