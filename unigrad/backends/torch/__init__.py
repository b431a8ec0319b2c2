"""The torch backend: ``torch.autograd.grad`` plus what unigrad's contract adds.

torch already follows most of the contract. This package adds, one module a concern:

* `_consumption`: consumed-graph tracking (rule 6b): after ``retain_graph=False`` every
  node the engine ran carries a consumed token, so a second pass fails even through
  nodes that saved nothing (where torch itself would silently succeed);
* `_structure`: dependence (rule 14): edges whose derivative is identically zero
  (`_CUT_EDGES`: the ``sgn`` inside ``abs``'s gradient, a relu's mask input, ``floor``,
  ...) are not followed when deciding which inputs a pass reaches (an input reached only
  through them is unused) and whether a ``create_graph`` result depends on anything (one
  that does not is returned detached); ``no_grad_vars`` as pre-hooks that drop a cut
  tensor's gradient;
* `_records`: torch's `GraphView` for the contract room and the records of
  ``create_graph`` calls;
* `_graph`: reading torch's graph (children, accumulators, full-range slice nodes);
* `_engine`: dtype kinds, the private backward entry point, ones for non-scalar ``None``
  seeds, and the mapping of torch's errors to unigrad's;
* `_tensor_methods`: the ``torch.Tensor`` operators unigrad wraps when the backend
  loads (``a @ b`` between two dtypes promotes, as the namespace's ``matmul``);
* `_adapter`: `TorchBackend` itself.
"""

from __future__ import annotations

from . import _tensor_methods
from ._adapter import BACKEND, TorchBackend

_tensor_methods.install()

__all__ = ["BACKEND", "TorchBackend"]
