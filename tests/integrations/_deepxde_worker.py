"""DeepXDE's example PDEs on one DeepXDE backend, with DeepXDE's own gradient layer and
with `unigrad.integrations.deepxde`; prints one JSON line of results.

DeepXDE picks its backend at import (``DDE_BACKEND``), so ``test_deepxde.py`` runs this
script once per backend in a subprocess: ``python _deepxde_worker.py MODE [NAMES...]``
with MODE ``api`` (install, caching, DeepXDE's index rules), ``check`` (residuals,
losses and parameter gradients), ``forward`` (the same in forward mode), ``train`` (loss
histories of short Adam trainings) or ``bench`` (seconds per training iteration).

The PDEs are written here after DeepXDE's examples (``examples/pinn_forward/`` of
lululxvi/deepxde, file named at each); the sizes are small so that the runs are short.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import deepxde as dde
import numpy as np

import unigrad.integrations.deepxde as ugdde

BACKEND = dde.backend.backend_name
bkd = dde.backend
pi = np.pi


def _v(y: Any) -> Any:
    """The values of ``y``: DeepXDE's jax layer passes a ``(values, fn)`` pair."""
    return y[0] if isinstance(y, tuple) else y


def _exp(t: Any) -> Any:
    """``exp`` of a backend tensor (DeepXDE's jax backend has no ``exp``)."""
    if BACKEND == "jax":
        import jax.numpy as jnp

        return jnp.exp(t)
    return bkd.exp(t)


def _jac(*args: Any, **kwargs: Any) -> Any:
    """``dde.grad.jacobian``'s values (DeepXDE's own jax layer returns a pair)."""
    return _v(dde.grad.jacobian(*args, **kwargs))


def _hess(*args: Any, **kwargs: Any) -> Any:
    """``dde.grad.hessian``'s values (DeepXDE's own jax layer returns a pair)."""
    return _v(dde.grad.hessian(*args, **kwargs))


def _on(_: Any, on_boundary: bool) -> bool:
    return on_boundary


def _spacetime(lo: float, hi: float, t1: float) -> Any:
    return dde.geometry.GeometryXTime(dde.geometry.Interval(lo, hi), dde.geometry.TimeDomain(0, t1))


# Each builder returns (data, layer sizes, output transform or None, arrays): ``arrays``
# examples use y as an array in the residual, or take a derivative in a boundary
# condition (which gets arrays), so that DeepXDE's own jax layer cannot run them.


def poisson() -> tuple[Any, list[int], Any, bool]:
    """examples/pinn_forward/Poisson_Dirichlet_1d.py: -u'' = pi^2 sin(pi x)."""

    def pde(x: Any, y: Any) -> Any:
        return -_hess(y, x) - pi**2 * bkd.sin(pi * x)

    geom = dde.geometry.Interval(-1, 1)
    bc = dde.icbc.DirichletBC(geom, lambda x: np.sin(pi * x), _on)
    return dde.data.PDE(geom, pde, bc, 32, 2, num_test=40), [1, 16, 16, 1], None, False


def burgers() -> tuple[Any, list[int], Any, bool]:
    """examples/pinn_forward/Burgers.py: u_t + u u_x = 0.01/pi u_xx (y as an array)."""

    def pde(x: Any, y: Any) -> Any:
        dy_x = dde.grad.jacobian(y, x, i=0, j=0)
        dy_t = dde.grad.jacobian(y, x, i=0, j=1)
        dy_xx = dde.grad.hessian(y, x, i=0, j=0)
        return dy_t + y * dy_x - 0.01 / pi * dy_xx

    g = _spacetime(-1, 1, 0.99)
    bc = dde.icbc.DirichletBC(g, lambda x: 0, _on)
    ic = dde.icbc.IC(g, lambda x: -np.sin(pi * x[:, 0:1]), _on)
    data = dde.data.TimePDE(g, pde, [bc, ic], num_domain=96, num_boundary=16, num_initial=16)
    return data, [2, 16, 16, 1], None, True


def diffusion() -> tuple[Any, list[int], Any, bool]:
    """examples/pinn_forward/diffusion_1d.py: u_t = u_xx - e^-t (sin(pi x) - pi^2 sin(pi x))."""

    def pde(x: Any, y: Any) -> Any:
        dy_t = _jac(y, x, i=0, j=1)
        dy_xx = _hess(y, x, i=0, j=0)
        s = bkd.sin(pi * x[:, 0:1])
        return dy_t - dy_xx + _exp(-x[:, 1:2]) * (s - pi**2 * s)

    def sol(x: Any) -> Any:
        return np.sin(pi * x[:, 0:1]) * np.exp(-x[:, 1:])

    g = _spacetime(-1, 1, 1)
    bc = dde.icbc.DirichletBC(g, sol, _on)
    ic = dde.icbc.IC(g, sol, _on)
    data = dde.data.TimePDE(g, pde, [bc, ic], num_domain=64, num_boundary=16, num_initial=16)
    return data, [2, 16, 16, 1], None, False


def helmholtz() -> tuple[Any, list[int], Any, bool]:
    """examples/pinn_forward/Helmholtz_Dirichlet_2d.py: -Δu - k0^2 u = k0^2 sin sin."""
    k0 = 2 * pi

    def pde(x: Any, y: Any) -> Any:
        dy_xx = _hess(y, x, i=0, j=0)
        dy_yy = _hess(y, x, i=1, j=1)
        f = k0**2 * bkd.sin(k0 * x[:, 0:1]) * bkd.sin(k0 * x[:, 1:2])
        return -dy_xx - dy_yy - k0**2 * _v(y) - f

    geom = dde.geometry.Rectangle([0, 0], [1, 1])
    bc = dde.icbc.DirichletBC(geom, lambda x: 0, _on)
    return dde.data.PDE(geom, pde, bc, 64, 16), [2, 16, 16, 1], None, False


def allen_cahn() -> tuple[Any, list[int], Any, bool]:
    """examples/pinn_forward/Allen_Cahn.py: u_t = d u_xx + 5 (u - u^3), hard initial and
    boundary conditions in the output transform (y as an array)."""
    d = 0.001

    def pde(x: Any, y: Any) -> Any:
        dy_t = dde.grad.jacobian(y, x, i=0, j=1)
        dy_xx = dde.grad.hessian(y, x, i=0, j=0)
        return dy_t - d * dy_xx - 5 * (y - y**3)

    def transform(x: Any, y: Any) -> Any:
        # DeepXDE writes x**2. paddle 3.3.1 cannot take a parameter gradient through a
        # create_graph gradient of x ** 2 (RuntimeError "The output DenseTensor DX can
        # not be nullptr" from PowDoubleGradNode, with DeepXDE's own layer too), so
        # x * x here.
        xs, t = x[:, 0:1], x[:, 1:2]
        return xs * xs * bkd.cos(pi * xs) + t * (1 - xs * xs) * y

    data = dde.data.TimePDE(_spacetime(-1, 1, 1), pde, [], num_domain=96)
    return data, [2, 16, 16, 1], transform, True


def wave() -> tuple[Any, list[int], Any, bool]:
    """examples/pinn_forward/wave_1d.py: u_tt = C^2 u_xx, with u_t(x, 0) = 0 as an
    OperatorBC (a derivative in a boundary condition)."""
    c = 2.0

    def pde(x: Any, y: Any) -> Any:
        return dde.grad.hessian(y, x, i=1, j=1) - c**2 * dde.grad.hessian(y, x, i=0, j=0)

    def sol(x: Any) -> Any:
        xs, t = x[:, 0:1], x[:, 1:2]
        return (
            np.sin(pi * xs) * np.cos(c * pi * t) + np.sin(4 * pi * xs) * np.cos(4 * c * pi * t) / 2
        )

    g = _spacetime(0, 1, 1)
    bc = dde.icbc.DirichletBC(g, sol, _on)
    ic1 = dde.icbc.IC(g, sol, _on)
    ic2 = dde.icbc.OperatorBC(
        g,
        lambda x, y, _: dde.grad.jacobian(y, x, i=0, j=1),
        lambda x, _: dde.utils.isclose(x[1], 0),
    )
    data = dde.data.TimePDE(g, pde, [bc, ic1, ic2], num_domain=64, num_boundary=16, num_initial=16)
    return data, [2, 16, 16, 1], None, True


def klein_gordon() -> tuple[Any, list[int], Any, bool]:
    """examples/pinn_forward/Klein_Gordon.py: u_tt + a u_xx + b u + g u^3 = f."""
    a, b, g3 = -1.0, 0.0, 1.0

    def pde(x: Any, y: Any) -> Any:
        xs, t = x[:, 0:1], x[:, 1:2]
        u = _v(y)
        dy_tt = _hess(y, x, i=1, j=1)
        dy_xx = _hess(y, x, i=0, j=0)
        f = -xs * bkd.cos(t) + xs**3 * bkd.cos(t) ** 3
        return dy_tt + a * dy_xx + b * u + g3 * u**3 - f

    def sol(x: Any) -> Any:
        return x[:, 0:1] * np.cos(x[:, 1:2])

    geom = _spacetime(-1, 1, 2)
    bc = dde.icbc.DirichletBC(geom, sol, _on)
    ic = dde.icbc.IC(geom, sol, _on)
    data = dde.data.TimePDE(geom, pde, [bc, ic], num_domain=64, num_boundary=16, num_initial=16)
    return data, [2, 16, 16, 1], None, False


def kovasznay() -> tuple[Any, list[int], Any, bool]:
    """examples/pinn_forward/Kovasznay_flow.py: steady Navier-Stokes, outputs (u, v, p)."""
    re = 20.0
    nu = 1 / re
    lam = 1 / (2 * nu) - np.sqrt(1 / (4 * nu**2) + 4 * pi**2)

    def pde(x: Any, y: Any) -> Any:
        u, v = _v(y)[:, 0:1], _v(y)[:, 1:2]
        u_x = _jac(y, x, i=0, j=0)
        u_y = _jac(y, x, i=0, j=1)
        v_x = _jac(y, x, i=1, j=0)
        v_y = _jac(y, x, i=1, j=1)
        p_x = _jac(y, x, i=2, j=0)
        p_y = _jac(y, x, i=2, j=1)
        u_xx = _hess(y, x, component=0, i=0, j=0)
        u_yy = _hess(y, x, component=0, i=1, j=1)
        v_xx = _hess(y, x, component=1, i=0, j=0)
        v_yy = _hess(y, x, component=1, i=1, j=1)
        return [
            u * u_x + v * u_y + p_x - nu * (u_xx + u_yy),
            u * v_x + v * v_y + p_y - nu * (v_xx + v_yy),
            u_x + v_y,
        ]

    def u_sol(x: Any) -> Any:
        return 1 - np.exp(lam * x[:, 0:1]) * np.cos(2 * pi * x[:, 1:2])

    geom = dde.geometry.Rectangle([-0.5, -0.5], [1, 1.5])
    bc = dde.icbc.DirichletBC(geom, u_sol, _on, component=0)
    return dde.data.PDE(geom, pde, [bc], 64, 16), [2, 16, 16, 3], None, False


def lotka_volterra() -> tuple[Any, list[int], Any, bool]:
    """examples/pinn_forward/Lotka_Volterra.py: a system of two ODEs (scaled)."""
    ub, rb = 200.0, 20.0

    def pde(x: Any, y: Any) -> Any:
        r, p = _v(y)[:, 0:1], _v(y)[:, 1:2]
        dr_t = _jac(y, x, i=0)
        dp_t = _jac(y, x, i=1)
        return [
            dr_t - 1 / ub * rb * (2.0 * ub * r - 0.04 * ub * r * ub * p),
            dp_t - 1 / ub * rb * (0.02 * ub * r * ub * p - 1.06 * ub * p),
        ]

    geom = dde.geometry.TimeDomain(0, 1)
    ic_r = dde.icbc.IC(geom, lambda x: 100 / ub, _on, component=0)
    ic_p = dde.icbc.IC(geom, lambda x: 15 / ub, _on, component=1)
    data = dde.data.PDE(geom, pde, [ic_r, ic_p], 48, 2)
    return data, [1, 16, 16, 2], None, False


def euler_beam() -> tuple[Any, list[int], Any, bool]:
    """examples/pinn_forward/Euler_beam.py: u'''' = -1 with a Neumann and two operator
    boundary conditions (third derivatives; y as an array)."""

    def ddy(x: Any, y: Any) -> Any:
        return dde.grad.hessian(y, x)

    def dddy(x: Any, y: Any) -> Any:
        return dde.grad.jacobian(ddy(x, y), x)

    def pde(x: Any, y: Any) -> Any:
        return dde.grad.hessian(ddy(x, y), x) + 1

    geom = dde.geometry.Interval(0, 1)

    def left(x: Any, on: bool) -> bool:
        return on and dde.utils.isclose(x[0], 0)

    def right(x: Any, on: bool) -> bool:
        return on and dde.utils.isclose(x[0], 1)

    bcs = [
        dde.icbc.DirichletBC(geom, lambda x: 0, left),
        dde.icbc.NeumannBC(geom, lambda x: 0, left),
        dde.icbc.OperatorBC(geom, lambda x, y, _: ddy(x, y), right),
        dde.icbc.OperatorBC(geom, lambda x, y, _: dddy(x, y), right),
    ]
    return dde.data.PDE(geom, pde, bcs, 32, 2), [1, 16, 16, 1], None, True


EXAMPLES: dict[str, Callable[[], tuple[Any, list[int], Any, bool]]] = {
    f.__name__: f
    for f in (
        poisson,
        burgers,
        diffusion,
        helmholtz,
        allen_cahn,
        wave,
        klein_gordon,
        kovasznay,
        lotka_volterra,
        euler_beam,
    )
}


def _weights(sizes: list[int], seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Glorot-normal weights (in, out) and small biases, the same on every backend."""
    rng = np.random.default_rng(seed)
    return [
        (
            (rng.normal(size=(a, b)) * np.sqrt(2 / (a + b))).astype(np.float32),
            (rng.normal(size=b) * 0.1).astype(np.float32),
        )
        for a, b in itertools.pairwise(sizes)
    ]


def _model(name: str, seed: int = 0) -> tuple[Any, Any, bool]:
    """The example's model, compiled for Adam, with the seed's weights."""
    dde.config.set_random_seed(seed)
    data, sizes, transform, array_style = EXAMPLES[name]()
    net = dde.nn.FNN(sizes, "tanh", "Glorot normal")
    if transform is not None:
        net.apply_output_transform(transform)
    model = dde.Model(data, net)
    weights = _weights(sizes, seed + 1)
    if BACKEND == "jax":
        import jax.numpy as jnp

        model.compile("adam", lr=1e-3)
        params = {
            "params": {
                f"denses_{k}": {"kernel": jnp.asarray(w), "bias": jnp.asarray(b)}
                for k, (w, b) in enumerate(weights)
            }
        }
        model.net.params = params
        model.params = [params, model.params[1]]
        model.opt_state = model.opt.init(model.params)
    elif BACKEND == "tensorflow":
        net(np.zeros((1, sizes[0]), np.float32))  # builds the layers
        for layer, (w, b) in zip(net.denses, weights, strict=True):
            layer.kernel.assign(w)
            layer.bias.assign(b)
        model.compile("adam", lr=1e-3)
    else:
        for layer, (w, b) in zip(net.linears, weights, strict=True):
            if BACKEND == "pytorch":
                import torch

                with torch.no_grad():
                    layer.weight.copy_(torch.from_numpy(w.T))
                    layer.bias.copy_(torch.from_numpy(b))
            else:
                layer.weight.set_value(w)
                layer.bias.set_value(b)
        model.compile("adam", lr=1e-3)
    return model, data, array_style


def _np(t: Any) -> np.ndarray:
    if hasattr(t, "detach"):
        t = t.detach()
    return np.asarray(t.cpu() if hasattr(t, "cpu") else t, dtype=np.float32)


def _losses_and_grads(model: Any, data: Any) -> tuple[list[float], list[list[float]]]:
    """DeepXDE's training losses at the initial weights and their sum's gradients
    with respect to the weights and biases, as (in, out) float lists."""
    x, y = data.train_x, data.train_y
    if BACKEND == "jax":
        import jax
        import jax.numpy as jnp

        def total(p: Any) -> Any:
            losses = model.outputs_losses_train(p, x, y)[1]
            return jnp.sum(losses), losses

        # one compilation for the losses and their gradients
        (_, losses), g = jax.value_and_grad(total, has_aux=True)(model.params)
        g = g[0]["params"]
        grads = [_np(g[f"denses_{k}"][n]) for k in range(len(g)) for n in ("kernel", "bias")]
    elif BACKEND == "tensorflow":
        import tensorflow as tf

        params = [p for layer in model.net.denses for p in (layer.kernel, layer.bias)]
        with tf.GradientTape() as tape:
            losses = model.outputs_losses_train(x, y, None)[1]
            total = tf.math.reduce_sum(losses)
        grads = [_np(t) for t in tape.gradient(total, params)]
    else:
        losses = model.outputs_losses_train(x, y, None)[1]
        params = [p for layer in model.net.linears for p in (layer.weight, layer.bias)]
        if BACKEND == "pytorch":
            import torch

            total = torch.stack(list(losses)).sum() if isinstance(losses, list) else losses.sum()
            grads = [_np(t) for t in torch.autograd.grad(total, params)]
            grads = [t.T if t.ndim == 2 else t for t in grads]
        else:
            import paddle

            total = paddle.stack(list(losses)).sum() if isinstance(losses, list) else losses.sum()
            grads = [_np(t) for t in paddle.grad(total, params)]
    return _np(bkd.as_tensor(losses) if isinstance(losses, list) else losses).ravel().tolist(), [
        t.ravel().tolist() for t in grads
    ]


def _layer(use_unigrad: bool) -> Any:
    if use_unigrad:
        ugdde.install()
    else:
        ugdde.uninstall()


def check(names: list[str]) -> dict[str, Any]:
    """Residuals on test points, losses and parameter gradients, both layers."""
    out: dict[str, Any] = {}
    for name in names:
        res: dict[str, Any] = {}
        for layer in ("own", "unigrad"):
            _layer(layer == "unigrad")
            model, data, array_style = _model(name)
            own_cannot = BACKEND == "jax" and array_style
            own_cannot |= BACKEND == "paddle" and dde.config.autodiff == "forward"
            if layer == "own" and own_cannot:
                try:
                    _losses_and_grads(model, data)
                    res["own"] = "ran"
                except Exception as e:  # what DeepXDE raises is reported
                    res["own"] = f"{type(e).__name__}: {str(e)[:80]}"
                continue
            x = data.test_x
            r = model.predict(x, operator=data.pde)
            r = r if isinstance(r, list) else [r]
            losses, grads = _losses_and_grads(model, data)
            res[layer] = {
                "residual": [np.asarray(ri, np.float32).ravel().tolist() for ri in r],
                "losses": losses,
                "grads": grads,
            }
        out[name] = res
    ugdde.uninstall()
    return out


def train(names: list[str], iterations: int, modes: list[str]) -> dict[str, Any]:
    """Loss histories (every 10 iterations) of Adam trainings, per layer and mode:
    ``own`` and ``unigrad`` (reverse mode), ``own-forward`` (DeepXDE's forward mode)."""
    out: dict[str, Any] = {}
    for name in names:
        res: dict[str, Any] = {}
        for mode in modes:
            _layer(mode.startswith("unigrad"))
            dde.config.set_default_autodiff("forward" if mode.endswith("forward") else "reverse")
            model, _, array_style = _model(name)
            if mode.startswith("own") and BACKEND == "jax" and array_style:
                continue
            t0 = time.perf_counter()
            history, _ = model.train(iterations=iterations, display_every=10, verbose=0)
            res[mode] = {
                "loss": np.asarray(history.loss_train, np.float32).tolist(),
                "seconds": time.perf_counter() - t0,
            }
        out[name] = res
    dde.config.set_default_autodiff("reverse")
    ugdde.uninstall()
    return out


def bench(names: list[str], iterations: int, rounds: int) -> dict[str, Any]:
    """Seconds per training iteration, both layers side by side: after a warm-up (the
    compilation on jax), ``rounds`` rounds each train both models ``iterations``
    iterations, in turn (the order alternates); medians over the rounds, and the median
    of the per-round ratios unigrad / own."""
    import statistics

    out: dict[str, Any] = {}
    for name in names:
        models: dict[str, Any] = {}
        for layer in ("own", "unigrad"):
            _layer(layer == "unigrad")
            model, _, array_style = _model(name)
            if layer == "own" and BACKEND == "jax" and array_style:
                continue
            model.train(iterations=20, display_every=10**6, verbose=0)
            models[layer] = model
        times: dict[str, list[float]] = {layer: [] for layer in models}
        for r in range(rounds):
            for layer in sorted(models, reverse=bool(r % 2)):
                _layer(layer == "unigrad")
                t0 = time.perf_counter()
                models[layer].train(iterations=iterations, display_every=10**6, verbose=0)
                times[layer].append((time.perf_counter() - t0) / iterations)
        res: dict[str, Any] = {k: statistics.median(v) for k, v in times.items()}
        if "own" in times:
            res["ratio"] = statistics.median(
                u / o for u, o in zip(times["unigrad"], times["own"], strict=True)
            )
        out[name] = res
    ugdde.uninstall()
    return out


def api() -> dict[str, Any]:
    """install/uninstall/installed, the lazy caching and DeepXDE's i/j/component rules
    and messages, on one network with two inputs and two outputs."""
    own = (dde.grad.jacobian, dde.grad.hessian, dde.grad.clear)
    out: dict[str, Any] = {}
    with ugdde.installed():
        out["installed"] = dde.grad.jacobian is ugdde.jacobian and ugdde.is_installed()
        net = dde.nn.FNN([2, 8, 2], "tanh", "Glorot normal")
        x = np.random.default_rng(0).uniform(size=(5, 2)).astype(np.float32)
        if BACKEND == "jax":
            params = net.init(__import__("jax").random.PRNGKey(0), x)

            def fn(z: Any) -> Any:
                return net.apply(params, z)

            xs = __import__("jax").numpy.asarray(x)
            ys = (fn(xs), fn)
            wrap = ugdde.array_style
        elif BACKEND == "tensorflow":
            import tensorflow as tf

            # DeepXDE computes derivatives inside its tf.function traces only (its own
            # layer's tf.gradients refuses eager tensors): the probe runs as predict's
            # operators do, y = net(x) inside a tf.function
            xs, ys = tf.constant(x), None

            def wrap(f: Any) -> Any:
                op = ugdde._net_recorded(f, net)
                return lambda a, _: tf.function(lambda z: op(z, net(z)))(a)

        else:
            xs = bkd.as_tensor(x)
            if BACKEND == "pytorch":
                xs.requires_grad_()
            else:
                xs.stop_gradient = False
            ys = net(xs)

            def wrap(f: Any) -> Any:
                return f

        def probe(x: Any, y: Any) -> Any:
            j01 = dde.grad.jacobian(y, x, i=0, j=1)
            same = j01 is dde.grad.jacobian(y, x, i=0, j=1)
            h = dde.grad.hessian(y, x, component=1, i=0, j=1)
            same_h = h is dde.grad.hessian(y, x, component=1, i=0, j=1)
            errors = []
            for call in (
                lambda: dde.grad.jacobian(y, x, i=2, j=0),
                lambda: dde.grad.jacobian(y, x),
                lambda: dde.grad.jacobian(y, x, i=None, j=0),
                lambda: dde.grad.hessian(y, x, component=2),
            ):
                try:
                    call()
                    errors.append("none")
                except (ValueError, NotImplementedError) as e:
                    errors.append(f"{type(e).__name__}: {e}")
            out.update(same=same, same_hessian=same_h, errors=errors)
            return j01

        wrap(probe)(xs, ys)
    out["restored"] = (dde.grad.jacobian, dde.grad.hessian, dde.grad.clear) == own
    out["not_installed"] = not ugdde.is_installed()
    return out


def main(argv: list[str]) -> None:
    mode, *rest = argv
    names = [n for n in rest if n in EXAMPLES] or list(EXAMPLES)
    opts = dict(a.split("=", 1) for a in rest if "=" in a)
    iterations = int(opts.get("iterations", "200"))
    if mode == "check":
        result = check(names)
    elif mode == "api":
        result = api()
    elif mode == "forward":
        dde.config.set_default_autodiff("forward")
        result = check(names)
    elif mode == "train":
        result = train(names, iterations, opts.get("modes", "own,unigrad").split(","))
    elif mode == "bench":
        result = bench(names, iterations, int(opts.get("rounds", "5")))
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    print("RESULT " + json.dumps({"backend": BACKEND, "result": result}))


if __name__ == "__main__":
    main(sys.argv[1:])
