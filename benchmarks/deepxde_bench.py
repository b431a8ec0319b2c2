"""DeepXDE: seconds per training iteration, DeepXDE's own gradient layer against
`unigrad.integrations.deepxde`, per backend, side by side.

DeepXDE picks its backend at import, so each backend runs in its own subprocess
(``tests/integrations/_deepxde_worker.py bench``): both layers train the same example
from the same weights (Adam, float32) in alternating rounds, after a warm-up that
includes jax's compilation. The table gives the median seconds per iteration of each
layer and the median of the per-round ratios (unigrad / own). On jax, DeepXDE's own
layer cannot run an example whose residual uses ``y`` as an array (Burgers): ``n/a``.
On tensorflow both layers run inside DeepXDE's ``tf.function`` step (the warm-up traces
it; the integration's trace takes longer, the tape recording inside it).

Usage::

    python benchmarks/deepxde_bench.py [--backends pytorch,paddle,jax,tensorflow]
        [--examples diffusion,kovasznay,burgers] [--iterations 50] [--rounds 5]

Needs DeepXDE (``pip install unigrad[deepxde]``) and the frameworks of the backends
(tensorflow: ``tensorflow``, ``tensorflow-probability`` and ``tf-keras``, which DeepXDE's
tensorflow backend imports).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKER = ROOT / "tests" / "integrations" / "_deepxde_worker.py"


def run(backend: str, examples: list[str], iterations: int, rounds: int) -> dict[str, dict]:
    """The worker's bench results for one backend."""
    env = dict(os.environ, DDE_BACKEND=backend)
    if backend == "tensorflow":  # DeepXDE's tensorflow backend needs Keras 2 (tf_keras)
        env["TF_USE_LEGACY_KERAS"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    proc = subprocess.run(
        [
            sys.executable,
            str(WORKER),
            "bench",
            *examples,
            f"iterations={iterations}",
            f"rounds={rounds}",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        sys.exit(f"{backend}: the worker failed\n{proc.stderr[-3000:]}")
    result: dict[str, dict] = json.loads(lines[-1][len("RESULT ") :])["result"]
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="pytorch,paddle,jax")
    parser.add_argument("--examples", default="diffusion,kovasznay,burgers")
    parser.add_argument("--iterations", type=int, default=50, help="per round and layer")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    examples = args.examples.split(",")
    print(
        "# DeepXDE training iteration, own layer vs unigrad "
        f"({platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, {args.iterations} iterations x {args.rounds} rounds)"
    )
    print("| backend | example | DeepXDE's own (ms/iter) | unigrad (ms/iter) | ratio |")
    print("|---|---|---|---|---|")
    for backend in args.backends.split(","):
        result = run(backend, examples, args.iterations, args.rounds)
        for name in examples:
            r = result[name]
            own = f"{1e3 * r['own']:.2f}" if "own" in r else "n/a"
            ratio = f"{r['ratio']:.2f}x" if "ratio" in r else "n/a"
            print(
                f"| {backend} | {name} | {own} | {1e3 * r['unigrad']:.2f} | {ratio} |", flush=True
            )


if __name__ == "__main__":
    main()
