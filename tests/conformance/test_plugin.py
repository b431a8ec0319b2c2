"""The pytest plugin, run through ``pytester``; and its import cost."""

from __future__ import annotations

import contextlib
import importlib
import subprocess

import pytest
from conftest import PLUGIN_ARGS, PYTHON, ROOT, subprocess_env

from unigrad.conformance import CASES

pytest_plugins = ["pytester"]

# pytester's in-process runs restore sys.modules afterwards, dropping what they imported
# first; torch's C extension cannot be imported a second time in one process (a
# segfault), so it is imported here, before any run.
for _framework in ("torch",):
    with contextlib.suppress(ImportError):
        importlib.import_module(_framework)

_LOAD = PLUGIN_ARGS


def test_import_is_cheap():
    code = (
        "import sys, unigrad.conformance.pytest_plugin\n"
        "heavy = {'torch', 'paddle', 'jax', 'numpy', 'autograd'} & set(sys.modules)\n"
        "assert not heavy, heavy\n"
    )
    proc = subprocess.run(
        [PYTHON, "-c", code],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr


def test_does_nothing_without_the_option(pytester):
    pytester.makepyfile("def test_one():\n    pass\n")
    result = pytester.runpytest(*_LOAD)
    result.assert_outcomes(passed=1)
    assert not any("conformance suite" in line for line in result.outlines)


def test_runs_the_suite(pytester):
    pytest.importorskip("torch")
    result = pytester.runpytest(*_LOAD, "--unigrad-backend", "torch", "-k", "paddle.grad", "-v")
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(
        [
            "unigrad * conformance suite",
            "  backend torch: torch *",
            "*unigrad-conformance?torch?::paddle.grad/grad_outputs=?3,4? PASSED*",
        ]
    )


def test_xfails_option(pytester):
    pytest.importorskip("torch")
    xf = pytester.makefile(
        ".txt",
        xfails=(
            "torch::contract/flag-not-a-bool  # pretend it fails\n"
            "contract/never-was  # a stale line\n"
        ),
    )
    result = pytester.runpytest(
        *_LOAD,
        "--unigrad-backend",
        "torch",
        "--unigrad-xfails",
        str(xf),
        "-k",
        "flag-not-a-bool or tinygrad",
    )
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*XPASS(strict)*pretend it fails*",
            "*xfails line *xfails.txt:2: contract/never-was matches no case*",
        ]
    )


def test_unknown_backend_is_a_usage_error(pytester):
    result = pytester.runpytest(*_LOAD, "--unigrad-backend", "nonesuch")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "unknown backend(s) ['nonesuch']" in result.stderr.str()


def test_help_has_one_group(pytester):
    result = pytester.runpytest(*_LOAD, "--help")
    result.stdout.fnmatch_lines(
        [
            "unigrad conformance suite:",
            "  --unigrad-backend=NAME*",
            "  --unigrad-xfails=FILE*",
        ]
    )


def test_collects_only_the_suite_unless_paths_are_given(pytester):
    # From a project's root, `pytest --unigrad-backend torch` runs the suite, not the
    # project's tests (996 items from unigrad's own root); named paths add them back.
    pytest.importorskip("torch")
    pytester.makepyfile(test_project="def test_project():\n    pass\n")
    only = pytester.runpytest(*_LOAD, "--unigrad-backend", "torch", "--collect-only", "-q")
    assert "test_project.py::test_project" not in only.stdout.str()
    only.stdout.fnmatch_lines([f"{len(CASES)} tests collected*"])
    both = pytester.runpytest(
        *_LOAD, "--unigrad-backend", "torch", "-k", "tinygrad or test_project", "test_project.py"
    )
    both.assert_outcomes(passed=2)


def test_header_counts_with_k(pytester):
    pytest.importorskip("torch")
    result = pytester.runpytest(*_LOAD, "--unigrad-backend", "torch", "-k", "paddle.grad")
    n = len([c for c in CASES if "paddle.grad" in c.id])
    result.stdout.fnmatch_lines(
        [f"collected {len(CASES)} items / {len(CASES) - n} deselected / {n} selected"]
    )
    result.assert_outcomes(passed=n)
