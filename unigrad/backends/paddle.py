"""The paddle backend: ``paddle.grad`` held to unigrad's contract.

paddle.grad differs from the contract in ways this adapter closes:

* it never frees its graph: after ``retain_graph=False`` every node the pass ran gets a
  post-hook that raises, and paddle's wrapped error becomes `GraphFreedError`;
* it has no ``is_grads_batched``: the batch is a loop over seeds with the graph
  retained, stacked (differentiably under ``create_graph``);
* its argument checks are ``assert`` statements (gone under ``python -O``) and it never
  checks a seed's shape: the front checks everything before paddle sees it;
* duplicates are merged by the front; errors are mapped to unigrad's classes;
* paddle 3.3's ``Tensor.grad_fn`` returns its node with one reference too many, so
  each read would keep the whole graph behind it alive for ever (about 20 kB per call
  on a small MLP): nodes are read through `_grad_fn`, which gives the extra
  reference back where a probe at import shows it is there;
* paddle's engine is not thread-safe (two threads in backward crash the process):
  every backward pass runs under one re-entrant lock, so a hook or a nested call that
  runs ``grad`` on the same thread proceeds.
"""

from __future__ import annotations

import ctypes
import re
import sys
import threading
from collections.abc import Callable
from typing import Any

import paddle
from paddle.base.dygraph.base import in_to_static_mode as _in_to_static

from .._errors import (
    GraphFreedError,
    HigherOrderUnavailableError,
    InplaceModifiedError,
    NotDifferentiableError,
    UnsupportedDtypeError,
    UnsupportedFeatureError,
    message,
)
from . import _graph
from ._base import Backend, BackwardRequest, Capabilities, GradRequest, Kind

__all__ = ["BACKEND", "PaddleBackend"]

_core: Any = paddle.base.core

_SENTINEL = "unigrad: graph consumed"
_FREED_MESSAGE = message(
    "the graph was consumed",
    expected="a graph that was not differentiated with retain_graph=False",
    got="a second differentiation through nodes already used",
    fix="Pass retain_graph=True to the earlier grad/backward call that used this graph, "
    "or recompute the forward pass.",
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


def _zero_grad(g: Any) -> Any:
    return paddle.zeros_like(g)


#: Serialises paddle's backward passes (its engine crashes when two threads run one).
#: Re-entrant: a tensor hook or a nested ``unigrad.grad`` runs on the thread that holds it.
ENGINE_LOCK = threading.RLock()

#: Per thread: whether paddle.grad is running (a hook may call back into unigrad).
_THREAD = threading.local()
_NESTED_MESSAGE = message(
    "paddle cannot run grad inside another grad",
    expected="unigrad.grad on paddle tensors outside a running paddle gradient pass",
    got="a call from a tensor hook while paddle.grad runs on this thread (paddle's "
    "engine crashes or hangs there)",
    fix="Compute it after the outer call returns, or use unigrad.backward (without "
    "inputs=) inside the hook, which paddle supports.",
)

_py_decref: Any = ctypes.pythonapi.Py_DecRef
_py_decref.argtypes = [ctypes.py_object]
_py_decref.restype = None


def _extra_grad_fn_refs() -> int:
    """How many references one read of ``Tensor.grad_fn`` leaks (1 on paddle 3.3).

    Measured on a throw-away graph rather than assumed, so that a paddle which fixes
    its ``ToPyObject(GradNodeBase)`` gets no decrement (a wrong one would free a live
    object). Anything but 0 or 1 is not understood and left alone.
    """
    with paddle.set_grad_enabled(True):
        x = paddle.to_tensor([1.0], stop_gradient=False)
        y = x * 2.0
    node = y.grad_fn
    if node is None:
        return 0
    before = sys.getrefcount(node)
    again = y.grad_fn
    extra = sys.getrefcount(node) - before - 1
    del again
    if extra != 1:
        return 0
    _py_decref(node)  # give back what the two probe reads leaked
    _py_decref(node)
    return 1


_LEAKED_REFS = _extra_grad_fn_refs()


def _grad_fn(t: Any) -> Any:
    """``t.grad_fn`` without paddle's leaked reference (see the module docstring)."""
    node = t.grad_fn
    if node is not None and _LEAKED_REFS:
        _py_decref(node)
    return node


def _reachable(outputs: tuple[Any, ...], cuts: set[Any]) -> set[Any]:
    """Nodes reachable from the outputs without entering a cut node.

    paddle exposes nodes, not (node, slot) edges: a cut on one output of a multi-output
    op (split, unbind) also blocks its other outputs here.
    """
    seen: set[Any] = set()
    stack = [_grad_fn(y) for y in outputs]
    while stack:
        node = stack.pop()
        if node is None or node in seen or node in cuts:
            continue
        seen.add(node)
        stack.extend(node.next_functions)
    return seen


_has_grad: Callable[[], bool] = _core._has_grad
_set_has_grad: Callable[[bool], None] = _core._set_has_grad


def _engine() -> Callable[..., list[Any]] | None:
    """paddle's engine entry point behind ``paddle.grad``, where its signature is known.

    ``paddle.grad`` spends ~5 us per call re-checking its arguments with ``assert``
    statements (the front has checked them all) before it calls
    ``core.eager.run_partial_grad``. Its arguments have been (outputs, inputs,
    grad_outputs, retain_graph, create_graph, only_inputs, allow_unused, no_grad_vars,
    dump_backward_graph_path) throughout paddle 3.x; any other version, or a missing
    function, keeps the public ``paddle.grad``.
    """
    fn = getattr(_core.eager, "run_partial_grad", None)
    major = str(paddle.__version__).split(".", 1)[0]
    return fn if callable(fn) and major == "3" else None


_RUN_PARTIAL_GRAD = _engine()


def _paddle_grad(
    outputs: list[Any], inputs: list[Any], seeds: list[Any], retain: bool, create: bool
) -> list[Any]:
    """``paddle.grad(..., allow_unused=True)``, through the engine when it is safe."""
    if _RUN_PARTIAL_GRAD is None or _in_to_static():
        result: list[Any] = paddle.grad(
            outputs, inputs, seeds, retain_graph=retain, create_graph=create, allow_unused=True
        )
        return result
    return _RUN_PARTIAL_GRAD(outputs, inputs, seeds, retain, create, True, True, [], None)


def _freed_hook(*_: Any) -> None:
    raise RuntimeError(_SENTINEL)


def _children(node: Any) -> list[Any]:
    return [c for c in node.next_functions if c is not None]


def _is_leaf_node(node: Any) -> bool:
    return bool(node.name() == "GradNodeAccumulation")


def _mark_executed(roots: list[Any], targets: set[Any], leaves: set[Any]) -> None:
    """Give a raising post-hook to every node a pass from ``roots`` to ``targets`` ran.

    A node runs when one of its children is a target or runs; a target is reached
    without running it. `unigrad.backends._graph.executed` answers the same
    question generically; this walk is specialised for paddle, where a node's
    ``next_functions`` builds a fresh list of wrappers (~0.5 us) and a hook costs about
    as much, so that the Python around them matters: one walk down records each node's
    parents, then one walk up from the targets collects the nodes that ran.
    ``leaves`` are targets known to be accumulation nodes (the inputs that are leaves):
    their empty ``next_functions`` is not read. A node with no children (a leaf's
    ``GradNodeAccumulation``) never runs, so leaves, which graphs share, are never
    marked. Post-hooks live as long as the C++ node; the remove-helper each
    registration returns is dropped at once. Iterative: long chains do not hit the
    recursion limit.
    """
    parents: dict[Any, list[Any]] = {r: [] for r in roots}
    stack = list(parents)
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        for c in node.next_functions:
            if c is None:
                continue
            ps = parents.get(c)
            if ps is None:
                parents[c] = [node]
                if c not in leaves:
                    push(c)
            else:
                ps.append(node)
    ran: set[Any] = set()
    up = [t for t in targets if t in parents]
    while up:
        for p in parents[up.pop()]:
            if p not in ran:
                ran.add(p)
                up.append(p)
    for node in ran:
        node._register_post_hook(_freed_hook)


def _translate(err: BaseException) -> BaseException:
    text = str(err)
    if _SENTINEL in text or "TensorWrappers" in text or "backward twice" in text:
        return GraphFreedError(_FREED_MESSAGE)
    if "(Unavailable)" in text and "grad op" in text:
        op = re.search(r"The Op (\w+) doesn't have any grad op", text)
        name = op.group(1) if op else "an op"
        msg = message(
            f"paddle has no kernel for this derivative ({name})",
            expected="an op with a gradient kernel of the requested order",
            got=f"{name}, which paddle cannot differentiate once more",
            fix="Pass create_graph=False on the last differentiation, or rewrite the op "
            "in terms of ops paddle differentiates further (e.g. x*x*x for x**3).",
        )
        return HigherOrderUnavailableError(msg)
    if "inplace" in text and ("PermissionDenied" in text or "version" in text):
        msg = message(
            "a tensor saved for backward was modified in place",
            expected="saved tensors unchanged between the forward and the gradient",
            got="an in-place change after the forward pass",
            fix="Use the out-of-place op (x = x + 1), or clone before modifying.",
        )
        return InplaceModifiedError(f"{msg}\npaddle said: {text.splitlines()[0]}")
    if ("(NotFound)" in text and "is not registered" in text) or (
        "(Unimplemented)" in text and "data type" in text
    ):
        msg = message(
            "paddle has no gradient kernel for this dtype here",
            expected="a dtype paddle differentiates on this device (float32/float64)",
            got=text.splitlines()[0][:200],
            fix="Compute in float32 or float64 on CPU.",
        )
        return UnsupportedDtypeError(msg)
    return err


class PaddleBackend(Backend):
    """Adapter for `paddle` tensors (dynamic graph mode)."""

    name = "paddle"
    framework = "paddle"
    capabilities = Capabilities(
        max_order=2,
        native_batched=False,
        backward_create_graph=False,
        leaf_hooks_in_grad=False,
        float16_cpu=False,
        functional=True,
    )

    def owns(self, cls: type) -> bool:
        return issubclass(cls, paddle.Tensor)

    def versions(self) -> dict[str, str]:
        return {"paddle": str(paddle.__version__)}

    def kind(self, x: Any) -> Kind:
        return _kind_of(x.dtype)

    def shape(self, x: Any) -> tuple[int, ...]:
        return tuple(x.shape)

    def same_dtype(self, a: Any, b: Any) -> bool:
        return bool(a.dtype == b.dtype)

    def dtype_name(self, x: Any) -> str:
        return str(x.dtype).removeprefix("paddle.")

    def requires_grad(self, x: Any) -> bool:
        return not x.stop_gradient

    def cast(self, x: Any, like: Any) -> Any:
        return x.astype(like.dtype)

    def asarray(self, data: Any, dtype: str) -> Any:
        import numpy as np

        return paddle.to_tensor(np.asarray(data, dtype=dtype))

    def ones_like(self, x: Any) -> Any:
        return paddle.ones_like(x)

    def zeros_like(self, x: Any, batch: int | None = None) -> Any:
        if batch is None:
            return paddle.zeros_like(x)
        return paddle.zeros([batch, *x.shape], dtype=x.dtype)

    def add(self, a: Any, b: Any) -> Any:
        return a + b

    def _call(
        self,
        outputs: tuple[Any, ...],
        inputs: tuple[Any, ...],
        seeds: list[Any],
        retain: bool,
        create: bool,
    ) -> list[Any]:
        state = _THREAD.__dict__  # this thread's; getattr on a local costs ~0.5 us
        if state.get("in_grad"):
            # paddle.grad inside paddle.grad (from a tensor hook) crashes or hangs
            state["nested"] = err = UnsupportedFeatureError(_NESTED_MESSAGE)
            raise err
        grad_mode = _has_grad()
        state["in_grad"] = True
        try:
            return _paddle_grad(list(outputs), list(inputs), seeds, retain, create)
        except Exception as err:
            # paddle's engine leaves grad mode off when a node raises: restore it
            _set_has_grad(grad_mode)
            nested, state["nested"] = state.get("nested"), None
            new = nested or _translate(err)
            if new is err:
                raise
            raise new from err
        finally:
            state["in_grad"] = False

    def grad(self, request: GradRequest) -> list[Any | None]:
        with ENGINE_LOCK:
            return self._grad(request)

    def _grad(self, request: GradRequest) -> list[Any | None]:
        if request.no_grad_vars:
            return self._grad_cut(request)
        grads: list[Any | None] = self._grads(request, request.inputs)
        if not request.retain_graph:
            self._consume(request.outputs, request.inputs)
        return grads

    def _grad_cut(self, request: GradRequest) -> list[Any | None]:
        """``grad`` with ``no_grad_vars``.

        paddle's own ``no_grad_vars`` segfaults when a cut feeds a scale op, and when an
        input is itself cut: cut with zeroing hooks, decide reachability here.
        """
        inputs = request.inputs
        cuts = [v for v in request.no_grad_vars if not v.stop_gradient]
        cut_ids = {id(v) for v in request.no_grad_vars}
        reached = _reachable(request.outputs, {_grad_fn(v) for v in cuts})
        keep = [i for i, x in enumerate(inputs) if id(x) not in cut_ids and _grad_fn(x) in reached]
        grads: list[Any | None] = [None] * len(inputs)
        if not keep:
            return grads
        used = tuple(inputs[i] for i in keep)
        handles = [v.register_hook(_zero_grad) for v in cuts if not _is_leaf_node(_grad_fn(v))]
        try:
            computed = self._grads(request, used)
        finally:
            for h in handles:
                h.remove()
        for i, g in zip(keep, computed, strict=True):
            grads[i] = g
        if not request.retain_graph:
            self._consume(request.outputs, used)
        return grads

    def _grads(self, request: GradRequest, inputs: tuple[Any, ...]) -> list[Any]:
        grad_mode = _has_grad()
        if request.create_graph and not grad_mode:
            # torch's engine records the gradient's graph even under no_grad; paddle's
            # would return a tensor with no history: turn grad mode on
            _set_has_grad(True)
            try:
                return self._grads(request, inputs)
            finally:
                _set_has_grad(grad_mode)
        seeds = list(request.seeds)
        if not request.batched:
            return self._call(
                request.outputs, inputs, seeds, request.retain_graph, request.create_graph
            )
        batch = next(s.shape[0] for s in seeds if s is not None)
        rows = [
            self._call(request.outputs, inputs, [s[b] for s in seeds], True, request.create_graph)
            for b in range(batch)
        ]
        return [
            None if rows[0][i] is None else paddle.stack([r[i] for r in rows])
            for i in range(len(inputs))
        ]

    def _consume(self, outputs: tuple[Any, ...], inputs: tuple[Any, ...] | None) -> None:
        roots = [r for r in (_grad_fn(y) for y in outputs) if r is not None]
        if inputs is not None:
            targets: set[Any] = set()
            leaves: set[Any] = set()
            for x in inputs:
                node = _grad_fn(x)
                if node is not None:
                    targets.add(node)
                    if x.is_leaf:
                        leaves.add(node)
            _mark_executed(roots, targets, leaves)
            return
        # every leaf is a target (backward into .grad)
        for node in _graph.executed(roots, _children, _is_leaf_node, _is_leaf_node):
            node._register_post_hook(_freed_hook)

    def backward(self, request: BackwardRequest) -> None:
        with ENGINE_LOCK:
            self._backward(request)

    def _backward(self, request: BackwardRequest) -> None:
        seeds = list(request.seeds)
        if request.inputs is not None:
            with paddle.set_grad_enabled(request.create_graph or _has_grad()):
                grads = self._call(
                    request.outputs,
                    request.inputs,
                    seeds,
                    request.retain_graph,
                    request.create_graph,
                )
                for x, g in zip(request.inputs, grads, strict=True):
                    if g is not None:
                        x.grad = g if x.grad is None else x.grad + g
        else:
            if request.create_graph:
                msg = message(
                    "paddle's backward cannot build a differentiable graph",
                    expected="backward(create_graph=True) with `inputs` on paddle",
                    got="inputs=None",
                    fix="Pass inputs=[...] (the leaves to accumulate into), or use "
                    "unigrad.grad(create_graph=True).",
                )
                raise UnsupportedFeatureError(msg)
            grad_mode = _has_grad()
            try:
                paddle.autograd.backward(
                    list(request.outputs), seeds, retain_graph=request.retain_graph
                )
            except Exception as err:
                _set_has_grad(grad_mode)
                new = _translate(err)
                if new is err:
                    raise
                raise new from err
        if not request.retain_graph:
            self._consume(request.outputs, request.inputs)

    def watch(self, x: Any) -> Any:
        if not isinstance(x, paddle.Tensor):
            msg = message(
                "watch() needs a tensor",
                expected="a paddle.Tensor",
                got=type(x).__name__,
                fix="Convert the value with paddle.to_tensor first.",
            )
            raise NotDifferentiableError(msg)
        if _kind_of(x.dtype) not in "fc":
            msg = message(
                "only floating-point and complex tensors can require grad",
                expected="a float or complex tensor",
                got=f"dtype {self.dtype_name(x)}",
                fix="Cast it first, e.g. x.astype('float32').",
            )
            raise NotDifferentiableError(msg)
        if x.dtype == paddle.float16 and x.place.is_cpu_place():
            msg = message(
                "paddle has no float16 kernels on CPU",
                expected="a float32/float64 tensor on CPU (float16 works on GPU)",
                got="a float16 tensor on CPU, on which even x + x fails in paddle",
                fix="Compute in float32 (x.astype('float32')) and cast the result.",
            )
            raise UnsupportedDtypeError(msg)
        x.stop_gradient = False
        return x

    def to_numpy(self, x: Any) -> Any:
        if x.dtype == paddle.bfloat16:  # .numpy() gives the raw bits as uint16
            return x.astype(paddle.float32).numpy()
        return x.numpy()

    def namespace(self) -> Any:
        from .._array_api import _paddle

        return _paddle


BACKEND = PaddleBackend()
