"""unigrad's tape for frameworks without one (jax, numpy): see ``docs/tape.md``.

`unigrad.watch` on a ``jax.Array`` or a ``numpy.ndarray`` returns a tape
`Tensor` (a `JaxTensor` or a `NumpyTensor`). Operations on tape tensors record pure
functions, and compute each value once: inside ``grad`` or when it is read (``_lazy``);
`unigrad.grad` rebuilds the recorded graph as one function and differentiates it with
``jax.vjp`` or HIPS ``autograd``. Nothing here imports jax or autograd until a tensor of
theirs is used.

The tape is a layer below the backends: it imports neither the front nor a backend.
The jax and numpy backends (``unigrad.backends._tape``) use it through the names below,
and connect it to the layers above with `install_hooks`. The public names are those of
``__all__``; the others are for the backends.
"""

from __future__ import annotations

from ._caches import DEFAULT_CACHE_SIZE, cache_info, set_cache_size
from ._node import Node
from ._recompile import RecompileWarning
from ._tensor import JaxTensor, NumpyTensor, Tensor

__all__ = [
    "DEFAULT_CACHE_SIZE",
    "JaxTensor",
    "Node",
    "NumpyTensor",
    "RecompileWarning",
    "Tensor",
    "cache_info",
    "set_cache_size",
]

# The backends' surface (re-exported for ``unigrad.backends._tape``, not public API).
from ._analyse import Ref as Ref
from ._analyse import leaves_of as leaves_of
from ._analyse import parents_of as parents_of
from ._caches import CACHES as CACHES
from ._deps import dependencies as dependencies
from ._engine import Engine as Engine
from ._engine import jax_engine as jax_engine
from ._engine import numpy_engine as numpy_engine
from ._hooks import install_hooks as install_hooks
from ._namespace import namespace_for as namespace_for
from ._record import record as record
from ._record import record_call as record_call
from ._replay import backward as backward
from ._replay import grad as grad
from ._slices import any_full_slices as any_full_slices
from ._slices import is_full_slice as is_full_slice
from ._step import STEP_READ as STEP_READ
from ._step import CompiledStep as CompiledStep
from ._step import StepRules as StepRules
