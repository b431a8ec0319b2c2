"""paddle 3.3.1's reference leaks, measured at import and given back.

``Tensor.grad_fn`` returns its node with one reference too many, so each read would
keep the whole graph behind it alive for ever (about 20 kB per call on a small MLP):
nodes are read through `_grad_fn`. The engine keeps a reference to what a node's
post-hook returns (the gradients, never freed: 40 MB per 1 000 steps of a loop that
differentiates a consuming pass's ``create_graph`` result): `_handed` gives it back.
Each leak is measured on a throw-away graph when the module loads, so that a paddle
that fixes it gets no decrement (a wrong one would free a live object).

One switch turns every repair off: ``UNIGRAD_PADDLE_REFCOUNT_REPAIR=0`` in the
environment before the backend loads (`REPAIR`); the probes then do not run, nothing is
given back, and paddle's leaks stay as paddle has them.
"""

from __future__ import annotations

import ctypes
import os
import sys
from typing import Any

import paddle

from ._engine import _PASS

#: Whether the repairs run (the one switch, read once when the backend loads).
REPAIR = os.environ.get("UNIGRAD_PADDLE_REFCOUNT_REPAIR", "1") != "0"

_py_decref: Any = ctypes.pythonapi.Py_DecRef
_py_decref.argtypes = [ctypes.py_object]
_py_decref.restype = None


def _extra_grad_fn_refs() -> int:
    """How many references one read of ``Tensor.grad_fn`` leaks (1 on paddle 3.3.1).

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


_LEAKED_REFS = _extra_grad_fn_refs() if REPAIR else 0


def _grad_fn(t: Any) -> Any:
    """``t.grad_fn`` without paddle's leaked reference (see the module docstring)."""
    node = t.grad_fn
    if node is not None and _LEAKED_REFS:
        _py_decref(node)
    return node


def _extra_hook_result_refs() -> int:
    """How many references paddle's engine keeps of what a node's post-hook returns (1
    on paddle 3.3.1: the list, and with it the gradients it holds, is never freed; about
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


_LEAKED_HOOK_REFS = _extra_hook_result_refs() if REPAIR else 0


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
