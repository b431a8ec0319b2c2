"""`unigrad.integrations.deepxde` against DeepXDE's own gradient layer.

DeepXDE picks its backend when imported, so each backend runs in its own subprocess
(``_deepxde_worker.py``, once per backend and mode; the results are shared by the tests
through a cache). The example PDEs are written in the worker after DeepXDE's
``examples/pinn_forward/`` files. Skipped where DeepXDE is not installed (the
``deepxde`` extra); the subprocess tests are long (``--long``; ``.ci/run`` runs them in
its DeepXDE step).

Tolerances: on pytorch and paddle the integration calls the framework exactly as DeepXDE
does, so residuals, losses, parameter gradients and loss histories are compared bitwise.
On tensorflow (``DDE_BACKEND=tensorflow``, ``TF_USE_LEGACY_KERAS=1``) residuals and
losses are DeepXDE's (bitwise on nine of ten examples), the parameter gradients float32
rounding apart (nested ``GradientTape`` against ``tf.gradients``): stated tolerances.
On jax DeepXDE differentiates per point (``vmap(grad)``) and the tape the whole batch,
so results agree to float32 rounding: the trainings' bound is measured in the test
(DeepXDE's own forward mode against its own reverse mode), the one-step checks use
stated float32 tolerances.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

WORKER = Path(__file__).with_name("_deepxde_worker.py")
ROOT = Path(__file__).resolve().parents[2]

#: Examples whose residual uses y as an array or whose boundary conditions take
#: derivatives: DeepXDE's own jax layer cannot run them (it passes (values, fn) pairs).
ARRAYS = ("burgers", "allen_cahn", "wave", "euler_beam")
#: Examples DeepXDE's own layer runs on every backend.
PAIRS = ("poisson", "diffusion", "helmholtz", "klein_gordon", "kovasznay", "lotka_volterra")
#: The trainings: two DeepXDE's jax layer runs (they measure its forward-vs-reverse
#: noise), three it cannot.
TRAIN = ("diffusion", "lotka_volterra", "burgers", "allen_cahn", "euler_beam")
BACKENDS = {
    "pytorch": ("torch",),
    "paddle": ("paddle",),
    "jax": ("flax",),
    # DeepXDE's tensorflow backend imports tensorflow_probability, which needs Keras 2
    "tensorflow": ("tensorflow", "tensorflow_probability", "tf_keras"),
}

needs_deepxde = pytest.mark.skipif(
    importlib.util.find_spec("deepxde") is None, reason="deepxde is not installed"
)


def _framework(backend: str, *marks: Any) -> Any:
    """The backend as a pytest param, skipped where its framework is not installed."""
    absent = [m for m in BACKENDS[backend] if importlib.util.find_spec(m) is None]
    missing = pytest.mark.skipif(bool(absent), reason=f"{', '.join(absent)} missing")
    return pytest.param(backend, marks=[missing, *marks])


@functools.cache
def run(backend: str, mode: str, *args: str) -> dict[str, Any]:
    """The worker's results for one backend (one subprocess per call, cached)."""
    env = dict(os.environ, DDE_BACKEND=backend)
    if backend == "tensorflow":
        env["TF_USE_LEGACY_KERAS"] = "1"  # tf.keras as Keras 2 (tf_keras), as DeepXDE needs
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    proc = subprocess.run(
        [sys.executable, str(WORKER), mode, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    assert lines, proc.stdout[-2000:]
    result: dict[str, Any] = json.loads(lines[-1][len("RESULT ") :])["result"]
    return result


def _rel(a: Any, b: Any) -> float:
    """Largest difference of two nested lists, relative to ``b``'s largest magnitude."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), 1e-30))


def _rel_each(a: list[Any], b: list[Any]) -> float:
    return max(_rel(x, y) for x, y in zip(a, b, strict=True))


def test_import_loads_nothing() -> None:
    """Importing the integration imports neither DeepXDE nor a framework."""
    code = (
        "import sys, unigrad.integrations.deepxde as m\n"
        "heavy = {'deepxde', 'torch', 'paddle', 'jax', 'numpy', 'autograd'}\n"
        "print(sorted(heavy & set(sys.modules)))"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


@needs_deepxde
@pytest.mark.parametrize(
    "backend",
    [
        _framework("pytorch"),
        _framework("paddle", pytest.mark.long),
        _framework("jax", pytest.mark.long),
        _framework("tensorflow", pytest.mark.long),
    ],
)
def test_install_caching_and_conventions(backend: str) -> None:
    """install / installed / uninstall swap dde.grad's functions; a Jacobian entry and a
    Hessian entry are computed once per (ys, xs) pair; DeepXDE's index rules raise
    DeepXDE's errors with its messages (on jax through `array_style`, as residuals get
    them)."""
    result = run(backend, "api")
    assert result["installed"]
    assert result["restored"]
    assert result["not_installed"]
    assert result["same"]
    assert result["same_hessian"]
    assert result["errors"] == [
        "ValueError: i=2 is not valid.",
        "ValueError: i and j cannot be both None.",
        "NotImplementedError: Reverse-mode autodiff doesn't support computing a column.",
        "ValueError: The component of ys=2 cannot be larger than the dimension=2.",
    ]


@needs_deepxde
@pytest.mark.long
@pytest.mark.parametrize("backend", [_framework("pytorch"), _framework("paddle")])
def test_examples_bitwise(backend: str) -> None:
    """Ten examples: residuals on test points, losses and parameter gradients equal
    DeepXDE's own layer's bit for bit."""
    result = run(backend, "check")
    assert sorted(result) == sorted(PAIRS + ARRAYS)
    for name, res in result.items():
        for key in ("residual", "losses", "grads"):
            assert res["unigrad"][key] == res["own"][key], (name, key)


@needs_deepxde
@pytest.mark.long
@pytest.mark.parametrize("backend", [_framework("jax")])
def test_examples_jax(backend: str) -> None:
    """jax: the examples DeepXDE's own layer runs agree with it to float32 rounding; the
    ones it cannot run (y as an array, derivatives in boundary conditions) raise there
    and, through the integration, agree with DeepXDE's own layer on pytorch from the
    same weights."""
    result = run(backend, "check")
    torch_result = run("pytorch", "check")
    for name in PAIRS:
        own, ug = result[name]["own"], result[name]["unigrad"]
        assert _rel_each(ug["residual"], own["residual"]) < 1e-6, name
        assert _rel(ug["losses"], own["losses"]) < 1e-6, name
        # per point (vmap of grad) vs one batched VJP: float32 rounding (measured 3.8e-7)
        assert _rel_each(ug["grads"], own["grads"]) < 2e-6, name
    for name in ARRAYS:
        assert result[name]["own"].startswith("TypeError"), (name, result[name]["own"])
        ug, ref = result[name]["unigrad"], torch_result[name]["own"]
        # jax against torch: float32 rounding of two frameworks (measured up to 3.2e-5
        # on the gradients, 1.1e-6 on residuals)
        assert _rel_each(ug["residual"], ref["residual"]) < 1e-5, name
        assert _rel(ug["losses"], ref["losses"]) < 1e-5, name
        assert _rel_each(ug["grads"], ref["grads"]) < 1e-4, name


@needs_deepxde
@pytest.mark.long
@pytest.mark.parametrize("backend", [_framework("tensorflow")])
def test_examples_tensorflow(backend: str) -> None:
    """tensorflow: the ten examples run inside DeepXDE's own ``tf.function`` traces
    through the integration and agree with DeepXDE's own layer (``tf.gradients``) to
    float32 rounding: the parameter gradients pass through TensorFlow's nested
    ``GradientTape`` of the recorded network where DeepXDE's pass through
    ``tf.gradients`` of its graph, the same ops summed in another order (measured:
    losses equal on all ten, residuals equal on nine and 3e-8 apart on Allen-Cahn,
    gradients 2e-7 to 7e-7)."""
    result = run(backend, "check")
    assert sorted(result) == sorted(PAIRS + ARRAYS)
    for name, res in result.items():
        own, ug = res["own"], res["unigrad"]
        assert _rel_each(ug["residual"], own["residual"]) < 1e-6, name
        assert _rel(ug["losses"], own["losses"]) < 1e-6, name
        assert _rel_each(ug["grads"], own["grads"]) < 2e-6, name


@needs_deepxde
@pytest.mark.long
@pytest.mark.parametrize("backend", [_framework("pytorch"), _framework("paddle")])
def test_training_bitwise(backend: str) -> None:
    """200 Adam iterations, fixed seed: the loss histories equal DeepXDE's own."""
    result = run(backend, "train", *TRAIN)
    for name in TRAIN:
        own, ug = result[name]["own"]["loss"], result[name]["unigrad"]["loss"]
        assert len(own) == 21, name
        assert ug == own, name


@needs_deepxde
@pytest.mark.long
@pytest.mark.parametrize("backend", [_framework("tensorflow")])
def test_training_tensorflow(backend: str) -> None:
    """tensorflow: 200 Adam iterations inside DeepXDE's ``tf.function`` training step;
    the loss histories follow DeepXDE's own to float32 rounding carried through the
    training (each step's parameter gradients differ by rounding, see
    `test_examples_tensorflow`; measured: 1.4e-7 to 1.5e-6 relative per loss term),
    and every example trains."""
    result = run(backend, "train", *TRAIN)
    for name in TRAIN:
        own, ug = result[name]["own"]["loss"], result[name]["unigrad"]["loss"]
        assert len(own) == len(ug) == 21, name
        dev = max(_rel(u, o) for u, o in zip(np.asarray(ug).T, np.asarray(own).T, strict=True))
        assert dev < 1e-5, (name, dev)
        total = np.asarray(ug, np.float64).sum(axis=1)
        assert total[-1] < 0.9 * total[0], name  # it trains


@needs_deepxde
@pytest.mark.long
@pytest.mark.parametrize("backend", [_framework("jax")])
def test_training_jax(backend: str) -> None:
    """jax: the integration's loss histories are within the noise DeepXDE's own forward
    and reverse modes show against each other (measured here), and the three examples
    DeepXDE's jax layer cannot run train to the pytorch run's losses within the noise
    DeepXDE's own jax and pytorch runs show against each other (measured here)."""
    result = run(backend, "train", *TRAIN, "modes=own,unigrad,own-forward")
    torch_result = run("pytorch", "train", *TRAIN)
    pairs = [n for n in TRAIN if n not in ARRAYS]
    noise = max(
        _rel_each(result[n]["own-forward"]["loss"], result[n]["own"]["loss"]) for n in pairs
    )
    assert 0 < noise < 1e-4, noise  # DeepXDE's two modes differ by rounding only

    def total(history: list[list[float]]) -> np.ndarray:
        return np.asarray(history, np.float64).sum(axis=1)

    frameworks = max(
        _rel(total(result[n]["own"]["loss"]), total(torch_result[n]["own"]["loss"])) for n in pairs
    )
    assert 0 < frameworks < 1e-3, frameworks
    for name in pairs:
        dev = _rel_each(result[name]["unigrad"]["loss"], result[name]["own"]["loss"])
        assert dev <= 4 * noise, (name, dev, noise)
    for name in ARRAYS:
        if name not in TRAIN:
            continue
        assert "own" not in result[name]  # DeepXDE's jax layer cannot run it
        ug = total(result[name]["unigrad"]["loss"])
        dev = _rel(ug, total(torch_result[name]["own"]["loss"]))
        assert dev <= 4 * frameworks, (name, dev, frameworks)
        assert ug[-1] < 0.9 * ug[0], name  # it trains


@needs_deepxde
@pytest.mark.long
@pytest.mark.parametrize("backend", [_framework("paddle")])
def test_forward_mode_on_paddle(backend: str) -> None:
    """DeepXDE's forward mode raises NotImplementedError on paddle; through the
    integration it runs there and agrees with DeepXDE's own forward mode on pytorch."""
    result = run(backend, "forward", *PAIRS)
    ref = run("pytorch", "forward", *PAIRS)
    for name in PAIRS:
        assert result[name]["own"].startswith("NotImplementedError"), name
        ug, own = result[name]["unigrad"], ref[name]["own"]
        # paddle against torch: float32 rounding of two frameworks (measured <= 5.1e-6)
        assert _rel_each(ug["residual"], own["residual"]) < 2e-5, name
        assert _rel(ug["losses"], own["losses"]) < 2e-5, name
        assert _rel_each(ug["grads"], own["grads"]) < 2e-5, name
        # and on pytorch itself, the integration's forward mode gives DeepXDE's residuals
        assert ref[name]["unigrad"]["residual"] == own["residual"], name


@needs_deepxde
@pytest.mark.long
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch missing")
def test_benchmark_quick_prints_its_table() -> None:
    """benchmarks/deepxde_bench.py at a tiny size prints one row per example (no
    timing is asserted)."""
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "deepxde_bench.py"),
            "--backends=pytorch",
            "--examples=poisson,burgers",
            "--iterations=2",
            "--rounds=1",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    for name in ("poisson", "burgers"):
        row = rf"^\| pytorch \| {name} \| [\d.]+ \| [\d.]+ \| [\d.]+x \|$"
        assert re.search(row, proc.stdout, re.MULTILINE), proc.stdout


@needs_deepxde
@pytest.mark.long
@pytest.mark.parametrize("backend", [_framework("tensorflow")])
def test_forward_mode_on_tensorflow(backend: str) -> None:
    """tensorflow, forward mode: the integration's columns (a VJP of a VJP, the seed a
    watched leaf of DeepXDE's graph) agree with DeepXDE's ``ForwardAccumulator`` inside
    DeepXDE's ``tf.function``: residuals and losses to 1e-6, parameter gradients to 2e-6
    (float32 rounding, two differentiation orders; measured: residuals and losses
    equal, gradients 8e-8 to 1.6e-7 apart). Before the seed was watched as an array,
    ``unigrad.watch`` of the tape's constant seed left it a constant: UnusedInputError."""
    result = run(backend, "forward", *PAIRS)
    for name in PAIRS:
        own, ug = result[name]["own"], result[name]["unigrad"]
        assert _rel_each(ug["residual"], own["residual"]) < 1e-6, name
        assert _rel(ug["losses"], own["losses"]) < 1e-6, name
        assert _rel_each(ug["grads"], own["grads"]) < 2e-6, name
