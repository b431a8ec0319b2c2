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
            msg = f'numpy arrays live on the CPU only: expected device "cpu" or None, got {device!r}'
            raise ValueError(msg)
        out = fn(n, d)
        return out if dtype is None else out.astype(dtype)

    freq.__name__ = freq.__qualname__ = name
    return freq


def _tensordot(xp: Any, x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    return xp.tensordot(x1, x2, axes=axes)


def _mean(xp: Any, x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    return xp.mean(x, axis=axis, keepdims=keepdims)


@functools.cache
def build() -> _Module:
    """The namespace (built once): ``autograd.numpy`` with the standard's rules."""
    import autograd.numpy as anp
    import numpy as np

    ns = _Module("unigrad._array_api.numpy_tape", anp)
    linalg = _Module("unigrad._array_api.numpy_tape.linalg", anp.linalg)
    fft = _Module("unigrad._array_api.numpy_tape.fft", anp.fft)
    for name in _MAIN:
        setattr(ns, name, c.bind(getattr(c, name), anp, name))
    for name in _LINALG:
        setattr(linalg, name, c.bind(getattr(c, name), anp, name))
    linalg.matmul = anp.matmul
    linalg.tensordot = c.bind(_tensordot, anp, "tensordot")
    for name in _FFT:
        setattr(fft, name, c.bind(getattr(c, name), anp, name))
    fft.fftfreq = _freq(np.fft.fftfreq, "fftfreq")  # not differentiable: no input array
    fft.rfftfreq = _freq(np.fft.rfftfreq, "rfftfreq")
    ns.mean = c.bind(_mean, anp, "mean")
    ns.finfo = c.bind(c.finfo, np, "finfo")
    ns.iinfo = c.bind(c.iinfo, np, "iinfo")
    ns.__array_namespace_info__ = np.__array_namespace_info__
    ns.linalg = linalg
    ns.fft = fft
    return ns
