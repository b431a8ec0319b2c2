"""Differential testing: random programs on every backend against a float64 reference.

A program (`Program`) is data: leaves, namespace ops and ``grad``/``backward``
calls with random flags, drawn from one op table (`_ops.TABLE`: every differentiable
function of the namespace, in every mode) by `generate` (a deterministic cycle over
functions and modes) or by Hypothesis (`programs`, which shrinks). It runs on each
backend through the public API only (its own lines: `Program.source` is the
repro) and on a NumPy float64 reference with closed-form derivatives that implements
the contract and imports nothing from the code it checks (`_reference`). Outcomes are
compared call by call: the error class, the result structure (tuple length, None
entries), dtypes, shapes, requires-grad-ness and values at stated tolerances
(`TOLERANCE`).

``python -m unigrad.conformance --differential N [--seed S]`` certifies any backend,
third-party ones included, on N programs. Importing this package imports NumPy, not a
framework; Hypothesis is imported when programs are generated.
"""

from __future__ import annotations

from ._certify import (
    Divergence,
    Summary,
    certify,
    check_program,
    generate,
)
from ._execute import (
    TOLERANCE,
    CallOutcome,
    Entry,
    compare,
    on_backend,
    on_backend_compiled,
    on_reference,
)
from ._program import Backward, Grad, Leaf, Op, Program, Seed
from ._reference import Degenerate

__all__ = [
    "TOLERANCE",
    "Backward",
    "CallOutcome",
    "Degenerate",
    "Divergence",
    "Entry",
    "Grad",
    "Leaf",
    "Op",
    "Program",
    "Seed",
    "Summary",
    "certify",
    "check_program",
    "compare",
    "generate",
    "on_backend",
    "on_backend_compiled",
    "on_reference",
    "programs",
]


def __getattr__(name: str) -> object:
    if name == "programs":  # imports Hypothesis
        from ._generate import programs

        return programs
    raise AttributeError(name)
