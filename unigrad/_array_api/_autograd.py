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

from . import _common as c

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
    "eigvalsh",
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

    def sort(self, x: Any, axis: int = -1, kind: Any = None) -> Any:
        # autograd differentiates sort of 1-d arrays only: gather with argsort instead
        anp = self._anp
        idx = anp.argsort(x, axis=axis, kind=kind)
        return _gather(anp, x, idx, axis)

    def cumsum(self, x: Any, axis: int, dtype: Any = None) -> Any:
        anp = self._anp  # autograd's cumsum rule takes no dtype: cast first
        return anp.cumsum(x if dtype is None else x.astype(dtype), axis=axis)

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
    # (a rank change goes through reshape: autograd's broadcast_to VJP keeps the rank)
    shape = xp.broadcast_shapes(xp.shape(condition), xp.shape(x1), xp.shape(x2))

    def full(v: Any) -> Any:
        lead = len(shape) - xp.ndim(v)
        return xp.broadcast_to(xp.reshape(v, (1,) * lead + xp.shape(v)), shape)

    return xp.where(condition, full(x1), full(x2))


def _gather(anp: Any, x: Any, idx: Any, axis: int) -> Any:
    """``take_along_axis(x, idx, axis)`` as one differentiable flat index."""
    import numpy as np

    if x.ndim == 0:
        return x
    xm = anp.moveaxis(x, axis, -1)
    im = np.moveaxis(np.asarray(idx), axis, -1)
    n = xm.shape[-1]
    rows = np.arange(im.size // n if n else 0).reshape((*im.shape[:-1], 1)) * n
    flat = anp.reshape(xm, (-1,))[(rows + im).reshape(-1)] if n else xm
    return anp.moveaxis(anp.reshape(flat, xm.shape), -1, axis)


def _tensordot(xp: Any, x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    return xp.tensordot(x1, x2, axes=axes)


def _mean(xp: Any, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return xp.mean(x, axis=axis, keepdims=keepdims)


@functools.cache
def build() -> _Module:
    """The namespace (built once): ``autograd.numpy`` with the standard's rules."""
    import autograd.numpy as anp
    import numpy as np

    prims = _Prims(anp)
    ns = _Module("unigrad._array_api.numpy_tape", anp)
    linalg = _Module("unigrad._array_api.numpy_tape.linalg", anp.linalg)
    fft = _Module("unigrad._array_api.numpy_tape.fft", anp.fft)
    for name in _MAIN:
        setattr(ns, name, c.bind(getattr(c, name), prims, name))
    for name in _LINALG:
        setattr(linalg, name, c.bind(getattr(c, name), prims, name))
    vars(linalg).update(matmul=anp.matmul, tensordot=c.bind(_tensordot, anp, "tensordot"))
    for name in _FFT:
        setattr(fft, name, c.bind(getattr(c, name), prims, name))
    # the frequencies are not differentiable (no input array): NumPy's, standard signature
    vars(fft).update(
        fftfreq=_freq(np.fft.fftfreq, "fftfreq"), rfftfreq=_freq(np.fft.rfftfreq, "rfftfreq")
    )
    vars(ns).update(
        mean=c.bind(_mean, anp, "mean"),
        where=c.bind(_where, anp, "where"),
        finfo=c.bind(c.finfo, np, "finfo"),
        iinfo=c.bind(c.iinfo, np, "iinfo"),
        __array_namespace_info__=np.__array_namespace_info__,
    )
    for name in _DTYPES:  # NumPy's own: autograd wraps the integer ones in subclasses
        setattr(ns, name, getattr(np, name))
    vars(ns).update(linalg=linalg, fft=fft)
    return ns
