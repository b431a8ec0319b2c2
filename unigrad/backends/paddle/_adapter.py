"""`PaddleBackend`: ``paddle.grad`` and ``Tensor.backward`` held to unigrad's contract.

* no ``is_grads_batched``: the batch is a loop over seeds with the graph retained,
  stacked (differentiably under ``create_graph``);
* its argument checks are ``assert`` statements (gone under ``python -O``) and it never
  checks a seed's shape: the front checks everything before paddle sees it;
* duplicates are merged by the front; errors are mapped to unigrad's classes
  (`_engine._translate`).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Sequence
from typing import Any

import paddle

from ..._errors import (
    NotDifferentiableError,
    UnsupportedDtypeError,
    UnsupportedFeatureError,
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
    CONSUMED,
    _is_leaf_node,
    _mark_executed,
    _refuse_consumed_before_backward,
)
from ._cut_passes import grad_cut
from ._cuts import (
    _cuts_dependence,
    _left_alone,
    _reachable,
    _reaches_leaf,
    _refuse_constant_outputs,
)
from ._dtypes import _COMPLEX, _any_complex, _kind_of
from ._engine import (
    _NESTED_MESSAGE,
    _PASS,
    ENGINE_LOCK,
    _has_grad,
    _missing_base_grad,
    _no_grad_op,
    _paddle_grad,
    _quiet_glog,
    _set_has_grad,
    _translate,
)
from ._list_operands import OPERANDS, left_out
from ._nodes import next_functions, node_ptr, reach
from ._quirks import (
    _STOP_STRUCTURE,
    _complex_call,
    _copies_of_inputs,
    _made_by_a_view,
    _merge_aliases,
    _NoHigherOrder,
    _own_seeds,
    _refuse_aliases,
    _refuse_pylayer_cuts,
    _refuse_wrong_kernels_among,
    complex_cast_seen,
    invalid_slot,
    no_higher_order_made,
    refuse_no_higher_order,
    through_double_grad_results,
    watch_complex_casts,
)
from ._records import (
    _GRAPH,
    CALLS,
    _call_inputs_behind,
    _check_carried,
    _checked,
    _record_call,
    _refuse_unrecorded,
    carried_of,
)
from ._refcounts import _give_back, _grad_fn
from ._structure import (
    CUT_NODES,
    own_shared_nodes,
    recorded,
    seed_copies,
    structure,
)

#: The leaves `PaddleBackend.watch` made, by ``id`` (paddle's ``==`` is elementwise: no
#: set of tensors), as long as they live: the leaves ``backward()`` without ``inputs``
#: can leave alone (`_cuts._left_alone`).
_WATCHED: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()


def _leaf_nodes(roots: list[Any]) -> set[Any]:
    """The leaves' accumulation nodes the roots reach."""
    return {n for n in reach(roots, next_functions, key=node_ptr) if _is_leaf_node(n)}


#: What paddle 3.3.1 raises running a node whose saved tensors ``backward()`` freed.
_FREED = "TensorWrappers"

#: `_PASS.plain` of a fast-mode pass: no consumed node raises.
_NONE_RAISES: frozenset[int] = frozenset()


def _stops(inputs: Sequence[Any]) -> set[int]:
    """The pointer of the one input's node a pass stops at: a gradient graph behind the
    only input is not the pass's (``grad(sum(abs(g * g)), g)`` of a complex
    ``create_graph`` result ``g`` is a first derivative). None beside other inputs:
    whether one leads to another is not read from paddle's graph, whose complex ``abs``
    double-grad node has no edge to its operand (``grad(g0 - g1, [x, g0])`` for results
    ``g0``, ``g1`` of ``x`` runs through ``g0``'s graph toward ``x``: differential seed
    9001, program 2625)."""
    nodes = {n.node_ptr() for n in map(_grad_fn, inputs) if n is not None}
    return nodes if len(nodes) == 1 else set()


class PaddleBackend(Backend):
    """Adapter for `paddle` tensors (dynamic graph mode)."""

    name = "paddle"
    framework = "paddle"
    fast_checks = True
    graph = _GRAPH
    watch_in_place = True  # stop_gradient = False
    capabilities = Capabilities(
        max_order=2,
        native_batched=False,
        backward_create_graph=False,
        leaf_hooks_in_grad=False,
        float16_cpu=False,
        functional=True,
        # (no_second_order: none; the namespace computes every function whose kernel has
        # no higher-order gradient through a formulation paddle differentiates to any
        # order, unigrad/_array_api/_paddle_ho.py)
    )

    def owns(self, cls: type) -> bool:
        return issubclass(cls, paddle.Tensor)

    def versions(self) -> dict[str, str]:
        return {"paddle": str(paddle.__version__)}

    def functional(self) -> FunctionalImpl:
        from ...functional import _paddle

        return _paddle

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
        if x.is_leaf:  # (the common input: its own accumulation node, no walk)
            return True
        node = _grad_fn(x)
        return node is None or _reaches_leaf(node, False)

    def marked(self, x: Any) -> bool:
        return not x.stop_gradient

    def has_history(self, x: Any) -> bool:
        return not x.stop_gradient and not x.is_leaf

    def refuse_constant_outputs(self, outputs: tuple[Any, ...], retain_graph: bool) -> bool:
        # the one walk of the outputs' graph for rule 14 (`_cuts_dependence`); its
        # answer comes back as the request's ``dependence``
        cut = _cuts_dependence(outputs, retain_graph)
        if cut:
            _refuse_constant_outputs(outputs, retain_graph)
        return cut

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
        complex_call = _complex_call(outputs, inputs)
        if not complex_call and not no_higher_order_made():
            return
        # (not past the running pass's no_grad_vars: the cut branch brings zeros, which
        # `_NoHigherOrder` lets through: test_a_complex_create_graph_result_as_a_cut in
        # test_any_program.py)
        roots = map(_grad_fn, outputs)
        stops = _stops(inputs)
        nodes = list(
            reach(
                roots,
                next_functions,
                key=node_ptr,
                exclude=_PASS.cuts,
                through=lambda n: n.node_ptr() not in stops,
            )
        )
        if complex_call:
            _refuse_wrong_kernels_among(nodes)
        # (a real pass through a complex call's result, or a real call's that computed
        # through complex values: `watch_complex_casts`)
        refuse_no_higher_order(nodes)

    def _call(
        self,
        outputs: tuple[Any, ...],
        inputs: tuple[Any, ...],
        seeds: list[Any],
        retain: bool,
        create: bool,
        fast: bool = False,
    ) -> list[Any]:
        self._refuse_wrong_kernels(outputs, inputs)
        state = _PASS.__dict__  # this thread's; getattr on a local costs ~0.5 us
        if state.get("in_grad"):
            # paddle.grad inside paddle.grad (from a tensor hook) crashes or hangs
            state["nested"] = err = UnsupportedFeatureError(_NESTED_MESSAGE)
            raise err
        grad_mode = _has_grad()
        if OPERANDS.entries:  # (the graphs let go since: `_list_operands`)
            OPERANDS.sweep()
        state["in_grad"] = True
        # (fast mode: a node consumed by a strict-mode call lets the pass through, as
        # paddle does: no `_checked` walk; docs/semantics.md, "Fast mode", row 6b; strict
        # mode: `_checked` is computed when a consumed node first runs)
        _PASS.plain = _NONE_RAISES if fast else functools.partial(_checked, outputs)
        _PASS.call = (outputs, inputs)

        def run(targets: list[Any]) -> list[Any]:
            # rule 6b: a list op's operand branch that leads to none of the targets is
            # not the pass's, where paddle runs it (`_list_operands`): left out where it
            # holds a consumed node, or, where a node there made the pass fail (one
            # paddle's backward() freed, or, in a create_graph pass, one with no
            # double-grad kernel: imag's), in the pass run again
            cut = (
                left_out(outputs, targets, consumed=True, keep=retain)
                if not fast and OPERANDS.entries and CONSUMED.any()
                else []
            )
            try:
                return _paddle_grad(list(outputs), targets, seeds, retain, create, cut)
            except Exception as err:
                text = str(err)
                if not OPERANDS.entries or (
                    _FREED not in text and not (create and _no_grad_op(text))
                ):
                    raise
                more = left_out(outputs, targets, consumed=False)
                if len(more) == len(cut):
                    raise
                _set_has_grad(grad_mode)
                return _paddle_grad(list(outputs), targets, seeds, retain, create, more)

        try:
            with _quiet_glog():
                try:
                    return run(list(inputs))
                except Exception as err:
                    if any(map(_made_by_a_view, inputs)):
                        raise  # (more inputs beside a view-made one: `_VIEW_NODES`)
                    if invalid_slot(str(err)):
                        _set_has_grad(grad_mode)
                        got = through_double_grad_results(
                            outputs,
                            inputs,
                            _call_inputs_behind(outputs, inputs, seeds=True),
                            run,
                        )
                        if got is None:
                            raise
                        return got
                    if not _missing_base_grad(str(err)):
                        raise
                    # paddle 3.3.1's PowDoubleGradNode needs its base's gradient
                    # (`_engine._MISSING_BASE_GRAD`): the same pass, asked for it too
                    _set_has_grad(grad_mode)
                    extra = _call_inputs_behind(outputs, inputs)
                    if not extra:
                        raise
                    both = [*inputs, *extra]
                    return run(both)[: len(inputs)]
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
            real = not _any_complex(request.outputs, request.inputs)
            with ENGINE_LOCK:
                # (a real call's complex intermediates, a complex call's real abs)
                watch_complex_casts(request.outputs)
                grads = self._grad(request._replace(seeds=seeds))
                through_complex = real and complex_cast_seen()
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
            # (paddle's kernels with missing edges are wrong on complex dtypes only; an
            # input the outputs do not reach brings no complex tensor into the graph: a
            # complex one beside a real call left the real abs's constant gradient
            # requiring grad, differential seed 6074, program 1610)
            used = [x for x, g in zip(inputs, grads, strict=True) if g is not None]
            complex_graph = through_complex or _any_complex(request.outputs, used)
            stop = _STOP_STRUCTURE if complex_graph else frozenset()
            if complex_graph:
                # paddle differentiates complex gradients wrongly (`_refuse_wrong_kernels`)
                # and a later backward(), which does not know its leaves before the pass,
                # may run through them from a real output: the results refuse in any pass
                # (wrapped first: `structure` may give a result a node and record of its
                # own, which live as long as the tensor returned)
                # (then through a native identity op: paddle runs no tensor hook on a
                # PyLayer's output, so a cut there was refused where the other backends
                # answer: test_a_complex_create_graph_result_as_a_cut
                # in test_any_program.py)
                with paddle.set_grad_enabled(True):  # (as create_graph records, always)
                    for i, g in enumerate(grads):
                        if g is not None and not g.stop_gradient:
                            grads[i] = _NoHigherOrder.apply(g).clone()
            returned = list(grads)  # (the list ops' owners: `CONSUMED.adopt`)
            own_shared_nodes(grads)
            # (in fast mode too: a result that keeps paddle's spurious graph, a constant
            # that keeps its history, carries a record and reaches what strict mode's
            # result does not, and a later call refused there (16g, paddle's complex
            # kernels) where strict mode answers: differential seed 26, programs 2954,
            # 8273)
            nodes, outs = structure(request.outputs, inputs, live, cuts, grads, _grad_fn, stop)
            seed_copies(own, grads)
            if CONSUMED.lists:
                CONSUMED.adopt(returned, grads)
            _record_call(request, grads, nodes, outs, seeds)
        return grads

    def _grad(self, request: GradRequest) -> list[Any | None]:
        # (full-range slices and ambiguous intermediates were refused by the front:
        # `unigrad.contract.refuse_structural` through `_PaddleGraph`)
        if len(request.inputs) > 1:
            _refuse_aliases(request.inputs)
        if request.no_grad_vars:
            _refuse_pylayer_cuts(request.outputs, request.no_grad_vars)
        _refuse_unrecorded(request.outputs, request.inputs, request.no_grad_vars or ())
        fast = request.fast
        if not fast:  # (fast mode: no consumed-graph bookkeeping, docs/semantics.md)
            inputs = request.inputs
            if request.no_grad_vars:  # (a cut input runs no pass, rule 11: seed 403, 1819)
                cut = {id(v) for v in request.no_grad_vars}
                inputs = tuple(x for x in inputs if id(x) not in cut)
            _check_carried(request.outputs, inputs)
        # (rule 14's constant outputs were refused by the front: refuse_constant_outputs,
        # whose walk answered `_cuts_dependence` as the request's ``dependence``; in both
        # modes, as an input reached only through a zero-derivative node is None in both)
        cuts_dependence = (
            _cuts_dependence(request.outputs, request.retain_graph)
            if request.dependence is None
            else request.dependence
        )
        if request.no_grad_vars or recorded() or cuts_dependence:
            # a create_graph result's spurious edges, or an edge through a node whose
            # derivative is zero (rule 14), may reach an input: leave it out
            return grad_cut(self, request)
        grads: list[Any | None] = self._grads(request, request.inputs)
        if not request.retain_graph and not fast:
            # (create_graph: its results stay differentiable, rule 15)
            self._consume(
                request.outputs,
                request.inputs,
                list_ops=not request.create_graph,
                owners=(*request.outputs, *(g for g in grads if g is not None)),
            )
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
            return self._passes(
                outputs, inputs, seeds, request.retain_graph, request.create_graph, request.fast
            )
        batch = next(s.shape[0] for s in seeds if s is not None)
        rows = [
            self._passes(
                outputs, inputs, [s[b] for s in seeds], True, request.create_graph, request.fast
            )
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
        fast: bool = False,
    ) -> list[Any]:
        """``_call``, with each input made by a view op in a pass of its own when other
        inputs share the pass (see ``_VIEW_NODES``: paddle gives those a wrong number)."""
        views = [i for i, x in enumerate(inputs) if _made_by_a_view(x)] if len(inputs) > 1 else []
        if not views:
            return self._call(outputs, inputs, seeds, retain, create, fast)
        grads: list[Any] = [None] * len(inputs)
        for i in views:
            (grads[i],) = self._call(outputs, (inputs[i],), seeds, True, create, fast)
        rest = [i for i in range(len(inputs)) if i not in views]
        if rest:
            rest_in = tuple(inputs[i] for i in rest)
            computed = self._call(outputs, rest_in, seeds, retain, create, fast)
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
        dependence: bool = False,
        owners: tuple[Any, ...] = (),
    ) -> None:
        """Mark the nodes the pass ran consumed (`_mark_executed`), and (rule 6) the
        forward nodes carried by the create_graph results among them. ``list_ops=False``
        (a ``create_graph=True, retain_graph=False`` call) enters the nodes of list ops
        (`_MULTI_SLOT`) in `CONSUMED.lists` instead of hooking them: its results' graphs
        run through them (rule 15), and a post-hook cannot hand their gradients on
        (paddle 3.3.1), kept while one of ``owners`` (the call's outputs and results)
        lives. ``dependence``: the graph may hold a node of `CUT_NODES`, whose edges the
        pass does not run (rule 14)."""
        roots = [r for r in (_grad_fn(y) for y in outputs) if r is not None]
        # (a live create_graph result; one walk per record for all the pass's nodes)
        extra = functools.partial(carried_of, memo={}) if CALLS.records else None
        if inputs is not None:
            targets: set[Any] = set()
            leaves: set[Any] = set()
            for x in inputs:
                node = _grad_fn(x)
                if node is not None:
                    targets.add(node)
                    if x.is_leaf:
                        leaves.add(node)
            _mark_executed(
                roots,
                targets,
                leaves,
                cuts,
                list_ops=list_ops,
                owners=owners or outputs,
                cut_names=CUT_NODES if dependence else frozenset(),
                carried_of=extra,
            )
            return
        # every leaf is a target (backward into .grad): each leaf's node, held while the
        # walk runs (so that paddle gives back the same wrapper)
        every = _leaf_nodes(roots)
        _mark_executed(
            roots,
            every,
            every,
            owners=outputs,
            cut_names=CUT_NODES if dependence else frozenset(),
            carried_of=extra,
        )

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
        fast = request.fast  # (fast mode: no consumed-graph bookkeeping)
        if request.inputs is not None:
            _refuse_unrecorded(request.outputs, request.inputs)
            if not fast:
                _check_carried(request.outputs, request.inputs)
            inputs = request.inputs
            if recorded() or _cuts_dependence(request.outputs, request.retain_graph):
                # a create_graph result's spurious edges, or a node whose derivative is
                # zero (rule 14), may reach an input that it does not depend on (paddle
                # would give it zeros): its .grad stays as it is, as grad leaves it
                # unused (test_any_program.py::
                # test_backward_leaves_alone_an_input_a_gradient_does_not_depend_on)
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
                        fast,
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
            if not fast:
                _check_carried(request.outputs, None)
            grad_mode = _has_grad()
            if OPERANDS.entries:  # (as `_call`)
                OPERANDS.sweep()
            # a create_graph result's pass may go through the nodes its pass consumed
            _PASS.plain = _NONE_RAISES if fast else _checked(request.outputs)
            # outputs paddle identifies (x and x[0:n]) would count once: merged, seeds summed
            outputs, seeds = _merge_aliases(request.outputs, seeds)
            # paddle's backward(retain_graph=False) frees every node it runs, a branch that
            # reaches the leaves only through a node of `CUT_NODES` too, which the
            # contract's pass does not run (rule 14: it stays usable): retained there,
            # and consumed by unigrad's marks (`_consume`) as everywhere
            cut = not request.retain_graph and _cuts_dependence(request.outputs, False)
            # (a consumed node met only past a node of `CUT_NODES` lets the pass through,
            # rule 14: `_consumption._leads_nowhere`; a hook's call is restored after)
            marked = not fast and CONSUMED.any()
            if marked:
                call, _PASS.call = _PASS.call, (request.outputs, None)
            try:
                if CONSUMED.stamps and not request.retain_graph and not fast:
                    _refuse_consumed_before_backward(request.outputs, cut)
                alone = _left_alone(request.outputs, _WATCHED.values()) if _WATCHED else []
                with _quiet_glog():
                    paddle.autograd.backward(
                        list(outputs), seeds, retain_graph=request.retain_graph or cut
                    )
                for x in alone:  # (paddle's zeros: rule 14's leaf keeps no .grad)
                    x.grad = None
            except Exception as err:
                _set_has_grad(grad_mode)
                new = _translate(err)
                if new is err:
                    raise
                raise new from err
            finally:
                _PASS.plain = None
                if marked:
                    _PASS.call = call
                if _PASS.returned:
                    _give_back(_PASS.returned)
        if not request.retain_graph and not fast:
            # (rule 14: what only a node of `CUT_NODES` reaches is not the pass's)
            dependence = _cuts_dependence(request.outputs, False)
            self._consume(request.outputs, request.inputs, dependence=dependence)

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
        _WATCHED[id(x)] = x
        return x

    def detach(self, x: Any) -> Any:
        return x.detach()

    def to_numpy(self, x: Any) -> Any:
        if x.dtype == paddle.bfloat16:  # .numpy() gives the raw bits as uint16
            return x.astype(paddle.float32).numpy()
        return x.numpy()

    def namespace(self) -> Any:
        from ..._array_api import _paddle

        return _paddle.build()


BACKEND = PaddleBackend()
