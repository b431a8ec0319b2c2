"""Reliability in training loops: bounded memory, several threads, re-entrant calls.

Counts and memory bounds only, never timings. The long version of the memory checks is
``benchmarks/soak.py`` (10 000 calls per mode and backend).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import unigrad

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
soak = pytest.importorskip("soak")

#: A leaked graph of the soak step is about 25 kB: 600 calls leak 15 MB. Allocator noise
#: after the warm-up is well under 1 MB (the soak script measures 0.00-0.03 MB per 1000).
CALLS, WARMUP = 600, 200
RSS_BOUND_MB = 4.0
#: Live objects tracked by the garbage collector may move by a few (caches already full).
OBJECTS_BOUND = 20


@pytest.fixture
def one_torch_thread() -> Any:
    """torch's intra-op pool on tiny matmuls, on a shared machine, costs ms per call."""
    if "torch" not in sys.modules:
        yield
        return
    import torch

    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


#: The soak mode the default run keeps on every backend (a create_graph step whose forward
#: graph is consumed: the richest of them, the one paddle's engine once leaked in); the
#: others are long (``--long``).
DEFAULT_SOAK_MODE = "create-consume"


@pytest.mark.usefixtures("one_torch_thread")
@pytest.mark.parametrize(
    "mode",
    [m if m == DEFAULT_SOAK_MODE else pytest.param(m, marks=pytest.mark.long) for m in soak.MODES],
)
def test_memory_is_flat_in_a_training_loop(backend, mode):
    step = soak.make_step(backend, mode)
    g = soak.measure_step(backend.name, mode, step, CALLS, WARMUP)
    grown_mb = g.rss_mb_per_1000 * CALLS / 1000
    grown_objects = g.objects_per_1000 * CALLS / 1000
    if grown_mb > RSS_BOUND_MB:
        # An allocator that maps a new arena or pool chunk grows the resident set once,
        # in one window (seen once in the full suite: paddle/create-consume +6.5 MB, flat
        # over 10 000 calls alone); a leak grows it in every window: measure again.
        again = soak.measure_step(backend.name, mode, step, CALLS, 0)
        grown_mb = min(grown_mb, again.rss_mb_per_1000 * CALLS / 1000)
    assert grown_mb <= RSS_BOUND_MB, f"{backend.name}/{mode}: RSS grew {grown_mb:.2f} MB"
    assert grown_objects <= OBJECTS_BOUND, f"{backend.name}/{mode}: +{grown_objects:.0f} objects"


# ---- threads ----------------------------------------------------------------------
N_THREADS, N_STEPS = 4, 40


def _run_threads(work: Any) -> list[BaseException]:
    errors: list[BaseException] = []
    start = threading.Barrier(N_THREADS)

    def target(tid: int) -> None:
        try:
            start.wait()
            work(tid)
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=target, args=(t,)) for t in range(N_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a thread hung (deadlock?)"
    return errors


def test_a_create_graph_step_frees_its_graph_without_the_garbage_collector(backend):
    # the records a create_graph call leaves for rule 16 must not sit in a reference
    # cycle: one held the outputs' graph until the collector ran, and on torch every
    # later call of a step then walked it as consumed (the PINN step 1.07x -> 1.16x)
    import gc

    from unigrad.contract import Record

    def records() -> int:
        return sum(type(o) is Record for o in gc.get_objects())

    def step() -> None:
        x = backend.leaf([0.3, -0.7, 1.1], "float64")
        y = backend.xp.tanh(x) * x
        (g,) = unigrad.grad(y, x, backend.tensor([1.0, 1.0, 1.0], "float64"), create_graph=True)
        (h,) = unigrad.grad(backend.xp.sum(g * g), x)
        assert h is not None

    step()
    gc.collect()
    before = records()
    was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(5):
            step()
        assert records() == before
    finally:
        if was:
            gc.enable()


@pytest.mark.parametrize("backend", ["paddle"], indirect=True)
def test_paddle_s_pinned_hook_tables_free_the_hooks_of_dead_nodes(backend):
    # consumed nodes' hooks and complex calls' abs hooks are held by pointer
    # (`_nodes.PinnedHooks`) so that paddle's engine never frees one without the GIL;
    # once no node holds one, a sweep frees it: 40 graphs alive at once give 40
    # addresses, and once they are gone neither table keeps their hooks
    import gc

    from unigrad.backends.paddle._consumption import CONSUMED
    from unigrad.backends.paddle._quirks import _ABS_HOOKS

    xp = backend.xp

    def step() -> Any:
        z = backend.leaf([0.3 + 0.4j, -0.7 + 0.1j], "complex128")
        w = backend.leaf([0.5, -1.5], "float64")
        v = xp.abs(z * z) * w
        (g,) = unigrad.grad(xp.sum(v), z, create_graph=True)
        unigrad.grad(xp.sum(v * v), w)  # consumes v's graph: its nodes get hooks
        return v, g

    before = set(CONSUMED.hooks.hooks), set(_ABS_HOOKS.hooks)
    alive = [step() for _ in range(40)]
    consumed = set(CONSUMED.hooks.hooks) - before[0]
    abs_hooks = set(_ABS_HOOKS.hooks) - before[1]
    # (held by live nodes: at least the 40 graphs' own; a pointer a dead node of an
    # earlier test left in a table may be one of theirs)
    assert sum(map(_ABS_HOOKS.held, list(_ABS_HOOKS.hooks))) >= 40
    assert sum(map(CONSUMED.hooks.held, list(CONSUMED.hooks.hooks))) >= 40
    del alive
    gc.collect()
    u = backend.leaf([1.0], "float64")  # a pass of its own: paddle's engine drops the
    unigrad.grad(xp.sum(u * u), u)  # node copies it kept from the last one
    CONSUMED.sweep()
    _ABS_HOOKS.sweep()
    assert not consumed & set(CONSUMED.hooks.hooks)
    assert not abs_hooks & set(_ABS_HOOKS.hooks)


@pytest.mark.parametrize("backend", ["paddle"], indirect=True)
def test_paddle_s_list_op_operands_go_with_their_graphs(backend):
    # the namespace's list ops leave their operands' aliases with the backend while the
    # list op's node lives (`_list_operands`): 40 graphs alive at once give 40 entries,
    # and once they are gone the next pass frees them, and the operands' nodes the
    # aliases held (each holds a tensor hook of its own: freed with its node)
    import functools
    import gc
    import sys

    from unigrad.backends.paddle._list_operands import OPERANDS

    xp = backend.xp

    def graph() -> Any:
        w = backend.leaf([0.5, -1.5], "float64")
        operand = xp.sin(w) * 3.0
        hook = functools.partial(lambda g: None)
        operand._register_grad_hook(hook)
        return xp.sum(xp.stack([operand, w], axis=0)), hook

    before = set(OPERANDS.entries)
    alive = [graph() for _ in range(40)]
    assert len(set(OPERANDS.entries) - before) >= 40
    hooks = [hook for _, hook in alive]
    del alive
    gc.collect()
    u = backend.leaf([1.0], "float64")  # a pass of its own sweeps the table (and
    unigrad.grad(xp.sum(u * u), u)  # paddle's engine drops the copies it kept)
    unigrad.grad(xp.sum(u * u), u)
    assert not (set(OPERANDS.entries) - before)
    # 3: the list's reference, this name's and getrefcount's argument
    assert [sys.getrefcount(h) for h in hooks] == [3] * 40


def test_four_threads_with_independent_graphs_get_correct_results(backend):
    # paddle's engine crashes natively when two threads run backward at once; unigrad
    # serialises it. Each thread checks its own numbers: first and second order, and
    # backward into .grad.
    def work(tid: int) -> None:
        rng = np.random.default_rng(tid)
        for _ in range(N_STEPS):
            a = rng.normal(size=(16,))
            x = backend.leaf(a, "float64")
            (g,) = unigrad.grad((x * x * x).sum(), x, create_graph=True)
            (h,) = unigrad.grad(g.sum(), x)
            np.testing.assert_allclose(backend.np(g), 3 * a**2, rtol=1e-12)
            np.testing.assert_allclose(backend.np(h), 6 * a, rtol=1e-12)
            z = backend.leaf(a, "float64")
            unigrad.backward((z * z).sum())
            np.testing.assert_allclose(backend.np(z.grad), 2 * a, rtol=1e-12)

    errors = _run_threads(work)
    assert errors == []


def test_four_threads_sharing_parameters_get_correct_results(backend):
    # A data-parallel loop: shared weights, each thread its own batch and graph.
    w_np = np.linspace(-1.0, 1.0, 12).reshape(4, 3)
    w = backend.leaf(w_np, "float64")

    def work(tid: int) -> None:
        rng = np.random.default_rng(100 + tid)
        for _ in range(N_STEPS):
            xb = rng.normal(size=(5, 4))
            (gw,) = unigrad.grad(((backend.tensor(xb, "float64") @ w) ** 2).sum(), w)
            np.testing.assert_allclose(backend.np(gw), 2 * xb.T @ (xb @ w_np), rtol=1e-10)

    assert _run_threads(work) == []


@pytest.mark.long
@pytest.mark.usefixtures("one_torch_thread")
@pytest.mark.parametrize("mode", ["grad", "create"])
def test_memory_is_flat_with_four_threads_in_a_training_loop(backend, mode):
    # soak.py --threads: each thread its own step and parameters, all at once (paddle's
    # consumed-graph hook registry is shared between them)
    steps = [soak.make_step(backend, mode) for _ in range(N_THREADS)]
    g = soak.measure_threads(backend.name, mode, steps, CALLS, WARMUP // N_THREADS)
    assert g.calls == CALLS
    grown_mb = g.rss_mb_per_1000 * CALLS / 1000
    grown_objects = g.objects_per_1000 * CALLS / 1000
    if grown_mb > RSS_BOUND_MB:  # one allocator step, or a leak: see the test above
        again = soak.measure_threads(backend.name, mode, steps, CALLS, 0)
        grown_mb = min(grown_mb, again.rss_mb_per_1000 * CALLS / 1000)
    assert grown_mb <= RSS_BOUND_MB, f"{backend.name}/{mode}: RSS grew {grown_mb:.2f} MB"
    assert grown_objects <= OBJECTS_BOUND, f"{backend.name}/{mode}: +{grown_objects:.0f} objects"


_HOOKED = [b for b in ("torch", "paddle") if importlib.util.find_spec(b) is not None]


@pytest.mark.parametrize("name", _HOOKED)
def test_a_hook_that_differentiates_does_not_deadlock(name):
    # Tape tensors have no hooks; torch and paddle run tensor hooks inside the backward
    # pass, on the calling thread: a nested unigrad call there must not deadlock on the
    # lock that serialises paddle's engine (it is re-entrant). paddle supports backward
    # inside grad, not grad inside grad (natively a crash or a hang): see the next test.
    fw = pytest.importorskip(name)
    b = soak.kit(name)
    seen: list[float] = []

    def hook(g: Any) -> Any:
        with fw.enable_grad():  # the engine runs hooks with grad mode off
            u = b.leaf([3.0])
            unigrad.backward((u * u).sum())
        seen.append(float(b.np(u.grad)[0]))
        return g

    def work(tid: int) -> None:
        x = b.leaf([1.0, 2.0])
        h = x * 2.0
        h.register_hook(hook)
        (gx,) = unigrad.grad((h * h).sum(), x)
        np.testing.assert_allclose(b.np(gx), [8.0, 16.0])

    assert _run_threads(work) == []
    assert seen == [6.0] * N_THREADS


@pytest.mark.parametrize("name", _HOOKED)
def test_grad_inside_a_grad_hook_works_or_raises_clearly(name):
    fw = pytest.importorskip(name)
    b = soak.kit(name)

    def hook(g: Any) -> Any:
        with fw.enable_grad():
            u = b.leaf([3.0])
            (gu,) = unigrad.grad((u * u).sum(), u)
        np.testing.assert_allclose(b.np(gu), [6.0])
        return g

    x = b.leaf([1.0, 2.0])
    h = x * 2.0
    h.register_hook(hook)
    if name == "paddle":
        with pytest.raises(unigrad.UnsupportedFeatureError, match="inside another grad"):
            unigrad.grad((h * h).sum(), x)
        (gx,) = unigrad.grad((x * x).sum(), x)  # the engine is usable afterwards
        np.testing.assert_allclose(b.np(gx), [2.0, 4.0])
    else:
        (gx,) = unigrad.grad((h * h).sum(), x)
        np.testing.assert_allclose(b.np(gx), [8.0, 16.0])


_FIRST_CALL_IN_A_HOOK = """
import sys
import numpy as np
import unigrad
import {name} as fw
if {name!r} == "torch":
    leaf = lambda v: fw.tensor(v, requires_grad=True)
    native = fw.autograd.grad
else:
    leaf = lambda v: fw.to_tensor(v, dtype="float32", stop_gradient=False)
    native = fw.grad
w = leaf([3.0, 4.0])
def hook(g):
    assert "unigrad.backends.{name}" not in sys.modules
    with fw.enable_grad():
        unigrad.backward((w * w).sum())  # unigrad's first call: loads its backend here
    return g
x = leaf([1.0, 2.0])
h = x * 2.0
h.register_hook(hook)
(gx,) = native((h * h).sum(), x)
np.testing.assert_allclose(gx.numpy(), [8.0, 16.0])
np.testing.assert_allclose(w.grad.numpy(), [6.0, 8.0])
print("ok")
"""


@pytest.mark.parametrize("name", _HOOKED)
def test_the_backend_loads_inside_a_native_grad_hook(name):
    # unigrad loads a backend at its first call on that framework's tensors, which may
    # be in a tensor hook while the framework's own grad runs; loading runs nothing there
    # that paddle cannot run nested (its import-time probes use backward, not grad: a
    # nested paddle.grad crashed the process). A fresh interpreter: this one has loaded.
    pytest.importorskip(name)
    proc = subprocess.run(
        [sys.executable, "-c", _FIRST_CALL_IN_A_HOOK.format(name=name)],
        cwd=Path(__file__).resolve().parent.parent,  # this checkout's unigrad
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().endswith("ok")


_REPAIRS_OFF = """
import os
import paddle
import unigrad
from unigrad.backends.paddle import _refcounts
x = unigrad.watch(paddle.to_tensor([1.0, 2.0]))
(g,) = unigrad.grad((x * x * x).sum(), x, create_graph=True)
(h,) = unigrad.grad(g.sum(), x)
print(_refcounts.REPAIR, _refcounts._LEAKED_REFS, _refcounts._LEAKED_HOOK_REFS, h.tolist())
"""


@pytest.mark.parametrize("value", ["0", "1"])
def test_paddle_refcount_repairs_follow_their_one_switch(value):
    # UNIGRAD_PADDLE_REFCOUNT_REPAIR=0 turns off every repair of paddle's leaked references
    # (the import-time probes included); the numbers do not depend on it
    pytest.importorskip("paddle")
    proc = subprocess.run(
        [sys.executable, "-c", _REPAIRS_OFF],
        cwd=Path(__file__).resolve().parent.parent,
        env={**os.environ, "UNIGRAD_PADDLE_REFCOUNT_REPAIR": value},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    repair, refs, hook_refs, h = proc.stdout.split(maxsplit=3)
    assert repair == str(value == "1")
    if value == "0":
        assert (refs, hook_refs) == ("0", "0")
    assert h.strip() == "[6.0, 12.0]"


# ---- the jax tape's compile cache -------------------------------------------------------
jax_only = pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="needs jax")


@pytest.fixture
def fresh_tape_cache(monkeypatch: pytest.MonkeyPatch) -> Any:
    """An empty compile cache and recompile detector, restored afterwards."""
    from unigrad.tape import _caches, _plan, _recompile

    _caches.CACHES.gradients.clear()
    monkeypatch.setattr(_plan, "RECOMPILES", _recompile.Recompiles())
    size = _caches.CACHES.size
    yield _caches
    unigrad.tape.set_cache_size(size)


@jax_only
def test_a_float_operand_that_changes_every_step_compiles_once(fresh_tape_cache):
    import jax
    import jax.numpy as jnp

    w0 = jnp.asarray([0.5, -1.0, 2.0], dtype=jnp.float32)
    lr = 0.1
    for _ in range(10):
        w = unigrad.watch(w0)
        (g,) = unigrad.grad(((w * lr) ** 2).sum() + (1.5 - w * lr).sum(), w)
        expected = jax.grad(lambda v, c=lr: ((v * c) ** 2).sum() + (1.5 - v * c).sum())(w0)
        np.testing.assert_allclose(np.asarray(g), np.asarray(expected), rtol=1e-6)
        assert g.dtype == jnp.float32  # weakly typed: no promotion to float64
        lr *= 0.9
    assert unigrad.tape.cache_info()["size"] == 1


@jax_only
def test_the_compile_cache_is_bounded_and_configurable(fresh_tape_cache, monkeypatch):
    import warnings

    import jax.numpy as jnp

    unigrad.tape.set_cache_size(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", unigrad.tape.RecompileWarning)
        for k in range(6):  # six structures: a static that changes
            w = unigrad.watch(jnp.ones(2))
            xp = unigrad.namespace(w)
            unigrad.grad(xp.sum(xp.clip(w, 0.0, 1.0 + k)), w)
    assert unigrad.tape.cache_info() == {"size": 3, "max": 3}
    with pytest.raises(ValueError, match="non-negative integer"):
        unigrad.tape.set_cache_size(-1)
    monkeypatch.setenv("UNIGRAD_TAPE_CACHE_SIZE", "7")
    assert fresh_tape_cache._default_cache_size() == 7
    monkeypatch.setenv("UNIGRAD_TAPE_CACHE_SIZE", "many")
    with pytest.raises(ValueError, match="UNIGRAD_TAPE_CACHE_SIZE"):
        fresh_tape_cache._default_cache_size()


@jax_only
def test_a_loop_that_recompiles_every_call_warns_once_naming_the_argument(fresh_tape_cache):
    import warnings

    import jax.numpy as jnp

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for k in range(20):
            w = unigrad.watch(jnp.ones(2))
            xp = unigrad.namespace(w)
            unigrad.grad(xp.sum(xp.clip(w, 0.0, 1.0 + k)), w)
    recompiles = [w for w in caught if issubclass(w.category, unigrad.tape.RecompileWarning)]
    assert len(recompiles) == 1
    text = str(recompiles[0].message)
    assert "argument 2 of clip" in text
    assert recompiles[0].filename == __file__  # points at the caller's line
