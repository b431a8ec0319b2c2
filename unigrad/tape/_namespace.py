"""The recording namespace: ``unigrad.namespace(t)`` for tape tensors.

An array API standard namespace (2023.12) whose every function records when it is handed
tape tensors (anywhere in its arguments, e.g. a list for ``concat``) and returns tape
tensors: floating and complex results carry the history, integer and bool results and
the arrays made from plain data (``asarray``, ``zeros``, ``arange``, ...) are constants
(``requires_grad`` False). Values are the framework's own: ``jax.numpy`` (itself an
array API namespace) for jax, and for numpy, NumPy's array API made differentiable by
``unigrad._array_api._autograd``. Names outside the standard fall through to the
framework module and record the same way; ``unigrad.namespace`` shows only the portable
names (``unigrad._array_api.PORTABLE``).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from .._array_api import _common as c
from .._array_api._portable import Portable, portable
from .._errors import TapeError, message
from ._array_object import SUPPORTED_API_VERSIONS
from ._deps import CUT_FUNCTIONS
from ._node import in_traced_step
from ._record import constants, record, record_call
from ._tensor import Tensor

__all__ = ["RecordingNamespace", "namespace_for"]

#: Functions of dtypes and metadata: called on values, never recorded.
_METADATA = frozenset(
    {"can_cast", "finfo", "iinfo", "isdtype", "result_type", "broadcast_shapes", "shape"}
)


#: Functions that make arrays from no array: their results are constant tape tensors
#: (outside plain mode). Every other function returns tape tensors exactly when it is
#: handed one, so plain arrays in (say, inside a jax transform) give plain arrays out.
_CREATION = frozenset(
    {"arange", "empty", "eye", "full", "linspace", "ones", "zeros", "fftfreq", "rfftfreq"}
)


#: Functions that make an array from another's shape and dtype only: their results
#: depend on nothing (rule 14), so they are constants, never recorded (torch's
#: ``ones_like`` of a tensor that requires grad does not require grad either).
_CONSTANT_LIKE = frozenset({"empty_like", "full_like", "ones_like", "zeros_like"})


def _identity(x: Any) -> Any:
    return x


def _astype(x: Any, dtype: Any) -> Any:
    return x.astype(dtype)


class RecordingNamespace:
    """A module-like object: ``ns.f(...)`` is ``module.f(...)``, recorded on tape tensors."""

    __array_api_version__ = SUPPORTED_API_VERSIONS[-1]

    def __init__(self, cls: type[Tensor], module: Any, name: str, *, tensors: bool = True) -> None:
        self._cls = cls
        self._module = module
        self._tensors = tensors
        self.__name__ = name

    @property
    def plain(self) -> RecordingNamespace:
        """The same namespace for plain arrays: results stay plain where no tape tensor
        is involved (``unigrad.namespace`` of plain arrays, e.g. inside a jax transform)."""
        if not self._tensors:
            return self
        sibling = self.__dict__.get("_plain")
        if sibling is None:
            sibling = RecordingNamespace(self._cls, self._module, self.__name__, tensors=False)
            self.__dict__["_plain"] = sibling
        return sibling

    def __repr__(self) -> str:
        return f"<unigrad recording namespace {self.__name__}>"

    def __dir__(self) -> list[str]:
        return sorted(set(dir(self._module)) | {"__array_namespace_info__"})

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name != "__array_namespace_info__":
            raise AttributeError(name)
        target = getattr(self._module, name)
        if isinstance(target, ModuleType):
            sub = f"{self.__name__}.{name}"
            value: Any = RecordingNamespace(self._cls, target, sub, tensors=self._tensors)
        elif name in _METADATA or name == "__array_namespace_info__":
            value = _on_values(target, name)
        elif name in _CONSTANT_LIKE and callable(target):
            value = _on_values(target, name)
            if self._tensors:
                value = _as_constants(self._cls, value)
        elif name in CUT_FUNCTIONS and callable(target) and self._tensors:
            value = _cutting(self._cls, target, name)
        elif name == "copysign" and callable(target) and self._tensors:
            value = _sign_of_a_constant(self._cls, target, name)
        elif callable(target) and not isinstance(target, type):
            value = _recording(self._cls, target, name, self._tensors and name in _CREATION)
        else:
            value = target
        setattr(self, name, value)  # cache
        return value

    def asarray(
        self, obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None
    ) -> Any:
        """``obj`` itself for a tape tensor (recorded cast or copy), else a constant."""
        cls = self._cls
        if isinstance(obj, Tensor):
            if dtype is not None and obj.dtype != dtype:
                if copy is False:
                    msg = f"asarray(copy=False) cannot cast {obj.dtype} to {dtype} without a copy"
                    raise ValueError(msg)
                obj = record(cls, _astype, obj, dtype)
            elif copy:
                obj = (
                    record(cls, _identity, obj)
                    if obj.requires_grad
                    else cls._constant(self._module.asarray(obj._value, copy=True))
                )
            return obj if device is None else obj.to_device(device)
        kwargs: dict[str, Any] = {"dtype": dtype, "copy": copy}
        if device is not None:
            kwargs["device"] = device
        if _has_history(obj):
            msg = message(
                "asarray of a nested sequence holding tape tensors that require grad",
                expected="tape tensors combined by a recorded function",
                got="a list or tuple with such tensors inside",
                fix="Use xp.stack([...]) (or xp.concat) to keep their history.",
            )
            raise TapeError(msg)
        out = self._module.asarray(_values(obj), **kwargs)
        return constants(cls, out) if self._tensors else out

    # ---- functions whose results each depend on one of their arguments --------------
    # The tape records a call as one node that depends on all its tensor arguments;
    # these record one node per result, so an argument a result does not use stays
    # unused (rule 14: structure follows differentiable dependence).
    def broadcast_arrays(self, *arrays: Any) -> list[Any]:
        """Each array broadcast on its own: one recorded node per result."""
        return c.broadcast_arrays(self, *arrays)

    def meshgrid(self, *arrays: Any, indexing: str = "xy") -> list[Any]:
        """Each grid from its own array (reshape and broadcast): one node per grid."""
        return c.meshgrid(self, *arrays, indexing=indexing)

    def from_dlpack(self, x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
        """A tape tensor's own history goes with it; other arrays become constants."""
        if isinstance(x, Tensor):
            return self.asarray(x, device=device, copy=copy)
        kwargs = {k: v for k, v in (("device", device), ("copy", copy)) if v is not None}
        out = self._module.from_dlpack(x, **kwargs)
        return constants(self._cls, out) if self._tensors else out


def _has_history(tree: Any) -> bool:
    if isinstance(tree, Tensor):
        return tree.requires_grad
    return type(tree) in (list, tuple) and any(_has_history(v) for v in tree)


def _values(tree: Any) -> Any:
    if isinstance(tree, Tensor):
        return tree._value
    if type(tree) in (list, tuple):
        return type(tree)(_values(v) for v in tree)
    return tree


def _on_values(fn: Any, name: str) -> Any:
    fn = getattr(fn, "fun", fn)  # autograd's wrapper: these are not differentiated

    def on_values(*args: Any, **kwargs: Any) -> Any:
        return fn(*_values(args), **kwargs)

    on_values.__name__ = on_values.__qualname__ = name
    on_values.__doc__ = getattr(fn, "__doc__", None)
    on_values.__wrapped__ = fn  # type: ignore[attr-defined]
    return on_values


def _as_constants(cls: type[Tensor], fn: Any) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return constants(cls, fn(*args, **kwargs))

    wrapper.__name__ = wrapper.__qualname__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    wrapper.__wrapped__ = fn.__wrapped__  # type: ignore[attr-defined]
    return wrapper


def _cutting(cls: type[Tensor], fn: Any, name: str) -> Any:
    """``fn`` (`CUT_FUNCTIONS`: sign, floor, ...) whose real result depends on nothing
    (rule 14): a constant, as a comparison's. Complex ``sign`` is ``z / |z|``, which has
    a derivative: recorded."""
    on_values = _on_values(fn, name)
    record_it = _recording(cls, fn, name, False)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if any(isinstance(a, Tensor) and "complex" in str(a.dtype) for a in args):
            return record_it(*args, **kwargs)
        return constants(cls, on_values(*args, **kwargs))

    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = getattr(fn, "__doc__", None)
    wrapper.__wrapped__ = getattr(fn, "fun", fn)  # type: ignore[attr-defined]
    return wrapper


def _sign_of_a_constant(cls: type[Tensor], fn: Any, name: str) -> Any:
    """``copysign(a, b)`` = ``|a| sign(b)``: ``b`` is read only through its sign, a cut
    (rule 14), so it enters as a constant (its value): the result depends on ``a``."""
    record_it = _recording(cls, fn, name, False)

    def wrapper(x1: Any, x2: Any, /, *args: Any, **kwargs: Any) -> Any:
        if isinstance(x2, Tensor) and x2.requires_grad:
            x2 = cls._constant(x2._value)
        return record_it(x1, x2, *args, **kwargs)

    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = getattr(fn, "__doc__", None)
    wrapper.__wrapped__ = getattr(fn, "fun", fn)  # type: ignore[attr-defined]
    return wrapper


def _has_tensor(tree: Any) -> bool:
    if isinstance(tree, Tensor):
        return True
    if type(tree) is dict:
        return any(_has_tensor(v) for v in tree.values())
    return type(tree) in (list, tuple) and any(_has_tensor(v) for v in tree)


def _is_tensor(v: Any) -> bool:
    return isinstance(v, Tensor)


def _recording(cls: type[Tensor], fn: Any, name: str, creation: bool) -> Any:
    if creation:

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return constants(cls, record_call(cls, fn, args, kwargs))
    else:

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                if in_traced_step() and not _has_tensor((args, kwargs)):
                    # plain data inside a unigrad.jit step (a mask the step closes over):
                    # computed now, so its values stay concrete (nonzero's size)
                    leaves = cls._engine.flatten((args, kwargs), _is_tensor)[0]
                    with cls._engine.evaluating(leaves):
                        return fn(*args, **kwargs)
                return record_call(cls, fn, args, kwargs)
            except (TypeError, IndexError) as err:
                # inside a unigrad.jit step, the engine refuses a value read (nonzero's
                # size of a traced mask): the documented CompiledStepError, as the step
                # itself raises
                from ._step import step_read_error

                documented = step_read_error(err, cls._engine)
                if documented is None:
                    raise
                raise documented from err

    wrapper.__name__ = name
    wrapper.__qualname__ = name
    wrapper.__doc__ = getattr(fn, "__doc__", None)
    # the signature is the framework function's (autograd's wrapper hides it in .fun)
    wrapper.__wrapped__ = getattr(fn, "fun", fn)  # type: ignore[attr-defined]
    return wrapper


_NAMESPACES: dict[type, Portable] = {}


def namespace_for(cls: type[Tensor]) -> Portable:
    """The (cached) recording namespace for tape tensors of ``cls``, seen through the
    portable list (``unigrad._array_api.PORTABLE``)."""
    ns = _NAMESPACES.get(cls)
    if ns is None:
        if cls.__unigrad_backend__ == "numpy":
            from .._array_api import _autograd

            rec = RecordingNamespace(cls, _autograd.build(), "unigrad.tape.numpy_namespace")
        elif cls.__unigrad_backend__ == "tensorflow":
            from .._array_api import _tensorflow

            rec = RecordingNamespace(cls, _tensorflow.build(), "unigrad.tape.tensorflow_namespace")
        else:
            from .._array_api import _jax

            rec = RecordingNamespace(cls, _jax.build(), "unigrad.tape.jax_namespace")
        ns = portable(rec)
        _NAMESPACES[cls] = ns
    return ns
