"""What a conformance case is: data, with one computation written against the neutral kit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .._errors import GraphFreedError

if TYPE_CHECKING:
    from ._kit import Kit

__all__ = ["UNSET", "Case"]


class _Unset:
    """The marker for "no expected value" (``None`` is a valid expectation: an unused input)."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"


#: No expected value given (the case expects an error instead).
UNSET: Any = _Unset()


@dataclass(frozen=True)
class Case:
    """One documented example, replayed on a backend.

    Attributes:
        id: A readable, unique id (``"paddle.grad/grad_outputs=[3,4]"``); the pytest id.
        source: Where the example comes from: a documentation URL, a seed document, or
            the contract rule (``"contract §3.1.4"``) it checks.
        compute: The computation, written once against the neutral `Kit`; it
            returns what is compared with ``expected``.
        expected: The documented result. Numbers (nested lists for arrays, Python
            complex for complex values) are compared at ``rtol``/``atol`` with an exact
            shape; ``None`` means "must be None"; a tuple is compared entry by entry;
            ``str`` and ``bool`` must be equal. Leave it unset when ``raises`` is given.
        raises: The error class ``compute`` must raise (an instance of it passes).
        warns: A warning class ``compute`` must emit.
        rtol: Relative tolerance for numbers.
        atol: Absolute tolerance for numbers.
        needs: A `unigrad.Capabilities` flag; the case is skipped where it is off.
        note: Why the case is written the way it is, when that is not obvious.
        strict_only: The case checks a misuse refusal that fast mode
            (`unigrad.checks`) does not make (docs/semantics.md, "Fast mode"): a run in
            fast mode skips it. Default: whether it expects `GraphFreedError` (fast mode
            keeps no consumed-graph bookkeeping).

    Examples:
        >>> def square(k):
        ...     x = k.leaf(3.0)
        ...     return k.grad(x * x, x)
        >>> case = Case("square", "https://www.tensorflow.org/api_docs/python/tf/GradientTape",
        ...             square, expected=(6.0,))
        >>> str(case)
        'square'
    """

    id: str
    source: str
    compute: Callable[[Kit], Any] = field(repr=False)
    expected: Any = UNSET
    raises: type[BaseException] | None = None
    warns: type[Warning] | None = None
    rtol: float = 1e-5
    atol: float = 1e-6
    needs: str | None = None
    note: str = ""
    strict_only: bool | None = None

    def __post_init__(self) -> None:
        if self.strict_only is None:
            object.__setattr__(self, "strict_only", self.raises is GraphFreedError)
        if (self.expected is UNSET) == (self.raises is None):
            msg = (
                f"case {self.id!r}: expected exactly one of `expected` and `raises`, got "
                f"{'both' if self.raises is not None else 'neither'}"
            )
            raise ValueError(msg)
        if not self.id or any(c.isspace() for c in self.id):
            msg = f"case id {self.id!r}: expected a non-empty id without whitespace"
            raise ValueError(msg)

    def __str__(self) -> str:
        return self.id
