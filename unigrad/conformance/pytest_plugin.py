"""The pytest plugin of unigrad (entry point ``pytest11``): ``pytest --unigrad-backend NAME``.

Loaded in every pytest run once unigrad is installed, so it is cheap: importing it
imports no framework, and it does nothing unless ``--unigrad-backend`` is given. Then
every conformance case becomes a test item per backend (``unigrad-conformance[torch]::
paddle.grad/grad_outputs=[3,4]``), the report header shows the backends and their
framework versions, and ``--unigrad-xfails FILE`` marks listed cases as strict
expected failures; a line of that file matching no case is a failing item.

With ``--unigrad-backend``, pytest collects only the conformance cases, unless paths are
named on the command line: ``pytest --unigrad-backend torch`` in a project runs the
suite alone (not the project's ``testpaths``), ``pytest --unigrad-backend torch tests/``
runs both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from ._case import Case
    from ._kit import Kit
    from ._runner import XfailEntry

__all__ = [
    "BACKEND_OPTION",
    "DIFFERENTIAL_OPTION",
    "DIFFERENTIAL_SEED_OPTION",
    "GROUP",
    "XFAILS_OPTION",
]

#: Runs the suite on this backend (repeatable).
BACKEND_OPTION = "--unigrad-backend"
#: An xfails file (repeatable): ``[backend::]case-id`` per line, ``#`` comments.
XFAILS_OPTION = "--unigrad-xfails"
#: The option group in ``pytest --help``.
GROUP = "unigrad"

#: Also certify each backend on N random programs against the float64 reference.
DIFFERENTIAL_OPTION = "--unigrad-differential"
#: The Hypothesis seed of those programs.
DIFFERENTIAL_SEED_OPTION = "--unigrad-differential-seed"

_BACKENDS_DEST = "unigrad_backends"
_XFAILS_KEY = pytest.StashKey["list[XfailEntry]"]()
_XFAILS_DEST = "unigrad_xfails"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup(GROUP, "unigrad conformance suite")
    group.addoption(
        BACKEND_OPTION,
        action="append",
        dest=_BACKENDS_DEST,
        default=[],
        metavar="NAME",
        help="run unigrad's conformance suite on this backend (repeatable)",
    )
    group.addoption(
        XFAILS_OPTION,
        action="append",
        dest=_XFAILS_DEST,
        default=[],
        metavar="FILE",
        help="expected failures of the conformance suite: [backend::]case-id per line",
    )
    group.addoption(
        DIFFERENTIAL_OPTION,
        type=int,
        default=0,
        metavar="N",
        help="with --unigrad-backend: also run N random programs on each backend against "
        "the float64 reference (one test item per backend)",
    )
    group.addoption(
        DIFFERENTIAL_SEED_OPTION,
        type=int,
        default=0,
        metavar="S",
        help="the Hypothesis seed of --unigrad-differential (default 0)",
    )


def _backends(config: pytest.Config) -> list[str]:
    names: list[str] = config.getoption(_BACKENDS_DEST) or []
    return list(dict.fromkeys(names))


def pytest_configure(config: pytest.Config) -> None:
    names = _backends(config)
    if not names:
        return
    config.addinivalue_line("markers", "unigrad_conformance: a unigrad conformance case")
    config.pluginmanager.register(_UnmatchedXfails(), "unigrad-unmatched-xfails")
    from .._dispatch import backends

    unknown = [n for n in names if n not in backends()]
    if unknown:
        msg = (
            f"{BACKEND_OPTION}: unknown backend(s) {unknown}: expected one of "
            f"{list(backends())} (install the framework, or register a backend under "
            f"the entry-point group 'unigrad.backends')"
        )
        raise pytest.UsageError(msg)
    if config.getoption(DIFFERENTIAL_OPTION):
        from .cli import differential_requirements

        missing = differential_requirements()
        if missing:
            msg = f"{DIFFERENTIAL_OPTION} {missing}"
            raise pytest.UsageError(msg)


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    names = _backends(config)
    if not names:
        return None
    from .. import __version__
    from ._runner import load_backends

    lines = [f"unigrad {__version__} conformance suite"]
    for name, (_, info) in zip(names, load_backends(names), strict=True):
        what = ", ".join(f"{k} {v}" for k, v in info.versions.items()) or info.error
        lines.append(f"  backend {name}: {what}")
    return lines


def pytest_ignore_collect(collection_path: Any, config: pytest.Config) -> bool | None:
    """With ``--unigrad-backend`` and no path on the command line, collect no files."""
    if _backends(config) and config.args_source is not pytest.Config.ArgsSource.ARGS:
        return True
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    # tryfirst: the items exist before -k and -m deselect.
    names = _backends(config)
    if not names:
        return
    from ._runner import load_xfails

    xfails: list[XfailEntry] = []
    for path in config.getoption(_XFAILS_DEST) or []:
        try:
            xfails.extend(load_xfails(path))
        except OSError as err:
            msg = f"{XFAILS_OPTION}: cannot read {path}: {err}"
            raise pytest.UsageError(msg) from err
    for name in names:
        suite = ConformanceSuite.from_parent(
            session, name=f"unigrad-conformance[{name}]", nodeid=f"unigrad-conformance[{name}]"
        )
        suite.backend_name = name
        suite.xfails = xfails
        # genitems reports the collection, so the header's counts include the cases.
        items.extend(session.genitems(suite))
        n = int(config.getoption("unigrad_differential") or 0)
        if n > 0:
            seed = int(config.getoption("unigrad_differential_seed") or 0)
            items.append(
                DifferentialItem.from_parent(
                    suite, name=f"differential[{n},seed={seed}]", n=n, seed=seed
                )
            )
    config.stash[_XFAILS_KEY] = xfails


class _UnmatchedXfails:
    """Registered while the suite runs: adds an item per stale xfails line, last."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        # trylast: after -k/-m deselection, so a stale xfails line is never deselected.
        _add_unmatched_xfails(session, config, items)


def _add_unmatched_xfails(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    names = _backends(config)
    from .cases import CASES

    for entry in config.stash.get(_XFAILS_KEY, []):
        if (entry.backend is None or entry.backend in names) and not any(
            entry.matches(c.id, b) for c in CASES for b in names
        ):
            items.append(
                UnmatchedXfail.from_parent(
                    session,
                    name=f"xfails:{entry.origin}",
                    nodeid=f"unigrad-xfails::{entry.origin}",
                    entry=entry,
                )
            )


class ConformanceSuite(pytest.Collector):
    """The cases on one backend."""

    backend_name: str = ""
    xfails: list[XfailEntry]
    _kit: Kit | None = None
    _error: str = ""

    def kit(self) -> Kit:
        if self._kit is None and not self._error:
            from ._kit import Kit
            from ._runner import load_backend

            backend, info = load_backend(self.backend_name)
            if backend is None:
                self._error = info.error
            else:
                self._kit = Kit(backend)
        if self._kit is None:
            raise CaseFailure(self._error)
        return self._kit

    def collect(self) -> list[pytest.Item]:
        from .cases import CASES

        out: list[pytest.Item] = []
        for case in CASES:
            item = CaseItem.from_parent(self, name=case.id, case=case)
            item.add_marker("unigrad_conformance")
            entry = next((e for e in self.xfails if e.matches(case.id, self.backend_name)), None)
            if entry is not None:
                item.add_marker(
                    pytest.mark.xfail(reason=f"{entry.reason} ({entry.origin})", strict=True)
                )
            out.append(item)
        return out


class CaseFailure(Exception):
    """A case gave another result (or the backend did not load)."""


class CaseItem(pytest.Item):
    """One case on one backend."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        from ._runner import Status, run_case

        suite = self.parent
        if not isinstance(suite, ConformanceSuite):  # pragma: no cover - structural
            msg = "a conformance case outside its suite"
            raise TypeError(msg)
        result = run_case(self.case, suite.kit())
        if result.status is Status.SKIP:
            pytest.skip(result.reason)
        if result.status is not Status.PASS:
            detail = f"\n\n{result.detail}" if result.detail else ""
            msg = f"{result.reason}{detail}"
            raise CaseFailure(msg)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailure):
            return f"{self.case.id} ({self.case.source}):\n{excinfo.value}"
        return str(super().repr_failure(excinfo, style))

    def reportinfo(self) -> tuple[Any, int | None, str]:
        suite = self.parent
        name = suite.backend_name if isinstance(suite, ConformanceSuite) else "?"
        return self.path, None, f"unigrad conformance [{name}] {self.case.id}"


class UnmatchedXfail(pytest.Item):
    """An xfails line that matches no case: always fails, so it gets fixed."""

    def __init__(self, *, entry: XfailEntry, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entry = entry

    def runtest(self) -> None:
        scope = f"{self.entry.backend}::" if self.entry.backend else ""
        msg = f"xfails line {self.entry.origin}: {scope}{self.entry.pattern} matches no case"
        raise CaseFailure(msg)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        return str(excinfo.value)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"unigrad xfails {self.entry.origin}"


class DifferentialItem(pytest.Item):
    """N random programs on one backend against the reference (``--unigrad-differential``)."""

    def __init__(self, *, n: int, seed: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.n = n
        self.seed = seed

    def runtest(self) -> None:
        from .differential import certify

        suite = self.parent
        name = suite.backend_name if isinstance(suite, ConformanceSuite) else "?"
        summary = certify(self.n, self.seed, [name])
        real = summary.divergences
        if real:
            repros = "\n\n".join(d.repro() for d in real[:3])
            msg = f"{len(real)} of {summary.programs} programs diverge; the first:\n{repros}"
            raise CaseFailure(msg)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo, style))

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"unigrad differential {self.name}"
