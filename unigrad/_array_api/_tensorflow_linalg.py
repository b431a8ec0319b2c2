"""The tensorflow tape's linear algebra and FFTs (``tf.linalg``, ``tf.signal``) in the
standard's signatures, and the dtype helpers ``_tensorflow`` shares with them."""

from __future__ import annotations

import builtins
import functools
from typing import Any

from . import _common as c
from ._autograd import _Module

__all__ = ["fft_module", "linalg_module"]


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
        """LAPACK's eigendecomposition of the lower triangle with torch's gradient, the
        Hermitian part of the incoming one (docs/semantics.md, "eigh of a matrix that is
        not Hermitian"): TensorFlow 2.21 reads the lower triangle too, but its gradient
        is the lower-triangle function's own (zero above the diagonal, twice the
        off-diagonal entries below). The input is `_common.hermitian_lower_input`'s: the
        same values bit for bit, and the derivative of the Hermitian part."""
        tf = _tf()
        if x.shape.rank is not None and x.shape.rank >= 2:
            x = c.hermitian_lower_input(
                x, stop=tf.stop_gradient, adjoint=tf.linalg.adjoint, lower_parts=_lower_parts
            )
        w, v = tf.linalg.eigh(x)
        if w.dtype.is_complex:
            # TensorFlow 2.21 returns a Hermitian matrix's (real) eigenvalues in its
            # complex dtype; the standard's are real. Test: test_divergences_2026.py::
            # test_complex_eigvalsh_first_derivative_at_a_repeated_eigenvalue.
            w = tf.math.real(w)
        return c.EighResult(w, v)

    def inv(self, x: Any) -> Any:
        return _tf().linalg.inv(x)

    def det(self, x: Any) -> Any:
        return _det()(x)

    def solve(self, a: Any, b: Any) -> Any:
        return _tf().linalg.solve(a, b)


def _lower_parts(a: Any) -> tuple[Any, Any]:
    """``(tril(a), tril(a, -1))``, reading the lower band once."""
    tf = _tf()
    low = tf.linalg.band_part(a, -1, 0)
    return low, low - tf.linalg.band_part(a, 0, 0)


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
    ones: the numpy tape's rule (``_autograd_linalg._det_primitive``). Tests:
    test_divergences_tf.py::test_complex_det_gradient_is_torchs_convention,
    test_divergences_2026.py::test_det_derivatives_at_singular_matrices."""
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
        from ._tensorflow_prims import prims

        return _rfft(prims(), x, n=n, axis=axis, norm=norm)

    def irfft(self, x: Any, n: Any = None, axis: int = -1, norm: str = "backward") -> Any:
        from ._autograd import _irfft
        from ._tensorflow_prims import prims

        return _irfft(prims(), x, n=n, axis=axis, norm=norm)


def linalg_module(p: Any, matmul: Any, tensordot: Any) -> Any:
    """The standard's ``linalg`` over ``tf.linalg`` (``p``: the primitive namespace;
    ``matmul``/``tensordot``: the namespace's own)."""
    import numpy as np
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp

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
    return linalg


def fft_module(p: Any) -> Any:
    """The standard's ``fft`` over ``tf.signal`` (``p``: the primitive namespace)."""
    import numpy as np
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp

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
    return fft
