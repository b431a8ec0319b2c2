"""Issue 28: `unigrad.checks`, strict mode (the default) and fast mode.

Fast mode skips the bookkeeping that only detects misuse (consumed graphs, the rule-14
refusal of outputs that depend on nothing, torch's detaching of constant ``create_graph``
results) and keeps every rule that decides a value; its guarantee, values, result types,
shapes and dtypes identical to strict mode whenever strict mode returns, is certified by
the differential tester in tests/test_differential.py
(``test_random_programs_give_the_same_values_in_fast_mode``). Here: the setting itself
(global, context manager, threads) and, on every backend, a misuse strict mode refuses
that fast mode may answer, beside the refusals that stay.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import unigrad
from unigrad import GradArgumentError, GraphFreedError, UnsupportedFeatureError


@pytest.fixture(autouse=True)
def _strict_after() -> object:
    yield
    unigrad.checks("strict")


def test_the_default_is_strict() -> None:
    assert unigrad.checks.level() == "strict"


def test_a_plain_call_sets_the_process_wide_level() -> None:
    unigrad.checks("fast")
    assert unigrad.checks.level() == "fast"
    seen: list[str] = []
    t = threading.Thread(target=lambda: seen.append(unigrad.checks.level()))
    t.start()
    t.join()
    assert seen == ["fast"]
    unigrad.checks("strict")
    assert unigrad.checks.level() == "strict"


def test_a_block_sets_this_thread_only_and_restores() -> None:
    inside = threading.Event()
    leave = threading.Event()
    seen: list[str] = []

    def other() -> None:
        inside.wait()
        seen.append(unigrad.checks.level())
        leave.set()

    t = threading.Thread(target=other)
    t.start()
    with unigrad.checks("fast"):
        assert unigrad.checks.level() == "fast"
        with unigrad.checks("strict"):
            assert unigrad.checks.level() == "strict"
        assert unigrad.checks.level() == "fast"
        inside.set()
        leave.wait()
    t.join()
    assert seen == ["strict"]  # the other thread kept the process-wide level
    assert unigrad.checks.level() == "strict"


def test_a_block_restores_the_level_after_an_error() -> None:
    with pytest.raises(KeyError), unigrad.checks("fast"):
        raise KeyError
    assert unigrad.checks.level() == "strict"


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(GradArgumentError, match=r"strict.*fast"):
        unigrad.checks("quick")  # type: ignore[arg-type]


def test_a_consumed_graph_refused_in_strict_mode_may_answer_in_fast_mode(backend) -> None:
    # rule 6b: a second pass through a graph consumed by retain_graph=False is a misuse
    # that strict mode refuses on every backend. In fast mode a framework that keeps its
    # graph answers with the graph's value (paddle), and one that frees it refuses
    # (torch, whose nodes saved their inputs here; the tapes, which release a consumed
    # node's values): never another number.
    xp = backend.xp
    x = backend.leaf([1.0, 2.0, 3.0], "float64")
    y = xp.sum(x * x)
    unigrad.grad(y, x)
    with pytest.raises(GraphFreedError):
        unigrad.grad(y, x)
    x = backend.leaf([1.0, 2.0, 3.0], "float64")
    with unigrad.checks("fast"):
        y = xp.sum(x * x)
        (g,) = unigrad.grad(y, x)
        backend.close(g, [2.0, 4.0, 6.0], rtol=0)
        try:
            (again,) = unigrad.grad(y, x)
        except GraphFreedError:
            assert backend.name != "paddle"  # paddle never frees its graph
        else:
            backend.close(again, [2.0, 4.0, 6.0], rtol=0)


def test_fast_mode_gives_the_values_of_strict_mode(backend) -> None:
    # a second-order step as a PINN writes it (x and y watched separately), both modes
    xp = backend.xp
    rng = np.random.default_rng(0)
    w = rng.normal(size=(2, 3))

    def step() -> list[np.ndarray]:
        x = backend.leaf([0.1, 0.5, -0.3], "float64")
        y = backend.leaf([0.7, -0.2, 0.4], "float64")
        ww = backend.leaf(w, "float64")
        u = xp.sum(xp.tanh(x * ww[0] + y * ww[1]))
        (ux,) = unigrad.grad(u, x, create_graph=True)
        (uy,) = unigrad.grad(u, y, create_graph=True)
        (uxx,) = unigrad.grad(xp.sum(ux), x, create_graph=True)
        (uyy,) = unigrad.grad(xp.sum(uy), y, create_graph=True)
        loss = xp.sum((uxx + uyy) ** 2)
        (gw,) = unigrad.grad(loss, ww)
        return [backend.np(t) for t in (ux, uxx, uyy, gw)]

    strict = step()
    with unigrad.checks("fast"):
        fast = step()
    again = step()
    # bitwise, against a strict run from the same cache state: on the jax tape a step's
    # first run and its later ones may round the last bits otherwise, in either mode
    # (docs/tape.md), so there against the second strict run only (as the differential
    # tester judges, `_certify.WARM_JUDGED`); elsewhere against both
    judges = [again] if backend.name == "jax" else [strict, again]
    for judge in judges:
        for s, f in zip(judge, fast, strict=True):
            assert s.dtype == f.dtype
            assert s.shape == f.shape
            np.testing.assert_array_equal(f, s)


def test_fast_mode_keeps_the_ambiguous_intermediate_refusal(backend) -> None:
    # rule 16g decides a value (which of two answers): it stays in fast mode
    xp = backend.xp
    with unigrad.checks("fast"):
        x = backend.leaf([0.5, 1.5], "float64")
        h = x * x
        (g,) = unigrad.grad(xp.sum(xp.sin(h)), x, create_graph=True)
        with pytest.raises(UnsupportedFeatureError):
            unigrad.grad(xp.sum(g), h)


def test_an_input_reached_only_through_a_cut_is_unused_in_both_modes(backend) -> None:
    # rule 14: sign's derivative is zero, so x is unused (None) in both modes (the walk
    # that finds it runs in fast mode too); w's gradient is the same in both
    xp = backend.xp
    results = {}
    for level in ("strict", "fast"):
        with unigrad.checks(level):
            x = backend.leaf([0.5, -2.0], "float64")
            w = backend.leaf([3.0, 4.0], "float64")
            results[level] = unigrad.grad(xp.sum(xp.sign(x) * w), [x, w], allow_unused=True)
    assert results["strict"][0] is None
    assert results["fast"][0] is None
    np.testing.assert_array_equal(backend.np(results["fast"][1]), backend.np(results["strict"][1]))
    np.testing.assert_array_equal(backend.np(results["strict"][1]), [1.0, -1.0])


def test_a_constant_create_graph_result_lets_a_later_cut_answer_in_both_modes(backend) -> None:
    # g = d(sum(c * 2x))/dx is a constant: strict mode returns it detached, and so does
    # fast mode (paddle kept its history and its call's record once, so the cut v,
    # between that call's input and output, was refused as ambiguous in fast mode
    # alone: differential seed 26, program 2954)
    xp = backend.xp
    got = {}
    for level in ("strict", "fast"):
        with unigrad.checks(level):
            x = backend.leaf([0.5, -2.0, 1.5], "float64")
            v = x * 2.0
            c = backend.tensor([1.0, 2.0, 3.0], "float64")
            (g,) = unigrad.grad(xp.sum(v * c), x, create_graph=True)
            w = backend.leaf([3.0, 4.0, 5.0], "float64")
            (gw,) = unigrad.grad(xp.sum(w * g), w, no_grad_vars=[v])
            got[level] = backend.np(gw)
    np.testing.assert_array_equal(got["strict"], [2.0, 4.0, 6.0])
    np.testing.assert_array_equal(got["fast"], got["strict"])


def test_an_input_a_create_graph_result_does_not_read_is_unused_in_both_modes(backend) -> None:
    # gw = d(where(s > b, s, b))/dw reads |z| alone, but paddle's shared double-grad node
    # of where has edges to b too: strict mode's structure pass prunes them, and so does
    # fast mode (a later pass reached b along them, met paddle's complex double-grad
    # kernel and raised HigherOrderUnavailableError in fast mode alone: differential
    # seed 26, program 8273)
    xp = backend.xp
    got = {}
    for level in ("strict", "fast"):
        with unigrad.checks(level):
            z = backend.leaf(
                [[0.29 - 0.67j, 0.65 + 0.59j], [0.93 + 1.39j, 0.77 - 0.93j]], "complex128"
            )
            w = backend.leaf([[0.69, 0.87], [-0.2, 1.37]], "float64")
            b = backend.leaf([0.64, 1.21], "float64")
            s = xp.sum(xp.abs(z) * w, axis=1)
            seed = backend.tensor([-0.48, 0.36], "float64")
            _, _, gw = unigrad.grad(xp.where(s > b, s, b), [b, z, w], seed, create_graph=True)
            c = backend.leaf([0.5j, 1.0], "complex128")
            got[level] = unigrad.grad(xp.sum(w - gw), [b, c], materialize_grads=True)
    for s_, f_ in zip(got["strict"], got["fast"], strict=True):
        np.testing.assert_array_equal(backend.np(s_), 0.0)
        np.testing.assert_array_equal(backend.np(f_), backend.np(s_))


def test_a_graph_consumed_in_strict_mode_answers_a_fast_mode_pass_on_paddle(backend) -> None:
    # rule 6b in fast mode: a graph a strict-mode call consumed is passed through again
    # in fast mode. paddle, which never frees, answers its graph's value (its consumed
    # nodes no longer raise in a fast pass, and fast mode walks nothing to decide
    # which would); the others free it or release its values and refuse
    xp = backend.xp
    x = backend.leaf([1.0, 2.0, 3.0], "float64")
    y = xp.sum(x * x)
    unigrad.grad(y, x)
    with unigrad.checks("fast"):
        try:
            (again,) = unigrad.grad(y, x)
        except GraphFreedError:
            assert backend.name != "paddle"
        else:
            assert backend.name == "paddle"
            backend.close(again, [2.0, 4.0, 6.0], rtol=0)
