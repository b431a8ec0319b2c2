"""torch's engine as the adapter calls it: dtype kinds, the private backward entry
point, seeds, and torch's errors as unigrad's."""

from __future__ import annotations

from typing import Any

import torch

from ..._errors import (
    GraphFreedError,
    InplaceModifiedError,
    message,
)
from ...contract._carried import FREED_MESSAGE
from .._base import (
    Kind,
)


class _Kinds(dict[Any, Kind]):
    """Each dtype's kind, computed on its first lookup: `TorchBackend.kind` is one
    subscript (the front asks for each output's and input's kind on every call)."""

    def __missing__(self, dtype: Any) -> Kind:
        kind: Kind
        if dtype.is_complex:
            kind = "c"
        elif dtype.is_floating_point:
            kind = "f"
        elif dtype is torch.bool:
            kind = "b"
        else:
            kind = "i"
        self[dtype] = kind
        return kind


_KINDS = _Kinds()


# torch.autograd.grad is argument handling (which the front has done) around this
# private helper (torch >= 2.3). Where it is missing, for batched seeds, or when a
# tensor overrides __torch_function__, the public call runs.
_run_backward: Any = getattr(torch.autograd.graph, "_engine_run_backward", None)


_has_torch_function: Any = torch._C._has_torch_function


_PRESERVE = torch.preserve_format


_ones_like = torch.ones_like


def _filled(outputs: tuple[Any, ...], seeds: tuple[Any, ...]) -> tuple[Any, ...]:
    """The seeds with ones (as torch's own grad makes them) for the None entries."""
    if len(outputs) == 1:  # the common call
        s = seeds[0]
        return (_ones_like(outputs[0], memory_format=_PRESERVE) if s is None else s,)
    return tuple(
        _ones_like(y, memory_format=_PRESERVE) if s is None else s
        for y, s in zip(outputs, seeds, strict=True)
    )


def _translate(err: RuntimeError) -> BaseException:
    text = str(err)
    if "backward through the graph a second time" in text:
        return GraphFreedError(f"{FREED_MESSAGE}\ntorch said: {text}")
    if "modified by an inplace operation" in text:
        msg = message(
            "a tensor saved for backward was modified in place",
            expected="saved tensors unchanged between the forward and the gradient",
            got="an in-place change after the forward pass",
            fix="Use the out-of-place op (x = x + 1), or clone before modifying.",
        )
        return InplaceModifiedError(f"{msg}\ntorch said: {text}")
    return err
