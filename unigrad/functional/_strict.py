"""torch's strict-mode errors, shared by the paddle, jax and numpy modules."""

from __future__ import annotations

from collections.abc import Sequence

from .._errors import UnusedInputError

__all__ = ["check_deps", "check_hessian_deps", "independent", "output_constant"]

_FIX = " Pass strict=False to get zeros."


def output_constant(k: int) -> UnusedInputError:
    return UnusedInputError(
        f"Output {k} of the user-provided function does not require gradients. The "
        "outputs must be computed in a differentiable manner from the input when running "
        "in strict mode." + _FIX
    )


def independent(i: int) -> UnusedInputError:
    return UnusedInputError(
        f"The output of the user-provided function is independent of input {i}. This is "
        "not allowed in strict mode." + _FIX
    )


def jacobian_independent(i: int) -> UnusedInputError:
    return UnusedInputError(
        "While computing the hessian, found that the jacobian of the user-provided "
        f"function with respect to input {i} is independent of the input. This is not "
        "allowed in strict mode. You should ensure that your function is twice "
        "differentiable and that the jacobian depends on the inputs (this would be "
        "violated by a linear function for example)." + _FIX
    )


def check_deps(deps: Sequence[set[int]], n_inputs: int) -> None:
    """``deps[k]``: the inputs output ``k`` depends on (on the recorded graph)."""
    for k, d in enumerate(deps):
        if not d:
            raise output_constant(k)
    reached = set().union(*deps) if deps else set()
    for i in range(n_inputs):
        if i not in reached:
            raise independent(i)


def check_hessian_deps(out_deps: set[int], grad_deps: Sequence[set[int]], n_inputs: int) -> None:
    """The scalar output depends on ``out_deps``; gradient ``i`` on ``grad_deps[i]``."""
    if not out_deps:
        raise output_constant(0)
    for i in range(n_inputs):
        if i not in out_deps:
            raise independent(i)
    for i, d in enumerate(grad_deps):
        if not d:
            raise jacobian_independent(i)
