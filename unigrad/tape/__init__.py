"""unigrad's tape for frameworks without one (jax, numpy): see ``docs/tape.md``.

`unigrad.watch` on a ``jax.Array`` or a ``numpy.ndarray`` returns a tape
`Tensor` (a `JaxTensor` or a `NumpyTensor`). Operations on tape tensors record pure
functions, and compute each value once: inside ``grad`` or when it is read (``_lazy``);
`unigrad.grad` rebuilds the recorded graph as one function and differentiates it with
``jax.vjp`` or HIPS ``autograd``. Nothing here imports jax or autograd until a tensor of
theirs is used.
"""

from __future__ import annotations

from ._replay import DEFAULT_CACHE_SIZE, RecompileWarning, cache_info, set_cache_size
from ._tensor import JaxTensor, Node, NumpyTensor, Tensor

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
