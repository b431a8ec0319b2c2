"""``torch.autograd.functional`` on every backend: vjp, jvp, jacobian, hessian, hvp, vhp.

The signatures, argument rules and return structures are torch's
(``torch.autograd.functional``): ``inputs`` is a tensor or a tuple of tensors, ``func``
returns a tensor or a tuple of tensors, and each result mirrors those structures
(a tensor for a tensor, a tuple for a tuple; ``jacobian``/``hessian`` nest two levels).
Arguments are checked once here, identically for every backend, then the call goes
to the engine half that the tensors' backend provides (`Backend.functional`, found
through the dispatch registry as `unigrad.grad` finds its backend), which uses the
framework's own machinery:

* torch: `torch.autograd.functional` itself;
* paddle: `unigrad.grad` on paddle's tape (the same double-backward algorithms);
* jax: ``jax.vjp``, ``jax.jvp``, ``jax.jacrev``/``jacfwd``, ``jax.hessian`` on plain
  jax arrays (results are plain arrays; calls compose with ``jax.jit``/``jax.grad``);
* numpy: HIPS ``autograd`` (results are plain NumPy arrays).

Complex numbers follow torch's convention on every backend: for jax and numpy the
vector-Jacobian product is ``conj(vjp(conj(v)))`` of the framework's own. ``jvp``,
``jacobian``, ``hessian``, ``hvp`` and ``vhp`` of a function with a complex output
raise `UnsupportedDtypeError` everywhere, because
``torch.autograd.functional`` cannot compute them (it seeds complex outputs implicitly);
complex *inputs* with real outputs work.

``create_graph=True`` makes torch and paddle results differentiable (as in torch). On
jax and numpy every call is an ordinary traceable function of its arguments: the
results are differentiable whenever the call itself runs under ``jax.grad``/``jax.jit``
or ``autograd.grad``; ``create_graph`` is accepted and changes nothing.

``strict=True`` raises `UnusedInputError` (a ``RuntimeError``) when an
output does not depend on any input or an input reaches no output, judged on the
recorded graph (jax: the jaxpr; numpy: autograd's trace), as torch does.

`unigrad.jacobian`/`unigrad.hessian` (``unigrad._jacobian``) are the tape-style
Jacobians: they take outputs already computed from watched tensors, follow paddle's API
(``batch_axis``) and run on every backend through `unigrad.grad`. These take a function
of plain arrays and follow torch's; paddle's `jacobian` and `hessian` here are those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._args import split
from .._dispatch import get_backend, owner
from .._errors import (
    BackendError,
    GradArgumentError,
    GradOutputsError,
    NotDifferentiableError,
    TapeError,
    UnsupportedDtypeError,
    UnsupportedFeatureError,
    message,
)
from .._grad import _flag

if TYPE_CHECKING:
    from ..backends._base import Backend, FunctionalImpl

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]

_TAPE_BACKENDS = ("jax", "numpy", "tensorflow")


def _owner(x: Any) -> Backend | None:
    """The backend that owns plain tensor ``x`` (the dispatch registry's answer), or None.

    autograd's tracing boxes count as numpy values, so these functions compose with
    ``autograd.grad`` as jax's compose with ``jax.grad`` (the registry itself knows no
    boxes: `unigrad.grad` refuses them).
    """
    if type(x).__module__.startswith("autograd."):
        return get_backend("numpy")
    return owner(x)


def _as_tuple(value: Any, what: str, fn: str) -> tuple[bool, tuple[Any, ...]]:
    """torch's rule: a tensor or a tuple of tensors (a list is read as a tuple)."""
    is_tuple, items = split(value)
    if not items:
        msg = message(
            f"the {what} given to {fn} is empty",
            expected="a tensor or a non-empty tuple of tensors",
            got=f"an empty {type(value).__name__}",
            fix=f"Pass at least one tensor as the {what}.",
        )
        raise GradArgumentError(msg)
    for i, el in enumerate(items):
        if getattr(type(el), "__unigrad_backend__", None) in _TAPE_BACKENDS:
            msg = message(
                f"the {what} given to {fn} holds a unigrad tape tensor",
                expected="plain arrays (unigrad.functional transforms functions of arrays)",
                got=f"a {type(el).__name__} at index {i}",
                fix="Pass the plain array, or use unigrad.jacobian/unigrad.hessian on "
                "tape tensors.",
            )
            raise TapeError(msg)
        if _owner(el) is None:
            where = f"the value at index {i}" if is_tuple else f"the given {what}"
            msg = message(
                f"the {what} given to {fn} must be a tensor or a tuple of tensors",
                expected="torch/paddle tensors, jax arrays or numpy arrays",
                got=f"{where} of type {type(el).__module__}.{type(el).__qualname__}",
                fix="Convert it to a tensor of the framework you use.",
            )
            raise GradArgumentError(msg)
    return is_tuple, items


def _one_backend(groups: list[tuple[str, tuple[Any, ...]]]) -> Backend:
    """`unigrad._dispatch.backend_for` over `_owner`, in torch.autograd.functional's words."""
    found: Backend | None = None
    first = ""
    for label, items in groups:
        for i, el in enumerate(items):
            be = _owner(el)
            if be is None:
                continue
            if found is None:
                found, first = be, f"{label}[{i}]"
            elif be is not found:
                msg = message(
                    "one call mixes two frameworks",
                    expected="every tensor of one framework",
                    got=f"{first} from {found.name!r} and {label}[{i}] from {be.name!r}",
                    fix="Convert them to one framework first.",
                )
                raise BackendError(msg)
    if found is None:  # pragma: no cover - _as_tuple guarantees one tensor
        msg = "no tensor given: expected at least one tensor, got none"
        raise BackendError(msg)
    return found


def _callable(func: Any, fn: str) -> None:
    if not callable(func):
        msg = message(
            f"`func` given to {fn} is not callable",
            expected="a function",
            got=f"a {type(func).__name__}",
            fix="Pass the function to differentiate.",
        )
        raise GradArgumentError(msg)


def _shape(x: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in getattr(x, "shape", ()))


def _size(x: Any) -> int:
    n = 1
    for d in _shape(x):
        n *= d
    return n


def _check_v(v: tuple[Any, ...], refs: tuple[Any, ...], is_tuple: bool, what: str) -> None:
    """torch's ``_validate_v``: one entry per reference, each of exactly its shape."""
    if len(v) != len(refs):
        expected = f"{len(refs)} tensor(s), one per {what}" if is_tuple else "a single tensor"
        msg = message(
            "v has the wrong length",
            expected=expected,
            got=f"{len(v)}",
            fix=f"Pass one tensor of the {what}'s shape per {what}.",
        )
        raise GradOutputsError(msg)
    for i, (a, b) in enumerate(zip(v, refs, strict=False)):
        if _shape(a) != _shape(b):
            prefix = f"entry {i} in " if is_tuple else ""
            msg = message(
                f"{prefix}v has the wrong shape",
                expected=f"{_shape(b)}",
                got=f"{_shape(a)}",
                fix=f"Pass v with the {what}'s exact shape.",
            )
            raise GradOutputsError(msg)


class _Outputs:
    """Wraps ``func``: checks what it returns (once per call), and normalises it.

    ``single=False``: the wrapped function always returns a tuple, and ``is_tuple``
    records whether ``func`` returned one. ``single=True`` (hessian, hvp, vhp): ``func``
    must return one tensor with one element, which the wrapped function returns.
    ``real=True``: complex outputs are refused (see the module docstring).
    """

    def __init__(
        self, func: Callable[..., Any], fn: str, *, single: bool, real: bool, backend: Backend
    ) -> None:
        self.func, self.fn, self.single, self.real = func, fn, single, real
        self.backend = backend
        self.is_tuple = False

    def check(self, out: Any) -> tuple[Any, ...]:
        fn = self.fn
        if self.single:
            if isinstance(out, (tuple, list)) or _owner(out) is None:
                msg = message(
                    f"the function given to {fn} should return a single tensor",
                    expected="one tensor with one element",
                    got=f"a {type(out).__name__}",
                    fix="Return the scalar loss itself, not a tuple.",
                )
                raise GradArgumentError(msg)
            outs: tuple[Any, ...] = (out,)
            if _size(out) != 1:
                msg = message(
                    f"the tensor returned by the function given to {fn} should contain "
                    "a single element",
                    expected="one element",
                    got=f"shape {_shape(out)}",
                    fix="Reduce the output, e.g. .sum().",
                )
                raise GradArgumentError(msg)
        else:
            self.is_tuple, outs = _as_tuple(out, "outputs of the user-provided function", fn)
        be = self.backend
        for i, o in enumerate(outs):
            if _owner(o) is not be:
                msg = message(
                    f"output {i} of the function given to {fn} is not a tensor of the "
                    "inputs' framework",
                    expected=f"a {be.name} tensor",
                    got=f"a {type(o).__module__}.{type(o).__qualname__}",
                    fix="Compute the outputs with the inputs' framework.",
                )
                raise BackendError(msg)
            kind = be.kind(o)
            if self.real and kind == "c":
                msg = message(
                    f"output {i} of the function given to {fn} is complex",
                    expected="real outputs (torch.autograd.functional cannot seed complex "
                    "outputs here)",
                    got=f"dtype {getattr(o, 'dtype', '?')}",
                    fix="Split the output into real and imaginary parts, or use vjp with "
                    "an explicit v.",
                )
                raise UnsupportedDtypeError(msg)
            if kind not in "fc":
                msg = message(
                    f"output {i} of the function given to {fn} is not differentiable",
                    expected="a floating-point output",
                    got=f"dtype {o.dtype}",
                    fix="Compute it in floating point.",
                )
                raise NotDifferentiableError(msg)
        return outs

    def __call__(self, *xs: Any) -> Any:
        out = self.func(*xs)
        outs = self.check(out)
        return outs[0] if self.single else outs


def _post(res: Any, is_tuple: bool) -> Any:
    return res if is_tuple else res[0]


def _post2(res: Any, outer: bool, inner: bool) -> Any:
    if not inner:
        res = tuple(r[0] for r in res)
    return res if outer else res[0]


class _Call:
    """A checked call: the backend, its engine half, the inputs and ``v`` as tuples."""

    __slots__ = ("backend", "impl", "ins", "is_in_tuple", "vs")

    def __init__(
        self,
        backend: Backend,
        impl: FunctionalImpl,
        is_in_tuple: bool,
        ins: tuple[Any, ...],
        vs: tuple[Any, ...] | None,
    ) -> None:
        self.backend, self.impl = backend, impl
        self.is_in_tuple, self.ins, self.vs = is_in_tuple, ins, vs


def _front(func: Any, inputs: Any, v: Any, create_graph: Any, strict: Any, fn: str) -> _Call:
    _callable(func, fn)
    is_in_tuple, ins = _as_tuple(inputs, "inputs", fn)
    vs: tuple[Any, ...] | None = None
    if v is not None:
        _, vs = _as_tuple(v, "v", fn)
    be = _one_backend([("inputs", ins), ("v", vs or ())])
    name = be.name
    impl = be.functional()
    if impl is None:
        msg = message(
            f"backend {name!r} has no implementation of unigrad.functional.{fn}",
            expected="a backend with the capability `functional` (torch, paddle, jax, numpy)",
            got=f"tensors of {name!r}",
            fix="Use unigrad.grad, unigrad.jacobian or unigrad.hessian, which every "
            "backend offers.",
        )
        raise UnsupportedFeatureError(msg)
    _flag(create_graph, "create_graph")
    _flag(strict, "strict")
    for i, x in enumerate(ins):
        if be.kind(x) not in "fc":
            msg = message(
                f"inputs[{i}] given to {fn} is not differentiable",
                expected="floating-point or complex inputs",
                got=f"dtype {x.dtype}",
                fix="Cast the input to a floating-point dtype.",
            )
            raise NotDifferentiableError(msg)
    return _Call(be, impl, is_in_tuple, ins, vs)


def _v_for_inputs(
    vs: tuple[Any, ...] | None, ins: tuple[Any, ...], is_in_tuple: bool, fn: str
) -> tuple[Any, ...] | None:
    if vs is None:
        if len(ins) != 1 or _size(ins[0]) != 1:
            msg = message(
                f"v is None in {fn}",
                expected="v given, unless the input is a single tensor with a single element",
                got=f"{len(ins)} input(s) of shape(s) {[_shape(x) for x in ins]}",
                fix="Pass v with the inputs' shapes.",
            )
            raise GradOutputsError(msg)
        return None
    _check_v(vs, ins, is_in_tuple, "input")
    return vs


def vjp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """The vector-Jacobian product ``v^T J`` of ``func`` at ``inputs``.

    Args:
        func: A function of the tensors in ``inputs`` returning a tensor or a tuple of
            tensors.
        inputs: A tensor or a tuple of tensors.
        v: The vector, with the structure and shapes of ``func``'s output. Optional
            when ``func`` returns a single tensor with a single element (then ones).
        create_graph: Make the results differentiable (torch, paddle).
        strict: Raise `UnusedInputError` when an input reaches no
            output, instead of returning zeros for it.

    Returns:
        ``(func_output, vjp)``; ``vjp`` has the structure and shapes of ``inputs``.

    Examples:
        >>> import torch
        >>> from unigrad.functional import vjp
        >>> out, (gx, gy) = vjp(lambda x, y: 2 * x + 3 * y,
        ...                     (torch.rand(2), torch.rand(2)), v=torch.ones(2))
        >>> gx, gy
        (tensor([2., 2.]), tensor([3., 3.]))
    """
    call = _front(func, inputs, v, create_graph, strict, "vjp")
    vs = call.vs
    wrapped = _Outputs(func, "vjp", single=False, real=False, backend=call.backend)

    def check_v(outs: tuple[Any, ...]) -> None:
        # called by the backend with the outputs, before differentiating
        if vs is None:
            if len(outs) != 1 or _size(outs[0]) != 1:
                msg = message(
                    "v is None in vjp",
                    expected="v given, unless func returns a single tensor with a single element",
                    got=f"{len(outs)} output(s) of shape(s) {[_shape(o) for o in outs]}",
                    fix="Pass v with the outputs' shapes.",
                )
                raise GradOutputsError(msg)
            if call.backend.kind(outs[0]) == "c":
                msg = message(
                    "v is None for a complex output",
                    expected="an explicit v",
                    got="None",
                    fix="Pass v (e.g. ones) explicitly.",
                )
                raise GradOutputsError(msg)
            return
        _check_v(vs, outs, wrapped.is_tuple, "output")

    outs, res = call.impl.vjp(wrapped, call.ins, vs, check_v, bool(create_graph), bool(strict))
    return _post(outs, wrapped.is_tuple), _post(res, call.is_in_tuple)


def jvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """The Jacobian-vector product ``J v`` of ``func`` at ``inputs``.

    Args:
        func: A function of the tensors in ``inputs`` returning a tensor or a tuple of
            real tensors.
        inputs: A tensor or a tuple of tensors.
        v: The vector, with the structure and shapes of ``inputs``. Optional when
            ``inputs`` is a single tensor with a single element (then ones).
        create_graph: Make the results differentiable (torch, paddle).
        strict: Raise `UnusedInputError` when an input reaches no
            output.

    Returns:
        ``(func_output, jvp)``; ``jvp`` has the structure and shapes of the output.

    Examples:
        >>> import torch
        >>> from unigrad.functional import jvp
        >>> jvp(lambda x, y: 2 * x + 3 * y, (torch.rand(2), torch.rand(2)),
        ...     v=(torch.ones(2), torch.ones(2)))[1]
        tensor([5., 5.])
    """
    call = _front(func, inputs, v, create_graph, strict, "jvp")
    vs = _v_for_inputs(call.vs, call.ins, call.is_in_tuple, "jvp")
    wrapped = _Outputs(func, "jvp", single=False, real=True, backend=call.backend)
    outs, res = call.impl.jvp(wrapped, call.ins, vs, bool(create_graph), bool(strict))
    return _post(outs, wrapped.is_tuple), _post(res, wrapped.is_tuple)


_STRATEGIES = ("reverse-mode", "forward-mode")


def _strategy(strategy: Any, vectorize: Any, create_graph: bool, strict: bool, name: str) -> None:
    _flag(vectorize, "vectorize")
    if strategy not in _STRATEGIES:
        msg = message(
            f"unknown `{name}`",
            expected=" or ".join(map(repr, _STRATEGIES)),
            got=repr(strategy),
            fix=f"Pass {name}='reverse-mode'.",
        )
        raise GradArgumentError(msg)
    if strict and vectorize:
        msg = message(
            "strict=True and vectorize=True are not supported together",
            expected="one of them",
            got="both",
            fix="Pass vectorize=False to use strict=True (torch's rule).",
        )
        raise GradArgumentError(msg)
    if strategy == "forward-mode":
        if not vectorize:
            msg = message(
                f"{name}='forward-mode' needs vectorize=True",
                expected="vectorize=True",
                got="vectorize=False",
                fix="Pass vectorize=True (torch's rule).",
            )
            raise GradArgumentError(msg)
        if create_graph:
            msg = message(
                f"{name}='forward-mode' does not support create_graph=True",
                expected="create_graph=False",
                got="create_graph=True",
                fix="Use the reverse mode (torch's rule).",
            )
            raise GradArgumentError(msg)


def jacobian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """The Jacobian of ``func`` at ``inputs``.

    Args:
        func: A function of the tensors in ``inputs`` returning a tensor or a tuple of
            real tensors.
        inputs: A tensor or a tuple of tensors.
        create_graph: Make the result differentiable (torch, paddle).
        strict: Raise `UnusedInputError` when an input reaches no
            output (not with ``vectorize=True``, as in torch).
        vectorize: Vectorise the computation (torch's vmap; always on jax).
        strategy: ``"reverse-mode"`` or ``"forward-mode"`` (needs ``vectorize=True``).

    Returns:
        One tensor of shape ``output.shape + input.shape`` for a tensor input and a
        tensor output; a tuple over the inputs or over the outputs when one of them is
        a tuple; ``result[i][j]`` (output ``i``, input ``j``) when both are.

    Examples:
        >>> import torch
        >>> from unigrad.functional import jacobian
        >>> jacobian(lambda x, y: 2 * x.exp() + 3 * y, (torch.rand(2), torch.rand(2)))[1]
        tensor([[3., 0.],
                [0., 3.]])
    """
    call = _front(func, inputs, None, create_graph, strict, "jacobian")
    _strategy(strategy, vectorize, bool(create_graph), bool(strict), "strategy")
    wrapped = _Outputs(func, "jacobian", single=False, real=True, backend=call.backend)
    res = call.impl.jacobian(
        wrapped, call.ins, bool(create_graph), bool(strict), bool(vectorize), strategy
    )
    return _post2(res, wrapped.is_tuple, call.is_in_tuple)


def hessian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """The Hessian of the scalar function ``func`` at ``inputs``.

    Args:
        func: A function of the tensors in ``inputs`` returning one tensor with one
            real element.
        inputs: A tensor or a tuple of tensors.
        create_graph: Make the result differentiable (torch, paddle).
        strict: Raise `UnusedInputError` when an input reaches no
            output.
        vectorize: Vectorise the computation (torch's vmap; always on jax).
        outer_jacobian_strategy: ``"reverse-mode"`` or ``"forward-mode"``.

    Returns:
        A tensor of shape ``input.shape + input.shape`` for a tensor input; for a tuple
        ``result[i][j]`` is the block for inputs ``i`` and ``j``.

    Examples:
        >>> import torch
        >>> from unigrad.functional import hessian
        >>> hessian(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    call = _front(func, inputs, None, create_graph, strict, "hessian")
    _strategy(
        outer_jacobian_strategy,
        vectorize,
        bool(create_graph),
        bool(strict),
        "outer_jacobian_strategy",
    )
    wrapped = _Outputs(func, "hessian", single=True, real=True, backend=call.backend)
    res = call.impl.hessian(
        wrapped,
        call.ins,
        bool(create_graph),
        bool(strict),
        bool(vectorize),
        outer_jacobian_strategy,
    )
    return _post2(res, call.is_in_tuple, call.is_in_tuple)


def _hv(
    kind: str, func: Any, inputs: Any, v: Any, create_graph: Any, strict: Any
) -> tuple[Any, Any]:
    call = _front(func, inputs, v, create_graph, strict, kind)
    vs = _v_for_inputs(call.vs, call.ins, call.is_in_tuple, kind)
    wrapped = _Outputs(func, kind, single=True, real=True, backend=call.backend)
    run = call.impl.vhp if kind == "vhp" else call.impl.hvp
    out, res = run(wrapped, call.ins, vs, bool(create_graph), bool(strict))
    return out, _post(res, call.is_in_tuple)


def vhp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """The vector-Hessian product ``v^T H`` of the scalar function ``func``.

    Args:
        func: A function of ``inputs`` returning one tensor with one real element.
        inputs: A tensor or a tuple of tensors.
        v: The vector, with the structure and shapes of ``inputs`` (optional for a
            single one-element input).
        create_graph: Make the results differentiable (torch, paddle).
        strict: Raise `UnusedInputError` when an input reaches no
            output.

    Returns:
        ``(func_output, vhp)``; ``vhp`` has the structure and shapes of ``inputs``.

    Examples:
        >>> import torch
        >>> from unigrad.functional import vhp
        >>> vhp(lambda x, y: (2 * x ** 2 + 3 * y ** 2).sum(),
        ...     (torch.ones(2), torch.ones(2)), (torch.zeros(2), torch.ones(2)))[1]
        (tensor([0., 0.]), tensor([6., 6.]))
    """
    return _hv("vhp", func, inputs, v, create_graph, strict)


def hvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """The Hessian-vector product ``H v`` of the scalar function ``func``.

    Equal to `vhp` for twice continuously differentiable functions (the Hessian
    is symmetric). Arguments and result as in `vhp`.

    Examples:
        >>> import torch
        >>> from unigrad.functional import hvp
        >>> hvp(lambda x, y: (2 * x ** 2 + 3 * y ** 2).sum(),
        ...     (torch.ones(2), torch.ones(2)), (torch.zeros(2), torch.ones(2)))[1]
        (tensor([0., 0.]), tensor([6., 6.]))
    """
    return _hv("hvp", func, inputs, v, create_graph, strict)
