"""``fft`` of the paddle namespace: the standard's FFT extension over ``paddle.fft``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import paddle

from . import _paddle_ho as ho
from . import _paddle_ho_arrays as hoa

__all__ = [
    "fft",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfftn",
    "rfft",
    "rfftfreq",
    "rfftn",
]


def fft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    return paddle.fft.fft(x, n=n, axis=axis, norm=norm)


def ifft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    return paddle.fft.ifft(x, n=n, axis=axis, norm=norm)


def rfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    return paddle.fft.rfft(x, n=n, axis=axis, norm=norm)


def irfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    return paddle.fft.irfft(x, n=n, axis=axis, norm=norm)


def hfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    return paddle.fft.hfft(x, n=n, axis=axis, norm=norm)


def ihfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    return paddle.fft.ihfft(x, n=n, axis=axis, norm=norm)


def fftn(
    x: Any,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
) -> Any:
    return paddle.fft.fftn(x, s=s, axes=axes, norm=norm)


def ifftn(
    x: Any,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
) -> Any:
    return paddle.fft.ifftn(x, s=s, axes=axes, norm=norm)


def rfftn(
    x: Any,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
) -> Any:
    return paddle.fft.rfftn(x, s=s, axes=axes, norm=norm)


def irfftn(
    x: Any,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
) -> Any:
    return paddle.fft.irfftn(x, s=s, axes=axes, norm=norm)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return paddle.fft.fftfreq(n, d, dtype=paddle.float64 if dtype is None else dtype)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    return paddle.fft.rfftfreq(n, d, dtype=paddle.float64 if dtype is None else dtype)


def _shift(x: Any, axes: int | Sequence[int] | None, half: int) -> Any:
    """Roll each axis by ``half`` of its length: +n//2 (fftshift), -(n//2) (ifftshift)."""
    if axes is None:
        axes = list(range(x.ndim))
    elif isinstance(axes, int):
        axes = [axes]
    else:
        axes = list(axes)
    if not axes:
        return x.clone()
    shifts = [half * (x.shape[a] // 2) for a in axes]
    if ho.needs(x):  # roll_grad has no gradient: gathers
        return hoa.roll(x, shifts, axes)
    return paddle.roll(x, shifts, axis=axes)


def fftshift(x: Any, /, *, axes: int | Sequence[int] | None = None) -> Any:
    return _shift(x, axes, 1)


def ifftshift(x: Any, /, *, axes: int | Sequence[int] | None = None) -> Any:
    return _shift(x, axes, -1)
