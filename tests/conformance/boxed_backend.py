"""A small third-party backend, as a plug-in author would write it: ``boxed``.

Its tensors are ``Boxed``, a ``torch.Tensor`` subclass tagged ``__unigrad_backend__ =
"boxed"`` (so dispatch routes them here, not to torch), and :class:`BoxedBackend`
implements the :class:`unigrad.Backend` ABC by delegating the work to unigrad's torch
adapter and boxing what comes back. The tests register it through the entry-point group
``unigrad.backends`` and run the conformance suite against it.
"""

from __future__ import annotations

from typing import Any

import torch

import unigrad
from unigrad.backends import Backend, BackwardRequest, Capabilities, GradRequest


class Boxed(torch.Tensor):
    """A torch tensor that belongs to the ``boxed`` backend."""

    __unigrad_backend__ = "boxed"


def _box(x: Any) -> Any:
    return x.as_subclass(Boxed) if isinstance(x, torch.Tensor) and type(x) is not Boxed else x


class BoxedBackend(Backend):
    """The ``boxed`` backend: torch's numbers, its own tensor type."""

    name = "boxed"
    framework = "torch"
    capabilities = Capabilities(native_batched=True, leaf_hooks_in_grad=True)

    def __init__(self) -> None:
        from unigrad.backends.torch import BACKEND

        self._torch = BACKEND

    def owns(self, cls: type) -> bool:
        return issubclass(cls, Boxed)

    def versions(self) -> dict[str, str]:
        return {"boxed": "0.1", "torch": str(torch.__version__)}

    def kind(self, x: Any) -> Any:
        return self._torch.kind(x)

    def shape(self, x: Any) -> tuple[int, ...]:
        return tuple(x.shape)

    def same_dtype(self, a: Any, b: Any) -> bool:
        return bool(a.dtype == b.dtype)

    def dtype_name(self, x: Any) -> str:
        return str(x.dtype).removeprefix("torch.")

    def requires_grad(self, x: Any) -> bool:
        return bool(x.requires_grad)

    def cast(self, x: Any, like: Any) -> Any:
        return _box(x.to(like.dtype))

    def asarray(self, data: Any, dtype: str) -> Any:
        return _box(self._torch.asarray(data, dtype))

    def ones_like(self, x: Any) -> Any:
        return _box(torch.ones_like(x))

    def zeros_like(self, x: Any, batch: int | None = None) -> Any:
        return _box(self._torch.zeros_like(x, batch))

    def add(self, a: Any, b: Any) -> Any:
        return _box(a + b)

    def grad(self, request: GradRequest) -> list[Any | None]:
        return [_box(g) for g in self._torch.grad(request)]

    def backward(self, request: BackwardRequest) -> None:
        self._torch.backward(request)

    def watch(self, x: Any) -> Any:
        return _box(self._torch.watch(x))

    def to_numpy(self, x: Any) -> Any:
        return x.detach().as_subclass(torch.Tensor).cpu().resolve_conj().numpy()

    def namespace(self) -> Any:
        return self._torch.namespace()


def boxed(data: Any, dtype: str = "float32") -> Boxed:
    """A ``Boxed`` tensor from numbers."""
    return unigrad.get_backend("boxed").asarray(data, dtype)  # type: ignore[no-any-return]
