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

On DeepXDE's tensorflow backend (TensorFlow 2), the losses, the training step and
``predict``'s operators run inside DeepXDE's ``tf.function`` traces: the network is
recorded the same way (``x`` a watched leaf of the graph tensor, as inside a
`unigrad.jit` step; ``model.net`` lifted at it), while ``x``, ``y`` and the
derivatives handed to the residual stay DeepXDE's ``tf.Tensor`` values (`_tape` maps
them to their tape tensors); the tape's ``tf.GradientTape`` VJPs are traced into
DeepXDE's function.

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
import unigrad.tape

__all__ = [
    "array_style",
    "clear",
    "hessian",
    "install",
    "installed",
    "is_installed",
    "jacobian",
    "uninstall",
]

# What install() replaced, to put back: (object, attribute name, original value).
_saved: list[tuple[Any, str, Any]] = []
# Lazily computed Jacobians and Hessians, keyed by the identities of their tensors; the
# tensors are held too, so that an id is not reused while its entry lives.
_jacobians: dict[tuple[int, int, bool], _Jacobian] = {}
_hessians: dict[tuple[int, int, int], _Hessian] = {}
# jax, while DeepXDE computes the losses: the id of each array DeepXDE holds (its input,
# its network's output, each derivative handed back as an array) -> (that array, the
# tape tensor it is the value of).
_tape: dict[int, tuple[Any, Any]] = {}


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


def _on_tape(a: Any) -> Any:
    """The tensor to differentiate: ``a`` itself, or on jax the tape tensor whose value
    the array ``a`` is (DeepXDE's input: a watched leaf; its network's output: the
    lifted network at that leaf; a derivative handed back as an array)."""
    entry = _tape.get(id(a))
    return entry[1] if entry is not None else a


def _handed_back(result: Any, given: Any) -> Any:
    """``result`` as the caller gave ``ys``: the tape tensor for a tensor, its value
    (registered, so that it can be differentiated again) for an array of `_tape`."""
    if id(given) not in _tape:
        return result
    value = result.value
    _tape[id(value)] = (value, result)
    return value


class _Jacobian:
    """``J[i, j] = dy_i / dx_j`` of ``ys`` (``(batch, dim_y)``) and ``xs``
    (``(batch, dim_x)``), computed lazily: rows in reverse mode, columns in forward
    mode, each once."""

    def __init__(self, ys: Any, xs: Any, forward: bool) -> None:
        self.ys = _on_tape(_values(ys))
        self.xs = _on_tape(xs)
        self.given = (_values(ys), xs)  # held: their ids are the cache key
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
    # the seed's array, watched: a tape's constant tensor is not made a leaf by watch
    ones = _value(xp.ones_like(unigrad.detach(ys)))
    with _graph_scope(ones):
        u = unigrad.watch(ones)
    (g,) = unigrad.grad(ys, xs, grad_outputs=u, create_graph=True)
    column = xp.arange(int(xs.shape[1])) == j
    tangent = xp.zeros_like(unigrad.detach(xs)) + xp.astype(column, xs.dtype)
    return unigrad.grad(g, u, grad_outputs=tangent, create_graph=True)[0]


class _Hessian:
    """``H[i, j] = d^2 y / dx_i dx_j`` for ``y = ys[:, component]`` (reverse mode): the
    Jacobian of the cached gradient row, as DeepXDE computes it."""

    def __init__(self, ys: Any, xs: Any, component: int) -> None:
        dim_y = int(_on_tape(_values(ys)).shape[1])
        if component >= dim_y:
            msg = f"The component of ys={component} cannot be larger than the dimension={dim_y}."
            raise ValueError(msg)
        grad_y = _on_tape(jacobian(ys, xs, i=component, j=None))
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
    return _handed_back(entry(i, j), _values(ys))


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
    return _handed_back(entry(i, j), _values(ys))


def clear() -> None:
    """Forgets the cached Jacobians and Hessians (DeepXDE calls it every step)."""
    _jacobians.clear()
    _hessians.clear()


def _value(f: Any) -> Any:
    """A residual term as an array of the caller's trace (a tape tensor holds one)."""
    return f.value if isinstance(f, unigrad.tape.Tensor) else f


def _symbolic(a: Any) -> bool:
    """Whether ``a`` is a graph tensor of a ``tf.function`` trace (DeepXDE's tensorflow
    backend traces its losses, training step and ``predict`` operators)."""
    return _dde().backend.backend_name == "tensorflow" and not hasattr(a, "numpy")


@contextlib.contextmanager
def _graph_scope(inputs: Any) -> Iterator[None]:
    """Inside DeepXDE's ``tf.function`` traces (tensorflow backend), the tape as inside
    a `unigrad.jit` step: `unigrad.watch` takes the graph tensor ``inputs``, every value
    is computed while tracing (the tensorflow engine defers nothing there) and each
    ``grad`` runs ``tf.GradientTape`` on graph tensors, all traced into DeepXDE's
    function. Elsewhere nothing changes."""
    if not _symbolic(inputs):
        yield
        return
    from unigrad._compile import step_scope
    from unigrad.tape._node import TracingStep

    with step_scope(), TracingStep():
        yield


@contextlib.contextmanager
def _recorded(inputs: Any, outputs: Any, fn: Callable[[Any], Any]) -> Iterator[Any]:
    """Records DeepXDE's ``(outputs, fn)`` pair on the tape for the ``with`` block:
    ``inputs`` becomes a watched leaf, ``outputs`` the lifted ``fn`` at that leaf (one
    recorded step, whose VJP the tape takes with ``jax.vjp``); both arrays map to their
    tape tensors in `_tape`. Yields the tape tensor of ``outputs``."""
    with _graph_scope(inputs):
        leaf = unigrad.watch(inputs)
        y = unigrad.lift(fn)(leaf)
    outer = dict(_tape)
    _tape[id(inputs)] = (inputs, leaf)
    _tape[id(outputs)] = (outputs, y)
    try:
        yield y
    finally:
        _tape.clear()
        _tape.update(outer)
        if not outer:
            # The cached entries hold this trace's values: DeepXDE's jax model never
            # calls clear() (its step is traced once), so they go with the trace.
            clear()


def array_style(pde: Callable[..., Any]) -> Callable[..., Any]:
    """Makes a residual ``pde(x, y, ...)`` written for arrays take DeepXDE's jax pair.

    Where DeepXDE's jax backend passes ``y`` as a ``(values, fn)`` pair, the wrapped
    residual records the pair on unigrad's tape and calls ``pde`` with ``y`` a tape
    tensor (operators, slicing and ``unigrad.namespace(y)`` record on it;
    ``dde.grad.jacobian(y, x, ...)`` differentiates it) and ``x`` DeepXDE's array;
    the residual's terms come back as arrays of the caller's trace. Any other ``y`` is
    passed through. `install` applies it to ``PDE`` residuals and ``Model.predict``'s
    ``operator`` on the jax backend.

    Args:
        pde: The residual, ``pde(x, y)`` or ``pde(x, y, aux)``.

    Returns:
        The wrapped residual, with ``pde``'s signature.
    """

    @functools.wraps(pde)
    def residual(x: Any, y: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(y, tuple):
            return pde(x, y, *args, **kwargs)
        values, fn = y
        entry = _tape.get(id(values))
        if entry is not None:  # recorded by the losses already (boundary conditions)
            f = pde(x, entry[1], *args, **kwargs)
        else:
            with _recorded(x, values, fn) as y_tape:
                f = pde(x, y_tape, *args, **kwargs)
                return _as_arrays(f)
        return _as_arrays(f)

    return residual


def _as_arrays(f: Any) -> Any:
    if isinstance(f, (list, tuple)):
        return [_value(fi) for fi in f]
    return _value(f)


def _net_recorded(operator: Callable[..., Any], net: Any) -> Callable[..., Any]:
    """``operator(x, y, ...)`` with DeepXDE's network ``net`` recorded on the tape at
    ``x`` for the call (tensorflow backend: ``Model.predict`` computes ``y = net(x)``
    inside its own ``tf.function`` and calls ``operator``); ``x``, ``y`` and the
    results stay DeepXDE's tensors."""

    @functools.wraps(operator)
    def residual(x: Any, y: Any, *args: Any, **kwargs: Any) -> Any:
        with _recorded(x, _values(y), net):
            return _as_arrays(operator(x, y, *args, **kwargs))

    return residual


def _losses(original: Callable[..., Any]) -> Callable[..., Any]:
    """``PDE.losses`` that, on the jax backend, records DeepXDE's network on the tape
    for the residual (`array_style`) and the boundary conditions, which get arrays and
    reach the tape through `_tape` (``NeumannBC``, ``OperatorBC``). Everything runs
    inside DeepXDE's ``jax.jit(jax.grad(loss))``: the tape's VJPs are traced into it.
    On tensorflow, the same with ``model.net`` recorded and no `array_style` (the
    residual gets DeepXDE's tensors), inside DeepXDE's ``tf.function``."""

    @functools.wraps(original)
    def losses(
        self: Any,
        targets: Any,
        outputs: Any,
        loss_fn: Any,
        inputs: Any,
        model: Any,
        aux: Any = None,
    ) -> Any:
        backend = _dde().backend.backend_name
        if backend == "tensorflow":
            # y stays DeepXDE's tensor; dde.grad finds its tape tensor in `_tape`
            with _recorded(inputs, outputs, model.net):
                return original(self, targets, outputs, loss_fn, inputs, model, aux=aux)
        if backend != "jax":
            return original(self, targets, outputs, loss_fn, inputs, model, aux=aux)
        pde = self.pde
        if pde is not None:
            self.pde = array_style(pde)
        try:
            with _recorded(inputs, outputs, aux[0]):
                return original(self, targets, outputs, loss_fn, inputs, model, aux=aux)
        finally:
            self.pde = pde

    return losses


def _predict(original: Callable[..., Any]) -> Callable[..., Any]:
    """``Model.predict`` applying `array_style` to its ``operator`` (jax backend)."""

    @functools.wraps(original)
    def predict(self: Any, x: Any, operator: Any = None, callbacks: Any = None) -> Any:
        backend = _dde().backend.backend_name
        if operator is not None and backend == "jax":
            operator = array_style(operator)
        elif operator is not None and backend == "tensorflow":
            operator = _net_recorded(operator, self.net)
        return original(self, x, operator=operator, callbacks=callbacks)

    return predict


def install() -> None:
    """Replaces DeepXDE's gradient layer with this module's (idempotent).

    Imports DeepXDE (which picks its backend then, from ``DDE_BACKEND``) and sets
    ``deepxde.gradients.jacobian``, ``hessian`` and ``clear`` (``dde.grad.*``, which
    ``deepxde.model`` and ``deepxde.icbc`` call) to `jacobian`, `hessian` and `clear`,
    and, for the jax and tensorflow backends, ``deepxde.data.PDE.losses`` (and
    ``Model.predict``'s ``operator``) to one that records DeepXDE's network on
    unigrad's tape (see the module docstring).
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
        (dde.Model, "predict", _predict(dde.Model.predict)),
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
