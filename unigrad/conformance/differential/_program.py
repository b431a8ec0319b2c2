"""A differential program as data: leaves, namespace ops and ``grad``/``backward`` calls.

A `Program` is a tuple of steps. Each step renders to one line of Python written
against the neutral `unigrad.conformance.Kit` (``k``), its namespace (``xp``)
and `unigrad`; the lines *are* what a backend runs (`_execute` executes them
one by one), so `Program.source` is an exact, pasteable repro.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "Backward",
    "Grad",
    "Leaf",
    "Op",
    "Program",
    "Seed",
    "Step",
    "render_op",
    "shape_field",
]


@dataclass(frozen=True)
class Leaf:
    """``name = k.leaf(data, dtype)`` (watched) or ``k.constant(data, dtype)`` (a
    constant: `Kit.constant`); a zero-size one ``k.leaf(data, dtype, shape=shape)``
    (nested lists lose the trailing dimensions of an empty array: ``[]`` is (0,)
    whatever the shape the generator drew, (0, 3) say)."""

    name: str
    data: Any
    dtype: str
    watched: bool
    #: The shape of a zero-size leaf; None for any other (its data gives it).
    shape: tuple[int, ...] | None = None

    def line(self) -> str:
        fn = "leaf" if self.watched else "constant"
        shape = "" if self.shape is None else f", shape={self.shape!r}"
        return f"{self.name} = k.{fn}({self.data!r}, {self.dtype!r}{shape})"

    def array(self) -> np.ndarray:
        """The leaf's value as a NumPy array of its shape (the dtype left to NumPy but
        for a bool leaf): what the reference starts from."""
        a: np.ndarray = np.asarray(self.data, dtype=bool if self.dtype == "bool" else None)
        return a if self.shape is None else a.reshape(self.shape)

    def __repr__(self) -> str:
        shape = "" if self.shape is None else f", shape={self.shape!r}"
        return (
            f"Leaf(name={self.name!r}, data={self.data!r}, dtype={self.dtype!r}, "
            f"watched={self.watched!r}{shape})"
        )


def shape_field(shape: tuple[int, ...]) -> tuple[int, ...] | None:
    """What a `Leaf` or `Seed` of ``shape`` stores as its ``shape``: the shape of a
    zero-size value, None for any other."""
    return tuple(shape) if 0 in shape else None


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
    """An explicit seed tensor: ``k.tensor(data, dtype)``; a zero-size one
    ``k.tensor(data, dtype, shape=shape)`` (nested lists lose the trailing dimensions of
    an empty array: ``[[], []]`` is (2, 0) whatever the seed's shape)."""

    data: Any
    dtype: str
    #: The shape of a zero-size seed; None for any other (its data gives it).
    shape: tuple[int, ...] | None = None

    def code(self) -> str:
        if self.shape is None:
            return f"k.tensor({self.data!r}, {self.dtype!r})"
        return f"k.tensor({self.data!r}, {self.dtype!r}, shape={self.shape!r})"

    def __repr__(self) -> str:
        shape = "" if self.shape is None else f", shape={self.shape!r}"
        return f"Seed(data={self.data!r}, dtype={self.dtype!r}{shape})"


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


def render_op(op: str, args: tuple[str, ...], p: dict[str, Any]) -> str:
    """The namespace code of ``op``: `_ops.OPS`'s renderer (the one op table)."""
    from ._ops import OPS

    spec = OPS.get(op)
    if spec is None:
        msg = f"unknown differential op {op!r}"
        raise ValueError(msg)
    return spec.render(args, p)
