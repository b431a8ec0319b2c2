"""The ``backend`` fixture: every behaviour is tested on every backend.

``backend`` is parametrised over the built-in backends and yields a :class:`B`, a
small neutral toolkit (make tensors, watch them, compare numbers) so that one test body
runs unchanged on torch, paddle, jax, numpy and tensorflow. A backend whose framework is
not installed (or not importable: TensorFlow is outside the default environment) is
skipped. Markers, validated at collection:

* ``@pytest.mark.skip_backend("paddle", reason=...)``
* ``@pytest.mark.xfail_backend("paddle", reason=...)`` (strict)
* ``@pytest.mark.needs("native_batched")``: skip where the capability flag is off.
* ``@pytest.mark.rotate_backends("param", n, home=f)``: in the default run, the i-th of
  the ``n`` values of ``param`` runs on one backend only: ``f(i)`` if it names one, else
  ``BACKENDS[i % 4]`` (so every value runs once, and every backend runs some); ``--long``
  runs every value on every backend.
* ``@pytest.mark.thin_on("jax", "param", n)``: in the default run, that backend runs every
  4th of the ``n`` values of ``param`` (the jax tape compiles each new graph: a second
  or more per value); ``--long`` runs them all.
* ``@pytest.mark.long``: a long suite (soak loops, data parallel, the array API-heavy
  repetitions, the full differential corpus and long differential runs, packaging and
  site builds), deselected unless ``--long`` is given (CI gives it: ``.ci/run``). Every
  behaviour keeps at least one test per backend in the default run; ``--long`` adds the
  repetitions and the slow soaks.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import numpy as np
import pytest

import unigrad
from unigrad.conformance import Kit

# Paddle before tensorflow, before any test module imports either: TensorFlow 2.21 exports
# its C++ protobuf to the whole process and paddle 3.3.1's libraries, loaded after it, bind
# to it and crash (see unigrad/_dispatch.py, `_paddle_loader`). Only where both are
# installed: the other environments import nothing here.
if importlib.util.find_spec("tensorflow") is not None and importlib.util.find_spec("paddle"):
    import paddle  # noqa: F401

BACKENDS = ("torch", "paddle", "jax", "numpy", "tensorflow")
#: The backends ``rotate_backends`` deals values to (tensorflow, skipped where it is not
#: installed, takes no share: every value still runs somewhere in the default run).
ROTATION = BACKENDS[:4]
_MODULES = {
    "torch": ("torch",),
    "paddle": ("paddle",),
    "jax": ("jax",),
    "numpy": ("autograd",),
    "tensorflow": ("tensorflow",),
}

#: Default tolerances for float32 results.
RTOL, ATOL = 1e-5, 1e-6


#: What the default run leaves out, in the report header and ``--help``.
LONG_HELP = (
    "also run the long suites (marked long: soak loops, data parallel, array API "
    "repetitions, the full differential corpus, packaging, the site build); CI does"
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true", default=False, help=LONG_HELP)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"long: deselected unless --long ({LONG_HELP})")
    config.addinivalue_line(
        "markers",
        "thin_on(backend, param, n): without --long, that backend runs every 4th of the n "
        "values of param",
    )
    config.addinivalue_line(
        "markers",
        "rotate_backends(param, n, home=None): without --long, the i-th of the n values of "
        "param runs on one backend alone, home(i) or BACKENDS[i % 4]",
    )
    config.addinivalue_line("markers", "skip_backend(name, *, reason): skip on that backend")
    config.addinivalue_line(
        "markers", "xfail_backend(name, *, reason): strict expected failure on that backend"
    )
    config.addinivalue_line("markers", "needs(flag): skip where the capability flag is off")


def _long_only(item: pytest.Item) -> bool:
    """Whether ``item`` runs only with ``--long`` (see the markers above)."""
    if item.get_closest_marker("long") is not None:
        return True
    callspec = getattr(item, "callspec", None)
    if callspec is None or "backend" not in callspec.params:
        return False
    thin = item.get_closest_marker("thin_on")
    if thin is not None and callspec.params["backend"] == thin.args[0]:
        _, name, n = thin.args
        if callspec.indices[name] % n % THIN != 0:  # pytest numbers the product's sets
            return True
    rotate = item.get_closest_marker("rotate_backends")
    if rotate is None:
        return False
    name, n = rotate.args
    i = callspec.indices[name] % n  # pytest numbers the product's parameter sets
    home = rotate.kwargs.get("home")
    where = (home(i) if home is not None else None) or ROTATION[i % len(ROTATION)]
    return bool(callspec.params["backend"] != where)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--long"):
        return
    long = [item for item in items if _long_only(item)]
    if long:
        config.hook.pytest_deselected(items=long)
        items[:] = [item for item in items if not _long_only(item)]


#: ``thin_on``: the default run keeps one value in this many.
THIN = 4


@pytest.fixture
def long_run(request: pytest.FixtureRequest) -> bool:
    """Whether ``--long`` was given: a test repeats its loop in full (CI), or a few times."""
    return bool(request.config.getoption("--long"))


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("--long"):
        return "unigrad: --long: the long suites run too"
    return "unigrad: the long suites are deselected (python -m pytest --long runs them)"


def _installed(name: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in _MODULES[name])


class B(Kit):
    """The conformance suite's neutral kit, plus what the tests compare with.

    ``tensor``, ``leaf``, ``ones``, ``zeros``, ``xp``, ``caps`` and ``requires_grad`` come
    from :class:`unigrad.conformance.Kit`; ``np``, ``shape`` and ``dtype`` look at a host
    copy, so they also accept plain NumPy results.
    """

    def __init__(self, name: str, mod: Any) -> None:
        super().__init__(unigrad.get_backend(name))
        self.mod = mod  # the framework module (torch, paddle, jax.numpy, numpy)

    def np(self, x: Any) -> np.ndarray:
        if isinstance(x, (np.ndarray, np.generic)):
            return np.asarray(x)  # already on the host (works without autograd too)
        return np.asarray(unigrad.to_numpy(x))

    def close(self, x: Any, expected: Any, rtol: float = RTOL, atol: float = ATOL) -> None:
        """Assert ``x`` equals ``expected`` (numbers) at the stated tolerance."""
        np.testing.assert_allclose(self.np(x), np.asarray(expected), rtol=rtol, atol=atol)

    def shape(self, x: Any) -> tuple[int, ...]:
        return tuple(self.np(x).shape)

    def dtype(self, x: Any) -> str:
        return str(self.np(x).dtype)


def _module(name: str) -> Any:
    if name == "jax":
        jax = importlib.import_module("jax")
        jax.config.update("jax_enable_x64", True)
        return importlib.import_module("jax.numpy")
    if name == "numpy":
        return np
    if name == "tensorflow":
        return importlib.import_module("tensorflow.experimental.numpy")
    return importlib.import_module(name)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> B:
    name: str = request.param
    for marker in request.node.iter_markers():
        if marker.name in ("skip_backend", "xfail_backend"):
            target = marker.args[0] if marker.args else None
            if target not in BACKENDS:
                msg = f"{marker.name} needs one of {BACKENDS}, got {target!r}"
                raise ValueError(msg)
            if "reason" not in marker.kwargs:
                msg = f"{marker.name}({target!r}) needs a reason="
                raise ValueError(msg)
            if target == name:
                if marker.name == "skip_backend":
                    pytest.skip(marker.kwargs["reason"])
                request.applymarker(pytest.mark.xfail(reason=marker.kwargs["reason"], strict=True))
    if not _installed(name):
        pytest.skip(f"{name} is not installed")
    if importlib.util.find_spec(f"unigrad.backends.{name}") is None:  # until the tape lands
        pytest.skip(f"the {name} backend is not in this source tree yet")
    mod = _module(name)
    b = B(name, mod)
    for marker in request.node.iter_markers("needs"):
        flag = marker.args[0]
        if not hasattr(b.caps, flag):
            msg = f"needs({flag!r}): no such capability flag"
            raise ValueError(msg)
        if not getattr(b.caps, flag):
            pytest.skip(f"{name} lacks capability {flag}")
    return b
