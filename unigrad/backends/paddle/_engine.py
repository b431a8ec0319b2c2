"""paddle's engine as unigrad runs it: one lock, the running pass's state, glog, errors.

* paddle's engine is not thread-safe (two threads in backward crash the process): every
  backward pass runs under `ENGINE_LOCK`, re-entrant, so that a hook or a nested call
  that runs ``grad`` on the same thread proceeds;
* its engine logs a glog warning (``W... backward.cc] While running Node (...) raises
  an EnforceNotMet exception``) to stderr before it raises from a node: the errors
  unigrad translates would print it before unigrad's own message, so glog's warnings
  are off while unigrad runs paddle's passes (`_quiet_glog`);
* `_translate` maps what the engine raised to unigrad's classes.
"""

from __future__ import annotations

import ctypes
import os
import re
import threading
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any

import paddle
from paddle.base.dygraph.base import in_to_static_mode as _in_to_static

from ..._errors import (
    GraphFreedError,
    HigherOrderUnavailableError,
    InplaceModifiedError,
    UnsupportedDtypeError,
    UnsupportedFeatureError,
    message,
)
from ...contract._carried import FREED_MESSAGE

_core: Any = paddle.base.core


_SENTINEL = "unigrad: graph consumed"


#: Serialises paddle's backward passes (its engine crashes when two threads run one).
#: Re-entrant: a tensor hook or a nested ``unigrad.grad`` runs on the thread that holds it.
ENGINE_LOCK = threading.RLock()


_NESTED_MESSAGE = message(
    "paddle cannot run grad inside another grad",
    expected="unigrad.grad on paddle tensors outside a running paddle gradient pass",
    got="a call from a tensor hook while paddle.grad runs on this thread (paddle's "
    "engine crashes or hangs there)",
    fix="Compute it after the outer call returns, or use unigrad.backward (without "
    "inputs=) inside the hook, which paddle supports.",
)


_has_grad: Callable[[], bool] = _core._has_grad


_set_has_grad: Callable[[bool], None] = _core._set_has_grad


class _Pass(threading.local):
    """The running pass's state, one per thread, alive while the thread is; each field
    is reset when unigrad's pass on that thread ends.

    Besides the attributes below, two keys are read and written through ``__dict__``
    (a plain dict: an attribute of a ``threading.local`` costs ~0.5 us more) on the
    per-call path: ``"in_grad"``, whether paddle.grad is running on this thread (a hook
    may call back into unigrad), and ``"nested"``, the error a hook or PyLayer of
    unigrad raised inside the pass, which paddle wraps (`_translate` hands it on).
    """

    #: What a consumed node the running pass meets raises on: None (every one), or the
    #: pointers of the nodes the pass reaches other than only below a create_graph
    #: result that carries them (`_records._checked`; empty in fast mode: none raises);
    #: or the function that computes it, called when a consumed node first runs
    #: (`plain_set`): most passes meet none.
    plain: AbstractSet[int] | Callable[[], AbstractSet[int] | None] | None = None
    #: What this thread's post-hooks returned while paddle keeps a reference to it
    #: (see `_handed`).
    returned: list[Any]
    #: The running grad's (outputs, inputs), a ``backward()``'s (outputs, None) (into
    #: every leaf); None outside unigrad's passes.
    call: tuple[tuple[Any, ...], tuple[Any, ...] | None] | None = None
    #: The pointers of the running grad's ``no_grad_vars`` nodes (zeroed by hooks).
    cuts: frozenset[int] = frozenset()

    def __init__(self) -> None:
        self.returned = []


_PASS = _Pass()


def plain_set() -> AbstractSet[int] | None:
    """The running pass's `_Pass.plain`, computed now if it was left for later."""
    plain = _PASS.plain
    if callable(plain):
        plain = _PASS.plain = plain()
    return plain


def _engine() -> Callable[..., list[Any]] | None:
    """paddle's engine entry point behind ``paddle.grad``, where its signature is known.

    ``paddle.grad`` spends ~5 us per call re-checking its arguments with ``assert``
    statements (the front has checked them all) before it calls
    ``core.eager.run_partial_grad``. Its arguments have been (outputs, inputs,
    grad_outputs, retain_graph, create_graph, only_inputs, allow_unused, no_grad_vars,
    dump_backward_graph_path) throughout paddle 3.x; any other version, or a missing
    function, keeps the public ``paddle.grad``.
    """
    fn = getattr(_core.eager, "run_partial_grad", None)
    major = str(paddle.__version__).split(".", 1)[0]
    return fn if callable(fn) and major == "3" else None


_RUN_PARTIAL_GRAD = _engine()


def _glog_minloglevel() -> Any:
    """glog's ``FLAGS_minloglevel`` (a ``ctypes.c_int``) in the library that holds
    paddle's eager engine (``paddle.base.core``, libpaddle.so), or None where it cannot
    be found (another build or platform: the warnings then print, nothing else changes).

    paddle 3.3.1 offers no setting for it after import (``GLOG_minloglevel`` is read
    when glog starts, and ``core.init_gflags`` runs once), and logs from
    ``paddle/fluid/eager/backward.cc`` (line 685) before every error a node raises in
    a pass (no upstream issue about quieting it was found; PaddlePaddle/Paddle#72357
    shows the line printed before an error)."""
    path = getattr(_core, "__file__", None)
    noload = getattr(os, "RTLD_NOLOAD", None)
    if not path or noload is None:
        return None
    try:  # (RTLD_NOLOAD: the handle of the copy Python loaded, never a second one)
        lib = ctypes.CDLL(path, mode=noload)
        return ctypes.c_int.in_dll(lib, "_ZN3fLI17FLAGS_minloglevelE")  # fLI::FLAGS_minloglevel
    except (OSError, ValueError):
        return None


_MINLOGLEVEL = _glog_minloglevel()


_GLOG_ERROR = 2  # glog's severities: INFO 0, WARNING 1, ERROR 2, FATAL 3


class _GlogLevel:
    """How deep unigrad's passes nest (a hook's grad runs inside another) and the level
    the outermost one found; one for the process, changed under ENGINE_LOCK only."""

    __slots__ = ("depth", "saved")

    def __init__(self) -> None:
        self.depth = 0
        self.saved = 0


_GLOG = _GlogLevel()


class _quiet_glog:  # (a context manager, named as one)
    """glog's INFO and WARNING lines off while unigrad runs a paddle pass, whose
    errors it catches and translates; the level is restored when the outermost pass
    ends. Called under ENGINE_LOCK."""

    __slots__ = ()

    def __enter__(self) -> None:
        level = _MINLOGLEVEL
        if level is not None:
            if _GLOG.depth == 0:
                _GLOG.saved = saved = level.value
                if saved < _GLOG_ERROR:
                    level.value = _GLOG_ERROR
            _GLOG.depth += 1

    def __exit__(self, *exc: object) -> None:
        level = _MINLOGLEVEL
        if level is not None:
            _GLOG.depth -= 1
            if _GLOG.depth == 0:
                level.value = _GLOG.saved


def _paddle_grad(
    outputs: list[Any],
    inputs: list[Any],
    seeds: list[Any],
    retain: bool,
    create: bool,
    left_out: list[Any] | None = None,
) -> list[Any]:
    """``paddle.grad(..., allow_unused=True)``, through the engine when it is safe;
    ``left_out``: paddle's ``no_grad_vars`` (`_list_operands.left_out`)."""
    if _RUN_PARTIAL_GRAD is None or _in_to_static():
        result: list[Any] = paddle.grad(
            outputs,
            inputs,
            seeds,
            retain_graph=retain,
            create_graph=create,
            allow_unused=True,
            no_grad_vars=left_out or None,
        )
        return result
    return _RUN_PARTIAL_GRAD(
        outputs, inputs, seeds, retain, create, True, True, left_out or [], None
    )


#: paddle 3.3.1's partial-gradient engine (``paddle.grad``) cannot stop at an output of an
#: op whose outputs share one gradient slot (``paddle.split``, ``chunk``, ``unbind``): it
#: gives the input a one-tensor buffer, and a gradient reaching another output of the
#: op raises ``SystemError: (Fatal) Invalid rank for GradTensorHolder::add() which
#: exceeds size of buffer slot 0`` (natively too: ``x, t = paddle.split(inp, 2, axis=1)``
#: then ``paddle.grad(f(x, t), [x])``; torch's ``test_grad_nonleaf_many_outputs`` in
#: tests/upstream/test_torch_autograd.py). paddle's Python API reaches neither the
#: op's input tensor nor its nodes' gradient buffers, so unigrad cannot compute it
#: another way.
_LIST_OUTPUT_MESSAGE = message(
    "paddle cannot differentiate with respect to an output of split, chunk or unbind "
    "whose sibling outputs also receive gradients",
    expected="inputs that are leaves or outputs of single-output ops (slices, "
    "unigrad.namespace(x).unstack)",
    got="an input that is one of several outputs of one paddle op (paddle.split, "
    "paddle.chunk, paddle.unbind: paddle 3.3.1's paddle.grad gives it a one-tensor buffer)",
    fix="Take the parts as slices (inp[:, 0:1], inp[:, 1:2]) or with "
    "unigrad.namespace(inp).unstack, or make them leaves and concatenate them, or "
    "differentiate with respect to the tensor that was split.",
)


def _no_grad_op(text: str) -> bool:
    """Whether paddle's error text says an op of the pass has no gradient op (a
    ``create_graph`` pass through a kernel with no double-grad kernel)."""
    return "(Unavailable)" in text and "grad op" in text


def _translate(err: BaseException) -> BaseException:
    """The contract's error for what paddle's engine raised: the one a hook or PyLayer
    of unigrad raised inside the pass (kept in ``_PASS``, as paddle wraps it), else
    the class its message names, else ``err`` itself."""
    state = _PASS.__dict__
    nested, state["nested"] = state.get("nested"), None
    if nested is not None:
        return nested  # type: ignore[no-any-return]
    text = str(err)
    if _SENTINEL in text or "TensorWrappers" in text or "backward twice" in text:
        return GraphFreedError(FREED_MESSAGE)
    if _no_grad_op(text):
        op = re.search(r"The Op (\w+) doesn't have any grad op", text)
        name = op.group(1) if op else "an op"
        msg = message(
            f"paddle has no kernel for this derivative ({name})",
            expected="an op with a gradient kernel of the requested order",
            got=f"{name}, which paddle cannot differentiate once more",
            fix="Write the function with unigrad.namespace(x)'s functions, which "
            "differentiate to third order on paddle where a formulation exists (paddle's "
            "own functions, paddle.pow and paddle.divide, do not: use xp.pow and "
            "xp.divide, or the tensor operators); for a "
            "Hessian or an HVP through an op without one (erf, linalg decompositions, "
            "sort, fft), compute that part on another backend or with finite differences "
            "of the gradient; or pass create_graph=False where no further derivative is "
            "taken.",
        )
        return HigherOrderUnavailableError(msg)
    if _missing_base_grad(text):
        msg = message(
            "paddle's second derivative of x ** p needs the gradient with respect to x",
            expected="a pass that also reaches the base of the power (or no pow in it)",
            got="a pass through the gradient of x ** p that does not (PowDoubleGradNode)",
            fix="Write the power as x * x (or unigrad.namespace(x).pow(x, 2)), or keep the "
            "create_graph call's inputs alive for the later pass.",
        )
        return HigherOrderUnavailableError(msg)
    if "inplace" in text and ("PermissionDenied" in text or "version" in text):
        msg = message(
            "a tensor saved for backward was modified in place",
            expected="saved tensors unchanged between the forward and the gradient",
            got="an in-place change after the forward pass",
            fix="Use the out-of-place op (x = x + 1), or clone before modifying.",
        )
        return InplaceModifiedError(f"{msg}\npaddle said: {text.splitlines()[0]}")
    if "Invalid rank for GradTensorHolder::add()" in text:
        return UnsupportedFeatureError(_LIST_OUTPUT_MESSAGE)
    if ("(NotFound)" in text and "is not registered" in text) or (
        "(Unimplemented)" in text and "data type" in text
    ):
        msg = message(
            "paddle has no gradient kernel for this dtype here",
            expected="a dtype paddle differentiates on this device (float32/float64)",
            got=text.splitlines()[0][:200],
            fix="Compute in float32 or float64 on CPU.",
        )
        return UnsupportedDtypeError(msg)
    return err


#: What paddle 3.3.1's ``PowDoubleGradNode`` (``DX``) and ``PowTripleGradNode`` (``D_X``,
#: the second derivative of ``x ** p`` differentiated again:
#: test_a_third_derivative_of_a_scalar_power_toward_another_input in test_backend_fixes.py)
#: raise when a pass through a gradient of ``x ** p`` (a Python scalar
#: ``p``) does not differentiate with respect to ``x``: their kernels require the ``x``
#: gradient output (PaddlePaddle/Paddle#57371 made them skip a missing ``grad_out``
#: gradient only).
_MISSING_BASE_GRAD = re.compile(r"DenseTensor D_?X can not be nullptr")


def _missing_base_grad(text: str) -> bool:
    """Whether paddle's error ``text`` is `_MISSING_BASE_GRAD`'s."""
    return _MISSING_BASE_GRAD.search(text) is not None
