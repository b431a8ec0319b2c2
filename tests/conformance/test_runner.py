"""The runner: statuses, comparisons, xfails, selection, on synthetic cases (torch)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

pytest.importorskip("torch")

import unigrad
from unigrad.conformance import CASES, Case, Kit, Status, load_xfails, run, run_case, select
from unigrad.conformance._runner import check


def _square(k: Kit):
    x = k.leaf([1.0, 2.0])
    return k.grad(x * x, x)


GOOD = Case("t/good", "test", _square, expected=([2.0, 4.0],))
WRONG = Case("t/wrong", "test", _square, expected=([2.0, 5.0],))
RAISES = Case(
    "t/raises", "test", lambda k: k.grad(None, k.leaf(1.0)), raises=unigrad.GradArgumentError
)
WRONG_ERROR = Case(
    "t/wrong-error", "test", lambda k: k.grad(None, k.leaf(1.0)), raises=unigrad.UnusedInputError
)
NO_ERROR = Case("t/no-error", "test", _square, raises=unigrad.UnusedInputError)
NEEDS = Case("t/needs", "test", _square, expected=([2.0, 4.0],), needs="float16_cpu")
NEEDS_OFF = dataclasses.replace(NEEDS, id="t/needs-off", needs="not_a_flag")
SYNTHETIC = [GOOD, WRONG, RAISES, WRONG_ERROR, NO_ERROR, NEEDS, NEEDS_OFF]


@pytest.fixture(scope="module")
def kit() -> Kit:
    return Kit(unigrad.get_backend("torch"))


def test_catalogue_is_large_and_unique():
    assert len(CASES) >= 60
    assert len({c.id for c in CASES}) == len(CASES)
    assert all(c.source for c in CASES)


@pytest.mark.parametrize(
    ("case", "status", "reason"),
    [
        (GOOD, Status.PASS, ""),
        (WRONG, Status.FAIL, "result[0]: expected [2. 5.], got [2. 4.]"),
        (RAISES, Status.PASS, ""),
        (WRONG_ERROR, Status.FAIL, "expected UnusedInputError, got GradArgumentError"),
        (NO_ERROR, Status.FAIL, "expected UnusedInputError, got no error"),
        (NEEDS, Status.PASS, ""),
        (NEEDS_OFF, Status.SKIP, "torch lacks capability not_a_flag"),
    ],
    ids=str,
)
def test_run_case(kit, case, status, reason):
    result = run_case(case, kit)
    assert result.status is status
    assert result.reason.startswith(reason)


def test_expected_warning_must_come(kit):
    def quiet(k: Kit):
        return 1.0

    case = Case("t/warn", "test", quiet, expected=1.0, warns=FutureWarning)
    assert run_case(case, kit).reason == "expected a FutureWarning, got warnings: none"


@pytest.mark.parametrize(
    ("value", "expected", "problem"),
    [
        (None, None, ""),
        (1.0, None, "r: expected None"),
        (None, 1.0, "r: expected 1.0, got None"),
        ("tuple", "tuple", ""),
        ((2, 3), (2, 3), ""),
        ((2, 3), (3, 2), "r: expected (3, 2), got (2, 3)"),
        ([1.0], (1.0, 2.0), "r: expected 2 entries, got 1"),
        (1 + 2j, 1 + 2j, ""),
        (1.0, 1 + 2j, "r: expected complex numbers"),
    ],
)
def test_check(kit, value, expected, problem):
    got = check(value, expected, kit, rtol=0, atol=0, where="r")
    assert got.startswith(problem) if problem else got == ""


def test_check_is_strict_about_shape(kit):
    assert check(kit.tensor([4.0]), 4.0, kit, rtol=0, atol=0) == (
        "result: expected shape (), got shape (1,)"
    )
    assert check(kit.tensor(4.0), 4.0, kit, rtol=0, atol=0) == ""


def test_case_needs_exactly_one_expectation():
    with pytest.raises(ValueError, match="exactly one of"):
        Case("t/x", "test", _square)
    with pytest.raises(ValueError, match="exactly one of"):
        Case("t/x", "test", _square, expected=1.0, raises=ValueError)
    with pytest.raises(ValueError, match="without whitespace"):
        Case("t x", "test", _square, expected=1.0)


def test_select():
    ids = [c.id for c in select(CASES, "paddle.grad/grad_outputs and not None")]
    assert ids == ["paddle.grad/grad_outputs=[3,4]"]
    assert len(select(CASES, "PADDLE.GRAD/create_graph or tinygrad")) == 3
    assert select(CASES, None) == list(CASES)


def test_xfails(tmp_path: Path):
    f = tmp_path / "x.txt"
    f.write_text(
        "# comment line\n\n"
        "t/wrong   # a known bug\n"
        "torch::t/good  # listed but passes\n"
        "paddle::t/wrong  # other backend, not run\n"
        "t/nothing-*  # stale\n"
    )
    entries = load_xfails(f)
    assert [(e.backend, e.pattern, e.reason) for e in entries] == [
        (None, "t/wrong", "a known bug"),
        ("torch", "t/good", "listed but passes"),
        ("paddle", "t/wrong", "other backend, not run"),
        (None, "t/nothing-*", "stale"),
    ]
    report = run([GOOD, WRONG], ["torch"], xfails=entries)
    assert report.result("t/wrong", "torch").status is Status.XFAIL
    assert "a known bug" in report.result("t/wrong", "torch").reason
    assert report.result("t/good", "torch").status is Status.XPASS
    assert [e.origin for e in report.unmatched_xfails] == [f"{f}:6"]
    assert not report.ok


def test_unavailable_backend_is_a_column_of_errors():
    seen = []
    report = run([GOOD], ["torch", "no-such-backend"], progress=lambda r, d, t: seen.append(d))
    assert seen == [1, 2]
    assert report.result("t/good", "torch").status is Status.PASS
    bad = report.result("t/good", "no-such-backend")
    assert bad.status is Status.ERROR
    assert bad.reason.startswith("backend unavailable: BackendError")
    assert not report.ok
    assert report.backends[0].versions["torch"]


def test_plain_numpy_results_are_read_without_the_numpy_backend(monkeypatch):
    # With .[paddle] or .[jax] alone, autograd is missing, so the numpy backend is
    # unavailable; a case that returns a plain NumPy array must still be compared.
    np = pytest.importorskip("numpy")
    from unigrad import _dispatch

    monkeypatch.setattr(_dispatch._REGISTRY["numpy"], "requires", ("numpy", "no_such_module"))
    monkeypatch.setattr(_dispatch, "_TYPE_CACHE", {})
    k = Kit(unigrad.get_backend("torch"))
    with pytest.raises(unigrad.BackendError):
        unigrad.to_numpy(np.ones(2))  # the numpy backend is unavailable indeed
    assert check(np.array([[1.0, 3.0]]), [[1.0, 3.0]], k, rtol=0, atol=0) == ""
    assert check(np.float64(2.0), 2.0, k, rtol=0, atol=0) == ""


def test_an_unreadable_result_says_why_on_one_line():
    k = Kit(unigrad.get_backend("torch"))
    problem = check(object(), [1.0], k, rtol=0, atol=0)
    assert problem.startswith("result: expected numbers, got object <object object at")
    assert "(unreadable: BackendError: " in problem
    assert "\n" not in problem
