"""One or more cases per rule of unigrad's contract (docs/semantics.md), errors included.

The source of each case is the rule it checks: ``contract §3.1.4`` is rule 4 of the
section "Arguments (§3.1)" of docs/semantics.md. Expected numbers are the ones torch and
paddle agree on where both answer (measured in the project's research notes,
``shared/research/semantics-probe.md``).
"""

from __future__ import annotations

from typing import Any

from ..._errors import (
    BackendError,
    GradArgumentError,
    GradOutputsError,
    GraphFreedError,
    NotDifferentiableError,
    UnusedInputError,
)
from .._case import Case
from .._kit import Kit

__all__ = ["CASES"]


def _rule(n: str) -> str:
    return f"contract §{n}"


def _x2(k: Kit) -> tuple[Any, Any]:
    """x = 2.0 watched, y = x * x."""
    x = k.leaf(2.0)
    return x, x * x


# ---- 3.1.1 outputs and inputs --------------------------------------------------------
def _containers(k: Kit) -> Any:
    x, y = _x2(k)
    (a,) = k.grad(y, x, retain_graph=True)
    (b,) = k.grad([y], (x,), retain_graph=True)
    (c,) = k.grad(iter([y]), (t for t in [x]))
    return a, b, c


def _empty_inputs(k: Kit) -> Any:
    _, y = _x2(k)
    return k.grad(y, [])


def _none_outputs(k: Kit) -> Any:
    x, _ = _x2(k)
    return k.grad(None, x)


def _dup_inputs(k: Kit) -> Any:
    x, y = _x2(k)
    return k.grad(y, [x, x])


def _dup_outputs(k: Kit) -> Any:
    x, y = _x2(k)
    return k.grad([y, y], x)


def _non_leaf_input(k: Kit) -> Any:
    x = k.leaf(2.0)
    h = x * x
    return k.grad(3 * h, [x, h])


# ---- 3.1.2 grad_outputs --------------------------------------------------------------
def _two_outputs(k: Kit) -> tuple[Any, Any, Any]:
    x = k.leaf(2.0)
    return x, x * x, x * 3


def _too_many_seeds(k: Kit) -> Any:
    x, y1, y2 = _two_outputs(k)
    return k.grad([y1, y2], x, [k.tensor(1.0), k.tensor(1.0), k.tensor(1.0)])


def _too_few_seeds(k: Kit) -> Any:
    x, y1, y2 = _two_outputs(k)
    return k.grad([y1, y2], x, k.tensor(1.0))


def _float_seed(k: Kit) -> Any:
    x, y = _x2(k)
    return k.grad(y, x, [1.0])


# ---- 3.1.3 None seeds ------------------------------------------------------------------
def _none_non_scalar(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0, 3.0])
    return k.grad(x * x, x)


def _none_entry_non_scalar(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0])
    return k.grad([x * x, 3 * x], x, [None, k.ones(2)])


def _none_seed_complex(k: Kit) -> Any:
    z = k.leaf(1 + 2j, "complex64")
    return k.grad(z * z, z)


# ---- 3.1.4 seed shapes ------------------------------------------------------------------
def _seed_shape(shape: list[int]) -> Any:
    def compute(k: Kit) -> Any:
        x = k.leaf([1.0, 2.0, 3.0])
        return k.grad(x * x, x, k.ones(shape))

    return compute


# ---- 3.1.5 seed dtypes ------------------------------------------------------------------
def _seed_dtype(dtype: str) -> Any:
    def compute(k: Kit) -> Any:
        x = k.leaf([1.0, 2.0, 3.0])
        (g,) = k.grad(x * x, x, k.tensor([1, 2, 3], dtype))
        return g, k.dtype(g)

    return compute


def _complex_seed_real_output(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0])
    return k.grad(x * x, x, k.tensor([1 + 1j, 1j], "complex64"))


# ---- 3.1.6 retain_graph ------------------------------------------------------------------
def _twice(make: Any, **first: Any) -> Any:
    def compute(k: Kit) -> Any:
        x = k.leaf(2.0)
        y = make(k, x)
        (a,) = k.grad(y, x, **first)
        (b,) = k.grad(y, x)
        return a, b

    return compute


def _backward_twice(k: Kit) -> Any:
    x, y = _x2(k)
    k.backward(y)
    k.backward(y)
    return k.grad_of(x)


def _backward_retained(k: Kit) -> Any:
    x, y = _x2(k)
    k.backward(y, retain_graph=True)
    k.backward(y)
    return k.grad_of(x)


def _grad_after_backward(k: Kit) -> Any:
    x, y = _x2(k)
    k.backward(y)
    return k.grad(y, x)


# ---- 3.1.7 create_graph ------------------------------------------------------------------
def _orders(make: Any, x0: float, n: int) -> Any:
    def compute(k: Kit) -> Any:
        x = k.leaf(x0)
        y, out = make(k, x), []
        for i in range(n):
            (y,) = k.grad(y, x, create_graph=i < n - 1)
            out.append(y)
        return tuple(out)

    return compute


def _result_flags(k: Kit) -> Any:
    x, y = _x2(k)
    (with_graph,) = k.grad(y, x, create_graph=True)
    (without,) = k.grad(y, x)
    return k.requires_grad(with_graph), k.requires_grad(without)


def _grad_of_constant(k: Kit) -> Any:
    x, y = _x2(k)
    (g,) = k.grad(y, x)
    return k.grad(g, x)


def _penalty_through_grad(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0])
    (g,) = k.grad(k.xp.sum(x * x * x), x, create_graph=True)  # 3x^2
    return k.grad(k.xp.sum(g * g), x)  # d/dx sum(9x^4) = 36x^3


# ---- 3.1.8 only_inputs ------------------------------------------------------------------
def _only_inputs(k: Kit) -> Any:
    x, y = _x2(k)
    return k.grad(y, x, only_inputs=False)


# ---- 3.1.9 allow_unused / materialize_grads -------------------------------------------
def _unused(**flags: Any) -> Any:
    def compute(k: Kit) -> Any:
        x, y = _x2(k)
        z = k.leaf([1.0, 2.0])
        return k.grad(y, [x, z], **flags)

    return compute


# ---- 3.1.10 inputs and outputs that are not differentiable ----------------------------
def _constant_input(**flags: Any) -> Any:
    def compute(k: Kit) -> Any:
        x, c = k.leaf(2.0), k.tensor(3.0)
        return k.grad(x * c, [x, c], **flags)

    return compute


def _integer_input(k: Kit) -> Any:
    x, y = _x2(k)
    return k.grad(y, [x, k.tensor([1, 2], "int32")])


def _output_without_grad(k: Kit) -> Any:
    x, c = k.leaf(2.0), k.tensor(3.0)
    return k.grad(c * c, x)


def _one_output_without_grad(k: Kit) -> Any:
    x, y = _x2(k)
    return k.grad([y, k.tensor(3.0) * 2], x)


def _integer_output(k: Kit) -> Any:
    x, _ = _x2(k)
    return k.grad(k.tensor([1, 2], "int32"), x)


def _watch_integer(k: Kit) -> Any:
    return k.watch(k.tensor([1, 2], "int32"))


# ---- 3.1.11 no_grad_vars -------------------------------------------------------------------
def _cut(both_paths: bool, **flags: Any) -> Any:
    def compute(k: Kit) -> Any:
        x = k.leaf(2.0)
        y = x * x
        z = y * y + x if both_paths else y * y
        return k.grad(z, x, no_grad_vars=[y], **flags)

    return compute


def _cut_single_tensor(k: Kit) -> Any:
    x = k.leaf(2.0)
    y = x * x
    return k.grad(y * y + 5 * x, x, no_grad_vars=y)


def _cut_input_itself(k: Kit) -> Any:
    x, w = k.leaf(2.0), k.leaf(3.0)
    return k.grad(x * w, [x, w], no_grad_vars=[x], allow_unused=True)


# ---- 3.1.12 is_grads_batched ----------------------------------------------------------------
def _batched_square(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0, 3.0])
    return k.grad(x * x, x, k.eye(3), is_grads_batched=True)


def _batched_two_inputs(k: Kit) -> Any:
    x, w = k.leaf([1.0, 2.0]), k.leaf([3.0, 4.0])
    return k.grad(x * w, [x, w], k.eye(2), is_grads_batched=True)


def _batched_two_outputs(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0])
    seeds = [k.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), k.tensor([[1.0, 1.0]] * 3)]
    return k.grad([x * x, 3 * x], x, seeds, is_grads_batched=True)


def _batched_bad_seed(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0, 3.0])
    return k.grad(x * x, x, k.ones(3), is_grads_batched=True)


def _batched_none_seed(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0, 3.0])
    return k.grad(x * x, x, is_grads_batched=True)


# ---- 3.1.13 results ----------------------------------------------------------------------
def _result_type(k: Kit) -> Any:
    x, y = _x2(k)
    return type(k.grad([y], [x])).__name__


def _result_shape_dtype(k: Kit) -> Any:
    x = k.leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float64")
    (g,) = k.grad(k.xp.sum(x * x), x)
    return g, k.shape(g), k.dtype(g)


def _no_side_effects(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0])
    k.grad(x * x, x)
    return k.grad_of(x), x


# ---- 3.2 complex numbers ------------------------------------------------------------------
def _complex_abs2(k: Kit) -> Any:
    z = k.leaf(1 + 2j, "complex64")
    return k.grad(k.xp.real(z * k.xp.conj(z)), z)


def _complex_re_zw(k: Kit) -> Any:
    z = k.leaf(1 + 2j, "complex64")
    return k.grad(k.xp.real(z * k.tensor(3 + 4j, "complex64")), z)


def _complex_seed(seed: complex) -> Any:
    def compute(k: Kit) -> Any:
        z = k.leaf(1 + 2j, "complex64")
        return k.grad(z * z, z, k.tensor(seed, "complex64"))

    return compute


def _real_through_complex(k: Kit) -> Any:
    x = k.leaf(2.0)
    w = k.tensor(3 + 4j, "complex64")
    p = x * w
    return k.grad(k.xp.real(p * k.xp.conj(p)), x)


# ---- 3.3 errors --------------------------------------------------------------------------
def _unknown_type(k: Kit) -> Any:
    x, y = _x2(k)
    return k.grad(y, [x, "not a tensor"])


def _flag_not_bool(k: Kit) -> Any:
    x, y = _x2(k)
    flag: Any = "yes"
    return k.grad(y, x, create_graph=flag)


# ---- backward ------------------------------------------------------------------------------
def _backward_inputs(k: Kit) -> Any:
    x, w = k.leaf([1.0, 2.0]), k.leaf([3.0, 4.0])
    k.backward(k.xp.sum(x * w), inputs=[x])
    return k.grad_of(x), k.grad_of(w)


def _backward_none_seed(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0, 3.0])
    k.backward(x * x)
    return k.grad_of(x)


def _backward_bad_seed(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0, 3.0])
    k.backward(x * x, k.ones(2))


CASES: list[Case] = [
    # 3.1.1
    Case(
        "contract/inputs-tensor-list-or-iterable",
        _rule("3.1.1"),
        _containers,
        expected=(4.0, 4.0, 4.0),
    ),
    Case("contract/inputs-empty", _rule("3.1.1"), _empty_inputs, raises=GradArgumentError),
    Case("contract/outputs-None", _rule("3.1.1"), _none_outputs, raises=GradArgumentError),
    Case("contract/duplicate-inputs", _rule("3.1.1"), _dup_inputs, expected=(4.0, 4.0)),
    Case("contract/duplicate-outputs", _rule("3.1.1"), _dup_outputs, expected=(8.0,)),
    Case("contract/non-leaf-input", _rule("3.1.1"), _non_leaf_input, expected=(12.0, 3.0)),
    # 3.1.2
    Case(
        "contract/grad_outputs-too-many", _rule("3.1.2"), _too_many_seeds, raises=GradOutputsError
    ),
    Case("contract/grad_outputs-too-few", _rule("3.1.2"), _too_few_seeds, raises=GradOutputsError),
    Case(
        "contract/grad_outputs-python-float", _rule("3.1.2"), _float_seed, raises=GradArgumentError
    ),
    # 3.1.3
    Case(
        "contract/None-seed-non-scalar-output",
        _rule("3.1.3"),
        _none_non_scalar,
        expected=([2.0, 4.0, 6.0],),
    ),
    Case(
        "contract/None-entry-non-scalar-output",
        _rule("3.1.3"),
        _none_entry_non_scalar,
        expected=([5.0, 7.0],),
    ),
    Case(
        "contract/None-seed-complex-output",
        _rule("3.1.3"),
        _none_seed_complex,
        raises=GradOutputsError,
    ),
    # 3.1.4
    Case(
        "contract/seed-shape-[1]-for-[3]", _rule("3.1.4"), _seed_shape([1]), raises=GradOutputsError
    ),
    Case(
        "contract/seed-shape-[]-for-[3]", _rule("3.1.4"), _seed_shape([]), raises=GradOutputsError
    ),
    Case(
        "contract/seed-shape-[3,1]-for-[3]",
        _rule("3.1.4"),
        _seed_shape([3, 1]),
        raises=GradOutputsError,
    ),
    # 3.1.5
    Case(
        "contract/seed-float64-cast",
        _rule("3.1.5"),
        _seed_dtype("float64"),
        expected=([2.0, 8.0, 18.0], "float32"),
    ),
    Case(
        "contract/seed-int32-cast",
        _rule("3.1.5"),
        _seed_dtype("int32"),
        expected=([2.0, 8.0, 18.0], "float32"),
    ),
    Case(
        "contract/seed-complex-for-real-output",
        _rule("3.1.5"),
        _complex_seed_real_output,
        raises=GradOutputsError,
    ),
    # 3.1.6
    Case(
        "contract/retain_graph=False-consumes",
        _rule("3.1.6"),
        _twice(lambda k, x: x * x),
        raises=GraphFreedError,
    ),
    Case(
        "contract/retain_graph=False-consumes-nothing-saved",
        _rule("3.1.6"),
        _twice(lambda k, x: x + 1),
        raises=GraphFreedError,
        note="torch alone would not notice: x + 1 saves no tensor",
    ),
    Case(
        "contract/retain_graph=True-keeps",
        _rule("3.1.6"),
        _twice(lambda k, x: x * x, retain_graph=True),
        expected=(4.0, 4.0),
    ),
    Case(
        "contract/retain_graph-defaults-to-create_graph",
        _rule("3.1.6"),
        _twice(lambda k, x: x * x, create_graph=True),
        expected=(4.0, 4.0),
    ),
    Case("contract/backward-twice", _rule("3.1.6"), _backward_twice, raises=GraphFreedError),
    Case(
        "contract/backward-retained-accumulates", _rule("3.1.6"), _backward_retained, expected=8.0
    ),
    Case(
        "contract/grad-after-backward", _rule("3.1.6"), _grad_after_backward, raises=GraphFreedError
    ),
    # 3.1.7
    Case(
        "contract/second-order-x^3",
        _rule("3.1.7"),
        _orders(lambda k, x: x**3, 2.0, 2),
        expected=(12.0, 12.0),
    ),
    Case(
        "contract/third-order-x*x*x",
        _rule("3.1.7"),
        _orders(lambda k, x: x * x * x, 2.0, 3),
        expected=(12.0, 12.0, 6.0),
    ),
    Case(
        "contract/fourth-order-x*x*x*x",
        _rule("3.1.7"),
        _orders(lambda k, x: x * x * x * x, 2.0, 4),
        expected=(32.0, 48.0, 48.0, 24.0),
    ),
    Case(
        "contract/third-order-sin",
        _rule("3.1.7"),
        _orders(lambda k, x: k.xp.sin(x), 0.5, 3),
        expected=(0.87758256, -0.47942554, -0.87758256),
        note="create_graph=False on the last call: paddle has no sin_triple_grad",
    ),
    Case(
        "contract/create_graph-result-requires-grad",
        _rule("3.1.7"),
        _result_flags,
        expected=(True, False),
    ),
    Case(
        "contract/grad-of-constant-gradient",
        _rule("3.1.7"),
        _grad_of_constant,
        raises=NotDifferentiableError,
    ),
    Case(
        "contract/penalty-through-gradient",
        _rule("3.1.7"),
        _penalty_through_grad,
        expected=([36.0, 288.0],),
    ),
    # 3.1.8
    Case(
        "contract/only_inputs=False-warns",
        _rule("3.1.8"),
        _only_inputs,
        expected=(4.0,),
        warns=FutureWarning,
    ),
    # 3.1.9
    Case("contract/unused-input-default", _rule("3.1.9"), _unused(), raises=UnusedInputError),
    Case(
        "contract/unused-input-allow_unused=False",
        _rule("3.1.9"),
        _unused(allow_unused=False),
        raises=UnusedInputError,
    ),
    Case(
        "contract/unused-input-allow_unused=True",
        _rule("3.1.9"),
        _unused(allow_unused=True),
        expected=(4.0, None),
    ),
    Case(
        "contract/unused-input-materialize_grads",
        _rule("3.1.9"),
        _unused(materialize_grads=True),
        expected=(4.0, [0.0, 0.0]),
    ),
    Case(
        "contract/materialize_grads-with-allow_unused=False",
        _rule("3.1.9"),
        _unused(materialize_grads=True, allow_unused=False),
        raises=GradArgumentError,
    ),
    Case(
        "contract/unused-input-is-a-ValueError",
        _rule("3.3"),
        _unused(),
        raises=ValueError,
        note="code written for paddle (except ValueError) keeps working",
    ),
    Case(
        "contract/unused-input-is-a-RuntimeError",
        _rule("3.3"),
        _unused(),
        raises=RuntimeError,
        note="code written for torch (except RuntimeError) keeps working",
    ),
    # 3.1.10
    Case(
        "contract/input-without-grad-is-unused",
        _rule("3.1.10"),
        _constant_input(),
        raises=UnusedInputError,
    ),
    Case(
        "contract/input-without-grad-allow_unused",
        _rule("3.1.10"),
        _constant_input(allow_unused=True),
        expected=(3.0, None),
    ),
    Case("contract/integer-input", _rule("3.1.10"), _integer_input, raises=NotDifferentiableError),
    Case(
        "contract/integer-output", _rule("3.1.10"), _integer_output, raises=NotDifferentiableError
    ),
    Case(
        "contract/output-without-grad",
        _rule("3.1.10"),
        _output_without_grad,
        raises=NotDifferentiableError,
    ),
    Case(
        "contract/one-output-without-grad",
        _rule("3.1.10"),
        _one_output_without_grad,
        raises=NotDifferentiableError,
    ),
    Case("contract/watch-integer", _rule("3.1.10"), _watch_integer, raises=NotDifferentiableError),
    # 3.1.11
    Case("contract/no_grad_vars-cut-one-path", _rule("3.1.11"), _cut(True), expected=(1.0,)),
    Case(
        "contract/no_grad_vars-single-tensor", _rule("3.1.11"), _cut_single_tensor, expected=(5.0,)
    ),
    Case(
        "contract/no_grad_vars-only-path-is-unused",
        _rule("3.1.11"),
        _cut(False),
        raises=UnusedInputError,
    ),
    Case(
        "contract/no_grad_vars-only-path-allow_unused",
        _rule("3.1.11"),
        _cut(False, allow_unused=True),
        expected=(None,),
    ),
    Case(
        "contract/no_grad_vars-on-the-input",
        _rule("3.1.11"),
        _cut_input_itself,
        expected=(None, 2.0),
    ),
    # 3.1.12
    Case(
        "contract/is_grads_batched-jacobian",
        _rule("3.1.12"),
        _batched_square,
        expected=([[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 6.0]],),
    ),
    Case(
        "contract/is_grads_batched-two-inputs",
        _rule("3.1.12"),
        _batched_two_inputs,
        expected=([[3.0, 0.0], [0.0, 4.0]], [[1.0, 0.0], [0.0, 2.0]]),
    ),
    Case(
        "contract/is_grads_batched-two-outputs",
        _rule("3.1.12"),
        _batched_two_outputs,
        expected=([[5.0, 3.0], [3.0, 7.0], [5.0, 7.0]],),
    ),
    Case(
        "contract/is_grads_batched-unbatched-seed",
        _rule("3.1.12"),
        _batched_bad_seed,
        raises=GradOutputsError,
    ),
    Case(
        "contract/is_grads_batched-None-seed",
        _rule("3.1.12"),
        _batched_none_seed,
        raises=GradOutputsError,
    ),
    # 3.1.13
    Case("contract/result-is-a-tuple", _rule("3.1.13"), _result_type, expected="tuple"),
    Case(
        "contract/result-shape-and-dtype-float64",
        _rule("3.1.13"),
        _result_shape_dtype,
        expected=([[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]], (2, 3), "float64"),
        rtol=1e-12,
    ),
    Case(
        "contract/grad-writes-no-.grad-and-keeps-inputs",
        _rule("3.1.13"),
        _no_side_effects,
        expected=(None, [1.0, 2.0]),
    ),
    # 3.2
    Case("contract/complex-|z|^2", _rule("3.2"), _complex_abs2, expected=(2 + 4j,)),
    Case("contract/complex-Re(z*w)", _rule("3.2"), _complex_re_zw, expected=(3 - 4j,)),
    Case("contract/complex-z*z-seed-1", _rule("3.2"), _complex_seed(1), expected=(2 - 4j,)),
    Case("contract/complex-z*z-seed-1j", _rule("3.2"), _complex_seed(1j), expected=(4 + 2j,)),
    Case(
        "contract/real-input-complex-intermediate",
        _rule("3.2"),
        _real_through_complex,
        expected=(100.0,),
    ),
    # 3.3
    Case("contract/unknown-tensor-type", _rule("3.3"), _unknown_type, raises=BackendError),
    Case("contract/flag-not-a-bool", _rule("3.3"), _flag_not_bool, raises=GradArgumentError),
    # backward
    Case(
        "contract/backward-inputs",
        _rule("1 (backward)"),
        _backward_inputs,
        expected=([3.0, 4.0], None),
    ),
    Case(
        "contract/backward-None-seed-non-scalar",
        _rule("1 (backward)"),
        _backward_none_seed,
        expected=[2.0, 4.0, 6.0],
    ),
    Case(
        "contract/backward-seed-shape",
        _rule("1 (backward)"),
        _backward_bad_seed,
        raises=GradOutputsError,
    ),
]
