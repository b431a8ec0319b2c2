"""`unigrad.jit`: a step written once, compiled where the framework compiles.

The front of a compiled step: it checks what every backend must refuse alike (a tensor
with a history among the arguments, a tracked tensor among the results, ``backward``
inside), then hands the call to its backend. The jax tape compiles the whole step, its
``grad`` calls included, into one ``jax.jit`` function (`unigrad.tape._compiled`);
torch, paddle and the numpy tape, whose engines run a step as it is written, call the
function itself.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, overload

from ._dispatch import owner
from ._errors import CompiledStepError, message

__all__ = [
    "check_results",
    "history_error",
    "jit",
    "refuse_backward_in_step",
    "step_scope",
    "unhashable_error",
]

F = TypeVar("F", bound=Callable[..., Any])

_STEP = threading.local()


class step_scope:  # (a context manager, named as one)
    """Marks this thread as inside a compiled step while the function runs."""

    __slots__ = ()

    def __enter__(self) -> None:
        _STEP.depth = getattr(_STEP, "depth", 0) + 1

    def __exit__(self, *exc: object) -> None:
        _STEP.depth -= 1


_BACKWARD = message(
    "backward() inside a unigrad.jit step",
    expected="a step that returns its gradients (unigrad.grad) and changes nothing else",
    got="a backward() call, which accumulates into .grad: a side effect that a compiled "
    "step runs once, when it is traced, and never again",
    fix="Use grads = unigrad.grad(loss, params) inside the step and return them.",
)


def refuse_backward_in_step() -> None:
    """Raise `CompiledStepError` if ``backward`` is called inside a `jit` step."""
    if getattr(_STEP, "depth", 0) > 0:
        raise CompiledStepError(_BACKWARD)


_SCALARS = (int, float, complex, bool, str, bytes, type(None))


def _owned(tree: Any) -> Iterator[tuple[Any, Any]]:
    """``(backend, tensor)`` for each leaf of nested lists, tuples and dicts that a
    backend owns, in order (lazily: the first costs one leaf's lookup)."""
    stack = [tree]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
        elif isinstance(v, dict):
            stack.extend(reversed(list(v.values())))
        elif not isinstance(v, _SCALARS):
            be = owner(v)
            if be is not None:
                yield be, v


def _check_statics(
    args: tuple[Any, ...], kwargs: dict[str, Any], nums: tuple[int, ...], names: tuple[str, ...]
) -> None:
    """Static arguments key the compiled functions: refuse an unhashable one on every
    backend, not only where the step compiles."""
    n = len(args)
    named = [(f"argument {i}", a) for i, a in enumerate(args) if i in nums or i - n in nums]
    named += [(f"argument {k!r}", v) for k, v in kwargs.items() if k in names]
    for where, v in named:
        try:
            hash(v)
        except TypeError:
            raise unhashable_error(where, v) from None


def unhashable_error(where: str, v: Any) -> CompiledStepError:
    """The refusal of a static argument that cannot key a compiled function."""
    msg = message(
        f"a static argument of a unigrad.jit step is not hashable ({where})",
        expected="hashable static values (numbers, strings, tuples): a new value traces "
        "the step again, so each is compared with those seen before",
        got=f"a value of type {type(v).__name__}",
        fix="Pass it as an array, or as a tuple instead of a list, or close over it.",
    )
    return CompiledStepError(msg)


def history_error(be: Any, v: Any) -> CompiledStepError:
    """The refusal of an argument computed by recorded operations."""
    msg = message(
        "a unigrad.jit step was given a tensor with a history",
        expected="arrays, watched leaves (unigrad.watch) and constants: a compiled "
        "step starts its own graph",
        got=f"a {be.name} tensor computed by recorded operations (shape "
        f"{be.shape(v)}), whose history the step cannot reach",
        fix="Pass the leaves it was computed from and compute it inside the step, "
        "or pass it detached (t.detach()).",
    )
    return CompiledStepError(msg)


def check_results(out: Any) -> None:
    """Raise `CompiledStepError` if a step's result still tracks gradients."""
    for be, v in _owned(out):
        if be.requires_grad(v):
            msg = message(
                "a unigrad.jit step returned a tensor that requires grad",
                expected="results without gradient tracking: a compiled step returns "
                "values, its graph ends with it",
                got=f"a {be.name} tensor of shape {be.shape(v)} that requires grad",
                fix="Differentiate inside the step and return the gradients; return "
                "other tensors detached (loss.detach()).",
            )
            raise CompiledStepError(msg)


def _static_positions(static_argnums: Any) -> tuple[int, ...]:
    nums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in nums):
        msg = message(
            "static_argnums must be argument positions",
            expected="an int or a sequence of ints",
            got=repr(static_argnums),
            fix="Pass positions such as static_argnums=(2,), or name the arguments in "
            "static_argnames.",
        )
        raise CompiledStepError(msg)
    return nums


def _static_names(static_argnames: Any) -> tuple[str, ...]:
    names = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames)
    if not all(isinstance(n, str) for n in names):
        msg = message(
            "static_argnames must be argument names",
            expected="a str or a sequence of str",
            got=repr(static_argnames),
            fix="Pass names such as static_argnames=('n_steps',).",
        )
        raise CompiledStepError(msg)
    return names


@overload
def jit(
    fn: F, *, static_argnums: int | Sequence[int] = (), static_argnames: str | Sequence[str] = ()
) -> F: ...


@overload
def jit(
    fn: None = None,
    *,
    static_argnums: int | Sequence[int] = (),
    static_argnames: str | Sequence[str] = (),
) -> Callable[[F], F]: ...


def jit(
    fn: Callable[..., Any] | None = None,
    *,
    static_argnums: int | Sequence[int] = (),
    static_argnames: str | Sequence[str] = (),
) -> Any:
    """Compiles a step written once for every backend, where its framework compiles.

    On jax (a jax array or jax tape tensor among the arguments) the whole step, its
    namespace ops and its `unigrad.grad` calls included, is traced once per argument
    structure, shapes and dtypes and runs as one ``jax.jit``-compiled function: the
    step's Python runs only while tracing, and a training step runs within about 5 % of
    the same step written by hand for ``jax.jit(jax.grad(...))`` (``benchmarks/``). On
    torch, paddle and numpy the step runs as written, every call. The rules are the
    same on every backend:

    * Arguments are arrays, watched leaves (`unigrad.watch`), constants and static
      values. A tensor computed by recorded operations is refused: the step starts its
      own graph, so nothing inside could reach its history.
    * The step returns values: tensors that require grad are refused (return the
      gradients, and ``loss.detach()``).
    * `unigrad.backward` is refused inside (its ``.grad`` side effect would run once,
      while tracing); use `unigrad.grad` and return the gradients.
    * On jax, as for any ``jax.jit`` function, the Python of the step must not read
      values (``float(t)``, ``if t > 0``, `unigrad.to_numpy`): that raises
      `unigrad.CompiledStepError`. Tensors the step closes over are constants, read
      when it is traced.

    On jax, arrays, tensors and Python numbers (not bools) among the arguments are
    traced; every other argument (strings, bools, namespaces, ``None``) is static,
    as are the arguments named in ``static_argnums`` / ``static_argnames``: a new
    static value traces the step again, so static values must be hashable.

    Args:
        fn: The step. Without it, ``jit`` returns a decorator taking the options.
        static_argnums: Positions of arguments to treat as static (jax).
        static_argnames: Names of keyword arguments to treat as static (jax).

    Returns:
        The compiled step, with ``fn``'s signature.

    Raises:
        CompiledStepError: a tensor with a history among the arguments, a result
            that requires grad, ``backward`` inside the step, a read of a value while
            jax traces the step, or an unhashable static argument.

    Examples:
        >>> import torch, unigrad
        >>> @unigrad.jit
        ... def step(w, x):
        ...     w = unigrad.watch(w)
        ...     xp = unigrad.namespace(w)
        ...     loss = xp.sum((x * w) ** 2)
        ...     (g,) = unigrad.grad(loss, w)
        ...     return loss.detach(), g
        >>> step(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
        (tensor(73.), tensor([18., 64.]))
    """
    if fn is None:
        return functools.partial(
            jit, static_argnums=static_argnums, static_argnames=static_argnames
        )
    nums = _static_positions(static_argnums)
    names = _static_names(static_argnames)
    compiled: dict[str, Callable[..., Any] | None] = {}

    @functools.wraps(fn)
    def step(*args: Any, **kwargs: Any) -> Any:
        dynamic: Any = (args, kwargs)
        if nums or names:
            _check_statics(args, kwargs, nums, names)
            dynamic = (
                [a for i, a in enumerate(args) if i not in nums and i - len(args) not in nums],
                {k: v for k, v in kwargs.items() if k not in names},
            )
        be = next(_owned(dynamic), (None,))[0]
        if be is None:  # nothing names a backend: the step runs as written
            return _run(fn, args, kwargs, dynamic)
        try:
            run = compiled[be.name]
        except KeyError:
            run = compiled[be.name] = be.compile(fn, nums, names)
        if run is None:
            return _run(fn, args, kwargs, dynamic)
        return run(args, kwargs)  # (checks its arguments as it flattens them)

    return step


def _run(
    fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], dynamic: Any
) -> Any:
    for be, v in _owned(dynamic):
        if be.has_history(v):
            raise history_error(be, v)
    with step_scope():
        out = fn(*args, **kwargs)
    check_results(out)
    return out
