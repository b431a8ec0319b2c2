"""unigrad.functional on paddle: torch's algorithms, run with `unigrad.grad`.

paddle's tape does the work; the algorithms are those of ``torch.autograd.functional``
(``jvp`` by the double-backward trick, ``hvp`` equal to ``vhp`` for symmetric Hessians),
so numbers and strict-mode errors match torch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import paddle

from .._grad import grad
from .._jacobian import hessian as _hessian
from .._jacobian import jacobian as _jacobian
from . import _strict

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def _prep(ins: tuple[Any, ...], create_graph: bool) -> tuple[Any, ...]:
    """New tensors that require grad (differentiable copies under create_graph)."""
    res = []
    for x in ins:
        if create_graph and not x.stop_gradient:
            res.append(x.clone())
        else:
            d = x.detach()
            d.stop_gradient = False
            res.append(d)
    return tuple(res)


def _post(xs: Any, create_graph: bool) -> Any:
    if isinstance(xs, tuple):
        return tuple(_post(x, create_graph) for x in xs)
    return xs if create_graph else xs.detach()


def _grad(
    outs: tuple[Any, ...],
    ins: tuple[Any, ...],
    seeds: tuple[Any, ...] | None,
    create_graph: bool,
    retain: bool | None = None,
) -> list[Any]:
    """torch's ``_autograd_grad``: outputs that do not require grad are skipped."""
    keep = [k for k, o in enumerate(outs) if o is not None and not o.stop_gradient]
    if not keep:
        return [None] * len(ins)
    s = None if seeds is None else [seeds[k] for k in keep]
    return list(
        grad(
            [outs[k] for k in keep],
            list(ins),
            s,
            retain_graph=retain,
            create_graph=create_graph,
            allow_unused=True,
        )
    )


def _fill(
    gs: list[Any], refs: tuple[Any, ...], strict: bool, kind: str = "back"
) -> tuple[Any, ...]:
    res = []
    for i, (g, r) in enumerate(zip(gs, refs, strict=False)):
        if g is None:
            if strict:
                raise _strict.independent(i)
            g = paddle.zeros_like(r)
        res.append(g)
    return tuple(res)


def _check_outputs(outs: tuple[Any, ...], strict: bool) -> None:
    if strict:
        for k, o in enumerate(outs):
            if o.stop_gradient:
                raise _strict.output_constant(k)


def vjp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    check_v: Callable[[tuple[Any, ...]], None],
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    xs = _prep(ins, create_graph)
    outs = func(*xs)
    check_v(outs)
    _check_outputs(outs, strict)
    res = _fill(_grad(outs, xs, vs, create_graph), xs, strict)
    return _post(tuple(outs), create_graph), _post(res, create_graph)


def jvp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    xs = _prep(ins, create_graph)
    outs = func(*xs)
    _check_outputs(outs, strict)
    us = []
    for o in outs:
        u = paddle.zeros_like(o)
        u.stop_gradient = False
        us.append(u)
    back = _fill(_grad(outs, xs, tuple(us), True, retain=True), xs, strict)
    # the inputs are requested too: paddle's PowDoubleGradNode fails when only the
    # seeds are ("The output DenseTensor DX can not be nullptr")
    res = _grad(back, (*us, *xs), vs, create_graph)[: len(us)]
    out = tuple(paddle.zeros_like(o) if r is None else r for r, o in zip(res, outs, strict=False))
    return _post(tuple(outs), create_graph), _post(out, create_graph)


def _reached(outs: tuple[Any, ...], xs: tuple[Any, ...]) -> None:
    _fill(_grad(outs, xs, None, False, retain=True), xs, True)


def jacobian(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    create_graph: bool,
    strict: bool,
    vectorize: bool,
    strategy: str,
) -> Any:
    xs = _prep(ins, create_graph)
    outs = func(*xs)
    _check_outputs(outs, strict)
    if strict:
        _reached(outs, xs)
    jac = _jacobian(list(outs), list(xs), create_graph=create_graph)
    return _post(jac, create_graph)


def _jac_of_grad(
    func: Callable[..., Any], ins: tuple[Any, ...], create_graph: bool, strict: bool
) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]]:
    xs = _prep(ins, create_graph)
    out = func(*xs)
    _check_outputs((out,), strict)
    gs = _fill(_grad((out,), xs, None, True, retain=True), xs, strict)
    if strict:
        for i, g in enumerate(gs):
            if g.stop_gradient or all(h is None for h in _grad((g,), xs, None, False, retain=True)):
                raise _strict.jacobian_independent(i)
    return out, xs, gs


def hessian(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    create_graph: bool,
    strict: bool,
    vectorize: bool,
    strategy: str,
) -> Any:
    if strict:
        _jac_of_grad(func, ins, create_graph, strict)
    xs = _prep(ins, create_graph)
    out = paddle.reshape(func(*xs), [])
    return _post(_hessian(out, list(xs), create_graph=create_graph), create_graph)


def vhp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    out, xs, gs = _jac_of_grad(func, ins, create_graph, strict)
    res = _fill(_grad(gs, xs, vs, create_graph), xs, strict)
    return _post(out, create_graph), _post(res, create_graph)


hvp = vhp
