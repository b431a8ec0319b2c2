"""The front: normalise and check ``grad``/``backward`` arguments once, then dispatch.

Every rule of the contract (``docs/semantics.md``) that can be decided without the
framework is enforced here, identically for every backend. The backend receives a
`GradRequest` whose invariants are documented there.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ._args import split
from ._compile import refuse_backward_in_step
from ._dispatch import _TYPE_CACHE, backend_for, owner
from ._errors import (
    GradArgumentError,
    GradOutputsError,
    NotDifferentiableError,
    UnusedInputError,
    message,
)
from .backends._base import BackwardRequest, GradRequest
from .contract import refuse_structural
from .contract._checks import fast as _fast

if TYPE_CHECKING:
    from .backends._base import Backend

__all__ = ["backward", "grad"]

_KIND_NAMES = {"i": "an integer", "b": "a bool", "?": "a non-numeric"}


def _as_tuple(value: Any, name: str, *, allow_set: bool = False) -> tuple[Any, ...]:
    """A tensor or an iterable of tensors, as a non-empty tuple (`split`'s rule, and
    other ordered iterables as sequences)."""
    if value is None:
        msg = message(
            f"`{name}` is None",
            expected="a tensor or a non-empty sequence of tensors",
            got="None",
            fix=f"Pass the tensor(s) as `{name}`.",
        )
        raise GradArgumentError(msg)
    if type(value) in _TYPE_CACHE:  # a tensor of a type seen before: no call at all
        return (value,)
    is_seq, items = split(value)
    if not is_seq:
        if owner(value) is not None:
            return items
        if isinstance(value, (str, bytes, dict)) or (
            isinstance(value, (set, frozenset)) and not allow_set
        ):
            cls = type(value).__name__
            msg = message(
                f"`{name}` has the wrong container type",
                expected="a tensor, a list/tuple or another ordered iterable of tensors",
                got=f"a {cls}",
                fix=f"Pass `{name}` as a list or tuple of tensors.",
            )
            raise GradArgumentError(msg)
        if not isinstance(value, Iterable):
            return items  # not a container: dispatch explains which types it knows
        items = tuple(value)
    for i, v in enumerate(items):
        if v is None:
            msg = message(
                f"{name}[{i}] is None",
                expected="a tensor in every position",
                got=f"None at position {i} of {len(items)}",
                fix=f"Leave the None out of `{name}`"
                + (" (a None seed goes in grad_outputs)." if name == "outputs" else "."),
            )
            raise GradArgumentError(msg)
    if not items:
        msg = message(
            f"`{name}` is empty",
            expected="at least one tensor",
            got=f"an empty {type(value).__name__}",
            fix=f"Pass the tensor(s) to differentiate as `{name}`.",
        )
        raise GradArgumentError(msg)
    return items


def _flag(value: Any, name: str, *, optional: bool = False) -> bool | None:
    if value is None and optional:
        return None
    if value is True or value is False:
        return value
    # numpy.bool_ and friends: accept what is unambiguously a bool
    if type(value).__name__ in ("bool_", "bool") and hasattr(value, "item"):
        return bool(value)
    expected = "True, False or None" if optional else "True or False"
    msg = message(
        f"`{name}` must be a bool",
        expected=expected,
        got=repr(value),
        fix=f"Pass `{name}=True` or `{name}=False`.",
    )
    raise GradArgumentError(msg)


def _seeds(grad_outputs: Any, n_outputs: int) -> tuple[Any, ...]:
    if grad_outputs is None:
        return (None,) * n_outputs
    is_seq, seeds = split(grad_outputs)
    if not is_seq and owner(grad_outputs) is None:
        msg = message(
            "`grad_outputs` has the wrong type",
            expected="None, a tensor, or a list/tuple of tensors or None",
            got=f"a {type(grad_outputs).__name__}",
            fix="Pass one seed tensor (or None) per output.",
        )
        raise GradArgumentError(msg)
    if len(seeds) != n_outputs:
        msg = message(
            "`grad_outputs` and `outputs` differ in length",
            expected=f"{n_outputs} seed(s), one per output",
            got=f"{len(seeds)}",
            fix="Pass exactly one seed (a tensor or None) per output.",
        )
        raise GradOutputsError(msg)
    for i, s in enumerate(seeds):
        if s is not None and owner(s) is None:
            msg = message(
                f"grad_outputs[{i}] is not a tensor",
                expected="a tensor of the outputs' framework, or None",
                got=f"a {type(s).__name__}",
                fix="Wrap the value in a tensor of the same framework as the outputs.",
            )
            raise GradArgumentError(msg)
    return seeds


def _check_outputs(
    be: Backend, outs: tuple[Any, ...], retain: bool, fast: bool
) -> tuple[bool, Any]:
    """Raise unless every output is differentiable: whether one of them is complex, and
    what the backend's dependence walk answered (the request's ``dependence``).

    An output that requires grad but depends on nothing (rule 14) is refused here too in
    strict mode, before the seeds are checked and whatever the inputs are
    (``retain``: whether the call keeps the graph, for the backend's walk); fast mode
    leaves it to the framework (a misuse strict mode refuses: docs/semantics.md, "Fast
    mode").
    """
    complex_ = False
    for i, y in enumerate(outs):
        kind = be.kind(y)
        if kind not in "fc":
            msg = message(
                f"outputs[{i}] is not differentiable",
                expected="a floating-point or complex output",
                got=f"{_KIND_NAMES.get(kind, kind)} tensor of dtype {be.dtype_name(y)}",
                fix="Compute the output in a floating-point dtype.",
            )
            raise NotDifferentiableError(msg)
        if not be.marked(y):
            msg = message(
                f"outputs[{i}] does not require grad",
                expected="an output computed from tensors that require grad",
                got="a tensor with no autograd history",
                fix=(
                    "Mark the inputs with unigrad.watch(x) before the forward pass, and "
                    "do not detach the output (a gradient computed with "
                    "create_graph=False is a constant)."
                ),
            )
            raise NotDifferentiableError(msg)
        if kind == "c":
            complex_ = True
    if fast:
        return complex_, None
    return complex_, be.refuse_constant_outputs(outs, retain)


def _all_none(values: tuple[Any, ...]) -> bool:
    for v in values:  # noqa: SIM110 (a loop: all(<genexpr>) costs more on every call)
        if v is not None:
            return False
    return True


def _batched_shape(shape: tuple[int, ...]) -> str:
    """``(B, 3, 4)`` for an output of shape ``(3, 4)``, ``(B,)`` for a scalar one."""
    return f"({', '.join(['B', *map(str, shape)])}{',' if not shape else ''})"


def _complex_needs_seed(be: Backend, y: Any, i: int) -> GradOutputsError:
    msg = message(
        f"grad_outputs[{i}] is None for a complex output",
        expected="an explicit seed for a complex output",
        got=f"None for an output of dtype {be.dtype_name(y)}",
        fix="Pass the seed (e.g. ones) explicitly; for a real loss take .real first.",
    )
    return GradOutputsError(msg)


def _check_seeds(
    be: Backend, outs: tuple[Any, ...], seeds: tuple[Any, ...], batched: bool
) -> tuple[Any, ...]:
    if not batched and _all_none(seeds):  # the common call: ones for real outputs
        for i, y in enumerate(outs):
            if be.kind(y) == "c":
                raise _complex_needs_seed(be, y, i)
        return seeds
    checked = list(seeds)
    batch: int | None = None
    for i, (y, s) in enumerate(zip(outs, seeds, strict=True)):
        if s is None:
            if batched:
                msg = message(
                    f"grad_outputs[{i}] is None with is_grads_batched=True",
                    expected="a seed whose first dim is the batch",
                    got="None",
                    fix="Pass a batched seed for every output, e.g. an identity matrix.",
                )
                raise GradOutputsError(msg)
            if be.kind(y) == "c":
                raise _complex_needs_seed(be, y, i)
            continue
        y_shape, s_shape = be.shape(y), be.shape(s)
        if batched:
            if len(s_shape) != len(y_shape) + 1 or s_shape[1:] != y_shape:
                msg = message(
                    f"grad_outputs[{i}] has the wrong shape for is_grads_batched=True",
                    expected=f"{_batched_shape(y_shape)} (a batch of the output's shape)",
                    got=f"{s_shape}",
                    fix="Put the batch in dim 0 and the output's shape after it.",
                )
                raise GradOutputsError(msg)
            if batch is None:
                batch = s_shape[0]
            elif s_shape[0] != batch:
                msg = message(
                    f"grad_outputs[{i}] has another batch size",
                    expected=f"batch size {batch}, as in the first batched seed",
                    got=f"{s_shape[0]}",
                    fix="Give every seed the same batch size.",
                )
                raise GradOutputsError(msg)
        elif s_shape != y_shape:
            msg = message(
                f"grad_outputs[{i}] has the wrong shape",
                expected=f"exactly the shape of outputs[{i}], {y_shape}",
                got=f"{s_shape}",
                fix="Pass a seed of the output's shape; unigrad never broadcasts seeds.",
            )
            raise GradOutputsError(msg)
        if not be.same_dtype(s, y):
            s_kind = be.kind(s)
            if s_kind == "c" and be.kind(y) != "c":
                msg = message(
                    f"grad_outputs[{i}] is complex for a real output",
                    expected=f"a real seed for outputs[{i}] of dtype {be.dtype_name(y)}",
                    got=f"dtype {be.dtype_name(s)}",
                    fix="Pass the real part of the seed, or make the output complex.",
                )
                raise GradOutputsError(msg)
            if s_kind not in "fcib":
                msg = message(
                    f"grad_outputs[{i}] has a non-numeric dtype",
                    expected="a numeric seed",
                    got=f"dtype {be.dtype_name(s)}",
                    fix="Pass a floating-point seed.",
                )
                raise GradOutputsError(msg)
            checked[i] = be.cast(s, y)
    return tuple(checked)


def _dedupe(values: tuple[Any, ...]) -> tuple[tuple[Any, ...], list[int]]:
    """Distinct values by identity, and for each original position its distinct index."""
    index: dict[int, int] = {}
    distinct: list[Any] = []
    where: list[int] = []
    for v in values:
        k = id(v)  # safe: every value is alive in `values` for the whole call
        j = index.get(k)
        if j is None:
            j = index[k] = len(distinct)
            distinct.append(v)
        where.append(j)
    return tuple(distinct), where


def _merge_outputs(
    be: Backend, outs: tuple[Any, ...], seeds: tuple[Any, ...]
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Duplicated outputs contribute twice: sum their seeds (the VJP is linear in them)."""
    if len(outs) == 1:
        return outs, seeds
    distinct, where = _dedupe(outs)
    if len(distinct) == len(outs):
        return outs, seeds
    merged: list[Any] = [None] * len(distinct)
    seen = [False] * len(distinct)
    for j, s in zip(where, seeds, strict=True):
        if not seen[j]:
            seen[j], merged[j] = True, s
            continue
        prev = merged[j]
        merged[j] = be.add(
            be.ones_like(distinct[j]) if prev is None else prev,
            be.ones_like(distinct[j]) if s is None else s,
        )
    return distinct, tuple(merged)


def _inputs(
    be: Backend, ins: tuple[Any, ...]
) -> tuple[tuple[Any, ...], list[int], list[str | None]]:
    """Distinct inputs that require grad; per original input, its index or -1 and a reason."""
    if len(ins) == 1:  # the common call: nothing to dedupe
        x = ins[0]
        if be.kind(x) in "fc" and be.requires_grad(x):  # (and nothing to remap)
            return ins, [0], [None]
        distinct, where = ins, [0]
    else:
        distinct, where = _dedupe(ins)
    keep: list[Any] = []
    remap: dict[int, int] = {}
    reasons: list[str | None] = [None] * len(distinct)
    for j, x in enumerate(distinct):
        kind = be.kind(x)
        if kind not in "fc":
            i = where.index(j)
            msg = message(
                f"inputs[{i}] is not differentiable",
                expected="a floating-point or complex input",
                got=f"{_KIND_NAMES.get(kind, kind)} tensor of dtype {be.dtype_name(x)}",
                fix="Cast the input to a floating-point dtype before the forward pass.",
            )
            raise NotDifferentiableError(msg)
        if be.requires_grad(x):
            remap[j] = len(keep)
            keep.append(x)
        else:
            reasons[j] = "does not require grad (mark it with unigrad.watch before the forward)"
    if len(keep) == len(distinct):  # every input kept: the positions are unchanged
        return distinct, where, reasons if len(where) == len(distinct) else [None] * len(where)
    return tuple(keep), [remap.get(j, -1) for j in where], [reasons[j] for j in where]


def _one_type(
    outs: tuple[Any, ...], ins: tuple[Any, ...], seeds: tuple[Any, ...], ngv: tuple[Any, ...]
) -> Backend | None:
    """`backend_for`'s answer when every tensor of the call has the first output's type
    and that type's backend is known (the common call); None otherwise."""
    cls = type(outs[0])
    be = _TYPE_CACHE.get(cls)
    if be is None:
        return None
    for group in (outs, ins, ngv):
        for v in group:
            if type(v) is not cls:
                return None
    for s in seeds:
        if s is not None and type(s) is not cls:
            return None
    return be


def _all_given(results: list[Any]) -> bool:
    for g in results:  # noqa: SIM110 (a loop: all(<genexpr>) costs more on every call)
        if g is None:
            return False
    return True


def _flags(
    create_graph: Any,
    retain_graph: Any,
    only_inputs: Any,
    allow_unused: Any,
    materialize_grads: Any,
    is_grads_batched: Any,
) -> tuple[bool, bool, bool | None, bool, bool]:
    """`grad`'s flags checked in the contract's order: ``(create, retain, allow_unused,
    materialize, batched)``; warns for ``only_inputs=False``."""
    if (
        type(create_graph) is bool  # (True or False: bool has no subclasses)
        and (retain_graph is None or type(retain_graph) is bool)
        and only_inputs is True
        and (allow_unused is None or type(allow_unused) is bool)
        and materialize_grads is False
        and is_grads_batched is False
    ):  # plain flags, the defaults where they matter (the common call): nothing to
        # check, warn about or convert
        return (
            create_graph,
            create_graph if retain_graph is None else retain_graph,
            allow_unused,
            False,
            False,
        )
    create = bool(_flag(create_graph, "create_graph"))
    retain = create if retain_graph is None else bool(_flag(retain_graph, "retain_graph"))
    if not _flag(only_inputs, "only_inputs"):
        warnings.warn(
            "only_inputs argument is deprecated and is ignored now (defaults to True). "
            "To accumulate gradient for other parts of the graph, use unigrad.backward.",
            FutureWarning,
            stacklevel=3,  # grad's caller
        )
    unused_ok = _flag(allow_unused, "allow_unused", optional=True)
    materialize = bool(_flag(materialize_grads, "materialize_grads"))
    if materialize and unused_ok is False:
        msg = message(
            "materialize_grads=True conflicts with allow_unused=False",
            expected="allow_unused=True or None with materialize_grads=True",
            got="allow_unused=False",
            fix="Drop allow_unused, or set materialize_grads=False.",
        )
        raise GradArgumentError(msg)
    return create, retain, unused_ok, materialize, bool(_flag(is_grads_batched, "is_grads_batched"))


def _batch_size(be: Backend, seeds: tuple[Any, ...]) -> int:
    return be.shape(next(s for s in seeds if s is not None))[0]


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    *,
    no_grad_vars: Any = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> tuple[Any, ...]:
    """Computes and returns the sum of gradients of ``outputs`` with respect to ``inputs``.

    The signature and semantics of ``torch.autograd.grad``, with ``paddle.grad``'s
    ``no_grad_vars`` and its ones-seeding of outputs of any shape, enforced identically
    on every backend (torch, paddle, jax, numpy). The backend is chosen from the
    tensors' types; ``docs/semantics.md`` lists every rule and the test that proves it.

    Args:
        outputs: A tensor or a sequence of tensors: the outputs of the differentiated
            function. Each must be floating-point or complex and require grad.
        inputs: A tensor or a sequence of tensors with respect to which the gradient is
            returned. Duplicates get the same gradient.
        grad_outputs: None, a tensor, or a sequence with exactly one entry per output:
            the "vector" of the vector-Jacobian product. A None entry means ones of the
            output's shape (real outputs only). Seeds must have the output's exact shape;
            other real dtypes are cast to the output's dtype. Default: None.
        retain_graph: If False, the graph used to compute the gradients is consumed: a
            later differentiation through it raises `GraphFreedError`. Defaults
            to ``create_graph``.
        create_graph: If True, the result is differentiable, for higher-order
            derivatives. Default: False.
        only_inputs: Deprecated and ignored, as in torch; ``False`` warns. Default: True.
        allow_unused: If True, an input that does not reach the outputs gets None; if
            None or False, it raises `UnusedInputError`. Default: None.
        no_grad_vars: Tensors through which no gradient flows (paddle). An input that
            reaches the outputs only through them is unused. Default: None.
        is_grads_batched: If True, dim 0 of every seed is a batch and the result has the
            batch dim first (torch). Default: False.
        materialize_grads: If True, unused inputs get zeros instead of None; implies
            ``allow_unused`` (torch). Default: False.

    Returns:
        A tuple with one gradient per input, each of the input's shape and dtype (with
        a leading batch dim under ``is_grads_batched``), or None for an unused input
        with ``allow_unused=True``.

    Raises:
        GradArgumentError: a container, flag or entry of the wrong type; empty inputs.
        GradOutputsError: seeds of the wrong length, shape or dtype.
        NotDifferentiableError: an output that does not require grad; an integer input.
        UnusedInputError: an input that does not reach the outputs.
        GraphFreedError: the graph was consumed by an earlier ``retain_graph=False``.
        BackendError: tensors of two frameworks, or of an unknown type.

    Examples:
        >>> import torch, unigrad
        >>> x = unigrad.watch(torch.tensor([1.0, 2.0, 3.0]))
        >>> unigrad.grad(x * x, x)   # a None seed means ones, for any shape
        (tensor([2., 4., 6.]),)
        >>> y1, y2 = x.sum() ** 2, (3 * x).sum()
        >>> g, = unigrad.grad([y1, y2], [x], [None, torch.tensor(2.0)])
        >>> g
        tensor([18., 18., 18.])
    """
    outs = _as_tuple(outputs, "outputs")
    ins = _as_tuple(inputs, "inputs")
    seeds = (None,) * len(outs) if grad_outputs is None else _seeds(grad_outputs, len(outs))
    ngv = () if no_grad_vars is None else _as_tuple(no_grad_vars, "no_grad_vars", allow_set=True)
    be = _one_type(outs, ins, seeds, ngv)
    if be is None:  # not all of one known type: the general search, and its errors
        groups: tuple[tuple[str, tuple[Any, ...]], ...] = (("outputs", outs), ("inputs", ins))
        if grad_outputs is not None or ngv:  # None seeds and no cuts have nothing to check
            groups += (("grad_outputs", seeds), ("no_grad_vars", ngv))
        be = backend_for(groups)

    create, retain, unused_ok, materialize, batched = _flags(
        create_graph, retain_graph, only_inputs, allow_unused, materialize_grads, is_grads_batched
    )
    fast = be.fast_checks and _fast()
    complex_out, dependence = _check_outputs(be, outs, bool(retain), fast)
    if grad_outputs is not None or batched or complex_out:  # (None seeds for real
        seeds = _check_seeds(be, outs, seeds, batched)  # outputs: nothing to check)
    if len(outs) > 1:
        outs, seeds = _merge_outputs(be, outs, seeds)
    used, where, reasons = _inputs(be, ins)

    results: list[Any] = []
    if used and batched and _batch_size(be, seeds) == 0:
        # vmap over an empty batch: an empty batch of gradients; nothing is run or consumed
        results = [be.zeros_like(x, 0) for x in used]
    elif used:
        if be.graph is not None:
            refuse_structural(be.graph, outs, used, ngv)
        request = GradRequest(
            outs, used, seeds, bool(retain), bool(create), batched, ngv, fast, dependence
        )
        results = be.grad(request)

    if -1 not in where and _all_given(results):
        # every input used (the common call): the results in input order
        if len(results) == len(where):  # no duplicates: the same order
            return tuple(results)
        return tuple(results[j] for j in where)
    batch = _batch_size(be, seeds) if batched else None
    out: list[Any] = []
    for i, j in enumerate(where):
        g = results[j] if j >= 0 else None
        if g is None:
            if materialize:
                g = be.zeros_like(ins[i], batch)
                if create:  # differentiable zeros, as torch makes them (a new leaf)
                    g = be.watch(g)
            elif not unused_ok:
                why = reasons[i] or "does not appear in the graph of the outputs"
                msg = message(
                    f"inputs[{i}] is unused: it {why}",
                    expected="every input to reach the outputs",
                    got=f"no path from the outputs to inputs[{i}]",
                    fix="Pass allow_unused=True to get None for it, or "
                    "materialize_grads=True to get zeros.",
                )
                raise UnusedInputError(msg)
        out.append(g)
    return tuple(out)


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """Accumulates the gradients of ``tensors`` into the ``.grad`` of the graph's leaves.

    ``torch.autograd.backward`` / paddle's ``Tensor.backward``, with the seed rules of
    `grad`: None seeds mean ones for real tensors of any shape, seeds must have
    the exact shape, and the graph is consumed unless ``retain_graph`` is True.

    Args:
        tensors: A tensor or a sequence of tensors to differentiate.
        grad_tensors: None, a tensor or one seed (or None) per tensor. Default: None.
        retain_graph: Keep the graph for another differentiation. Defaults to
            ``create_graph``.
        create_graph: Make the accumulated gradients differentiable. Default: False.
        inputs: Only accumulate into these tensors (leaves or not); default: every leaf.

    Raises:
        UnigradError: The errors of `grad`, for the same misuse.

    Examples:
        >>> import torch, unigrad
        >>> x = unigrad.watch(torch.tensor([1.0, 2.0]))
        >>> unigrad.backward(x * x)
        >>> x.grad
        tensor([2., 4.])
    """
    refuse_backward_in_step()
    outs = _as_tuple(tensors, "tensors")
    seeds = _seeds(grad_tensors, len(outs))
    leaves = None if inputs is None else _as_tuple(inputs, "inputs")
    be = backend_for((("tensors", outs), ("grad_tensors", seeds), ("inputs", leaves or ())))
    create = _flag(create_graph, "create_graph")
    retain = create if retain_graph is None else _flag(retain_graph, "retain_graph")
    fast = be.fast_checks and _fast()
    _, dependence = _check_outputs(be, outs, bool(retain), fast)
    seeds = _check_seeds(be, outs, seeds, batched=False)
    outs, seeds = _merge_outputs(be, outs, seeds)
    if leaves is not None:
        given = leaves
        leaves, where, reasons = _inputs(be, given)
        if -1 in where:
            i = where.index(-1)
            msg = message(
                f"inputs[{i}] is unused: it {reasons[i]}",
                expected="every tensor in `inputs` to require grad",
                got=f"inputs[{i}] of dtype {be.dtype_name(given[i])} without autograd history",
                fix="Watch it with unigrad.watch before the forward pass, or leave it out.",
            )
            raise UnusedInputError(msg)
        if be.graph is not None:
            refuse_structural(be.graph, outs, leaves)
    be.backward(BackwardRequest(outs, seeds, bool(retain), bool(create), leaves, fast, dependence))
