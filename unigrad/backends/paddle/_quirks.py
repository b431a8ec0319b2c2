"""paddle's own defects, each worked around where unigrad meets it.

Wrong complex kernels of gradient graphs, inputs paddle treats as one tensor (a
full-range slice aliases its source: `_tensor_methods` marks them), ``no_grad_vars`` at
a ``PyLayer``'s output, view-op inputs beside their source, constant seeds of
``create_graph`` passes, results a later pass cannot run into.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import paddle

from ..._errors import (
    HigherOrderUnavailableError,
    UnsupportedFeatureError,
    message,
)
from ._cuts import _reachable
from ._dtypes import _kind_of
from ._engine import _PASS
from ._formulas import COMPLEX_PIECEWISE
from ._nodes import PinnedHooks, cast_walked, hold, kids, mark_cast_walked, name, reach
from ._refcounts import _grad_fn, _handed
from ._tensor_methods import _ALIAS

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


def _zero_grad(g: Any) -> Any:
    """A cut's gradient (zeros). In a ``create_graph`` pass (``g`` requires grad) the
    zeros are a private leaf that requires grad: the double-grad nodes paddle 3.3.1 builds
    behind the cut take them as an input and fail in a later pass when it is a constant
    ("The current MetaTensor is not initialized" from ``ReluDoubleGradNode``, paddle's
    own ``test_example_with_gradient_accumulation_and_no_grad_vars`` through unigrad;
    the same class as PaddlePaddle/Paddle#44252's empty grads)."""
    z = paddle.zeros_like(g)
    if not g.stop_gradient:
        z.stop_gradient = False
    return z


#: Nodes of paddle's view ops. paddle 3.3.1 returns a wrong gradient for a tensor made by
#: one of them when an input upstream of it is requested in the same pass: it hands back
#: the gradient one node further up (``grad(y, [x, reshape(exp(x))])`` gives the second
#: input ``x``'s gradient). Alone in a pass, the same input gets the right one.
#: ``transpose`` belongs here too: a transpose of a 1 x 1 tensor, requested beside the
#: leaf it comes from, got its source's gradient (the differential corpus's entry
#: "paddle: v4 = permute_dims(v3) of a 1 x 1 view ...").
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


def _refuse_pylayer_cuts(outputs: tuple[Any, ...], cuts: Sequence[Any]) -> None:
    """Refuse a ``no_grad_vars`` cut made by a ``PyLayer`` that the outputs' graph
    reaches: unigrad cuts with a tensor hook, and paddle runs none on a ``PyLayer``'s
    output, so the cut would be silently ignored (a wrong number). A cut the outputs do
    not reach cuts nothing: it is left alone (a complex ``create_graph`` result, a
    PyLayer's output, cut in an unrelated call: test_any_program.py::
    test_a_cut_in_an_unrelated_graph_cuts_nothing)."""
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


#: paddle 3.3.1's error for a pass into a tensor of a double-grad node's second or later
#: output slot (below).
_INVALID_SLOT = "Invalid slot_id for GradTensorHolder::add()"


def invalid_slot(text: str) -> bool:
    """Whether paddle's error ``text`` is `through_double_grad_results`'s case."""
    return _INVALID_SLOT in text


def through_double_grad_results(
    outputs: Sequence[Any],
    inputs: Sequence[Any],
    beyond: Sequence[Any],
    run: Callable[[list[Any]], list[Any]],
) -> list[Any] | None:
    """The pass into ``inputs`` where one is a ``create_graph`` result in a later output
    slot of its double-grad node, which paddle 3.3.1 cannot stop at: ``SystemError:
    Invalid slot_id for GradTensorHolder::add()``, natively too (``g = grad(sum(sin(a *
    b)), b, create_graph=True)``, then ``grad(sum(tile(g)), g)``; ``a * b``'s
    ``MultiplyDoubleGradNode`` holds ``b``'s gradient in its second slot, ``a``'s passes;
    ``where``, ``maximum``, ``add``, ``subtract``, ``matmul`` alike; differential seeds
    6065 program 1858, 9004 program 2810).

    Each input with a node of its own (not a leaf) gets a hook that keeps the gradient
    the pass brings it, and the pass goes on past them toward the other inputs and
    ``beyond`` (the ``create_graph`` calls' seeds and inputs the outputs reach: a result
    is linear in its call's seeds, so the pass runs through it), whose gradients are
    dropped. ``run(targets)`` is the pass toward ``targets``. None where there is no
    such input or nothing to go on to."""
    held = [i for i, x in enumerate(inputs) if not x.is_leaf and _grad_fn(x) is not None]
    if not held or not beyond:
        return None
    caught: dict[int, Any] = {}

    def keep(i: int, g: Any) -> None:
        caught[i] = g

    handles = [inputs[i].register_hook(functools.partial(keep, i)) for i in held]
    try:
        rest = [x for i, x in enumerate(inputs) if i not in held]
        got = run([*rest, *beyond])
    finally:
        for h in handles:
            h.remove()
    out: list[Any] = []
    it = iter(got[: len(rest)])
    for i in range(len(inputs)):
        out.append(caught.get(i) if i in held else next(it))
    return out


#: The grad nodes of paddle's ops that make a complex tensor of a real one, differentiable
#: to second order: ``cast`` (``astype``, and the promotion of a real operand beside a
#: complex one) and ``as_complex``. (``complex`` and the FFTs of real tensors have no
#: second-order kernel: `HigherOrderUnavailableError` at the ``create_graph`` call.)
_REAL_TO_COMPLEX = frozenset({"CastGradNode", "AsComplexGradNode"})


def watch_complex_casts(outputs: Sequence[Any]) -> None:
    """Before a ``create_graph`` pass: give each node of the outputs' graph that may make
    a complex tensor of a real one (`_REAL_TO_COMPLEX`) a post-hook (`_cast_hook`) that
    notes, in ``_PASS``, a gradient it turns from complex to real (read for a real call).

    A real call may compute through complex tensors (``abs(x.astype(complex) + 1j)``),
    whose double-grad kernels paddle computes wrongly (`_COMPLEX_HIGHER_MESSAGE`): the
    second derivative of ``sum(real(sin(x * c)))`` came out as ``-0.195`` where torch and
    the closed form ``real(-c^2 sin(x c))`` give ``0.418``. Such a call's results refuse a
    later pass, as a complex call's do (`complex_cast_seen`). The ``abs`` nodes get a
    hook too, which notes in ``_PASS`` those that run on real tensors (`_abs_hook`: read
    for a complex call). paddle's nodes do not expose dtypes; the gradients a node's
    hook sees do. A graph is walked once while the memo holds it
    (`_nodes.cast_walked`)."""
    hold(outputs)
    _ABS_HOOKS.sweep()
    done = cast_walked()
    seen: list[Any] = []

    def onward(node: Any) -> bool:
        return node not in done

    for node in reach(map(_grad_fn, outputs), kids, through=onward):
        if node not in done:
            op = name(node)
            if op in _REAL_TO_COMPLEX:
                node._register_post_hook(_cast_hook)
            elif op in COMPLEX_PIECEWISE:
                _ABS_HOOKS.register(node)
        seen.append(node)
    mark_cast_walked(seen)
    state = _PASS.__dict__
    state["complex_cast"] = False
    state["real_abs"] = set()


def _abs_hook(ptr: int, *args: Any) -> Any:
    """An ``abs`` node's post-hook: the gradients it hands on have its operand's dtype.
    One run on real tensors makes the node piecewise linear in a complex call too, for
    the structure pass that follows (``|w|`` of a real ``w`` beside complex tensors: a
    real input's constant gradient required grad, differential seed 6086, program 726)."""
    handed = args[0]
    if not any(t is not None and t.is_complex() for t in handed):
        seen = _PASS.__dict__.get("real_abs")
        if seen is not None:
            seen.add(ptr)
    return _handed(handed)


#: Each ``abs`` node's hook (`_nodes.PinnedHooks`: paddle's engine must never free one).
_ABS_HOOKS = PinnedHooks(_abs_hook)


def complex_cast_seen() -> bool:
    """Whether the pass since `watch_complex_casts` turned a complex gradient real at a
    cast node (and forget it)."""
    state = _PASS.__dict__
    seen = bool(state.get("complex_cast"))
    state["complex_cast"] = False
    return seen


def _cast_hook(*args: Any) -> Any:
    """A cast node's post-hook: ``args[0]`` holds the gradients it hands on (its forward
    input's dtype), ``args[1]`` those it received (its forward output's)."""
    handed, received = args[0], args[1]
    if any(t is not None and t.is_complex() for t in received) and not any(
        t is not None and t.is_complex() for t in handed
    ):
        _PASS.__dict__["complex_cast"] = True
    return _handed(handed)


_COMPLEX_HIGHER_MESSAGE = message(
    "paddle's complex higher-order derivatives give wrong values",
    expected="a second (or higher) derivative on real dtypes",
    got="a pass through a gradient taken with create_graph=True of a function with "
    "complex inputs, outputs or intermediate values",
    fix="Differentiate complex functions once on paddle (split them into real and "
    "imaginary parts for higher orders), or use another backend.",
)


class _NoHigherOrder(paddle.autograd.PyLayer):  # type: ignore[misc]
    """The identity on a complex ``create_graph`` result, whose backward refuses: any
    pass through it (grad or backward, from any output) raises
    `HigherOrderUnavailableError` instead of paddle's wrong numbers, except a pass that
    brings it only zeros (a cut). A pass whose outputs' graph holds one is refused
    before it runs, too (`refuse_no_higher_order`): paddle's graph of the result may
    not lead to an input it depends on (complex ``abs``'s double-grad node has no edge
    to its operand), so that paddle's pass would never run the node."""

    @staticmethod
    def forward(ctx: Any, g: Any) -> Any:
        _NO_HIGHER_ORDER_MADE[0] = True
        return g.clone()

    @staticmethod
    def backward(ctx: Any, dg: Any) -> Any:
        if not bool(paddle.any(dg != 0)):
            # a cut's zeros (no_grad_vars: `_zero_grad` on the copy of this output the
            # user holds, a branch paddle's pass still runs): the derivative of zeros is
            # zeros whatever the kernels behind, so the pass answers as the other
            # backends do (test_a_complex_create_graph_result_as_a_cut in
            # test_any_program.py)
            return paddle.zeros_like(dg)
        # raised inside paddle's engine, which wraps it: the pass re-raises this one
        _PASS.__dict__["nested"] = err = HigherOrderUnavailableError(_COMPLEX_HIGHER_MESSAGE)
        raise err


#: Whether this process made a `_NoHigherOrder` node: from then on, every pass looks
#: for one among the nodes its outputs reach (`refuse_no_higher_order`).
_NO_HIGHER_ORDER_MADE = [False]

#: The name paddle gives `_NoHigherOrder`'s nodes.
_NO_HIGHER_ORDER_NODE = "GradNodePyLayer__NoHigherOrder"


def no_higher_order_made() -> bool:
    """Whether a `_NoHigherOrder` node may be alive (one was made in this process)."""
    return _NO_HIGHER_ORDER_MADE[0]


def refuse_no_higher_order(nodes: Iterable[Any]) -> None:
    """Raise `HigherOrderUnavailableError` if one of ``nodes`` (those a pass's outputs
    reach, past no cut) is a `_NoHigherOrder` node."""
    if any(n.name() == _NO_HIGHER_ORDER_NODE for n in nodes):
        raise HigherOrderUnavailableError(_COMPLEX_HIGHER_MESSAGE)


def _complex_call(outputs: Sequence[Any], inputs: Sequence[Any]) -> bool:
    """Whether an output or an input is complex (paddle's wrong double-grad kernels,
    `PaddleBackend._refuse_wrong_kernels`, are wrong on complex dtypes only)."""
    # (`dtype in _COMPLEX` hashes a dtype: ~0.5 us)
    return any(_kind_of(t.dtype) == "c" for t in (*outputs, *inputs))


def _refuse_wrong_kernels_among(nodes: Iterable[Any]) -> None:
    """Raise `HigherOrderUnavailableError` if one of ``nodes`` is one of paddle's
    double-grad nodes, wrong on complex dtypes (`PaddleBackend._refuse_wrong_kernels`).
    The op named is the same whatever order the nodes come in: a kernel of
    `_WRONG_COMPLEX_KERNELS` first, then the least name."""
    names = {n.name() for n in nodes}
    known = sorted(names.intersection(_WRONG_COMPLEX_KERNELS))
    if known:
        name = known[0]
        op = _WRONG_COMPLEX_KERNELS[name]
        msg = message(
            f"paddle's complex {op} higher-order kernel gives wrong values",
            expected=f"a second (or higher) derivative of {op} on a real dtype",
            got=f"a complex graph through {name}",
            fix="Differentiate complex functions once on paddle (split them into "
            "real and imaginary parts for higher orders), or use another backend.",
        )
        raise HigherOrderUnavailableError(msg)
    higher = sorted(n for n in names if "DoubleGrad" in n or "TripleGrad" in n)
    if higher:
        # paddle differentiates a complex gradient without the conjugation its first
        # derivative has: d/dz of (z*z)'s gradient 2*s*conj(z) comes out as 2*s*t
        # instead of 2*s*conj(t) (every op measured: mul, exp, sin, tanh)
        name = higher[0]
        op = name.split("DoubleGrad")[0].split("TripleGrad")[0]
        msg = message(
            f"paddle's complex higher-order derivatives give wrong values ({op})",
            expected="a second (or higher) derivative on real dtypes",
            got=f"a complex graph through {name}, a gradient taken with create_graph=True",
            fix="Differentiate complex functions once on paddle (split them into "
            "real and imaginary parts for higher orders), or use another backend.",
        )
        raise HigherOrderUnavailableError(msg)
