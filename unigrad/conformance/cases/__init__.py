"""The conformance cases, as data: documented examples, seed documents, contract rules.

`CASES` is every case in a fixed order (documentation first, then the functional
API's documented examples, then the seed documents, then the contract); ids are unique.
"""

from __future__ import annotations

from .._case import Case
from . import contract, docs, functional, seeds

__all__ = ["CASES"]


def _collect() -> tuple[Case, ...]:
    cases = (*docs.CASES, *functional.CASES, *seeds.CASES, *contract.CASES)
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            msg = f"two conformance cases share the id {case.id!r}: expected unique ids"
            raise ValueError(msg)
        seen.add(case.id)
    return cases


#: Every case, in report order.
CASES: tuple[Case, ...] = _collect()
