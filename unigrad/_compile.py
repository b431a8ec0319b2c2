"""`unigrad.jit`: a step written once, compiled where the framework compiles.

The front of a compiled step: it checks what every backend must refuse alike (a tensor
with a history among the arguments, ``backward`` inside), makes ``watch`` inside the step
give the step's own leaves (`step_leaf`) and its results values (`detach_results`), then
hands the call to its backend. The jax tape compiles the whole step, its
``grad`` calls included, into one ``jax.jit`` function (`unigrad.tape._step`), the
tensorflow tape into one ``tf.function`` (the same `unigrad.tape._step`);
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
    "detach_results",
    "history_error",
    "in_step",
    "jit",
    "refuse_backward_in_step",
    "step_leaf",
    "step_scope",
    "unhashable_error",
]

F = TypeVar("F", bound=Callable[..., Any])

_STEP = threading.local()


class step_scope:  # (a context manager, named as one)
    """Marks this thread as inside a compiled step while the function runs, with the
    step's own leaves (`step_leaf`) for the time it runs."""

    __slots__ = ()

    def __enter__(self) -> None:
        _STEP.depth = getattr(_STEP, "depth", 0) + 1
        leaves = getattr(_STEP, "leaves", None)
        if leaves is None:
            leaves = _STEP.leaves = []
        leaves.append({})

    def __exit__(self, *exc: object) -> None:
        _STEP.depth -= 1
        _STEP.leaves.pop()


def in_step() -> bool:
    """Whether this thread is running (or jax is tracing) a `jit` step."""
    return getattr(_STEP, "depth", 0) > 0


def step_leaf(be: Any, x: Any) -> Any:
    """`unigrad.watch` inside a `jit` step: the step's own leaf, the caller's ``x`` as it
    was.

    Where ``watch`` changes its argument in place (torch, paddle), the step watches a
    detached alias of ``x`` (the same storage), made once per step for each object,
    so that ``watch`` of one tensor twice gives one leaf, as outside. A tensor that
    already requires grad is returned as ``watch`` returns it (itself). The tapes'
    ``watch`` makes a new tape tensor and never changes an array.
    """
    if not be.watch_in_place or be.requires_grad(x):
        return be.watch(x)
    leaves: dict[int, tuple[Any, Any]] = _STEP.leaves[-1]
    hit = leaves.get(id(x))
    if hit is not None:  # (the entry holds x: its id is not reused while the step runs)
        return hit[1]
    leaf = be.watch(be.detach(x))
    leaves[id(x)] = (x, leaf)
    return leaf


_BACKWARD = message(
    "backward() inside a unigrad.jit step",
    expected="a step that returns its gradients (unigrad.grad) and changes nothing else",
    got="a backward() call, which accumulates into .grad: a side effect that a compiled "
    "step runs once, when it is traced, and never again",
    fix="Use grads = unigrad.grad(loss, params) inside the step and return them.",
)


def refuse_backward_in_step() -> None:
    """Raise `CompiledStepError` if ``backward`` is called inside a `jit` step."""
    if in_step():
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
        "or pass it detached: unigrad.detach(t).",
    )
    return CompiledStepError(msg)


def detach_results(out: Any) -> Any:
    """``out`` with each tensor that requires grad replaced by `unigrad.detach` of it:
    a step returns values, its graph ends with it. Lists, tuples (named ones too) and
    dicts are rebuilt where something in them changed; anything else is returned as it
    is."""
    if isinstance(out, (list, tuple)):
        items = [detach_results(v) for v in out]
        if all(a is b for a, b in zip(items, out, strict=True)):
            return out
        if isinstance(out, list):
            return type(out)(items) if type(out) is not list else items
        if hasattr(out, "_fields"):  # a named tuple
            return type(out)(*items)
        return type(out)(items)
    if isinstance(out, dict):
        new = {k: detach_results(v) for k, v in out.items()}
        if all(new[k] is v for k, v in out.items()):
            return out
        if type(out) is dict:
            return new
        copy = out.copy()
        copy.update(new)
        return copy
    if isinstance(out, _SCALARS):
        return out
    be = owner(out)
    if be is not None and be.requires_grad(out):
        return be.detach(out)
    return out


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
    tensorflow the step is traced the same way into one ``tf.function``
    (``unigrad.tape._step``; Python numbers among its arguments are static
    there: TensorFlow does not promote dtypes). On torch, paddle and numpy the step
    runs as written, every call. The rules are the same on every backend:

    * Arguments are arrays, watched leaves (`unigrad.watch`), constants and static
      values. A tensor computed by recorded operations is refused: the step starts its
      own graph, so nothing inside could reach its history.
    * The step never changes the caller's tensors: `unigrad.watch` inside it makes the
      step's own leaf (on torch and paddle a detached alias of the argument: the
      caller's tensor keeps ``requires_grad`` False / ``stop_gradient`` True), so an
      update outside the step (``w = w - lr * g``) is a plain tensor again.
    * The step returns values: each tensor that requires grad among its results (the
      loss, an updated weight) comes back detached (`unigrad.detach`), as
      ``jax.jit(jax.value_and_grad(f))`` returns values.
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
        CompiledStepError: a tensor with a history among the arguments, ``backward``
            inside the step, a read of a value while jax traces the step, or an
            unhashable static argument.

    Examples:
        Least squares by gradient descent; the same lines run on paddle, jax and
        numpy with ``tensor = paddle.to_tensor``, ``jnp.asarray`` or ``np.asarray``
        (``tests/test_compile.py`` runs them on all four):

        >>> import torch, unigrad
        >>> tensor = torch.tensor
        >>> @unigrad.jit
        ... def step(w, x, y):
        ...     w = unigrad.watch(w)
        ...     xp = unigrad.namespace(w)
        ...     loss = 0.5 * xp.sum((x * w - y) ** 2)
        ...     (g,) = unigrad.grad(loss, w)
        ...     return loss, g
        >>> x, y = tensor([1.0, 2.0]), tensor([2.0, 2.0])
        >>> w0 = tensor([0.0, 0.0])
        >>> w = w0
        >>> for _ in range(20):  # the update outside the step
        ...     loss, g = step(w, x, y)
        ...     w = w - 0.1 * g
        >>> [round(float(v), 3) for v in unigrad.to_numpy(w)], round(float(loss), 4)
        ([1.757, 1.0], 0.0365)

        The update inside the step: the new weights come back detached.

        >>> @unigrad.jit
        ... def sgd(w, x, y, lr):
        ...     w = unigrad.watch(w)
        ...     xp = unigrad.namespace(w)
        ...     loss = 0.5 * xp.sum((x * w - y) ** 2)
        ...     (g,) = unigrad.grad(loss, w)
        ...     return loss, w - lr * g
        >>> w = w0
        >>> for _ in range(20):
        ...     loss, w = sgd(w, x, y, 0.1)
        >>> [round(float(v), 3) for v in unigrad.to_numpy(w)], round(float(loss), 4)
        ([1.757, 1.0], 0.0365)
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
    return detach_results(out)
