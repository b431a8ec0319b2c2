"""nox sessions that mirror the CI workflow (.github/workflows/ci.yml).

    nox -l                                  # list the sessions
    nox -s "tests(backend='torch')"         # one cell of the test matrix, every Python found
    nox -s "tests-3.11(backend='paddle')"   # one cell, one Python
    nox -s conformance lint typecheck docs

Every install goes through ``constraints/ci.txt``. torch comes from the CPU-only index
(``UNIGRAD_TORCH_INDEX`` overrides it; set it to an empty string to use pip's own
configuration, e.g. a local find-links directory that holds the CPU wheel).
"""

from __future__ import annotations

import os

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = False

PYTHONS = ["3.10", "3.11", "3.12", "3.13"]
BACKENDS = ["torch", "paddle", "jax", "numpy"]
CONSTRAINTS = ("-c", "constraints/ci.txt")
TORCH_INDEX = os.environ.get("UNIGRAD_TORCH_INDEX", "https://download.pytorch.org/whl/cpu")
WORKFLOW = ".github/workflows/ci.yml"


def _install(session: nox.Session, extras: str, backend: str | None = None) -> None:
    """Install unigrad (editable) with ``extras``; torch first, CPU-only, if it is needed."""
    if backend == "torch":
        index = ("--index-url", TORCH_INDEX) if TORCH_INDEX else ()
        session.install(*CONSTRAINTS, "torch", *index)
    session.install(*CONSTRAINTS, "-e", f".[{extras}]")


@nox.session(python=PYTHONS)
@nox.parametrize("backend", BACKENDS)
def tests(session: nox.Session, backend: str) -> None:
    """The test suite with one framework installed."""
    _install(session, f"{backend},test", backend)
    report = f"--junitxml=reports/pytest-{backend}-py{session.python}.xml"
    session.run("python", "-m", "pytest", "--long", report, *session.posargs)


@nox.session(python=PYTHONS)
@nox.parametrize("backend", BACKENDS)
def conformance(session: nox.Session, backend: str) -> None:
    """The conformance suite for one backend, with its JUnit report in reports/."""
    _install(session, backend, backend)
    report = f"reports/conformance-{backend}-py{session.python}.xml"
    session.run(
        "python",
        "-m",
        "unigrad.conformance",
        "--backend",
        backend,
        "--format",
        "junit",
        "--output",
        report,
        *session.posargs,
    )


@nox.session(python="3.11")
def lint(session: nox.Session) -> None:
    """ruff (lint and format), and the workflow: its schema and a zizmor audit."""
    _install(session, "lint")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("check-jsonschema", "--builtin-schema", "vendor.github-workflows", WORKFLOW)
    session.run("zizmor", "--offline", "--persona", "pedantic", WORKFLOW)


@nox.session(python="3.11")
def typecheck(session: nox.Session) -> None:
    """mypy, strict on unigrad/ (the configuration is in pyproject.toml)."""
    _install(session, "lint")
    session.run("mypy", *session.posargs)


@nox.session(python="3.11")
def docs(session: nox.Session) -> None:
    """The documentation site (warnings are errors), then checks over its HTML."""
    _install(session, "docs,test")
    session.run("mkdocs", "build", "--strict", "--site-dir", "site", *session.posargs)
    session.run(
        "python", "-m", "pytest", "--long", "tests/test_site.py", env={"UNIGRAD_SITE_DIR": "site"}
    )


@nox.session(python="3.11")
def differential(session: nox.Session) -> None:
    """The long differential run: 20 000 random programs (or ``-- N SEED``) on every
    backend against the float64 reference (on jax also as one ``unigrad.jit`` step),
    reported as JUnit in reports/."""
    _install(session, "all,test", "torch")
    defaults = ["20000", "1"]
    n, seed = [*session.posargs, *defaults[len(session.posargs) :]][:2]
    session.run(
        "python",
        "-m",
        "unigrad.conformance",
        "--differential",
        n,
        "--seed",
        seed,
        "--jit",
        "--format",
        "junit",
        "--output",
        f"reports/differential-{n}-seed{seed}.xml",
    )
