"""unigrad.functional on torch: `torch.autograd.functional` itself.

The front has checked the arguments and wraps ``func`` (outputs normalised to a tuple,
or to a scalar for the Hessian family); torch's strict-mode errors become
`UnusedInputError`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import torch.autograd.functional as F

from .._errors import UnusedInputError

__all__ = ["hessian", "hvp", "jacobian", "jvp", "scalar", "vhp", "vjp"]


def scalar(x: Any) -> Any:
    return x.reshape(())


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except RuntimeError as err:
        if "strict mode" in str(err) and not isinstance(err, UnusedInputError):
            msg = f"{err} Pass strict=False to get zeros."
            raise UnusedInputError(msg) from err
        raise


def _cast(vs: tuple[Any, ...] | None, refs: tuple[Any, ...]) -> tuple[Any, ...] | None:
    if vs is None:
        return None
    return tuple(
        v if v.dtype == r.dtype or v.is_complex() else v.to(r.dtype)
        for v, r in zip(vs, refs, strict=False)
    )


def vjp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    check_v: Callable[[tuple[Any, ...]], None],
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:

    def f(*xs: Any) -> Any:
        outs = func(*xs)
        check_v(outs)
        return outs

    with _errors():
        return F.vjp(f, ins, vs, create_graph=create_graph, strict=strict)  # type: ignore[no-any-return]


def jvp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    with _errors():
        return F.jvp(func, ins, _cast(vs, ins), create_graph=create_graph, strict=strict)  # type: ignore[no-any-return]


def jacobian(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    create_graph: bool,
    strict: bool,
    vectorize: bool,
    strategy: str,
) -> Any:
    with _errors(), warnings.catch_warnings():
        # torch's vmap prototype uses torch.jit.script internally, which now warns
        warnings.filterwarnings("ignore", ".*torch.jit.script.*", DeprecationWarning)
        return F.jacobian(
            func,
            ins,
            create_graph=create_graph,
            strict=strict,
            vectorize=vectorize,
            strategy=strategy,
        )


def hessian(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    create_graph: bool,
    strict: bool,
    vectorize: bool,
    strategy: str,
) -> Any:
    with _errors(), warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*torch.jit.script.*", DeprecationWarning)
        return F.hessian(
            func,
            ins,
            create_graph=create_graph,
            strict=strict,
            vectorize=vectorize,
            outer_jacobian_strategy=strategy,
        )


def vhp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    with _errors():
        out, res = F.vhp(func, ins, _cast(vs, ins), create_graph=create_graph, strict=strict)
    return out, res


def hvp(
    func: Callable[..., Any],
    ins: tuple[Any, ...],
    vs: tuple[Any, ...] | None,
    create_graph: bool,
    strict: bool,
) -> tuple[Any, Any]:
    with _errors():
        out, res = F.hvp(func, ins, _cast(vs, ins), create_graph=create_graph, strict=strict)
    return out, res
