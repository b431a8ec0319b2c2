"""The array API standard's array object, for tape tensors.

`ArrayObject` is the part of `unigrad.tape.Tensor` that the standard and
NumPy's / JAX's interoperability protocols ask for: ``__array_namespace__``, ``device``,
``to_device``, DLPack, Python scalar conversions and formatting, and the hooks that make
``np.sin(t)`` record (``__array_ufunc__``, ``__array_function__``) instead of dropping the
tensor's history. Everything that would drop a history silently raises a
`unigrad.TapeError` that names the explicit ways out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._errors import TapeError, message
from ._record import record, record_call

if TYPE_CHECKING:
    from ._tensor import Tensor

__all__ = ["SUPPORTED_API_VERSIONS", "ArrayObject"]

#: The standard's versions the namespace answers to (``__array_namespace__(api_version)``).
SUPPORTED_API_VERSIONS = ("2021.12", "2022.12", "2023.12")

_FIX = (
    "Write the computation with operators or unigrad.namespace(t) (xp.sin(t) records), or "
    "wrap a framework function with unigrad.lift(fn); unigrad.to_numpy(t) or t.detach() "
    "give the plain array without history."
)


def _dropped(what: str) -> TapeError:
    return TapeError(
        message(
            f"{what} on a tape tensor that requires grad would drop its history",
            expected="a recorded operation, or an explicit conversion",
            got=what,
            fix=_FIX,
        )
    )


def _numpy_ufunc(ufunc: Any) -> bool:
    """Whether ``ufunc`` is NumPy's own (``np.sin``), not another library's."""
    import numpy as np

    return getattr(np, ufunc.__name__, None) is ufunc


def _foreign_name(ufunc: Any) -> str:
    """A ufunc's public name: NumPy's ufuncs carry no module, so the modules that
    define ufuncs (SciPy's) are looked up, where they are imported."""
    import sys

    name = ufunc.__name__
    for module in ("scipy.special",):
        mod = sys.modules.get(module)
        if mod is not None and getattr(mod, name, None) is ufunc:
            return f"{module}.{name}"
    return f"the ufunc {name} (not NumPy's)"


def _foreign(what: str, name: str) -> TapeError:
    lib = f"scipy.special.{name}" if what.startswith("scipy.special.") else name
    return TapeError(
        message(
            f"{what} on a tape tensor: the tape records NumPy's ufuncs, not other libraries'",
            expected="a NumPy ufunc (np.sin(t)), an operator or a unigrad.namespace(t) "
            "function, which record",
            got=what,
            fix="Write it with operators and xp = unigrad.namespace(t) (expit(t) is "
            "1 / (1 + xp.exp(-t))), or lift the framework's differentiable version: "
            f"unigrad.lift(jax.{lib}) on jax, unigrad.lift(autograd.{lib}) on numpy.",
        )
    )


def _plain(key: Any) -> Any:
    from ._tensor import Tensor

    if isinstance(key, Tensor):
        return key._value
    if isinstance(key, tuple):
        return tuple(_plain(k) for k in key)
    return key


def _to_device(x: Any, device: Any) -> Any:  # a jax array: jax.device_put is differentiable
    import jax

    return jax.device_put(x, device)


class ArrayObject:
    """Mixin: the array API standard's array object over ``self._value``."""

    __slots__ = ()

    if TYPE_CHECKING:
        _value: Any

        @property
        def requires_grad(self) -> bool: ...

    # ---- namespace and device ---------------------------------------------------
    def __array_namespace__(self, /, *, api_version: str | None = None) -> Any:
        """The recording namespace (``unigrad.namespace(self)``)."""
        if api_version is not None and api_version not in SUPPORTED_API_VERSIONS:
            msg = message(
                "unsupported array API version",
                expected=f"one of {', '.join(SUPPORTED_API_VERSIONS)} or None",
                got=repr(api_version),
                fix="Ask for a version the namespace implements, or None for the newest.",
            )
            raise ValueError(msg)
        from ._namespace import namespace_for

        return namespace_for(type(self))  # type: ignore[arg-type]

    @property
    def device(self) -> Any:
        """The device of the value (``"cpu"`` for numpy)."""
        return self._value.device

    def to_device(self, device: Any, /, *, stream: Any = None) -> Any:
        """The tensor on ``device``, recorded (gradients flow back to ``self``)."""
        cls: type[Tensor] = type(self)  # type: ignore[assignment]
        if stream is not None:
            msg = message(
                "to_device got a stream",
                expected="stream=None",
                got=repr(stream),
                fix="Leave stream out: the tape's frameworks have no streams to choose.",
            )
            raise ValueError(msg)
        if cls.__unigrad_backend__ == "jax":
            return record(cls, _to_device, self, device)
        if device not in ("cpu", self._value.device):
            msg = message(
                "numpy arrays live on the CPU only",
                expected='device="cpu"',
                got=repr(device),
                fix='Pass "cpu" (or x.device).',
            )
            raise ValueError(msg)
        return self

    # ---- DLPack: an export, refused where it would drop a history ---------------
    def __dlpack__(
        self,
        /,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        if self.requires_grad:  # torch refuses too: "Can't export tensors that require grad"
            what = "__dlpack__ (a zero-copy export)"
            raise _dropped(what)
        kwargs = {"max_version": max_version, "dl_device": dl_device, "copy": copy}
        if stream is not None:
            kwargs["stream"] = stream
        return self._value.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[Any, int]:
        return self._value.__dlpack_device__()  # type: ignore[no-any-return]

    # ---- assignment: constants only -------------------------------------------------
    def __setitem__(self, key: Any, value: Any, /) -> None:
        """``x[key] = value`` on a constant (no history); refused where there is one."""
        from ._tensor import Tensor

        if self.requires_grad or (isinstance(value, Tensor) and value.requires_grad):
            raise TapeError(
                message(
                    "assignment into a tape tensor that requires grad (or of one)",
                    expected="a functional update, which the tape can record",
                    got="x[key] = value",
                    fix="Write xp.where(mask, value, x), or build the tensor with "
                    "xp.concat / xp.stack; constants (xp.asarray, xp.zeros) accept "
                    "assignment.",
                )
            )
        key = _plain(key)
        value = value._value if isinstance(value, Tensor) else value
        # a new array, never the old one changed: nodes that read this constant hold its
        # old value (jax arrays are immutable; the tape's numpy values are read-only)
        if hasattr(self._value, "at"):
            self._value = self._value.at[key].set(value)
        else:
            new = self._value.copy()
            new[key] = value
            new.flags.writeable = False
            self._value = new

    # ---- Python scalars ---------------------------------------------------------
    def item(self) -> Any:
        """The single element as a Python scalar (no history: an explicit conversion)."""
        return self._element("item").item()

    def _element(self, what: str) -> Any:
        """The value as a 0-d array: the one element of a one-element tensor of any
        rank (torch's rule, the same for float/int/complex/bool/item on every backend)."""
        v = self._value
        if v.size != 1:
            from .._errors import not_one_element

            raise not_one_element(what, tuple(v.shape), int(v.size))
        return v.reshape(()) if v.ndim else v

    def tolist(self) -> Any:
        """The elements as (nested) Python lists of scalars (an explicit conversion)."""
        return self._value.tolist()

    def __index__(self) -> int:
        return self._value.__index__()  # type: ignore[no-any-return]

    def __format__(self, spec: str) -> str:
        if spec and self._value.ndim == 0:
            return format(self._value.item(), spec)
        return format(self._value, spec)

    def __round__(self, ndigits: int | None = None) -> Any:
        """``round(t, n)``: a recorded, elementwise round (a tensor, as in torch)."""
        cls: type[Tensor] = type(self)  # type: ignore[assignment]
        return record(cls, cls._engine.np.round, self, ndigits or 0)

    # ---- NumPy / JAX interoperability --------------------------------------------
    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """``np.sin(t)``, ``ndarray + t``: recorded with the tape's own ufunc of that name.

        Only NumPy's own ufuncs have one: a ufunc of another library (SciPy's
        ``scipy.special.expit``) is refused under its own name, even where NumPy has a
        function of the same name."""
        cls: type[Tensor] = type(self)  # type: ignore[assignment]
        name = ufunc.__name__
        numpys = _numpy_ufunc(ufunc)
        fn = getattr(cls._engine.np, name, None) if numpys else None
        if method != "__call__" or "out" in kwargs or fn is None:
            call = (f"np.{name}" if numpys else _foreign_name(ufunc)) + (
                "" if method == "__call__" else f".{method}"
            )
            if "out" in kwargs:
                call += "(..., out=...)"
            if not numpys:
                raise _foreign(call, name)
            raise _dropped(call)
        return record_call(cls, fn, inputs, kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        """``np.concatenate([t, u])``: recorded with the tape's function of that name."""
        cls: type[Tensor] = type(self)  # type: ignore[assignment]
        module = cls._engine.np
        for part in func.__module__.split(".")[1:]:
            module = getattr(module, part, None)
        fn = getattr(module, func.__name__, None)
        if fn is None or not callable(fn):
            what = f"{func.__module__}.{func.__name__}"
            raise _dropped(what)
        return record_call(cls, fn, args, kwargs)
