"""The lazy backend registry: which backend owns a value, without importing frameworks.

A value's backend is decided from its *type*. A built-in backend is only considered
when its framework is already in `sys.modules`: if the user has not imported
torch, no value can be a torch tensor, so there is nothing to check and nothing is
imported. The backend module itself is imported on the first value it owns, and the
answer is cached per type.

Third-party backends register under the entry-point group ``unigrad.backends``; the
entry point names a `Backend` subclass (or an instance).
They are loaded only when a value's type is unknown to every built-in backend.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ._errors import BackendError

if TYPE_CHECKING:
    from .backends._base import Backend

__all__ = ["backend_for", "backend_of", "backends", "get_backend", "register_backend"]

ENTRY_POINT_GROUP = "unigrad.backends"


def _subclass_of(module: str, qualname: str) -> Callable[[type], bool]:
    """A type test against ``module.qualname`` that is False while ``module`` is not loaded."""
    attrs = qualname.split(".")

    def test(cls: type) -> bool:
        mod = sys.modules.get(module)
        if mod is None:
            return False
        target: Any = mod
        for attr in attrs:
            target = getattr(target, attr, None)
            if target is None:
                return False
        return isinstance(target, type) and issubclass(cls, target)

    return test


def _any_of(*tests: Callable[[type], bool]) -> Callable[[type], bool]:
    def test(cls: type) -> bool:
        return any(t(cls) for t in tests)

    return test


class _Entry:
    """A registered backend: how to recognise its types, and where its module lives."""

    __slots__ = ("framework", "instance", "loader", "name", "requires", "test")

    def __init__(
        self,
        name: str,
        *,
        framework: str,
        test: Callable[[type], bool] | None,
        loader: Callable[[], Backend],
        requires: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self.framework = framework
        self.test = test
        self.loader = loader
        self.requires = requires
        self.instance: Backend | None = None

    def load(self) -> Backend:
        if self.instance is None:
            self.instance = self.loader()
        return self.instance

    def installed(self) -> bool:
        return not self.missing()

    def missing(self) -> list[str]:
        """The required modules that cannot be imported here."""
        return [mod for mod in self.requires if importlib.util.find_spec(mod) is None]


def _module_loader(modname: str) -> Callable[[], Backend]:
    def load() -> Backend:
        backend: Backend = importlib.import_module(modname).BACKEND
        return backend

    return load


#: The module TensorFlow imports when it loads its C++ core with ``RTLD_GLOBAL``
#: (``tensorflow/python/pywrap_tensorflow.py``, TensorFlow 2.21 wheels).
_TF_GLOBAL_FLAGS = "tensorflow.python.pywrap_dlopen_global_flags"


def _paddle_loader() -> Backend:
    """Load the paddle backend, refusing where importing paddle would crash the process.

    TensorFlow 2.21 loads ``_pywrap_tensorflow_internal.so`` with ``RTLD_GLOBAL``, which
    puts the C++ protobuf that ``libtensorflow_framework.so.2`` exports into the
    process's global symbol scope; paddle 3.3.1's ``libphi_core.so`` and
    ``libpaddle.so``, loaded after it, bind their protobuf references to TensorFlow's
    (another protobuf version) and crash with SIGSEGV in their static operator
    registration (``RepeatedPtrFieldBase::AddOutOfLineHelper``). The same clash class:
    tensorflow#2646, conda-forge/tensorflow-feedstock#449. Imported the other way round
    both work, as paddle loads its libraries ``RTLD_LOCAL``. Test:
    test_tensorflow.py::test_loading_paddle_after_tensorflow_refuses_instead_of_crashing.
    """
    if "paddle" not in sys.modules and _TF_GLOBAL_FLAGS in sys.modules:
        msg = (
            "cannot load the paddle backend: expected paddle to be imported before "
            "tensorflow in this process, got tensorflow imported first (TensorFlow exports "
            "its C++ protobuf to the whole process and paddle's libraries bind to it: "
            "importing paddle now crashes the interpreter with a segmentation fault). "
            "Import paddle before tensorflow (`import paddle` first in the program or "
            "its tests' conftest.py), or run the paddle work in another process; see "
            "docs/tensorflow.md, 'TensorFlow and paddle in one process'"
        )
        raise BackendError(msg)
    return _module_loader("unigrad.backends.paddle")()


def import_order(names: Iterable[str]) -> list[str]:
    """``names`` in an order their frameworks can be imported in one process: paddle's
    before tensorflow's (see `_paddle_loader`), the others as given.

    Examples:
        >>> import_order(["tensorflow", "torch", "paddle"])
        ['paddle', 'tensorflow', 'torch']
    """
    out = list(names)
    if "paddle" in out and "tensorflow" in out and out.index("paddle") > out.index("tensorflow"):
        out.remove("paddle")
        out.insert(out.index("tensorflow"), "paddle")
    return out


# Built-ins, in the order they are tried. Tape tensors are recognised by the
# ``__unigrad_backend__`` class attribute before any of these tests run.
_REGISTRY: dict[str, _Entry] = {
    "torch": _Entry(
        "torch",
        framework="torch",
        test=_subclass_of("torch", "Tensor"),
        loader=_module_loader("unigrad.backends.torch"),
        requires=("torch",),
    ),
    "paddle": _Entry(
        "paddle",
        framework="paddle",
        test=_subclass_of("paddle", "Tensor"),
        loader=_paddle_loader,
        requires=("paddle",),
    ),
    "jax": _Entry(
        "jax",
        framework="jax",
        # tracers (under jax.jit / vmap) are jax.Array instances but not subclasses
        test=_any_of(_subclass_of("jax", "Array"), _subclass_of("jax.core", "Tracer")),
        loader=_module_loader("unigrad.backends.jax"),
        requires=("jax",),
    ),
    "numpy": _Entry(
        "numpy",
        framework="numpy",
        test=_any_of(_subclass_of("numpy", "ndarray"), _subclass_of("numpy", "generic")),
        loader=_module_loader("unigrad.backends.numpy"),
        requires=("numpy", "autograd"),
    ),
    "tensorflow": _Entry(
        "tensorflow",
        framework="tensorflow",
        test=_any_of(_subclass_of("tensorflow", "Tensor"), _subclass_of("tensorflow", "Variable")),
        loader=_module_loader("unigrad.backends.tensorflow"),
        requires=("tensorflow",),
    ),
}
_BUILTIN = frozenset(_REGISTRY)
_TYPE_CACHE: dict[type, Backend] = {}
_entry_points_loaded = False


def register_backend(backend: Backend, *, replace: bool = False) -> None:
    """Register a backend instance under ``backend.name``.

    Entry points of the group ``unigrad.backends`` call this for you; call it directly
    to register a backend from code (tests, notebooks).

    Raises:
        BackendError: ``backend.name`` is taken and ``replace`` is False.
    """
    name = backend.name
    if name in _REGISTRY and not replace:
        msg = (
            f"a backend named {name!r} is already registered; pass replace=True to "
            f"replace it, or give the new backend another name"
        )
        raise BackendError(msg)
    _REGISTRY[name] = _Entry(
        name, framework=backend.framework, test=backend.owns, loader=lambda: backend
    )
    _REGISTRY[name].instance = backend
    _TYPE_CACHE.clear()


def _load_entry_points() -> None:
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _REGISTRY:
            continue
        target = ep.load()
        backend = target() if isinstance(target, type) else target
        register_backend(backend)


def get_backend(name: str) -> Backend:
    """The backend registered as ``name`` (imports its module).

    Raises:
        BackendError: no backend of that name is registered or installed.
    """
    entry = _REGISTRY.get(name)
    if entry is None:
        _load_entry_points()
        entry = _REGISTRY.get(name)
    if entry is None or (entry.name in _BUILTIN and not entry.installed()):
        msg = (
            f"unknown backend {name!r}: expected one of {backends()}. Install the "
            f"framework (pip install 'unigrad[{name}]') or register a third-party backend"
        )
        raise BackendError(msg)
    return entry.load()


def missing_requirements(name: str) -> tuple[str, ...]:
    """What a built-in backend needs and does not find installed (empty: nothing, or not
    a built-in name). For messages that say what to install.

    Examples:
        >>> missing_requirements("no such backend")
        ()
    """
    entry = _REGISTRY.get(name)
    if entry is None or entry.name not in _BUILTIN:
        return ()
    return tuple(entry.missing())


def backends() -> tuple[str, ...]:
    """The names of the backends usable here: installed frameworks and registered plug-ins.

    Nothing is imported: installed means importable.

    Examples:
        >>> import unigrad
        >>> set(unigrad.backends()) <= {"torch", "paddle", "jax", "numpy"} | set(unigrad.backends())
        True
    """
    _load_entry_points()
    return tuple(name for name, e in _REGISTRY.items() if e.name not in _BUILTIN or e.installed())


def _lookup(cls: type) -> Backend | None:
    backend = _TYPE_CACHE.get(cls)
    if backend is not None:
        return backend
    tagged = getattr(cls, "__unigrad_backend__", None)
    if isinstance(tagged, str):
        backend = get_backend(tagged)
    else:
        for entry in _REGISTRY.values():
            if entry.test is not None and entry.test(cls):
                if entry.name in _BUILTIN and not entry.installed():
                    missing = entry.missing()
                    msg = (
                        f"{cls.__module__}.{cls.__qualname__} values belong to the "
                        f"{entry.name!r} backend, which needs {', '.join(missing)}: expected "
                        f"it installed, got it missing. Install it with "
                        f"pip install 'unigrad[{entry.name}]'"
                    )
                    raise BackendError(msg)
                backend = entry.load()
                break
        else:
            if not _entry_points_loaded:
                _load_entry_points()
                return _lookup(cls)
            return None
    _TYPE_CACHE[cls] = backend
    return backend


def owner(value: object) -> Backend | None:
    """The backend that owns ``value``'s type, or None."""
    cls = type(value)
    backend = _TYPE_CACHE.get(cls)
    return backend if backend is not None else _lookup(cls)


def _unknown(value: object, what: str, call: str | None = None) -> BackendError:
    """The refusal of a value no backend owns; ``call`` names the one-tensor function
    (``"to_numpy"``) that was given it."""
    cls = type(value)
    typename = f"{cls.__module__}.{cls.__qualname__}"
    if callable(getattr(value, "parameters", None)) and not isinstance(value, type):
        # a torch.nn.Module / paddle.nn.Layer: its tensors are its parameters
        msg = (
            f"{what} is a model ({typename}), not a tensor: expected tensors of one "
            f"of the installed backends {backends()}. Pass its parameters: "
            f"list(model.parameters())"
        )
        return BackendError(msg)
    if isinstance(value, (list, tuple)):
        kind = type(value).__name__
        each = (
            f"unigrad.{call} takes one tensor: call it on each, [unigrad.{call}(t) for t in ts]"
            if call is not None
            else "Pass the tensors it holds, not the container"
        )
        msg = (
            f"{what} is a {kind} of {len(value)} values, not a tensor: expected one tensor "
            f"of one of the installed backends {backends()}, got a {kind}. {each}"
        )
        return BackendError(msg)
    if isinstance(value, (bool, int, float, complex)):
        fix = (
            "Make it a tensor of your framework first (torch.tensor(x), paddle.to_tensor(x), "
            "jnp.asarray(x), np.asarray(x))"
        )
    else:
        fix = "Import the framework that made it, or pass one of its tensors"
    msg = (
        f"{what} has type {typename}, which no unigrad backend owns: expected a tensor "
        f"of one of the installed backends {backends()}. {fix}"
    )
    return BackendError(msg)


def backend_for(groups: Iterable[tuple[str, Iterable[Any]]]) -> Backend:
    """The one backend owning every tensor in ``groups`` (pairs of a name and values).

    ``None`` entries are skipped. Raises `BackendError` on an unknown type or on
    two frameworks in one call.
    """
    found: Backend | None = None
    first = ""
    for label, values in groups:
        for i, value in enumerate(values):
            if value is None:
                continue
            cls = type(value)
            backend = _TYPE_CACHE.get(cls) or _lookup(cls)
            if backend is None:
                raise _unknown(value, f"{label}[{i}]")
            if found is None:
                found, first = backend, f"{label}[{i}]"
            elif backend is not found:
                msg = (
                    f"one call mixes two frameworks: expected every tensor to belong to "
                    f"one backend, got {first} from {found.name!r} and {label}[{i}] from "
                    f"{backend.name!r}. Convert them to one framework first "
                    f"(unigrad.to_numpy gives a host copy)"
                )
                raise BackendError(msg)
    if found is None:
        msg = "no tensor given: expected at least one tensor, got none"
        raise BackendError(msg)
    return found


def backend_of(*values: Any) -> str:
    """The name of the backend a call on ``values`` would use.

    Nested lists and tuples are searched; ``None`` is skipped. No framework is imported.

    Raises:
        BackendError: a value of unknown type, two frameworks, or no tensor at all.

    Examples:
        >>> import torch, unigrad
        >>> unigrad.backend_of(torch.ones(2))
        'torch'
    """
    flat: list[Any] = []
    stack = list(reversed(values))
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
        else:
            flat.append(v)
    return backend_for([("values", flat)]).name
