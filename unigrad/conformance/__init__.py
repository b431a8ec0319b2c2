"""The conformance suite: documented gradient examples replayed on every backend.

A case (`Case`) is data: an id, the source it replays, a computation written
once against the neutral `Kit`, and the expected numbers or error class. One
runner (`run`) serves the CLI (``unigrad-conformance``, ``python -m
unigrad.conformance``) and the pytest plugin (``pytest --unigrad-backend NAME``).

Importing this package imports no framework (and not pytest or NumPy).

Examples:
    >>> import torch  # the backend the example runs on
    >>> from unigrad.conformance import CASES, run, select
    >>> report = run(select(CASES, "tf.GradientTape/x*x"), ["torch"])
    >>> report.result("tf.GradientTape/x*x", "torch").status.value
    'pass'
"""

from __future__ import annotations

from ._case import UNSET, Case
from ._kit import Kit
from ._report import FORMATS, render
from ._runner import Report, Result, Status, XfailEntry, load_xfails, run, run_case, select
from .cases import CASES

__all__ = [
    "CASES",
    "FORMATS",
    "UNSET",
    "Case",
    "Kit",
    "Report",
    "Result",
    "Status",
    "XfailEntry",
    "load_xfails",
    "render",
    "run",
    "run_case",
    "select",
]
