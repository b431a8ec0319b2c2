"""What a training loop may feed ``grad``: one answer on every backend, or a clear error.

Each test here is a row of docs/semantics.md ("Inputs a training loop produces"). The
module also runs itself under ``python -O`` (the checks are real code, not asserts).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import unigrad

ROOT = Path(__file__).resolve().parent.parent


def _has(mod: str) -> bool:
    return importlib.util.find_spec(mod) is not None


# ---- None entries, empty batches, numbers and models ----------------------------------
@pytest.mark.parametrize("where", ["inputs", "outputs", "no_grad_vars"])
def test_none_inside_inputs_outputs_or_no_grad_vars_raises(backend, where):
    x = backend.leaf([1.0, 2.0])
    y = (x * x).sum()
    args: dict[str, Any] = {"outputs": [y], "inputs": [x]}
    args[where] = [*args.get(where, []), None]
    with pytest.raises(unigrad.GradArgumentError, match=rf"{where}\[\d\] is None") as info:
        unigrad.grad(args["outputs"], args["inputs"], no_grad_vars=args.get("no_grad_vars"))
    # torch raises RuntimeError for a None input, AssertionError for a None output
    assert isinstance(info.value, (RuntimeError, AssertionError, TypeError))
    assert "expected a tensor in every position" in str(info.value)


def test_an_empty_batch_gives_an_empty_batch_of_gradients(backend):
    x = backend.leaf([1.0, 2.0])
    y = x * x
    (g,) = unigrad.grad(y, x, backend.zeros((0, 2)), is_grads_batched=True)
    assert backend.shape(g) == (0, 2)
    assert backend.dtype(g) == "float32"
    # nothing ran, so nothing was consumed: the graph is still usable
    (g1,) = unigrad.grad(y, x)
    backend.close(g1, [2.0, 4.0])


def test_watch_of_a_python_number_names_the_argument():
    with pytest.raises(unigrad.BackendError, match=r"^`x` has type builtins\.float") as info:
        unigrad.watch(2.0)
    assert "Make it a tensor of your framework first" in str(info.value)
    assert isinstance(info.value, TypeError)


@pytest.mark.skipif(not _has("torch"), reason="needs torch")
def test_a_model_as_inputs_says_pass_its_parameters():
    import torch

    model = torch.nn.Linear(2, 1)
    loss = model(torch.ones(2)).sum()
    with pytest.raises(unigrad.BackendError, match=r"is a model .*list\(model\.parameters\(\)\)"):
        unigrad.grad(loss, model)
    grads = unigrad.grad(loss, model.parameters())  # what the message says works
    assert [tuple(g.shape) for g in grads] == [(1, 2), (1,)]


# ---- watch ------------------------------------------------------------------------
def test_watch_twice_on_one_array_gives_one_leaf(backend):
    a = backend.tensor([1.0, 2.0])
    w1, w2 = unigrad.watch(a), unigrad.watch(a)
    assert w1 is w2
    (g,) = unigrad.grad((w1 * w1).sum(), w2)
    backend.close(g, [2.0, 4.0])


# ---- dtypes -------------------------------------------------------------------------
def _low_precision(backend: Any, data: list[float], dtype: str) -> Any:
    """A tensor of ``dtype`` (bfloat16/float16) made the framework's own way."""
    if backend.name == "torch":
        return backend.mod.tensor(data, dtype=getattr(backend.mod, dtype))
    if backend.name == "paddle":
        return backend.mod.to_tensor(data, dtype=dtype)
    if backend.name == "jax":
        return backend.mod.asarray(data, dtype=dtype)
    if backend.name == "tensorflow":
        return importlib.import_module("tensorflow").constant(data, dtype=dtype)
    import ml_dtypes

    return np.asarray(data, dtype=getattr(ml_dtypes, dtype) if dtype == "bfloat16" else dtype)


def test_bfloat16_gradients_read_back_as_float32(backend):
    if backend.name == "numpy":
        pytest.importorskip("ml_dtypes")
    t = _low_precision(backend, [1.0, 2.0, 3.0], "bfloat16")
    if backend.name == "numpy":
        # HIPS autograd cannot differentiate ml_dtypes' bfloat16
        with pytest.raises(unigrad.UnsupportedDtypeError, match="cannot differentiate") as info:
            unigrad.watch(t)
        assert isinstance(info.value, TypeError)
        return
    x = unigrad.watch(t)
    (g,) = unigrad.grad((x * x).sum(), x)
    assert backend.backend.dtype_name(g) == "bfloat16"  # the input's dtype
    host = unigrad.to_numpy(g)  # NumPy has no bfloat16: float32 holds it exactly
    assert host.dtype == np.float32
    np.testing.assert_array_equal(host, [2.0, 4.0, 6.0])


@pytest.mark.skipif(not _has("paddle"), reason="needs paddle")
def test_float16_on_paddle_cpu_is_refused_at_watch():
    import paddle

    x = paddle.to_tensor([1.0, 2.0], dtype="float16")
    with pytest.raises(unigrad.UnsupportedDtypeError, match="no float16 kernels on CPU"):
        unigrad.watch(x)


# ---- in-place changes on the tape ------------------------------------------------------
@pytest.mark.skip_backend("torch", reason="torch's version counter: test_contract")
@pytest.mark.skip_backend("paddle", reason="paddle's inplace version: test_contract")
def test_inplace_change_of_a_watched_array_raises(backend):
    if backend.name in ("jax", "tensorflow"):
        pytest.skip(f"{backend.name} arrays are immutable")
    w = np.array([1.0, 2.0])
    x = unigrad.watch(w)
    y = (x * x).sum()
    w[0] = 10.0
    with pytest.raises(unigrad.InplaceModifiedError, match="modified in place") as info:
        unigrad.grad(y, x)
    assert isinstance(info.value, RuntimeError)


@pytest.mark.skip_backend("torch", reason="torch's version counter: test_contract")
@pytest.mark.skip_backend("paddle", reason="paddle's inplace version: test_contract")
def test_inplace_change_of_a_constant_operand_raises(backend):
    # A NumPy constant is mutable on the jax tape too.
    c = np.array([3.0, 4.0], dtype=np.float32)
    x = backend.leaf([1.0, 2.0])
    y = (x * c).sum()
    c *= 2
    with pytest.raises(unigrad.InplaceModifiedError):
        unigrad.grad(y, x)


@pytest.mark.skip_backend("torch", reason="torch's version counter: test_contract")
@pytest.mark.skip_backend("paddle", reason="paddle's inplace version: test_contract")
def test_an_unchanged_constant_holding_nan_is_not_an_inplace_change(backend):
    # NaN != NaN: the comparison must still see an unchanged array as unchanged, and
    # a change next to a NaN as a change.
    c = np.array([np.nan, 4.0], dtype=np.float32)
    x = backend.leaf([1.0, 2.0])
    (g,) = unigrad.grad((x * c).sum(), x)
    backend.close(g, [np.nan, 4.0])
    y = (x * c).sum()
    c[1] = 5.0
    with pytest.raises(unigrad.InplaceModifiedError):
        unigrad.grad(y, x)


@pytest.mark.skip_backend("torch", reason="torch's version counter: test_contract")
@pytest.mark.skip_backend("paddle", reason="paddle's inplace version: test_contract")
def test_inplace_change_after_a_create_graph_grad_raises_at_the_next(backend):
    # A create_graph gradient's node shares the snapshots its grad call has just
    # checked; a change after that call is still seen by the next one.
    c = np.array([3.0, 4.0], dtype=np.float32)
    x = backend.leaf([1.0, 2.0])
    (g,) = unigrad.grad((x * x * c).sum(), x, create_graph=True)
    (h,) = unigrad.grad(g.sum(), x, retain_graph=True)  # unchanged: fine
    backend.close(h, [6.0, 8.0])
    c *= 2
    with pytest.raises(unigrad.InplaceModifiedError):
        unigrad.grad(g.sum(), x)


def test_computed_tape_values_are_read_only():
    pytest.importorskip("autograd")
    x = unigrad.watch(np.array([1.0, 2.0]))
    h = x * x
    with pytest.raises(ValueError, match="read-only"):
        h.value[0] = 3.0
    with pytest.raises(ValueError, match="read-only"):
        h.detach()[0] += 1.0
    (g,) = unigrad.grad((h * h).sum(), x)  # nothing changed: the right numbers
    np.testing.assert_allclose(g, [4.0, 32.0])


def test_changes_between_steps_of_a_loop_are_fine():
    # SGD on a NumPy array: watch, gradient, in-place update, next step.
    pytest.importorskip("autograd")
    w = np.array([1.0, 2.0])
    for _ in range(3):
        x = unigrad.watch(w)
        (g,) = unigrad.grad((x * x).sum(), x)
        w -= 0.1 * g
    np.testing.assert_allclose(w, [0.512, 1.024])


# ---- torch ------------------------------------------------------------------------
@pytest.mark.skipif(not _has("torch"), reason="needs torch")
def test_torch_inference_mode_tensor_cannot_be_watched():
    import torch

    with torch.inference_mode():
        t = torch.ones(2)
    with pytest.raises(unigrad.NotDifferentiableError, match="inference-mode") as info:
        unigrad.watch(t)
    assert isinstance(info.value, RuntimeError)
    x = unigrad.watch(t.clone())  # the fix the message gives
    assert x.requires_grad


@pytest.mark.skipif(not _has("torch"), reason="needs torch")
def test_torch_seed_on_another_device_raises():
    import torch

    x = unigrad.watch(torch.ones(2))
    with pytest.raises(unigrad.GradOutputsError, match="on another device") as info:
        unigrad.grad(x * 2, x, torch.ones(2, device="meta"))
    assert isinstance(info.value, RuntimeError)


# ---- grad mode ---------------------------------------------------------------------
@pytest.mark.skip_backend("jax", reason="the tape has no grad mode")
@pytest.mark.skip_backend("numpy", reason="the tape has no grad mode")
@pytest.mark.skip_backend("tensorflow", reason="the tape has no grad mode")
def test_create_graph_under_no_grad_still_gives_a_second_order(backend):
    x = backend.leaf([1.0, 2.0])
    y = (x * x * x).sum()
    with backend.mod.no_grad():
        (g,) = unigrad.grad(y, x, create_graph=True)
    (h,) = unigrad.grad(g.sum(), x)
    backend.close(h, [6.0, 12.0])


# ---- jax transformations ---------------------------------------------------------------
@pytest.mark.skipif(not _has("jax"), reason="needs jax")
def test_jax_tape_tensors_cannot_cross_jit():
    import jax
    import jax.numpy as jnp

    @jax.jit
    def returns_tape(a: Any) -> Any:
        return unigrad.watch(a) * 2.0

    with pytest.raises(unigrad.TapeError, match="handed to a jax function or transformation"):
        returns_tape(jnp.ones(2))
    t = unigrad.watch(jnp.ones(2))
    with pytest.raises(unigrad.TapeError, match="handed to a jax function or transformation"):
        jax.jit(lambda a: a * 2)(t)


@pytest.mark.skipif(not _has("jax"), reason="needs jax")
def test_jax_tape_recorded_inside_jit_cannot_be_differentiated_outside():
    import jax
    import jax.numpy as jnp

    leaked: list[Any] = []

    @jax.jit
    def record(a: Any) -> Any:
        w = unigrad.watch(a)
        leaked.append((w, (w * w).sum()))
        return a

    record(jnp.ones(2))
    w, y = leaked[0]
    with pytest.raises(unigrad.TapeError, match=r"recorded inside jax\.jit"):
        unigrad.grad(y, w)


# ---- python -O ------------------------------------------------------------------------
@pytest.mark.long  # the module again, in a subprocess (test_errors.py checks -O by default)
@pytest.mark.skipif(sys.flags.optimize > 0, reason="already running under -O")
def test_this_module_passes_under_python_dash_O():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [
            sys.executable,
            "-O",
            "-m",
            "pytest",
            __file__,
            "-q",
            "-p",
            "no:cacheprovider",
            # pytest rewrites the test modules' asserts; it warns that others are gone
            "-W",
            "ignore::pytest.PytestConfigWarning",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout
    assert " failed" not in proc.stdout
