"""Full-range slices as inputs or cuts: one refusal on every backend.

paddle's ``Tensor.__getitem__`` returns, for an index that selects everything
(``x[:]``, ``x[0:n]``, ``x[...]``, ``x[:, :]``, ``x[-n:]``, an over-long stop,
``x[()]``), a tensor that shares ``x``'s autograd identity: a gradient with respect to
it is ``x``'s, a cut at it cuts ``x``. torch, the tapes and the reference give the
slice a gradient of its own. So that a program has one outcome everywhere, such a
slice that requires grad, as an input or a ``no_grad_vars`` entry, is refused on
every backend (one of a constant has no gradient to get wrong), each
reading it in its own terms (paddle: the alias its ``__getitem__`` returns; torch: a
full-range ``SliceBackward0`` or an ``AliasBackward0``; the tape: the index it
recorded). `full_range` is paddle's rule, measured on paddle 3.3: only slices of step
1 (or None) that cover their dimension after clamping, and ``...``; an int, ``None``,
an array or a boolean index makes a copy.
"""

from __future__ import annotations

from typing import Any

from .._errors import UnsupportedFeatureError, message

__all__ = ["full_range", "refuse_full_slice"]


def full_range(key: Any, shape: tuple[int, ...]) -> bool:
    """Whether ``x[key]`` selects all of an ``x`` of ``shape`` as paddle's alias does."""
    if type(key) is not tuple:
        if key is Ellipsis:
            return True
        if type(key) is not slice:
            return False
        key = (key,)
    dims = iter(shape)
    ellipsis = False
    for k in key:
        if k is Ellipsis:
            if ellipsis:
                return False
            ellipsis = True
            continue
        if type(k) is not slice:
            return False
        n = next(dims, None)
        if n is None:
            return False
        try:
            if k.step not in (None, 1) or k.indices(n)[:2] != (0, n):
                return False
        except TypeError:  # bounds that are no integers
            return False
    # slices for fewer dimensions than x has leave the rest whole
    return True


def refuse_full_slice(tensors: Any, what: str, is_full: Any) -> None:
    """Raise for the first of ``tensors`` (the inputs, or the no_grad_vars) that
    ``is_full`` says is a full-range slice of another tensor."""
    for i, x in enumerate(tensors):
        if x is not None and is_full(x):
            msg = message(
                f"{what}[{i}] is a full-range slice of another tensor",
                expected=f"{what} that are not full-range slices (x[0:n], x[:], x[...])",
                got="a full-range slice, which paddle's autograd identifies with x (it "
                "would give x's gradient, not the slice's): refused on every backend, so "
                "that a program has one outcome everywhere",
                fix="Use x itself, or make the slice a tensor of its own: x[0:n] * 1 "
                "(or x[0:n].clone() on torch and paddle).",
            )
            raise UnsupportedFeatureError(msg)
