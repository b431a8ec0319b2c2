"""paddle's dtypes as the contract's kinds (``f`` float, ``c`` complex, ``i``, ``b``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import paddle

from .._base import (
    Kind,
)

_FLOAT = {paddle.float16, paddle.float32, paddle.float64, paddle.bfloat16}


_COMPLEX = {paddle.complex64, paddle.complex128}


def _slow_kind(dtype: Any) -> Kind:
    if dtype in _FLOAT:
        return "f"
    if dtype in _COMPLEX:
        return "c"
    if dtype == paddle.bool:
        return "b"
    return "i"


#: ``id(dtype) -> (dtype, kind)`` for paddle's dtype singletons. Hashing a paddle dtype
#: or comparing two with ``==`` costs ~0.5 us (a Python-level ``__hash__``/``__eq__``),
#: and the front asks for kinds several times per call; ``Tensor.dtype`` returns these
#: same objects, so an identity lookup answers. The objects are kept alive here, so no
#: other object can take their ids; a miss falls back to the comparisons.
_KINDS: dict[int, tuple[Any, Kind]] = {
    id(d): (d, _slow_kind(d))
    for d in (
        *_FLOAT,
        *_COMPLEX,
        paddle.bool,
        paddle.int8,
        paddle.int16,
        paddle.int32,
        paddle.int64,
        paddle.uint8,
    )
}


def _kind_of(dtype: Any) -> Kind:
    hit = _KINDS.get(id(dtype))
    if hit is not None and hit[0] is dtype:
        return hit[1]
    return _slow_kind(dtype)


def _any_complex(outputs: Sequence[Any], inputs: Sequence[Any]) -> bool:
    # (`dtype in _COMPLEX` hashes a dtype: ~0.5 us)
    return any(_kind_of(t.dtype) == "c" for t in (*outputs, *inputs))
