"""The small uniform helpers around `unigrad.grad`: watch, detach, lift, namespace,
to_numpy."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from ._compile import in_step, step_leaf
from ._dispatch import _unknown, backend_for, owner

__all__ = ["detach", "lift", "namespace", "to_numpy", "watch"]

F = TypeVar("F", bound=Callable[..., Any])


def _single(x: Any, what: str, call: str) -> Any:
    be = owner(x)
    if be is None:
        raise _unknown(x, f"`{what}`", call=call)
    return be


def watch(x: Any) -> Any:
    """Marks ``x`` as a leaf that requires grad and returns it.

    torch: ``x.requires_grad_()``; paddle: ``x.stop_gradient = False``; jax and numpy:
    a new tape tensor recording every operation on it. Always use the returned value.
    Inside a `unigrad.jit` step, ``watch`` never changes the caller's tensor: on torch
    and paddle it watches a detached alias of ``x`` (the same storage), the step's own
    leaf.

    Args:
        x: A floating-point or complex tensor of any backend.

    Returns:
        The watched tensor (``x`` itself on torch and paddle).

    Raises:
        NotDifferentiableError: ``x`` has an integer or bool dtype.
        BackendError: ``x`` is of no installed backend.

    Examples:
        >>> import torch, unigrad
        >>> x = unigrad.watch(torch.ones(2))
        >>> x.requires_grad
        True
    """
    be = _single(x, "x", "watch")
    if in_step():
        return step_leaf(be, x)
    return be.watch(x)


def detach(x: Any) -> Any:
    """``x``'s value, through which no gradient flows, on every backend.

    torch and paddle: ``x.detach()`` (a tensor sharing ``x``'s storage that does not
    require grad). A jax or numpy tape tensor: its framework array, as ``t.detach()``
    gives it; on jax, under a caller's ``jax.grad`` / ``jax.jit`` / ``jax.vmap``, it is
    also cut from that trace (``jax.lax.stop_gradient``), where ``t.detach()`` stays
    connected to it. A plain jax array: ``jax.lax.stop_gradient(x)`` while a jax
    transformation traces it, ``x`` itself otherwise; a NumPy array: ``x`` itself.

    Args:
        x: A tensor of any backend, a tape tensor or a plain jax / NumPy array.

    Returns:
        The detached value, of ``x``'s framework (a plain array for a tape tensor).

    Raises:
        BackendError: ``x`` is of no installed backend.

    Examples:
        >>> import torch, unigrad
        >>> w = unigrad.watch(torch.tensor([1.0, 2.0]))
        >>> y = unigrad.detach(w * 3.0)  # a value: no history, no gradient
        >>> y, y.requires_grad
        (tensor([3., 6.]), False)
    """
    np = sys.modules.get("numpy")
    if np is not None and isinstance(x, (np.ndarray, np.generic)):
        return x  # a plain NumPy value has no history (and needs no backend installed)
    return _single(x, "x", "detach").detach(x)


def to_numpy(x: Any) -> Any:
    """A host copy of tensor ``x`` as a `numpy.ndarray`, for comparisons and reports.

    Not inside a jax transformation (the caller's ``jax.jit``, ``jax.grad``,
    ``jax.vmap``), where values are abstract: there it raises `TapeError` (in a
    `unigrad.jit` step, `CompiledStepError`).

    Examples:
        >>> import torch, unigrad
        >>> unigrad.to_numpy(torch.tensor([1.0, 2.0]))
        array([1., 2.], dtype=float32)
    """
    return _single(x, "x", "to_numpy").to_numpy(x)


def namespace(*xs: Any) -> Any:
    """The array namespace to write forward code in, for these tensors.

    An array API standard namespace (2023.12) on every backend. torch:
    ``array_api_compat.torch`` (its portable names, a few functions corrected for
    gradients: ``unigrad._array_api._torch``); paddle: unigrad's, on paddle's own
    ops; jax and numpy tape tensors: a recording namespace over ``jax.numpy`` / NumPy's
    array API made differentiable, whose results are tape tensors (constants where
    nothing requires grad). For plain jax / numpy arrays the same namespace returns
    plain arrays; so it does for the values ``unigrad.functional`` traces (jax tracers,
    autograd's ``ArrayBox``). Every backend's namespace has the same names
    (``unigrad._array_api.PORTABLE``: the standard and unigrad's extension set; see
    docs/namespace.md); any other raises `NamespaceAttributeError`.

    Raises:
        BackendError: no tensor given, an unknown type, or two frameworks.

    Examples:
        >>> import torch, unigrad
        >>> x = torch.tensor([3.0, 4.0])
        >>> xp = unigrad.namespace(x)
        >>> float(xp.linalg.vector_norm(x))
        5.0
    """
    ns = backend_for([("xs", [_traced_value(x) for x in xs])]).namespace()
    if not any(hasattr(type(x), "__unigrad_backend__") for x in xs):
        # plain jax / numpy arrays (no tape tensor): the tape's namespace in plain mode
        return getattr(ns, "plain", ns)
    return ns


def _traced_value(x: Any) -> Any:
    """The array an autograd trace boxes (``unigrad.functional`` on numpy hands the
    function ``ArrayBox`` values): its backend is the numpy backend, whose plain
    namespace (``autograd.numpy``) traces on. Anything else is returned as it is; jax's
    tracers are jax arrays already."""
    tracer = sys.modules.get("autograd.tracer")
    if tracer is not None and isinstance(x, tracer.Box):
        return tracer.getval(x)
    return x


def lift(fn: F) -> F:
    """Makes a pure framework function one recorded step of unigrad's tape.

    On torch and paddle, whose tapes record everything already, calling the lifted
    function is calling ``fn``. On jax and numpy tape tensors, the call is recorded as
    one node whose derivative the framework's own engine computes (``jax.vjp``,
    ``autograd``), so any pure ``jnp``/``autograd.numpy`` function (a model's apply
    function, say) can be differentiated through with `unigrad.grad`.

    Examples:
        >>> import torch, unigrad
        >>> double = unigrad.lift(lambda x: 2 * x)
        >>> double(torch.tensor(1.5))
        tensor(3.)
    """

    @functools.wraps(fn)
    def lifted(*args: Any, **kwargs: Any) -> Any:
        be = _first_owner((args, kwargs))
        if be is None:
            return fn(*args, **kwargs)
        return be.lift(fn)(*args, **kwargs)

    return lifted  # type: ignore[return-value]


def _first_owner(tree: Any) -> Any:
    stack = [tree]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif v is not None and not isinstance(v, (int, float, complex, str, bool)):
            be = owner(v)
            if be is not None:
                return be
    return None
