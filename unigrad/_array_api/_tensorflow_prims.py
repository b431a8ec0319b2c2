"""The tensorflow tape's primitive namespace (`prims`): ``tf.experimental.numpy`` plus
the names the tape's operators and ``_common`` read that it lacks, each where TensorFlow
2.21 differs from NumPy written out (see ``_tensorflow``)."""

from __future__ import annotations

import builtins
import functools
from typing import Any

from . import _common as c
from ._autograd import _Module
from ._tensorflow_linalg import _FFT, _Linalg, _np_dtype, _promote, _tf

__all__ = ["prims"]


def _integer_pow(x: Any, n: int) -> Any:
    """``x ** n`` for a Python integer ``n``, its derivative ``n x ** (n - 1)`` written
    through this same function (jax's ``integer_pow``): ``x ** 0`` is a constant.
    TensorFlow 2.21's ``Pow`` gradient (``grad * y * pow(x, y - 1)``, math_grad.py) keeps
    ``x`` in ``pow(x, 0)``, so ``x ** 2``'s second derivative, the constant 2, came out
    connected to ``x`` (rule 14). Test:
    test_divergences_2026.py::test_square_second_derivative_is_a_constant."""
    tf = _tf()
    if n == 0:
        return tf.ones_like(x)

    @tf.custom_gradient  # type: ignore[untyped-decorator]
    def f(x: Any) -> Any:
        def grad(g: Any) -> Any:  # TensorFlow's convention: conj of the holomorphic VJP
            return g * tf.math.conj(tf.cast(n, x.dtype) * _integer_pow(x, n - 1))

        return tf.pow(x, tf.cast(n, x.dtype)), grad

    return f(x)


def _float_pow(x: Any, y: Any) -> Any:
    """``x ** y`` for two real float tensors of one dtype, differentiated as the numpy
    tape's ``pow_primitive``: the base's derivative ``y x ** (y - 1)`` is 0 where
    ``x = 0`` and ``y = 0`` (taken with a safe exponent there, through this same
    function, so its derivative in ``y`` is ``1 / x`` where ``y = 0``), the exponent's
    ``x ** y log(x)`` with ``log(1)`` where ``x = 0``. TensorFlow 2.21's ``Pow`` gradient
    (math_grad.py) gives ``0 * 0 ** -1 = nan`` at ``x = y = 0``. Tests:
    test_tape_fixes.py::test_pow_zero_base_tensor_exponent_gradient,
    test_divergences_2026.py::test_binary_derivatives_at_a_pole."""
    tf = _tf()

    @tf.custom_gradient  # type: ignore[untyped-decorator]
    def f(x: Any, y: Any) -> Any:
        out = tf.pow(x, y)

        def grad(g: Any) -> Any:
            zero = tf.equal(x, 0)
            both = tf.logical_and(zero, tf.equal(y, 0))
            safe = tf.where(both, tf.ones_like(y), y)
            d_base = tf.where(both, tf.zeros_like(out), y * _float_pow(x, safe - 1))
            d_exp = _float_pow(x, y) * tf.math.log(tf.where(zero, tf.ones_like(x), x))
            return _unbroadcast(g * d_base, x.shape), _unbroadcast(g * d_exp, y.shape)

        return out, grad

    return f(x, y)


def _asinh(x: Any) -> Any:
    """``asinh`` with the derivative ``1 / sqrt(1 + x**2)`` (torch's, jax's and
    autograd's formulation: 0 where ``x**2`` overflows); TensorFlow 2.21's ``Asinh``
    gradient, ``1 / cosh(y)``, gives 1e-200 at 1e200. Test: test_divergences_2026.py::
    test_derivatives_at_the_edge_of_a_domain."""
    tf = _tf()
    x = tf.convert_to_tensor(x)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        import tensorflow.experimental.numpy as tnp

        return tnp.arcsinh(x)

    @tf.custom_gradient  # type: ignore[untyped-decorator]
    def f(x: Any) -> Any:
        def grad(g: Any) -> Any:  # TensorFlow's convention: conj of the holomorphic VJP
            return g * tf.math.conj(1 / tf.sqrt(1 + x * x))

        return tf.math.asinh(x), grad

    return f(x)


def _acosh(x: Any) -> Any:
    """``acosh`` of a real tensor with the derivative ``1 / sqrt(x**2 - 1)`` (torch's,
    jax's and autograd's formula, finite below -1 where the value is NaN); TensorFlow
    2.21's ``Acosh`` gradient, ``1 / sinh(y)``, is NaN wherever ``y = acosh(x)`` is.
    Complex tensors keep TensorFlow's. Test: test_divergences_2026.py::
    test_second_derivatives_outside_the_real_domain."""
    import tensorflow.experimental.numpy as tnp

    tf = _tf()
    x = tf.convert_to_tensor(x)
    if not x.dtype.is_floating:
        return tnp.arccosh(x)

    @tf.custom_gradient  # type: ignore[untyped-decorator]
    def f(x: Any) -> Any:
        def grad(g: Any) -> Any:
            return g / tf.sqrt(x * x - 1)

        return tf.math.acosh(x), grad

    return f(x)


def _cumprod(x: Any, axis: int, dtype: Any = None) -> Any:
    """`_common.running_products` at every length, one multiply each: TensorFlow's
    ``Cumprod`` gradient (``cumsum(g * out) / x``, tensorflow/python/ops/math_grad.py,
    2.21) is NaN at an exact zero and misses the conjugate of a complex input."""
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp

    if dtype is not None:
        x = tf.cast(x, _np_dtype(dtype))
    if not (x.dtype.is_floating or x.dtype.is_complex):
        return tnp.cumprod(x, axis=axis)
    return c.running_products(tnp, x, axis)


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


def _unbroadcast(g: Any, shape: Any) -> Any:
    """``g`` summed down to ``shape`` (the axes broadcasting added or stretched)."""
    import tensorflow as tf

    shape = tuple(shape)
    lead = len(g.shape) - len(shape)
    axes = [*range(lead)] + [
        lead + i for i, n in enumerate(shape) if n == 1 and g.shape[lead + i] != 1
    ]
    if axes:
        g = tf.reduce_sum(g, axis=axes, keepdims=True)
    return tf.reshape(g, shape)


def _getitem(x: Any, idx: Any) -> Any:
    from tensorflow.python.ops.numpy_ops import np_array_ops

    def plain(i: Any) -> Any:  # a tape tensor's value (the rules never import the tape)
        return i._value if getattr(type(i), "__unigrad_backend__", None) else i

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
            if d1 is not None and d2 is not None:
                a, b = _promote(tnp, x1, x2)
                if a.dtype.is_floating:
                    return _float_pow(a, b)
            return tnp.power(x1, x2)
        x1, x2 = _promote(tnp, x1, x2)
        if not x1.dtype.is_unsigned:
            return tnp.power(x1, x2)
        signed = {1: tf.int16, 2: tf.int32, 4: tf.int64, 8: tf.int64}[x1.dtype.size]
        out = tnp.power(tf.cast(x1, signed), tf.cast(x2, signed))
        return tf.cast(out, x1.dtype)

    def _balanced(fn: Any, wins: Any, logical: Any) -> Any:
        """``maximum``/``minimum`` whose derivative is 1 for the winner and 1/2 each at a
        tie, as torch's, jax's and autograd's. TensorFlow 2.21's gives a tie to ``x1``
        whole (``_MaximumMinimumGrad``), and ``tnp.maximum(x, 0)`` goes through
        ``tf.nn.relu``: 0 at the tie, and a second-order gradient (``ReluGradGrad``)
        that keeps the constant derivative connected to ``x`` (rule 14). Here the
        weights come from comparisons (constants) and the value is TensorFlow's own.
        Test: test_divergences_tf.py::test_maximum_and_minimum_split_a_tie."""

        def f(x1: Any, x2: Any) -> Any:
            x1, x2 = _promote(tnp, x1, x2)
            if x1.dtype == tf.bool:
                return logical(x1, x2)
            if not x1.dtype.is_floating:
                return fn(x1, x2)
            return _weighted(x1, x2)

        @tf.custom_gradient  # type: ignore[untyped-decorator]
        def _weighted(x1: Any, x2: Any) -> Any:
            one = tf.ones_like(fn(x1, x2))
            w = tf.where(wins(x1, x2), one, tf.where(tf.equal(x1, x2), one / 2, 0 * one))

            def grad(g: Any) -> Any:
                return _unbroadcast(g * w, x1.shape), _unbroadcast(g * (1 - w), x2.shape)

            return fn(x1, x2), grad

        f.__name__ = f.__qualname__ = fn.__name__
        return f

    def _one_dtype(fn: Any, slow: Any) -> Any:
        """``slow(x1, x2)`` (``tf.experimental.numpy``'s, which promotes its operands
        first) as the TensorFlow op it ends in, ``fn``, where both operands are tensors
        of one float or complex dtype: the same op on the same tensors, without the
        promotion's cost (TensorFlow 2.21: about half of a small ``tnp.multiply``,
        ``np_math_ops._bin_op``); every other operand goes through ``slow``."""
        tensor = tf.Tensor

        def f(x1: Any, x2: Any) -> Any:
            if isinstance(x1, tensor) and isinstance(x2, tensor):
                d = x1.dtype
                if d == x2.dtype and (d.is_floating or d.is_complex):
                    return fn(x1, x2)
            return slow(x1, x2)

        f.__name__ = f.__qualname__ = slow.__name__
        return f

    vars(p).update(
        add=_one_dtype(tf.math.add, tnp.add),
        subtract=_one_dtype(tf.math.subtract, tnp.subtract),
        multiply=_one_dtype(tf.math.multiply, tnp.multiply),
        maximum=_balanced(tf.maximum, tf.greater, tf.logical_or),
        minimum=_balanced(tf.minimum, tf.less, tf.logical_and),
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
