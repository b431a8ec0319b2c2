"""The adapter contract every backend implements, and the requests the front hands it.

The front (`unigrad._grad`) owns every rule that can be checked without running
the framework: containers, lengths, flags, seed shapes and dtypes, differentiability,
duplicates. A backend therefore receives a *clean* request:

* ``outputs`` are distinct, differentiable tensors that require grad;
* ``inputs`` are distinct float/complex tensors that require grad;
* ``seeds`` has one entry per output: ``None`` (ones; the output is real) or a tensor
  of exactly the output's shape (with a leading batch dim when ``batched``) and dtype;
* ``no_grad_vars`` are tensors of the same backend.

and answers with one gradient per input, ``None`` where the input is unreachable from
the outputs (the front turns that into an error, ``None`` or zeros). A backend only
does what its framework must: run the VJP, walk its graph, map its native errors to
unigrad's. The structural rules (full-range slices, ambiguous intermediates) are the
front's too: it calls `unigrad.contract.refuse_structural` on the backend's `graph` view
before `grad` and `backward` run.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple, Protocol

from .._errors import UnsupportedFeatureError, message

if TYPE_CHECKING:
    from ..contract import GraphView

__all__ = [
    "Backend",
    "BackwardRequest",
    "Capabilities",
    "FunctionalImpl",
    "GradRequest",
    "Kind",
    "constant_output_message",
]


def constant_output_message(i: int) -> str:
    """The message for ``outputs[i]``, which requires grad in its framework but depends on
    nothing (rule 14: every path to a leaf crosses an op whose derivative is zero)."""
    return message(
        f"outputs[{i}] does not depend on any tensor that requires grad",
        expected="an output computed differentiably from tensors that require grad",
        got="a tensor reached from them only through ops whose derivative is zero "
        "(sign, floor, ceil, round, trunc, comparisons, integer casts)",
        fix="Differentiate an output computed from the inputs by differentiable ops; "
        "such an output is a constant (docs/semantics.md, Dependence).",
    )


#: The dtype kinds the front distinguishes: float, complex, integer, bool, other.
Kind = Literal["f", "c", "i", "b", "?"]


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do; tests and the conformance suite skip on these flags.

    Attributes:
        max_order: Highest derivative order known to work through ``create_graph``
            for every elementwise op (None: unlimited).
        native_batched: ``is_grads_batched`` runs vectorised (vmap) rather than a loop.
        backward_create_graph: ``backward(create_graph=True)`` accumulates a
            differentiable ``.grad`` (paddle: ``UnsupportedFeatureError``; use ``grad``).
        leaf_hooks_in_grad: Tensor hooks on leaf inputs fire inside ``grad``.
        float16_cpu: float16 gradients run on CPU.
        functional: `unigrad.functional` (vjp, jvp, jacobian, hessian, hvp, vhp)
            has an implementation for this backend's tensors: `Backend.functional`
            returns one. Off by default: a third-party backend offers ``grad`` and the
            tape-style ``unigrad.jacobian``.
        no_second_order: namespace functions (``unigrad.namespace(x).<name>``) whose
            derivative the framework cannot differentiate again: a ``create_graph=True``
            pass through one raises `unigrad.HigherOrderUnavailableError` naming it.
        compiles_steps: `unigrad.jit` compiles a step into one function (jax): its
            Python runs once per argument signature, and reading a value inside
            raises `unigrad.CompiledStepError`. Off: the step runs as written, every
            call.
        standard_arrays: the framework's own tensors are arrays of the array API
            standard (``.T``, ``.mT``, integer-array indexing, ...). Off on tensorflow:
            a plain ``tf.Tensor`` has neither ``.T`` nor integer-array indexing
            (tensorflow#50438); the namespace's constants (``xp.asarray(t)``) and every
            tape tensor have them.
    """

    max_order: int | None = None
    native_batched: bool = False
    backward_create_graph: bool = True
    leaf_hooks_in_grad: bool = False
    float16_cpu: bool = True
    functional: bool = False
    no_second_order: frozenset[str] = frozenset()
    compiles_steps: bool = False
    standard_arrays: bool = True


class FunctionalImpl(Protocol):
    """The engine half of `unigrad.functional`, which `Backend.functional` returns.

    `unigrad.functional` checks every argument first (containers, flags, dtypes, ``v``'s
    shapes, strategies), identically for every backend, then calls one of these with
    ``ins`` (a non-empty tuple of this backend's plain tensors), ``vs`` (a tuple shaped
    like the reference, or None: ones) and ``func`` wrapped: it returns a tuple of
    outputs (the scalar output for the Hessian family) and refuses wrong outputs itself.
    Each method returns torch's structure before the front unwraps it: tuples over the
    outputs and the inputs (``jacobian``/``hessian``: ``result[i][j]``). ``strict`` raises
    `unigrad.UnusedInputError` with torch's messages (`unigrad.functional._strict`).
    A module with these six functions satisfies it (``unigrad.functional._torch``).
    """

    def vjp(
        self,
        func: Callable[..., Any],
        ins: tuple[Any, ...],
        vs: tuple[Any, ...] | None,
        check_v: Callable[[tuple[Any, ...]], None],
        create_graph: bool,
        strict: bool,
    ) -> tuple[Any, Any]:
        """``(outputs, v^T J)``; ``check_v(outputs)`` runs before differentiating."""

    def jvp(
        self,
        func: Callable[..., Any],
        ins: tuple[Any, ...],
        vs: tuple[Any, ...] | None,
        create_graph: bool,
        strict: bool,
    ) -> tuple[Any, Any]:
        """``(outputs, J v)``."""

    def jacobian(
        self,
        func: Callable[..., Any],
        ins: tuple[Any, ...],
        create_graph: bool,
        strict: bool,
        vectorize: bool,
        strategy: str,
    ) -> Any:
        """``J[i][j]``: output ``i`` by input ``j``."""

    def hessian(
        self,
        func: Callable[..., Any],
        ins: tuple[Any, ...],
        create_graph: bool,
        strict: bool,
        vectorize: bool,
        strategy: str,
    ) -> Any:
        """``H[i][j]``: inputs ``i`` and ``j`` (``strategy``: the outer Jacobian's)."""

    def vhp(
        self,
        func: Callable[..., Any],
        ins: tuple[Any, ...],
        vs: tuple[Any, ...] | None,
        create_graph: bool,
        strict: bool,
    ) -> tuple[Any, Any]:
        """``(output, v^T H)``."""

    def hvp(
        self,
        func: Callable[..., Any],
        ins: tuple[Any, ...],
        vs: tuple[Any, ...] | None,
        create_graph: bool,
        strict: bool,
    ) -> tuple[Any, Any]:
        """``(output, H v)``."""


class GradRequest(NamedTuple):
    """A normalised, checked ``grad`` call. See the module docstring for the invariants.

    A NamedTuple: built on every call, it must be cheap to construct.
    """

    outputs: tuple[Any, ...]
    inputs: tuple[Any, ...]
    seeds: tuple[Any, ...]
    retain_graph: bool
    create_graph: bool
    batched: bool
    no_grad_vars: tuple[Any, ...]
    #: fast mode (`unigrad.checks`): skip the bookkeeping that only detects misuse or
    #: decides structure (consumed graphs, rule 14's walks); never a rule that decides
    #: a number
    fast: bool = False
    #: what `Backend.refuse_constant_outputs` returned for these outputs (its walk's
    #: answer, handed back so that the backend does not walk again); None if not asked
    dependence: Any = None


class BackwardRequest(NamedTuple):
    """A normalised ``backward`` call; ``inputs`` is None for every leaf of the graph."""

    outputs: tuple[Any, ...]
    seeds: tuple[Any, ...]
    retain_graph: bool
    create_graph: bool
    inputs: tuple[Any, ...] | None
    #: as `GradRequest.fast`
    fast: bool = False
    #: as `GradRequest.dependence`
    dependence: Any = None


class Backend(abc.ABC):
    """Base class of backends: the built-in four and third-party ones.

    A subclass sets `name`, `framework` and `capabilities` and
    implements the abstract methods. Instances are stateless singletons.
    """

    #: The name users pass (``--backend torch``) and `unigrad.backend_of` returns.
    name: ClassVar[str]
    #: The import name of the framework, checked in ``sys.modules`` before dispatch.
    framework: ClassVar[str]
    capabilities: ClassVar[Capabilities] = Capabilities()
    #: Whether `watch` changes its argument in place (torch's ``requires_grad_``,
    #: paddle's ``stop_gradient = False``) rather than returning a new leaf. A
    #: `unigrad.jit` step then watches a detached alias (`detach`), so that the
    #: caller's tensor stays as it was.
    watch_in_place: ClassVar[bool] = False
    #: How the contract's structural rules read this backend's graph
    #: (`unigrad.contract.GraphView`); None: no structural refusals (the framework's
    #: own behaviour stands), the default for third-party backends.
    graph: GraphView | None = None
    #: Whether ``unigrad.checks("fast")`` changes what this backend's calls check (torch,
    #: paddle); False: its calls run strict mode's checks in both modes (the tapes, whose
    #: consumption also frees their recorded values, and third-party backends).
    fast_checks: ClassVar[bool] = False

    # ---- recognising and describing tensors -------------------------------------
    @abc.abstractmethod
    def owns(self, cls: type) -> bool:
        """Whether values of type ``cls`` are this backend's tensors."""

    @abc.abstractmethod
    def versions(self) -> dict[str, str]:
        """Framework versions, for reports: ``{"torch": "2.13.0"}``."""

    @abc.abstractmethod
    def kind(self, x: Any) -> Kind:
        """The dtype kind of tensor ``x``."""

    @abc.abstractmethod
    def shape(self, x: Any) -> tuple[int, ...]:
        """The shape of ``x`` as a tuple of ints."""

    @abc.abstractmethod
    def same_dtype(self, a: Any, b: Any) -> bool:
        """Whether ``a`` and ``b`` have the same dtype."""

    @abc.abstractmethod
    def dtype_name(self, x: Any) -> str:
        """A readable dtype name for messages (``"float32"``)."""

    @abc.abstractmethod
    def requires_grad(self, x: Any) -> bool:
        """Whether gradients can flow to ``x`` (torch ``requires_grad``, paddle
        ``not stop_gradient``, a tape tensor with a history)."""

    def marked(self, x: Any) -> bool:
        """The framework's own requires-grad flag of ``x``, without `requires_grad`'s
        dependence walk (rule 14): the front checks outputs with it and leaves their
        dependence to `refuse_constant_outputs`, one walk. The default: `requires_grad`."""
        return self.requires_grad(x)

    @abc.abstractmethod
    def cast(self, x: Any, like: Any) -> Any:
        """``x`` converted to the dtype of ``like``."""

    @abc.abstractmethod
    def asarray(self, data: Any, dtype: str) -> Any:
        """A new tensor (not requiring grad) from a NumPy array or nested lists.

        ``dtype`` is a NumPy dtype name (``"float32"``, ``"complex64"``, ``"int64"``).
        """

    @abc.abstractmethod
    def ones_like(self, x: Any) -> Any:
        """Ones of ``x``'s shape and dtype."""

    @abc.abstractmethod
    def zeros_like(self, x: Any, batch: int | None = None) -> Any:
        """Zeros of ``x``'s shape and dtype, with a leading ``batch`` dim if given."""

    @abc.abstractmethod
    def add(self, a: Any, b: Any) -> Any:
        """``a + b`` (used to merge the seeds of duplicated outputs)."""

    # ---- the work -------------------------------------------------------------
    @abc.abstractmethod
    def grad(self, request: GradRequest) -> list[Any | None]:
        """One gradient per ``request.inputs``; None where an input is unreachable."""

    @abc.abstractmethod
    def backward(self, request: BackwardRequest) -> None:
        """Accumulate the gradients of ``request.outputs`` into the leaves' ``.grad``."""

    @abc.abstractmethod
    def watch(self, x: Any) -> Any:
        """``x`` as a leaf that requires grad (possibly a new object: use the result)."""

    @abc.abstractmethod
    def to_numpy(self, x: Any) -> Any:
        """A host copy of ``x`` as a NumPy array."""

    @abc.abstractmethod
    def namespace(self) -> ModuleType | Any:
        """The array namespace forward code should use for this backend's tensors."""

    def functional(self) -> FunctionalImpl | None:
        """The engine half of `unigrad.functional` for this backend's plain tensors, or
        None (the default): `unigrad.functional` then raises
        `unigrad.UnsupportedFeatureError`, and ``grad``, `unigrad.jacobian` and
        `unigrad.hessian` remain. A backend that returns one sets
        ``Capabilities.functional``."""
        return None

    def lift(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` as one differentiable step; the identity for frameworks with a tape."""
        return fn

    def detach(self, x: Any) -> Any:
        """``x``'s value as a tensor through which no gradient flows (`unigrad.detach`).

        The default returns a tensor that does not require grad as it is and refuses
        one that does: a backend whose tensors can require grad overrides it.
        """
        if not self.requires_grad(x):
            return x
        msg = message(
            f"the {self.name} backend cannot detach a tensor that requires grad",
            expected="a backend that implements Backend.detach",
            got=f"a {self.name} tensor that requires grad",
            fix="Implement detach(x) in the backend (the framework's own detach).",
        )
        raise UnsupportedFeatureError(msg)

    def refuse_constant_outputs(self, outputs: tuple[Any, ...], retain_graph: bool) -> Any:
        """Raise `NotDifferentiableError` for an output that requires grad in its
        framework but depends on nothing (rule 14). `grad` and `backward` call it on
        every strict-mode call, after the outputs' own checks and before the seeds'
        (``retain_graph``: whether the call keeps the graph). What it returns comes back
        unread as the request's ``dependence`` (a walk's answer the backend would
        otherwise compute again). The default does nothing: a backend whose outputs
        require grad exactly when they depend on something has nothing to find."""
        return None

    def has_history(self, x: Any) -> bool:
        """Whether ``x`` was computed by recorded operations (requires grad and is not
        a leaf). `unigrad.jit` refuses such arguments; the default, False, lets every
        tensor through (a backend that runs steps as written loses nothing)."""
        return False

    def compile(
        self,
        fn: Callable[..., Any],
        static_argnums: tuple[int, ...],
        static_argnames: tuple[str, ...],
    ) -> Callable[[tuple[Any, ...], dict[str, Any]], Any] | None:
        """``run(args, kwargs)`` running `unigrad.jit`'s step ``fn`` compiled, or None:
        the step runs as written (the default)."""
        return None

    def __repr__(self) -> str:
        return f"<unigrad backend {self.name!r}>"
