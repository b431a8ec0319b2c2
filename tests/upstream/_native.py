"""Upstream's ops on each backend, for the replays in this folder.

An upstream test's op is called as the framework's own function on torch and paddle
(``torch.relu``, ``paddle.nn.functional.relu``, ...). jax and numpy tensors are unigrad tape
tensors, which only the namespace (``unigrad.namespace``) records: there the namespace's
function of the same name is called, and where the namespace has none (``relu``,
``sigmoid``, ``leaky_relu``, ``elu``, ``celu``, ``softplus``, ``rsqrt``) its definition
written with the namespace (``xp.maximum(x, 0)`` for relu), as each replay's docstring says.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def _torch(name: str, kw: dict[str, Any]) -> Callable[[Any], Any]:
    torch = importlib.import_module("torch")
    f = torch.nn.functional
    table: dict[str, Callable[[Any], Any]] = {
        "relu": torch.relu,
        "sigmoid": torch.sigmoid,
        "tanh": torch.tanh,
        "leaky_relu": lambda x: f.leaky_relu(x, kw.get("negative_slope", 0.01)),
        "elu": lambda x: f.elu(x, alpha=kw.get("alpha", 1.0)),
        "celu": lambda x: f.celu(x, alpha=kw.get("alpha", 1.0)),
        "softplus": lambda x: f.softplus(
            x, beta=kw.get("beta", 1), threshold=kw.get("threshold", 20)
        ),
        "rsqrt": torch.rsqrt,
        "pow": lambda x: torch.pow(x, kw["exponent"]),
    }
    return table.get(name) or getattr(torch, name)


def _paddle(name: str, kw: dict[str, Any]) -> Callable[[Any], Any]:
    paddle = importlib.import_module("paddle")
    f = paddle.nn.functional
    table: dict[str, Callable[[Any], Any]] = {
        "relu": f.relu,
        "sigmoid": f.sigmoid,
        "leaky_relu": lambda x: f.leaky_relu(x, kw.get("negative_slope", 0.01)),
        "elu": lambda x: f.elu(x, alpha=kw.get("alpha", 1.0)),
        "celu": lambda x: f.celu(x, alpha=kw.get("alpha", 1.0)),
        "softplus": lambda x: f.softplus(
            x, beta=kw.get("beta", 1), threshold=kw.get("threshold", 20)
        ),
        "pow": lambda x: paddle.pow(x, kw["exponent"]),
    }
    return table.get(name) or getattr(paddle, name)


def _namespace(name: str, kw: dict[str, Any], xp: Any) -> Callable[[Any], Any]:
    alpha = kw.get("alpha", 1.0)
    table: dict[str, Callable[[Any], Any]] = {
        "relu": lambda x: xp.maximum(x, 0.0),
        "sigmoid": lambda x: 1.0 / (1.0 + xp.exp(-x)),
        "leaky_relu": lambda x: xp.where(x > 0, x, kw.get("negative_slope", 0.01) * x),
        "elu": lambda x: xp.where(x > 0, x, alpha * xp.expm1(x)),
        "celu": lambda x: xp.where(x > 0, x, alpha * xp.expm1(x / alpha)),
        # beta=1, threshold=20 in every replay: log(1 + e^x) below the threshold
        "softplus": lambda x: xp.log1p(xp.exp(x)),
        "rsqrt": lambda x: 1.0 / xp.sqrt(x),
        "pow": lambda x: xp.pow(
            x, float(kw["exponent"]) if isinstance(kw["exponent"], int) else kw["exponent"]
        ),
    }
    return table.get(name) or getattr(xp, name)


def native(backend: Any, name: str, **kw: Any) -> Callable[[Any], Any]:
    """Upstream's op ``name`` on ``backend`` (see the module docstring)."""
    if backend.name == "torch":
        return _torch(name, kw)
    if backend.name == "paddle":
        return _paddle(name, kw)
    return _namespace(name, kw, backend.xp)


def matmul(backend: Any) -> Callable[[Any, Any], Any]:
    """``torch.matmul`` / ``paddle.matmul``; the namespace's ``matmul`` on the tapes."""
    if backend.name in ("torch", "paddle"):
        return importlib.import_module(backend.name).matmul
    return backend.xp.matmul


__all__ = ["matmul", "native"]
