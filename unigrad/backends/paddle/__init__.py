"""The paddle backend: ``paddle.grad`` held to unigrad's contract.

paddle.grad differs from the contract in ways this package closes, one module a concern:

* `_adapter`: `PaddleBackend`, the `Backend` itself: requests in, ``paddle.grad`` and
  ``Tensor.backward`` run, results out; ``is_grads_batched`` as a loop over seeds.
* `_cut_passes`: ``grad`` with ``no_grad_vars`` (rule 11): zeroing hooks on the cuts,
  the inputs reached past them, and the passes that compute the answer another way
  where paddle's pass through the cuts fails.
* `_engine`: paddle's engine as unigrad runs it: one re-entrant lock (paddle's engine
  crashes when two threads run a backward pass), the running pass's per-thread state,
  glog's warnings off during unigrad's passes, paddle's errors as unigrad's.
* `_consumption`: consumed graphs (rule 6b): paddle never frees its graph, so the nodes
  a ``retain_graph=False`` pass ran get a post-hook that raises.
* `_list_operands`: the operands of the namespace's list ops (``stack``, ``concat``),
  kept as aliases without memory, so that a pass leaves out an operand's branch that
  leads to none of its inputs, which paddle's engine runs (rule 6b).
* `_records`: paddle's `GraphView` for the contract room, and the records of
  ``create_graph`` calls (rules 6 and 16g).
* `_structure`: what a ``create_graph`` gradient really depends on (rule 14), from a
  table of paddle's backward formulas (`_formulas`); a recorded result's polynomial
  (`_polynomials`); the walks that stop at the cuts (`_cuts`).
* `_nodes`: paddle's grad nodes as the other modules read them: the memo of their edges
  and names, `reach`, the one depth-first walk every reachability question shares, and
  `PinnedHooks`, the table that keeps each post-hook unigrad gives a node alive for as
  long as a node holds it (paddle's engine must never free one).

* `_quirks`: paddle's own defects where unigrad meets them (wrong complex kernels of
  gradient graphs, and the casts that bring complex values into a real call; inputs
  paddle treats as one tensor, view-op inputs, PyLayer cuts, constant seeds, results a
  later pass cannot run into), each with the paddle version and the test or issue that
  shows it.
* `_tensor_methods`: the ``paddle.Tensor`` methods unigrad wraps when the backend loads
  (full-slice marks, ``a / b`` to any order, scalar conversions, operators with another
  framework's tensor), each passing every other call to paddle.
* `_refcounts`: paddle 3.3.1's leaked references (``Tensor.grad_fn``, post-hook results),
  measured at import and given back.
* `_dtypes`: paddle's dtypes as the contract's kinds.

State: each module keeps its registries in one object with a documented lifetime, read
and changed under `_engine.ENGINE_LOCK`: `_consumption.CONSUMED` (consumed nodes and
their hooks), `_records.CALLS` (the records of live create_graph results),
`_structure.DECIDED` (what the structure pass decided about them), `_nodes._MEMO`
(the node memo), `_list_operands.OPERANDS` (the list ops' operands, while the list
op's node holds its hook), `_engine._PASS` (the running pass, per thread); and `_adapter._WATCHED`
(the leaves `watch` made, while they live); `_quirks._NO_HIGHER_ORDER_MADE` (whether
a pass must look for a refusing identity, for the life of the process), `_quirks._ABS_HOOKS`
(the ``abs`` nodes' hooks, while a node holds one).
"""

from __future__ import annotations

from ..._array_api import _paddle_list_ops
from . import _list_operands, _tensor_methods
from ._adapter import BACKEND, PaddleBackend

_tensor_methods.install()
_paddle_list_ops.ON_LIST_OP = _list_operands.record

__all__ = ["BACKEND", "PaddleBackend"]
