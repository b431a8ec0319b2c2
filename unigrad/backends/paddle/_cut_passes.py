"""`PaddleBackend.grad` with ``no_grad_vars`` (rule 11), and the passes that compute it
another way where paddle's pass through the cuts fails.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..._errors import GraphFreedError
from ._consumption import CONSUMED, _is_leaf_node, _refuse_consumed_toward
from ._cuts import _reachable
from ._engine import _PASS
from ._quirks import _complex_call, _refuse_wrong_kernels_among, _zero_grad
from ._records import _checked
from ._refcounts import _grad_fn

if TYPE_CHECKING:
    from .._base import GradRequest
    from ._adapter import PaddleBackend


def grad_cut(be: PaddleBackend, request: GradRequest) -> list[Any | None]:
    """``grad`` with ``no_grad_vars``.

    paddle's own ``no_grad_vars`` segfaults when a cut feeds a scale op, and when an
    input is itself cut: cut with zeroing hooks, decide reachability here. The pass
    runs toward every input the uncut pass reaches (a cut's branch with zeroed
    gradients, as torch's engine runs it), so that a consumed node there raises as
    it would without the cuts (rule 15); only the inputs reached past the cuts get
    a gradient. While no node was ever consumed, the cut branches are not run.
    A complex call refuses paddle's wrong double-grad kernels among the nodes reached
    past the cuts before any input is found unreached (rule 16a), as the pass
    without cuts does.
    """
    inputs = request.inputs
    cuts = [v for v in request.no_grad_vars or () if not v.stop_gradient]
    cut_ids = {id(v) for v in request.no_grad_vars or ()}
    cut_nodes = [_grad_fn(v) for v in cuts]
    reached = _reachable(request.outputs, set(cut_nodes))
    if _complex_call(request.outputs, inputs):
        # the refusal of paddle's wrong complex kernels is decided on the nodes this
        # walk reached (past no cut, through records' roots), before any input is
        # found unreached: complex ``abs``'s double-grad node has no edge to ``z``,
        # so a pass with no_grad_vars gave None where the same pass without them
        # refused; the pass without them (through here or not) walks the same nodes
        # (differential seed 2027, program 42545)
        _refuse_wrong_kernels_among(reached)
    # (fast mode: a consumed node raises in no pass, so the cut branches need not run)
    consumed = CONSUMED.any() and not request.fast
    uncut = _reachable(request.outputs, set()) if cut_nodes and consumed else reached
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
    _PASS.cuts = cut_ptrs
    try:
        try:
            computed = be._grads(request, used)
        except Exception as err:
            if isinstance(err, GraphFreedError):
                raise
            if uncut is reached:  # (no consumed node: the cut branches need not run)
                computed = _without_cut_outputs(be, request, used, set(cut_nodes), err)
            else:
                # the pass ran the cut branches toward inputs reached only through a
                # cut for their consumed nodes alone, and failed elsewhere (paddle
                # 3.3.1's complex abs double-grad node casts its zeros: "Data type
                # (complex64) is not supported when casting"): a consumed node there
                # raises, else the pass toward the inputs reached past the cuts
                # answers, as it does where no node was ever consumed (differential
                # seed 4040, program 1065 after 1064:
                # test_a_failing_cut_branch_leaves_its_inputs_unused_after_a_consumed_graph
                # in test_divergences_2026.py)
                run, used, computed = _past_the_cuts(be, request, run, reached, set(cut_nodes), err)
    finally:
        _PASS.cuts = frozenset()
        for h in handles:
            h.remove()
    for i, g in zip(run, computed, strict=True):
        if _grad_fn(inputs[i]) in reached:  # else a cut branch's zeros: unused
            grads[i] = g
    if not request.retain_graph and not request.fast:
        be._consume(
            request.outputs,
            used,
            cut_ptrs,
            list_ops=not request.create_graph,
            dependence=True,
            owners=(*request.outputs, *(g for g in grads if g is not None)),
        )
    return grads


def _past_the_cuts(
    be: PaddleBackend,
    request: GradRequest,
    run: list[int],
    reached: set[Any],
    cuts: set[Any],
    err: Exception,
) -> tuple[list[int], tuple[Any, ...], list[Any]]:
    """`_grad_cut`'s pass toward the inputs ``run`` failed with ``err`` (not a consumed
    node's) after a consuming pass: `GraphFreedError` if a consumed node toward them
    raises (paddle's engine may have failed before it ran one), else the pass toward
    those reached past the cuts, from the outputs that reach them past the cuts
    (`_without_cut_outputs`). Returns the new ``run``, its inputs and their
    gradients."""
    inputs = request.inputs
    past = [i for i in run if _grad_fn(inputs[i]) in reached]
    _refuse_consumed_toward(
        request.outputs, tuple(inputs[i] for i in run), _checked(request.outputs)
    )
    used = tuple(inputs[i] for i in past)
    if not past:
        return past, used, []
    if len(past) < len(run):
        try:
            return past, used, be._grads(request, used)
        except GraphFreedError:
            raise
        except Exception as again:
            err = again
    return past, used, _without_cut_outputs(be, request, used, cuts, err)


def _without_cut_outputs(
    be: PaddleBackend, request: GradRequest, inputs: tuple[Any, ...], cuts: set[Any], err: Exception
) -> list[Any]:
    """`_grad_cut`'s pass toward ``inputs`` failed with ``err``: the same pass from the
    outputs that reach an input past the cuts (``inputs`` are reached so). An
    output whose every path to the inputs crosses a cut sends them zeros, but
    paddle's pass runs its branch: through complex ``abs``'s double-grad node, which
    cannot cast the zeros there ("Data type (complex128) is not supported when
    casting", an `UnsupportedDtypeError`: differential seed 6076, program 4442).
    ``err`` again where every output reaches an input past the cuts."""
    targets = {_grad_fn(x) for x in inputs}
    keep = [
        j for j, y in enumerate(request.outputs) if not targets.isdisjoint(_reachable((y,), cuts))
    ]
    if len(keep) == len(request.outputs) or not keep:
        raise err
    part = request._replace(
        outputs=tuple(request.outputs[j] for j in keep),
        seeds=tuple(request.seeds[j] for j in keep),
    )
    return be._grads(part, inputs)
