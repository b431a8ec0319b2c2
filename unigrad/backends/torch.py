"""The torch backend: ``torch.autograd.grad`` plus what unigrad's contract adds.

torch already follows most of the contract. This adapter adds:

* consumed-graph tracking: after ``retain_graph=False`` every node the engine ran gets
  a pre-hook that raises :class:`GraphFreedError`, so a second pass fails even through
  nodes that saved nothing (where torch itself would silently succeed);
* ``no_grad_vars``: a zeroing hook on each cut tensor for the values, and a walk over
  the graph's edges that stops at the cuts to find inputs reachable only through them;
* ones for non-scalar ``None`` seeds, and the mapping of torch's errors to unigrad's.
"""

from __future__ import annotations

from typing import Any

import torch
from torch.autograd.graph import get_gradient_edge

from .._errors import (
    GraphFreedError,
    InplaceModifiedError,
    NotDifferentiableError,
    message,
)
from . import _graph
from ._base import Backend, BackwardRequest, Capabilities, GradRequest, Kind

__all__ = ["BACKEND", "TorchBackend"]

_KINDS: dict[Any, Kind] = {}


def _kind_of(dtype: Any) -> Kind:
    kind = _KINDS.get(dtype)
    if kind is None:
        if dtype.is_complex:
            kind = "c"
        elif dtype.is_floating_point:
            kind = "f"
        elif dtype is torch.bool:
            kind = "b"
        else:
            kind = "i"
        _KINDS[dtype] = kind
    return kind


_FREED_MESSAGE = message(
    "the graph was consumed",
    expected="a graph that was not differentiated with retain_graph=False",
    got="a second differentiation through nodes already freed",
    fix="Pass retain_graph=True to the earlier grad/backward call that used this graph, "
    "or recompute the forward pass.",
)


def _freed_hook(grad_outputs: Any) -> None:
    raise GraphFreedError(_FREED_MESSAGE)


def _mark(node: Any) -> None:
    meta = node.metadata
    if "unigrad.consumed" not in meta:
        meta["unigrad.consumed"] = True
        node.register_prehook(_freed_hook)


def _children(node: Any) -> list[Any]:
    return [c for c, _ in node.next_functions if c is not None]


def _is_leaf_node(node: Any) -> bool:
    return type(node).__name__ == "AccumulateGrad"


def _translate(err: RuntimeError) -> BaseException:
    text = str(err)
    if "backward through the graph a second time" in text:
        return GraphFreedError(f"{_FREED_MESSAGE}\ntorch said: {text}")
    if "modified by an inplace operation" in text:
        msg = message(
            "a tensor saved for backward was modified in place",
            expected="saved tensors unchanged between the forward and the gradient",
            got="an in-place change after the forward pass",
            fix="Use the out-of-place op (x = x + 1), or clone before modifying.",
        )
        return InplaceModifiedError(f"{msg}\ntorch said: {text}")
    return err


def _zero_grad(g: torch.Tensor) -> torch.Tensor:
    return torch.zeros_like(g)


def _edge(t: torch.Tensor) -> tuple[Any, int]:
    if t.grad_fn is not None:
        return (t.grad_fn, t.output_nr)
    e = get_gradient_edge(t)
    return (e.node, e.output_nr)


def _reachable_edges(outputs: tuple[Any, ...], cuts: set[tuple[Any, int]]) -> set[tuple[Any, int]]:
    """Every edge reachable from the outputs without crossing a cut edge."""
    reached: set[tuple[Any, int]] = set()
    visited: set[Any] = set()
    stack = [_edge(y) for y in outputs]
    while stack:
        edge = stack.pop()
        if edge in cuts or edge in reached:
            continue
        reached.add(edge)
        node = edge[0]
        if node in visited:
            continue
        visited.add(node)
        stack.extend((c, nr) for c, nr in node.next_functions if c is not None)
    return reached


class TorchBackend(Backend):
    """Adapter for :mod:`torch` tensors."""

    name = "torch"
    framework = "torch"
    capabilities = Capabilities(
        max_order=None,
        native_batched=True,
        backward_create_graph=True,
        leaf_hooks_in_grad=True,
        float16_cpu=True,
    )

    def owns(self, cls: type) -> bool:
        return issubclass(cls, torch.Tensor)

    def versions(self) -> dict[str, str]:
        return {"torch": str(torch.__version__)}

    def kind(self, x: Any) -> Kind:
        return _kind_of(x.dtype)

    def shape(self, x: Any) -> tuple[int, ...]:
        return tuple(x.shape)

    def same_dtype(self, a: Any, b: Any) -> bool:
        return bool(a.dtype == b.dtype)

    def dtype_name(self, x: Any) -> str:
        return str(x.dtype).removeprefix("torch.")

    def requires_grad(self, x: Any) -> bool:
        return bool(x.requires_grad)

    def cast(self, x: Any, like: Any) -> Any:
        return x.to(like.dtype)

    def asarray(self, data: Any, dtype: str) -> Any:
        import numpy as np

        return torch.from_numpy(np.array(data, dtype=dtype))

    def ones_like(self, x: Any) -> Any:
        return torch.ones_like(x)

    def zeros_like(self, x: Any, batch: int | None = None) -> Any:
        if batch is None:
            return torch.zeros_like(x)
        return torch.zeros((batch, *x.shape), dtype=x.dtype, device=x.device)

    def add(self, a: Any, b: Any) -> Any:
        return a + b

    def _seeds(self, outputs: tuple[Any, ...], seeds: tuple[Any, ...]) -> tuple[Any, ...]:
        # torch fills ones itself only for one-element outputs
        if all(s is not None or y.numel() == 1 for y, s in zip(outputs, seeds, strict=True)):
            return seeds
        return tuple(
            torch.ones_like(y) if s is None else s for y, s in zip(outputs, seeds, strict=True)
        )

    def grad(self, request: GradRequest) -> list[Any | None]:
        outputs, inputs = request.outputs, request.inputs
        seeds = self._seeds(outputs, request.seeds)
        handles = []
        reached: set[tuple[Any, int]] | None = None
        if request.no_grad_vars:
            cuts = {_edge(v) for v in request.no_grad_vars if v.requires_grad}
            reached = _reachable_edges(outputs, cuts)
            handles = [
                v.register_hook(_zero_grad)
                for v in request.no_grad_vars
                if v.requires_grad and v.grad_fn is not None
            ]
        try:
            result = torch.autograd.grad(
                outputs,
                inputs,
                seeds,
                retain_graph=request.retain_graph,
                create_graph=request.create_graph,
                allow_unused=True,
                is_grads_batched=request.batched,
            )
        except GraphFreedError:
            raise
        except RuntimeError as err:
            raise _translate(err) from err
        finally:
            for h in handles:
                h.remove()
        if not request.retain_graph:
            self._consume(outputs, inputs)
        grads = list(result)
        if reached is not None:
            for i, x in enumerate(inputs):
                if _edge(x) not in reached:
                    grads[i] = None
        return grads

    def _consume(self, outputs: tuple[Any, ...], inputs: tuple[Any, ...] | None) -> None:
        roots = [y.grad_fn for y in outputs if y.grad_fn is not None]
        targets = None if inputs is None else {_edge(x)[0] for x in inputs}
        for node in _graph.executed(roots, _children, targets, _is_leaf_node):
            _mark(node)

    def backward(self, request: BackwardRequest) -> None:
        seeds = self._seeds(request.outputs, request.seeds)
        try:
            torch.autograd.backward(
                request.outputs,
                seeds,
                retain_graph=request.retain_graph,
                create_graph=request.create_graph,
                inputs=request.inputs,
            )
        except GraphFreedError:
            raise
        except RuntimeError as err:
            raise _translate(err) from err
        if not request.retain_graph:
            self._consume(request.outputs, request.inputs)

    def watch(self, x: Any) -> Any:
        if not isinstance(x, torch.Tensor):
            msg = message(
                "watch() needs a tensor",
                expected="a torch.Tensor",
                got=type(x).__name__,
                fix="Convert the value with torch.as_tensor first.",
            )
            raise NotDifferentiableError(msg)
        if _kind_of(x.dtype) not in "fc":
            msg = message(
                "only floating-point and complex tensors can require grad",
                expected="a float or complex tensor",
                got=f"dtype {self.dtype_name(x)}",
                fix="Cast it first, e.g. x.float().",
            )
            raise NotDifferentiableError(msg)
        if not x.requires_grad:
            x.requires_grad_(True)
        return x

    def to_numpy(self, x: Any) -> Any:
        return x.detach().cpu().resolve_conj().resolve_neg().numpy()

    def namespace(self) -> Any:
        try:
            import array_api_compat.torch as xp
        except ImportError:  # pragma: no cover - array-api-compat is a dependency of the extra
            return torch
        return xp


BACKEND = TorchBackend()
