"""The recording namespace: ``unigrad.namespace(t)`` for tape tensors.

Every function of ``jax.numpy`` / ``autograd.numpy`` records when it is handed tape
tensors (anywhere in its arguments, e.g. a list for ``stack``); with no tape tensor it
is the plain function. Array-API names that autograd lacks or cannot differentiate are
mapped onto differentiable ones (``concat`` -> ``concatenate``, ``pow`` -> ``power``,
``permute_dims`` -> ``transpose``, ``linalg.vector_norm`` written with ``sqrt``/``sum``).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from ._tensor import Tensor, record_call

__all__ = ["RecordingNamespace", "namespace_for"]


def _np_vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:
    import autograd.numpy as anp

    if axis is None and not keepdims:
        x, axis = anp.reshape(x, (-1,)), 0
    a = anp.abs(x) if anp.iscomplexobj(x) else x
    if ord == 2:
        return anp.sqrt(anp.sum(a * a, axis=axis, keepdims=keepdims))
    a = anp.abs(a)
    if ord == 1:
        return anp.sum(a, axis=axis, keepdims=keepdims)
    if ord == float("inf"):
        return anp.max(a, axis=axis, keepdims=keepdims)
    if ord == -float("inf"):
        return anp.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return anp.sum((a != 0).astype(a.dtype), axis=axis, keepdims=keepdims)
    return anp.sum(a**ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def _np_clip(x: Any, /, min: Any = None, max: Any = None) -> Any:
    import autograd.numpy as anp

    return anp.clip(x, min, max)


def _np_permute_dims(x: Any, /, axes: Any) -> Any:
    import autograd.numpy as anp

    return anp.transpose(x, tuple(axes))


def _np_astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    return x.astype(dtype)


def _np_concat(arrays: Any, /, *, axis: Any = 0) -> Any:
    import autograd.numpy as anp

    if axis is None:
        return anp.concatenate([anp.reshape(a, (-1,)) for a in arrays])
    return anp.concatenate(list(arrays), axis=axis)


def _np_where(condition: Any, x1: Any, x2: Any, /) -> Any:
    import autograd.numpy as anp

    # autograd's where does not unbroadcast its gradients: broadcast the operands first
    shape = anp.broadcast_shapes(anp.shape(condition), anp.shape(x1), anp.shape(x2))

    def full(v: Any) -> Any:
        lead = len(shape) - anp.ndim(v)
        return anp.broadcast_to(anp.reshape(v, (1,) * lead + anp.shape(v)), shape)

    return anp.where(condition, full(x1), full(x2))


def _np_unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    import autograd.numpy as anp

    # autograd has no VJP for unstack: index along the axis instead
    moved = anp.moveaxis(x, axis, 0)
    return tuple(moved[i] for i in range(moved.shape[0]))


_NUMPY_ALIASES: dict[str, Any] = {
    "where": _np_where,
    "unstack": _np_unstack,
    "concat": _np_concat,
    "pow": "power",
    "permute_dims": _np_permute_dims,
    "clip": _np_clip,
    "astype": _np_astype,
    "acos": "arccos",
    "asin": "arcsin",
    "atan": "arctan",
    "atan2": "arctan2",
    "acosh": "arccosh",
    "asinh": "arcsinh",
    "atanh": "arctanh",
}
_NUMPY_LINALG: dict[str, Any] = {"vector_norm": _np_vector_norm}


class RecordingNamespace:
    """A module-like object: ``ns.f(...)`` is ``module.f(...)``, recorded on tape tensors."""

    def __init__(
        self,
        cls: type[Tensor],
        module: ModuleType,
        aliases: dict[str, Any] | None = None,
        submodules: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self._cls = cls
        self._module = module
        self._aliases = aliases or {}
        self._submodules = submodules or {}

    def __repr__(self) -> str:
        return f"<unigrad recording namespace over {self._module.__name__}>"

    def __dir__(self) -> list[str]:
        return sorted(set(dir(self._module)) | set(self._aliases))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        target = self._aliases.get(name, name)
        if isinstance(target, str):
            target = getattr(self._module, target)
        if isinstance(target, ModuleType):
            value: Any = RecordingNamespace(self._cls, target, self._submodules.get(name))
        elif callable(target) and not isinstance(target, type):
            value = _recording(self._cls, target, name)
        else:
            value = target
        setattr(self, name, value)  # cache
        return value

    def asarray(self, obj: Any, /, *, dtype: Any = None, copy: Any = None) -> Any:
        """``obj`` itself for a tape tensor (cast if ``dtype``), else the framework's."""
        if isinstance(obj, Tensor):
            return obj if dtype is None or obj.dtype == dtype else obj.astype(dtype)
        return self._module.asarray(obj, dtype=dtype)


def _recording(cls: type[Tensor], fn: Any, name: str) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return record_call(cls, fn, args, kwargs)

    wrapper.__name__ = name
    wrapper.__qualname__ = name
    wrapper.__doc__ = getattr(fn, "__doc__", None)
    wrapper.__wrapped__ = fn  # type: ignore[attr-defined]
    return wrapper


_NAMESPACES: dict[type, RecordingNamespace] = {}


def namespace_for(cls: type[Tensor]) -> RecordingNamespace:
    """The (cached) recording namespace for tape tensors of ``cls``."""
    ns = _NAMESPACES.get(cls)
    if ns is None:
        module = cls._engine.np
        if cls.__unigrad_backend__ == "numpy":
            ns = RecordingNamespace(cls, module, _NUMPY_ALIASES, {"linalg": _NUMPY_LINALG})
        else:
            ns = RecordingNamespace(cls, module)
        _NAMESPACES[cls] = ns
    return ns
