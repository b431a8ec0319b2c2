"""unigrad: one ``grad()`` contract on torch, paddle, jax and numpy.

``unigrad.grad`` has the signature and semantics of ``torch.autograd.grad`` (with
``paddle.grad``'s ``no_grad_vars`` and its ones-seeding of outputs of any shape) and
gives the same numbers, the same result type and the same errors on every backend.
The backend is chosen per call from the tensors' types; importing unigrad imports no
framework.
"""

from __future__ import annotations

# The subpackage ``unigrad.backends`` is imported first so that the function
# ``backends()`` below, not the subpackage, is bound as ``unigrad.backends``.
from .backends._base import Backend, Capabilities  # isort: skip
from . import functional
from ._api import detach, lift, namespace, to_numpy, watch
from ._compile import jit
from ._dispatch import backend_of, backends, get_backend, register_backend
from ._errors import (
    AxisError,
    BackendError,
    CompiledStepError,
    GradArgumentError,
    GradOutputsError,
    GraphFreedError,
    HigherOrderUnavailableError,
    InplaceModifiedError,
    NamespaceAttributeError,
    NotDifferentiableError,
    ScalarConversionError,
    TapeError,
    UnigradError,
    UnsupportedDtypeError,
    UnsupportedFeatureError,
    UnusedInputError,
)
from ._grad import backward, grad
from ._jacobian import hessian, jacobian
from ._penalty import gradient_penalty
from .contract import checks

__version__ = "0.1.0"

__all__ = [
    "AxisError",
    "Backend",
    "BackendError",
    "Capabilities",
    "CompiledStepError",
    "GradArgumentError",
    "GradOutputsError",
    "GraphFreedError",
    "HigherOrderUnavailableError",
    "InplaceModifiedError",
    "NamespaceAttributeError",
    "NotDifferentiableError",
    "ScalarConversionError",
    "TapeError",
    "UnigradError",
    "UnsupportedDtypeError",
    "UnsupportedFeatureError",
    "UnusedInputError",
    "__version__",
    "backend_of",
    "backends",
    "backward",
    "checks",
    "detach",
    "functional",
    "get_backend",
    "grad",
    "gradient_penalty",
    "hessian",
    "jacobian",
    "jit",
    "lift",
    "namespace",
    "register_backend",
    "to_numpy",
    "watch",
]


def __dir__() -> list[str]:
    return list(__all__)
