"""A differential program as data: leaves, namespace ops and ``grad``/``backward`` calls.

A `Program` is a tuple of steps. Each step renders to one line of Python written
against the neutral `unigrad.conformance.Kit` (``k``), its namespace (``xp``)
and `unigrad`; the lines *are* what a backend runs (`_execute` executes them
one by one), so `Program.source` is an exact, pasteable repro.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Backward", "Grad", "Leaf", "Op", "Program", "Seed", "Step", "render_op"]


@dataclass(frozen=True)
class Leaf:
    """``name = k.leaf(data, dtype)`` (watched) or ``k.tensor(data, dtype)`` (a constant)."""

    name: str
    data: Any
    dtype: str
    watched: bool

    def line(self) -> str:
        fn = "leaf" if self.watched else "tensor"
        return f"{self.name} = k.{fn}({self.data!r}, {self.dtype!r})"


@dataclass(frozen=True)
class Op:
    """``name = <op>(args)``; ``params`` are the op's static arguments (see ``render_op``)."""

    name: str
    op: str
    args: tuple[str, ...]
    params: tuple[tuple[str, Any], ...] = ()

    def line(self) -> str:
        return f"{self.name} = {render_op(self.op, self.args, dict(self.params))}"


@dataclass(frozen=True)
class Seed:
    """An explicit seed tensor: ``k.tensor(data, dtype)``."""

    data: Any
    dtype: str

    def code(self) -> str:
        return f"k.tensor({self.data!r}, {self.dtype!r})"


def _names(names: tuple[str, ...], single: bool) -> str:
    if single and len(names) == 1:
        return names[0]
    return f"[{', '.join(names)}]"


def _seeds(seeds: tuple[Seed | None, ...] | None, single: bool) -> str:
    if seeds is None:
        return "None"
    if single and len(seeds) == 1 and seeds[0] is not None:
        return seeds[0].code()
    return "[" + ", ".join("None" if s is None else s.code() for s in seeds) + "]"


@dataclass(frozen=True)
class Grad:
    """``name = unigrad.grad(...)``: ``name[i]`` is the i-th gradient in later steps."""

    name: str
    outputs: tuple[str, ...]
    inputs: tuple[str, ...]
    seeds: tuple[Seed | None, ...] | None = None
    retain_graph: bool | None = None
    create_graph: bool = False
    allow_unused: bool | None = None
    materialize_grads: bool = False
    no_grad_vars: tuple[str, ...] | None = None
    batched: bool = False
    single: bool = False  # pass one output/input/seed bare rather than in a list

    def line(self) -> str:
        parts = [_names(self.outputs, self.single), _names(self.inputs, self.single)]
        if self.seeds is not None:
            parts.append(f"grad_outputs={_seeds(self.seeds, self.single)}")
        if self.retain_graph is not None:
            parts.append(f"retain_graph={self.retain_graph}")
        if self.create_graph:
            parts.append("create_graph=True")
        if self.allow_unused is not None:
            parts.append(f"allow_unused={self.allow_unused}")
        if self.materialize_grads:
            parts.append("materialize_grads=True")
        if self.no_grad_vars is not None:
            parts.append(f"no_grad_vars=[{', '.join(self.no_grad_vars)}]")
        if self.batched:
            parts.append("is_grads_batched=True")
        return f"{self.name} = unigrad.grad({', '.join(parts)})"


@dataclass(frozen=True)
class Backward:
    """``unigrad.backward(...)``; afterwards every watched leaf's ``.grad`` is compared."""

    outputs: tuple[str, ...]
    seeds: tuple[Seed | None, ...] | None = None
    retain_graph: bool | None = None
    create_graph: bool = False
    inputs: tuple[str, ...] | None = None

    def line(self) -> str:
        parts = [_names(self.outputs, False)]
        if self.seeds is not None:
            parts.append(f"grad_tensors={_seeds(self.seeds, False)}")
        if self.retain_graph is not None:
            parts.append(f"retain_graph={self.retain_graph}")
        if self.create_graph:
            parts.append("create_graph=True")
        if self.inputs is not None:
            parts.append(f"inputs=[{', '.join(self.inputs)}]")
        return f"unigrad.backward({', '.join(parts)})"


Step = Leaf | Op | Grad | Backward


@dataclass(frozen=True)
class Program:
    """A random program: steps run in order; calls are compared step by step."""

    steps: tuple[Step, ...]

    def lines(self) -> list[str]:
        return [s.line() for s in self.steps]

    def source(self, backend: str = "torch") -> str:
        """A self-contained script that runs the program on ``backend``."""
        head = [
            "import unigrad",
            "from unigrad.conformance import Kit",
            "from unigrad.conformance._runner import load_backend",
            "",
            f"k = Kit(load_backend({backend!r})[0])",
            "xp = k.xp",
        ]
        return "\n".join(head + self.lines()) + "\n"

    @property
    def calls(self) -> list[Grad | Backward]:
        return [s for s in self.steps if isinstance(s, (Grad, Backward))]


#: Smooth unary ops drawn for real tensors only (their complex kernels are not the
#: point here); paddle has no second-order kernel for them (capability
#: ``no_second_order``). ``log1p_sq`` is ``log1p(a * a)`` (in its domain).
_REAL_SMOOTH = ("sinh", "cosh", "expm1", "atan", "asinh")


def _axis(v: Any) -> str:
    return repr(v)


def render_op(op: str, args: tuple[str, ...], p: dict[str, Any]) -> str:
    """The namespace code of ``op`` (one table: the reference reads the same names)."""
    a = args[0]
    b = args[1] if len(args) > 1 else ""
    if op in (*("exp", "sin", "cos", "tanh", "abs", "real", "imag", "conj"), *_REAL_SMOOTH):
        return f"xp.{op}({a})"
    if op == "log1p_sq":
        return f"xp.log1p({a} * {a})"
    simple = {
        "neg": f"-{a}",
        "add": f"{a} + {b}",
        "sub": f"{a} - {b}",
        "mul": f"{a} * {b}",
        "square": f"{a} * {a}",
        "div": f"{a} / ({b} * {b} + 1.0)",
        "matmul": f"{a} @ {b}",
        "maximum": f"xp.maximum({a}, {b})",
        "minimum": f"xp.minimum({a}, {b})",
        "where_gt": f"xp.where({a} > {b}, {a}, {b})",
        "T": f"{a}.T",
    }
    if op in simple:
        return simple[op]
    if op == "scale":
        return f"{a} * {p['c']!r}"
    if op == "shift":
        return f"{a} + {p['c']!r}"
    if op == "rsub":
        return f"{p['c']!r} - {a}"
    if op == "where":
        return f"xp.where({args[2]}, {a}, {b})"
    if op == "clip":
        return f"xp.clip({a}, {p['lo']!r}, {p['hi']!r})"
    if op in ("sum", "mean"):
        return f"xp.{op}({a}, axis={_axis(p['axis'])}, keepdims={p['keepdims']})"
    if op == "vector_norm":
        return (
            f"xp.linalg.vector_norm({a}, axis={_axis(p['axis'])}, "
            f"keepdims={p['keepdims']}, ord={p['ord']})"
        )
    if op == "reshape":
        return f"xp.reshape({a}, {p['shape']!r})"
    if op == "permute_dims":
        return f"xp.permute_dims({a}, {p['axes']!r})"
    if op == "expand_dims":
        return f"xp.expand_dims({a}, axis={p['axis']})"
    if op == "squeeze":
        return f"xp.squeeze({a}, axis={p['axis']})"
    if op in ("stack", "concat"):
        return f"xp.{op}([{', '.join(args)}], axis={p['axis']})"
    if op == "index":
        idx = p["index"]
        if idx[0] == "int":
            return f"{a}[{idx[1]}]"
        if idx[0] == "slice":
            return f"{a}[{idx[1]}:{idx[2]}]"
        return f"{a}[{b}]"  # a boolean mask tensor
    msg = f"unknown differential op {op!r}"
    raise ValueError(msg)
