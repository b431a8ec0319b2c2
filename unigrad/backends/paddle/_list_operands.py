"""The operands of the namespace's list ops on paddle, so that a pass leaves out an
operand's consumed branch that leads to none of its inputs (rule 6b).

paddle 3.3.1's ``paddle.grad`` prunes the branches that lead to no input only at nodes
with more than one gradient slot (``ModifyBackwardGraph`` in
``paddle/fluid/eager/general_grad.h``). A list op's node (``stack``, ``concat``) holds
all its operands in one slot, so every operand's branch runs, and a node there that
``backward()`` freed raises, where the contract's pass (torch's) does not run it. The
one edge paddle cuts inside a slot is an edge into a ``no_grad_vars`` tensor (the same
function clears each edge into that tensor's node and output rank). So the namespace's
list ops hand their result and operands here (`record`, through
``_paddle_list_ops.ON_LIST_OP``), each operand kept as an alias (`_alias`) that shares
its autograd meta (its node and output rank) and none of its memory.
In strict mode, a pass whose graph may hold a consumed node (`CONSUMED`) gives paddle
as ``no_grad_vars`` the aliases whose branches lead to none of its inputs and hold one
(`left_out`). In fast mode, which keeps no marks, and for a node freed where no mark
was kept, a pass whose run met a node ``backward()`` freed runs again without the
branches that lead to none of its inputs (``paddle.grad`` frees nothing, so the graph
is as it was; the tensor hooks the first run reached run again); so does a
``create_graph`` pass, in either mode, whose run met a node with no double-grad kernel
(``imag``'s) there. Where the freed node
leads to an input, the pass raises `GraphFreedError` as before. A branch that leads to
no input adds nothing to any gradient: leaving it out changes no number.

An entry lives as long as its list op's node, and until the next sweep: the alias holds
the operand's node, and with it the branch behind it. A node exposes no lifetime to
Python, so the entry's tensor hook (`_unchanged`, on the list op's result) is registered
on it: a node holds the hooks of its result, and `PinnedHooks`-style counting tells when
none does (`_Operands.sweep`, before each pass and every few list ops); the entry,
aliases and hook, is freed then, with the GIL held.
The list ops paddle users call themselves (``paddle.concat``) hand nothing here: their
operands are out of reach of paddle's Python API.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from typing import Any

import paddle
from paddle.base.dygraph.base import in_to_static_mode as _in_to_static

from ._consumption import _MULTI_SLOT, CONSUMED
from ._engine import ENGINE_LOCK
from ._nodes import hold, kids, name, node_ptr, peek, peek_name, reach
from ._refcounts import _grad_fn

__all__ = ["OPERANDS", "left_out", "record"]


def _unchanged(_: Any) -> None:
    """The entry's tensor hook: the gradient passes unchanged (it returns None)."""


class _Operands:
    """The live list ops' operand aliases, by the list op's node pointer.

    Attributes:
        entries: ``node_ptr -> (the hook the node holds, the operands' aliases)``.
        swept: the size of ``entries`` after the last sweep (a sweep reads every
            hook's reference count: see `sweep`).
        retired: hooks of entries a new node at the same address replaced while a copy
            of the old node (paddle's engine keeps them until its next pass) still held
            them: freed by a later sweep, never by paddle's engine.
    """

    __slots__ = ("entries", "retired", "swept")

    def __init__(self) -> None:
        self.entries: dict[int, tuple[Any, tuple[Any, ...]]] = {}
        self.retired: list[Any] = []
        self.swept = 0

    def sweep(self, *, amortized: bool = False) -> None:
        """Free the entries whose hook no node holds. ``amortized`` (a list op's): only
        once an eighth more (at least 8) were added since the last sweep, so that
        building many costs a constant each; a pass sweeps every time, so that a graph
        the user let go is not kept past the next pass."""
        entries = self.entries
        if amortized and len(entries) <= self.swept + max(8, self.swept // 8):
            return
        getrefcount = sys.getrefcount
        # 2: the entry's reference and getrefcount's argument
        for ptr in [p for p in entries if getrefcount(entries[p][0]) <= 2]:
            del entries[ptr]
        old = self.retired
        self.retired = [old[i] for i in range(len(old)) if getrefcount(old[i]) > 2]
        self.swept = len(entries)


#: The one table of list ops' operands (see `_Operands`), changed under `ENGINE_LOCK`.
OPERANDS = _Operands()

#: The empty tensor every alias's values are (made when the first alias is).
_EMPTY: list[Any] = []


def _alias(t: Any) -> Any:
    """A tensor with ``t``'s autograd meta (its node and output rank) and no memory of
    its own: all ``no_grad_vars`` reads of a tensor, without keeping ``t``'s values."""
    if not _EMPTY:
        _EMPTY.append(paddle.empty([0], dtype="float32"))
    alias = t._new_shared_tensor()
    alias._set_impl(_EMPTY[0])
    return alias


def record(out: Any, operands: Sequence[Any]) -> None:
    """Keep the operands of the list op whose result is ``out``: those with a branch
    behind them (not leaves, not constants). (Under ``paddle.jit.to_static`` there are
    no nodes: nothing to keep.)"""
    if _in_to_static():
        return
    node = _grad_fn(out)
    if node is None:
        return
    branches = [a for a in operands if not a.stop_gradient and not a.is_leaf]
    if not branches:
        return
    with ENGINE_LOCK:
        OPERANDS.sweep(amortized=True)
        aliases = tuple(_alias(a) for a in branches)
        hook = functools.partial(_unchanged)  # (a hook object of this entry's own)
        out._register_grad_hook(hook)
        ptr = node_ptr(node)
        old = OPERANDS.entries.get(ptr)
        if old is not None and sys.getrefcount(old[0]) > 2:  # (as in `sweep`)
            OPERANDS.retired.append(old[0])
        OPERANDS.entries[ptr] = (hook, aliases)


def left_out(
    outputs: Sequence[Any], inputs: Sequence[Any], *, consumed: bool, keep: bool = False
) -> list[Any]:
    """The aliases a pass from ``outputs`` to ``inputs`` gives paddle as
    ``no_grad_vars``: the operands of the list ops it reaches whose branches lead to
    none of ``inputs`` and, with ``consumed``, hold a node a pass consumed (strict
    mode's marks, `CONSUMED`). ``keep``: the walk reads through the node memo
    (`_nodes.kids`), which holds ``outputs``' graph from then on."""
    with ENGINE_LOCK:  # (the pass swept the table before it: `PaddleBackend._call`)
        entries = OPERANDS.entries
        if not entries:
            return []
        if keep:
            hold(outputs)
        read = kids if keep else peek
        want = {node_ptr(n) for n in map(_grad_fn, inputs) if n is not None}
        found: list[Any] = []
        for node in reach(map(_grad_fn, outputs), read):
            if (name(node) if keep else peek_name(node)) not in _MULTI_SLOT:
                continue
            entry = entries.get(node_ptr(node))
            if entry is None:
                continue
            edges = {node_ptr(c) for c in read(node) if c is not None}
            for alias in entry[1]:
                first = _grad_fn(alias)
                # (an operand changed in place since has another node: not this edge's)
                if first is None or node_ptr(first) not in edges:
                    continue
                below = [node_ptr(n) for n in reach([first], read)]
                if any(p in want for p in below):
                    continue
                if not consumed or any(CONSUMED.at(p) for p in below):
                    found.append(alias)
        return found
