"""The exception hierarchy of unigrad.

Every error derives from `UnigradError` *and* from the builtin classes that
torch and paddle raise natively for the same misuse, so code written against either
framework (``except RuntimeError``, ``except ValueError``, ...) keeps working:

============================  ===================================================
class                         also an instance of
============================  ===================================================
GradArgumentError             TypeError, ValueError, AssertionError, RuntimeError
GradOutputsError              RuntimeError, ValueError, AssertionError
UnusedInputError              RuntimeError, ValueError
NotDifferentiableError        RuntimeError, ValueError, TypeError
GraphFreedError               RuntimeError, SystemError
InplaceModifiedError          RuntimeError
HigherOrderUnavailableError   RuntimeError
UnsupportedDtypeError         NotImplementedError (a RuntimeError), TypeError
UnsupportedFeatureError       NotImplementedError (a RuntimeError)
BackendError                  TypeError
NamespaceAttributeError       AttributeError
ScalarConversionError         ValueError, TypeError, RuntimeError
TapeError                     TypeError
CompiledStepError             TypeError
AxisError                     IndexError, ValueError
============================  ===================================================

Messages follow one shape: what was expected, what was given, what to do.
"""

from __future__ import annotations

__all__ = [
    "AxisError",
    "BackendError",
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
]


class UnigradError(Exception):
    """Base class of every error unigrad raises on purpose."""


class GradArgumentError(UnigradError, TypeError, ValueError, AssertionError, RuntimeError):
    """An argument of the wrong type or value: containers, flags, empty inputs, None entries.

    torch raises ``TypeError``/``RuntimeError`` here (``AssertionError`` for a None
    output), paddle ``AssertionError``.
    """


class GradOutputsError(UnigradError, RuntimeError, ValueError, AssertionError):
    """``grad_outputs`` does not fit ``outputs``: length, shape, dtype or batch."""


class UnusedInputError(UnigradError, RuntimeError, ValueError):
    """An input does not reach the outputs and ``allow_unused`` is not set."""


class NotDifferentiableError(UnigradError, RuntimeError, ValueError, TypeError):
    """An output that does not require grad, or an integer/bool input."""


class GraphFreedError(UnigradError, RuntimeError, SystemError):
    """A second differentiation through a graph consumed by ``retain_graph=False``."""


class InplaceModifiedError(UnigradError, RuntimeError):
    """A tensor saved for the backward pass was modified in place after the forward."""


class HigherOrderUnavailableError(UnigradError, RuntimeError):
    """The framework has no kernel for a derivative of this order of an op."""


class UnsupportedDtypeError(UnigradError, NotImplementedError, TypeError):
    """The framework has no gradient kernel for this dtype on this device."""


class UnsupportedFeatureError(UnigradError, NotImplementedError):
    """A backend does not offer a capability (see its capability flags)."""


class BackendError(UnigradError, TypeError):
    """No backend owns a value's type, or one call mixes two frameworks."""


class NamespaceAttributeError(UnigradError, AttributeError):
    """A name outside the portable namespace (``unigrad._array_api.PORTABLE``) was looked
    up on ``unigrad.namespace(x)``; the same on every backend."""


class ScalarConversionError(UnigradError, ValueError, TypeError, RuntimeError):
    """``float()``, ``int()``, ``complex()``, ``bool()`` or ``.item()`` of a tape tensor
    that has not exactly one element (torch raises ``ValueError``/``RuntimeError`` here,
    NumPy ``TypeError``/``ValueError``)."""


class AxisError(UnigradError, IndexError, ValueError):
    """An ``axis`` outside ``[-ndim, ndim)`` given to a namespace function (a reduction
    along an axis of a 0-d array): the array API standard's error, the same on every
    backend (torch reduced a 0-d array along axis 0, jax raised ``ValueError``, NumPy's
    ``AxisError`` is both classes)."""


class TapeError(UnigradError, TypeError):
    """A tape tensor was used where its history would be silently dropped."""


class CompiledStepError(UnigradError, TypeError):
    """A `unigrad.jit` step was given or did what a compiled step cannot replay (jax
    raises ``TypeError`` for a value read while it traces)."""


def not_one_element(what: str, shape: tuple[int, ...], size: int) -> ScalarConversionError:
    """The error of ``float()``, ``int()``, ``complex()``, ``bool()`` or ``.item()``
    (``what``: "float"... or "item") of a tensor of ``size`` elements, not one: the one
    rule of every backend (docs/tape.md)."""
    call = "t.item()" if what == "item" else f"{what}(t)"
    msg = message(
        f"{call} of a tensor of shape {tuple(shape)}",
        expected="a tensor with exactly one element (of any rank)",
        got=f"{size} elements",
        fix="Reduce it first (xp.sum, indexing t[0]), or use t.tolist() for every element.",
    )
    return ScalarConversionError(msg)


def message(problem: str, *, expected: str, got: str, fix: str) -> str:
    """Compose the standard three-part message: expected / got / what to do."""
    return f"{problem}: expected {expected}, got {got}. {fix}"


for _cls in (
    UnigradError,
    GradArgumentError,
    GradOutputsError,
    UnusedInputError,
    NotDifferentiableError,
    GraphFreedError,
    InplaceModifiedError,
    HigherOrderUnavailableError,
    UnsupportedDtypeError,
    UnsupportedFeatureError,
    BackendError,
    NamespaceAttributeError,
    ScalarConversionError,
    TapeError,
    CompiledStepError,
    AxisError,
):
    _cls.__module__ = "unigrad"
del _cls
