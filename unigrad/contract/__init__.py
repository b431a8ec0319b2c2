"""The contract's structural rules, each written once for every backend.

The rules of docs/semantics.md that are statements about a graph rather than about
arguments live here; the front (`unigrad._grad`) checks the arguments and calls
`refuse_structural` once per call, and each backend answers the rules' questions about
its own graph through a `GraphView` (``Backend.graph``). Nothing here imports a
framework, a backend or the tape.

* `_refusals`: `refuse_structural`, the per-call entry point (rows 16g and 17c).
* `_ambiguous`: which derivatives through a ``create_graph`` gradient have no single
  answer (row 16g), and the `Record` a ``create_graph`` call leaves on its results
  (`record_of`, `attach`).
* `_slices`: full-range slices (row 17c): `full_range` (which indexes make paddle's
  alias) and the refusal.
* `_carried`: rule 6's clock and check: what a ``create_graph`` result carries, and when
  a later pass through it raises `GraphFreedError` (row 6b).
* `_graph`: which nodes a backward pass runs, on any graph (the consumed-graph
  bookkeeping of rule 6 reads it).
* `_view`: `GraphView`, the questions the rules ask of a graph.
* `_checks`: `checks`, strict or fast mode (which of the rules a call runs).
"""

from __future__ import annotations

from ._ambiguous import Record, attach, record_of
from ._checks import checks
from ._refusals import refuse_structural
from ._slices import full_range
from ._view import GraphView

__all__ = [
    "GraphView",
    "Record",
    "attach",
    "checks",
    "full_range",
    "record_of",
    "refuse_structural",
]
