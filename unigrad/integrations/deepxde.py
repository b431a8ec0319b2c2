"""DeepXDE's gradient layer written once on `unigrad.grad`.

DeepXDE (``deepxde/gradients``) computes the derivatives of a PINN's residual with one
branch per framework: ``torch.autograd.grad`` on pytorch, ``paddle.grad`` on paddle,
``jax.vmap(jax.grad(...))`` over ``(values, fn)`` pairs on jax. `install` replaces
``deepxde.gradients.jacobian``, ``hessian`` and ``clear`` (what ``dde.grad``,
``deepxde.model`` and ``deepxde.icbc`` call) with the functions of this module, written
once on `unigrad.grad` without a branch on the framework. DeepXDE's conventions are kept:
``J[i, j] = dy_i / dx_j``, lazy rows (reverse mode) or columns (forward mode) cached per
``(ys, xs)`` pair until ``clear()`` (which DeepXDE calls every step), and
``hessian(ys, xs, component, i, j)``.

On DeepXDE's jax backend, a residual ``pde(x, y)`` sees ``y`` as an array (a tape tensor
recording DeepXDE's ``(values, fn)`` pair: `unigrad.lift` of ``fn`` at a watched leaf
of ``x``), so a PDE written for pytorch or paddle runs unchanged inside DeepXDE's own
``jax.jit(jax.grad(loss))``. ``x`` stays DeepXDE's array (``dde.backend.sin(x)`` works);
functions of ``y`` other than operators go through ``unigrad.namespace(y)``.

Forward mode (``dde.config.set_default_autodiff("forward")``) works on every backend,
paddle included, where DeepXDE raises ``NotImplementedError``: a column ``J[:, j]`` is
the VJP of the VJP (``d/du (J^T u) . e_j = J e_j``), exact, on any graph.

Example:
    >>> import unigrad.integrations.deepxde as ugdde  # doctest: +SKIP
    >>> with ugdde.installed():  # doctest: +SKIP
    ...     model.train(iterations=1000)
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from typing import Any

import unigrad

__all__ = ["clear", "hessian", "install", "installed", "is_installed", "jacobian", "uninstall"]

# What install() replaced, to put back: (object, attribute name, original value).
_saved: list[tuple[Any, str, Any]] = []
# Lazily computed Jacobians and Hessians, keyed by the identities of their tensors; the
# tensors are held too, so that an id is not reused while its entry lives.
_jacobians: dict[tuple[int, int, bool], _Jacobian] = {}
_hessians: dict[tuple[int, int, int], _Hessian] = {}
# jax: DeepXDE's input array -> (that array, its watched leaf), while a residual runs.
_leaves: dict[int, tuple[Any, Any]] = {}


def _dde() -> Any:
    """DeepXDE, imported on first use (it picks its backend at import)."""
    import deepxde

    return deepxde


def _forward() -> bool:
    return bool(_dde().config.autodiff == "forward")


def _values(ys: Any) -> Any:
    """The tensor of ``ys``: DeepXDE passes ``(values, fn)`` pairs in forward mode on
    pytorch and tensorflow; on those the values are connected to ``xs`` already."""
    return ys[0] if isinstance(ys, tuple) else ys


def _leaf(xs: Any) -> Any:
    """The tensor to differentiate with respect to: ``xs`` itself, or on jax the leaf
    watched for DeepXDE's input array while the residual runs."""
    entry = _leaves.get(id(xs))
    return entry[1] if entry is not None else xs


class _Jacobian:
    """``J[i, j] = dy_i / dx_j`` of ``ys`` (``(batch, dim_y)``) and ``xs``
    (``(batch, dim_x)``), computed lazily: rows in reverse mode, columns in forward
    mode, each once."""

    def __init__(self, ys: Any, xs: Any, forward: bool) -> None:
        self.ys = _values(ys)
        self.xs = _leaf(xs)
        self.given_xs = xs  # held: its id is part of the cache key
        self.forward = forward
        self.dim_y = int(self.ys.shape[-1])
        self.dim_x = int(self.xs.shape[1])
        self.J: dict[Any, Any] = {}

    def _check(self, i: int | None, j: int | None) -> tuple[int | None, int | None]:
        if i is None and j is None:
            if self.dim_x > 1 or self.dim_y > 1:
                msg = "i and j cannot be both None."
                raise ValueError(msg)
            i, j = 0, 0
        if i is not None and not 0 <= i < self.dim_y:
            msg = f"i={i} is not valid."
            raise ValueError(msg)
        if j is not None and not 0 <= j < self.dim_x:
            msg = f"j={j} is not valid."
            raise ValueError(msg)
        return i, j

    def __call__(self, i: int | None = None, j: int | None = None) -> Any:
        i, j = self._check(i, j)
        return self._column(i, j) if self.forward else self._row(i, j)

    def _row(self, i: int | None, j: int | None) -> Any:
        if i is None:
            if self.dim_y > 1:
                msg = "Reverse-mode autodiff doesn't support computing a column."
                raise NotImplementedError(msg)
            i = 0
        if len(self.ys.shape) == 3:
            msg = "Reverse-mode autodiff doesn't support 3D output"
            raise NotImplementedError(msg)
        if i not in self.J:
            y = self.ys[:, i : i + 1] if self.dim_y > 1 else self.ys
            self.J[i] = unigrad.grad(y, self.xs, create_graph=True)[0]
        if j is None or self.dim_x == 1:
            return self.J[i]
        if (i, j) not in self.J:
            self.J[i, j] = self.J[i][:, j : j + 1]
        return self.J[i, j]

    def _column(self, i: int | None, j: int | None) -> Any:
        if j is None:
            if self.dim_x > 1:
                msg = "Forward-mode autodiff doesn't support computing gradient."
                raise NotImplementedError(msg)
            j = 0
        if j not in self.J:
            self.J[j] = _jvp_column(self.ys, self.xs, j)
        if i is None or self.dim_y == 1:
            return self.J[j]
        if (i, j) not in self.J:
            self.J[i, j] = self.J[j][..., i : i + 1]
        return self.J[i, j]


def _jvp_column(ys: Any, xs: Any, j: int) -> Any:
    """``J e_j`` (shape of ``ys``) as the VJP of a VJP: ``g(u) = J^T u`` is linear in
    ``u``, so the VJP of ``g`` with seed ``e_j`` (ones in column ``j``) is ``J e_j``."""
    xp = unigrad.namespace(xs)
    u = unigrad.watch(xp.ones_like(unigrad.detach(ys)))
    (g,) = unigrad.grad(ys, xs, grad_outputs=u, create_graph=True)
    column = xp.arange(int(xs.shape[1])) == j
    tangent = xp.zeros_like(unigrad.detach(xs)) + xp.astype(column, xs.dtype)
    return unigrad.grad(g, u, grad_outputs=tangent, create_graph=True)[0]


class _Hessian:
    """``H[i, j] = d^2 y / dx_i dx_j`` for ``y = ys[:, component]`` (reverse mode): the
    Jacobian of the cached gradient row, as DeepXDE computes it."""

    def __init__(self, ys: Any, xs: Any, component: int) -> None:
        dim_y = int(_values(ys).shape[1])
        if component >= dim_y:
            msg = f"The component of ys={component} cannot be larger than the dimension={dim_y}."
            raise ValueError(msg)
        grad_y = jacobian(ys, xs, i=component, j=None)
        self.H = _Jacobian(grad_y, xs, forward=False)
        self.given = (_values(ys), xs)  # held: their ids are the cache key

    def __call__(self, i: int = 0, j: int = 0) -> Any:
        return self.H(j, i)


def jacobian(ys: Any, xs: Any, i: int | None = None, j: int | None = None) -> Any:
    """``J[i, j] = dy_i / dx_j``, DeepXDE's ``dde.grad.jacobian`` on `unigrad.grad`.

    Args:
        ys: Outputs of shape ``(batch, dim_y)`` computed from ``xs`` (DeepXDE's
            ``(values, fn)`` pair is accepted where DeepXDE passes one).
        xs: Inputs of shape ``(batch, dim_x)``.
        i: Row (output component). ``None``: the column ``J[:, j]``.
        j: Column (input component). ``None``: the row ``J[i, :]``.

    Returns:
        ``J[i, j]`` of shape ``(batch, 1)``, the row ``J[i, :]`` (reverse mode) or the
        column ``J[:, j]`` (forward mode); differentiable (``create_graph=True``).

    Raises:
        ValueError: ``i`` or ``j`` is out of range, or both are None for a Jacobian of
            more than one entry (DeepXDE's messages).
        NotImplementedError: a column in reverse mode or a row in forward mode, for
            more than one output or input (DeepXDE's rule).
    """
    forward = _forward()
    key = (id(_values(ys)), id(xs), forward)
    entry = _jacobians.get(key)
    if entry is None:
        entry = _jacobians[key] = _Jacobian(ys, xs, forward)
    return entry(i, j)


def hessian(ys: Any, xs: Any, component: int = 0, i: int = 0, j: int = 0) -> Any:
    """``H[i, j] = d^2 y / dx_i dx_j`` of ``y = ys[:, component]``, DeepXDE's
    ``dde.grad.hessian`` on `unigrad.grad`.

    Args:
        ys: Outputs of shape ``(batch, dim_y)`` computed from ``xs``.
        xs: Inputs of shape ``(batch, dim_x)``.
        component: The output component ``y`` is taken from.
        i: Row of the Hessian.
        j: Column of the Hessian.

    Returns:
        ``H[i, j]`` of shape ``(batch, 1)``, differentiable.

    Raises:
        ValueError: ``component``, ``i`` or ``j`` is out of range.
    """
    if _forward():
        # DeepXDE's forward-mode Hessian: a column of a column.
        dys_xj = jacobian(ys, xs, i=None, j=j)
        return jacobian(dys_xj, xs, i=component, j=i)
    key = (id(_values(ys)), id(xs), component)
    entry = _hessians.get(key)
    if entry is None:
        entry = _hessians[key] = _Hessian(ys, xs, component)
    return entry(i, j)


def clear() -> None:
    """Forgets the cached Jacobians and Hessians (DeepXDE calls it every step)."""
    _jacobians.clear()
    _hessians.clear()


def _array_style(pde: Callable[..., Any]) -> Callable[..., Any]:
    """Wraps a residual ``pde(x, y, ...)`` so that on DeepXDE's jax backend ``y`` is an
    array: DeepXDE's ``(values, fn)`` pair becomes ``unigrad.lift(fn)`` at a watched
    leaf of ``x`` (the tape records DeepXDE's network as one step), and the residual's
    tape tensors come back as arrays of DeepXDE's own ``jax.grad`` trace."""

    @functools.wraps(pde)
    def residual(x: Any, y: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(y, tuple):
            return pde(x, y, *args, **kwargs)
        leaf = unigrad.watch(x)
        y_tape = unigrad.lift(y[1])(leaf)
        _leaves[id(x)] = (x, leaf)
        try:
            f = pde(x, y_tape, *args, **kwargs)
        finally:
            del _leaves[id(x)]
        if isinstance(f, (list, tuple)):
            return [_value(fi) for fi in f]
        return _value(f)

    return residual


def _value(f: Any) -> Any:
    """A residual term as an array of the caller's trace (tape tensors hold one)."""
    value = getattr(f, "value", None)
    return f if value is None or not hasattr(f, "requires_grad") else value


def _losses(original: Callable[..., Any]) -> Callable[..., Any]:
    """``PDE.losses`` calling the residual through `_array_style` on the jax backend."""

    @functools.wraps(original)
    def losses(self: Any, *args: Any, **kwargs: Any) -> Any:
        pde = self.pde
        if pde is None or _dde().backend.backend_name != "jax":
            return original(self, *args, **kwargs)
        self.pde = _array_style(pde)
        try:
            return original(self, *args, **kwargs)
        finally:
            self.pde = pde

    return losses


def install() -> None:
    """Replaces DeepXDE's gradient layer with this module's (idempotent).

    Imports DeepXDE (which picks its backend then, from ``DDE_BACKEND``) and sets
    ``deepxde.gradients.jacobian``, ``hessian`` and ``clear`` (``dde.grad.*``, which
    ``deepxde.model`` and ``deepxde.icbc`` call) to `jacobian`, `hessian` and `clear`;
    on the jax backend, residuals see ``y`` as an array (see the module docstring).
    """
    if _saved:
        return
    dde = _dde()
    grads = dde.gradients
    targets: list[tuple[Any, str, Any]] = [
        (grads, "jacobian", jacobian),
        (grads, "hessian", hessian),
        (grads, "clear", clear),
        (dde.data.pde.PDE, "losses", _losses(dde.data.pde.PDE.losses)),
    ]
    clear()
    for obj, name, new in targets:
        _saved.append((obj, name, getattr(obj, name)))
        setattr(obj, name, new)


def uninstall() -> None:
    """Puts DeepXDE's own gradient layer back (a no-op when not installed)."""
    while _saved:
        obj, name, old = _saved.pop()
        setattr(obj, name, old)
    clear()
    if "deepxde" in sys.modules:
        sys.modules["deepxde"].gradients.clear()


def is_installed() -> bool:
    """Whether `install` is in effect."""
    return bool(_saved)


@contextlib.contextmanager
def installed() -> Iterator[None]:
    """`install` for the duration of a ``with`` block, then `uninstall` (unless it was
    installed before the block)."""
    was = is_installed()
    install()
    try:
        yield
    finally:
        if not was:
            uninstall()
