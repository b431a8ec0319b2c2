"""A third-party backend, registered through the ``unigrad.backends`` entry-point group,
certifies itself with the conformance suite (CLI and pytest plugin)."""

from __future__ import annotations

import json
import subprocess

import pytest

pytest.importorskip("torch")

from conftest import HERE, PLUGIN_ARGS, PYTHON, ROOT, subprocess_env

from unigrad.conformance import CASES


def test_suite_on_an_entry_point_backend(boxed_path):
    proc = subprocess.run(
        [
            PYTHON,
            "-m",
            "unigrad.conformance",
            "-q",
            "--backend",
            "boxed",
            "--format",
            "json",
            "--xfails",
            str(HERE / "boxed-xfails.txt"),
        ],
        capture_output=True,
        text=True,
        env=subprocess_env(boxed_path),
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    data = json.loads(proc.stdout)
    assert data["backends"] == [
        {
            "name": "boxed",
            "versions": data["backends"][0]["versions"],
            "available": True,
            "error": "",
        }
    ]
    assert data["backends"][0]["versions"]["boxed"] == "0.1"
    statuses = {c["id"]: c["results"]["boxed"]["status"] for c in data["cases"]}
    assert len(statuses) == len(CASES)
    skipped = sorted(k for k, v in statuses.items() if v == "skip")
    functional = {c.id for c in CASES if c.needs == "functional"}
    assert set(skipped) == functional, "a plug-in without unigrad.functional skips those"
    assert set(statuses.values()) == {"pass", "skip"}


def test_backend_is_listed_and_dispatched(boxed_path):
    code = (
        "import unigrad\n"
        "from boxed_backend import Boxed, boxed\n"
        "assert 'boxed' in unigrad.backends(), unigrad.backends()\n"
        "x = unigrad.watch(boxed([1.0, 2.0]))\n"
        "(g,) = unigrad.grad(x * x, x)\n"
        "assert type(g) is Boxed and unigrad.backend_of(g) == 'boxed'\n"
        "print(unigrad.to_numpy(g).tolist())\n"
    )
    proc = subprocess.run(
        [PYTHON, "-c", code],
        capture_output=True,
        text=True,
        env=subprocess_env(boxed_path),
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[2.0, 4.0]"


def test_functional_api_says_the_plug_in_lacks_it(boxed_path):
    code = (
        "import unigrad, unigrad.functional as F\n"
        "from boxed_backend import boxed\n"
        "try:\n"
        "    F.vjp(lambda t: t * t, boxed([1.0, 2.0]))\n"
        "except unigrad.UnsupportedFeatureError as err:\n"
        "    print('capability' in str(err) and 'boxed' in str(err))\n"
    )
    proc = subprocess.run(
        [PYTHON, "-c", code],
        capture_output=True,
        text=True,
        env=subprocess_env(boxed_path),
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True"


def test_pytest_plugin_on_an_entry_point_backend(boxed_path):
    (boxed_path / "pytest.ini").write_text("[pytest]\n")
    proc = subprocess.run(
        [
            PYTHON,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "--unigrad-backend",
            "boxed",
            "--unigrad-xfails",
            str(HERE / "boxed-xfails.txt"),
            "-k",
            "paddle.grad or no_grad_vars or functional",
            *PLUGIN_ARGS,
            "-c",
            str(boxed_path / "pytest.ini"),
        ],
        capture_output=True,
        text=True,
        env=subprocess_env(boxed_path),
        cwd=boxed_path,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:]
    # 11 grad cases pass; the functional cases are skipped for want of the capability
    assert "11 passed" in proc.stdout, proc.stdout[-1000:]
    assert "skipped" in proc.stdout, proc.stdout[-1000:]
