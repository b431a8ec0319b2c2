"""The error hierarchy: each class is catchable as the natives torch and paddle raise."""

from __future__ import annotations

import pytest

import unigrad
from unigrad import _errors

NATIVE = {
    unigrad.GradArgumentError: (TypeError, ValueError, AssertionError, RuntimeError),
    unigrad.GradOutputsError: (RuntimeError, ValueError, AssertionError),
    unigrad.UnusedInputError: (RuntimeError, ValueError),
    unigrad.NotDifferentiableError: (RuntimeError, ValueError, TypeError),
    unigrad.GraphFreedError: (RuntimeError, SystemError),
    unigrad.InplaceModifiedError: (RuntimeError,),
    unigrad.HigherOrderUnavailableError: (RuntimeError,),
    unigrad.UnsupportedDtypeError: (NotImplementedError, RuntimeError, TypeError),
    unigrad.UnsupportedFeatureError: (NotImplementedError, RuntimeError),
    unigrad.BackendError: (TypeError,),
    unigrad.TapeError: (TypeError,),
    unigrad.CompiledStepError: (TypeError,),
    unigrad.NamespaceAttributeError: (AttributeError,),
    unigrad.ScalarConversionError: (ValueError, TypeError, RuntimeError),
    unigrad.AxisError: (IndexError, ValueError),
}


@pytest.mark.parametrize("cls", list(NATIVE), ids=lambda c: c.__name__)
def test_every_error_is_a_unigrad_error_and_its_natives(cls):
    err = cls("boom")
    assert isinstance(err, unigrad.UnigradError)
    for native in NATIVE[cls]:
        assert isinstance(err, native), native
    assert cls.__module__ == "unigrad"


def test_the_table_covers_every_public_error():
    public = {
        getattr(unigrad, name)
        for name in unigrad.__all__
        if isinstance(getattr(unigrad, name), type)
        and issubclass(getattr(unigrad, name), unigrad.UnigradError)
    }
    assert public - {unigrad.UnigradError} == set(NATIVE)
    assert set(_errors.__all__) == {c.__name__ for c in public}


def test_message_has_expected_got_and_fix():
    msg = _errors.message("seed wrong", expected="shape (3,)", got="(1,)", fix="Reshape it.")
    assert msg == "seed wrong: expected shape (3,), got (1,). Reshape it."


def test_errors_survive_python_dash_O():
    # Checks are real code: they hold when asserts are stripped.
    import subprocess
    import sys

    code = (
        "import torch, unigrad\n"
        "x = unigrad.watch(torch.ones(3))\n"
        "try:\n"
        "    unigrad.grad(x * x, x, torch.ones(1))\n"
        "except unigrad.GradOutputsError:\n"
        "    print('raised')\n"
    )
    pytest.importorskip("torch")
    out = subprocess.run(
        [sys.executable, "-O", "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "raised"
