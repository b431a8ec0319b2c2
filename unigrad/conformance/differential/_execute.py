"""Run a program on a backend (its lines, through the public API) or on the reference,
and compare the two outcomes."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

import unigrad

from .._kit import Kit
from . import _reference as R
from ._program import Backward, Grad, Leaf, Op, Program, Seed

__all__ = [
    "CallOutcome",
    "Entry",
    "compare",
    "compare_modes",
    "on_backend",
    "on_backend_compiled",
    "on_reference",
]


@dataclass(frozen=True)
class Entry:
    """One result entry: None (``value is None``), or a host copy and its metadata."""

    value: Any
    dtype: str = ""
    shape: tuple[int, ...] = ()
    requires_grad: bool = False

    def describe(self) -> str:
        if self.value is None:
            return "None"
        rg = ", requires_grad" if self.requires_grad else ""
        text = np.array2string(np.asarray(self.value), precision=6, threshold=12)
        return f"{self.dtype}{list(self.shape)}{rg} {text}"


@dataclass(frozen=True)
class CallOutcome:
    """What step ``step`` (a call) gave: an error class name, or its entries."""

    step: int
    error: str | None
    entries: tuple[Entry, ...] = ()


# ---- backends --------------------------------------------------------------------------
_CODE: dict[str, Any] = {}


def _compile(line: str) -> Any:
    code = _CODE.get(line)
    if code is None:
        if len(_CODE) > 4096:
            _CODE.clear()
        code = _CODE[line] = compile(line, "<differential program>", "exec")
    return code


def _error_name(err: BaseException) -> str:
    if isinstance(err, unigrad.UnigradError):
        return type(err).__name__
    first = str(err).strip().splitlines()[0][:160] if str(err).strip() else ""
    return f"raw {type(err).__module__}.{type(err).__name__}: {first}"


def _meta(kit: Kit, x: Any) -> tuple[str, tuple[int, ...], bool]:
    """An entry's metadata: dtype name, shape, requires-grad-ness (no value read)."""
    be = kit.backend
    return be.dtype_name(x), tuple(be.shape(x)), bool(be.requires_grad(x))


def _entry(kit: Kit, x: Any) -> Entry:
    if x is None:
        return Entry(None)
    return Entry(np.asarray(kit.np(x)), *_meta(kit, x))


def on_backend(program: Program, kit: Kit) -> list[CallOutcome]:
    """Run ``program``'s lines with ``kit`` (the public API only); one outcome per call,
    stopping at the first error. Warnings are not compared (torch warns about
    ``backward(create_graph=True)`` reference cycles)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _on_backend(program, kit)


def _on_backend(program: Program, kit: Kit) -> list[CallOutcome]:
    env: dict[str, Any] = {"k": kit, "xp": kit.xp, "unigrad": unigrad}
    watched: list[str] = []
    out: list[CallOutcome] = []
    for i, step in enumerate(program.steps):
        try:
            exec(_compile(step.line()), env)
        except Exception as err:  # a raw framework error, or the contract's
            out.append(
                CallOutcome(
                    i,
                    _error_name(err)
                    if isinstance(step, (Grad, Backward))
                    else f"in an op: {_error_name(err)}",
                )
            )
            return out
        if isinstance(step, Leaf) and step.watched:
            watched.append(step.name)
        elif isinstance(step, Grad):
            try:
                entries = tuple(_entry(kit, g) for g in env[step.name])
            except Exception as err:
                out.append(CallOutcome(i, f"reading the result: {_error_name(err)}"))
                return out
            out.append(CallOutcome(i, None, entries))
        elif isinstance(step, Backward):
            out.append(
                CallOutcome(i, None, tuple(_entry(kit, kit.grad_of(env[n])) for n in watched))
            )
    return out


def on_backend_compiled(program: Program, kit: Kit) -> list[CallOutcome] | None:
    """Run ``program`` as one `unigrad.jit` step (its leaves are the arguments), the way
    `on_backend` runs it line by line; None where it cannot be one step (a ``backward``
    call, refused inside a step). On jax the whole program is traced and compiled."""
    if any(isinstance(s, Backward) for s in program.steps):
        return None
    # float and complex leaves are the step's arguments; masks and index arrays are
    # closed over (concrete), as a compiled step needs them to know its shapes
    made = {
        s.name: (kit.tensor if s.watched else kit.constant)(s.data, s.dtype, s.shape)
        for s in program.steps
        if isinstance(s, Leaf)
    }
    traced = [s.name for s in program.steps if isinstance(s, Leaf) and s.dtype[0] in "fc"]
    args = [made[n] for n in traced]

    def step(*values: Any) -> list[Any]:
        env: dict[str, Any] = {"k": kit, "xp": kit.xp, "unigrad": unigrad}
        given = dict(zip(traced, values, strict=True))
        out: list[Any] = []
        for i, s in enumerate(program.steps):
            try:
                if isinstance(s, Leaf):
                    v = given.get(s.name, made[s.name])
                    env[s.name] = unigrad.watch(v) if s.watched else v
                else:
                    exec(_compile(s.line()), env)
            except Exception as err:
                where = "" if isinstance(s, Grad) else "in an op: "
                out.append((i, where + _error_name(err), []))
                return out
            if isinstance(s, Grad):
                try:
                    entries = [_traced_entry(kit, g) for g in env[s.name]]
                except Exception as err:
                    out.append((i, f"reading the result: {_error_name(err)}", []))
                    return out
                out.append((i, None, entries))
        return out

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            got = unigrad.jit(step)(*args)
        except Exception as err:  # the compiled step itself failed: no call to name
            return [CallOutcome(0, f"unigrad.jit: {_error_name(err)}")]
    return [
        CallOutcome(
            i,
            error,
            tuple(
                Entry(None) if e is None else Entry(np.asarray(kit.np(e[0])), *e[1])
                for e in entries
            ),
        )
        for i, error, entries in got
    ]


def _traced_entry(kit: Kit, x: Any) -> Any:
    """An entry inside a compiled step: the value without history, and its metadata
    (static values of the trace)."""
    if x is None:
        return None
    return (x.detach() if hasattr(x, "detach") else x, _meta(kit, x))


# ---- the reference ---------------------------------------------------------------------
def _lookup(env: dict[str, Any], name: str) -> Any:
    if "[" in name:
        base, _, rest = name.partition("[")
        v = env[base][int(rest.rstrip("]"))]
        if v is None:
            msg = "the program uses a None gradient"
            raise R.Degenerate(msg)
        return v
    return env[name]


def _seed(s: Seed | None) -> R.RV | None:
    if s is None:
        return None
    data = np.asarray(s.data)
    return R.const(data if s.shape is None else data.reshape(s.shape), s.dtype)


def _ref_entry(g: R.RV | None) -> Entry:
    if g is None:
        return Entry(None)
    return Entry(g.v, g.dtype, g.shape, g.rg)


def on_reference(program: Program) -> list[CallOutcome]:
    """The contract's outcome of ``program``; raises `_reference.Degenerate`."""
    env: dict[str, Any] = {}
    leaves: list[R.RV] = []
    out: list[CallOutcome] = []
    for i, step in enumerate(program.steps):
        if isinstance(step, Leaf):
            env[step.name] = r = R.leaf(step.array(), step.dtype, step.watched)
            leaves.append(r)
        elif isinstance(step, Op):
            env[step.name] = R.op(step.op, [_lookup(env, a) for a in step.args], dict(step.params))
        elif isinstance(step, Grad):
            seeds = (
                [None] * len(step.outputs) if step.seeds is None else [_seed(s) for s in step.seeds]
            )
            try:
                got = R.grad(
                    [_lookup(env, n) for n in step.outputs],
                    [_lookup(env, n) for n in step.inputs],
                    seeds,
                    retain_graph=step.retain_graph,
                    create_graph=step.create_graph,
                    allow_unused=step.allow_unused,
                    materialize_grads=step.materialize_grads,
                    no_grad_vars=None
                    if step.no_grad_vars is None
                    else [_lookup(env, n) for n in step.no_grad_vars],
                    batched=step.batched,
                )
            except R.ContractError as err:
                out.append(CallOutcome(i, err.name))
                return out
            env[step.name] = got
            out.append(CallOutcome(i, None, tuple(_ref_entry(g) for g in got)))
        else:
            seeds = (
                [None] * len(step.outputs) if step.seeds is None else [_seed(s) for s in step.seeds]
            )
            try:
                R.backward(
                    [_lookup(env, n) for n in step.outputs],
                    seeds,
                    leaves,
                    retain_graph=step.retain_graph,
                    create_graph=step.create_graph,
                    inputs=None if step.inputs is None else [_lookup(env, n) for n in step.inputs],
                )
            except R.ContractError as err:
                out.append(CallOutcome(i, err.name))
                return out
            out.append(CallOutcome(i, None, tuple(_ref_entry(x.grad) for x in leaves if x.watched)))
    return out


# ---- comparing -------------------------------------------------------------------------
#: Relative tolerance by precision; the absolute one is the same times the largest
#: magnitude of the reference result (and at least that times 1).
TOLERANCE = {"32": 5e-4, "64": 1e-9}


def _tol(dtype: str) -> float:
    return TOLERANCE["32"] if dtype in ("float32", "complex64") else TOLERANCE["64"]


def _narrow(program: Program) -> bool:
    """Whether any value of ``program`` is held in single precision (a float32 or
    complex64 leaf, seed or cast): its float64 results carry float32 rounding too."""
    for s in program.steps:
        if isinstance(s, Leaf) and s.dtype in ("float32", "complex64"):
            return True
        if isinstance(s, Op) and dict(s.params).get("dtype") in ("float32", "complex64"):
            return True
    return False


def _entry_diff(got: Entry, want: Entry, narrow: bool = False) -> str | None:
    if (got.value is None) != (want.value is None):
        return f"expected {want.describe()}, got {got.describe()}"
    if want.value is None:
        return None
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"expected {want.dtype}{list(want.shape)}, got {got.dtype}{list(got.shape)}"
    if got.requires_grad != want.requires_grad:
        return f"expected requires_grad={want.requires_grad}, got {got.requires_grad}"
    w = np.asarray(want.value)
    g = np.asarray(got.value)
    tol = TOLERANCE["32"] if narrow else _tol(want.dtype)
    scale = max(1.0, float(np.max(np.abs(w)))) if w.size else 1.0
    if g.shape != w.shape or not np.allclose(g, w, rtol=tol, atol=tol * scale):
        return f"values differ (rtol={tol}): expected {want.describe()}, got {got.describe()}"
    return None


def expected_on(want: list[CallOutcome], program: Program, kit: Kit) -> list[CallOutcome]:
    """The reference's outcome as it applies to ``kit``'s backend (its capabilities)."""
    out: list[CallOutcome] = []
    for w in want:
        step = program.steps[w.step]
        if (
            isinstance(step, Backward)
            and step.create_graph
            and not kit.caps.backward_create_graph
            and w.error in (None, "GraphFreedError")
        ):
            out.append(CallOutcome(w.step, "UnsupportedFeatureError"))
            return out
        out.append(w)
    return out


def _higher_order(program: Program, upto: int) -> bool:
    """Whether a call up to step ``upto`` took ``create_graph=True`` (so a backend may
    lack a kernel of the order the program needs)."""
    return any(
        isinstance(s, (Grad, Backward)) and s.create_graph for s in program.steps[: upto + 1]
    )


def compare(got: list[CallOutcome], want: list[CallOutcome], program: Program) -> str | None:
    """The first difference between two outcomes, described, or None.

    The requires-grad flag of a ``.grad`` is compared only after
    ``backward(create_graph=True)``: without it ``.grad`` is a value (paddle's leaves
    always report ``stop_gradient=False`` on theirs). A backend that raises
    `unigrad.HigherOrderUnavailableError` once the program took
    ``create_graph=True`` agrees (a missing kernel, named, is the contract's answer);
    the rest of that program is not compared. A program that holds any value in single
    precision is compared at single precision's tolerance throughout.
    """
    narrow = _narrow(program)
    for w, g in zip(want, got, strict=False):
        line = program.steps[w.step].line()
        if g.step != w.step:
            return f"`{program.steps[g.step].line()}` raised {g.error}; the reference ran on"
        if (
            g.error == "HigherOrderUnavailableError"
            and w.error != g.error
            and _higher_order(program, w.step)
        ):
            return None  # a missing higher-order kernel, named: the contract's rule 7
        if w.error != g.error:
            want_s = w.error or "a result"
            got_s = g.error or "a result"
            return f"`{line}`: expected {want_s}, got {got_s}"
        if len(w.entries) != len(g.entries):
            return f"`{line}`: expected {len(w.entries)} entries, got {len(g.entries)}"
        step = program.steps[w.step]
        for j, (ge, we) in enumerate(zip(g.entries, w.entries, strict=True)):
            if isinstance(step, Backward) and not step.create_graph:
                ge = replace(ge, requires_grad=we.requires_grad)
            diff = _entry_diff(ge, we, narrow)
            if diff is not None:
                what = (
                    "result" if isinstance(program.steps[w.step], Grad) else ".grad of watched leaf"
                )
                return f"`{line}`: {what} {j}: {diff}"
    if len(got) != len(want):
        return f"expected {len(want)} call outcomes, got {len(got)}"
    return None


def compare_modes(
    fast: list[CallOutcome], strict: list[CallOutcome], program: Program, ulps: int = 0
) -> str | None:
    """The first way a run in fast mode (`unigrad.checks`) breaks fast mode's guarantee
    against the same backend's run in strict mode, described, or None.

    The guarantee (docs/semantics.md, "Fast mode"): wherever strict mode returns, fast
    mode returns the same values (bitwise), dtypes and shapes; where strict mode returns
    None (an unused input), fast mode may return None or zeros; where strict mode raises,
    the rest of the program is not compared (fast mode may answer a misuse). The
    requires-grad flags are not compared (fast mode does not detach a create_graph
    result that depends on nothing). ``ulps``: how many units in the last place a value
    may move (0: bitwise). The two runs must start from the same cache state: on the jax
    tape a program's first run and its later ones may round the last bits otherwise, in
    either mode (`_certify.WARM_JUDGED`).
    """
    for s in strict:
        line = program.steps[s.step].line()
        if s.error is not None:
            return None  # a misuse strict mode refuses: fast mode may answer
        f = next((o for o in fast if o.step == s.step), None)
        if f is None:
            last = fast[-1] if fast else None
            raised = f" ({last.error} at `{program.steps[last.step].line()}`)" if last else ""
            return f"`{line}`: strict mode returned, fast mode stopped before{raised}"
        if f.error is not None:
            return f"`{line}`: strict mode returned, fast mode raised {f.error}"
        if len(f.entries) != len(s.entries):
            return (
                f"`{line}`: strict mode gave {len(s.entries)} entries, fast mode {len(f.entries)}"
            )
        for j, (fe, se) in enumerate(zip(f.entries, s.entries, strict=True)):
            if se.value is None:
                if fe.value is None or not np.any(np.asarray(fe.value)):
                    continue  # an unused input: None or zeros
                return f"`{line}`: entry {j}: strict mode None, fast mode {fe.describe()}"
            if fe.value is None:
                return f"`{line}`: entry {j}: strict mode {se.describe()}, fast mode None"
            if (fe.dtype, fe.shape) != (se.dtype, se.shape) or not _same(
                np.asarray(fe.value), np.asarray(se.value), ulps
            ):
                return (
                    f"`{line}`: entry {j}: strict mode {se.describe()}, fast mode {fe.describe()}"
                )
    return None


def _same(a: np.ndarray, b: np.ndarray, ulps: int) -> bool:
    """Whether ``a`` equals ``b`` (NaNs alike), to ``ulps`` units in the last place of
    the larger magnitude."""
    if np.array_equal(a, b, equal_nan=True):
        return True
    if not ulps or a.dtype.kind not in "fc":
        return False
    eps = np.finfo(a.dtype).eps
    scale = np.maximum(np.abs(a), np.abs(b))
    return bool(np.all((np.abs(a - b) <= ulps * eps * scale) | (np.isnan(a) & np.isnan(b))))
