"""The portable namespace: the one list of names ``unigrad.namespace(x)`` answers to.

Every backend's namespace (array-api-compat for torch, ``_paddle`` for paddle, the tapes'
recording namespaces for jax and numpy) is seen through `Portable`, which exposes exactly
`PORTABLE`: the array API standard's names (2023.12, plus the 2024.12 functions every
framework can do) and the deep-learning extension set `EXTENSIONS`. Any other name
raises `unigrad.NamespaceAttributeError`, the same on every backend. docs/namespace.md
documents the list; this module is its one definition (no framework is imported here).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

from .._errors import AxisError, NamespaceAttributeError, message

__all__ = [
    "AXIS_FUNCTIONS",
    "EXTENSIONS",
    "FFT",
    "LINALG",
    "PORTABLE",
    "STANDARD",
    "STANDARD_2024",
    "Portable",
    "portable",
]

#: The standard's data types (``xp.float64``, ...).
DTYPES = frozenset(
    {
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float32",
        "float64",
        "complex64",
        "complex128",
    }
)

#: The 2023.12 standard's main-namespace functions and constants (the array API test
#: suite's ``test_has_names`` runs these), its data types, its two extensions' module
#: names and its two dunder attributes.
STANDARD_2023 = (
    frozenset(
        [
            "abs",
            "acos",
            "acosh",
            "add",
            "all",
            "any",
            "arange",
            "argmax",
            "argmin",
            "argsort",
            "asarray",
            "asin",
            "asinh",
            "astype",
            "atan",
            "atan2",
            "atanh",
            "bitwise_and",
            "bitwise_invert",
            "bitwise_left_shift",
            "bitwise_or",
            "bitwise_right_shift",
            "bitwise_xor",
            "broadcast_arrays",
            "broadcast_to",
            "can_cast",
            "ceil",
            "clip",
            "concat",
            "conj",
            "copysign",
            "cos",
            "cosh",
            "cumulative_sum",
            "divide",
            "e",
            "empty",
            "empty_like",
            "equal",
            "exp",
            "expand_dims",
            "expm1",
            "eye",
            "finfo",
            "flip",
            "floor",
            "floor_divide",
            "from_dlpack",
            "full",
            "full_like",
            "greater",
            "greater_equal",
            "hypot",
            "iinfo",
            "imag",
            "inf",
            "isdtype",
            "isfinite",
            "isinf",
            "isnan",
            "less",
            "less_equal",
            "linspace",
            "log",
            "log10",
            "log1p",
            "log2",
            "logaddexp",
            "logical_and",
            "logical_not",
            "logical_or",
            "logical_xor",
            "matmul",
            "matrix_transpose",
            "max",
            "maximum",
            "mean",
            "meshgrid",
            "min",
            "minimum",
            "moveaxis",
            "multiply",
            "nan",
            "negative",
            "newaxis",
            "nonzero",
            "not_equal",
            "ones",
            "ones_like",
            "permute_dims",
            "pi",
            "positive",
            "pow",
            "prod",
            "real",
            "remainder",
            "repeat",
            "reshape",
            "result_type",
            "roll",
            "round",
            "searchsorted",
            "sign",
            "signbit",
            "sin",
            "sinh",
            "sort",
            "sqrt",
            "square",
            "squeeze",
            "stack",
            "std",
            "subtract",
            "sum",
            "take",
            "tan",
            "tanh",
            "tensordot",
            "tile",
            "tril",
            "triu",
            "trunc",
            "unique_all",
            "unique_counts",
            "unique_inverse",
            "unique_values",
            "unstack",
            "var",
            "vecdot",
            "where",
            "zeros",
            "zeros_like",
        ]
    )
    | DTYPES
    | {"linalg", "fft", "__array_api_version__", "__array_namespace_info__"}
)

#: The functions 2024.12 adds, all of which every backend implements.
STANDARD_2024 = frozenset(
    {"count_nonzero", "cumulative_prod", "diff", "nextafter", "reciprocal", "take_along_axis"}
)

#: Every standard name of the main namespace the portable namespace has.
STANDARD = STANDARD_2023 | STANDARD_2024

#: ``xp.linalg``: the standard's linear algebra extension (2023.12 = 2024.12).
LINALG = frozenset(
    [
        "cholesky",
        "cross",
        "det",
        "diagonal",
        "eigh",
        "eigvalsh",
        "inv",
        "matmul",
        "matrix_norm",
        "matrix_power",
        "matrix_rank",
        "matrix_transpose",
        "outer",
        "pinv",
        "qr",
        "slogdet",
        "solve",
        "svd",
        "svdvals",
        "tensordot",
        "trace",
        "vecdot",
        "vector_norm",
    ]
)

#: ``xp.fft``: the standard's FFT extension (2023.12 = 2024.12).
FFT = frozenset(
    [
        "fft",
        "fftfreq",
        "fftn",
        "fftshift",
        "hfft",
        "ifft",
        "ifftn",
        "ifftshift",
        "ihfft",
        "irfft",
        "irfftn",
        "rfft",
        "rfftfreq",
        "rfftn",
    ]
)

#: unigrad's extension set: what PINN, GAN, MAML and classifier code reaches for that the
#: standard lacks, with the same signature, values and derivatives (to third order) on
#: every backend. See docs/namespace.md for each one's definition.
EXTENSIONS = frozenset(
    {"einsum", "erf", "log_softmax", "logsumexp", "relu", "sigmoid", "softmax", "softplus"}
)

#: Every name of ``unigrad.namespace(x)`` (its main namespace; see `LINALG`, `FFT`).
PORTABLE = STANDARD | EXTENSIONS

_SUBMODULES = {"linalg": LINALG, "fft": FFT}


def _refusal(where: str, name: str) -> NamespaceAttributeError:
    ext = ", ".join(sorted(EXTENSIONS))
    msg = (
        f"{where} has no attribute {name!r}: expected a name of the portable namespace (the "
        f"array API standard 2023.12, its 2024.12 functions "
        f"{', '.join(sorted(STANDARD_2024))}, and unigrad's extensions {ext}), which is the "
        f"same on torch, paddle, jax and numpy; got {name!r}, which is not one. For code "
        f"that needs it on one framework only, call the framework's module directly "
        f"(torch, paddle, jax.numpy, autograd.numpy); unigrad.lift makes a jax or numpy "
        f"function one differentiable step on tape tensors"
    )
    return NamespaceAttributeError(msg)


def _lacking(ns: Portable, name: str) -> NamespaceAttributeError:
    msg = (
        f"{ns._label} has no {name!r} on this backend ({ns.__name__}): expected every "
        f"portable name, got one the framework does not have (paddle 3.3.1 has no uint16, "
        f"uint32 or uint64 dtype). Use another dtype (int32, int64) for code that runs "
        f"on every backend"
    )
    return NamespaceAttributeError(msg)


#: The functions whose ``axis`` (an int or a sequence of ints, by keyword: the
#: standard's) names axes of their first argument, in ``[-ndim, ndim)``. One outside is
#: `unigrad.AxisError` on every backend (the standard: an out-of-range axis is an error),
#: checked here before the framework runs: torch reduced a 0-d array along axis 0
#: (``var`` of it gave 0), jax raised ``ValueError``, numpy and paddle ``IndexError`` or
#: answered, depending on the function. ``axis=None`` and an omitted axis are the
#: framework's.
AXIS_FUNCTIONS = frozenset(
    {
        "sum",
        "prod",
        "mean",
        "var",
        "std",
        "max",
        "min",
        "argmax",
        "argmin",
        "all",
        "any",
        "count_nonzero",
        "cumulative_sum",
        "cumulative_prod",
        "logsumexp",
        "softmax",
        "log_softmax",
        "sort",
        "argsort",
        "flip",
        "diff",
        "vector_norm",
    }
)


def _axis_error(name: str, axis: Any, ndim: int) -> AxisError:
    return AxisError(
        message(
            f"{name}: axis {axis!r} is out of range for an array of dimension {ndim}",
            expected=f"axes in [-{ndim}, {ndim})" if ndim else "no axis (a 0-d array has none)",
            got=f"axis={axis!r}",
            fix="Pass axes the array has, or axis=None"
            + (" (a 0-d array: omit axis, or reshape it to (1,) first)." if not ndim else "."),
        )
    )


#: ``axis`` not given (a function's own default is then the framework's).
_UNSET: Any = object()


def _axis_checked(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` with its keyword ``axis`` checked against its first argument's ``ndim``
    (an int axis is compared once; an omitted one is not looked at)."""

    @functools.wraps(fn)
    def checked(x: Any, /, *args: Any, axis: Any = _UNSET, **kwargs: Any) -> Any:
        if axis is _UNSET:
            return fn(x, *args, **kwargs)
        if axis is not None:
            ndim = getattr(x, "ndim", None)
            if type(ndim) is int:
                if type(axis) is int:
                    if not -ndim <= axis < ndim:
                        raise _axis_error(name, axis, ndim)
                else:
                    _check_axes(name, axis, ndim)
        return fn(x, *args, axis=axis, **kwargs)

    return checked


def _check_axes(name: str, axis: Any, ndim: int) -> None:
    """Raise `AxisError` for an entry of ``axis`` (a sequence, or an integer-like) out of
    ``[-ndim, ndim)``; anything else is the framework's to refuse."""
    for a in axis if isinstance(axis, (tuple, list)) else (axis,):
        try:
            i = operator.index(a)
        except TypeError:
            continue
        if not -ndim <= i < ndim:
            raise _axis_error(name, axis, ndim)


class Portable:
    """A namespace seen through a fixed list of names.

    ``getattr`` of a listed name is the wrapped namespace's (or ``overrides``'), cached on
    first use; any other name raises `unigrad.NamespaceAttributeError`. ``dir()`` is the
    list, so it is the same whatever the wrapped namespace holds.
    """

    __array_api_version__ = "2023.12"

    def __init__(
        self,
        inner: Any,
        *,
        names: frozenset[str] = PORTABLE,
        overrides: dict[str, Any] | None = None,
        label: str = "unigrad.namespace(x)",
    ) -> None:
        d = self.__dict__
        d["_inner"] = inner
        d["_names"] = names
        d["_overrides"] = overrides or {}
        d["_label"] = label
        d["__name__"] = getattr(inner, "__name__", label)

    @property
    def plain(self) -> Portable:
        """The same list over the wrapped namespace's plain sibling (tapes; else itself)."""
        inner = self._inner
        sibling = getattr(type(inner), "plain", None)
        if sibling is None:
            return self
        cached = self.__dict__.get("_plain")
        if cached is None:
            cached = Portable(inner.plain, overrides=self._overrides, label=self._label)
            self.__dict__["_plain"] = cached
        return cached

    def __getattr__(self, name: str) -> Any:
        if name not in self._names:
            raise _refusal(self._label, name)
        if name in self._overrides:
            value = self._overrides[name]
        else:
            try:
                value = getattr(self._inner, name)
            except AttributeError:
                raise _lacking(self, name) from None
        if name in _SUBMODULES and self._names is PORTABLE:
            value = Portable(value, names=_SUBMODULES[name], label=f"{self._label}.{name}")
        elif name in AXIS_FUNCTIONS and callable(value):
            value = _axis_checked(value, name)
        self.__dict__[name] = value
        return value

    def __dir__(self) -> list[str]:
        return sorted(self._names)

    def __repr__(self) -> str:
        return f"<unigrad portable namespace over {self.__name__}>"


def portable(inner: Any, overrides: dict[str, Any] | None = None) -> Portable:
    """``inner`` seen through `PORTABLE` (``overrides`` supply names it lacks)."""
    return Portable(inner, overrides=overrides)
