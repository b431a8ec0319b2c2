"""The torch backend: ``torch.autograd.grad`` plus what unigrad's contract adds.

torch already follows most of the contract. This adapter adds:

* consumed-graph tracking: after ``retain_graph=False`` every node the engine ran gets
  a pre-hook that raises `GraphFreedError`, so a second pass fails even through
  nodes that saved nothing (where torch itself would silently succeed);
* ``no_grad_vars``: a zeroing hook on each cut tensor for the values, and a walk over
  the graph's edges that stops at the cuts to find inputs reachable only through them;
* ones for non-scalar ``None`` seeds, and the mapping of torch's errors to unigrad's.
"""

from __future__ import annotations

from typing import Any

import torch

from .._errors import (
    GradOutputsError,
    GraphFreedError,
    InplaceModifiedError,
    NotDifferentiableError,
    message,
)
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
_CONSUMED = "unigrad.consumed"
# torch.autograd.grad is argument handling (which the front has done) around this
# private helper (torch >= 2.3). Where it is missing, for batched seeds, or when a
# tensor overrides __torch_function__, the public call runs.
_run_backward: Any = getattr(torch.autograd.graph, "_engine_run_backward", None)
_has_torch_function: Any = torch._C._has_torch_function
_ACCUMULATE = torch._C._functions.AccumulateGrad


def _plan(outputs: tuple[Any, ...], inputs: tuple[Any, ...] | None) -> list[Any]:
    """The nodes the pass will run; raises if one was consumed by an earlier pass.

    A node runs when one of its children leads to a target (an input's node, or an
    input leaf's gradient accumulator; with ``inputs=None`` every accumulator); a target
    is reached without running it. Accumulators are never returned: they are shared
    between graphs. Consumed nodes carry a flag in their ``metadata`` dict, which lives
    and dies with the node: no id() bookkeeping, nothing to fool after garbage
    collection. The walk is ``_graph.executed`` written out for torch's node types
    (iterative post-order, so long chains do not hit the recursion limit): it runs on
    every call, and the generic version's callbacks cost more than the walk itself.
    """
    every_leaf = inputs is None
    leaves: set[int] = set()
    targets: set[Any] = set()
    for x in inputs or ():
        fn = x.grad_fn
        if fn is None:
            leaves.add(id(x))
        else:
            targets.add(fn)
    leads: dict[Any, bool] = {}
    edges_of: dict[Any, tuple[tuple[Any, int], ...]] = {}
    runs: list[Any] = []
    stack = []
    for y in outputs:
        fn = y.grad_fn
        if fn is not None:
            stack.append(fn)
    while stack:
        node = stack.pop()
        if node in leads:
            continue
        if type(node) is _ACCUMULATE:
            leads[node] = every_leaf or id(node.variable) in leaves
            continue
        edges = edges_of.get(node)
        if edges is None:  # first visit: the children first, then this node again
            edges = edges_of[node] = node.next_functions
            stack.append(node)
            for c, _ in edges:
                if c is not None:
                    stack.append(c)
            continue
        ran = False
        for c, _ in edges:
            if c is not None and leads[c]:
                ran = True
                break
        leads[node] = ran or node in targets
        if ran:
            if _CONSUMED in node.metadata:
                raise GraphFreedError(_FREED_MESSAGE)
            runs.append(node)
    return runs


def _check_unconsumed(outputs: tuple[Any, ...], inputs: tuple[Any, ...] | None) -> None:
    """`_plan`'s check alone, for a pass that consumes nothing: one visit per
    reachable node; only when a consumed node is found does it ask whether the pass
    would run it (the answer costs a second, post-order walk)."""
    seen: set[Any] = set()
    stack = []
    for y in outputs:
        fn = y.grad_fn
        if fn is not None:
            stack.append(fn)
    while stack:
        node = stack.pop()
        if node in seen or type(node) is _ACCUMULATE:
            continue
        seen.add(node)
        if _CONSUMED in node.metadata:
            _plan(outputs, inputs)  # raises if the pass would run a consumed node
            return
        for c, _ in node.next_functions:
            if c is not None:
                stack.append(c)


def _consume(runs: list[Any]) -> None:
    for node in runs:
        node.metadata[_CONSUMED] = True


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


def _reachable(
    outputs: tuple[Any, ...], cuts: set[tuple[Any, int]]
) -> tuple[set[tuple[Any, int]], set[int]]:
    """Edges reachable from the outputs without crossing a cut edge, and the ids of the
    leaf tensors reached."""
    reached: set[tuple[Any, int]] = set()
    leaves: set[int] = set()
    visited: set[Any] = set()
    stack = [(y.grad_fn, y.output_nr) for y in outputs if y.grad_fn is not None]
    leaves.update(id(y) for y in outputs if y.grad_fn is None)
    while stack:
        edge = stack.pop()
        if edge in cuts or edge in reached:
            continue
        reached.add(edge)
        node = edge[0]
        if node in visited:
            continue
        visited.add(node)
        if type(node) is _ACCUMULATE:
            leaves.add(id(node.variable))
            continue
        stack.extend((c, nr) for c, nr in node.next_functions if c is not None)
    return reached, leaves


class TorchBackend(Backend):
    """Adapter for `torch` tensors."""

    name = "torch"
    framework = "torch"
    capabilities = Capabilities(
        max_order=None,
        native_batched=True,
        backward_create_graph=True,
        leaf_hooks_in_grad=True,
        float16_cpu=True,
        functional=True,
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

    def _check_devices(self, outputs: tuple[Any, ...], seeds: tuple[Any, ...]) -> None:
        for i, (y, s) in enumerate(zip(outputs, seeds, strict=True)):
            if s is not None and s.device != y.device:
                msg = message(
                    f"grad_outputs[{i}] is on another device",
                    expected=f"a seed on the output's device, {y.device}",
                    got=f"a seed on {s.device}",
                    fix=f"Move the seed first: seed.to({str(y.device)!r}).",
                )
                raise GradOutputsError(msg)

    def _seeds(self, outputs: tuple[Any, ...], seeds: tuple[Any, ...]) -> tuple[Any, ...]:
        # torch fills ones itself only for one-element outputs
        if all(s is not None or y.numel() == 1 for y, s in zip(outputs, seeds, strict=True)):
            return seeds
        return tuple(
            torch.ones_like(y) if s is None else s for y, s in zip(outputs, seeds, strict=True)
        )

    def grad(self, request: GradRequest) -> list[Any | None]:
        outputs, inputs = request.outputs, request.inputs
        seeds = request.seeds
        for s in seeds:  # (a loop: any(<genexpr>) costs more, on every call)
            if s is not None:
                self._check_devices(outputs, seeds)
                break
        runs = _plan(outputs, inputs) if not request.retain_graph else None
        if runs is None:
            _check_unconsumed(outputs, inputs)
        handles = []
        unreached: list[int] = []
        if request.no_grad_vars:
            cut_ids = {id(v) for v in request.no_grad_vars}
            cuts = {(v.grad_fn, v.output_nr) for v in request.no_grad_vars if v.grad_fn is not None}
            edges, leaves = _reachable(outputs, cuts)
            unreached = [
                i
                for i, x in enumerate(inputs)
                if id(x) in cut_ids
                or (x.grad_fn is None and id(x) not in leaves)
                or (x.grad_fn is not None and (x.grad_fn, x.output_nr) not in edges)
            ]
            handles = [
                v.register_hook(_zero_grad)
                for v in request.no_grad_vars
                if v.grad_fn is not None and v.requires_grad
            ]
        try:
            if _run_backward is None or request.batched or _has_torch_function(outputs + inputs):
                result = torch.autograd.grad(
                    outputs,
                    inputs,
                    self._seeds(outputs, seeds),
                    retain_graph=request.retain_graph,
                    create_graph=request.create_graph,
                    allow_unused=True,
                    is_grads_batched=request.batched,
                )
            else:
                result = _run_backward(
                    outputs,
                    tuple(
                        torch.ones_like(y, memory_format=torch.preserve_format) if s is None else s
                        for y, s in zip(outputs, seeds, strict=True)
                    ),
                    request.retain_graph,
                    request.create_graph,
                    inputs,
                    True,
                    accumulate_grad=False,
                )
        except RuntimeError as err:
            raise _translate(err) from err
        finally:
            for h in handles:
                h.remove()
        if runs is not None:
            _consume(runs)
        grads = list(result)
        for i in unreached:
            grads[i] = None
        return grads

    def backward(self, request: BackwardRequest) -> None:
        self._check_devices(request.outputs, request.seeds)
        runs = _plan(request.outputs, request.inputs)
        seeds = self._seeds(request.outputs, request.seeds)
        try:
            torch.autograd.backward(
                request.outputs,
                seeds,
                retain_graph=request.retain_graph,
                create_graph=request.create_graph,
                inputs=request.inputs,
            )
        except RuntimeError as err:
            raise _translate(err) from err
        if not request.retain_graph:
            _consume(runs)

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
        if x.is_inference() and not torch.is_inference_mode_enabled():
            msg = message(
                "an inference-mode tensor cannot require grad",
                expected="a tensor made outside torch.inference_mode()",
                got="a tensor made under torch.inference_mode()",
                fix="Clone it outside inference mode first: unigrad.watch(x.clone()), or "
                "make it under torch.no_grad() instead.",
            )
            raise NotDifferentiableError(msg)
        if not x.requires_grad:
            x.requires_grad_(True)
        return x

    def to_numpy(self, x: Any) -> Any:
        x = x.detach()
        if x.dtype is torch.bfloat16:  # NumPy has no bfloat16: float32 holds it exactly
            x = x.float()
        return x.cpu().resolve_conj().resolve_neg().numpy()

    def namespace(self) -> Any:
        try:
            import array_api_compat.torch as xp
        except ImportError:  # pragma: no cover - array-api-compat is a dependency of the extra
            return torch
        return xp


BACKEND = TorchBackend()
