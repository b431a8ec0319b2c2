"""The paddle backend: ``paddle.grad`` held to unigrad's contract.

paddle.grad differs from the contract in ways this adapter closes:

* it never frees its graph: after ``retain_graph=False`` every node the pass ran gets a
  post-hook that raises (except in a pass that reaches it only through a
  ``create_graph`` result of the consuming pass, rule 15), and paddle's wrapped error
  becomes `GraphFreedError`;
* it has no ``is_grads_batched``: the batch is a loop over seeds with the graph
  retained, stacked (differentiably under ``create_graph``);
* its argument checks are ``assert`` statements (gone under ``python -O``) and it never
  checks a seed's shape: the front checks everything before paddle sees it;
* duplicates are merged by the front; errors are mapped to unigrad's classes;
* paddle 3.3's ``Tensor.grad_fn`` returns its node with one reference too many, so
  each read would keep the whole graph behind it alive for ever (about 20 kB per call
  on a small MLP): nodes are read through `_grad_fn`, which gives the extra
  reference back where a probe at import shows it is there; likewise its engine keeps
  a reference to what a node's post-hook returns (the gradients, never freed: 40 MB
  per 1 000 steps of a loop that differentiates a consuming pass's ``create_graph``
  result), given back by `_handed`;
* paddle's engine is not thread-safe (two threads in backward crash the process):
  every backward pass runs under one re-entrant lock, so a hook or a nested call that
  runs ``grad`` on the same thread proceeds;
* its engine logs a glog warning (``W... backward.cc] While running Node (...) raises
  an EnforceNotMet exception``) to stderr before it raises from a node: the errors
  unigrad translates (a consumed graph, a missing higher-order kernel, an in-place
  change) would print it before unigrad's own message, so glog's warnings are off
  while unigrad runs paddle's passes (`_quiet_glog`).
"""

from __future__ import annotations

import ctypes
import functools
import os
import re
import sys
import threading
import weakref
from collections.abc import Callable, Sequence
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
from . import _carried, _graph
from ._ambiguous import BETWEEN, Record, ambiguous, refuse
from ._base import (
    Backend,
    BackwardRequest,
    Capabilities,
    GradRequest,
    Kind,
    constant_output_message,
)
from ._paddle_deps import CUT_NODES, edges, recorded, seed_copies, structure
from ._paddle_nodes import forgetter, hold, peek, peek_name
from ._paddle_nodes import name as _name
from ._slices import refuse_full_slice

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

#: Grad nodes whose complex kernels paddle computes wrongly: node name -> op.
_WRONG_COMPLEX_KERNELS = {
    "TanhDoubleGradNode": "tanh",
    "TanhTripleGradNode": "tanh",
    # complex abs: the double-grad node has no edge to x, so d/dx of |z|'s gradient
    # comes out as nothing (zeros) where torch gives conj(g) (1/|z| - ...) != 0
    "AbsDoubleGradNode": "abs",
}

#: Nodes a create_graph result's structure is not pruned through: its graph is refused
#: later (`PaddleBackend._refuse_wrong_kernels`), as paddle built it.
_STOP_STRUCTURE = frozenset(_WRONG_COMPLEX_KERNELS)

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


def _zero_grad(g: Any) -> Any:
    """A cut's gradient (zeros). In a ``create_graph`` pass (``g`` requires grad) the
    zeros are a private leaf that requires grad: the double-grad nodes paddle 3.3 builds
    behind the cut take them as an input and fail in a later pass when it is a constant
    ("The current MetaTensor is not initialized" from ``ReluDoubleGradNode``, paddle's
    own ``test_example_with_gradient_accumulation_and_no_grad_vars`` through unigrad;
    the same class as PaddlePaddle/Paddle#44252's empty grads)."""
    z = paddle.zeros_like(g)
    if not g.stop_gradient:
        z.stop_gradient = False
    return z


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


def _extra_hook_result_refs() -> int:
    """How many references paddle's engine keeps of what a node's post-hook returns (1
    on paddle 3.3: the list, and with it the gradients it holds, is never freed; about
    a gradient's size per hook run, 40 MB per 1 000 steps of a loop whose second-order
    pass crosses a consuming ``create_graph`` pass's gradient graph).

    Measured on a throw-away graph, as `_extra_grad_fn_refs` is: anything but 0 or 1 is
    not understood and left alone.
    """
    kept: list[list[Any]] = []

    def hook(*args: Any) -> Any:
        kept.append(list(args[0]))
        return kept[-1]

    with paddle.set_grad_enabled(True):
        x = paddle.to_tensor([1.0], stop_gradient=False)
        y = x * 2.0
        z = y * 3.0
    node = _grad_fn(y)
    if node is None:
        return 0
    node._register_post_hook(hook)
    # backward, not paddle.grad: this runs where the backend is first loaded, possibly
    # in a tensor hook while paddle.grad runs, where a nested paddle.grad crashes
    z.backward()
    if len(kept) != 1:
        return 0
    returned = kept.pop()
    # 2: this name's reference and getrefcount's argument
    extra = sys.getrefcount(returned) - 2
    if extra != 1:
        return 0
    _py_decref(returned)  # give back what the probe's hook leaked
    return 1


def _reachable(outputs: tuple[Any, ...], cuts: set[Any]) -> set[Any]:
    """Nodes reachable from the outputs without entering a cut node (a
    ``no_grad_vars`` tensor's) nor going past a node of `CUT_NODES`.

    paddle exposes nodes, not (node, slot) edges: a cut on one output of a multi-output
    op (split, unbind) also blocks its other outputs here.
    """
    hold(outputs)
    seen: set[Any] = set()
    stack = [_grad_fn(y) for y in outputs]
    while stack:
        node = stack.pop()
        if node is None or node in seen or node in cuts:
            continue
        seen.add(node)
        if _name(node) in CUT_NODES:  # its derivative is identically zero (rule 14)
            continue
        stack.extend(edges(node))  # a recorded result: its roots
    return seen


def _cuts_dependence(outputs: tuple[Any, ...], keep: bool) -> bool:
    """Whether the outputs' graph holds a node of `CUT_NODES` (rule 14). With ``keep``
    False (a consuming call's walk) what it reads stays out of the memo."""
    if keep:
        hold(outputs)
    read_name = _name if keep else peek_name
    seen: set[Any] = set()
    stack = [_grad_fn(y) for y in outputs]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if read_name(node) in CUT_NODES:
            return True
        stack.extend(edges(node, keep))
    return False


def _refuse_constant_outputs(outputs: tuple[Any, ...], keep: bool) -> None:
    """`NotDifferentiableError` for an output that reaches no leaf but through a node of
    `CUT_NODES` (rule 14: paddle's ``sign(x)`` requires grad, but depends on nothing)."""
    for i, y in enumerate(outputs):
        node = _grad_fn(y)
        if node is not None and not _reaches_leaf(node, keep):
            raise NotDifferentiableError(constant_output_message(i))


def _reaches_leaf(node: Any, keep: bool) -> bool:
    """Whether ``node`` reaches a leaf other than through a node of `CUT_NODES` (stops
    at the first; ``keep`` False: what it reads stays out of the memo)."""
    read_name = _name if keep else peek_name
    seen: set[Any] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        name = read_name(n)
        if name == "GradNodeAccumulation":
            return True
        if name not in CUT_NODES:
            stack.extend(edges(n, keep))
    return False


_has_grad: Callable[[], bool] = _core._has_grad
_set_has_grad: Callable[[bool], None] = _core._set_has_grad


class _Pass(threading.local):
    """What the running pass may go through: None (nothing consumed), or the pointers
    of the nodes it reaches without entering a gradient graph (see ``_plain``)."""

    plain: set[int] | None = None
    #: What this thread's post-hooks returned while paddle keeps a reference to it
    #: (see `_handed`).
    returned: list[Any]
    #: The running grad's (outputs, inputs); None outside unigrad's grad passes.
    call: tuple[tuple[Any, ...], tuple[Any, ...]] | None = None

    def __init__(self) -> None:
        self.returned = []


_PASS = _Pass()
_LEAKED_HOOK_REFS = _extra_hook_result_refs()


def _handed(grads: Any) -> Any:
    """``grads``, to be returned by a post-hook, with paddle's extra reference to it
    (`_extra_hook_result_refs`) given back once paddle has read it: the engine converts
    a hook's result as soon as the hook returns, so the reference is dropped at this
    thread's next hook run or at the end of unigrad's pass (`_give_back`)."""
    if _LEAKED_HOOK_REFS:
        returned = _PASS.returned
        if returned:
            _give_back(returned)
        returned.append(grads)
    return grads


def _give_back(returned: list[Any]) -> None:
    while returned:
        _py_decref(returned[-1])  # paddle's reference; then the list's, by pop()
        returned.pop()


#: Nodes made by ``create_graph=True`` passes that consumed their graph: pointer -> a
#: marker, an identity post-hook registered on that node alone. The node holds the
#: only other reference to its marker, so a marker the registry alone holds belongs
#: to a freed node, whose address a new node may reuse: such a pointer is not a
#: gradient graph's (`_in_grad_graph`). A stale pointer would let a later pass through
#: a consumed node that must raise (the long differential run found it).
_GRAD_GRAPH: dict[int, Callable[..., Any]] = {}


#: paddle's nodes whose forward op takes a list of tensors in one argument: their
#: gradient slot holds several tensors, which a post-hook cannot hand back (paddle 3.3
#: converts a hook's result to one tensor per slot: a raw ``TypeError``, or a crash
#: when the list is flattened). No gradient-graph marker goes on them (`_mark_grad_graph`),
#: and a consumed one refuses to pass gradients on (`_pass_on`).
_MULTI_SLOT = frozenset(
    {
        "AddNGradNodeFinal",
        "BroadcastTensorsGradNode",
        "ConcatGradNode",
        "EinsumGradNode",
        "MeshgridGradNode",
        "MultiDotGradNode",
        "StackGradNode",
    }
)

_MULTI_SLOT_MESSAGE = message(
    "paddle cannot pass gradients on through this consumed node",
    expected="a pass that runs through a node consumed by an earlier retain_graph=False "
    "pass only where the contract allows it (a create_graph result's own graph, or a "
    "branch that leads to no input), through nodes whose gradients paddle lets a hook "
    "hand on",
    got="a node of an op that takes a list of tensors (stack, concat, add_n, einsum, "
    "multi_dot), whose gradients a hook cannot hand on in paddle 3.3",
    fix="Pass retain_graph=True to the earlier call that consumed the graph.",
)


def _pass_on(grads: Any) -> Any:
    """What a post-hook returns to let the node's gradients pass unchanged, or a clean
    refusal where paddle cannot take them back (a slot of several tensors: a list where
    a slot of one is the tensor itself)."""
    for slot in grads:
        if type(slot) is list:
            _THREAD.__dict__["nested"] = err = UnsupportedFeatureError(_MULTI_SLOT_MESSAGE)
            raise err
    return _handed(grads)


def _pass_through(*args: Any) -> Any:
    return _pass_on(args[0])


def _in_grad_graph(ptr: int) -> bool:
    marker = _GRAD_GRAPH.get(ptr)
    # 3: the registry's reference, this name's and getrefcount's argument
    return marker is not None and sys.getrefcount(marker) > 3


def _freed_hook(ptr: int, *args: Any) -> Any:
    """The post-hook of a consumed node: raise, unless the running pass reaches the node
    only through a gradient graph (a create_graph result of the consuming pass, which
    stays differentiable: rule 15), where the node's gradients pass unchanged."""
    plain = _PASS.plain
    if (plain is None or ptr in plain) and not _leads_nowhere(ptr):
        raise RuntimeError(_SENTINEL)
    return _pass_on(args[0])


def _leads_nowhere(ptr: int) -> bool:
    """Whether the consumed node ``ptr``, run by unigrad's grad, leads to none of its
    inputs. paddle's engine runs some branches that reach no input (a leaf that requires
    grad but was not asked for), where torch's runs only what leads to the inputs: a
    consumed node there is not the pass's (its gradients are dropped), and the contract
    answers; nor is one the outputs reach, or that reaches the inputs, only through a
    node of `CUT_NODES` (rule 14: paddle runs ``sign``'s branch, zeroed). Walked only
    when a consumed node runs; outside unigrad's grad, False."""
    call = _PASS.call
    if call is None:
        return False
    outputs, inputs = call
    wanted = {n.node_ptr() for n in map(_grad_fn, inputs) if n is not None}
    found = None
    seen: set[int] = set()
    stack = [_grad_fn(y) for y in outputs]
    while stack:
        node = stack.pop()
        if node is None or (p := node.node_ptr()) in seen:
            continue
        if p == ptr:
            found = node
            break
        seen.add(p)
        if node.name() not in CUT_NODES:
            stack.extend(node.next_functions)
    if found is None:
        # reached only through a cut (rule 14: sign(v) of a consumed v): the
        # contract's pass does not run it (differential seed 11, program 4642)
        return True
    seen.clear()
    stack = [found]
    while stack:
        node = stack.pop()
        if node is None or (p := node.node_ptr()) in seen:
            continue
        if p in wanted:
            return False
        seen.add(p)
        if node.name() not in CUT_NODES:
            stack.extend(node.next_functions)
    return True


#: ``node_ptr -> the post-hook for that node``. The registry holds a reference to each
#: hook so that a node is never the last owner of one: paddle's engine destroys nodes
#: (those its ``GeneralGrad`` cache kept from the previous pass) with the GIL released,
#: and freeing a Python object there aborts the process ("PyThreadState_Get: ... the
#: GIL is released"). A hook only carries its node's pointer, so a node that reuses
#: the address reuses the hook. Hooks whose nodes are gone (the registry holds the only
#: reference) are freed, with the GIL held, before each consuming pass marks its nodes.
_FREED_HOOKS: dict[int, Callable[..., Any]] = {}


#: The size of `_FREED_HOOKS` after its last sweep. Entries are only added by marking
#: and only removed by a sweep. While the registry has not grown since, every node
#: marked since reused a hook already there (a node at a freed node's address: a hook
#: carries only its pointer), so no hook was created and the sweep (which reads every
#: hook of every live graph) is skipped: a dead hook stays a while longer, harmless,
#: and live objects do not grow. When it has grown, it is swept as before.
_swept_size = 0


#: ``node_ptr -> the stamp of the pass that consumed it`` (rule 6,
#: `unigrad.backends._carried`); an entry counts while the node holds its freed hook
#: (`_consumed_at`), and goes with the hook.
_CONSUMED_AT: dict[int, int] = {}


def _stamp(nodes: Any) -> None:
    stamp = _carried.consume_epoch()
    for node in nodes:
        _CONSUMED_AT[node.node_ptr()] = stamp


def _consumed_at(ptr: int) -> int:
    hook = _FREED_HOOKS.get(ptr)
    # 3: the registry's reference, this name's and getrefcount's argument: no node
    # holds it (a dead node's hook, not swept yet, at an address a new node reuses)
    if hook is None or sys.getrefcount(hook) <= 3:
        return 0
    stamp = _CONSUMED_AT.get(ptr, 0)
    if stamp:
        # the holder may be a copy paddle's engine kept, not the node now at ``ptr``
        _drop_engine_copies()
        if sys.getrefcount(hook) <= 3:
            return 0
    return stamp


def _drop_engine_copies() -> None:
    """Free the node copies paddle's engine keeps from the last ``paddle.grad`` pass.

    paddle 3.3's ``paddle.grad`` (``egr::GeneralGrad``) runs copies of the nodes of its
    partial graph, post-hooks included, and keeps them until the next ``paddle.grad``
    pass clears them. A copy of a consumed node holds the node's freed hook after the
    node itself died, so a new node that reuses the dead node's address looked
    consumed (a false `GraphFreedError`: differential seed 20261123 with the extension
    set drawn, a ``backward`` after a ``grad`` that met a consumed graph). A one-element
    pass clears them; it runs only where a consumed node is found (the error path)."""
    with paddle.set_grad_enabled(True):
        a = paddle.ones([1], dtype="float32")
        a.stop_gradient = False
        paddle.grad([a * a], [a])


def _refuse_consumed_before_backward(outputs: Sequence[Any]) -> None:
    """`GraphFreedError` before a ``backward()`` pass that would meet a consumed node
    outside a gradient graph: paddle's ``backward(retain_graph=False)`` frees each node
    it runs before a later node's freed hook raises, so a refused pass would damage
    nodes a create_graph result's graph still crosses (a list-op node, unmarked by a
    create_graph=True, retain_graph=False call, rule 15)."""
    plain = _PASS.plain
    seen: set[int] = set()
    stack = [n for n in map(_grad_fn, outputs) if n is not None]
    while stack:
        node = stack.pop()
        ptr = node.node_ptr()
        if ptr in seen:
            continue
        seen.add(ptr)
        if (plain is None or ptr in plain) and _consumed_at(ptr):
            raise GraphFreedError(_FREED_MESSAGE)
        stack.extend(_children(node))


def _sweep_hooks() -> None:
    global _swept_size
    getrefcount = sys.getrefcount
    hooks: dict[int, Callable[..., Any]]
    for hooks in (_FREED_HOOKS, _GRAD_GRAPH):
        if not hooks or (hooks is _FREED_HOOKS and len(hooks) <= _swept_size):
            continue
        # 2: the registry's reference and getrefcount's argument: no node holds it
        for p in [p for p in hooks if getrefcount(hooks[p]) <= 2]:
            del hooks[p]
            if hooks is _FREED_HOOKS:
                _CONSUMED_AT.pop(p, None)
        if hooks is _FREED_HOOKS:
            _swept_size = len(hooks)


def _hook_for(node: Any) -> Callable[..., Any]:
    ptr = node.node_ptr()
    hook = _FREED_HOOKS.get(ptr)
    if hook is None:
        hook = _FREED_HOOKS[ptr] = functools.partial(_freed_hook, ptr)
    return hook


def _plain(outputs: Sequence[Any]) -> set[int] | None:
    """Nodes reachable from ``outputs`` without entering a gradient graph, or None when
    the outputs reach none (every consumed node then raises). A no_grad_vars cut is no
    border: the pass runs a cut's branch (zeroed), and a consumed node there raises."""
    if not _GRAD_GRAPH:
        return None
    plain: set[int] = set()
    crossed = False
    stack = [_grad_fn(y) for y in outputs]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        ptr = node.node_ptr()
        if ptr in plain:
            continue
        if ptr in _GRAD_GRAPH and _in_grad_graph(ptr):
            crossed = True
            continue
        plain.add(ptr)
        stack.extend(node.next_functions)
    return plain if crossed else None


def _mark_grad_graph(grads: Sequence[Any], old: set[int]) -> None:
    stack = [_grad_fn(g) for g in grads if g is not None]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        ptr = node.node_ptr()
        if ptr in old or _in_grad_graph(ptr) or _is_leaf_node(node):
            continue  # a leaf (paddle's copy of a seed) never runs, and takes no hook
        if node.name() not in _MULTI_SLOT:  # (the batched results' stack): see there
            marker = _GRAD_GRAPH[ptr] = functools.partial(_pass_through)
            node._register_post_hook(marker)
        stack.extend(node.next_functions)


def _graph_ptrs(outputs: Sequence[Any]) -> set[int]:
    seen: set[int] = set()
    stack = [_grad_fn(y) for y in outputs]
    pop, extend, add = stack.pop, stack.extend, seen.add
    while stack:
        node = pop()
        if node is None:
            continue
        ptr = node.node_ptr()
        if ptr in seen:
            continue
        add(ptr)
        extend(node.next_functions)
    return seen


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


def _glog_minloglevel() -> Any:
    """glog's ``FLAGS_minloglevel`` (a ``ctypes.c_int``) in the library that holds
    paddle's eager engine (``paddle.base.core``, libpaddle.so), or None where it cannot
    be found (another build or platform: the warnings then print, nothing else changes).

    paddle 3.3.1 offers no setting for it after import (``GLOG_minloglevel`` is read
    when glog starts, and ``core.init_gflags`` runs once), and logs from
    ``paddle/fluid/eager/backward.cc`` (line 685) before every error a node raises in
    a pass (no upstream issue about quieting it was found; PaddlePaddle/Paddle#72357
    shows the line printed before an error)."""
    path = getattr(_core, "__file__", None)
    noload = getattr(os, "RTLD_NOLOAD", None)
    if not path or noload is None:
        return None
    try:  # (RTLD_NOLOAD: the handle of the copy Python loaded, never a second one)
        lib = ctypes.CDLL(path, mode=noload)
        return ctypes.c_int.in_dll(lib, "_ZN3fLI17FLAGS_minloglevelE")  # fLI::FLAGS_minloglevel
    except (OSError, ValueError):
        return None


_MINLOGLEVEL = _glog_minloglevel()
_GLOG_ERROR = 2  # glog's severities: INFO 0, WARNING 1, ERROR 2, FATAL 3
#: [depth, saved level]: passes nest on one thread (a hook's grad) and every pass
#: holds ENGINE_LOCK, so no other thread changes them meanwhile
_GLOG = [0, 0]


class _quiet_glog:  # (a context manager, named as one)
    """glog's INFO and WARNING lines off while unigrad runs a paddle pass, whose
    errors it catches and translates; the level is restored when the outermost pass
    ends. Called under ENGINE_LOCK."""

    __slots__ = ()

    def __enter__(self) -> None:
        level = _MINLOGLEVEL
        if level is not None:
            if _GLOG[0] == 0:
                _GLOG[1] = saved = level.value
                if saved < _GLOG_ERROR:
                    level.value = _GLOG_ERROR
            _GLOG[0] += 1

    def __exit__(self, *exc: object) -> None:
        level = _MINLOGLEVEL
        if level is not None:
            _GLOG[0] -= 1
            if _GLOG[0] == 0:
                level.value = _GLOG[1]


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


def _children(node: Any) -> list[Any]:
    return [c for c in node.next_functions if c is not None]


#: Nodes of paddle's view ops. paddle 3.3 returns a wrong gradient for a tensor made by
#: one of them when an input upstream of it is requested in the same pass: it hands back
#: the gradient one node further up (``grad(y, [x, reshape(exp(x))])`` gives the second
#: input ``x``'s gradient). Alone in a pass, the same input gets the right one.
#: ``transpose`` belongs here too: a transpose of a 1 x 1 tensor, requested beside the
#: leaf it comes from, got its source's gradient (the 20 000-program run, seed 1010).
_VIEW_NODES = frozenset(
    {
        "TransposeGradNode",
        "ReshapeGradNode",
        "UnsqueezeGradNode",
        "SqueezeGradNode",
        "FlattenGradNode",
        "ViewShapeGradNode",
    }
)


def _made_by_a_view(x: Any) -> bool:
    node = _grad_fn(x)
    return node is not None and node.name() in _VIEW_NODES


def _is_leaf_node(node: Any) -> bool:
    return bool(node.name() == "GradNodeAccumulation")


def _mark_executed(
    roots: list[Any],
    targets: set[Any],
    leaves: set[Any],
    cuts: frozenset[int] = frozenset(),
    *,
    list_ops: bool = True,
) -> None:
    """Give a raising post-hook to every node a pass from ``roots`` to ``targets`` ran.

    A node runs when one of its children is a target or runs; a target is reached
    without running it. `unigrad.backends._graph.executed` answers the same
    question generically; this walk is specialised for paddle, where reading a node's
    edges costs 0.5 to 1 us (`_paddle_nodes` has what an earlier walk read) and a
    hook costs about as much, so that the Python around them matters: one walk down
    records each node's parents, then one walk up from the targets collects the nodes
    that ran. ``leaves`` are targets known to be accumulation nodes (the inputs that
    are leaves): their empty edges are not read. A node with no children (a leaf's
    ``GradNodeAccumulation``) never runs, so leaves, which graphs share, are never
    marked. Post-hooks live as long as the C++ node; the remove-helper each
    registration returns is dropped at once. Iterative: long chains do not hit the
    recursion limit. (Nodes are keys by identity: paddle gives back the same wrapper
    for a node while one is alive, and the walk holds every node it met.)
    """
    _sweep_hooks()
    if cuts:  # nothing beyond a no_grad_vars cut is the pass's: it stays usable
        roots = [r for r in roots if r.node_ptr() not in cuts]
    parents: dict[Any, list[Any]] = {r: [] for r in roots}
    stack = list(parents)
    pop, push = stack.pop, stack.append
    # a recorded result runs its roots, not paddle's shared node (`edges`); what the
    # memo does not hold yet is read without keeping it (the walk holds no tensor)
    read = functools.partial(edges, keep=False) if recorded() else peek
    while stack:
        node = pop()
        for c in read(node):
            if c is None or (cuts and c.node_ptr() in cuts):
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
    if not list_ops:  # (`PaddleBackend._consume`)
        ran = {n for n in ran if n.name() not in _MULTI_SLOT}
    _stamp(ran)
    hooks = _FREED_HOOKS
    for node in ran:  # `_hook_for`, inlined (once per node run)
        ptr = node.node_ptr()
        hook = hooks.get(ptr)
        if hook is None:
            hook = hooks[ptr] = functools.partial(_freed_hook, ptr)
        node._register_post_hook(hook)


def _translate(err: BaseException) -> BaseException:
    """The contract's error for what paddle's engine raised: the one a hook or PyLayer
    of unigrad raised inside the pass (kept in ``_THREAD``, as paddle wraps it), else
    the class its message names, else ``err`` itself."""
    state = _THREAD.__dict__
    nested, state["nested"] = state.get("nested"), None
    if nested is not None:
        return nested  # type: ignore[no-any-return]
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
            fix="Write the function with unigrad.namespace(x)'s functions, which "
            "differentiate to third order on paddle where a formulation exists (paddle's "
            "tensor operators x**n and a / b do not: use xp.pow and xp.divide); for a "
            "Hessian or an HVP through an op without one (erf, linalg decompositions, "
            "sort, fft), compute that part on another backend or with finite differences "
            "of the gradient; or pass create_graph=False where no further derivative is "
            "taken.",
        )
        return HigherOrderUnavailableError(msg)
    if _MISSING_BASE_GRAD in text:
        msg = message(
            "paddle's second derivative of x ** p needs the gradient with respect to x",
            expected="a pass that also reaches the base of the power (or no pow in it)",
            got="a pass through the gradient of x ** p that does not (PowDoubleGradNode)",
            fix="Write the power as x * x (or unigrad.namespace(x).pow(x, 2)), or keep the "
            "create_graph call's inputs alive for the later pass.",
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


def _alias_key(y: Any) -> tuple[Any, ...]:
    node = _grad_fn(y)
    return (None if node is None else node.node_ptr(), y.data_ptr(), tuple(y.shape))


def _merge_aliases(outputs: tuple[Any, ...], seeds: list[Any]) -> tuple[tuple[Any, ...], list[Any]]:
    """Outputs paddle identifies (a full-range slice shares its source's node and data)
    merged, their seeds summed: they are one tensor to paddle, with the same values and
    graph, so the sum is torch's answer for the two."""
    if len(outputs) < 2:
        return outputs, seeds
    keys = [_alias_key(y) for y in outputs]
    if len(set(keys)) == len(keys):
        return outputs, seeds
    where: dict[tuple[Any, ...], int] = {}
    out: list[Any] = []
    merged: list[Any] = []
    for key, y, s in zip(keys, outputs, seeds, strict=True):
        j = where.get(key)
        if j is None:
            where[key] = len(out)
            out.append(y)
            merged.append(s)
            continue
        prev = merged[j]
        merged[j] = (paddle.ones_like(y) if prev is None else prev) + (
            paddle.ones_like(y) if s is None else s
        )
    return tuple(out), merged


def _copies_of_inputs(outputs: tuple[Any, ...], inputs: tuple[Any, ...]) -> tuple[Any, ...]:
    """``outputs``, with a differentiable copy of each one that is also an input.

    paddle stops at an output that is also an input (its seed is its gradient) and never
    flows on to the inputs upstream of it, nor adds the seed to what other outputs send
    it (a wrong number); torch (the contract) does both.
    """
    if len(inputs) < 2 and len(outputs) < 2:  # grad(x, x): the seed, as paddle gives
        return outputs
    ids = {id(x) for x in inputs}
    # a full-range slice (x[0:n]) is x to paddle: as an output, copied as well
    copy = [id(y) in ids or getattr(y, _ALIAS, False) for y in outputs]
    if not any(copy):
        return outputs
    return tuple(y.clone() if c else y for y, c in zip(outputs, copy, strict=True))


#: Set on a tensor that paddle's ``__getitem__`` returned as an alias of its source.
_ALIAS = "_unigrad_full_slice"


def _mark_full_slices() -> None:
    """Make ``Tensor.__getitem__`` mark the aliases it returns.

    For a full-range index (``x[0:n]``, ``x[:]``, ``x[...]``) paddle returns a new
    Python tensor that shares ``x``'s storage *and autograd identity* (node, output
    slot, and for a leaf its name): nothing in the tensor tells it from ``x`` (node,
    ``is_leaf``, inplace version, data pointer, shape and strides all agree), so a
    gradient with respect to it is ``x``'s, where torch gives the slice's own. Only the
    moment it is made shows it: the wrapper compares the result with its source
    (``_is_shared_underline_tensor_with``, the same tensor implementation: ~0.1 us)
    and marks an alias with an attribute; `_refuse_full_slices` reads it. Slices taken
    before unigrad first loads its paddle backend are not marked.
    """
    cls = paddle.Tensor
    original = cls.__getitem__
    if getattr(original, _ALIAS, False):
        return

    @functools.wraps(original)
    def __getitem__(self: Any, item: Any) -> Any:
        out = original(self, item)
        if out is not self and isinstance(out, cls) and out._is_shared_underline_tensor_with(self):
            setattr(out, _ALIAS, True)
        return out

    setattr(__getitem__, _ALIAS, True)
    cls.__getitem__ = __getitem__


_mark_full_slices()


def _refuse_full_slices(tensors: Sequence[Any], what: str) -> None:
    """Raise if one of ``tensors`` (the inputs, or the no_grad_vars) is a full-range
    slice: paddle would differentiate with respect to (or cut) its source instead, a
    wrong number that unigrad cannot correct (see `_mark_full_slices`); every backend
    refuses the same slices (`_slices`)."""
    refuse_full_slice(tensors, what, _is_alias)


def _is_alias(x: Any) -> bool:
    return getattr(x, _ALIAS, False) and not x.stop_gradient


#: ``node_ptr -> (a weak reference to the create_graph result, the records)``. paddle's
#: nodes take no attributes, and a post-hook registered on a double-grad node (the way
#: `_GRAD_GRAPH` keeps a marker alive) leaks the node's memory (+5 MB per 300 steps of
#: the soak loop): the result tensor, which holds its node, keeps the entry valid; once
#: it is gone, the entry goes (a tensor derived from it alone then carries no record).
_RECORDS: dict[int, tuple[weakref.ref[Any], list[Record]]] = {}


def _records(node: Any) -> Any:
    slot = _RECORDS.get(node.node_ptr())
    if slot is None or slot[0]() is None:
        return ()
    return slot[1]


def _node_ptr(node: Any) -> int:
    return int(node.node_ptr())


def _record_call(
    request: GradRequest, grads: Sequence[Any], nodes: list[Any], outs: list[Any]
) -> None:
    """Attach the call's `Record` to each differentiable result's node (``nodes``: the
    inputs', ``outs``: the outputs' that have one, as `structure` read them)."""
    results = [None if g is None or g.stop_gradient else _grad_fn(g) for g in grads]
    rec = Record(
        frozenset(n.node_ptr() for n in nodes if n is not None),
        tuple(outs),
        tuple(n for n in (_grad_fn(s) for s in request.seeds if s is not None) if n is not None),
        # (a leaf's node has nothing upstream: only its identity is kept)
        tuple(
            None if n is None else (n.node_ptr(), None if _is_leaf_node(n) else n) for n in nodes
        ),
    )
    bases: tuple[weakref.ref[Any], ...] | None = None
    for i, (g, node) in enumerate(zip(grads, results, strict=True)):
        if g is None or node is None:
            continue
        ptr = node.node_ptr()
        slot = _RECORDS.get(ptr)
        if slot is None or slot[0]() is None:
            slot = _RECORDS[ptr] = (weakref.ref(g, forgetter(_RECORDS, ptr)), [])
        slot[1].append(rec.at(i))
        if bases is None:
            bases = tuple(weakref.ref(x) for x in request.inputs)
        held = _CALL_INPUTS.get(ptr)
        if held is None or held[0]() is None:
            held = _CALL_INPUTS[ptr] = (weakref.ref(g, forgetter(_CALL_INPUTS, ptr)), ([], [0]))
        held[1][0].extend(bases)
        held[1][1][0] = _carried.now()  # rule 6: made after the call's own consumption


#: ``node pointer of a create_graph result -> (a weak reference to the result, weak
#: references to the inputs of the calls that made it (`_call_inputs_behind`), [the
#: stamp it was made at] (rule 6, `_check_carried`))``.
_CALL_INPUTS: dict[int, tuple[weakref.ref[Any], tuple[list[weakref.ref[Any]], list[int]]]] = {}


def _carried_ptrs(rec: Record, depth: int = 0) -> set[int]:
    """Rule 6: the forward nodes (pointers) a create_graph call's result carries: those
    between its outputs and inputs its pass ran, and what the results of earlier calls
    among them carry."""
    keys = rec.inputs
    ran = _graph.executed(rec.outputs, _children, lambda n: n.node_ptr() in keys, _is_leaf_node)
    carried = {n.node_ptr() for n in ran}
    if depth < 64:
        for n in ran:
            for earlier in _records(n):
                if earlier.call is not rec.call:
                    carried |= _carried_ptrs(earlier, depth + 1)
    return carried


def _ptr_in(ptrs: set[int], node: Any) -> bool:
    return bool(node.node_ptr() in ptrs)


def _check_carried(outputs: Sequence[Any], inputs: Sequence[Any] | None) -> None:
    """Rule 6: `GraphFreedError` where the pass runs through a create_graph result one
    of whose carried nodes a pass consumed after the result was made. Walks only while
    such a consumption may have happened (a live result older than the latest
    consuming pass)."""
    latest = _carried.now()
    if not any(h[1][1][0] < latest for h in list(_CALL_INPUTS.values()) if h[0]() is not None):
        return
    is_target: Callable[[Any], bool] = _is_leaf_node  # backward() into every leaf
    if inputs is not None:
        targets = {n.node_ptr() for n in map(_grad_fn, inputs) if n is not None}
        is_target = functools.partial(_ptr_in, targets)

    roots = [n for n in map(_grad_fn, outputs) if n is not None]
    for node in _graph.executed(roots, _children, is_target, _is_leaf_node):
        held = _CALL_INPUTS.get(node.node_ptr())
        if held is None or held[0]() is None or held[1][1][0] >= latest:
            continue
        for rec in _records(node):
            _carried.check(_carried_ptrs(rec), _consumed_at, held[1][1][0])


#: What paddle 3.3's ``PowDoubleGradNode`` raises when a pass through a gradient of
#: ``x ** p`` (a Python scalar ``p``) does not differentiate with respect to ``x``: its
#: kernel requires the ``x`` gradient output (PaddlePaddle/Paddle#57371 made it skip a
#: missing ``grad_out`` gradient only).
_MISSING_BASE_GRAD = "DenseTensor DX can not be nullptr"


def _call_inputs_behind(outputs: Sequence[Any], inputs: Sequence[Any]) -> list[Any]:
    """The live inputs of the ``create_graph`` calls whose results the outputs reach,
    other than ``inputs``. A double-grad node exists only for an op the first pass ran
    through, so its base depends on one of that call's inputs: requesting them too
    makes paddle compute the base's gradient (then dropped)."""
    have = {id(x) for x in inputs}
    extra: list[Any] = []
    seen: set[int] = set()
    stack = [n for n in (_grad_fn(y) for y in outputs) if n is not None]
    while stack:
        node = stack.pop()
        ptr = node.node_ptr()
        if ptr in seen:
            continue
        seen.add(ptr)
        held = _CALL_INPUTS.get(ptr)
        if held is not None and held[0]() is not None:
            for ref in held[1][0]:
                x = ref()
                if x is not None and id(x) not in have:
                    have.add(id(x))
                    extra.append(x)
        stack.extend(_children(node))
    return extra


def _refuse_ambiguous(
    outputs: Sequence[Any], inputs: Sequence[Any], cuts: Sequence[Any] = ()
) -> None:
    """`UnsupportedFeatureError` for a non-leaf input or cut between the inputs and
    outputs of an earlier create_graph call that the outputs reach (`_ambiguous`), and
    for one behind a gradient graph whose record is gone (`_unrecorded_gradient`)."""
    cands = [(f"inputs[{i}]", _grad_fn(x)) for i, x in enumerate(inputs) if not x.is_leaf]
    cands += [
        (f"no_grad_vars[{i}]", _grad_fn(v))
        for i, v in enumerate(cuts)
        if not v.is_leaf and not v.stop_gradient
    ]
    cands = [(label, n) for label, n in cands if n is not None]
    if not cands:
        return
    roots = [_grad_fn(y) for y in outputs]
    found = None
    if _RECORDS:
        found = ambiguous(roots, cands, _children, _node_ptr, _records)
    if found is None:
        label = _unrecorded_gradient(roots, cands)
        found = None if label is None else (label, BETWEEN)
    if found is not None:
        refuse(*found)


def _unrecorded_gradient(roots: list[Any], cands: list[tuple[str, Any]]) -> str | None:
    """The first candidate the roots reach through a double-grad node that no recorded
    create_graph result covers, or None.

    A record lives as long as its result tensor (see `_RECORDS`): a tensor derived from
    a create_graph gradient that is gone (``grad(...)[0].T``), or a gradient taken with
    ``paddle.grad`` itself, leaves a gradient graph the structural rule cannot see. An
    intermediate behind one is refused, as paddle did before the rule was common: never
    paddle's own formulas' answer where the contract's cannot be told.
    """
    targets = {n.node_ptr(): label for label, n in cands}
    seen: set[tuple[int, bool]] = set()
    stack = [(r, False) for r in roots]
    while stack:
        node, orphan = stack.pop()
        if node is None:
            continue
        ptr = node.node_ptr()
        if (ptr, orphan) in seen:
            continue
        seen.add((ptr, orphan))
        if orphan and ptr in targets:
            return targets[ptr]
        if not orphan:
            if _records(node):
                continue  # a recorded gradient: the structural rule has decided
            name = node.name()
            orphan = "DoubleGrad" in name or "TripleGrad" in name
        stack.extend((c, orphan) for c in node.next_functions)
    return None


def _refuse_pylayer_cuts(outputs: tuple[Any, ...], cuts: Sequence[Any]) -> None:
    """Refuse a ``no_grad_vars`` cut made by a ``PyLayer`` that the outputs' graph
    reaches: unigrad cuts with a tensor hook, and paddle runs none on a ``PyLayer``'s
    output, so the cut would be silently ignored (a wrong number). A cut the outputs do
    not reach cuts nothing: it is left alone (differential seed 7, program 1122: a
    complex ``create_graph`` result, a PyLayer's output, cut in an unrelated call)."""
    reached: set[Any] | None = None
    for i, v in enumerate(cuts):
        node = None if v.stop_gradient else _grad_fn(v)
        if node is not None and node.name().startswith("GradNodePyLayer"):
            if reached is None:
                reached = _reachable(outputs, set())
            if node not in reached:
                continue
            msg = message(
                "paddle cannot cut a gradient at a PyLayer's output",
                expected="no_grad_vars made by paddle's own ops",
                got=f"no_grad_vars[{i}], the output of a PyLayer, on which paddle runs no "
                "tensor hook (the cut would be ignored)",
                fix="Use a copy made by a native op downstream and cut that (u = v * 1.0), "
                "or detach it where it is used.",
            )
            raise UnsupportedFeatureError(msg)


def _refuse_aliases(inputs: Sequence[Any]) -> None:
    """Raise if paddle treats two distinct inputs as one tensor.

    A full-range slice (``x[0:n]``) is a new Python object that paddle's autograd
    identifies with ``x`` (same name, same node): it cannot give them different
    gradients, as torch (the contract) does. Refuse rather than answer for the wrong one.
    """
    names: dict[str, int] = {}
    for i, x in enumerate(inputs):
        j = names.setdefault(x.name, i)
        if j != i:
            msg = message(
                f"paddle treats inputs[{j}] and inputs[{i}] as one tensor",
                expected="inputs that paddle's autograd tells apart",
                got=f"two tensors named {x.name!r} (a full-range slice aliases its source)",
                fix="Pass only one of them, or make the slice a new tensor (x[0:n].clone()).",
            )
            raise UnsupportedFeatureError(msg)


def _own_seeds(
    outputs: tuple[Any, ...], seeds: tuple[Any, ...]
) -> tuple[tuple[Any, ...], list[Any]]:
    """The seeds of a ``create_graph`` call as paddle.grad gets them, and the nodes of
    those unigrad made: a differentiable seed as it is; ones for None and a detached copy
    of a constant seed (the user's tensor keeps its flag), made to require grad as
    paddle would make them, so that their leaf nodes are known."""
    own: list[Any] = []
    out = []
    for y, s in zip(outputs, seeds, strict=True):
        if s is not None and not s.stop_gradient:
            out.append(s)
            continue
        s = paddle.ones_like(y) if s is None else s.detach()
        s.stop_gradient = False
        own.append(_grad_fn(s))
        out.append(s)
    return tuple(out), own


_COMPLEX_HIGHER_MESSAGE = message(
    "paddle's complex higher-order derivatives give wrong values",
    expected="a second (or higher) derivative on real dtypes",
    got="a pass through the gradient of a complex function taken with create_graph=True",
    fix="Differentiate complex functions once on paddle (split them into real and "
    "imaginary parts for higher orders), or use another backend.",
)


class _NoHigherOrder(paddle.autograd.PyLayer):  # type: ignore[misc]
    """The identity on a complex ``create_graph`` result, whose backward refuses: any
    pass through it (grad or backward, from any output) raises
    `HigherOrderUnavailableError` instead of paddle's wrong numbers."""

    @staticmethod
    def forward(ctx: Any, g: Any) -> Any:
        return g.clone()

    @staticmethod
    def backward(ctx: Any, dg: Any) -> Any:
        # raised inside paddle's engine, which wraps it: the pass re-raises this one
        _THREAD.__dict__["nested"] = err = HigherOrderUnavailableError(_COMPLEX_HIGHER_MESSAGE)
        raise err


class PaddleBackend(Backend):
    """Adapter for `paddle` tensors (dynamic graph mode)."""

    name = "paddle"
    framework = "paddle"
    watch_in_place = True  # stop_gradient = False
    capabilities = Capabilities(
        max_order=2,
        native_batched=False,
        backward_create_graph=False,
        leaf_hooks_in_grad=False,
        float16_cpu=False,
        functional=True,
        # the namespace computes the others through formulations paddle differentiates
        # to any order (unigrad/_array_api/_paddle_ho.py); erf has none (no PyLayer:
        # paddle's backward() releases a PyLayer node after one run, and any later pass
        # through it crashes the process)
        no_second_order=frozenset({"erf"}),
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
        da, db = a.dtype, b.dtype
        # (dtypes are singletons: `is` answers the common call; `==` costs ~0.5 us)
        return da is db or bool(da == db)

    def dtype_name(self, x: Any) -> str:
        return str(x.dtype).removeprefix("paddle.")

    def requires_grad(self, x: Any) -> bool:
        # rule 14: a tensor that reaches no leaf but through a node of `CUT_NODES`
        # depends on nothing (paddle marks sin(sign(x)) as requiring grad)
        if x.stop_gradient:
            return False
        node = _grad_fn(x)
        return node is None or _reaches_leaf(node, False)

    def has_history(self, x: Any) -> bool:
        return not x.stop_gradient and not x.is_leaf

    def refuse_constant_outputs(self, outputs: tuple[Any, ...], retain_graph: bool) -> None:
        if _cuts_dependence(outputs, retain_graph):
            _refuse_constant_outputs(outputs, retain_graph)

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

    @staticmethod
    def _refuse_wrong_kernels(outputs: Sequence[Any], inputs: Sequence[Any]) -> None:
        """Raise where paddle has a kernel known to return wrong numbers (the contract:
        never a wrong number). paddle's complex higher-order derivatives are wrong: the
        second derivative of ``tanh(z)`` at ``0.3+0.4j`` comes out as ``-0.50-0.96j``
        where torch, jax and the closed form give ``-0.89+0.61j``, and every double-grad
        node measured (mul, exp, sin, cos, tanh) misses a conjugation; complex ``abs``'s
        has no edge to ``z`` at all. A complex pass through a gradient graph (a node
        made by ``create_graph=True``) is refused."""
        for t in (*outputs, *inputs):  # (`dtype in _COMPLEX` hashes a dtype: ~0.5 us)
            if _kind_of(t.dtype) == "c":
                break
        else:
            return
        seen: set[int] = set()
        stack = [_grad_fn(y) for y in outputs]
        while stack:
            node = stack.pop()
            if node is None or node.node_ptr() in seen:
                continue
            seen.add(node.node_ptr())
            name = node.name()
            if name in _WRONG_COMPLEX_KERNELS:
                op = _WRONG_COMPLEX_KERNELS[name]
                msg = message(
                    f"paddle's complex {op} higher-order kernel gives wrong values",
                    expected=f"a second (or higher) derivative of {op} on a real dtype",
                    got=f"a complex graph through {name}",
                    fix="Differentiate complex functions once on paddle (split them into "
                    "real and imaginary parts for higher orders), or use another backend.",
                )
                raise HigherOrderUnavailableError(msg)
            if "DoubleGrad" in name or "TripleGrad" in name:
                # paddle differentiates a complex gradient without the conjugation its
                # first derivative has: d/dz of (z*z)'s gradient 2*s*conj(z) comes out as
                # 2*s*t instead of 2*s*conj(t) (every op measured: mul, exp, sin, tanh)
                op = name.split("DoubleGrad")[0].split("TripleGrad")[0]
                msg = message(
                    f"paddle's complex higher-order derivatives give wrong values ({op})",
                    expected="a second (or higher) derivative on real dtypes",
                    got=f"a complex graph through {name}, a gradient taken with create_graph=True",
                    fix="Differentiate complex functions once on paddle (split them into "
                    "real and imaginary parts for higher orders), or use another backend.",
                )
                raise HigherOrderUnavailableError(msg)
            stack.extend(node.next_functions)

    def _call(
        self,
        outputs: tuple[Any, ...],
        inputs: tuple[Any, ...],
        seeds: list[Any],
        retain: bool,
        create: bool,
    ) -> list[Any]:
        self._refuse_wrong_kernels(outputs, inputs)
        state = _THREAD.__dict__  # this thread's; getattr on a local costs ~0.5 us
        if state.get("in_grad"):
            # paddle.grad inside paddle.grad (from a tensor hook) crashes or hangs
            state["nested"] = err = UnsupportedFeatureError(_NESTED_MESSAGE)
            raise err
        grad_mode = _has_grad()
        state["in_grad"] = True
        _PASS.plain = _plain(outputs)
        _PASS.call = (outputs, inputs)
        try:
            with _quiet_glog():
                try:
                    return _paddle_grad(list(outputs), list(inputs), seeds, retain, create)
                except Exception as err:
                    if _MISSING_BASE_GRAD not in str(err) or any(map(_made_by_a_view, inputs)):
                        raise
                    # paddle 3.3's PowDoubleGradNode needs its base's gradient
                    # (`_MISSING_BASE_GRAD`): the same pass, asked for it too (not beside a
                    # view-made input, which would get a wrong number: `_VIEW_NODES`)
                    _set_has_grad(grad_mode)
                    extra = _call_inputs_behind(outputs, inputs)
                    if not extra:
                        raise
                    both = [*inputs, *extra]
                    return _paddle_grad(list(outputs), both, seeds, retain, create)[: len(inputs)]
        except Exception as err:
            # paddle's engine leaves grad mode off when a node raises: restore it
            _set_has_grad(grad_mode)
            new = _translate(err)
            if new is err:
                raise
            raise new from err
        finally:
            state["in_grad"] = False
            _PASS.plain = None
            _PASS.call = None
            if _PASS.returned:
                _give_back(_PASS.returned)

    def grad(self, request: GradRequest) -> list[Any | None]:
        if request.create_graph:
            # paddle.grad makes its seeds require grad (a result's graph reaches them):
            # a differentiable seed goes as it is, a constant one (or None) as a seed of
            # unigrad's own, whose node is known to be a constant (`seed_copies`)
            live = [t for t in request.seeds if t is not None and not t.stop_gradient]
            seeds, own = _own_seeds(request.outputs, request.seeds)
            with ENGINE_LOCK:
                grads = self._grad(request._replace(seeds=seeds))
        else:
            with ENGINE_LOCK:
                grads = self._grad(request)
        inputs = request.inputs
        for i, (x, g) in enumerate(zip(inputs, grads, strict=True)):
            # (dtypes are singletons: `is` answers the common call; `!=` costs ~0.5 us)
            if g is not None and g.dtype is not x.dtype and g.dtype != x.dtype:
                # paddle returns a complex gradient for a real input that feeds complex
                # ops; the contract's (torch's) gradient is its real part, in x's dtype
                grads[i] = (paddle.real(g) if g.dtype in _COMPLEX else g).astype(x.dtype)
        if request.create_graph:
            cuts = [v for v in request.no_grad_vars or () if not v.stop_gradient]
            # (paddle's kernels with missing edges are wrong on complex dtypes only)
            complex_graph = _any_complex(request.outputs, inputs)
            stop = _STOP_STRUCTURE if complex_graph else frozenset()
            if complex_graph:
                # paddle differentiates complex gradients wrongly (`_refuse_wrong_kernels`)
                # and a later backward(), which does not know its leaves before the pass,
                # may run through them from a real output: the results refuse in any pass
                # (wrapped first: `structure` may give a result a node and record of its
                # own, which live as long as the tensor returned)
                with paddle.set_grad_enabled(True):  # (as create_graph records, always)
                    for i, g in enumerate(grads):
                        if g is not None and not g.stop_gradient:
                            grads[i] = _NoHigherOrder.apply(g)
            nodes, outs = structure(request.outputs, inputs, live, cuts, grads, _grad_fn, stop)
            seed_copies(own, grads)
            _record_call(request, grads, nodes, outs)
        return grads

    def _grad(self, request: GradRequest) -> list[Any | None]:
        _refuse_full_slices(request.inputs, "inputs")
        if len(request.inputs) > 1:
            _refuse_aliases(request.inputs)
        if request.no_grad_vars:
            _refuse_full_slices(request.no_grad_vars, "no_grad_vars")
            _refuse_pylayer_cuts(request.outputs, request.no_grad_vars)
        _refuse_ambiguous(request.outputs, request.inputs, request.no_grad_vars or ())
        _check_carried(request.outputs, request.inputs)
        # (rule 14's constant outputs were refused by the front: refuse_constant_outputs)
        cuts_dependence = _cuts_dependence(request.outputs, request.retain_graph)
        if request.no_grad_vars or recorded() or cuts_dependence:
            # a create_graph result's spurious edges, or an edge through a node whose
            # derivative is zero (rule 14), may reach an input: leave it out
            return self._grad_cut(request)
        consume_only = request.create_graph and not request.retain_graph
        old = _graph_ptrs(request.outputs) if consume_only else set()
        grads: list[Any | None] = self._grads(request, request.inputs)
        if not request.retain_graph:
            self._consume(request.outputs, request.inputs, list_ops=not consume_only)
            if consume_only:  # its results stay differentiable (the contract)
                _mark_grad_graph(grads, old)
        return grads

    def _grad_cut(self, request: GradRequest) -> list[Any | None]:
        """``grad`` with ``no_grad_vars``.

        paddle's own ``no_grad_vars`` segfaults when a cut feeds a scale op, and when an
        input is itself cut: cut with zeroing hooks, decide reachability here. The pass
        runs toward every input the uncut pass reaches (a cut's branch with zeroed
        gradients, as torch's engine runs it), so that a consumed node there raises as
        it would without the cuts (rule 15); only the inputs reached past the cuts get
        a gradient. While no node was ever consumed, the cut branches are not run.
        """
        inputs = request.inputs
        cuts = [v for v in request.no_grad_vars or () if not v.stop_gradient]
        cut_ids = {id(v) for v in request.no_grad_vars or ()}
        cut_nodes = [_grad_fn(v) for v in cuts]
        reached = _reachable(request.outputs, set(cut_nodes))
        uncut = _reachable(request.outputs, set()) if cut_nodes and _FREED_HOOKS else reached
        run = [i for i, x in enumerate(inputs) if id(x) not in cut_ids and _grad_fn(x) in uncut]
        grads: list[Any | None] = [None] * len(inputs)
        if not run:
            return grads
        used = tuple(inputs[i] for i in run)
        handles = [
            v.register_hook(_zero_grad)
            for v, n in zip(cuts, cut_nodes, strict=True)
            if not _is_leaf_node(n)
        ]
        cut_ptrs = frozenset(n.node_ptr() for n in cut_nodes if not _is_leaf_node(n))
        consume_only = request.create_graph and not request.retain_graph
        old = _graph_ptrs(request.outputs) if consume_only else set()
        try:
            computed = self._grads(request, used)
        finally:
            for h in handles:
                h.remove()
        for i, g in zip(run, computed, strict=True):
            if _grad_fn(inputs[i]) in reached:  # else a cut branch's zeros: unused
                grads[i] = g
        if not request.retain_graph:
            self._consume(request.outputs, used, cut_ptrs, list_ops=not consume_only)
            if consume_only:
                _mark_grad_graph(grads, old)
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
        outputs, seeds = _merge_aliases(_copies_of_inputs(request.outputs, inputs), seeds)
        if not request.batched:
            return self._passes(outputs, inputs, seeds, request.retain_graph, request.create_graph)
        batch = next(s.shape[0] for s in seeds if s is not None)
        rows = [
            self._passes(outputs, inputs, [s[b] for s in seeds], True, request.create_graph)
            for b in range(batch)
        ]
        return [
            None if rows[0][i] is None else paddle.stack([r[i] for r in rows])
            for i in range(len(inputs))
        ]

    def _passes(
        self,
        outputs: tuple[Any, ...],
        inputs: tuple[Any, ...],
        seeds: list[Any],
        retain: bool,
        create: bool,
    ) -> list[Any]:
        """``_call``, with each input made by a view op in a pass of its own when other
        inputs share the pass (see ``_VIEW_NODES``: paddle gives those a wrong number)."""
        views = [i for i, x in enumerate(inputs) if _made_by_a_view(x)] if len(inputs) > 1 else []
        if not views:
            return self._call(outputs, inputs, seeds, retain, create)
        grads: list[Any] = [None] * len(inputs)
        for i in views:
            (grads[i],) = self._call(outputs, (inputs[i],), seeds, True, create)
        rest = [i for i in range(len(inputs)) if i not in views]
        if rest:
            computed = self._call(outputs, tuple(inputs[i] for i in rest), seeds, retain, create)
            for i, g in zip(rest, computed, strict=True):
                grads[i] = g
        return grads

    def _consume(
        self,
        outputs: tuple[Any, ...],
        inputs: tuple[Any, ...] | None,
        cuts: frozenset[int] = frozenset(),
        *,
        list_ops: bool = True,
    ) -> None:
        """Mark the nodes the pass ran consumed (`_mark_executed`). ``list_ops=False``
        (a ``create_graph=True, retain_graph=False`` call) leaves out the nodes of list
        ops (`_MULTI_SLOT`): its results' graphs run through them (rule 15), and a
        post-hook cannot hand their gradients on (paddle 3.3)."""
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
            _mark_executed(roots, targets, leaves, cuts, list_ops=list_ops)
            return
        # every leaf is a target (backward into .grad)
        _sweep_hooks()
        ran = _graph.executed(roots, _children, _is_leaf_node, _is_leaf_node)
        _stamp(ran)
        for node in ran:
            node._register_post_hook(_hook_for(node))

    def backward(self, request: BackwardRequest) -> None:
        with ENGINE_LOCK:
            self._backward(request)

    def _backward(self, request: BackwardRequest) -> None:
        seeds = list(request.seeds)
        if request.create_graph:
            # paddle's `.grad` cannot hold a graph (its setter copies the value), and its
            # engine cannot build one without `inputs`: refuse rather than accumulate a
            # gradient that silently is not differentiable.
            msg = message(
                "paddle's backward cannot accumulate a differentiable .grad",
                expected="backward(create_graph=False) on paddle",
                got="create_graph=True",
                fix="Use unigrad.grad(outputs, inputs, create_graph=True), which returns "
                "differentiable gradients on every backend.",
            )
            raise UnsupportedFeatureError(msg)
        if request.inputs is not None:
            _refuse_full_slices(request.inputs, "inputs")
            _refuse_ambiguous(request.outputs, request.inputs)
            _check_carried(request.outputs, request.inputs)
            inputs = request.inputs
            if recorded() or _cuts_dependence(request.outputs, request.retain_graph):
                # a create_graph result's spurious edges, or a node whose derivative is
                # zero (rule 14), may reach an input that it does not depend on (paddle
                # would give it zeros): its .grad stays as it is, as grad leaves it
                # unused (differential seed 71)
                reached = _reachable(request.outputs, set())
                inputs = tuple(x for x in inputs if _grad_fn(x) in reached)
            with paddle.set_grad_enabled(_has_grad()):
                grads = (
                    self._call(
                        _copies_of_inputs(request.outputs, inputs),
                        inputs,
                        seeds,
                        request.retain_graph,
                        request.create_graph,
                    )
                    if inputs
                    else []
                )
                for x, g in zip(inputs, grads, strict=True):
                    if g is None:
                        continue
                    total = g if x.grad is None else x.grad + g
                    node = _grad_fn(x)
                    if node is None or _is_leaf_node(node):
                        x.grad = total
                    else:  # paddle refuses `.grad =` on a non-leaf; this is its own copy
                        x._copy_gradient_from(total)
        else:
            # (its leaves are unknown before the pass: a complex output decides here; a
            # real one over a complex create_graph result meets `_NoHigherOrder`)
            self._refuse_wrong_kernels(request.outputs, ())
            _check_carried(request.outputs, None)
            grad_mode = _has_grad()
            # a create_graph result's pass may go through the nodes its pass consumed
            _PASS.plain = _plain(request.outputs)
            # outputs paddle identifies (x and x[0:n]) would count once: merged, seeds summed
            outputs, seeds = _merge_aliases(request.outputs, seeds)
            try:
                if _CONSUMED_AT and not request.retain_graph:
                    _refuse_consumed_before_backward(request.outputs)
                with _quiet_glog():
                    paddle.autograd.backward(
                        list(outputs), seeds, retain_graph=request.retain_graph
                    )
            except Exception as err:
                _set_has_grad(grad_mode)
                new = _translate(err)
                if new is err:
                    raise
                raise new from err
            finally:
                _PASS.plain = None
                if _PASS.returned:
                    _give_back(_PASS.returned)
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

    def detach(self, x: Any) -> Any:
        return x.detach()

    def to_numpy(self, x: Any) -> Any:
        if x.dtype == paddle.bfloat16:  # .numpy() gives the raw bits as uint16
            return x.astype(paddle.float32).numpy()
        return x.numpy()

    def namespace(self) -> Any:
        from .._array_api import _paddle

        return _paddle.build()


BACKEND = PaddleBackend()
