"""`TorchBackend`: ``torch.autograd.grad`` and ``torch.autograd.backward`` with the
contract's bookkeeping around them.
"""

from __future__ import annotations

import warnings
from typing import Any

import torch

from ..._errors import (
    GradOutputsError,
    NotDifferentiableError,
    message,
)
from .._base import (
    Backend,
    BackwardRequest,
    Capabilities,
    FunctionalImpl,
    GradRequest,
    Kind,
)
from ._consumption import (
    _CONSUMED,
    _LIVE,
    _clean,
    _consume,
    _leaves_of,
    _plan,
    _runs_uncut,
    _useful,
)
from ._engine import _KINDS, _filled, _has_torch_function, _run_backward, _translate
from ._graph import _NO_CUTS
from ._records import _GRAPH, _attach, _new_record
from ._restricted import (
    _behind_cuts,
    _beyond_cuts,
    _freed,
    _frees_unrun,
    _reached_unrun,
    _run_restricted,
    _run_restricted_batched,
)
from ._structure import (
    _constant_detached,
    _cut_hooks,
    _depends,
    _edge_cut_hooks,
    _has_cuts,
    _reachable,
    _refuse_constant_outputs,
)


class TorchBackend(Backend):
    """Adapter for `torch` tensors."""

    name = "torch"
    framework = "torch"
    fast_checks = True
    watch_in_place = True  # requires_grad_()
    graph = _GRAPH
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

    def functional(self) -> FunctionalImpl:
        from ...functional import _torch

        return _torch

    def kind(self, x: Any) -> Kind:
        return _KINDS[x.dtype]

    def shape(self, x: Any) -> tuple[int, ...]:
        return tuple(x.shape)

    def same_dtype(self, a: Any, b: Any) -> bool:
        return bool(a.dtype == b.dtype)

    def dtype_name(self, x: Any) -> str:
        return str(x.dtype).removeprefix("torch.")

    def requires_grad(self, x: Any) -> bool:
        # rule 14: torch marks sign(x) or sin(sign(x)) as requiring grad, but a tensor
        # whose every path to a leaf crosses a cut edge depends on nothing (as an input
        # of backward(inputs=...) it is one that does not require grad:
        # test_an_input_that_depends_on_nothing_is_one_that_does_not_require_grad in
        # test_differential_extensions.py)
        if not x.requires_grad:
            return False
        fn = x.grad_fn
        return fn is None or _depends(fn)

    def marked(self, x: Any) -> bool:
        return bool(x.requires_grad)

    def has_history(self, x: Any) -> bool:
        return x.grad_fn is not None

    def refuse_constant_outputs(self, outputs: tuple[Any, ...], retain_graph: bool) -> bool:
        # the one walk of the outputs' graph for rule 14 (`_has_cuts`); its answer comes
        # back as the request's ``dependence``
        has_cuts = _has_cuts(outputs)
        if has_cuts:
            _refuse_constant_outputs(outputs)
        return has_cuts

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
        outputs, inputs, seeds, retain_graph, create_graph, batched, no_grad_vars, fast, dep = (
            request
        )
        # (rule 14's constant outputs were refused by the front: refuse_constant_outputs,
        # whose walk answered `_has_cuts` as ``dep``; in both modes, as an input reached
        # only through a zero-derivative edge is None in both)
        has_cuts = _has_cuts(outputs) if dep is None else bool(dep)
        # (full-range slices and ambiguous intermediates were refused by the front:
        # `unigrad.contract.refuse_structural` through `_TorchGraph`)
        cuts = _NO_CUTS
        cut_ids: set[int] = set()
        if no_grad_vars:  # a cut input is unused: the pass never runs toward it
            cuts = frozenset(
                (v.grad_fn, v.output_nr) for v in no_grad_vars if v.grad_fn is not None
            )
            cut_ids = {id(v) for v in no_grad_vars}
            kept = tuple(x for x in inputs if id(x) not in cut_ids)
            if _LIVE and not fast:
                # no_grad_vars never excuse a consumed graph (rule 15): torch's engine
                # runs a cut's node (its gradients dropped), so the uncut pass's check
                _plan(outputs, kept, edge_cuts=has_cuts)
            runs = (
                None if fast and len(outputs) == 1 else _plan(outputs, kept, cuts, has_cuts or fast)
            )
        elif (fast and len(outputs) == 1) or (retain_graph and not _LIVE):
            # Fast mode keeps no consumed-graph bookkeeping (torch frees what it ran);
            # several outputs are still walked, to leave out those that reach no input
            # (`_useful`: torch would run them). In strict mode:
            # No flagged node is alive (nothing to find), the pass consumes nothing
            # (nothing to flag) and cuts nothing: the walk cannot matter. torch's engine
            # runs only the nodes that lead to the inputs (an output that leads to none
            # is not run, and retained buffers are not freed), the contract's pass.
            runs = None
        else:  # (fast mode, several outputs: every edge read as a cut might be)
            runs = _plan(outputs, inputs, edge_cuts=has_cuts or fast)
        if runs is not None and (len(outputs) > 1 or not runs):
            # one output whose node runs is useful
            outputs, seeds = _useful(outputs, seeds, inputs, runs)
            if not outputs:
                return [None] * len(inputs)
        for s in seeds:  # (a loop: any(<genexpr>) costs more, on every call)
            if s is not None:
                self._check_devices(outputs, seeds)
                break
        rec = _new_record(request, inputs) if create_graph else None
        handles = []
        unreached: list[int] = []
        # create_graph results must stay differentiable after retain_graph=False: torch
        # keeps the buffers, unigrad marks the pass's nodes consumed (see _check_consumed)
        # torch frees what it ran; the contract consumes only what the pass needed:
        # nothing beyond a no_grad_vars cut, whose branch torch still runs (zeroed)
        retain = retain_graph or create_graph or bool(no_grad_vars)
        # an input reached only through cut edges (no_grad_vars, `_CUT_EDGES`) is unused
        behind = False
        saving: list[Any] = []
        if no_grad_vars or has_cuts:
            cut_nodes: list[Any] = []
            edges, leaves = _reachable(outputs, cuts, cut_nodes)
            if cut_nodes:
                behind, saving = _behind_cuts(cut_nodes, edges)
            if not behind and has_cuts:
                behind, more = _reached_unrun(edges, runs, inputs)
                saving += more
            unreached = [
                i
                for i, x in enumerate(inputs)
                if id(x) in cut_ids
                or (x.grad_fn is None and id(x) not in leaves)
                or (x.grad_fn is not None and (x.grad_fn, x.output_nr) not in edges)
            ]
        if unreached:
            # torch would still run toward them (their gradients are then dropped, or
            # zeros), through nodes an earlier pass may have consumed: leave them out
            if len(unreached) == len(inputs):
                if not retain_graph and not fast:
                    _consume(runs, inputs, _clean(has_cuts, no_grad_vars))
                return [None] * len(inputs)
            inputs = tuple(x for i, x in enumerate(inputs) if i not in unreached)
        restricted = None
        if behind:
            # torch's engine would run a node beyond a cut edge (rule 14) that an
            # earlier pass freed: the contract's nodes run one by one
            restricted = _beyond_cuts(outputs, inputs, cuts)
        carried = None
        if restricted is None and saving and not retain:
            # the engine would free nodes behind a cut that the pass does not run
            # (rule 6b): it keeps the graph, the contract consumes the pass's own
            retain, carried = _frees_unrun(
                saving, outputs, inputs, runs, _clean(has_cuts, no_grad_vars), edges
            )
        if restricted is None:
            if no_grad_vars:
                handles = _cut_hooks(no_grad_vars)
            if create_graph and has_cuts:
                handles += _edge_cut_hooks(outputs)
        try:
            if restricted is not None:
                run = _run_restricted_batched if batched else _run_restricted
                filled = seeds if batched else _filled(outputs, seeds)
                result = run(outputs, filled, inputs, restricted, create_graph, cuts)
            elif _run_backward is None or batched or _has_torch_function(outputs + inputs):
                result = torch.autograd.grad(
                    outputs,
                    inputs,
                    self._seeds(outputs, seeds),
                    retain_graph=retain,
                    create_graph=create_graph,
                    allow_unused=True,
                    is_grads_batched=batched,
                )
            else:
                result = _run_backward(
                    outputs,
                    _filled(outputs, seeds),
                    retain,
                    create_graph,
                    inputs,
                    True,
                    accumulate_grad=False,
                )
        except RuntimeError as err:
            raise _translate(err) from err
        finally:
            for h in handles:
                h.remove()
        if not retain_graph and not fast:
            _consume(runs, inputs, _clean(has_cuts, no_grad_vars), carried)
        out = list(result)
        if create_graph and not fast:  # a result that depends on nothing is a constant
            out = [_constant_detached(g, rec) for g in out]  # (rule 14; fast skips it)
        if unreached:
            got = iter(out)
            out = [None if i in unreached else next(got) for i in range(len(request.inputs))]
        if rec is not None:
            _attach(rec, out)
        return out

    def backward(self, request: BackwardRequest) -> None:
        if request.inputs is not None:
            self._backward_into(request, request.inputs)
            return
        outputs, seeds, fast = request.outputs, request.seeds, request.fast
        dep = request.dependence  # (the front's rule-14 walk, when it ran)
        has_cuts = _has_cuts(outputs) if dep is None else bool(dep)
        # the pass's nodes: its leaves, and what it consumes (fast mode: no consumption
        # bookkeeping, so no walk unless rule 14 or create_graph needs the leaves); a node
        # reached only through a cut edge is not the pass's (rule 14): not consumed
        need = not fast or has_cuts or request.create_graph
        runs = _plan(outputs, None, edge_cuts=has_cuts) if need else None
        for s in seeds:
            if s is not None:
                self._check_devices(outputs, seeds)
                break
        seeds = self._seeds(outputs, seeds)
        leaves, rec = [], None
        only = None
        restricted = None
        retain = request.retain_graph
        carried = None
        if has_cuts and runs is not None:
            # a leaf reached only through cut edges (rule 14) keeps its .grad, as the
            # tapes' backward leaves it: the pass accumulates into the others only
            cut_nodes: list[Any] = []
            reached, live = _reachable(outputs, _NO_CUTS, cut_nodes)
            every = _leaves_of(outputs, _runs_uncut(outputs))
            only = [x for x in every if id(x) in live]
            if len(only) == len(every):
                only = None
            elif not only:
                if not request.retain_graph and not fast:
                    _consume(runs, None, _clean(has_cuts))
                return
            behind, saving = _behind_cuts(cut_nodes, reached) if cut_nodes else (False, [])
            if behind:  # (as in `grad`)
                restricted = _beyond_cuts(outputs, tuple(only or every), _NO_CUTS)
            elif saving and not retain:  # (as in `grad`)
                into = None if only is None else tuple(only)
                retain, carried = _frees_unrun(
                    saving, outputs, into, runs, _clean(has_cuts), reached
                )
        if request.create_graph and runs is not None:  # the leaves' .grad, as
            # grad(create_graph=True)'s results
            leaves = _leaves_of(outputs, runs) if only is None else only
            rec = _new_record(request, leaves)
        try:
            if restricted is not None:
                targets = tuple(only or every)
                grads = _run_restricted(
                    outputs, _filled(outputs, seeds), targets, restricted, request.create_graph
                )
                _accumulate(targets, grads, request.create_graph)
            else:
                torch.autograd.backward(
                    outputs,
                    seeds,
                    retain_graph=retain,
                    create_graph=request.create_graph,
                    inputs=only,
                )
        except RuntimeError as err:
            raise _translate(err) from err
        if not request.retain_graph and not fast:
            _consume(runs, None, _clean(has_cuts), carried)
        if rec is not None:
            if not fast:  # a .grad that depends on nothing is a constant (rule 14)
                for x in leaves:
                    g = _constant_detached(x.grad, rec)
                    if g is not x.grad:
                        x.grad = g
            _attach(rec, [x.grad for x in leaves])

    def _backward_into(self, request: BackwardRequest, inputs: tuple[Any, ...]) -> None:
        """``backward(inputs=...)``: torch's own engine call, so that every hook fires as
        in ``torch.autograd.backward`` (tensor hooks, the nodes' pre- and post-hooks,
        the accumulators' hooks, ``retain_grad``, post-accumulate hooks: torch's
        ``test_hook_edge_case_when_called_with_grad`` and ``test_prehook_ordering``),
        with the contract's checks and consumption around it. torch's engine runs a
        non-leaf input's own node to fill its ``.grad``: that node is kept (the
        buffers retained) and not consumed, as the contract's pass never runs it; where
        an earlier pass consumed it (marked, or in fast mode, which keeps no marks, its
        saved tensors freed: differential seed 5052 program 654), torch cannot fill that
        ``.grad``, and the gradients are taken with `grad` and accumulated as torch's
        AccumulateGrad does."""
        intermediate = [x for x in inputs if x.grad_fn is not None]
        if intermediate and any(
            _CONSUMED in x.grad_fn.metadata or _freed(x.grad_fn) for x in intermediate
        ):
            grads = self.grad(
                GradRequest(
                    request.outputs,
                    inputs,
                    request.seeds,
                    request.retain_graph,
                    request.create_graph,
                    False,
                    (),
                    request.fast,
                )
            )
            _accumulate(inputs, grads, request.create_graph)
            return
        outputs, seeds, fast = request.outputs, request.seeds, request.fast
        dep = request.dependence  # (the front's rule-14 walk, when it ran)
        has_cuts = _has_cuts(outputs) if dep is None else bool(dep)
        # (fast mode: no consumption bookkeeping, so no walk)
        runs = None if fast else _plan(outputs, inputs, edge_cuts=has_cuts)
        for s in seeds:
            if s is not None:
                self._check_devices(outputs, seeds)
                break
        restricted = None
        # (torch frees what it ran, a non-leaf input's node included: retained, and the
        # contract's consumption marked below)
        retain = request.retain_graph or request.create_graph or bool(intermediate)
        carried = None
        if has_cuts:
            # an input reached only through cut edges (rule 14) keeps its .grad
            cut_nodes: list[Any] = []
            edges, leaves = _reachable(outputs, _NO_CUTS, cut_nodes)
            live = tuple(
                x
                for x in inputs
                if (id(x) in leaves if x.grad_fn is None else (x.grad_fn, x.output_nr) in edges)
            )
            if not live:
                if not request.retain_graph and not fast:
                    _consume(runs, inputs, _clean(has_cuts))
                return
            inputs = live
            behind, saving = _behind_cuts(cut_nodes, edges) if cut_nodes else (False, [])
            if not behind:  # (as in `grad`)
                behind, more = _reached_unrun(edges, runs, inputs)
                saving += more
            if behind:  # (as in `grad`)
                restricted = _beyond_cuts(outputs, inputs, _NO_CUTS)
            elif saving and not retain:  # (as in `grad`)
                retain, carried = _frees_unrun(
                    saving, outputs, inputs, runs, _clean(has_cuts), edges
                )
        rec = _new_record(request, inputs) if request.create_graph else None
        try:
            if restricted is not None:
                grads = _run_restricted(
                    outputs, _filled(outputs, seeds), inputs, restricted, request.create_graph
                )
                _accumulate(inputs, grads, request.create_graph)
            else:
                torch.autograd.backward(
                    outputs,
                    self._seeds(outputs, seeds),
                    retain_graph=retain,
                    create_graph=request.create_graph,
                    inputs=inputs,
                )
        except RuntimeError as err:
            raise _translate(err) from err
        if not request.retain_graph and not fast:
            _consume(runs, inputs, _clean(has_cuts), carried)
        if rec is not None:
            for x in inputs:  # a .grad that depends on nothing is a constant (rule 14)
                g = _constant_detached(x.grad, rec)
                if g is not x.grad:
                    x.grad = g
        if rec is not None:
            _attach(rec, [x.grad for x in inputs])

    def watch(self, x: Any) -> Any:
        if not isinstance(x, torch.Tensor):
            msg = message(
                "watch() needs a tensor",
                expected="a torch.Tensor",
                got=type(x).__name__,
                fix="Convert the value with torch.as_tensor first.",
            )
            raise NotDifferentiableError(msg)
        if _KINDS[x.dtype] not in "fc":
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

    def detach(self, x: Any) -> Any:
        return x.detach()

    def to_numpy(self, x: Any) -> Any:
        t = x.detach()
        if t._is_zerotensor():  # torch's lazily zero gradients (second order of abs)
            t = torch.zeros(t.shape, dtype=t.dtype)
        if t.dtype is torch.bfloat16:  # NumPy has no bfloat16: float32 holds it exactly
            t = t.float()
        t = t.cpu().resolve_conj().resolve_neg()
        # a copy: `.numpy()` of a CPU tensor shares its memory, so a later in-place
        # update (backward accumulating into .grad) would change the "host copy"
        return t.numpy().copy()

    def namespace(self) -> Any:
        # array-api-compat's namespace seen through unigrad's portable list
        from ..._array_api import _torch

        return _torch.build()


def _accumulate(inputs: tuple[Any, ...], grads: list[Any], create_graph: bool) -> None:
    """Add ``grads`` into the inputs' ``.grad`` as torch's AccumulateGrad does, for the
    passes that compute them with `grad` or `_run_restricted` instead of torch's
    ``backward``."""
    for x, g in zip(inputs, grads, strict=True):
        if g is None:
            continue
        if not create_graph:
            g = g.detach()
        with warnings.catch_warnings():
            # reading a non-leaf's .grad warns unless it was set: this sets it
            warnings.simplefilter("ignore", UserWarning)
            prev = x.grad
        x.grad = g.clone() if prev is None else prev + g


BACKEND = TorchBackend()
