"""The semantic contract (docs/semantics.md), rule by rule, on every backend.

Test names carry the rule number of docs/semantics.md (``test_r3_...`` is rule 3).
Numbers are float32 and compared at RTOL=1e-5, ATOL=1e-6 unless a test says otherwise.
"""

from __future__ import annotations

import gc
import warnings

import numpy as np
import pytest

import unigrad
from unigrad import (
    BackendError,
    GradArgumentError,
    GradOutputsError,
    GraphFreedError,
    NotDifferentiableError,
    UnusedInputError,
)

# ---------------------------------------------------------------- rule 1: containers


def test_r1_tensor_list_tuple_and_generator_are_accepted(backend):
    x = backend.leaf([1.0, 2.0, 3.0])
    y = x * x
    for outs, ins in [(y, x), ([y], [x]), ((y,), (x,)), ((t for t in [y]), (t for t in [x]))]:
        result = unigrad.grad(outs, ins, retain_graph=True)
        assert type(result) is tuple
        backend.close(result[0], [2.0, 4.0, 6.0])


@pytest.mark.parametrize("bad", [None, [], ()], ids=["None", "empty-list", "empty-tuple"])
def test_r1_empty_or_none_inputs_and_outputs_raise(backend, bad):
    x = backend.leaf(2.0)
    y = x * x
    with pytest.raises(GradArgumentError, match="inputs"):
        unigrad.grad(y, bad)
    with pytest.raises(GradArgumentError, match="outputs"):
        unigrad.grad(bad, x)


def test_r1_dict_and_set_containers_raise(backend):
    x = backend.leaf(2.0)
    y = x * x
    with pytest.raises(GradArgumentError, match="container"):
        unigrad.grad({"y": y}, x)
    with pytest.raises(GradArgumentError, match="container"):
        unigrad.grad(y, {x})


def test_r1_duplicate_inputs_get_the_same_gradient(backend):
    x = backend.leaf(2.0)
    h = x * x
    y = 3 * h
    gx1, gh, gx2 = unigrad.grad(y, [x, h, x])
    backend.close(gx1, 12.0)
    backend.close(gh, 3.0)
    backend.close(gx2, 12.0)


def test_r1_duplicate_outputs_contribute_twice(backend):
    x = backend.leaf(2.0)
    y = x * x
    (g,) = unigrad.grad([y, y], x)
    backend.close(g, 8.0)
    z = x * x * x
    (g,) = unigrad.grad([z, z], x, [backend.tensor(1.0), backend.tensor(2.0)])
    backend.close(g, 36.0)


# ----------------------------------------------------------- rule 2: grad_outputs form


@pytest.mark.parametrize("n_seeds", [1, 3])
def test_r2_seed_count_must_equal_output_count(backend, n_seeds):
    x = backend.leaf(2.0)
    y1, y2 = x * x, x * 3
    seeds = [backend.tensor(1.0)] * n_seeds
    with pytest.raises(GradOutputsError, match="2 seed"):
        unigrad.grad([y1, y2], x, seeds)


def test_r2_one_tensor_seed_for_two_outputs_raises(backend):
    x = backend.leaf(2.0)
    with pytest.raises(GradOutputsError, match="length"):
        unigrad.grad([x * x, x * 3], x, backend.tensor(1.0))


@pytest.mark.parametrize("seed", [1.0, [1.0]], ids=["float", "list"])
def test_r2_seed_entries_must_be_tensors(backend, seed):
    x = backend.leaf(2.0)
    with pytest.raises(GradArgumentError, match="not a tensor"):
        unigrad.grad([x * x], x, [seed])


def test_r2_a_numpy_scalar_seed_is_a_numpy_value(backend):
    # NumPy reductions return scalars, so they are the numpy backend's 0-d values;
    # on any other backend they are a second framework (or, without autograd, values of
    # a backend that is not installed).
    x = backend.leaf(2.0)
    seed = np.float32(3.0)
    if backend.name == "numpy":
        (g,) = unigrad.grad([x * x], x, [seed])
        backend.close(g, 12.0)
    else:
        with pytest.raises(BackendError, match=r"mixes two frameworks|needs autograd"):
            unigrad.grad([x * x], x, [seed])


def test_values_of_a_backend_that_is_not_installed_say_what_to_install(monkeypatch):
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "autograd" else find_spec(name, *a),
    )
    from unigrad import _dispatch

    monkeypatch.setattr(_dispatch, "_TYPE_CACHE", {})

    class Fake(np.ndarray):
        pass

    with pytest.raises(BackendError, match=r"needs autograd.*unigrad\[numpy\]"):
        unigrad.backend_of(np.zeros(2).view(Fake))


def test_r2_the_paddle_doc_seeds(backend):
    x = backend.leaf(2.0)
    y1, y2 = x * x, x * 3
    four, three = backend.tensor(4.0), backend.tensor(3.0)
    cases = [(None, 7.0), ([None, four], 16.0), ([four, None], 19.0), ([three, four], 24.0)]
    for seeds, expected in cases:
        (g,) = unigrad.grad([y1, y2], [x], seeds, retain_graph=True)
        backend.close(g, expected)


# --------------------------------------------------------------- rule 3: None = ones


def test_r3_none_seed_means_ones_for_any_shape(backend):
    x = backend.leaf([1.0, 2.0, 3.0])
    (g,) = unigrad.grad(x * x, x)
    backend.close(g, [2.0, 4.0, 6.0])
    m = backend.leaf(np.arange(6.0).reshape(2, 3))
    (g,) = unigrad.grad(m * m, m)
    backend.close(g, 2 * np.arange(6.0).reshape(2, 3))


def test_r3_none_entry_means_ones_for_a_non_scalar_output(backend):
    x = backend.leaf([1.0, 2.0])
    (g,) = unigrad.grad([x * x, x * 3], x, [None, backend.ones(2)])
    backend.close(g, [5.0, 7.0])


def test_r3_empty_output_gives_an_empty_gradient(backend):
    x = backend.leaf(np.zeros(0))
    (g,) = unigrad.grad(x * x, x)
    assert backend.shape(g) == (0,)


def test_r3_complex_output_needs_an_explicit_seed(backend):
    z = backend.leaf([1 + 2j], "complex64")
    with pytest.raises(GradOutputsError, match="complex"):
        unigrad.grad(z * z, z)


# ---------------------------------------------------------------- rule 4: seed shape


@pytest.mark.parametrize("shape", [(1,), (), (2,), (3, 3), (3, 1)])
def test_r4_seed_shape_must_match_exactly(backend, shape):
    x = backend.leaf([1.0, 2.0, 3.0])
    with pytest.raises(GradOutputsError, match="shape"):
        unigrad.grad(x * x, x, backend.ones(shape))


def test_r4_scalar_output_rejects_a_one_element_seed(backend):
    x = backend.leaf(2.0)
    with pytest.raises(GradOutputsError, match="shape"):
        unigrad.grad(x * x, x, backend.ones((1,)))


# ---------------------------------------------------------------- rule 5: seed dtype


@pytest.mark.parametrize(
    ("dtype", "seed", "expected"),
    [
        ("float64", [1.0, 2.0, 3.0], [2.0, 8.0, 18.0]),
        ("int64", [1, 2, 3], [2.0, 8.0, 18.0]),
        ("bool", [True, False, True], [2.0, 0.0, 6.0]),
    ],
)
def test_r5_real_seeds_are_cast_to_the_output_dtype(backend, dtype, seed, expected):
    x = backend.leaf([1.0, 2.0, 3.0])
    (g,) = unigrad.grad(x * x, x, backend.tensor(seed, dtype))
    backend.close(g, expected)
    assert backend.dtype(g) == "float32"


def test_r5_float32_seed_for_a_float64_output(backend):
    x = backend.leaf([1.0, 2.0], "float64")
    (g,) = unigrad.grad(x * x, x, backend.ones(2, "float32"))
    backend.close(g, [2.0, 4.0])
    assert backend.dtype(g) == "float64"


def test_r5_complex_seed_for_a_real_output_raises(backend):
    x = backend.leaf([1.0, 2.0, 3.0])
    with pytest.raises(GradOutputsError, match="complex"):
        unigrad.grad(x * x, x, backend.tensor([1j, 1j, 1j], "complex64"))


# -------------------------------------------------------------- rule 6: retain_graph


def _second_pass_raises(backend, make):
    x = backend.leaf([1.0, 2.0])
    y = make(x)
    unigrad.grad(y, x)  # retain_graph defaults to create_graph=False: consumed
    with pytest.raises(GraphFreedError):
        unigrad.grad(y, x)


@pytest.mark.parametrize(
    "make",
    [lambda x: x * x, lambda x: x * 2, lambda x: x + 1, lambda x: (x * x).sum()],
    ids=["mul-saves", "scale", "add-saves-nothing", "sum"],
)
def test_r6_a_consumed_graph_raises_graph_freed(backend, make):
    _second_pass_raises(backend, make)


def test_r6_a_shared_subgraph_is_consumed_too(backend):
    x = backend.leaf(2.0)
    h = x * x
    unigrad.grad(2 * h, x)
    with pytest.raises(GraphFreedError):
        unigrad.grad(3 * h, x)


def test_r6_backward_after_a_consuming_grad_raises(backend):
    x = backend.leaf(2.0)
    y = x * x + 1
    unigrad.grad(y, x, retain_graph=False)
    with pytest.raises(GraphFreedError):
        unigrad.backward(y)


def test_r6_grad_after_a_consuming_backward_raises(backend):
    x = backend.leaf(2.0)
    y = x * 3 + 1
    unigrad.backward(y)
    with pytest.raises(GraphFreedError):
        unigrad.grad(y, x)


def test_r6_graph_freed_is_catchable_as_the_native_classes(backend):
    x = backend.leaf(2.0)
    y = x + 1
    unigrad.grad(y, x)
    with pytest.raises(RuntimeError):
        unigrad.grad(y, x)
    with pytest.raises(SystemError):
        unigrad.grad(y, x)


def test_r6_retain_graph_true_keeps_the_graph(backend):
    x = backend.leaf(2.0)
    y = x * x
    for _ in range(3):
        (g,) = unigrad.grad(y, x, retain_graph=True)
        backend.close(g, 4.0)
    unigrad.grad(y, x)  # the last pass may consume it
    with pytest.raises(GraphFreedError):
        unigrad.grad(y, x)


def test_r6_retain_graph_defaults_to_create_graph(backend):
    x = backend.leaf(2.0)
    y = x * x
    unigrad.grad(y, x, create_graph=True)
    (g,) = unigrad.grad(y, x)
    backend.close(g, 4.0)


def test_r6_a_consumed_graph_is_not_confused_with_a_new_one(backend, long_run):
    # Fresh graphs built after a consumed one (possibly reusing freed memory and ids)
    # must differentiate normally: tracking is per graph node, never per id(). (A full
    # collection with every framework loaded takes about 0.3 s: 50 rounds with --long.)
    x = backend.leaf(2.0)
    for i in range(50 if long_run else 5):
        y = x * x + i
        (g,) = unigrad.grad(y, x)
        backend.close(g, 4.0)
        del y
        gc.collect()


def test_r6_inputs_beyond_the_requested_ones_are_not_consumed(backend):
    x = backend.leaf(2.0)
    h = x * x
    y = h * 3
    (gh,) = unigrad.grad(y, h)  # the pass stops at h: h's own node did not run
    backend.close(gh, 3.0)
    (gx,) = unigrad.grad(h, x)
    backend.close(gx, 4.0)


def test_r6_a_branch_the_pass_did_not_run_is_not_consumed(backend):
    # w's branch feeds y, but grad(y, x) does not run it: it stays differentiable.
    x, w = backend.leaf(2.0), backend.leaf(5.0)
    h = w * 3 + 1
    y = x * h
    (gx,) = unigrad.grad(y, x)
    backend.close(gx, 16.0)
    (gw,) = unigrad.grad(h, w)
    backend.close(gw, 3.0)
    with pytest.raises(GraphFreedError):
        unigrad.grad(y, w)


def test_r6_an_input_behind_another_input_consumes_the_path_between(backend):
    # both h and x are inputs: the pass runs h's node to reach x, so h's graph is consumed
    x = backend.leaf(2.0)
    h = x * x + 1
    y = h * 3
    gh, gx = unigrad.grad(y, [h, x])
    backend.close(gh, 3.0)
    backend.close(gx, 12.0)
    with pytest.raises(GraphFreedError):
        unigrad.grad(h, x)


def _consumed_intermediate(backend, x):
    """``x * x * 3`` consumed, with nothing holding its intermediates but the graph."""
    h = x * x
    y = h * 3
    later = h * 5  # a graph built on the intermediate before the consuming pass
    unigrad.grad(y.sum(), x)
    return later


def test_r6_an_intermediate_another_graph_reaches_is_consumed(backend):
    # the intermediate's tensor is gone: only the other graph's node leads to it (paddle
    # leaves a node unhooked where nothing but the consumed graph owns it)
    x = backend.leaf([1.0, 2.0])
    later = _consumed_intermediate(backend, x)
    with pytest.raises(GraphFreedError):
        unigrad.grad(later.sum(), x)


def test_r6_a_chain_consumed_below_a_held_tensor_raises_from_it(backend):
    # x -> a -> b -> c, only b and c held: b's graph (a's node below it) is consumed
    x = backend.leaf([1.0, 2.0])
    b = (x * 3) * (x * 3)
    c = (b * b).sum()
    unigrad.grad(c, x)
    with pytest.raises(GraphFreedError):
        unigrad.grad(b.sum(), x)
    with pytest.raises(GraphFreedError):
        unigrad.grad(c, b)


def test_r6_a_gradient_graph_built_before_the_consuming_pass_is_consumed(backend):
    # the gradient's graph refers to the forward graph's nodes (a saved product), which a
    # later pass over another output consumes (found by a test of issue 14's paddle work)
    x = backend.leaf([1.0, 2.0])
    h = x * x
    (g,) = unigrad.grad((h * h).sum(), x, create_graph=True)
    y = (h * 2).sum()
    del h
    unigrad.grad(y, x)
    with pytest.raises(GraphFreedError):
        unigrad.grad(g.sum(), x)


def _through_a_saved_product(backend):
    x = backend.leaf([1.0, 2.0])
    xp = backend.xp
    h = xp.sin(x)
    (g,) = unigrad.grad(xp.sum(h * h), x, create_graph=True)
    return x, h, g, lambda: unigrad.grad(xp.sum(2 * h), x)


def _through_nodes_that_saved_nothing(backend):
    x = backend.leaf([1.0, 2.0])
    xp = backend.xp
    h = x + 1
    (g,) = unigrad.grad(xp.sum(h * h), x, create_graph=True)
    return x, h, g, lambda: unigrad.backward(xp.sum(-h))


def _a_gradient_graph_that_reads_no_forward_node(backend):
    # g = w: torch's and paddle's graph of g runs through no node of x * w, which the
    # later pass consumes; the result still carries it
    x = backend.leaf([1.0, 2.0])
    w = backend.leaf([3.0, 4.0])
    xp = backend.xp
    p = x * w
    (g,) = unigrad.grad(xp.sum(p), x, create_graph=True)
    return w, p, g, lambda: unigrad.grad(xp.sum(p), w)


@pytest.mark.parametrize(
    "make",
    [
        _through_a_saved_product,
        _through_nodes_that_saved_nothing,
        _a_gradient_graph_that_reads_no_forward_node,
    ],
    ids=["saved-product", "saved-nothing", "reads-no-forward-node"],
)
def test_r6_a_create_graph_result_whose_forward_nodes_a_later_pass_consumed(backend, make) -> None:
    inp, _h, g, consume = make(backend)
    consume()
    with pytest.raises(GraphFreedError, match="consumed"):
        unigrad.grad(backend.xp.sum(g * g), inp)
    with pytest.raises(GraphFreedError):
        unigrad.backward(backend.xp.sum(g * g))


def test_r6_a_result_carries_what_the_results_it_ran_through_carry(backend) -> None:
    x = backend.leaf([1.0, 2.0])
    xp = backend.xp
    h = x + 1
    (g,) = unigrad.grad(xp.sum(h * h * h), x, create_graph=True)
    (g2,) = unigrad.grad(xp.sum(g * x), x, create_graph=True)
    unigrad.grad(xp.sum(h), x)  # consumes h's node, which g2 carries through g
    with pytest.raises(GraphFreedError):
        unigrad.grad(xp.sum(g2), x)


def test_r6_what_a_result_does_not_carry_or_consumed_before_it_answers(backend) -> None:
    x = backend.leaf([1.0, 2.0])
    w = backend.leaf([3.0, 4.0])
    xp = backend.xp
    # its own consuming call (rule 15): differentiable
    h = xp.sin(x)
    (g,) = unigrad.grad(xp.sum(h * h), x, create_graph=True, retain_graph=False)
    (gg,) = unigrad.grad(xp.sum(g), x)
    x_np = np.array([1.0, 2.0])
    backend.close(gg, 2 * np.cos(2 * x_np))
    # a consumed branch the result's pass did not run
    p = x * w
    q = xp.sin(w)
    (gp,) = unigrad.grad(xp.sum(p), x, create_graph=True)
    unigrad.grad(xp.sum(q), w)
    (gw,) = unigrad.grad(xp.sum(gp * gp), w)
    backend.close(gw, 2 * np.array([3.0, 4.0]))
    # a pass that does not run through the result (its input is the result itself)
    p2 = x * w
    (g3,) = unigrad.grad(xp.sum(p2 * p2), x, create_graph=True)
    loss = xp.sum(g3 * g3)
    unigrad.grad(xp.sum(p2), w)
    (d,) = unigrad.grad(loss, g3)
    backend.close(d, 2 * backend.np(g3))


def test_r6_a_pass_through_a_result_consumes_what_it_carries(backend) -> None:
    # differential seed 2026, programs 16938 and 42250: torch and paddle raised (their
    # gradient graphs run through h's node), the tapes answered; decided: a pass through
    # a create_graph result runs the forward nodes it carries, on every backend
    xp = backend.xp
    x = backend.leaf([0.5, -1.0])
    h = xp.exp(x)
    (g,) = unigrad.grad(xp.sum(h * h), x, create_graph=True)
    (gg,) = unigrad.grad(xp.sum(g), x)  # retain_graph=False: consumes h's node too
    backend.close(gg, 4 * np.exp(2 * np.array([0.5, -1.0])))
    with pytest.raises(GraphFreedError, match="consumed"):
        unigrad.grad(xp.sum(h), x)
    # also where the gradient's graph reads no forward node (g2 = w): the carried mul
    w = backend.leaf([3.0, 4.0])
    p = x * w
    (g2,) = unigrad.grad(xp.sum(p), x, create_graph=True)
    unigrad.grad(xp.sum(g2 * g2), w)
    with pytest.raises(GraphFreedError):
        unigrad.grad(xp.sum(p), x)


def test_r6_a_result_made_through_an_earlier_result_carries_it_afresh(backend) -> None:
    # differential seed 2026, programs 37042 and 26602: a create_graph=True,
    # retain_graph=False call through an earlier result consumes what that result
    # carries (its own consumption: its results answer); torch and paddle raised
    xp = backend.xp
    x_np = np.array([0.3, -0.4])
    x = backend.leaf(x_np.tolist())
    (g1,) = unigrad.grad(xp.sum(xp.exp(x)), x, create_graph=True)
    (g2,) = unigrad.grad(xp.sum(xp.sinh(g1)), x, create_graph=True, retain_graph=False)
    (d,) = unigrad.grad(xp.sum(g2[1:2]), x)
    e = np.exp(x_np)
    want = np.where(np.arange(2) == 1, np.sinh(e) * e * e + np.cosh(e) * e, 0.0)
    backend.close(d, want)
    # one more level, the earlier result itself made by a consuming call
    y = backend.leaf([1.1, 1.45, 0.95])
    (a,) = unigrad.grad(xp.sum(y * y * y), y, create_graph=True, retain_graph=False)
    (b,) = unigrad.grad(xp.max(a), y, create_graph=True)
    (c,) = unigrad.grad(xp.sum(b * b), y, create_graph=True, retain_graph=False)
    backend.close(c, [0.0, 72.0 * 1.45, 0.0])


def test_r6_a_gradient_graph_consumed_since_raises_from_a_result_it_made(backend) -> None:
    # differential seed 2026, program 20266: torch did not look inside the gradient
    # graph of a create_graph=True, retain_graph=False call (g = w reads no forward
    # node, so no carried node was flagged again) and answered
    xp = backend.xp
    x = backend.leaf([0.5, 2.0])
    w = backend.leaf([3.0, 4.0])
    (g,) = unigrad.grad(xp.sum(x * w), x, create_graph=True, retain_graph=False)
    v = g * g
    unigrad.grad(xp.sum(xp.cumulative_sum(g, axis=0)), w, create_graph=True, retain_graph=False)
    with pytest.raises(GraphFreedError):
        unigrad.grad(xp.sum(v), w)


def test_r6_a_pass_into_every_leaf_does_not_consume_what_only_a_cut_reaches(backend) -> None:
    # differential seed 2026, program 12191 (torch): backward ran (and consumed) -x's
    # node, which reaches the loss only through floor (rule 14: not the pass's)
    xp = backend.xp
    x = backend.leaf(0.53)
    w = backend.leaf([1.07, -0.67])
    v = -x
    loss = xp.sum(xp.floor(v) / (w * w + 1.0))
    unigrad.backward(loss)
    (d,) = unigrad.grad(v, x)
    backend.close(d, -1.0)


def test_r6_a_cut_pass_does_not_consume_what_only_a_cut_reaches(backend) -> None:
    # differential seed 2026, program 40132 (paddle): a retain_graph=False pass with
    # no_grad_vars marked the nodes that reach the input only through ceil consumed
    xp = backend.xp
    x = backend.leaf([-0.64, 1.29])
    h = xp.exp(x)
    v = h + xp.ceil(x * 2.0)
    (g,) = unigrad.grad(xp.sum(v), x, retain_graph=False, allow_unused=True, no_grad_vars=[h])
    assert g is None
    (d,) = unigrad.grad(xp.sum(v), x)
    backend.close(d, np.exp([-0.64, 1.29]))


def test_remainder_s_gradient_does_not_depend_on_the_dividend(backend) -> None:
    # differential seed 2026, program 11762 (torch): remainder's gradient with respect
    # to the divisor is -floor(a / b), a floor division (rule 14's cut); torch followed
    # its edges, and a later pass reached a consumed node through them
    xp = backend.xp
    y = backend.leaf([0.61, -1.42])
    x = backend.leaf([-0.42, 1.38])
    (g,) = unigrad.grad(xp.sum(xp.remainder(y, x * x + 0.5)), x, create_graph=True)
    with pytest.raises(UnusedInputError):
        unigrad.grad(xp.sum(g), y)


def test_r6_one_pass_over_several_outputs_consumes_each(backend):
    x = backend.leaf([1.0, 2.0])
    a, b = x + 1, x * 2
    unigrad.grad([a, b], x)
    for y in (a, b):
        with pytest.raises(GraphFreedError):
            unigrad.grad(y, x)


# -------------------------------------------------------------- rule 7: create_graph


@pytest.mark.parametrize(("create", "expected"), [(False, 2.0), (True, 4.0)])
def test_r7_paddle_doc_create_graph_example(backend, create, expected):
    x = backend.leaf(np.ones(1))
    y = x * x
    (dx,) = unigrad.grad([y], [x], create_graph=create, retain_graph=True)
    z = y + dx
    (gx,) = unigrad.grad(z, x)
    backend.close(gx, [expected])


def test_r7_third_and_fourth_order(backend):
    x = backend.leaf(2.0)
    y = x * x * x * x
    expected = [32.0, 48.0, 48.0, 24.0]
    g = y
    for order, value in enumerate(expected, start=1):
        (g,) = unigrad.grad(g, x, create_graph=order < len(expected))
        backend.close(g, value)


def test_r7_results_without_create_graph_are_constants(backend):
    x = backend.leaf(2.0)
    (g,) = unigrad.grad(x * x, x)
    assert not backend.requires_grad(g)
    with pytest.raises(NotDifferentiableError):
        unigrad.grad(g, x)


def test_r7_results_with_create_graph_are_differentiable(backend):
    x = backend.leaf(2.0)
    (g,) = unigrad.grad(x * x * x, x, create_graph=True)
    assert backend.requires_grad(g)
    (h,) = unigrad.grad(g, x)
    backend.close(h, 12.0)


def _framework_cube(backend, x):
    """``x ** 3`` by the framework's own scalar pow kernel (paddle's ``x ** 3`` operator
    computes as the namespace's pow, differentiable to any order)."""
    if backend.name == "paddle":
        import paddle

        return paddle.pow(x, 3.0)
    return x**3


def test_r7_missing_higher_order_kernel_is_named(backend):
    if backend.caps.max_order is None:
        pytest.skip(f"{backend.name} has every higher-order kernel used here")
    x = backend.leaf(2.0)
    y = _framework_cube(backend, x)
    (g1,) = unigrad.grad(y, x, create_graph=True)
    (g2,) = unigrad.grad(g1, x, create_graph=True)
    with pytest.raises(unigrad.HigherOrderUnavailableError, match="pow"):
        unigrad.grad(g2, x, create_graph=True)
    # the documented way out: create_graph=False on the last call
    x = backend.leaf(2.0)
    (g1,) = unigrad.grad(_framework_cube(backend, x), x, create_graph=True)
    (g2,) = unigrad.grad(g1, x, create_graph=True)
    (g3,) = unigrad.grad(g2, x)
    backend.close(g3, 6.0)


# --------------------------------------------------------------- rule 8: only_inputs


def test_r8_only_inputs_false_warns_and_is_ignored(backend):
    x, w = backend.leaf(2.0), backend.leaf(3.0)
    with pytest.warns(FutureWarning, match="only_inputs"):
        (g,) = unigrad.grad(x * w, x, only_inputs=False)
    backend.close(g, 3.0)


def test_r8_only_inputs_true_is_silent(backend):
    x = backend.leaf(2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        unigrad.grad(x * x, x, only_inputs=True)


# --------------------------------------------------------------- rule 9: allow_unused


@pytest.mark.parametrize("allow_unused", [None, False])
def test_r9_unused_input_raises_naming_its_index(backend, allow_unused):
    x, z = backend.leaf(2.0), backend.leaf([1.0, 1.0])
    with pytest.raises(UnusedInputError, match=r"inputs\[1\]"):
        unigrad.grad(x * x, [x, z], allow_unused=allow_unused)


def test_r9_unused_input_is_catchable_as_both_native_classes(backend):
    x, z = backend.leaf(2.0), backend.leaf(1.0)
    with pytest.raises(RuntimeError):
        unigrad.grad(x * x, [x, z], retain_graph=True)
    with pytest.raises(ValueError):
        unigrad.grad(x * x, [x, z], retain_graph=True)


def test_r9_allow_unused_returns_none(backend):
    x, z = backend.leaf(2.0), backend.leaf([1.0, 1.0])
    gx, gz = unigrad.grad(x * x, [x, z], allow_unused=True)
    backend.close(gx, 4.0)
    assert gz is None


def test_r9_materialize_grads_returns_zeros(backend):
    x, z = backend.leaf(2.0), backend.leaf([1.0, 1.0], "float64")
    gx, gz = unigrad.grad(x * x, [x, z], materialize_grads=True)
    backend.close(gx, 4.0)
    backend.close(gz, [0.0, 0.0])
    assert backend.dtype(gz) == "float64"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_r9_materialized_zeros_are_fresh_with_the_input_shape(backend, dtype):
    x = backend.leaf(2.0)
    z = backend.leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype)
    s = backend.leaf(3.0, dtype)
    _, gz, gs = unigrad.grad(x * x, [x, z, s], materialize_grads=True)
    _, gz2, _ = unigrad.grad(x * x, [x, z, s], materialize_grads=True)
    assert backend.shape(gz) == (2, 3)
    assert backend.shape(gs) == ()
    assert backend.dtype(gz) == dtype
    assert backend.dtype(gs) == dtype
    backend.close(gz, np.zeros((2, 3)))
    assert gz is not gz2  # one array per call, as torch makes them


def test_r9_materialize_grads_with_allow_unused_false_raises(backend):
    x = backend.leaf(2.0)
    with pytest.raises(GradArgumentError, match="materialize_grads"):
        unigrad.grad(x * x, x, allow_unused=False, materialize_grads=True)


def test_r9_unreached_intermediate_is_unused(backend):
    x = backend.leaf(2.0)
    h = x * 5
    y = x * x
    gx, gh = unigrad.grad(y, [x, h], allow_unused=True)
    backend.close(gx, 4.0)
    assert gh is None


@pytest.mark.parametrize("flag", ["retain_graph", "create_graph", "allow_unused"])
def test_r9_flags_must_be_bools(backend, flag):
    x = backend.leaf(2.0)
    with pytest.raises(GradArgumentError, match=flag):
        unigrad.grad(x * x, x, **{flag: "yes"})


# ------------------------------------------------------- rule 10: differentiability


def test_r10_input_that_does_not_require_grad_is_unused(backend):
    x, c = backend.leaf(2.0), backend.tensor(3.0)
    with pytest.raises(UnusedInputError, match="does not require grad"):
        unigrad.grad(x * c, [x, c])
    gx, gc_ = unigrad.grad(x * c, [x, c], allow_unused=True)
    backend.close(gx, 3.0)
    assert gc_ is None


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool"])
def test_r10_integer_input_is_not_differentiable(backend, dtype):
    x = backend.leaf(2.0)
    i = backend.tensor([1, 2], dtype)
    with pytest.raises(NotDifferentiableError, match="inputs\\[1\\]"):
        unigrad.grad(x * x, [x, i], allow_unused=True)


@pytest.mark.parametrize("dtype", ["int64", "bool"])
def test_r10_integer_tensors_cannot_be_watched(backend, dtype):
    with pytest.raises(NotDifferentiableError):
        unigrad.watch(backend.tensor([1, 0], dtype))


def test_r10_output_that_does_not_require_grad_raises(backend):
    x, c = backend.leaf(2.0), backend.tensor(3.0)
    with pytest.raises(NotDifferentiableError, match=r"outputs\[0\]"):
        unigrad.grad(c * c, x, allow_unused=True)
    with pytest.raises(NotDifferentiableError, match=r"outputs\[1\]"):
        unigrad.grad([x * x, c * c], x)


def test_r10_not_differentiable_is_catchable_as_native_classes(backend):
    x, c = backend.leaf(2.0), backend.tensor(3.0)
    for cls in (RuntimeError, ValueError, TypeError):
        with pytest.raises(cls):
            unigrad.grad(c * c, x)


# ------------------------------------------------------------- rule 11: no_grad_vars


def test_r11_input_reachable_only_through_a_cut_is_unused(backend):
    x = backend.leaf(2.0)
    y = x * x
    z = y * y
    with pytest.raises(UnusedInputError):
        unigrad.grad(z, x, no_grad_vars=y, retain_graph=True)
    (g,) = unigrad.grad(z, x, no_grad_vars=[y], allow_unused=True, retain_graph=True)
    assert g is None
    (g,) = unigrad.grad(z, x, no_grad_vars=[y], materialize_grads=True)
    backend.close(g, 0.0)


@pytest.mark.parametrize("form", ["tensor", "list", "tuple", "set"])
def test_r11_a_cut_stops_flow_on_mixed_paths(backend, form):
    x = backend.leaf(2.0)
    y = x * x
    z = y * y + x
    cut = {"tensor": y, "list": [y], "tuple": (y,), "set": {y}}[form]
    (g,) = unigrad.grad(z, x, no_grad_vars=cut)
    backend.close(g, 1.0)


def test_r11_cutting_the_requested_input_makes_it_unused(backend):
    x = backend.leaf(2.0)
    h = x * x
    y = h * 3
    gh, gx = unigrad.grad(y, [h, x], no_grad_vars=[h], allow_unused=True)
    assert gh is None
    assert gx is None


def test_r11_a_cut_elsewhere_has_no_effect(backend):
    x, w = backend.leaf(2.0), backend.leaf(5.0)
    (g,) = unigrad.grad(x * 3, x, no_grad_vars=[w])
    backend.close(g, 3.0)


def test_r11_cuts_hold_under_create_graph(backend):
    x = backend.leaf(2.0)
    y = x * x
    z = y * x  # dz/dx with y cut = y = 4; d/dx of that (through y) = 2x = 4
    (g,) = unigrad.grad(z, x, no_grad_vars=[y], create_graph=True)
    backend.close(g, 4.0)
    (h,) = unigrad.grad(g, x)
    backend.close(h, 4.0)


def test_r11_no_grad_vars_must_be_tensors(backend):
    x = backend.leaf(2.0)
    with pytest.raises(BackendError):
        unigrad.grad(x * x, x, no_grad_vars=[3])


# --------------------------------------------------------- rule 12: is_grads_batched


def test_r12_batched_seeds_give_a_jacobian(backend):
    x = backend.leaf([1.0, 2.0, 3.0])
    (jac,) = unigrad.grad(x * x, x, backend.tensor(np.eye(3)), is_grads_batched=True)
    backend.close(jac, np.diag([2.0, 4.0, 6.0]))


def test_r12_batched_with_two_inputs(backend):
    x, w = backend.leaf([1.0, 2.0]), backend.leaf([3.0, 4.0])
    jx, jw = unigrad.grad(x * w, [x, w], backend.tensor(np.eye(2)), is_grads_batched=True)
    backend.close(jx, [[3.0, 0.0], [0.0, 4.0]])
    backend.close(jw, [[1.0, 0.0], [0.0, 2.0]])


def test_r12_batched_two_outputs_and_create_graph(backend):
    x = backend.leaf([1.0, 2.0])
    y1, y2 = x * x * x, x * 2
    seeds = [backend.tensor(np.eye(2)), backend.tensor(np.eye(2))]
    (jac,) = unigrad.grad([y1, y2], x, seeds, create_graph=True, is_grads_batched=True)
    backend.close(jac, np.diag([5.0, 14.0]))
    (h,) = unigrad.grad(jac, x)
    backend.close(h, [6.0, 12.0])  # J = diag(3x^2 + 2): d/dx of sum(J) = 6x


def test_r12_unbatched_seed_raises(backend):
    x = backend.leaf([1.0, 2.0, 3.0])
    with pytest.raises(GradOutputsError, match="is_grads_batched"):
        unigrad.grad(x * x, x, backend.ones(3), is_grads_batched=True)
    with pytest.raises(GradOutputsError, match="is_grads_batched"):
        unigrad.grad(x * x, x, None, is_grads_batched=True)


def test_r12_batch_sizes_must_agree(backend):
    x = backend.leaf([1.0, 2.0])
    seeds = [backend.ones((2, 2)), backend.ones((3, 2))]
    with pytest.raises(GradOutputsError, match="batch size"):
        unigrad.grad([x * x, x * 3], x, seeds, is_grads_batched=True)


def test_r12_batched_materialize_keeps_the_batch_dim(backend):
    x, z = backend.leaf([1.0, 2.0]), backend.leaf([[1.0, 1.0, 1.0]])
    _, gz = unigrad.grad(
        x * x, [x, z], backend.tensor(np.eye(2)), is_grads_batched=True, materialize_grads=True
    )
    assert backend.shape(gz) == (2, 1, 3)
    backend.close(gz, np.zeros((2, 1, 3)))


# ------------------------------------------------------------------ rule 13: results


def test_r13_result_is_a_tuple_with_input_shapes_and_dtypes(backend):
    x = backend.leaf(np.ones((2, 3)), "float64")
    w = backend.leaf(np.ones(3))
    y = (x * backend.tensor(np.ones(3), "float64")).sum() + (w * w).sum()
    gx, gw = unigrad.grad(y, [x, w])
    assert backend.shape(gx) == (2, 3)
    assert backend.dtype(gx) == "float64"
    assert backend.shape(gw) == (3,)
    assert backend.dtype(gw) == "float32"


def test_r13_grad_never_writes_dot_grad(backend):
    x = backend.leaf([1.0, 2.0])
    before = backend.np(x).copy()
    unigrad.grad(x * x, x)
    assert getattr(x, "grad", None) is None
    np.testing.assert_array_equal(backend.np(x), before)


def test_r13_backward_accumulates_into_leaves(backend):
    x = backend.leaf([1.0, 2.0])
    unigrad.backward(x * x, retain_graph=True)
    backend.close(x.grad, [2.0, 4.0])


def test_r13_backward_with_inputs_accumulates_only_there(backend):
    x, w = backend.leaf([1.0, 2.0]), backend.leaf([3.0, 4.0])
    unigrad.backward((x * w).sum(), inputs=[x])
    backend.close(x.grad, [3.0, 4.0])
    assert getattr(w, "grad", None) is None


def test_r13_backward_inputs_must_require_grad(backend):
    x, c = backend.leaf([1.0, 2.0]), backend.tensor([3.0, 4.0])
    with pytest.raises(UnusedInputError, match=r"inputs\[1\].*does not require grad"):
        unigrad.backward((x * c).sum(), inputs=[x, c])
    assert getattr(x, "grad", None) is None  # nothing was accumulated


def test_r13_gradient_of_an_intermediate_and_a_leaf(backend):
    x = backend.leaf(2.0)
    h = x * x
    gx, gh = unigrad.grad(3 * h, [x, h])
    backend.close(gx, 12.0)
    backend.close(gh, 3.0)


# ------------------------------------------------------------------ complex (§3.2)


def test_c1_real_loss_of_a_complex_input(backend):
    z = backend.leaf([1 + 2j], "complex64")
    (g,) = unigrad.grad(abs(z) ** 2, z)  # |z|^2: dL/dx + i dL/dy = 2x + 2iy
    backend.close(g, [2 + 4j])


def test_c2_real_part_of_a_product(backend):
    z = backend.leaf([1 + 2j], "complex64")
    w = backend.tensor([3 + 4j], "complex64")
    xp = unigrad.namespace(z)
    (g,) = unigrad.grad(xp.real(z * w), z)
    backend.close(g, [3 - 4j])


@pytest.mark.parametrize(("seed", "expected"), [(1.0, 2 - 4j), (1j, 4 + 2j)])
def test_c3_complex_output_with_a_seed_gives_seed_times_conj_derivative(backend, seed, expected):
    z = backend.leaf([1 + 2j], "complex64")
    (g,) = unigrad.grad(z * z, z, backend.tensor([seed], "complex64"))
    backend.close(g, [expected])


def test_c4_real_seed_for_a_complex_output_is_cast(backend):
    z = backend.leaf([1 + 2j], "complex64")
    (g,) = unigrad.grad(z * z, z, backend.ones(1))
    backend.close(g, [2 - 4j])


# ------------------------------------------------------------------- other backends


def test_mixing_two_frameworks_raises_listing_the_backends(backend):
    other = "paddle" if backend.name == "torch" else "torch"
    pytest.importorskip(other)
    x = backend.leaf(2.0)
    alien = unigrad.get_backend(other).asarray([1.0], "float32")
    with pytest.raises(BackendError, match="mixes two frameworks"):
        unigrad.grad(x * x, [x, alien])


def test_unknown_type_raises_listing_installed_backends(backend):
    x = backend.leaf(2.0)
    with pytest.raises(BackendError, match="installed backends") as info:
        unigrad.grad(x * x, [x, "not a tensor"])
    for name in unigrad.backends():
        assert name in str(info.value)
    assert isinstance(info.value, TypeError)


def test_backend_of_names_the_backend(backend):
    x = backend.leaf(1.0)
    assert unigrad.backend_of(x) == backend.name
    assert unigrad.backend_of([x, None, (x,)]) == backend.name


# ------------------------------------------------------- in-place changes and dtypes


@pytest.mark.skip_backend("jax", reason="jax arrays are immutable: nothing to modify")
@pytest.mark.skip_backend("numpy", reason="tape values are never modified in place")
@pytest.mark.skip_backend("tensorflow", reason="tf.Tensor values are immutable")
def test_inplace_change_of_a_saved_tensor_raises(backend):
    x = backend.leaf([1.0, 2.0])
    a = x * 1.0
    y = (a * a).sum()
    a.add_(1) if backend.name == "torch" else a.add_(backend.tensor(1.0))
    with pytest.raises(unigrad.InplaceModifiedError) as info:
        unigrad.grad(y, x)
    assert isinstance(info.value, RuntimeError)


@pytest.mark.parametrize("dtype", ["float16", "float64"])
def test_result_dtype_follows_the_input(backend, dtype):
    if dtype == "float16" and not backend.caps.float16_cpu:
        pytest.skip(f"{backend.name} has no float16 kernels on CPU (the forward fails)")
    x = backend.leaf([1.5, 2.5], dtype)
    (g,) = unigrad.grad((x * x).sum(), x)
    backend.close(g, [3.0, 5.0], rtol=1e-3)
    assert backend.dtype(g) == dtype


def test_cast_inside_the_graph_keeps_the_input_dtype(backend):
    x = backend.leaf([1.5, 2.0])
    xp = unigrad.namespace(x)
    y = xp.sum(xp.astype(x, xp.float64) ** 2)
    (g,) = unigrad.grad(y, x)
    assert backend.dtype(g) == "float32"
    backend.close(g, [3.0, 4.0])
