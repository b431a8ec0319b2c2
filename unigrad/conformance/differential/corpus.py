"""Programs the differential tester found diverging, replayed on every test run.

Each entry is a `_program.Program` (print ``program.source("torch")`` for the
script) and what it caught. Add the repro of every divergence you fix here.
"""

from __future__ import annotations

from ._program import Backward, Grad, Leaf, Op, Program, Seed

__all__ = ["CORPUS"]

#: (what it caught, the program)
CORPUS: list[tuple[str, Program]] = [
    (
        "paddle: a leaf's .grad after backward(create_graph=False) reports requires_grad",
        Program(
            steps=(
                Leaf(name="x1", data=1.03, dtype="float64", watched=True),
                Op(name="v2", op="neg", args=("x1",), params=()),
                Backward(
                    outputs=("v2",), seeds=None, retain_graph=None, create_graph=False, inputs=None
                ),
            )
        ),
    ),
    (
        "paddle: .grad accumulated by backward(create_graph=True, inputs=...) is not "
        "differentiable (now UnsupportedFeatureError, capability backward_create_graph)",
        Program(
            steps=(
                Leaf(name="x1", data=[-0.48, 0.54, 0.26], dtype="float32", watched=True),
                Op(name="v2", op="neg", args=("x1",), params=()),
                Op(name="v3", op="scale", args=("v2",), params=(("c", 0.5),)),
                Op(name="v4", op="neg", args=("v2",), params=()),
                Op(name="v5", op="mul", args=("v4", "v3"), params=()),
                Op(name="v6", op="mul", args=("v5", "v3"), params=()),
                Op(name="v7", op="stack", args=("v4", "v6"), params=(("axis", 1),)),
                Grad(
                    name="g8",
                    outputs=("v6",),
                    inputs=("x1", "x1"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v9", op="scale", args=("v5",), params=(("c", 0.5),)),
                Backward(
                    outputs=("v7", "v7"),
                    seeds=(
                        None,
                        Seed(data=[[1.23, 1.39], [0.68, -0.62], [1.05, -1.37]], dtype="float32"),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    inputs=("x1", "x1"),
                ),
            )
        ),
    ),
    (
        "structure: d real(3 x)/dx is a constant (jax/numpy returned a tensor; paddle "
        "has no real_grad double kernel)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[
                        [(1.03 + 1.42j), (0.55 - 1.26j)],
                        [(0.25 - 0.2j), (0.22 + 1.31j)],
                        [(1.26 - 0.24j), (1.39 + 1.15j)],
                    ],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v2", op="concat", args=("x1", "x1"), params=(("axis", -1),)),
                Op(name="v3", op="scale", args=("v2",), params=(("c", 3.0),)),
                Op(name="v4", op="square", args=("v3",), params=()),
                Op(name="v5", op="add", args=("v3", "v2"), params=()),
                Op(name="v6", op="expand_dims", args=("v2",), params=(("axis", 1),)),
                Op(name="v7", op="real", args=("v3",), params=()),
                Grad(
                    name="g8",
                    outputs=("v7", "v7"),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Backward(
                    outputs=("v5", "v5"),
                    seeds=(
                        None,
                        Seed(
                            data=[
                                [(0.59 - 0.83j), (0.75 - 1.36j), (0.24 - 1.41j), (-0.36 + 0.67j)],
                                [(1.07 - 0.94j), (-1.04 + 0.62j), (1 - 0.97j), (0.7 - 0.64j)],
                                [(1.5 + 0.71j), (1.48 + 1.36j), (-1.09 - 0.5j), (-1.05 - 1.01j)],
                            ],
                            dtype="complex128",
                        ),
                    ),
                    retain_graph=True,
                    create_graph=True,
                    inputs=("x1", "v7", "x1"),
                ),
            )
        ),
    ),
    (
        "jax: a boolean-mask index raised NonConcreteBooleanIndexError inside the rebuilt function",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[(-0.83 + 0.45j), (-0.38 + 0.27j)], [(0.8 - 0.52j), (-1.28 - 0.72j)]],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v2", op="rsub", args=("x1",), params=(("c", 3.0),)),
                Op(name="v3", op="matmul", args=("v2", "x1"), params=()),
                Op(name="v4", op="mul", args=("x1", "v3"), params=()),
                Leaf(name="m5", data=[[True, True], [True, True]], dtype="bool", watched=False),
                Op(name="v6", op="index", args=("v4", "m5"), params=(("index", ("mask",)),)),
                Op(name="v7", op="abs", args=("v4",), params=()),
                Op(name="v8", op="sub", args=("v6", "v6"), params=()),
                Backward(
                    outputs=("v6",),
                    seeds=(
                        Seed(
                            data=[(-0.98 - 1.05j), (1.46 + 0.7j), (-1.44 - 0.28j), (-0.58 - 0.35j)],
                            dtype="complex128",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=False,
                    inputs=None,
                ),
                Grad(
                    name="g9",
                    outputs=("v7",),
                    inputs=("x1",),
                    seeds=(None,),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "materialized zeros under create_graph require grad (torch's test_grad_materialize_grads)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[(0.3 - 0.24j), (-0.56 - 1.37j), (-0.59 + 0.85j)],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v2", op="rsub", args=("x1",), params=(("c", 3.0),)),
                Op(name="v3", op="real", args=("x1",), params=()),
                Op(name="v4", op="sub", args=("v3", "v3"), params=()),
                Op(name="v5", op="exp", args=("x1",), params=()),
                Leaf(name="m6", data=[True, True, True], dtype="bool", watched=False),
                Op(name="v7", op="index", args=("v5", "m6"), params=(("index", ("mask",)),)),
                Op(name="v8", op="sub", args=("v5", "v5"), params=()),
                Grad(
                    name="g9",
                    outputs=("v8",),
                    inputs=("x1", "x1"),
                    seeds=(
                        Seed(
                            data=[(-0.74 - 0.66j), (-0.32 - 0.49j), (1.49 - 0.33j)],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Leaf(name="m10", data=[True, True, True], dtype="bool", watched=False),
                Op(name="v11", op="index", args=("v4", "m10"), params=(("index", ("mask",)),)),
                Grad(
                    name="g12",
                    outputs=("v11",),
                    inputs=("g9[0]",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
            )
        ),
    ),
    (
        "numpy: where over broadcast operands, batched seeds: autograd's raw ValueError",
        Program(
            steps=(
                Leaf(name="x1", data=1.24, dtype="float64", watched=True),
                Leaf(name="x2", data=0.89, dtype="float64", watched=True),
                Leaf(name="x3", data=[-1.16, 1.43, -0.53], dtype="float64", watched=True),
                Op(name="v4", op="scale", args=("x2",), params=(("c", 0.5),)),
                Op(name="v5", op="where_gt", args=("x2", "x3"), params=()),
                Grad(
                    name="g6",
                    outputs=("v5",),
                    inputs=("x2", "x3"),
                    seeds=(Seed(data=[[-1.09, -0.86, -0.4], [1.49, 0.29, 0.77]], dtype="float64"),),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: backward(inputs=[non-leaf]) raised a raw SystemError",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[
                        [(-0.35 + 1.43j), (-0.9 + 0.82j), (0.82 + 1.2j)],
                        [(0.82 + 0.85j), (0.91 - 1.2j), (-0.93 - 0.57j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[[(-1.25 - 0.75j), (-0.94 - 0.46j)], [(-0.79 - 0.53j), (-0.35 + 1.41j)]],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v3", op="shift", args=("x2",), params=(("c", -1.5),)),
                Op(name="v4", op="matmul", args=("v3", "v3"), params=()),
                Op(name="v5", op="matmul", args=("v4", "v3"), params=()),
                Backward(
                    outputs=("v5", "v4"),
                    seeds=(
                        Seed(
                            data=[
                                [(-1.38 - 1.29j), (-1.16 - 0.99j)],
                                [(1.3 - 1.14j), (-0.9 + 0.4j)],
                            ],
                            dtype="complex64",
                        ),
                        Seed(
                            data=[
                                [(-0.48 + 0.39j), (-1.16 + 0.77j)],
                                [(-0.46 - 0.55j), (0.3 - 0.85j)],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    inputs=("x2", "v4", "x2"),
                ),
            )
        ),
    ),
    (
        "torch: backward(inputs=[v3]) after a consuming pass ran v3's own (consumed) node",
        Program(
            steps=(
                Leaf(name="x1", data=-1.44, dtype="float64", watched=True),
                Op(
                    name="v2", op="mean", args=("x1",), params=(("axis", None), ("keepdims", False))
                ),
                Op(name="v3", op="scale", args=("v2",), params=(("c", 0.5),)),
                Backward(outputs=("v3",), retain_graph=False),
                Backward(outputs=("v2", "v3"), seeds=(None, None), inputs=("v3",)),
            )
        ),
    ),
    (
        "torch: a pass cut by no_grad_vars freed buffers beyond the cut (torch ran them)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[0.63, 0.3, 1.38], [0.59, -1.47, 0.66]],
                    dtype="float32",
                    watched=True,
                ),
                Op(
                    name="v2",
                    op="sum",
                    args=("x1",),
                    params=(("axis", (0, 1)), ("keepdims", False)),
                ),
                Op(name="v3", op="scale", args=("v2",), params=(("c", 3.0),)),
                Op(name="v5", op="neg", args=("v3",)),
                Grad(
                    name="g6",
                    outputs=("v5",),
                    inputs=("x1",),
                    seeds=(Seed(data=[-0.35, 0.71], dtype="float32"),),
                    materialize_grads=True,
                    no_grad_vars=("v3",),
                    batched=True,
                ),
                Grad(
                    name="g7",
                    outputs=("v5",),
                    inputs=("x1",),
                    seeds=(Seed(data=[0.38, -1.49], dtype="float32"),),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    batched=True,
                ),
            )
        ),
    ),
    (
        "torch: no_grad_vars with create_graph=True kept the branch beyond the cut in the "
        "result's graph (zero-valued): a constant gradient reported requires_grad",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, 1.0], dtype="float64", watched=True),
                Leaf(name="x2", data=[2.0, 3.0], dtype="float64", watched=True),
                Op(name="v3", op="mul", args=("x1", "x2")),
                Op(name="v4", op="scale", args=("v3",), params=(("c", 2.0),)),
                Op(name="v5", op="add", args=("v4", "x1")),
                Grad(
                    name="g6",
                    outputs=("v5",),
                    inputs=("x1",),
                    create_graph=True,
                    no_grad_vars=("v3",),
                ),
                Grad(name="g7", outputs=("g6[0]",), inputs=("x1", "x2"), allow_unused=True),
            )
        ),
    ),
    (
        "paddle: a full-range slice as the input: paddle gave it its source's gradient "
        "(differential seed 7, program 134; now UnsupportedFeatureError, a known refusal)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.5], dtype="float64", watched=True),
                Op(name="v2", op="scale", args=("x1",), params=(("c", 2.0),)),
                Op(name="v3", op="index", args=("v2",), params=(("index", ("slice", 0, 2)),)),
                Op(name="v4", op="square", args=("v2",)),
                Grad(name="g5", outputs=("v4",), inputs=("v3",), allow_unused=True),
            )
        ),
    ),
    (
        "paddle: the namespace's reshape to a tensor's own shape returned the tensor itself "
        "(a gradient with respect to it counted every use of the source)",
        Program(
            steps=(
                Leaf(name="x1", data=[1.0, 2.0, 3.0], dtype="float64", watched=True),
                Op(name="v2", op="scale", args=("x1",), params=(("c", 2.0),)),
                Op(name="v3", op="reshape", args=("v2",), params=(("shape", (3,)),)),
                Op(name="v4", op="mul", args=("v3", "v2")),
                Grad(name="g5", outputs=("v4",), inputs=("v3", "v2")),
            )
        ),
    ),
    (
        "paddle: complex abs's double-grad node has no edge to z: a create_graph gradient "
        "through it reported no dependence and its derivative was zeros (now refused, "
        "HigherOrderUnavailableError naming abs; differential seed 7)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[(1.35 - 1.49j), (-0.5 + 0.2j)],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v2", op="abs", args=("x1",)),
                Grad(name="g3", outputs=("v2",), inputs=("x1",), create_graph=True),
                Grad(
                    name="g4",
                    outputs=("g3[0]",),
                    inputs=("x1",),
                    seeds=(Seed(data=[(1.0 + 0.5j), (-0.3 + 1.0j)], dtype="complex128"),),
                ),
            )
        ),
    ),
    (
        "paddle: backward from a create_graph result after retain_graph=False raised "
        "GraphFreedError (its pass ran into the consumed forward nodes; seed 7, 2819)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.0], dtype="float64", watched=True),
                Op(name="v2", op="tanh", args=("x1",)),
                Grad(
                    name="g3",
                    outputs=("v2",),
                    inputs=("x1",),
                    retain_graph=False,
                    create_graph=True,
                ),
                Op(name="v4", op="neg", args=("g3[0]",)),
                Backward(outputs=("v4",), retain_graph=False),
            )
        ),
    ),
    (
        "paddle: backward(retain_graph=False) frees the saved tensors of the nodes it ran, "
        "and a later pass cut by no_grad_vars still runs the cut branch (zeroed): "
        "GraphFreedError where the contract answers (known; differential seed 11)",
        Program(
            steps=(
                Leaf(name="x1", data=-0.77, dtype="float64", watched=True),
                Leaf(
                    name="x2", data=[[-1.16, -0.37], [-0.32, -0.35]], dtype="float64", watched=False
                ),
                Op(name="v3", op="add", args=("x2", "x1")),
                Op(name="v4", op="add", args=("v3", "x1")),
                Backward(outputs=("v3",), retain_graph=False),
                Grad(name="g5", outputs=("v4",), inputs=("x1",), no_grad_vars=("v3",)),
            )
        ),
    ),
    (
        "paddle: an output that is a full-range slice of an input (x[0:n]) is that input "
        "to paddle: it stopped there and gave x no gradient (differential seed 11)",
        Program(
            steps=(
                Leaf(name="x1", data=[[-0.9, -0.43], [-1.12, 0.58]], dtype="float32", watched=True),
                Leaf(name="x2", data=1.11, dtype="float32", watched=True),
                Op(name="v3", op="scale", args=("x2",), params=(("c", 2.0),)),
                Op(name="v4", op="index", args=("x1",), params=(("index", ("slice", 0, 2)),)),
                Backward(outputs=("v3", "v4"), retain_graph=False, inputs=("x1", "x2")),
            )
        ),
    ),
    (
        "paddle: backward from x and x[0:n] (one tensor to paddle) counted the seed once "
        "(differential seed 11)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.28], dtype="float64", watched=True),
                Op(name="v2", op="scale", args=("x1",), params=(("c", 3.0),)),
                Op(name="v3", op="index", args=("v2",), params=(("index", ("slice", 0, 1)),)),
                Backward(outputs=("v2", "v3"), retain_graph=True),
            )
        ),
    ),
    (
        "paddle: complex second derivatives miss a conjugation (a wrong number; now "
        "refused, HigherOrderUnavailableError; differential seed 1, program 3523)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[(-0.99 + 1.19j), (0.37 + 0.79j)],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v2", op="square", args=("x1",)),
                Grad(
                    name="g3",
                    outputs=("v2",),
                    inputs=("x1",),
                    seeds=(Seed(data=[(1.46 + 1.06j), (0.45 - 0.35j)], dtype="complex128"),),
                    create_graph=True,
                ),
                Grad(
                    name="g4",
                    outputs=("g3[0]",),
                    inputs=("x1",),
                    seeds=(Seed(data=[(0.86 + 0.59j), (-0.24 + 0.9j)], dtype="complex128"),),
                ),
            )
        ),
    ),
    (
        "paddle: the derivative with respect to an intermediate through a create_graph "
        "gradient used paddle's divide formula (it saves its output): a wrong number, now "
        "refused (UnsupportedFeatureError; differential seed 4, program 3702)",
        Program(
            steps=(
                Leaf(name="x1", data=-0.25, dtype="float64", watched=True),
                Op(name="v2", op="div", args=("x1", "x1")),
                Grad(name="g3", outputs=("v2",), inputs=("x1",), create_graph=True),
                Op(name="v4", op="mul", args=("g3[0]", "v2")),
                Grad(name="g5", outputs=("v4",), inputs=("v2",)),
            )
        ),
    ),
    (
        "reference: a duplicated input's gradient is one tensor (torch returns one object), "
        "so a no_grad_vars cut on one occurrence cuts the other (differential seed 4)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.0], dtype="float64", watched=True),
                Op(name="v2", op="square", args=("x1",)),
                Grad(name="g3", outputs=("v2",), inputs=("x1", "x1"), create_graph=True),
                Op(name="v4", op="add", args=("g3[0]", "g3[1]")),
                Grad(
                    name="g5",
                    outputs=("v4",),
                    inputs=("x1",),
                    allow_unused=True,
                    no_grad_vars=("g3[1]",),
                ),
            )
        ),
    ),
    (
        "numpy tape: autograd returns a Python complex, not an array, for the gradient of a "
        "0-d complex leaf through imag; the tape read its .dtype (a raw AttributeError; "
        "the 20 000-program run, seed 2026)",
        Program(
            steps=(
                Leaf(name="x1", data=(0.46 - 1.38j), dtype="complex128", watched=True),
                Op(name="v2", op="imag", args=("x1",)),
                Op(name="v3", op="mul", args=("v2", "v2")),
                Grad(name="g4", outputs=("v3",), inputs=("x1",)),
            )
        ),
    ),
    (
        "torch: an input reached only through a no_grad_vars cut, after backward consumed "
        "the graph: torch still ran toward it, through the consumed node (GraphFreedError "
        "where the contract answers None; the torch-only 20 000-program run, seed 77)",
        Program(
            steps=(
                Leaf(name="x1", data=[-1.33, 0.55], dtype="float32", watched=True),
                Op(name="v2", op="neg", args=("x1",)),
                Op(name="v3", op="sin", args=("v2",)),
                Backward(outputs=("v3",)),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("v3", "x1"),
                    retain_graph=True,
                    allow_unused=True,
                    no_grad_vars=("v2",),
                ),
            )
        ),
    ),
    (
        "torch: an intermediate input (v3 = x1.T) between the inputs and outputs of an "
        "earlier create_graph grad: torch's gradient graph goes through v3 (-2*v3 - 2), "
        "the tape's and the reference's around it (-2*v3); no single answer, now "
        "UnsupportedFeatureError on every backend (the torch-only long runs)",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.3, -0.7]], dtype="float64", watched=True),
                Op(name="v2", op="T", args=("x1",)),
                Op(name="v3", op="mul", args=("v2", "v2")),
                Op(name="v4", op="rsub", args=("v3",), params=(("c", 0.5),)),
                Grad(name="g5", outputs=("v4",), inputs=("x1",), create_graph=True),
                Op(name="v6", op="T", args=("g5[0]",)),
                Grad(name="g7", outputs=("v4", "v6"), inputs=("v2",)),
            )
        ),
    ),
    (
        "torch: a no_grad_vars cut (v2 = x1*x1) between the inputs and outputs of an "
        "earlier create_graph grad: torch's gradient graph reads v2, the tape's does not; "
        "now UnsupportedFeatureError on every backend",
        Program(
            steps=(
                Leaf(name="x1", data=[0.3, -0.6], dtype="float64", watched=True),
                Op(name="v2", op="square", args=("x1",)),
                Op(name="v3", op="sin", args=("v2",)),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x1",),
                    seeds=(Seed([1.0, 1.0], "float64"),),
                    create_graph=True,
                ),
                Grad(
                    name="g5",
                    outputs=("g4[0]",),
                    inputs=("x1",),
                    seeds=(Seed([1.0, 1.0], "float64"),),
                    no_grad_vars=("v2",),
                ),
            )
        ),
    ),
    (
        "paddle: an intermediate input v2 = x1 / (x1*x1 + 1), the output of an earlier "
        "create_graph grad: paddle's divide saves its output (a path through the gradient "
        "torch does not have); refused on paddle alone before, now UnsupportedFeatureError "
        "on every backend (differential seed 4)",
        Program(
            steps=(
                Leaf(name="x1", data=-0.25, dtype="float64", watched=True),
                Op(name="v2", op="div", args=("x1", "x1")),
                Grad(name="g3", outputs=("v2",), inputs=("x1",), create_graph=True),
                Op(name="v4", op="mul", args=("g3[0]", "v2")),
                Grad(name="g5", outputs=("v4",), inputs=("v2",)),
            )
        ),
    ),
    (
        "paddle: v4 = permute_dims(v3) of a 1 x 1 view, requested beside the leaf x1 it "
        "comes from: paddle handed back v3's gradient (0.905 for 0.915, a wrong number); "
        "transpose inputs now get a pass of their own, as the other view ops (the "
        "20 000-program run, seed 1010)",
        Program(
            steps=(
                Leaf(name="x1", data=[1.04, -1.06, 0.24], dtype="float32", watched=True),
                Op(name="v2", op="mean", args=("x1",), params=(("axis", None), ("keepdims", True))),
                Op(name="v3", op="expand_dims", args=("v2",), params=(("axis", 1),)),
                Op(name="v4", op="permute_dims", args=("v3",), params=(("axes", (1, 0)),)),
                Op(name="v5", op="div", args=("v4", "v3")),
                Grad(
                    name="g6",
                    outputs=("v5",),
                    inputs=("x1", "v4"),
                    seeds=(Seed([[0.92]], "float32"),),
                ),
            )
        ),
    ),
    (
        "paddle: backward([v3], inputs=[v3, x2]) consumes v3 = x2.T; a later grad of "
        "-concat([x1*x1, v3]) with respect to x1 alone raised GraphFreedError on paddle "
        "(its engine ran the consumed v3 branch, which reaches no input: torch does not "
        "run it); now paddle answers (the 20 000-program run, seed 1010)",
        Program(
            steps=(
                Leaf(name="x1", data=[[1.45, -1.43], [0.57, 1.23]], dtype="float32", watched=True),
                Leaf(name="x2", data=[[0.5, -0.5], [0.87, 0.68]], dtype="float32", watched=True),
                Op(name="v3", op="T", args=("x2",)),
                Op(name="v4", op="square", args=("x1",)),
                Op(name="v5", op="concat", args=("v4", "v3"), params=(("axis", 0),)),
                Op(name="v6", op="neg", args=("v5",)),
                Backward(outputs=("v3",), inputs=("v3", "x2")),
                Grad(name="g7", outputs=("v6",), inputs=("x1",)),
            )
        ),
    ),
    (
        "paddle: g4 = d(x1*x2)/d[x1, x2] with create_graph=True; d(g4[0])/dx1 (g4[0] is "
        "x2) came out as zeros where it is unused, and d(g4[1])/dx2 likewise: paddle's "
        "one double-grad node for the product reaches both leaves (row 14: its "
        "dependence now comes from a table of formulas)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.2], dtype="float64", watched=True),
                Leaf(name="x2", data=[1.5, 0.3], dtype="float64", watched=True),
                Op(name="v3", op="mul", args=("x1", "x2")),
                Op(name="v4", op="tanh", args=("v3",)),
                Grad(name="g5", outputs=("v3",), inputs=("x1", "x2"), create_graph=True),
                Grad(
                    name="g6",
                    outputs=("g5[0]",),
                    inputs=("x1", "x2"),
                    retain_graph=True,
                    allow_unused=True,
                ),
                Grad(name="g7", outputs=("g5[1]",), inputs=("x1", "x2"), allow_unused=True),
                Grad(name="g8", outputs=("v4",), inputs=("x2",), create_graph=True),
                Grad(name="g9", outputs=("g8[0]",), inputs=("x1", "x2")),
            )
        ),
    ),
    (
        "paddle: grad(v3, v3, constant seed, create_graph=True) is the seed, a constant; "
        "paddle marked it (and the user's seed) as requiring grad (the 20 000-program "
        "run, seed 1010)",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.94, 0.22], [0.63, 1.5]], dtype="float64", watched=True),
                Op(name="v2", op="exp", args=("x1",)),
                Op(name="v3", op="scale", args=("v2",), params=(("c", 0.5),)),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("v3",),
                    seeds=(Seed([[-0.43, -1.28], [-1.4, -1.31]], "float64"),),
                    create_graph=True,
                ),
            )
        ),
    ),
    (
        "torch: g4 = grad(v3, [v2, x1], create_graph=True) with v2 = tanh(x1); torch "
        "computes g4[1] through g4[0], so cutting g4[0] in a grad of cos(g4[1]) changed "
        "torch's answer, not the reference's: now UnsupportedFeatureError on every backend "
        "(the 20 000-program run, seed 1010, 7 programs)",
        Program(
            steps=(
                Leaf(name="x1", data=[-0.93, -1.15, -0.25], dtype="float64", watched=True),
                Op(name="v2", op="tanh", args=("x1",)),
                Op(name="v3", op="mul", args=("v2", "v2")),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("v2", "x1"),
                    seeds=(Seed([1.3, -0.62, 0.64], "float64"),),
                    retain_graph=True,
                    create_graph=True,
                ),
                Op(name="v5", op="cos", args=("g4[1]",)),
                Grad(name="g6", outputs=("v5",), inputs=("x1",), no_grad_vars=("g4[0]",)),
            )
        ),
    ),
    (
        "paddle: a full-range slice v3 = v2[0:2] as an input: paddle's "
        "autograd identifies it with v2 (refused on paddle alone, torch and the tapes "
        "answered); now UnsupportedFeatureError on every backend and the reference",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.5], dtype="float64", watched=True),
                Op(name="v2", op="scale", args=("x1",), params=(("c", 2.0),)),
                Op(name="v3", op="index", args=("v2",), params=(("index", ("slice", 0, 2)),)),
                Op(name="v4", op="mul", args=("v3", "v2")),
                Grad(
                    name="g5",
                    outputs=("v4",),
                    inputs=("v3",),
                    seeds=(Seed([1.0, -0.5], "float64"),),
                ),
            )
        ),
    ),
    (
        "paddle: the same full-range slice as a no_grad_vars cut (the call's first error "
        "ends a program, so a program of its own)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.5], dtype="float64", watched=True),
                Op(name="v2", op="scale", args=("x1",), params=(("c", 2.0),)),
                Op(name="v3", op="index", args=("v2",), params=(("index", ("slice", 0, 2)),)),
                Op(name="v4", op="mul", args=("v3", "v2")),
                Grad(
                    name="g5",
                    outputs=("v4",),
                    inputs=("x1",),
                    seeds=(Seed([1.0, -0.5], "float64"),),
                    no_grad_vars=("v3",),
                ),
            )
        ),
    ),
    (
        "a full-range slice v4 = x3[0:2] of a constant as an input: no gradient to get "
        "wrong, so not refused (the reference refused it, paddle's grad never reached "
        "the check: UnusedInputError; the 20 000-program run, seed 1010)",
        Program(
            steps=(
                Leaf(name="x2", data=1.18, dtype="float32", watched=True),
                Leaf(
                    name="x3", data=[[0.58, 0.56], [-0.72, -1.18]], dtype="float32", watched=False
                ),
                Op(name="v4", op="index", args=("x3",), params=(("index", ("slice", 0, 2)),)),
                Op(name="v5", op="sub", args=("x2", "x2")),
                Grad(name="g6", outputs=("v5", "v5"), inputs=("v4", "x2")),
            )
        ),
    ),
    (
        "torch and paddle: a pass cut at b, whose branch leads to the input through nodes "
        "backward(retain_graph=False) freed, raised GraphFreedError where the tapes "
        "answered; now GraphFreedError everywhere (no_grad_vars never excuse a consumed "
        "graph, rule 15)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.3, -0.8], dtype="float64", watched=True),
                Op(name="v2", op="sin", args=("x1",), params=()),
                Op(name="v3", op="exp", args=("x1",), params=()),
                Op(name="v4", op="mul", args=("v3", "x1"), params=()),
                Op(name="v5", op="sum", args=("v4",), params=(("axis", None), ("keepdims", False))),
                Backward(
                    outputs=("v5",), seeds=None, retain_graph=False, create_graph=False, inputs=None
                ),
                Op(name="v6", op="add", args=("v2", "v4"), params=()),
                Grad(
                    name="g7",
                    outputs=("v6",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("v4",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "reference: a full-range slice cut in a call none of whose inputs requires grad "
        "was UnsupportedFeatureError, every backend UnusedInputError (no pass runs, so "
        "no backend check: rule 16; seed 8, program 73)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[1.15, -1.49], [-0.67, 0.8], [-1.18, -1.24]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="x2", data=-0.99, dtype="float64", watched=False),
                Op(name="v3", op="index", args=("x1",), params=(("index", ("slice", 0, 3)),)),
                Op(name="v4", op="tanh", args=("v3",), params=()),
                Grad(
                    name="g5",
                    outputs=("v4", "v3"),
                    inputs=("x2",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("v3",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: a no_grad_vars leaf read by matmul's formula (d(x1 @ x2)/dx1 cut at x2) "
        "gave a constant result (seed 11)",
        Program(
            steps=(
                Leaf(
                    name="x1", data=[[1.07, -0.98], [-0.84, -0.35]], dtype="float64", watched=True
                ),
                Leaf(name="x2", data=[[-0.43, -0.4], [1.2, 0.89]], dtype="float64", watched=True),
                Op(name="v3", op="matmul", args=("x1", "x2"), params=()),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x1",),
                    create_graph=True,
                    no_grad_vars=("x2",),
                ),
            )
        ),
    ),
    (
        "paddle: a constant second derivative through a view op of a product reported "
        "requires_grad (seed 10)",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.7, -1.01], [-0.48, 1.23]], dtype="float64", watched=True),
                Op(name="v2", op="mul", args=("x1", "x1"), params=()),
                Op(name="v3", op="expand_dims", args=("v2",), params=(("axis", 2),)),
                Grad(name="g4", outputs=("v3",), inputs=("x1",), create_graph=True),
                Grad(name="g5", outputs=("g4[0]",), inputs=("x1",), create_graph=True),
            )
        ),
    ),
    (
        "paddle: backward() through a complex create_graph result gave a wrong number "
        "(seed 15; now HigherOrderUnavailableError there)",
        Program(
            steps=(
                Leaf(name="x1", data=-0.53 + 1.03j, dtype="complex128", watched=True),
                Leaf(name="x2", data=[-0.69 - 0.72j, 1.3 - 0.4j], dtype="complex128", watched=True),
                Op(name="v3", op="mul", args=("x1", "x2"), params=()),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x2",),
                    seeds=(Seed(data=[0.5 - 0.3j, 1.0 + 1.0j], dtype="complex128"),),
                    create_graph=True,
                ),
                Op(name="v5", op="cos", args=("g4[0]",), params=()),
                Backward(
                    outputs=("v5",),
                    seeds=(Seed(data=[1.0 + 0.0j, 0.5 - 1.0j], dtype="complex128"),),
                    retain_graph=None,
                    create_graph=False,
                    inputs=None,
                ),
            )
        ),
    ),
    (
        "numpy, jax, paddle: the gradient of complex exp at an exact zero (x - x) was 0: "
        "the standard's pinned value killed it (seed 25)",
        Program(
            steps=(
                Leaf(
                    name="x1", data=[-0.48 + 0.71j, 1.15 + 0.2j], dtype="complex128", watched=True
                ),
                Op(name="v2", op="sub", args=("x1", "x1"), params=()),
                Op(name="v3", op="exp", args=("v2",), params=()),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x1", "v2"),
                    seeds=(Seed(data=[1.0 + 1.0j, 0.5 - 2.0j], dtype="complex128"),),
                ),
            )
        ),
    ),
    (
        "torch, numpy, jax: a second grad through a full-range slice (x[0:n]) that an "
        "earlier retain_graph=False pass ran raised GraphFreedError; paddle, where the "
        "slice is x, answered. No pass consumes a full slice now (seed 28, program 1002)",
        Program(
            steps=(
                Leaf(
                    name="x2",
                    data=[[-0.35, -0.35, -0.83], [0.84, -1.31, -0.55]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v3", op="index", args=("x2",), params=(("index", ("slice", 0, 2)),)),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x2",),
                    retain_graph=False,
                    allow_unused=True,
                ),
                Grad(name="g5", outputs=("v3", "v3"), inputs=("x2",), allow_unused=False),
            )
        ),
    ),
    (
        "numpy: a complex exp at an exact zero differentiated with create_graph raised a raw "
        "TypeError (the pin's finiteness mask taken on autograd's boxes; seed 34)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[(0.42 - 0.25j)], [(1.3 - 0.9j)]],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v2", op="sub", args=("x1", "x1"), params=()),
                Op(name="v3", op="mul", args=("v2", "v2"), params=()),
                Op(name="v4", op="exp", args=("v3",), params=()),
                Grad(
                    name="g5",
                    outputs=("v4",),
                    inputs=("x1",),
                    seeds=(Seed(data=[[(-1.1 - 0.42j)], [(1.11 - 0.67j)]], dtype="complex64"),),
                    create_graph=True,
                ),
            )
        ),
    ),
    (
        "rule 6 (decided): a create_graph result made before a later pass consumed its "
        "forward nodes raises GraphFreedError on every backend (torch and paddle raised, "
        "the tapes answered; KNOWN until the ruling)",
        Program(
            steps=(
                Leaf(name="x1", data=[1.0, 2.0], dtype="float64", watched=True),
                Op(name="v2", op="mul", args=("x1", "x1"), params=()),
                Op(name="v3", op="mul", args=("v2", "v2"), params=()),
                Op(name="v4", op="sum", args=("v3",), params=(("axis", None), ("keepdims", False))),
                Grad(name="g5", outputs=("v4",), inputs=("x1",), create_graph=True),
                Op(name="v6", op="scale", args=("v2",), params=(("c", 2.0),)),
                Op(name="v7", op="sum", args=("v6",), params=(("axis", None), ("keepdims", False))),
                Grad(name="g8", outputs=("v7",), inputs=("x1",)),
                Op(
                    name="v9",
                    op="sum",
                    args=("g5[0]",),
                    params=(("axis", None), ("keepdims", False)),
                ),
                Grad(name="g10", outputs=("v9",), inputs=("x1",)),
            )
        ),
    ),
    (
        "paddle: a batched create_graph result of a retain_graph=False call raised a raw "
        "TypeError from paddle's engine when differentiated (the rows' stack node took the "
        "hook that marks a gradient graph, and a hook cannot hand on a stack's gradients; "
        "seed 45, program 803)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-0.26, 1.08], [1.12, -1.27]],
                    dtype="float32",
                    watched=True,
                ),
                Op(name="v2", op="mul", args=("x1", "x1"), params=()),
                Grad(
                    name="g3",
                    outputs=("v2",),
                    inputs=("x1",),
                    seeds=(
                        Seed(
                            data=[[[-1.28, -0.33], [0.22, 0.35]], [[-0.59, 0.43], [0.97, -0.9]]],
                            dtype="float32",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    batched=True,
                ),
                Op(
                    name="v4",
                    op="sum",
                    args=("g3[0]",),
                    params=(("axis", None), ("keepdims", False)),
                ),
                Grad(name="g5", outputs=("v4",), inputs=("x1",)),
            )
        ),
    ),
    (
        "paddle: a gradient recorded by the structure pass was read as linear in its roots: "
        "d(x*v*x)/dv (v = -x) differentiated again came back detached (seed 54, program "
        "1120, shrunk)",
        Program(
            steps=(
                Leaf(name="x1", data=1.47, dtype="float32", watched=True),
                Op(name="v2", op="neg", args=("x1",), params=()),
                Op(name="v3", op="mul", args=("x1", "v2"), params=()),
                Op(name="v4", op="mul", args=("v3", "x1"), params=()),
                Grad(
                    name="g5",
                    outputs=("v4",),
                    inputs=("v3", "v4", "v2"),
                    retain_graph=False,
                    create_graph=True,
                ),
                Op(name="v6", op="neg", args=("g5[2]",), params=()),
                Grad(
                    name="g7",
                    outputs=("v6",),
                    inputs=("x1", "x1"),
                    seeds=(Seed(data=[1.24, 1.03], dtype="float32"),),
                    create_graph=True,
                    batched=True,
                ),
            )
        ),
    ),
    (
        "paddle: a no_grad_vars cut at expm1's result was ignored while the namespace "
        "computed expm1 through a PyLayer (paddle runs no tensor hook on a PyLayer's "
        "output): a wrong number (seed 57, program 395)",
        Program(
            steps=(
                Leaf(name="x2", data=[0.34, 1.32, 0.93], dtype="float64", watched=True),
                Op(name="v3", op="expm1", args=("x2",), params=()),
                Op(
                    name="v4",
                    op="vector_norm",
                    args=("v3",),
                    params=(("axis", (0,)), ("keepdims", False), ("ord", 2)),
                ),
                Op(name="v5", op="add", args=("x2", "v4"), params=()),
                Grad(
                    name="g6",
                    outputs=("v5",),
                    inputs=("v5", "x2", "x2"),
                    seeds=(
                        Seed(data=[[-0.69, 0.73, -0.59], [-0.62, -0.73, 0.59]], dtype="float64"),
                    ),
                    retain_graph=True,
                    create_graph=True,
                    no_grad_vars=("v3",),
                    batched=True,
                ),
            )
        ),
    ),
    (
        "paddle: backward(inputs=...) gave a zero .grad to an input that a create_graph "
        "result does not depend on (paddle's graph of it reaches the input; grad left it "
        "unused) (seed 71, program 1066, shrunk)",
        Program(
            steps=(
                Leaf(name="x2", data=[1.39, 0.99, 1.15], dtype="float64", watched=True),
                Leaf(name="x3", data=[-1.42, 1.26, 0.2], dtype="float64", watched=True),
                Op(name="v4", op="div", args=("x3", "x2"), params=()),
                Grad(name="g5", outputs=("v4",), inputs=("x3",), create_graph=True),
                Op(name="v6", op="scale", args=("g5[0]",), params=(("c", 2.0),)),
                Backward(
                    outputs=("v6",),
                    seeds=(Seed(data=[-0.9, -0.59, -0.75], dtype="float64"),),
                    retain_graph=False,
                    inputs=("x2", "x3", "x3"),
                ),
            )
        ),
    ),
    (
        "paddle 3.3: a second derivative through concat with a constant operand raised "
        "SystemError (ConcatDoubleGradNode: 'Unable to fill empty grad inputs due to empty "
        "GradSlotMeta'); issue 23",
        Program(
            steps=(
                Leaf(name="x1", data=[1.0, 2.0], dtype="float64", watched=True),
                Leaf(name="x2", data=[3.0, 4.0], dtype="float64", watched=False),
                Op(name="v3", op="concat", args=("x1", "x2", "x1"), params=(("axis", 0),)),
                Op(name="v4", op="square", args=("v3",), params=()),
                Op(name="v5", op="mul", args=("v4", "v3"), params=()),
                Op(name="v6", op="sum", args=("v5",), params=(("axis", None), ("keepdims", False))),
                Grad(name="g7", outputs=("v6",), inputs=("x1",), create_graph=True),
                Op(
                    name="v8",
                    op="sum",
                    args=("g7[0]",),
                    params=(("axis", None), ("keepdims", False)),
                ),
                Grad(name="g9", outputs=("v8",), inputs=("x1",)),
            )
        ),
    ),
    (
        "rule 6 (issue 23): g = d(sum(x*w))/dx = w reads no forward node, yet carries x*w's; "
        "a later pass consumed it, so differentiating g raises GraphFreedError (torch and "
        "paddle answered, their graph of g running through no consumed node)",
        Program(
            steps=(
                Leaf(name="x1", data=[1.0, 2.0], dtype="float64", watched=True),
                Leaf(name="x2", data=[3.0, 4.0], dtype="float64", watched=True),
                Op(name="v3", op="mul", args=("x1", "x2"), params=()),
                Op(name="v4", op="sum", args=("v3",), params=(("axis", None), ("keepdims", False))),
                Grad(name="g5", outputs=("v4",), inputs=("x1",), create_graph=True),
                Grad(name="g6", outputs=("v4",), inputs=("x2",)),
                Op(name="v7", op="square", args=("g5[0]",), params=()),
                Op(name="v8", op="sum", args=("v7",), params=(("axis", None), ("keepdims", False))),
                Grad(name="g9", outputs=("v8",), inputs=("x2",)),
            )
        ),
    ),
    (
        "paddle (issue 23, row 15): a create_graph=True, retain_graph=False result crosses "
        "the consumed concat node (UnsupportedFeatureError, capability "
        "list_ops_after_consuming, before)",
        Program(
            steps=(
                Leaf(name="x1", data=[1.0, 2.0], dtype="float32", watched=True),
                Op(name="v2", op="square", args=("x1",), params=()),
                Op(name="v3", op="scale", args=("x1",), params=(("c", 3.0),)),
                Op(name="v4", op="concat", args=("v2", "v3"), params=(("axis", 0),)),
                Op(name="v5", op="square", args=("v4",), params=()),
                Op(name="v6", op="sum", args=("v5",), params=(("axis", None), ("keepdims", False))),
                Grad(
                    name="g7",
                    outputs=("v6",),
                    inputs=("x1",),
                    retain_graph=False,
                    create_graph=True,
                ),
                Op(
                    name="v8",
                    op="sum",
                    args=("g7[0]",),
                    params=(("axis", None), ("keepdims", False)),
                ),
                Grad(name="g9", outputs=("v8",), inputs=("x1",)),
            )
        ),
    ),
    (
        "paddle: grad(solve(A, B), A) with A and B both leaves crashed the process "
        "(SIGSEGV in SolveGradKernel, paddle 3.3.1); B alone too",
        Program(
            steps=(
                Leaf(name="x1", data=[[1.4, 0.3], [-0.2, 1.1]], dtype="float64", watched=True),
                Leaf(name="x2", data=[[0.5, -1.2], [0.8, 0.3]], dtype="float64", watched=True),
                Op(name="v3", op="linalg.solve", args=("x1", "x2")),
                Op(name="v4", op="sum", args=("v3",), params=(("axis", None), ("keepdims", False))),
                Grad(name="g5", outputs=("v4",), inputs=("x1",), retain_graph=True),
                Grad(name="g6", outputs=("v4",), inputs=("x2",)),
            )
        ),
    ),
    (
        "paddle: complex solve raised a raw 'kernel not registered' error (paddle 3.3.1)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[(1.2 + 0.4j), (0.3 - 0.2j)], [(-0.5 + 0.1j), (0.9 - 0.7j)]],
                    dtype="complex128",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[[(0.5 - 1.0j)], [(1.1 + 0.3j)]],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v3", op="linalg.solve", args=("x1", "x2")),
                Op(name="v4", op="real", args=("v3",)),
                Op(name="v5", op="sum", args=("v4",), params=(("axis", None), ("keepdims", False))),
                Grad(name="g6", outputs=("v5",), inputs=("x1", "x2")),
            )
        ),
    ),
    (
        "paddle: complex slogdet's logabsdet was complex; the standard's is real",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[(1.2 + 0.4j), (0.3 - 0.2j)], [(-0.5 + 0.1j), (0.9 - 0.7j)]],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v2", op="linalg.slogdet", args=("x1",)),
                Grad(name="g3", outputs=("v2",), inputs=("x1",)),
            )
        ),
    ),
    (
        "paddle: vector_norm(x, ord=3) in float64 was ~1e-8 off (a float32 exponent)",
        Program(
            steps=(
                Leaf(name="x1", data=[1.3, -0.7, 2.1], dtype="float64", watched=True),
                Op(
                    name="v2",
                    op="vector_norm",
                    args=("x1",),
                    params=(("axis", None), ("keepdims", False), ("ord", 3)),
                ),
                Grad(name="g3", outputs=("v2",), inputs=("x1",)),
            )
        ),
    ),
    (
        "torch: grad through x * floor_divide(x, y) raised 'derivative for "
        "aten::floor_divide is not implemented'",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.2], dtype="float64", watched=True),
                Leaf(name="x2", data=[0.3, 0.4], dtype="float64", watched=True),
                Op(name="v3", op="floor_divide", args=("x1", "x2")),
                Op(name="v4", op="mul", args=("x1", "v3")),
                Op(name="v5", op="sum", args=("v4",), params=(("axis", None), ("keepdims", False))),
                Grad(name="g6", outputs=("v5",), inputs=("x1",), create_graph=True),
            )
        ),
    ),
    (
        "torch: positive(y) returned y itself, so a no_grad_vars cut on it cut y",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.2], dtype="float64", watched=True),
                Op(name="v2", op="scale", args=("x1",), params=(("c", 2.0),)),
                Op(name="v3", op="mul", args=("v2", "v2")),
                Op(name="v4", op="positive", args=("v2",)),
                Op(name="v5", op="sum", args=("v3",), params=(("axis", None), ("keepdims", False))),
                Grad(name="g6", outputs=("v5",), inputs=("x1",), no_grad_vars=("v4",)),
            )
        ),
    ),
    (
        "torch: copysign(a, x) w.r.t. x (a cut: only its sign is read) was used, and the "
        "derivative in a kept a history under create_graph (paddle too)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.2, 0.3], dtype="float64", watched=True),
                Leaf(name="x2", data=[-1.0, -2.0, 3.0], dtype="float64", watched=True),
                Op(name="v3", op="copysign", args=("x1", "x2")),
                Op(name="v4", op="sum", args=("v3",), params=(("axis", None), ("keepdims", False))),
                Grad(
                    name="g5",
                    outputs=("v4",),
                    inputs=("x1", "x2"),
                    create_graph=True,
                    allow_unused=True,
                ),
            )
        ),
    ),
    (
        "rule 14: relu written as maximum(h, 0) in a one-layer MLP: the gradient by x depends "
        "on w only, so x is unused by its derivative (numpy gave zeros; issue 23)",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.5, -1.0, 2.0]], dtype="float64", watched=True),
                Leaf(
                    name="x2",
                    data=[[1.0, -0.5], [0.25, 2.0], [-1.5, 0.75]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="c3", data=[[0.0, 0.0]], dtype="float64", watched=False),
                Op(name="v4", op="matmul", args=("x1", "x2")),
                Op(name="v5", op="maximum", args=("v4", "c3")),
                Op(name="v6", op="sum", args=("v5",), params=(("axis", None), ("keepdims", False))),
                Grad(name="g7", outputs=("v6",), inputs=("x1",), create_graph=True),
                Op(
                    name="v8",
                    op="sum",
                    args=("g7[0]",),
                    params=(("axis", None), ("keepdims", False)),
                ),
                Grad(name="g9", outputs=("v8",), inputs=("x1", "x2"), allow_unused=True),
            )
        ),
    ),
    (
        "rule 14: abs in a one-layer MLP: the gradient by x depends on w only (torch and "
        "numpy gave zeros for x through sgn; issue 23)",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.5, -1.0, 2.0]], dtype="float64", watched=True),
                Leaf(
                    name="x2",
                    data=[[1.0, -0.5], [0.25, 2.0], [-1.5, 0.75]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v3", op="matmul", args=("x1", "x2")),
                Op(name="v4", op="abs", args=("v3",)),
                Op(name="v5", op="sum", args=("v4",), params=(("axis", None), ("keepdims", False))),
                Grad(name="g6", outputs=("v5",), inputs=("x1",), create_graph=True),
                Op(
                    name="v7",
                    op="sum",
                    args=("g6[0]",),
                    params=(("axis", None), ("keepdims", False)),
                ),
                Grad(name="g8", outputs=("v7",), inputs=("x1", "x2"), allow_unused=True),
            )
        ),
    ),
    (
        "rule 14: d sum(abs(x))/dx is a constant: differentiating it is "
        "NotDifferentiableError (torch and numpy gave zeros; issue 23)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.0], dtype="float64", watched=True),
                Op(name="v2", op="abs", args=("x1",)),
                Op(name="v3", op="sum", args=("v2",), params=(("axis", None), ("keepdims", False))),
                Grad(name="g4", outputs=("v3",), inputs=("x1",), create_graph=True),
                Op(
                    name="v5",
                    op="sum",
                    args=("g4[0]",),
                    params=(("axis", None), ("keepdims", False)),
                ),
                Grad(name="g6", outputs=("v5",), inputs=("x1",)),
            )
        ),
    ),
    (
        "rule 14: clip's and maximum's gradients are constants; a 1-norm's too (numpy "
        "tape: maximum's second derivative raised a raw TypeError; issue 23)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.0, 0.25], dtype="float64", watched=True),
                Leaf(name="c2", data=[0.0, 0.0, 0.0], dtype="float64", watched=False),
                Op(name="v3", op="maximum", args=("x1", "c2")),
                Op(name="v4", op="clip", args=("x1",), params=(("lo", -0.5), ("hi", 0.4))),
                Op(
                    name="v5",
                    op="vector_norm",
                    args=("x1",),
                    params=(("axis", None), ("keepdims", False), ("ord", 1)),
                ),
                Op(name="v6", op="sum", args=("v3",), params=(("axis", None), ("keepdims", False))),
                Op(name="v7", op="sum", args=("v4",), params=(("axis", None), ("keepdims", False))),
                Op(name="v8", op="add", args=("v6", "v7")),
                Op(name="v9", op="add", args=("v8", "v5")),
                Grad(name="g10", outputs=("v9",), inputs=("x1",), create_graph=True),
                Op(
                    name="v11",
                    op="sum",
                    args=("g10[0]",),
                    params=(("axis", None), ("keepdims", False)),
                ),
                Grad(name="g12", outputs=("v11",), inputs=("x1",), allow_unused=True),
            )
        ),
    ),
    (
        "torch: rule 14: trunc(x)[0] depends on nothing: NotDifferentiableError whatever the "
        "inputs, even another leaf no pass would reach (torch answered None; differential "
        "seed 1, program 256)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.91, -1.45, 1.03], dtype="float64", watched=True),
                Leaf(
                    name="x2",
                    data=[[-0.91, 1.27, 1.41], [1.41, 1.38, 0.96]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v3", op="trunc", args=("x1",)),
                Op(name="v4", op="unstack", args=("v3",), params=(("axis", -1), ("i", 0))),
                Grad(
                    name="g5",
                    outputs=("v4", "v4"),
                    inputs=("x2", "x2"),
                    retain_graph=False,
                    allow_unused=True,
                ),
            )
        ),
    ),
    (
        "torch, paddle: rule 14: backward of ceil(x2), which depends on nothing, is "
        "NotDifferentiableError as grad's (torch and paddle accumulated nothing; "
        "differential seed 2, program 31)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.33, 1.25, 1.06], dtype="float64", watched=True),
                Leaf(name="x2", data=[1.32, 0.49, -1.43], dtype="float64", watched=True),
                Op(name="v3", op="ceil", args=("x2",)),
                Backward(outputs=("v3", "v3"), inputs=("x1", "x1")),
            )
        ),
    ),
    (
        "torch, paddle: rule 14: a constant output (floor) is refused before its seed's "
        "shape is checked (torch and paddle raised GradOutputsError; differential seed "
        "20261123, program 87)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[0.6, 1.05, -0.51], [0.92, -1.49, 0.51]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v2", op="exp", args=("x1",)),
                Op(name="v3", op="flip", args=("v2",), params=(("axis", None),)),
                Op(name="v4", op="floor", args=("v2",)),
                Grad(
                    name="g5",
                    outputs=("v4",),
                    inputs=("v3",),
                    seeds=(Seed(data=[-0.59, -1.33], dtype="float64"),),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                ),
            )
        ),
    ),
    (
        "paddle: rule 14: the create_graph gradient of v * signbit(v), v = take(x, i), "
        "is a constant (paddle's IndexElementwiseGet nodes kept it "
        "requiring grad; differential seed 20261123, program 22, there with take at a "
        "nonzero index)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[1.27, 0.61, 1.05], [0.45, 0.79, -0.82]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="i2", data=[0, 2, 1], dtype="int64", watched=False),
                Op(name="v3", op="take", args=("x1", "i2"), params=(("axis", 1),)),
                Op(name="v4", op="signbit", args=("v3",), params=(("dtype", "float64"),)),
                Grad(name="g5", outputs=("v4",), inputs=("x1",), create_graph=True),
                Grad(name="g6", outputs=("g5[0]",), inputs=("x1",), create_graph=True),
            )
        ),
    ),
    (
        "paddle: take(real(z), i, axis=1) of a 2x3 z: paddle 3.3.1 indexed the strided "
        "view by its memory layout, a 3x2 result (wrong values and gradients; GradOutputsError "
        "for a right-shaped batched seed; differential seed 20261123, program 243)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[
                        [(-0.37 - 0.35j), (-1.25 + 0.43j), (-1.12 - 0.59j)],
                        [(-0.9 + 0.37j), (1.48 + 1.23j), (1.13 + 1.39j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v2", op="real", args=("x1",)),
                Leaf(name="i3", data=[0, 0], dtype="int64", watched=False),
                Op(name="v4", op="take", args=("v2", "i3"), params=(("axis", 1),)),
                Grad(
                    name="g5",
                    outputs=("v4",),
                    inputs=("x1",),
                    seeds=(Seed(data=[[0.98, 0.79], [0.46, -0.74]], dtype="float32"),),
                ),
            )
        ),
    ),
    (
        "numpy, jax: the singular values of linalg.svd (full_matrices=True) had no "
        "gradient (autograd, jax: no derivative of the full SVD); now the reduced SVD's",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.35, -1.15], [0.4, 0.45]], dtype="float64", watched=True),
                Op(name="v2", op="linalg.svd", args=("x1",), params=(("which", 1),)),
                Grad(
                    name="g3",
                    outputs=("v2",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy: broadcast_to into new leading axes raised autograd's AssertionError "
        '("Can\'t handle extra leading dims") under create_graph',
        Program(
            steps=(
                Leaf(name="x1", data=[0.7, -1.2], dtype="float64", watched=True),
                Op(name="v2", op="broadcast_to", args=("x1",), params=(("shape", (3, 2)),)),
                Op(name="v3", op="square", args=("v2",), params=()),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g5",
                    outputs=("g4[0]",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy: eigvalsh under create_graph raised \"Can't differentiate w.r.t. "
        "numpy.bool\" (the dependence trace boxed autograd's nondifferentiable any())",
        Program(
            steps=(
                Leaf(name="x1", data=[[1.3, 0.2], [-0.4, -0.6]], dtype="float64", watched=True),
                Op(name="v2", op="linalg.eigvalsh", args=("x1",), params=()),
                Op(name="v3", op="square", args=("v2",), params=()),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g5",
                    outputs=("g4[0]",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        'numpy: sort under create_graph raised "Can\'t differentiate w.r.t. numpy.int64" '
        "(argsort boxed in the dependence trace)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.9, -0.3, 0.4], dtype="float64", watched=True),
                Op(
                    name="v2", op="sort", args=("x1",), params=(("axis", -1), ("descending", False))
                ),
                Op(name="v3", op="square", args=("v2",), params=()),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g5",
                    outputs=("g4[0]",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy: wrong gradients of repeat along axis=-1 (autograd's repeat VJP slices the "
        "shape with the negative axis as if positive)",
        Program(
            steps=(
                Leaf(name="x1", data=[[1.0, 2.0], [5.0, 6.0]], dtype="float64", watched=True),
                Op(name="v2", op="repeat", args=("x1",), params=(("repeats", 2), ("axis", -1))),
                Op(name="v3", op="square", args=("v2",), params=()),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy, jax: broadcast_arrays(a, x)[0] and meshgrid(a, x)[0] depended on x (zeros "
        "where x is unused)",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.5], [1.5]], dtype="float64", watched=True),
                Leaf(name="x2", data=[0.3, -0.7, 1.1], dtype="float64", watched=True),
                Op(name="v3", op="broadcast_arrays", args=("x1", "x2"), params=()),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x1", "x2"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Leaf(name="x5", data=[0.2, 0.9], dtype="float64", watched=True),
                Op(
                    name="v6",
                    op="meshgrid",
                    args=("x5", "x2"),
                    params=(("indexing", "ij"), ("i", 0)),
                ),
                Grad(
                    name="g7",
                    outputs=("v6",),
                    inputs=("x5", "x2"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy, jax: a *_like result depended on its argument (requires_grad, not unused)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.3, -0.7, 1.1], dtype="float64", watched=True),
                Leaf(name="x2", data=[0.5, 1.5, -0.25], dtype="float64", watched=True),
                Op(name="v3", op="full_like", args=("x1",), params=()),
                Op(name="v4", op="mul", args=("v3", "x2"), params=()),
                Grad(
                    name="g5",
                    outputs=("v4",),
                    inputs=("x1", "x2"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy: sort of an empty array raised ValueError (reshape of size 0)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.7], dtype="float32", watched=True),
                Leaf(name="x2", data=[0.71], dtype="float32", watched=True),
                Leaf(name="m3", data=[False], dtype="bool", watched=False),
                Op(name="v4", op="nonzero_take", args=("x2", "m3"), params=()),
                Op(
                    name="v5", op="sort", args=("v4",), params=(("axis", -1), ("descending", False))
                ),
                Op(name="v6", op="add", args=("v5", "x1"), params=()),
                Grad(
                    name="g7",
                    outputs=("v6",),
                    inputs=("x1",),
                    seeds=(Seed(data=[], dtype="float32"),),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "jax: nonzero of a (reshaped) mask a unigrad.jit step closes over raised jax's "
        "ConcretizationTypeError (now computed concretely: the mask's indices)",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.3, -0.7], [1.1, 0.4]], dtype="float64", watched=True),
                Leaf(name="m2", data=[[True, False], [True, True]], dtype="bool", watched=False),
                Op(name="v3", op="nonzero_take", args=("x1", "m2"), params=()),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x1",),
                    seeds=(Seed(data=[0.5, -1.0, 2.0], dtype="float64"),),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        'numpy: complex acosh under create_graph raised TypeError "ArrayBox & ArrayBox" '
        "(the dependence trace boxed isfinite's masks)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[(1 + 1j), (2 - 1j), (-0.5 + 0.7j)],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v2", op="acosh", args=("x1",), params=()),
                Op(name="v3", op="square", args=("v2",), params=()),
                Op(name="v5", op="sum", args=("v3",), params=(("axis", None), ("keepdims", False))),
                Grad(
                    name="g4",
                    outputs=("v5",),
                    inputs=("x1",),
                    seeds=(Seed(data=(0.5 - 1j), dtype="complex128"),),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy, jax: floor_divide's result depended on its operands (a piecewise-constant "
        "function: NotDifferentiableError, rule 14)",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.35, -1.15], [0.4, 0.45]], dtype="float64", watched=True),
                Op(name="v2", op="floor_divide", args=("x1", "x1"), params=()),
                Op(name="v3", op="sum", args=("v2",), params=(("axis", None), ("keepdims", False))),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "torch: conj (and real) of a real tensor returned the tensor itself, so "
        "copysign(v, conj(v)) took its sign from v and the gradient with respect to conj(v) "
        "was v's (ones where the reference has None; differential seed 7, program 1712)",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.75, -1.15], [-0.9, 0.93]], dtype="float64", watched=True),
                Op(name="v2", op="scale", args=("x1",), params=(("c", 2.0),)),
                Op(name="v3", op="conj", args=("v2",), params=()),
                Op(name="v4", op="copysign", args=("v2", "v3"), params=()),
                Grad(name="g5", outputs=("v4",), inputs=("v3",), allow_unused=True),
            )
        ),
    ),
    (
        "paddle: the create_graph gradient of a product with a rule-14 cut's result "
        "(xp_matmul(trunc(x1), x2) in x2, batched) required grad, where it reads only "
        "constants (differential seed 1, program 226, with the extension ops drawn)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-1.38, 1.47, 1.15], [1.32, -1.42, 0.48]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v2", op="trunc", args=("x1",), params=()),
                Leaf(name="x3", data=[1.22, 1.2, 1.28], dtype="float64", watched=True),
                Op(name="v4", op="xp_matmul", args=("v2", "x3"), params=()),
                Op(name="v5", op="vecdot", args=("v2", "x3"), params=()),
                Grad(
                    name="g6",
                    outputs=("v4",),
                    inputs=("x3", "x3"),
                    seeds=(Seed(data=[[-1.23, 0.35], [0.49, -0.63]], dtype="float64"),),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
                Grad(
                    name="g7",
                    outputs=("v5",),
                    inputs=("x3",),
                    seeds=(Seed(data=[-1.23, 0.35], dtype="float64"),),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: the gradients of a complex pow with a tensor exponent were wrong (paddle "
        "3.3.1's complex elementwise_pow_grad; x1's .grad -59+59j where the reference has "
        "1.5+0.8j; differential seed 7, program 1047)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[(0.62 - 0.35j), (-0.8 + 0.41j)], [(0.27 + 1.1j), (-0.45 - 0.7j)]],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v2", op="positive", args=("x1",), params=()),
                Op(name="v3", op="pow", args=("x1", "v2"), params=()),
                Backward(
                    outputs=("v3",),
                    seeds=(
                        Seed(
                            data=[[(0.5 - 1.0j), (1.2 + 0.3j)], [(-0.7 + 0.9j), (0.4 - 0.2j)]],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=False,
                    inputs=None,
                ),
            )
        ),
    ),
    (
        "paddle: the gradient of x * astype(isnan(x)) through a flip required grad (a "
        "constant: the dependence table did not know paddle's FlipGradNode, so it read "
        "everything; rule 14; differential seed 7, program 84)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-0.46, 1.11], [0.24, -0.79], [-0.56, -0.53]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v2", op="isnan", args=("x1",), params=(("dtype", "float64"),)),
                Op(name="v3", op="flip", args=("v2",), params=(("axis", -1),)),
                Grad(
                    name="g4",
                    outputs=("v3", "v3"),
                    inputs=("x1", "x1"),
                    create_graph=True,
                    allow_unused=True,
                ),
            )
        ),
    ),
    (
        "paddle: a cut at a complex create_graph gradient (the output of a PyLayer, on "
        "which paddle runs no hook) was refused (UnsupportedFeatureError) in a call whose "
        "outputs do not reach it (differential seed 7, program 1122)",
        Program(
            steps=(
                Leaf(name="x1", data=(1.15 + 0.54j), dtype="complex64", watched=True),
                Op(name="v2", op="abs", args=("x1",), params=()),
                Grad(
                    name="g3",
                    outputs=("v2",),
                    inputs=("x1",),
                    retain_graph=True,
                    create_graph=True,
                    single=True,
                ),
                Leaf(name="x4", data=[[0.67, 0.38], [-0.51, 0.26]], dtype="float32", watched=True),
                Op(name="v5", op="linalg.inv", args=("x4",), params=()),
                Grad(name="g6", outputs=("v5",), inputs=("x4",), no_grad_vars=("g3[0]",)),
            )
        ),
    ),
    (
        "the reference: tensordot over an empty axis divided by zero (a tester crash, "
        "differential seed 11, program 1373); the result is zeros, the gradients empty",
        Program(
            steps=(
                Leaf(name="x1", data=[[], []], dtype="float64", watched=True),
                Leaf(name="x2", data=[], dtype="float64", watched=True),
                Op(name="v3", op="tensordot", args=("x1", "x2"), params=(("axes", 1),)),
                Grad(name="g4", outputs=("v3",), inputs=("x1", "x2"), create_graph=True),
            )
        ),
    ),
    (
        "torch: backward(inputs=[x, v]) with v = sin(sign(w)), a tensor that depends on "
        "nothing (rule 14), answered where the contract says UnusedInputError (paddle: "
        "UnsupportedFeatureError); differential CI seed 20261123, program 239",
        Program(
            steps=(
                Leaf(name="x1", data=[[-0.7, 0.86], [-1.29, 1.23]], dtype="float64", watched=True),
                Leaf(name="x2", data=0.65, dtype="float64", watched=True),
                Op(name="v3", op="neg", args=("x1",), params=()),
                Op(name="v4", op="sign", args=("x2",), params=()),
                Op(name="v5", op="sin", args=("v4",), params=()),
                Backward(outputs=("v3",), retain_graph=True, inputs=("x1", "v5")),
            )
        ),
    ),
    (
        "paddle: take_along_axis of a complex array (no complex kernel in paddle 3.3: a "
        "raw RuntimeError); differential CI seed 20261123, program 209",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[(1 + 2j), (3 - 1j), (-2 + 0.5j)], [0.5j, (2 + 0j), (-1 - 1j)]],
                    dtype="complex128",
                    watched=True,
                ),
                Leaf(name="i2", data=[[2, 0], [1, 1]], dtype="int64", watched=False),
                Op(name="v3", op="take_along_axis", args=("x1", "i2"), params=(("axis", 1),)),
                Op(name="v4", op="real", args=("v3",), params=()),
                Grad(name="g5", outputs=("v4",), inputs=("x1",)),
            )
        ),
    ),
    (
        "paddle: einsum over an empty axis (its differentiable einsum took the size-0 "
        "axis for a broadcast 1: a raw ValueError); differential seed 1, program 50",
        Program(
            steps=(
                Leaf(name="x1", data=[[], [], []], dtype="float64", watched=True),
                Op(name="v2", op="einsum_rowdot", args=("x1",), params=()),
                Grad(name="g3", outputs=("v2",), inputs=("x1",), create_graph=True),
            )
        ),
    ),
    (
        "jax: the create_graph gradient of logsumexp of a 0-d array (the array itself: "
        "a constant 1) required grad; differential CI seed 20261123, program 224",
        Program(
            steps=(
                Leaf(name="x1", data=0.79, dtype="float64", watched=True),
                Op(name="v2", op="logsumexp", args=("x1",), params=()),
                Grad(name="g3", outputs=("v2",), inputs=("x1",), create_graph=True),
            )
        ),
    ),
    (
        "torch: a create_graph gradient through ceil (a cut) of a pow required grad: torch sends "
        "zeros through ceil and pow's backward multiplied them by functions of the input "
        "(differential seed 11, program 3129)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-1.37, -0.36], [0.21, 1.43], [-0.67, -0.34]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="x2", data=[[1.4], [-1.16]], dtype="float64", watched=True),
                Op(name="v3", op="squeeze", args=("x2",), params=(("axis", 1),)),
                Op(name="v4", op="pow", args=("v3", "x2"), params=()),
                Op(name="v5", op="ceil", args=("v4",), params=()),
                Op(name="v6", op="where_gt", args=("v5", "v3"), params=()),
                Op(name="v7", op="remainder", args=("v3", "v5"), params=()),
                Leaf(name="x8", data=[[1.31, 0.54], [0.65, 0.45]], dtype="float64", watched=False),
                Op(name="v9", op="div", args=("v7", "x8"), params=()),
                Op(name="v10", op="empty_like", args=("v4",), params=()),
                Op(name="v11", op="where_equal", args=("v3", "v9"), params=()),
                Op(name="v12", op="exp", args=("x8",), params=()),
                Grad(
                    name="g13",
                    outputs=("v11", "v11"),
                    inputs=("x2", "x2", "x2"),
                    seeds=(None, Seed(data=[[-0.7, 1.16], [-0.48, -0.21]], dtype="float64")),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v14", op="full_like", args=("v9",), params=()),
                Grad(
                    name="g15",
                    outputs=("v9", "v9"),
                    inputs=("x2", "x2", "x2"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "torch, paddle: a pass through sign(v) of a consumed v raised GraphFreedError: the "
        "contract's pass does not run v's node behind the cut (differential seed 11, program "
        "4642)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-1.33, 0.95], [-0.61, 0.59], [0.52, -0.93]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v2", op="square", args=("x1",), params=()),
                Op(name="v3", op="broadcast_arrays", args=("x1", "v2"), params=(("i", 0),)),
                Op(name="v4", op="rsub", args=("v3",), params=(("c", 3.0),)),
                Op(name="v5", op="sign", args=("v4",), params=()),
                Op(name="v6", op="remainder", args=("v5", "v2"), params=()),
                Op(name="v7", op="log2", args=("v3",), params=()),
                Op(name="v8", op="logaddexp", args=("v4", "v3"), params=()),
                Op(name="v9", op="logical_and", args=("v6", "v2"), params=()),
                Op(name="v10", op="logical_not", args=("v5", "v4"), params=()),
                Grad(
                    name="g11",
                    outputs=("v8", "v4"),
                    inputs=("x1", "x1", "x1"),
                    seeds=(
                        Seed(data=[[-0.98, -0.67], [1.23, -1.32], [1.07, 0.92]], dtype="float64"),
                        Seed(data=[[-0.41, 1.11], [0.88, 1.15], [-1.33, 0.46]], dtype="float64"),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v12", op="log1p", args=("g11[1]",), params=()),
                Op(
                    name="v13",
                    op="cumulative_sum",
                    args=("v9",),
                    params=(("axis", 0), ("include_initial", True)),
                ),
                Grad(
                    name="g14",
                    outputs=("v13", "v13"),
                    inputs=("x1", "x1"),
                    seeds=(None, None),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v15", op="isfinite", args=("g11[1]",), params=(("dtype", "float64"),)),
                Grad(
                    name="g16",
                    outputs=("v15", "v4"),
                    inputs=("x1",),
                    seeds=(
                        Seed(
                            data=[
                                [[-0.25, -0.42], [1.5, 1.31]],
                                [[0.7, 1.02], [0.31, -1.27]],
                                [[0.72, -0.38], [-1.1, -0.78]],
                            ],
                            dtype="float64",
                        ),
                        Seed(data=[-0.29, 0.99, -0.36], dtype="float64"),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: repeat's grad node read as unknown (reading everything): a constant create_graph"
        " gradient required grad (differential seed 11, program 744; tile 4454, take_along_axis "
        "1907 and 1908 likewise)",
        Program(
            steps=(
                Leaf(name="x1", data=-1.2, dtype="float64", watched=True),
                Leaf(
                    name="x2",
                    data=[[0.28, 0.8], [-1.34, -0.53], [0.82, 0.41]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="x3", data=-0.51, dtype="float64", watched=True),
                Op(name="v4", op="square", args=("x1",), params=()),
                Leaf(name="x5", data=1.19, dtype="float64", watched=False),
                Op(name="v6", op="subtract", args=("x3", "x5"), params=()),
                Leaf(name="x7", data=[-0.97, 1.19], dtype="float64", watched=True),
                Op(name="v8", op="linalg.tensordot", args=("x2", "x7"), params=(("axes", 1),)),
                Op(name="v9", op="log10", args=("x5",), params=()),
                Op(name="v10", op="repeat", args=("x2",), params=(("axis", None), ("repeats", 2))),
                Op(name="v11", op="broadcast_to", args=("v10",), params=(("shape", (3, 12)),)),
                Op(
                    name="v12", op="min", args=("x7",), params=(("axis", (0,)), ("keepdims", False))
                ),
                Op(name="v13", op="minimum", args=("v9", "v12"), params=()),
                Op(
                    name="v14",
                    op="moveaxis",
                    args=("v11",),
                    params=(("destination", -2), ("source", -1)),
                ),
                Op(name="v15", op="mul", args=("x5", "v14"), params=()),
                Grad(
                    name="g16",
                    outputs=("v10", "v15"),
                    inputs=("x2", "x2"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g17",
                    outputs=("v12", "v15"),
                    inputs=("x7", "x7", "x7"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("v15",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: sort's take_along_axis grad node read as unknown: a constant create_graph "
        "gradient required grad (differential seed 11, program 1907)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-0.3, 0.41, -1.15], [-0.68, -1.23, -0.91]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(
                    name="x2", data=[[-1.43, 0.97], [-1.48, -1.4]], dtype="float64", watched=False
                ),
                Op(
                    name="v3",
                    op="std",
                    args=("x1",),
                    params=(("axis", None), ("correction", 1), ("keepdims", False)),
                ),
                Op(name="v4", op="neg", args=("v3",), params=()),
                Op(name="v5", op="signbit", args=("x1",), params=(("dtype", "float64"),)),
                Op(name="v6", op="sin", args=("v4",), params=()),
                Op(name="v7", op="sinh", args=("v4",), params=()),
                Op(
                    name="v8", op="sort", args=("v5",), params=(("axis", -2), ("descending", False))
                ),
                Grad(
                    name="g9",
                    outputs=("v6",),
                    inputs=("x1",),
                    seeds=(Seed(data=[0.23, 0.84], dtype="float64"),),
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=True,
                ),
                Grad(
                    name="g10",
                    outputs=("v8",),
                    inputs=("x1", "x1"),
                    seeds=(Seed(data=[[-1.3, -0.3, 0.55], [-0.29, 1.06, -1.42]], dtype="float64"),),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    # tt, seed 2026: numpy tape det derivative at a singular matrix
    (
        "numpy: det's create_graph gradient at a singular matrix raised numpy's raw "
        "LinAlgError (autograd's det(A) inv(A)^T rule; differential seed 2026, program "
        "1596)",
        Program(
            steps=(
                Leaf(name="x1", data=[[-1.4, 0.67], [1.11, 0.92]], dtype="float64", watched=True),
                Op(name="v2", op="signbit", args=("x1",), params=(("dtype", "float64"),)),
                Leaf(
                    name="x6",
                    data=[[-0.28, 1.43, 1.34], [1.25, -0.22, 1.19]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(
                    name="x7",
                    data=[[1.22, 1.33, -0.52], [-1.32, 0.55, -0.24]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v8", op="linalg.cross", args=("x6", "x7"), params=()),
                Op(name="v9", op="linalg.det", args=("v2",), params=()),
                Grad(
                    name="g10",
                    outputs=("v9", "v9"),
                    inputs=("x1", "x1"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("v8",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    # tt, seed 2026: numpy tape gradient through an empty boolean mask
    (
        "numpy: a gradient through where() of an empty mask and a 0-d operand raised "
        "NumPy's raw 'cannot reshape array of size 0' (autograd's broadcast_to VJP; "
        "differential seed 2026, program 28320)",
        Program(
            steps=(
                Leaf(name="x1", data=(0.74 - 0.26j), dtype="complex64", watched=True),
                Leaf(name="m2", data=False, dtype="bool", watched=False),
                Op(name="v3", op="nonzero_take", args=("x1", "m2"), params=()),
                Op(name="v4", op="where_not_equal", args=("v3", "x1"), params=()),
                Grad(
                    name="g8",
                    outputs=("v4",),
                    inputs=("x1", "x1", "x1"),
                    seeds=(Seed(data=[], dtype="complex64"),),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    # tt, seed 2026: numpy tape complex tan derivative far from the real axis
    (
        "numpy: complex64 tan's derivative was NaN where cos overflows (autograd's g / "
        "cos(x)**2; differential seed 2026, program 24777)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[(0.89 - 0.45j), (1 + 0.67j)], [(0.65 + 1.47j), (-1.19 + 0.36j)]],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x4",
                    data=[
                        [(-0.33 + 1.42j), (0.87 - 0.63j), (0.8 - 0.44j)],
                        [(0.69 - 0.9j), (0.24 + 0.73j), (0.62 + 0.4j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v5", op="matmul", args=("x1", "x4"), params=()),
                Op(name="v6", op="neg", args=("v5",), params=()),
                Op(name="v7", op="scale", args=("v5",), params=(("c", -1.5),)),
                Op(name="v8", op="positive", args=("v7",), params=()),
                Op(name="v9", op="pow", args=("v8", "v6"), params=()),
                Op(name="v13", op="tan", args=("v9",), params=()),
                Grad(
                    name="g14",
                    outputs=("v6", "v13"),
                    inputs=("x4", "x4"),
                    seeds=(
                        Seed(
                            data=[
                                [
                                    [(0.88 + 1.23j), (1.4 - 0.54j), (-1.23 - 1.19j)],
                                    [(0.73 + 1.18j), (0.81 - 1.26j), (0.85 + 0.76j)],
                                ],
                                [
                                    [(0.57 - 0.56j), (-0.21 + 1.2j), (-0.85 + 0.93j)],
                                    [(0.53 - 0.99j), (1.13 + 0.77j), (-0.97 - 0.86j)],
                                ],
                            ],
                            dtype="complex64",
                        ),
                        Seed(
                            data=[
                                [
                                    [(0.43 + 0.55j), (0.65 + 0.67j), (1.19 + 1.36j)],
                                    [(1.41 - 0.56j), (1.07 - 0.48j), (-1.21 + 0.68j)],
                                ],
                                [
                                    [(0.83 + 0.73j), (0.89 + 1.34j), (0.23 + 0.76j)],
                                    [(0.82 - 0.67j), (-1.48 + 1.38j), (-1.18 + 1.13j)],
                                ],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    # tt, seed 2026: torch remainder's gradient in its divisor required grad
    (
        "torch: remainder(a, b)'s create_graph gradient in b (-floor(a / b) through "
        "div(rounding_mode='floor')) required grad where the structure rule says constant"
        " (differential seed 2026, program 3770)",
        Program(
            steps=(
                Leaf(
                    name="x2",
                    data=[
                        [(-0.98 - 0.57j), (1.4 - 0.37j), (-1.24 + 1.21j)],
                        [(-1.4 + 0.74j), (-1.25 - 1.24j), (-1.44 - 0.93j)],
                    ],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v4", op="real", args=("x2",), params=()),
                Op(name="v5", op="reciprocal", args=("v4",), params=()),
                Op(name="v6", op="relu", args=("v5",), params=()),
                Leaf(
                    name="x7",
                    data=[[0.52, -1.29, -1.18], [-0.75, 0.33, 1.02]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v8", op="remainder", args=("v6", "x7"), params=()),
                Op(name="v9", op="repeat", args=("x7",), params=(("axis", None), ("repeats", 1))),
                Grad(
                    name="g10",
                    outputs=("v8", "v9"),
                    inputs=("x7",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v12", op="fft.rfft", args=("g10[0]",), params=(("axis", -1),)),
                Grad(
                    name="g13",
                    outputs=("v12",),
                    inputs=("x7",),
                    seeds=(
                        Seed(
                            data=[
                                [(0.94 + 0.45j), (0.28 + 0.33j)],
                                [(1.12 + 0.2j), (-0.9 - 1.03j)],
                            ],
                            dtype="complex128",
                        ),
                    ),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    # tt, seed 2026: torch @ between float64 and float32
    (
        "torch: a float64 matrix @ a float32 vector raised torch's raw RuntimeError "
        "(addmv input tensors must have the same dtype; differential seed 2026, program "
        "2251)",
        Program(
            steps=(
                Leaf(
                    name="x2",
                    data=[[-0.83, 1.04, -1.32], [0.74, 0.49, -0.96]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="x4", data=[0.41, 0.57, -0.91], dtype="float32", watched=True),
                Op(name="v6", op="neg", args=("x2",), params=()),
                Op(name="v7", op="xp_pow_scalar", args=("v6",), params=(("c", 3.0),)),
                Op(name="v8", op="ones_like", args=("v6",), params=()),
                Op(name="v9", op="logical_xor", args=("x4", "v7"), params=()),
                Op(name="v11", op="matmul", args=("v8", "x4"), params=()),
                Op(name="v12", op="matrix_transpose", args=("v9",), params=()),
                Grad(
                    name="g13",
                    outputs=("v12", "v12"),
                    inputs=("x4",),
                    seeds=(
                        Seed(
                            data=[
                                [[-0.55, 0.92], [-0.99, -1.42], [1.14, 0.95]],
                                [[-1.24, 0.64], [-0.62, -0.79], [-1.21, 1.14]],
                            ],
                            dtype="float64",
                        ),
                        Seed(
                            data=[
                                [[0.23, -0.59], [-1.0, 1.26], [-0.79, 0.75]],
                                [[-0.35, 0.62], [1.44, 1.22], [-1.17, -1.4]],
                            ],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=True,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    # tt, seed 2026: torch prod of one factor
    (
        "torch: the create_graph gradient of prod over an axis of length 1 (prod / x, the"
        " constant 1) required grad (differential seed 2026, program 25664)",
        Program(
            steps=(
                Leaf(name="x2", data=1.12, dtype="float64", watched=True),
                Op(name="v3", op="expand_dims", args=("x2",), params=(("axis", 0),)),
                Op(
                    name="v8", op="prod", args=("v3",), params=(("axis", (0,)), ("keepdims", False))
                ),
                Grad(
                    name="g12",
                    outputs=("v8",),
                    inputs=("x2",),
                    seeds=(None,),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    # tt: numpy tape pow(x, 0) in x ** 2's second derivative
    (
        "numpy: x ** 2's second derivative (2, through autograd's x ** 0) required grad "
        "where the structure rule says constant (fails on paddle too until its pow is "
        "cut)",
        Program(
            steps=(
                Leaf(name="x1", data=[1.5, -2.0], dtype="float64", watched=True),
                Op(name="v2", op="pow_scalar", args=("x1",), params=(("c", 2),)),
                Op(name="v3", op="sum", args=("v2",), params=(("axis", None), ("keepdims", False))),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x1",),
                    seeds=(None,),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(
                    name="v5",
                    op="sum",
                    args=("g4[0]",),
                    params=(("axis", None), ("keepdims", False)),
                ),
                Grad(
                    name="g6",
                    outputs=("v5",),
                    inputs=("x1",),
                    seeds=(None,),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: a pass stopping at svdvals(x) (svd's second result) crashed with a raw "
        "SystemError: Invalid slot_id for GradTensorHolder::add() (differential seed "
        "2026, program 4588)",
        Program(
            steps=(
                Leaf(name="x6", data=[[0.54, 1.16], [0.63, 0.77]], dtype="float64", watched=True),
                Leaf(name="x7", data=[[0.35], [-1.09]], dtype="float64", watched=True),
                Op(name="v10", op="linalg.svdvals", args=("x6",), params=()),
                Leaf(name="x11", data=[[0.71, 1.14]], dtype="float64", watched=True),
                Op(name="v12", op="linalg.tensordot", args=("x7", "x11"), params=(("axes", 1),)),
                Grad(
                    name="g14",
                    outputs=("v12", "v10"),
                    inputs=("x7", "v10"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: a pass through the second derivative of x ** 2.0 that does not reach x "
        "raised a raw RuntimeError from PowTripleGradNode (DenseTensor D_X can not be "
        "nullptr; differential seed 2026, program 23898)",
        Program(
            steps=(
                Leaf(name="x2", data=[[-1.23, 1.48], [0.67, -0.94]], dtype="float64", watched=True),
                Op(name="v4", op="xp_square", args=("x2",), params=()),
                Leaf(name="x5", data=[[-0.97, 1.41], [0.69, 1.19]], dtype="float64", watched=True),
                Op(name="v6", op="logical_or", args=("v4", "x5"), params=()),
                Op(name="v8", op="pow_scalar", args=("x5",), params=(("c", 2.0),)),
                Op(name="v9", op="reciprocal", args=("v8",), params=()),
                Op(name="v10", op="relu", args=("v8",), params=()),
                Leaf(name="x11", data=[[-0.4, -0.31], [1.01, 0.59]], dtype="float64", watched=True),
                Grad(
                    name="g14",
                    outputs=("v10",),
                    inputs=("x5",),
                    seeds=(Seed(data=[[0.39, 0.69], [-0.34, -1.3]], dtype="float64"),),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v15", op="div", args=("g14[0]", "v6"), params=()),
                Grad(
                    name="g16",
                    outputs=("v15",),
                    inputs=("x5", "x5"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=("v4",),
                    batched=False,
                    single=False,
                ),
                Op(name="v17", op="xp_add", args=("g16[0]", "v15"), params=()),
                Grad(
                    name="g18",
                    outputs=("v17", "v17"),
                    inputs=("x11", "x11", "x2"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=("v9",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: a complex output in the same create_graph call made maximum's constant "
        "gradient require grad (every piecewise-linear node read as unknown in a complex "
        "call; differential seed 2026, program 9546)",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.85, 0.85], [0.89, 0.63]], dtype="float64", watched=True),
                Leaf(name="x3", data=-0.52, dtype="float64", watched=True),
                Op(name="v4", op="log_softmax", args=("x1",), params=()),
                Op(name="v5", op="fft.fftn", args=("v4",), params=()),
                Op(name="v6", op="maximum", args=("x3", "v4"), params=()),
                Op(name="v7", op="signbit", args=("v6",), params=(("dtype", "float64"),)),
                Leaf(
                    name="x8",
                    data=[[(-0.84 + 1.09j), (-0.86 - 0.29j)], [(0.54 + 0.42j), (-0.39 + 0.67j)]],
                    dtype="complex128",
                    watched=False,
                ),
                Leaf(name="m9", data=[[True, True], [True, True]], dtype="bool", watched=False),
                Op(name="v10", op="where", args=("v5", "x8", "m9"), params=()),
                Op(name="v13", op="fft.hfft", args=("v10",), params=(("axis", -2),)),
                Op(name="v14", op="fft.ifft", args=("v13",), params=(("axis", 1),)),
                Grad(
                    name="g17",
                    outputs=("v7", "v14"),
                    inputs=("x3",),
                    seeds=(
                        Seed(data=[[0.55, -1.49], [0.84, 0.43]], dtype="float64"),
                        Seed(
                            data=[
                                [(-0.6 + 1.31j), (-1.01 + 1.31j)],
                                [(-1 - 0.32j), (0.63 - 0.74j)],
                            ],
                            dtype="complex128",
                        ),
                    ),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: broadcast_arrays of 0-d tensors returned the operand itself (paddle's "
        "expand to the shape ()), so the result as an input got the gradient of every use"
        " of the operand (differential seed 2026, program 21340)",
        Program(
            steps=(
                Leaf(name="x2", data=0.99, dtype="float64", watched=True),
                Op(name="v3", op="neg", args=("x2",), params=()),
                Op(name="v4", op="neg", args=("v3",), params=()),
                Op(name="v7", op="neg", args=("v4",), params=()),
                Op(name="v8", op="atanh", args=("v4",), params=()),
                Op(name="v9", op="broadcast_arrays", args=("v7", "v4"), params=(("i", 0),)),
                Op(name="v10", op="broadcast_to", args=("v7",), params=(("shape", (2,)),)),
                Grad(
                    name="g12",
                    outputs=("v10",),
                    inputs=("v9", "x2", "x2"),
                    seeds=(Seed(data=[0.59, -1.36], dtype="float64"),),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=("v8",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: cumulative_prod over a length-1 axis (the namespace unbinds the axis) "
        "made a constant create_graph gradient require grad: UnbindGradNode was an "
        "unknown node (differential seed 2026, program 28970)",
        Program(
            steps=(
                Leaf(name="x5", data=[[1.23, -0.71], [-1.24, 1.2]], dtype="float64", watched=False),
                Leaf(
                    name="x8", data=[[-1.42, -1.01], [1.29, -0.81]], dtype="float64", watched=True
                ),
                Op(name="v9", op="vecdot", args=("x5", "x8"), params=()),
                Op(name="v14", op="sum", args=("v9",), params=(("axis", None), ("keepdims", True))),
                Leaf(name="i15", data=[0, 0, 0], dtype="int64", watched=False),
                Op(name="v16", op="take", args=("x5", "i15"), params=(("axis", -1),)),
                Op(
                    name="v19",
                    op="cumulative_prod",
                    args=("v14",),
                    params=(("axis", -1), ("include_initial", True)),
                ),
                Grad(
                    name="g20",
                    outputs=("v19", "v19"),
                    inputs=("x8", "x8", "v16"),
                    seeds=(
                        Seed(data=[[-1.24, -0.98], [0.68, 1.22]], dtype="float64"),
                        Seed(data=[[1.03, -0.6], [-1.37, 0.76]], dtype="float64"),
                    ),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: two results of one create_graph call share a double-grad node; a later "
        "pass through one reached the other as an input, which got zeros where it is "
        "unused (UnusedInputError expected; differential seed 2026, program 16226)",
        Program(
            steps=(
                Leaf(name="x2", data=[[-0.23, -1.05], [1.38, 0.26]], dtype="float64", watched=True),
                Leaf(name="x3", data=[-1.03, 1.23], dtype="float64", watched=True),
                Op(name="v4", op="xp_matmul", args=("x2", "x3"), params=()),
                Op(name="v6", op="softmax", args=("x3",), params=()),
                Op(name="v7", op="softplus", args=("v4",), params=()),
                Op(name="v8", op="sort", args=("v6",), params=(("axis", 0), ("descending", False))),
                Grad(
                    name="g9",
                    outputs=("v8", "v7"),
                    inputs=("x3", "x3", "x2"),
                    seeds=(Seed(data=[1.08, 0.99], dtype="float64"), None),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v10", op="where_equal", args=("g9[0]", "v4"), params=()),
                Leaf(name="x11", data=[-1.06, 1.15], dtype="float64", watched=False),
                Op(name="v12", op="where_equal", args=("g9[0]", "x11"), params=()),
                Grad(
                    name="g13",
                    outputs=("v12", "v10"),
                    inputs=("v12", "g9[2]", "x3"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: a complex create_graph result (wrapped in a PyLayer, on whose output "
        "paddle runs no hook) as a no_grad_vars cut was refused (UnsupportedFeatureError)"
        " where the other backends answer (differential seed 2026, programs 16329, 23434)",
        Program(
            steps=(
                Leaf(
                    name="x2",
                    data=[
                        [(-0.32 + 1.45j), (-0.51 + 0.73j), (0.64 - 1.08j)],
                        [(1.05 + 1.35j), (1.07 - 0.6j), (0.94 + 1.25j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x4",
                    data=[
                        [(1.05 + 0.35j), (-1.31 - 0.24j), (-0.41 + 1.12j)],
                        [(-0.25 - 0.67j), (-1.28 + 0.35j), (0.97 - 1.48j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v5", op="div", args=("x2", "x4"), params=()),
                Grad(
                    name="g8",
                    outputs=("v5",),
                    inputs=("x4", "x4"),
                    seeds=(
                        Seed(
                            data=[
                                [(0.4 + 0.62j), (0.61 + 0.97j), (0.71 + 1.31j)],
                                [(0.96 + 1.2j), (0.59 - 0.95j), (1.02 - 0.99j)],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v9", op="fft.ifft", args=("g8[1]",), params=(("axis", -2),)),
                Op(name="v10", op="sqrt", args=("g8[0]",), params=()),
                Grad(
                    name="g11",
                    outputs=("v10",),
                    inputs=("x4", "x4", "v9"),
                    seeds=(
                        Seed(
                            data=[
                                [
                                    [(-0.85 - 1.16j), (1.47 + 1.36j), (0.72 + 0.85j)],
                                    [(0.3 - 0.83j), (-0.69 + 1.47j), (0.71 - 0.72j)],
                                ],
                                [
                                    [(-0.87 + 0.98j), (-0.82 - 0.71j), (-0.3 + 0.86j)],
                                    [(-1.19 - 1.42j), (1.43 + 0.3j), (-0.87 - 0.62j)],
                                ],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=("g8[1]",),
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: once any graph had been consumed, a cut pass that reaches no input ran "
        "its cut branches and marked them consumed (through ceil, rule 14): a later pass "
        "raised GraphFreedError where the other backends answer (differential seed 2026, "
        "program 40132)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, 1.5], dtype="float64", watched=True),
                Op(name="v2", op="sin", args=("x1",), params=()),
                Grad(
                    name="g3",
                    outputs=("v2",),
                    inputs=("x1",),
                    seeds=(Seed(data=[1.0, -0.5], dtype="float64"),),
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Leaf(name="x4", data=[0.3, -0.7], dtype="float64", watched=True),
                Op(name="v5", op="exp", args=("x4",), params=()),
                Op(name="v6", op="sin", args=("v5",), params=()),
                Op(name="v7", op="ceil", args=("x4",), params=()),
                Op(name="v8", op="xp_add", args=("v6", "v7"), params=()),
                Grad(
                    name="g9",
                    outputs=("v8",),
                    inputs=("x4",),
                    seeds=(Seed(data=[0.6, -0.91], dtype="float64"),),
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=("v5",),
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g10",
                    outputs=("v8",),
                    inputs=("x4",),
                    seeds=(Seed(data=[-1.3, 0.62], dtype="float64"),),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: backward() without inputs accumulated zeros into a watched leaf reached "
        "only through trunc (rule 14) where the other backends leave its .grad None "
        "(differential seed 2026, programs 30664, 36031, 12191)",
        Program(
            steps=(
                Leaf(
                    name="x2",
                    data=[[-1.02, -0.96, -1.0], [-0.7, 0.31, -1.1]],
                    dtype="float64",
                    watched=False,
                ),
                Leaf(
                    name="x3",
                    data=[[0.31, 0.24], [-0.52, -0.96], [-0.97, -0.36]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v6", op="reciprocal", args=("x3",), params=()),
                Op(name="v7", op="trunc", args=("v6",), params=()),
                Leaf(name="x8", data=[-1.01, 0.5], dtype="float64", watched=True),
                Op(name="v9", op="matmul", args=("v7", "x8"), params=()),
                Op(name="v13", op="logical_xor", args=("v9", "x2"), params=()),
                Op(name="v15", op="matmul", args=("v13", "v9"), params=()),
                Backward(
                    outputs=("v15", "v15"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=False,
                    inputs=None,
                ),
            )
        ),
    ),
    (
        "rule 6 (consumption): a pass through a create_graph result runs the forward "
        "nodes it carries, so a retain_graph=False pass through it consumes them; a later"
        " plain pass through them raises (the tapes answered; differential seed 2026, "
        "program 16938)",
        Program(
            steps=(
                Leaf(name="x1", data=0.47, dtype="float32", watched=True),
                Leaf(
                    name="x2",
                    data=[[1.39, 0.28], [1.1, 0.32], [-1.33, 0.7]],
                    dtype="float32",
                    watched=False,
                ),
                Leaf(
                    name="x3", data=[[-0.23, 0.62], [-1.04, -0.98]], dtype="float32", watched=True
                ),
                Op(name="v4", op="linalg.matrix_power", args=("x3",), params=(("n", 3),)),
                Op(name="v5", op="expm1", args=("v4",), params=()),
                Op(name="v6", op="fft.fft", args=("v5",), params=(("axis", 1),)),
                Op(name="v7", op="fft.fftn", args=("v5",), params=()),
                Op(name="v8", op="fft.fftshift", args=("v5",), params=()),
                Grad(
                    name="g9",
                    outputs=("v8", "v8"),
                    inputs=("x3", "x3"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v10", op="sum", args=("g9[1]",), params=(("axis", 0), ("keepdims", True))),
                Op(name="v11", op="log10", args=("v4",), params=()),
                Grad(
                    name="g12",
                    outputs=("v10",),
                    inputs=("x1", "x3"),
                    seeds=(None,),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v13", op="tanh", args=("x2",), params=()),
                Grad(
                    name="g14",
                    outputs=("v11", "v11"),
                    inputs=("x3", "x3", "x3"),
                    seeds=(
                        Seed(data=[[1.47, -0.25], [-0.45, 1.27]], dtype="float32"),
                        Seed(data=[[0.66, 0.49], [-0.47, -1.23]], dtype="float32"),
                    ),
                    retain_graph=True,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "rule 6 (consumption): a create_graph=True, retain_graph=False call through an "
        "earlier result carries its nodes afresh: its results stay differentiable (torch "
        "and paddle raised; differential seed 2026, program 37042)",
        Program(
            steps=(
                Leaf(name="x1", data=-0.98, dtype="float64", watched=True),
                Leaf(name="x2", data=[[1.06, 0.64], [-0.82, -0.22]], dtype="float64", watched=True),
                Op(name="v3", op="exp", args=("x2",), params=()),
                Op(name="v4", op="linalg.svd", args=("x2",), params=(("which", 2),)),
                Op(name="v5", op="log1p_sq", args=("v4",), params=()),
                Op(name="v6", op="T", args=("v4",), params=()),
                Op(name="v7", op="cos", args=("v4",), params=()),
                Op(name="v8", op="cosh", args=("x2",), params=()),
                Op(
                    name="v9",
                    op="cumulative_prod",
                    args=("v8",),
                    params=(("axis", 0), ("include_initial", True)),
                ),
                Op(
                    name="v10",
                    op="cumulative_sum",
                    args=("v3",),
                    params=(("axis", -2), ("include_initial", False)),
                ),
                Grad(
                    name="g11",
                    outputs=("v10",),
                    inputs=("x2", "x2"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v12", op="sinh", args=("g11[0]",), params=()),
                Grad(
                    name="g13",
                    outputs=("v12",),
                    inputs=("x2", "x2"),
                    seeds=(None,),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(
                    name="v14",
                    op="index_slice",
                    args=("g13[0]",),
                    params=(("index", ("slice", 1, 2)),),
                ),
                Grad(
                    name="g15",
                    outputs=("v14",),
                    inputs=("x2",),
                    seeds=(None,),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
            )
        ),
    ),
    (
        "rule 6 (consumption): the same, the earlier result itself made by a consuming "
        "call (torch and paddle raised; differential seed 2026, program 26602)",
        Program(
            steps=(
                Leaf(name="x1", data=1.31, dtype="float64", watched=True),
                Leaf(name="x2", data=[1.1, 1.45, 0.95], dtype="float64", watched=True),
                Op(
                    name="v3",
                    op="std",
                    args=("x2",),
                    params=(("axis", -1), ("correction", 0), ("keepdims", True)),
                ),
                Op(name="v4", op="sub", args=("x1", "v3"), params=()),
                Op(name="v5", op="sum", args=("v4",), params=(("axis", None), ("keepdims", True))),
                Leaf(name="i6", data=[0, 0], dtype="int64", watched=False),
                Op(name="v7", op="take", args=("v4", "i6"), params=(("axis", 0),)),
                Grad(
                    name="g8",
                    outputs=("v7", "v7"),
                    inputs=("x2", "x2", "x1"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v9", op="unstack", args=("g8[1]",), params=(("axis", 0), ("i", 1))),
                Op(
                    name="v10",
                    op="max",
                    args=("g8[0]",),
                    params=(("axis", None), ("keepdims", True)),
                ),
                Grad(
                    name="g11",
                    outputs=("v10",),
                    inputs=("x2",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v12", op="log_softmax", args=("g11[0]",), params=()),
                Grad(
                    name="g13",
                    outputs=("v12", "v12"),
                    inputs=("x2", "x2"),
                    seeds=(
                        Seed(data=[[-1.11, -1.05, 1.1], [0.37, 1.06, 0.74]], dtype="float64"),
                        Seed(data=[[0.83, 1.12, 0.89], [-0.56, 0.67, 0.69]], dtype="float64"),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    (
        "rule 6 (consumption): a gradient graph consumed by a later pass raises from a "
        "tensor computed on the result (torch answered; differential seed 2026, program "
        "20266)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-0.6, 1.27], [-0.9, -0.6], [-1.49, -1.42]],
                    dtype="float32",
                    watched=True,
                ),
                Op(name="v2", op="exp", args=("x1",), params=()),
                Op(name="v3", op="tan", args=("v2",), params=()),
                Leaf(name="x4", data=[0.52, 0.76, -0.76], dtype="float32", watched=True),
                Leaf(name="x5", data=[-0.82, -0.34, -0.61], dtype="float32", watched=False),
                Op(name="v6", op="linalg.outer", args=("x4", "x5"), params=()),
                Leaf(name="x7", data=[[-0.74, -0.36], [0.24, 1.46]], dtype="float32", watched=True),
                Op(name="v8", op="linalg.pinv", args=("x7",), params=()),
                Leaf(
                    name="x9",
                    data=[[0.56, 0.94], [0.28, -1.31], [0.68, 1.43]],
                    dtype="float32",
                    watched=False,
                ),
                Op(name="v10", op="linalg.qr", args=("x9",), params=(("which", 1),)),
                Op(name="v11", op="linalg.slogdet", args=("x7",), params=()),
                Grad(
                    name="g12",
                    outputs=("v11",),
                    inputs=("x7", "x7", "x7"),
                    seeds=(None,),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v13", op="linalg.vecdot", args=("g12[0]", "g12[1]"), params=()),
                Op(
                    name="v14",
                    op="cumulative_sum",
                    args=("g12[2]",),
                    params=(("axis", 0), ("include_initial", True)),
                ),
                Grad(
                    name="g15",
                    outputs=("v14", "v8"),
                    inputs=("x7", "x7"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v16", op="log2", args=("g12[2]",), params=()),
                Grad(
                    name="g17",
                    outputs=("v13",),
                    inputs=("x7", "x4", "x4"),
                    seeds=(None,),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "rule 6/14 (consumption): remainder's gradient reaches the dividend only through "
        "a floor division: a later pass does not run it (torch raised GraphFreedError for"
        " UnusedInputError; differential seed 2026, program 11762)",
        Program(
            steps=(
                Leaf(
                    name="x1", data=[[-1.49, -1.11], [-1.28, -1.18]], dtype="float64", watched=True
                ),
                Leaf(name="x2", data=[[0.61, -1.42], [1.04, 0.49]], dtype="float64", watched=True),
                Leaf(name="x3", data=[[0.51, 0.7], [-1.22, -0.77]], dtype="float64", watched=True),
                Leaf(
                    name="x4", data=[[-0.42, -1.05], [1.38, -0.29]], dtype="float64", watched=True
                ),
                Op(name="v5", op="remainder", args=("x2", "x4"), params=()),
                Op(name="v6", op="reshape", args=("x2",), params=(("shape", (2, 2)),)),
                Op(
                    name="v7",
                    op="var",
                    args=("x4",),
                    params=(("axis", None), ("correction", 1), ("keepdims", False)),
                ),
                Op(name="v8", op="astype", args=("v6",), params=(("dtype", "float32"),)),
                Op(name="v9", op="linalg.trace", args=("x3",), params=(("offset", -1),)),
                Leaf(name="i10", data=[1, 0], dtype="int64", watched=False),
                Op(name="v11", op="take", args=("v8", "i10"), params=(("axis", -1),)),
                Op(name="v12", op="reciprocal", args=("v7",), params=()),
                Op(name="v13", op="relu", args=("v12",), params=()),
                Op(name="v14", op="remainder", args=("v11", "x4"), params=()),
                Op(name="v15", op="repeat", args=("v14",), params=(("axis", None), ("repeats", 2))),
                Grad(
                    name="g16",
                    outputs=("v15", "v15"),
                    inputs=("x4",),
                    seeds=(
                        Seed(
                            data=[0.69, 1.11, 1.24, -1.15, 0.83, 0.92, 0.7, -0.82], dtype="float64"
                        ),
                        Seed(
                            data=[0.61, 1.28, -1.09, -0.63, -0.78, 1.47, 0.31, -0.77],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Leaf(name="x17", data=[[-1.04], [1.16]], dtype="float64", watched=True),
                Op(name="v18", op="squeeze", args=("x17",), params=(("axis", 1),)),
                Grad(
                    name="g19",
                    outputs=("v15", "v13"),
                    inputs=("x4",),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=("v8",),
                    batched=False,
                    single=False,
                ),
                Op(name="v20", op="logaddexp", args=("g16[0]", "v9"), params=()),
                Grad(
                    name="g21",
                    outputs=("v20",),
                    inputs=("x2", "x3"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "rule 6/14 (consumption): a retain_graph=False pass with no_grad_vars does not "
        "consume what reaches the input only through ceil (paddle raised later; "
        "differential seed 2026, program 40132)",
        Program(
            steps=(
                Leaf(name="x1", data=[[-0.64, 1.29], [0.74, 0.34]], dtype="float64", watched=True),
                Op(name="v2", op="mean", args=("x1",), params=(("axis", -2), ("keepdims", False))),
                Op(name="v3", op="sort", args=("v2",), params=(("axis", 0), ("descending", True))),
                Op(name="v4", op="acosh", args=("v3",), params=()),
                Op(name="v5", op="sqrt", args=("v4",), params=()),
                Op(name="v6", op="ceil", args=("v3",), params=()),
                Op(name="v7", op="logaddexp", args=("v6", "v5"), params=()),
                Op(name="v8", op="logical_and", args=("v4", "v7"), params=()),
                Op(name="v9", op="logical_not", args=("v5", "v8"), params=()),
                Op(name="v10", op="logical_or", args=("v8", "v7"), params=()),
                Grad(
                    name="g11",
                    outputs=("v10", "v8"),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=("v4",),
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g12",
                    outputs=("v10", "v10"),
                    inputs=("x1", "x1"),
                    seeds=(
                        Seed(data=[0.6, -0.91], dtype="float64"),
                        Seed(data=[-1.3, 0.62], dtype="float64"),
                    ),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "rule 15 (consumption, KNOWN until now): a list op over leaves consumed by a "
        "create_graph=True, retain_graph=False call raises in a later plain pass (paddle "
        "answered; differential seed 2026, program 19494)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-1.24, 0.42], [-0.51, -0.21], [0.56, 1.13]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v2", op="fft.fftn", args=("x1",), params=()),
                Op(name="v3", op="permute_dims", args=("v2",), params=(("axes", (1, 0)),)),
                Op(
                    name="v4", op="max", args=("x1",), params=(("axis", (0, 1)), ("keepdims", True))
                ),
                Leaf(name="i5", data=[[0]], dtype="int64", watched=False),
                Op(name="v6", op="take_along_axis", args=("v4", "i5"), params=(("axis", 0),)),
                Op(name="v7", op="index_slice", args=("v6",), params=(("index", ("slice", 0, 1)),)),
                Op(name="v8", op="sqrt", args=("v6",), params=()),
                Op(name="v9", op="xp_square", args=("v8",), params=()),
                Op(name="v10", op="squeeze", args=("v6",), params=(("axis", 0),)),
                Leaf(name="x11", data=[1.09], dtype="float64", watched=True),
                Op(name="v12", op="stack", args=("v10", "x11"), params=(("axis", -1),)),
                Grad(
                    name="g13",
                    outputs=("v12",),
                    inputs=("x11", "x11"),
                    seeds=(Seed(data=[[0.61, -0.72]], dtype="float64"),),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g14",
                    outputs=("v12",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=("v12",),
                    batched=False,
                    single=True,
                ),
            )
        ),
    ),
    (
        "rule 6/14 (consumption): backward into every leaf does not consume a node that "
        "reaches the loss only through floor (torch and paddle raised later; differential"
        " seed 2026, program 12191, reduced)",
        Program(
            steps=(
                Leaf(name="x1", data=0.53, dtype="float64", watched=True),
                Op(name="v2", op="neg", args=("x1",), params=()),
                Op(name="v3", op="floor", args=("v2",), params=()),
                Op(name="v4", op="mul", args=("v3", "x1"), params=()),
                Op(name="v5", op="sum", args=("v4",), params=(("axis", None), ("keepdims", False))),
                Backward(
                    outputs=("v5",), seeds=None, retain_graph=None, create_graph=False, inputs=None
                ),
                Grad(
                    name="g6",
                    outputs=("v2",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "jax tape: XLA's CPU compiler rejected the compiled gradient of an FFT of an inv "
        "result (raw JaxRuntimeError, RET_CHECK IsMonotonicWithDim0Major; differential "
        "seed 2026, program 391)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-1.0, -0.42], [0.66, 1.09], [1.26, -1.32]],
                    dtype="float32",
                    watched=True,
                ),
                Leaf(name="x2", data=0.39, dtype="float32", watched=False),
                Leaf(
                    name="x3",
                    data=[[0.94, -0.88, -0.61], [-1.47, 1.34, -0.73]],
                    dtype="float32",
                    watched=True,
                ),
                Op(name="v4", op="linalg.matrix_transpose", args=("x3",), params=()),
                Op(name="v5", op="floor_divide", args=("x3", "x2"), params=()),
                Leaf(name="x6", data=[[-0.95, 0.73], [1.26, 1.27]], dtype="float32", watched=True),
                Op(name="v7", op="linalg.inv", args=("x6",), params=()),
                Op(name="v8", op="fft.rfftn", args=("v7",), params=()),
                Op(name="v9", op="flip", args=("v7",), params=(("axis", None),)),
                Op(name="v10", op="floor", args=("x3",), params=()),
                Op(name="v11", op="floor_divide", args=("v9", "v7"), params=()),
                Backward(
                    outputs=("v7", "v8"),
                    seeds=(
                        Seed(data=[[-1.06, 0.68], [-0.52, 0.94]], dtype="float32"),
                        Seed(
                            data=[
                                [(0.95 + 1.25j), (0.71 + 1.15j)],
                                [(-0.29 + 0.64j), (-1.41 - 0.83j)],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=True,
                    create_graph=False,
                    inputs=None,
                ),
            )
        ),
    ),
    # tensorflow (issue 29): the classes the tf2 branch fixed, run on every backend
    (
        "tensorflow: complex det gradient (TF's MatrixDeterminant gradient misses conj(det))",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[(-1.16 + 1.15j), (0.33 + 1.08j)], [(0.34 + 1.09j), (-0.93 - 0.5j)]],
                    dtype="complex128",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[
                        [(-1.43 - 0.94j), (0.22 - 0.52j), (1.05 + 1.26j)],
                        [(0.83 + 0.34j), (-0.97 + 0.57j), (0.76 - 0.65j)],
                    ],
                    dtype="complex128",
                    watched=False,
                ),
                Leaf(
                    name="x3",
                    data=[
                        [(-0.6 - 0.74j), (0.61 + 1.01j)],
                        [(0.46 - 0.77j), (-0.27 - 1.1j)],
                        [(-1.35 - 0.92j), (0.3 + 0.64j)],
                    ],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v4", op="neg", args=("x1",), params=()),
                Op(name="v5", op="neg", args=("v4",), params=()),
                Leaf(
                    name="x6",
                    data=[
                        [(-0.75 - 0.74j), (-1.31 + 0.27j), (0.3 - 0.27j)],
                        [(0.67 - 0.24j), (0.66 + 0.89j), (-0.54 + 1.02j)],
                    ],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v7", op="imag", args=("x6",), params=()),
                Leaf(
                    name="x8",
                    data=[[-1.02, -0.2, -0.74], [0.35, 1.49, 0.68]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v9", op="where_less_equal", args=("v7", "x8"), params=()),
                Leaf(name="x10", data=[[-0.25, 0.7], [0.68, -1.13]], dtype="float64", watched=True),
                Op(name="v11", op="linalg.cholesky", args=("x10",), params=(("dtype", "float64"),)),
                Op(name="v12", op="linalg.cross", args=("v7", "x8"), params=()),
                Op(name="v13", op="linalg.det", args=("v4",), params=()),
                Grad(
                    name="g14",
                    outputs=("v13", "v13"),
                    inputs=("x1", "x1"),
                    seeds=(
                        Seed(data=[(0.29 - 1.3j), (0.29 - 1.36j)], dtype="complex128"),
                        Seed(data=[(-1.47 + 0.68j), (0.5 - 1.09j)], dtype="complex128"),
                    ),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    (
        "tensorflow: vecdot of float32 and float64 (raw InvalidArgumentError in Mul)",
        Program(
            steps=(
                Leaf(name="x1", data=1.33, dtype="float64", watched=True),
                Leaf(
                    name="x2",
                    data=[[1.39, 0.76, 1.45], [0.38, 1.08, 1.33]],
                    dtype="float64",
                    watched=False,
                ),
                Leaf(name="x3", data=[-1.32, 0.92, 0.96], dtype="float64", watched=False),
                Op(name="v4", op="max", args=("x3",), params=(("axis", -1), ("keepdims", False))),
                Op(name="v5", op="permute_dims", args=("x2",), params=(("axes", (1, 0)),)),
                Op(name="v6", op="ceil", args=("v4",), params=()),
                Leaf(name="m7", data=[True, True, True], dtype="bool", watched=False),
                Op(name="v8", op="nonzero_take", args=("x3", "m7"), params=()),
                Op(name="v9", op="astype", args=("x3",), params=(("dtype", "float32"),)),
                Op(name="v10", op="linalg.trace", args=("v5",), params=(("offset", 1),)),
                Op(name="v11", op="linalg.vecdot", args=("v9", "x3"), params=()),
                Op(
                    name="v12",
                    op="vector_norm",
                    args=("v8",),
                    params=(("axis", None), ("keepdims", False), ("ord", 3)),
                ),
                Op(name="v13", op="log", args=("v6",), params=()),
                Backward(
                    outputs=("v4", "v13"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    inputs=("x3", "x3", "x1"),
                ),
                Backward(
                    outputs=("v13", "v13"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    inputs=("x3", "x2", "x2"),
                ),
            )
        ),
    ),
    (
        "tensorflow: a constant create_graph result indexed by a namespace mask (plain tf.Tensor)",
        Program(
            steps=(
                Leaf(name="x1", data=[[-0.99, -1.08], [0.57, 0.26]], dtype="float64", watched=True),
                Leaf(name="x2", data=0.79, dtype="float64", watched=False),
                Leaf(
                    name="x3",
                    data=[[1.11, -0.8], [-0.39, 0.68], [1.42, 0.55]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(
                    name="x4",
                    data=[[0.67, -1.19], [1.15, 0.56], [-0.46, 1.23]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v5", op="where_equal", args=("x3", "x4"), params=()),
                Op(name="v6", op="erf", args=("x2",), params=()),
                Op(name="v7", op="exp", args=("v6",), params=()),
                Op(name="v8", op="expand_dims", args=("x4",), params=(("axis", 1),)),
                Grad(
                    name="g9",
                    outputs=("v8", "v8"),
                    inputs=("x4",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Leaf(name="i10", data=[0], dtype="int64", watched=False),
                Op(
                    name="v11",
                    op="index_array",
                    args=("v8", "i10"),
                    params=(("index", ("array",)),),
                ),
                Leaf(
                    name="m12",
                    data=[[True, False], [False, False], [True, True]],
                    dtype="bool",
                    watched=False,
                ),
                Op(
                    name="v13",
                    op="index_mask",
                    args=("g9[0]", "m12"),
                    params=(("index", ("mask",)),),
                ),
                Grad(
                    name="g14",
                    outputs=("v13",),
                    inputs=("x4", "x3"),
                    seeds=(Seed(data=[1.5, 1.39, 0.53], dtype="float64"),),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("v13",),
                    batched=False,
                    single=False,
                ),
                Op(name="v15", op="isinf", args=("v8",), params=(("dtype", "float64"),)),
                Grad(
                    name="g16",
                    outputs=("v15", "v13"),
                    inputs=("x3", "x3", "x4"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "tensorflow: hypot of float32 and float64 (raw InvalidArgumentError in AddV2)",
        Program(
            steps=(
                Leaf(name="x1", data=-0.55, dtype="float32", watched=True),
                Op(name="v2", op="log10", args=("x1",), params=()),
                Op(name="v3", op="conj", args=("v2",), params=()),
                Op(name="v4", op="expand_dims", args=("v3",), params=(("axis", 0),)),
                Op(name="v5", op="astype", args=("x1",), params=(("dtype", "float64"),)),
                Op(name="v6", op="full_like", args=("v3",), params=()),
                Op(name="v7", op="where_gt", args=("v5", "v6"), params=()),
                Op(name="v8", op="where_greater_equal", args=("v6", "v5"), params=()),
                Op(name="v9", op="hypot", args=("v4", "v7"), params=()),
                Leaf(
                    name="x10",
                    data=[
                        [(0.66 - 0.81j), (0.98 - 0.8j), (-0.56 + 0.76j)],
                        [(0.61 - 0.43j), (0.63 - 1.42j), (1.3 + 0.72j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v11", op="imag", args=("x10",), params=()),
                Grad(
                    name="g12",
                    outputs=("v11",),
                    inputs=("x10", "x10"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "tensorflow: integer-array indexing of a constant (plain tf.Tensor, tensorflow#50438)",
        Program(
            steps=(
                Leaf(name="x1", data=0.59, dtype="float64", watched=True),
                Leaf(
                    name="x2",
                    data=[[-0.57, 0.56], [-0.61, -0.96], [-0.24, -1.26]],
                    dtype="float64",
                    watched=False,
                ),
                Leaf(name="x3", data=-1.44, dtype="float64", watched=True),
                Op(name="v4", op="asin", args=("x3",), params=()),
                Leaf(
                    name="m5",
                    data=[[True, True], [False, True], [True, False]],
                    dtype="bool",
                    watched=False,
                ),
                Op(name="v6", op="index_mask", args=("x2", "m5"), params=(("index", ("mask",)),)),
                Leaf(name="i7", data=[1], dtype="int64", watched=False),
                Op(name="v8", op="take", args=("v6", "i7"), params=(("axis", -1),)),
                Leaf(name="i9", data=[1, -2, -3], dtype="int64", watched=False),
                Op(
                    name="v10", op="index_array", args=("v6", "i9"), params=(("index", ("array",)),)
                ),
                Op(name="v11", op="T", args=("x2",), params=()),
                Op(name="v12", op="maximum", args=("v11", "x3"), params=()),
                Leaf(name="i13", data=[[0], [2]], dtype="int64", watched=False),
                Op(name="v14", op="take_along_axis", args=("v12", "i13"), params=(("axis", 1),)),
                Op(name="v15", op="tan", args=("v12",), params=()),
                Op(name="v16", op="tanh", args=("v15",), params=()),
                Op(name="v17", op="tensordot", args=("v16", "x2"), params=(("axes", 1),)),
                Grad(
                    name="g18",
                    outputs=("v12", "v17"),
                    inputs=("x3",),
                    seeds=(
                        Seed(data=[0.89, 1.39], dtype="float64"),
                        Seed(data=[1.3, 1.23], dtype="float64"),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "tensorflow: .T of a namespace result over constants (plain tf.Tensor, tensorflow#50438)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.95, -1.24, 0.69], dtype="float64", watched=True),
                Leaf(name="x2", data=[[1.32, 0.46], [0.82, -1.46]], dtype="float64", watched=True),
                Leaf(
                    name="x3",
                    data=[[-0.62, -1.45, 0.48], [0.31, 0.76, -1.14]],
                    dtype="float64",
                    watched=False,
                ),
                Leaf(name="x4", data=[-0.35, 0.62, -1.41], dtype="float64", watched=True),
                Op(name="v5", op="searchsorted", args=("x4", "x1"), params=(("dtype", "float64"),)),
                Op(name="v6", op="cosh", args=("x3",), params=()),
                Op(name="v7", op="reciprocal", args=("v6",), params=()),
                Op(name="v8", op="linalg.det", args=("x2",), params=()),
                Op(name="v9", op="expand_dims", args=("v5",), params=(("axis", 1),)),
                Op(name="v10", op="tanh", args=("v7",), params=()),
                Op(name="v11", op="T", args=("v6",), params=()),
                Op(name="v12", op="expm1", args=("v7",), params=()),
                Op(name="v13", op="fft.fft", args=("v12",), params=(("axis", 1),)),
                Op(name="v14", op="fft.fftn", args=("v10",), params=()),
                Op(name="v15", op="fft.fftshift", args=("v13",), params=()),
                Grad(
                    name="g16",
                    outputs=("v9",),
                    inputs=("x4", "x4", "x4"),
                    seeds=(None,),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g17",
                    outputs=("v9", "v9"),
                    inputs=("x4", "x4"),
                    seeds=(None, Seed(data=[[0.69], [-0.69], [0.79]], dtype="float64")),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "torch: a batched create_graph gradient through ceil is a constant (2026/9347)",
        Program(
            steps=(
                Leaf(name="x1", data=[-0.85, 0.67, -1.28], dtype="float64", watched=True),
                Leaf(name="x2", data=[[-1.28, 0.27], [-1.07, -0.2]], dtype="float64", watched=True),
                Op(name="v3", op="neg", args=("x2",), params=()),
                Op(name="v4", op="sum", args=("x1",), params=(("axis", None), ("keepdims", False))),
                Op(name="v5", op="logaddexp", args=("x2", "v3"), params=()),
                Op(name="v6", op="ceil", args=("v5",), params=()),
                Leaf(
                    name="x7",
                    data=[[-1.09, 0.41, -1.08], [-0.47, 0.33, 0.43]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v8", op="linalg.matmul", args=("v5", "x7"), params=()),
                Leaf(
                    name="x9",
                    data=[[-1.13, -0.73, -0.22], [-1.35, 0.32, -0.82]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v10", op="logaddexp", args=("x7", "x9"), params=()),
                Leaf(
                    name="x11",
                    data=[[-0.52, 1.31, -0.39], [-0.2, -1.32, 1.18]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v12", op="logical_and", args=("x7", "x11"), params=()),
                Op(name="v13", op="logical_not", args=("x9", "x11"), params=()),
                Op(name="v14", op="logical_or", args=("x2", "v6"), params=()),
                Grad(
                    name="g15",
                    outputs=("v14",),
                    inputs=("x2",),
                    seeds=(
                        Seed(
                            data=[[[0.39, 1.16], [-0.72, 0.85]], [[-1.44, -1.17], [-0.88, 0.58]]],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=True,
                ),
            )
        ),
    ),
    (
        "torch: no_grad_vars at det leaves a constant create_graph result (26/4149)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[(1.07 + 0.89j), (0.22 - 1.06j), (0.49 - 0.49j)],
                    dtype="complex128",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[[(1.4 - 1.33j), (-1.32 - 0.32j)], [(0.27 + 0.87j), (0.43 + 0.89j)]],
                    dtype="complex128",
                    watched=True,
                ),
                Leaf(
                    name="x3",
                    data=[[(-0.98 + 1.45j), (1.14 + 1.18j)], [(0.48 + 0.57j), (0.4 + 1.29j)]],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v4", op="rsub", args=("x2",), params=(("c", -1.5),)),
                Op(name="v5", op="linalg.det", args=("v4",), params=()),
                Op(name="v6", op="neg", args=("x2",), params=()),
                Op(name="v7", op="linalg.slogdet", args=("x2",), params=()),
                Op(name="v8", op="tensordot", args=("v6", "x3"), params=(("axes", 1),)),
                Op(name="v9", op="linalg.det", args=("v6",), params=()),
                Op(name="v10", op="abs", args=("v4",), params=()),
                Op(name="v11", op="acos", args=("v8",), params=()),
                Op(name="v12", op="acosh", args=("v6",), params=()),
                Op(name="v13", op="add", args=("v9", "v4"), params=()),
                Grad(
                    name="g14",
                    outputs=("v13",),
                    inputs=("x2", "x2"),
                    seeds=(
                        Seed(
                            data=[
                                [
                                    [(1.33 - 0.89j), (0.9 - 0.84j)],
                                    [(-0.86 - 0.49j), (-0.28 - 1.36j)],
                                ],
                                [[(0.36 + 1.21j), (-0.59 + 0.6j)], [(0.3 + 0.84j), (1.23 + 1.21j)]],
                            ],
                            dtype="complex128",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=("v9",),
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    (
        "torch: an fft along a non-empty axis of an empty array raised MKL's error; the "
        "reference failed to reshape it (77/85)",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.52, -1.21], [0.45, 1.1]], dtype="float64", watched=True),
                Leaf(name="x2", data=[0.43, -0.36, 1.5], dtype="float64", watched=True),
                Leaf(
                    name="x3",
                    data=[[0.8, 0.84, -0.27], [-0.4, -0.98, 0.29]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="x4", data=[[-0.94], [-1.32]], dtype="float64", watched=True),
                Op(name="v5", op="squeeze", args=("x4",), params=(("axis", 1),)),
                Op(name="v6", op="cos", args=("v5",), params=()),
                Op(name="v7", op="log1p", args=("v5",), params=()),
                Op(name="v8", op="diff", args=("x4",), params=()),
                Op(name="v9", op="min", args=("v6",), params=(("axis", None), ("keepdims", False))),
                Op(name="v10", op="linalg.svd", args=("x1",), params=(("which", 1),)),
                Leaf(name="m11", data=[True, True], dtype="bool", watched=False),
                Op(name="v12", op="where", args=("v10", "v6", "m11"), params=()),
                Op(name="v13", op="fft.ihfft", args=("v8",), params=(("axis", -2),)),
                Leaf(
                    name="x14",
                    data=[
                        [(-1.25 + 0.27j), (0.7 - 0.59j), (-0.36 + 1.14j)],
                        [(1.34 + 0.9j), (1.15 - 0.69j), (-0.25 - 0.75j)],
                    ],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v15", op="fft.irfft", args=("x14",), params=(("axis", 0),)),
                Leaf(
                    name="x16",
                    data=[
                        [(0.94 + 1.31j), (-1.2 + 1.11j), (0.62 - 0.61j)],
                        [(1.1 - 0.37j), (-1.41 + 0.61j), (-1.41 + 1.17j)],
                    ],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v17", op="fft.irfftn", args=("x16",), params=()),
                Op(name="v18", op="fft.rfft", args=("v17",), params=(("axis", -2),)),
                Grad(
                    name="g19",
                    outputs=("v7",),
                    inputs=("x3", "x4", "v10"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g20",
                    outputs=("v18",),
                    inputs=("x16", "x16"),
                    seeds=(
                        Seed(
                            data=[
                                [(-1.15 + 0.62j), (-0.48 + 1.49j), (-0.49 + 0.5j), (-0.61 - 1.3j)],
                                [(1.42 + 0.67j), (0.79 + 0.39j), (1.34 - 1.09j), (1.25 + 0.26j)],
                            ],
                            dtype="complex128",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "matrix_norm of 2x0 and 0x2 matrices: 0 for 2, nuc, inf and -1 (torch: no history"
        " for 2, IndexError for -1; paddle and the numpy tape: ValueError for the maxima)",
        Program(
            steps=(
                Leaf(name="x1", data=[[[], []], [[], []]], dtype="float64", watched=True),
                Leaf(name="x2", data=[[0.5, -1.2, 0.8]], dtype="float64", watched=True),
                Op(
                    name="v3",
                    op="matrix_norm",
                    args=("x1",),
                    params=(("keepdims", False), ("ord", 2)),
                ),
                Op(
                    name="v4",
                    op="matrix_norm",
                    args=("x1",),
                    params=(("keepdims", True), ("ord", "nuc")),
                ),
                Op(
                    name="v5",
                    op="matrix_norm",
                    args=("x1",),
                    params=(("keepdims", False), ("ord", "inf")),
                ),
                Op(name="v6", op="matrix_transpose", args=("x1",), params=()),
                Op(
                    name="v7",
                    op="matrix_norm",
                    args=("v6",),
                    params=(("keepdims", False), ("ord", -1)),
                ),
                Op(name="v8", op="add", args=("v3", "v5"), params=()),
                Grad(
                    name="g9",
                    outputs=("v8", "v4", "v7"),
                    inputs=("x1",),
                    seeds=(
                        Seed(data=[1.5, -0.5], dtype="float64"),
                        Seed(data=[[[0.25]], [[2.0]]], dtype="float64"),
                        Seed(data=[1.0, 1.0], dtype="float64"),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: fast mode: a constant create_graph result kept its history and carried "
        "its call's record: a later cut between that call's inputs and outputs was "
        "refused as ambiguous (UnsupportedFeatureError) where strict mode answers "
        "(differential seed 26, program 2954)",
        Program(
            steps=(
                Leaf(
                    name="x2",
                    data=[
                        [(1.39 - 1.18j), (0.83 + 0.71j), (-1.41 + 0.93j)],
                        [(0.75 + 0.89j), (-1 + 0.93j), (-0.54 + 0.73j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(name="i3", data=[-2], dtype="int64", watched=False),
                Op(name="v4", op="index_array", args=("x2", "i3"), params=(("index", ("array",)),)),
                Op(name="v5", op="index_int", args=("v4",), params=(("index", ("int", 0)),)),
                Leaf(name="m6", data=[True, True, False], dtype="bool", watched=False),
                Op(name="v7", op="index_mask", args=("v5", "m6"), params=(("index", ("mask",)),)),
                Op(name="v8", op="index_slice", args=("v7",), params=(("index", ("slice", 0, 2)),)),
                Grad(
                    name="g10",
                    outputs=("v8", "v8"),
                    inputs=("x2",),
                    seeds=(
                        Seed(data=[(-0.95 + 0.6j), (-0.74 - 1.07j)], dtype="complex64"),
                        Seed(data=[(0.72 - 0.48j), (-1.27 + 0.64j)], dtype="complex64"),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Leaf(
                    name="x12",
                    data=[
                        [(0.27 + 1.35j), (-1.4 - 1.48j), (1.11 + 0.7j)],
                        [(-0.45 - 0.94j), (1.1 - 0.52j), (1.27 - 0.47j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v13", op="mul", args=("x12", "g10[0]"), params=()),
                Grad(
                    name="g14",
                    outputs=("v13", "v13"),
                    inputs=("x12",),
                    seeds=(
                        Seed(
                            data=[
                                [(-1.16 + 1.44j), (1.1 - 1.42j), (-1.36 + 0.25j)],
                                [(-1.15 - 0.79j), (-0.71 - 0.5j), (-1.31 - 0.59j)],
                            ],
                            dtype="complex64",
                        ),
                        Seed(
                            data=[
                                [(0.3 - 0.6j), (-0.8 + 0.4j), (-0.86 + 0.98j)],
                                [(1.22 - 0.23j), (1.45 - 1.32j), (0.94 - 0.68j)],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=("v4",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: fast mode: a create_graph result kept paddle's spurious edges (to x12, "
        "through where's shared double-grad node), so a later pass reached an input "
        "strict mode finds unused and refused paddle's complex higher-order kernels "
        "(HigherOrderUnavailableError) where strict mode answers zeros (differential seed"
        " 26, program 8273)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[(-0.42 - 0.84j), (0.8 + 0.66j)], [(1.12 - 0.73j), (0.99 - 0.73j)]],
                    dtype="complex128",
                    watched=True,
                ),
                Leaf(
                    name="x7",
                    data=[
                        [(0.29 - 0.67j), (0.65 + 0.59j), (-0.51 + 0.42j)],
                        [(0.93 + 1.39j), (0.77 - 0.93j), (0.97 - 1.15j)],
                    ],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v8", op="abs", args=("x7",), params=()),
                Leaf(
                    name="x10",
                    data=[[0.69, 0.87, -0.22], [-0.2, 1.37, 0.93]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v11", op="vecdot", args=("v8", "x10"), params=()),
                Leaf(name="x12", data=[0.64, 1.21], dtype="float64", watched=True),
                Op(name="v13", op="where_gt", args=("v11", "x12"), params=()),
                Grad(
                    name="g14",
                    outputs=("v13", "v13"),
                    inputs=("x12", "x7", "x10"),
                    seeds=(None, Seed(data=[-0.48, 0.36], dtype="float64")),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v15", op="subtract", args=("x10", "g14[2]"), params=()),
                Grad(
                    name="g16",
                    outputs=("v15",),
                    inputs=("x12", "x12", "x1"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: det's gradient at a singular matrix was 0 (paddle 3.3.1's det_grad, "
        "det(A) inv(A)^T) and its create_graph gradient raised "
        "HigherOrderUnavailableError there; the derivative is the cofactor matrix",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[1.0, 2.0, -1.0], [2.0, 4.0, -2.0], [0.5, 1.0, -0.5]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="x2", data=[[1.0, 2.0], [2.0, 4.0]], dtype="float32", watched=True),
                Op(name="v3", op="linalg.det", args=("x1",), params=()),
                Op(name="v4", op="linalg.det", args=("x2",), params=()),
                Grad(
                    name="g5",
                    outputs=("v4",),
                    inputs=("x2",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g6",
                    outputs=("v3",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g7",
                    outputs=("g6[0]",),
                    inputs=("x1",),
                    seeds=(
                        Seed(
                            data=[[0.3, -1.2, 0.7], [1.1, 0.4, -0.6], [-0.9, 0.2, 1.5]],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: float32 @ float64 came out float32 (paddle 3.3.1's Tensor.__matmul__ "
        "gives the left operand's dtype: float64's precision lost, here all of the "
        "difference); the standard promotes to float64",
        Program(
            steps=(
                Leaf(name="x1", data=[[8192.0004], [8192.0]], dtype="float64", watched=True),
                Leaf(name="x2", data=[1.0, -1.0], dtype="float32", watched=True),
                Leaf(name="x3", data=[2.0], dtype="float64", watched=True),
                Op(name="v4", op="matmul", args=("x2", "x1"), params=()),
                Op(name="v5", op="mul", args=("v4", "v4"), params=()),
                Op(name="v6", op="mul", args=("v5", "x3"), params=()),
                Grad(
                    name="g7",
                    outputs=("v6",),
                    inputs=("x2", "x3"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "the oracle: cumulative_prod along an empty axis (no products: the empty array, "
        "after a one with include_initial) failed in np.stack; seed 41, program 1227",
        Program(
            steps=(
                Leaf(name="x1", data=-1.29, dtype="float32", watched=True),
                Op(name="v2", op="neg", args=("x1",), params=()),
                Op(name="v3", op="minimum", args=("v2", "x1"), params=()),
                Op(name="v4", op="expand_dims", args=("x1",), params=(("axis", 0),)),
                Leaf(name="m5", data=False, dtype="bool", watched=False),
                Op(name="v6", op="nonzero_take", args=("v2", "m5"), params=()),
                Op(name="v7", op="cos", args=("v6",), params=()),
                Op(name="v8", op="cosh", args=("v7",), params=()),
                Op(
                    name="v9",
                    op="cumulative_prod",
                    args=("v8",),
                    params=(("axis", 0), ("include_initial", False)),
                ),
                Op(
                    name="v10",
                    op="cumulative_sum",
                    args=("v4",),
                    params=(("axis", -1), ("include_initial", True)),
                ),
                Grad(
                    name="g11",
                    outputs=("v10", "v10"),
                    inputs=("x1",),
                    seeds=(
                        Seed(data=[[0.64, -0.4], [0.81, 0.39]], dtype="float32"),
                        Seed(data=[[1.25, 0.46], [-0.54, -0.8]], dtype="float32"),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "torch: meshgrid of two dtypes raised torch's raw RuntimeError (NumPy: each grid"
            " its array's dtype); seed 27, program 8235"
        ),
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[
                        [(-0.82 + 0.69j), (0.85 - 1.02j)],
                        [(0.94 + 0.98j), (0.3 + 0.48j)],
                        [(0.55 + 1.17j), (0.91 - 0.54j)],
                    ],
                    dtype="complex128",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[(0.31 + 0.35j), (0.34 + 0.53j), (1.01 - 1.03j)],
                    dtype="complex128",
                    watched=False,
                ),
                Op(name="v3", op="neg", args=("x2",), params=()),
                Op(name="v4", op="neg", args=("v3",), params=()),
                Op(name="v5", op="neg", args=("v3",), params=()),
                Op(name="v6", op="astype", args=("x2",), params=(("dtype", "complex64"),)),
                Op(name="v7", op="astype", args=("x2",), params=(("dtype", "complex64"),)),
                Op(name="v8", op="neg", args=("v6",), params=()),
                Op(
                    name="v9",
                    op="meshgrid",
                    args=("v8", "v4"),
                    params=(("i", 0), ("indexing", "xy")),
                ),
                Op(name="v10", op="sinh", args=("x2",), params=()),
                Leaf(
                    name="x11",
                    data=[
                        [(0.95 - 0.76j), (0.3 + 1.27j), (0.99 - 0.69j)],
                        [(1.33 - 0.98j), (-0.4 + 0.75j), (0.37 + 0.49j)],
                    ],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v12", op="abs", args=("x11",), params=()),
                Op(name="v13", op="softmax", args=("v12",), params=()),
                Op(name="v14", op="softplus", args=("v13",), params=()),
                Op(
                    name="v15",
                    op="sort",
                    args=("v14",),
                    params=(("axis", -2), ("descending", False)),
                ),
                Grad(
                    name="g16",
                    outputs=("v15", "v14"),
                    inputs=("x11", "x11"),
                    seeds=(
                        Seed(
                            data=[
                                [[-0.79, -1.15, -1.05], [0.82, 0.67, -0.47]],
                                [[0.59, 1.31, 1.44], [-1.4, -1.21, -0.26]],
                            ],
                            dtype="float64",
                        ),
                        Seed(
                            data=[
                                [
                                    [[-1.25, -0.2], [-0.2, -0.92], [0.99, -1.3]],
                                    [[0.8, 0.34], [1.31, 1.07], [-0.33, -1.3]],
                                ],
                                [
                                    [[1.07, -0.78], [-0.88, 0.92], [-0.54, 0.24]],
                                    [[0.51, 1.32], [-1.19, -1.17], [0.9, 0.36]],
                                ],
                            ],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    # pd3, seed 27: paddle structure of a create_graph result past a cut output
    (
        "paddle: a cut output's branch (shared divide double-grad node) reached w from a "
        "create_graph result",
        Program(
            steps=(
                Leaf(name="x1", data=0.96, dtype="float64", watched=True),
                Leaf(
                    name="x2",
                    data=[[0.95, 0.89, 0.22], [1.45, 0.57, 0.54]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v3", op="diff", args=("x2",), params=()),
                Leaf(
                    name="x4",
                    data=[[1.4, -0.49, -0.44], [-0.85, -1.4, -0.55]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v5", op="div", args=("x4", "x2"), params=()),
                Op(name="v6", op="einsum_rowdot", args=("x4",), params=()),
                Op(name="v7", op="empty_like", args=("v6",), params=()),
                Grad(
                    name="g8",
                    outputs=("v6", "v5"),
                    inputs=("x4", "x4", "x4"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=("v5",),
                    batched=False,
                    single=False,
                ),
                Leaf(
                    name="x9",
                    data=[[0.29, 1.33, 1.37], [1.08, 1.05, 0.37]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v10", op="divide", args=("x9", "g8[2]"), params=()),
                Op(
                    name="v11",
                    op="sort",
                    args=("x9",),
                    params=(("axis", -1), ("descending", False)),
                ),
                Grad(
                    name="g12",
                    outputs=("v6",),
                    inputs=("x4", "x4"),
                    seeds=(None,),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v13", op="triu", args=("v10",), params=(("k", -1),)),
                Grad(
                    name="g14",
                    outputs=("v11", "v13"),
                    inputs=("x4", "x2"),
                    seeds=(
                        Seed(data=[[-0.26, 0.68, 0.25], [-0.98, -0.32, 0.34]], dtype="float64"),
                        Seed(data=[[1.03, 0.72, 0.69], [-0.83, -0.48, 0.26]], dtype="float64"),
                    ),
                    retain_graph=True,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    # pd3: paddle create_graph through the namespace's piecewise-constant ops
    (
        "paddle: create_graph through ceil (a cut, rule 14) raised HigherOrderUnavailableError "
        "(ceil_grad has no grad op in paddle 3.3.1) where the pass needs none",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.6, 2.3], dtype="float64", watched=True),
                Leaf(name="x2", data=[2.0, 3.0, -0.5], dtype="float64", watched=True),
                Op(name="v3", op="mul", args=("x1", "x1"), params=()),
                Op(name="v4", op="ceil", args=("v3",), params=()),
                Op(name="v5", op="mul", args=("v4", "x2"), params=()),
                Op(name="v6", op="mul", args=("x1", "x2"), params=()),
                Op(name="v7", op="add", args=("v5", "v6"), params=()),
                Grad(
                    name="g8",
                    outputs=("v7",),
                    inputs=("x1", "x2"),
                    create_graph=True,
                    seeds=(Seed(data=[0.3, -1.1, 0.7], dtype="float64"),),
                ),
                Grad(
                    name="g9",
                    outputs=("g8[0]",),
                    inputs=("x1", "x2"),
                    allow_unused=True,
                    seeds=(Seed(data=[1.2, 0.4, -0.9], dtype="float64"),),
                ),
            )
        ),
    ),
    (
        "paddle: create_graph through floor (a cut, rule 14) raised HigherOrderUnavailableError "
        "(floor_grad has no grad op in paddle 3.3.1) where the pass needs none",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.6, 2.3], dtype="float64", watched=True),
                Leaf(name="x2", data=[2.0, 3.0, -0.5], dtype="float64", watched=True),
                Op(name="v3", op="mul", args=("x1", "x1"), params=()),
                Op(name="v4", op="floor", args=("v3",), params=()),
                Op(name="v5", op="mul", args=("v4", "x2"), params=()),
                Op(name="v6", op="mul", args=("x1", "x2"), params=()),
                Op(name="v7", op="add", args=("v5", "v6"), params=()),
                Grad(
                    name="g8",
                    outputs=("v7",),
                    inputs=("x1", "x2"),
                    create_graph=True,
                    seeds=(Seed(data=[0.3, -1.1, 0.7], dtype="float64"),),
                ),
                Grad(
                    name="g9",
                    outputs=("g8[0]",),
                    inputs=("x1", "x2"),
                    allow_unused=True,
                    seeds=(Seed(data=[1.2, 0.4, -0.9], dtype="float64"),),
                ),
            )
        ),
    ),
    (
        "paddle: create_graph through round (a cut, rule 14) raised HigherOrderUnavailableError "
        "(round_grad has no grad op in paddle 3.3.1) where the pass needs none",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.6, 2.3], dtype="float64", watched=True),
                Leaf(name="x2", data=[2.0, 3.0, -0.5], dtype="float64", watched=True),
                Op(name="v3", op="mul", args=("x1", "x1"), params=()),
                Op(name="v4", op="round", args=("v3",), params=()),
                Op(name="v5", op="mul", args=("v4", "x2"), params=()),
                Op(name="v6", op="mul", args=("x1", "x2"), params=()),
                Op(name="v7", op="add", args=("v5", "v6"), params=()),
                Grad(
                    name="g8",
                    outputs=("v7",),
                    inputs=("x1", "x2"),
                    create_graph=True,
                    seeds=(Seed(data=[0.3, -1.1, 0.7], dtype="float64"),),
                ),
                Grad(
                    name="g9",
                    outputs=("g8[0]",),
                    inputs=("x1", "x2"),
                    allow_unused=True,
                    seeds=(Seed(data=[1.2, 0.4, -0.9], dtype="float64"),),
                ),
            )
        ),
    ),
    (
        "paddle: create_graph through trunc (a cut, rule 14) raised HigherOrderUnavailableError "
        "(trunc_grad has no grad op in paddle 3.3.1) where the pass needs none",
        Program(
            steps=(
                Leaf(name="x1", data=[0.5, -1.6, 2.3], dtype="float64", watched=True),
                Leaf(name="x2", data=[2.0, 3.0, -0.5], dtype="float64", watched=True),
                Op(name="v3", op="mul", args=("x1", "x1"), params=()),
                Op(name="v4", op="trunc", args=("v3",), params=()),
                Op(name="v5", op="mul", args=("v4", "x2"), params=()),
                Op(name="v6", op="mul", args=("x1", "x2"), params=()),
                Op(name="v7", op="add", args=("v5", "v6"), params=()),
                Grad(
                    name="g8",
                    outputs=("v7",),
                    inputs=("x1", "x2"),
                    create_graph=True,
                    seeds=(Seed(data=[0.3, -1.1, 0.7], dtype="float64"),),
                ),
                Grad(
                    name="g9",
                    outputs=("g8[0]",),
                    inputs=("x1", "x2"),
                    allow_unused=True,
                    seeds=(Seed(data=[1.2, 0.4, -0.9], dtype="float64"),),
                ),
            )
        ),
    ),
    # pd3: paddle structure through the double-grad node of a product
    (
        "paddle: the derivative of a create_graph gradient linear in the input required grad "
        "(a dead edge of MultiplyDoubleGradNode read as a dependence) "
        "(differential seed 402, program 218)",
        Program(
            steps=(
                Leaf(name="x1", data=-0.4, dtype="float64", watched=True),
                Leaf(
                    name="x2",
                    data=[[-0.49, -0.76], [-1.01, -0.45], [-0.4, 0.72]],
                    dtype="float64",
                    watched=False,
                ),
                Op(name="v3", op="fft.ifft", args=("x2",), params=(("axis", 1),)),
                Op(name="v4", op="T", args=("x2",), params=()),
                Op(name="v5", op="rsub", args=("v3",), params=(("c", -1.5),)),
                Op(name="v6", op="reciprocal", args=("v4",), params=()),
                Op(name="v7", op="relu", args=("v6",), params=()),
                Op(name="v8", op="remainder", args=("v6", "x1"), params=()),
                Op(name="v9", op="repeat", args=("v6",), params=(("axis", None), ("repeats", 2))),
                Grad(
                    name="g10",
                    outputs=("v8",),
                    inputs=("x1", "x1", "x1"),
                    seeds=(
                        Seed(data=[[0.34, 0.48, 0.38], [-0.91, -1.26, -0.91]], dtype="float64"),
                    ),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Leaf(name="x11", data=[[0.49, 1.35], [-0.21, 0.6]], dtype="float64", watched=True),
                Op(name="v12", op="linalg.cholesky", args=("x11",), params=(("dtype", "float64"),)),
                Op(name="v13", op="where_less_equal", args=("x11", "g10[2]"), params=()),
                Grad(
                    name="g14",
                    outputs=("v13",),
                    inputs=("x11", "x1", "x2"),
                    seeds=(
                        Seed(
                            data=[[[-0.61, 0.8], [0.71, -0.58]], [[0.76, -0.71], [-0.23, 1.22]]],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
                Op(name="v15", op="linalg.cross", args=("v8", "v4"), params=()),
                Grad(
                    name="g16",
                    outputs=("v8",),
                    inputs=("x1", "x11", "x1"),
                    seeds=(None,),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: the second derivative of a bilinear term beside another required grad "
        "(a dead edge of MultiplyDoubleGradNode read as a dependence) "
        "(differential seed 401, program 1338)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[0.79, -0.39, 1.17], [-0.62, 0.35, -0.94]],
                    dtype="float32",
                    watched=True,
                ),
                Op(
                    name="v2",
                    op="moveaxis",
                    args=("x1",),
                    params=(("destination", -1), ("source", 0)),
                ),
                Op(name="v3", op="ceil", args=("x1",), params=()),
                Op(name="v4", op="linalg.trace", args=("x1",), params=(("offset", 0),)),
                Leaf(
                    name="x5",
                    data=[[1.37, -0.62], [0.82, -1.11], [0.28, -1.46]],
                    dtype="float32",
                    watched=True,
                ),
                Op(name="v6", op="linalg.vecdot", args=("v2", "x5"), params=()),
                Op(
                    name="v7",
                    op="vector_norm",
                    args=("v6",),
                    params=(("axis", None), ("keepdims", True), ("ord", "inf")),
                ),
                Op(name="v8", op="log", args=("x5",), params=()),
                Grad(
                    name="g9",
                    outputs=("v8", "v7"),
                    inputs=("x5",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v10", op="xp_pow_scalar", args=("x5",), params=(("c", 2),)),
                Op(name="v11", op="maximum", args=("g9[0]", "v4"), params=()),
                Grad(
                    name="g12",
                    outputs=("v4", "v11"),
                    inputs=("x1", "x5"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v13", op="reciprocal", args=("g12[1]",), params=()),
                Grad(
                    name="g14",
                    outputs=("v13",),
                    inputs=("x5", "x5"),
                    seeds=(Seed(data=[[-1.34, 0.6], [0.92, 0.42], [1.27, 0.48]], dtype="float32"),),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    # pd3: paddle consumption checks past a cut
    (
        "paddle: a pass through a create_graph result and a cut (ceil) ran the cut branch's "
        "consumed nodes: GraphFreedError (differential seed 403, program 1505)",
        Program(
            steps=(
                Leaf(name="x1", data=[[1.35, -0.45], [0.97, 0.98]], dtype="float64", watched=True),
                Leaf(
                    name="x2", data=[[-1.25, -0.63], [-1.48, 0.53]], dtype="float64", watched=False
                ),
                Leaf(
                    name="x3",
                    data=[[1.16, 0.42], [1.14, -0.41], [-0.43, 1.3]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v4", op="atanh", args=("x3",), params=()),
                Op(name="v5", op="broadcast_arrays", args=("x2", "x1"), params=(("i", 0),)),
                Op(name="v6", op="broadcast_to", args=("x3",), params=(("shape", (3, 3, 2)),)),
                Op(name="v7", op="ceil", args=("v4",), params=()),
                Grad(
                    name="g8",
                    outputs=("v4", "v6"),
                    inputs=("x3",),
                    seeds=(
                        None,
                        Seed(
                            data=[
                                [[0.29, 1.31], [0.34, -1.13], [-1.05, -0.52]],
                                [[1.35, 1.27], [0.37, -0.28], [-1.27, -0.48]],
                                [[0.47, -1.16], [1.02, -0.56], [0.99, -0.81]],
                            ],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v9", op="logical_not", args=("v6", "g8[0]"), params=()),
                Op(name="v10", op="sub", args=("v7", "g8[0]"), params=()),
                Grad(
                    name="g11",
                    outputs=("v10",),
                    inputs=("x3",),
                    seeds=None,
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
            )
        ),
    ),
    (
        "paddle: a cut input after a consuming batched create_graph call through list ops: "
        "GraphFreedError where it is unused (differential seed 403, program 1819)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[0.72, -0.42], [0.97, -1.48], [-0.76, 0.26]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v2", op="cos", args=("x1",), params=()),
                Op(name="v3", op="cosh", args=("v2",), params=()),
                Op(
                    name="v4",
                    op="cumulative_prod",
                    args=("v3",),
                    params=(("axis", -2), ("include_initial", False)),
                ),
                Op(
                    name="v5",
                    op="cumulative_sum",
                    args=("v4",),
                    params=(("axis", -1), ("include_initial", True)),
                ),
                Grad(
                    name="g6",
                    outputs=("v5",),
                    inputs=("x1", "x1", "x1"),
                    seeds=(
                        Seed(
                            data=[
                                [[1.42, 0.63, 0.22], [-0.65, -1.04, -1.48], [-0.63, -1.46, 0.69]],
                                [[0.98, -0.9, 0.6], [-0.33, 1.08, -0.33], [1.39, 0.27, -0.47]],
                            ],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
                Grad(
                    name="g7",
                    outputs=("v5",),
                    inputs=("x1",),
                    seeds=(
                        Seed(
                            data=[[-0.82, -1.0, -0.71], [-0.46, -0.82, 1.22], [1.03, 1.19, -1.14]],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("x1",),
                    batched=False,
                    single=True,
                ),
            )
        ),
    ),
    (
        "numpy tape: create_graph through diff of a length-1 axis (seed 42, 1530)",
        Program(
            steps=(
                Leaf(name="x1", data=-0.3, dtype="float64", watched=True),
                Leaf(
                    name="x2",
                    data=[[-0.7, -0.78, -0.42], [0.66, -0.74, -0.52]],
                    dtype="float64",
                    watched=False,
                ),
                Leaf(name="x3", data=0.98, dtype="float64", watched=False),
                Leaf(name="x4", data=[[-0.56, -1.3], [-0.4, -0.45]], dtype="float64", watched=True),
                Leaf(name="x5", data=[[0.84], [0.49]], dtype="float64", watched=True),
                Op(name="v6", op="linalg.solve", args=("x4", "x5"), params=()),
                Op(name="v7", op="negative", args=("x3",), params=()),
                Op(name="v8", op="diff", args=("x5",), params=()),
                Op(name="v9", op="div", args=("v8", "v7"), params=()),
                Op(name="v10", op="einsum_rowdot", args=("v8",), params=()),
                Op(name="v11", op="empty_like", args=("v7",), params=()),
                Grad(
                    name="g12",
                    outputs=("v10",),
                    inputs=("x5", "x5", "x5"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(
                    name="v13",
                    op="cumulative_prod",
                    args=("g12[0]",),
                    params=(("axis", 1), ("include_initial", True)),
                ),
                Op(name="v14", op="clip", args=("v11",), params=(("hi", 0.4), ("lo", None))),
                Grad(
                    name="g15",
                    outputs=("v13",),
                    inputs=("x5",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
                Op(name="v16", op="softmax", args=("g12[2]",), params=()),
                Grad(
                    name="g17",
                    outputs=("v16", "v13"),
                    inputs=("x2", "x5", "x5"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("v9",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy tape: fast mode: a create_graph gradient with complex seeds differed from "
        "strict mode's (the first call's values came from the dependence trace; seed 42, "
        "program 2692)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-0.55, -1.07, 1.09], [0.3, -0.7, -1.14]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="x2", data=0.23, dtype="float64", watched=True),
                Leaf(
                    name="x3",
                    data=[[-0.27, 1.11], [-0.75, -0.97], [-1.25, 1.37]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v4", op="fft.fftn", args=("x3",), params=()),
                Leaf(
                    name="x5",
                    data=[[-0.51, -0.99], [0.55, -0.9], [-0.59, 1.4]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v6", op="floor_divide", args=("x3", "x5"), params=()),
                Op(name="v7", op="atanh", args=("v4",), params=()),
                Op(name="v8", op="broadcast_arrays", args=("v4", "v7"), params=(("i", 0),)),
                Op(name="v9", op="broadcast_to", args=("v8",), params=(("shape", (3, 3, 2)),)),
                Op(name="v10", op="ceil", args=("x5",), params=()),
                Grad(
                    name="g11",
                    outputs=("v7",),
                    inputs=("x3",),
                    seeds=(
                        Seed(
                            data=[
                                [(0.47 + 0.69j), (1.49 - 1.35j)],
                                [(1.24 - 0.45j), (-1.45 - 0.33j)],
                                [(-0.82 + 0.88j), (-0.27 - 1.45j)],
                            ],
                            dtype="complex128",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("v9",),
                    batched=False,
                    single=True,
                ),
                Grad(
                    name="g12",
                    outputs=("v9", "v9"),
                    inputs=("x3", "x3", "x3"),
                    seeds=(
                        Seed(
                            data=[
                                [(0.37 - 1.43j), (-0.77 - 0.56j), (-0.75 + 0.4j)],
                                [(0.26 + 1.35j), (-0.25 - 1.41j), (1.05 - 1.44j)],
                                [(-0.98 - 1.28j), (-1.08 - 0.84j), (-0.51 + 1.42j)],
                            ],
                            dtype="complex128",
                        ),
                        Seed(
                            data=[
                                [
                                    [
                                        [(0.78 - 0.57j), (1.1 + 1.13j)],
                                        [(-1.48 - 0.27j), (1.05 - 1.07j)],
                                    ],
                                    [
                                        [(1.39 + 0.77j), (-1.35 + 1.36j)],
                                        [(-0.84 - 0.33j), (1.23 - 1.37j)],
                                    ],
                                    [
                                        [(0.64 + 1.09j), (0.25 - 1.01j)],
                                        [(0.2 - 0.87j), (-0.88 + 1.24j)],
                                    ],
                                ],
                                [
                                    [
                                        [(-1.5 - 1.4j), (-0.31 - 0.39j)],
                                        [(-1.3 - 0.98j), (0.3 - 0.88j)],
                                    ],
                                    [
                                        [(0.33 - 0.51j), (0.36 - 0.67j)],
                                        [(0.67 - 1.07j), (-0.67 - 1.36j)],
                                    ],
                                    [
                                        [(1.19 - 1.28j), (1.12 - 1.21j)],
                                        [(0.75 + 0.64j), (-1.16 - 1.46j)],
                                    ],
                                ],
                                [
                                    [
                                        [(-0.48 - 1.41j), (-1.47 + 1.13j)],
                                        [(-0.97 + 0.71j), (1.19 + 0.84j)],
                                    ],
                                    [
                                        [(-0.62 + 1.4j), (-1.31 - 0.69j)],
                                        [(-1.16 + 0.53j), (0.62 + 0.28j)],
                                    ],
                                    [
                                        [(1.08 - 0.82j), (1.33 - 0.68j)],
                                        [(1.39 - 1.23j), (1.21 + 1.29j)],
                                    ],
                                ],
                            ],
                            dtype="complex128",
                        ),
                    ),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy tape: fast mode: a float32 create_graph gradient through eigh and sort "
        "differed from strict mode's (the first call's values came from the dependence "
        "trace; seed 27, program 8828)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[0.81, -1.08], [0.99, -0.61], [-0.73, 1.49]],
                    dtype="float32",
                    watched=True,
                ),
                Leaf(name="x2", data=[[-0.48, -0.8], [1.28, 0.54]], dtype="float32", watched=True),
                Op(name="v3", op="linalg.eigh", args=("x2",), params=(("which", 1),)),
                Op(name="v4", op="sort", args=("v3",), params=(("axis", 0), ("descending", False))),
                Leaf(name="x5", data=[[0.58, -0.49], [-0.3, -1.4]], dtype="float32", watched=True),
                Op(name="v6", op="sub", args=("x5", "v3"), params=()),
                Op(name="v7", op="sinh", args=("v4",), params=()),
                Op(name="v8", op="softmax", args=("v7",), params=()),
                Op(name="v9", op="softplus", args=("x5",), params=()),
                Op(
                    name="v10", op="sort", args=("x2",), params=(("axis", -2), ("descending", True))
                ),
                Grad(
                    name="g11",
                    outputs=("v8",),
                    inputs=("x2", "x2", "x2"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("v6",),
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g12",
                    outputs=("v8", "v10"),
                    inputs=("x2",),
                    seeds=(Seed(data=[[-0.21, -1.34], [0.45, 1.23]], dtype="float32"), None),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("v10",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy and jax tapes: complex sign had no derivative (zeros; a create_graph "
        "result through it did not require grad); z / |z| has one, as torch's sgn",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[(1 + 1j), (-2 + 0.5j), (0.3 - 1.1j)],
                    dtype="complex128",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[(0.3 - 1j), (2 + 0.5j), (-1 + 1j)],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v3", op="sign", args=("x1",), params=()),
                Op(name="v4", op="mul", args=("v3", "x2"), params=()),
                Grad(
                    name="g5",
                    outputs=("v4",),
                    inputs=("x1", "x2"),
                    seeds=(
                        Seed(data=[(0.5 + 0.2j), (-1 + 0.7j), (0.4 - 0.9j)], dtype="complex128"),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v6", op="mul", args=("g5[0]", "g5[0]"), params=()),
                Grad(
                    name="g7",
                    outputs=("v6",),
                    inputs=("x1", "x2"),
                    seeds=(
                        Seed(data=[(1 - 0.5j), (0.25 + 1j), (-0.6 + 0.3j)], dtype="complex128"),
                    ),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "reference: max over a non-empty axis of an empty array, and a batched seed of an"
        " empty output (its nested lists lost the trailing dims); seed 1, program 1371",
        Program(
            steps=(
                Leaf(name="x1", data=[1.33, -0.4, -0.51], dtype="float64", watched=True),
                Op(name="v2", op="min", args=("x1",), params=(("axis", (0,)), ("keepdims", True))),
                Op(name="v3", op="log_softmax", args=("v2",), params=()),
                Op(name="v4", op="diff", args=("v2",), params=()),
                Leaf(name="x5", data=[0.64, 0.97], dtype="float64", watched=True),
                Op(
                    name="v6",
                    op="meshgrid",
                    args=("v4", "x5"),
                    params=(("i", 0), ("indexing", "xy")),
                ),
                Op(name="v7", op="pow_scalar", args=("v6",), params=(("c", 3),)),
                Op(name="v8", op="broadcast_to", args=("x5",), params=(("shape", (3, 2)),)),
                Op(name="v9", op="neg", args=("v6",), params=()),
                Op(name="v10", op="max", args=("v7",), params=(("axis", 0), ("keepdims", True))),
                Op(name="v11", op="maximum", args=("v10", "v2"), params=()),
                Op(name="v12", op="mean", args=("v9",), params=(("axis", 0), ("keepdims", True))),
                Op(
                    name="v13",
                    op="meshgrid",
                    args=("v4", "x1"),
                    params=(("i", 0), ("indexing", "ij")),
                ),
                Grad(
                    name="g14",
                    outputs=("v13",),
                    inputs=("x1", "x1"),
                    seeds=(Seed(data=[[], []], dtype="float64", shape=(2, 0, 3)),),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    # orc: the reference (oracle) bugs of seed 2027 program 2600 and seed 401 program 882
    (
        "numpy: reference: seed 2027 program 2600 as drawn once an op outside its domain is "
        "degenerate (the first draw reduced a 0-d value along axis -1: its (0, 2) leaf read back "
        "as (0,); the reference failed with IndexError)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-1.4, -0.95, 0.37], [-0.45, 1.35, 0.2]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="x2", data=-0.31, dtype="float64", watched=True),
                Op(name="v3", op="sigmoid", args=("x2",), params=()),
                Op(name="v4", op="sign", args=("v3",), params=()),
                Op(name="v5", op="signbit", args=("v4",), params=(("dtype", "float64"),)),
                Op(name="v6", op="sin", args=("v4",), params=()),
                Grad(
                    name="g7",
                    outputs=("v3", "v3"),
                    inputs=("x2", "x2", "x2"),
                    seeds=(
                        Seed(data=-0.2, dtype="float64"),
                        Seed(data=[-1.08, 1.46], dtype="float64"),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "torch, paddle, jax, numpy: reference: materialized zeros of a duplicated unused input are"
        " a new leaf per occurrence; the reference gave both one leaf, so a later call using one "
        "expected a result where every backend raises UnusedInputError; seed 401, program 882",
        Program(
            steps=(
                Leaf(name="x1", data=[[1.11, -0.54], [0.71, -0.76]], dtype="float32", watched=True),
                Op(name="v2", op="neg", args=("x1",), params=()),
                Leaf(name="i3", data=[1, 1], dtype="int64", watched=False),
                Op(name="v4", op="index_array", args=("v2", "i3"), params=(("index", ("array",)),)),
                Op(name="v5", op="index_int", args=("v2",), params=(("index", ("int", 1)),)),
                Leaf(name="m6", data=[True, True], dtype="bool", watched=False),
                Op(name="v7", op="index_mask", args=("v4", "m6"), params=(("index", ("mask",)),)),
                Op(name="v8", op="index_slice", args=("v7",), params=(("index", ("slice", 0, 2)),)),
                Op(name="v9", op="zeros_like", args=("v7",), params=()),
                Grad(
                    name="g10",
                    outputs=("v8", "v8"),
                    inputs=("x1", "x1"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=("v7",),
                    batched=False,
                    single=False,
                ),
                Leaf(name="m11", data=[[True, True], [True, True]], dtype="bool", watched=False),
                Op(name="v12", op="where", args=("v8", "g10[0]", "m11"), params=()),
                Grad(
                    name="g13",
                    outputs=("v12", "v12"),
                    inputs=("g10[1]", "x1"),
                    seeds=(None, Seed(data=[[-0.43, 1.4], [0.71, -0.77]], dtype="float32")),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v14", op="minimum", args=("v12", "v9"), params=()),
                Grad(
                    name="g15",
                    outputs=("v8", "v14"),
                    inputs=("x1", "x1"),
                    seeds=(
                        Seed(
                            data=[[[0.77, 0.43], [-0.63, 1.02]], [[-0.67, -0.27], [-0.38, 0.79]]],
                            dtype="float32",
                        ),
                        Seed(
                            data=[[[0.82, 1.09], [-1.11, 1.19]], [[-1.24, -1.03], [0.88, -0.28]]],
                            dtype="float32",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("g10[1]",),
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: concat of cut values and a constant is a constant (seed 2027, program 20810)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-1.35, 0.76], [-1.0, -0.37], [-0.93, 0.45]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="x2", data=-0.61, dtype="float64", watched=False),
                Leaf(
                    name="x3",
                    data=[[0.66, -0.77, 0.27], [0.51, -0.94, 0.41]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v4", op="fft.fftshift", args=("x3",), params=()),
                Op(
                    name="v5",
                    op="var",
                    args=("v4",),
                    params=(("axis", -1), ("correction", 0), ("keepdims", True)),
                ),
                Op(name="v6", op="neg", args=("x2",), params=()),
                Op(name="v7", op="fft.rfftn", args=("v5",), params=()),
                Op(name="v8", op="flip", args=("v4",), params=(("axis", None),)),
                Op(name="v9", op="floor", args=("v4",), params=()),
                Op(name="v10", op="floor_divide", args=("v8", "v6"), params=()),
                Grad(
                    name="g11",
                    outputs=("v8",),
                    inputs=("x3", "x3"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v12", op="concat", args=("v9", "g11[0]"), params=(("axis", -2),)),
                Grad(
                    name="g13",
                    outputs=("v12",),
                    inputs=("x3", "x3"),
                    seeds=(
                        Seed(
                            data=[
                                [-1.3, -1.0, 0.71],
                                [0.64, 0.37, 0.98],
                                [-0.7, -1.12, -0.22],
                                [1.05, -0.24, 0.97],
                            ],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v14", op="neg", args=("x2",), params=()),
                Grad(
                    name="g15",
                    outputs=("v12", "v12"),
                    inputs=("x1",),
                    seeds=(
                        None,
                        Seed(
                            data=[
                                [[-0.47, -1.5], [-1.08, 0.41], [0.33, -0.72]],
                                [[1.27, -0.53], [-1.12, -0.4], [0.77, 0.71]],
                                [[0.32, -0.84], [-1.11, 1.11], [-0.34, -0.57]],
                                [[0.21, -1.4], [0.83, 1.38], [0.7, -1.06]],
                            ],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=True,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: concat of cut values and a constant is a constant (seed 2027, program 22235)",
        Program(
            steps=(
                Leaf(name="x1", data=-1.18, dtype="float64", watched=True),
                Leaf(name="x2", data=[[0.87, 0.8], [1.41, -0.39]], dtype="float64", watched=True),
                Leaf(name="x3", data=[1.2, 1.25, 0.34], dtype="float64", watched=True),
                Leaf(name="x4", data=[-0.73, 0.45, 1.43], dtype="float64", watched=True),
                Op(name="v5", op="linalg.outer", args=("x3", "x4"), params=()),
                Leaf(name="x6", data=[0.46, -0.36, -0.29], dtype="float64", watched=True),
                Op(name="v7", op="hypot", args=("x4", "x6"), params=()),
                Op(name="v8", op="sign", args=("v7",), params=()),
                Op(name="v9", op="hypot", args=("v5", "v8"), params=()),
                Op(name="v10", op="minimum", args=("v5", "v9"), params=()),
                Op(name="v11", op="clip", args=("v9",), params=(("hi", 0.4), ("lo", -0.7))),
                Leaf(name="x12", data=[-0.66, 1.07, 0.59], dtype="float64", watched=False),
                Op(name="v13", op="concat", args=("v8", "x12"), params=(("axis", -1),)),
                Op(name="v14", op="conj", args=("x12",), params=()),
                Op(name="v15", op="copysign", args=("v13", "x1"), params=()),
                Grad(
                    name="g16",
                    outputs=("v15", "v15"),
                    inputs=("x1", "x1"),
                    seeds=(
                        Seed(
                            data=[
                                [1.43, 1.35, 0.38, -1.39, 0.27, 0.29],
                                [-1.01, -0.75, -1.08, -0.79, -0.86, -0.69],
                            ],
                            dtype="float64",
                        ),
                        Seed(
                            data=[
                                [-0.66, 1.12, -1.15, -1.28, 1.3, 0.89],
                                [-0.79, -0.44, -0.3, 0.88, -0.58, 0.72],
                            ],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=True,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
                Grad(
                    name="g17",
                    outputs=("v15",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
            )
        ),
    ),
    (
        "jax: fast mode: a create_graph gradient's last bits differed between a program's"
        " first run and its later runs, in either mode (compiled alone the first time, "
        "pending inside a larger compiled function later): the fast run, made second, was"
        " judged against the first strict run; now against a strict run made after it, "
        "bitwise (seed 42 program 4)",
        Program(
            steps=(
                Leaf(
                    name="x2",
                    data=[[(-0.35 - 1.24j), (-0.59 - 0.59j)], [(-1.28 - 0.39j), (-1.46 - 0.7j)]],
                    dtype="complex128",
                    watched=True,
                ),
                Leaf(name="x3", data=(-1.36 + 0.56j), dtype="complex128", watched=True),
                Op(name="v4", op="xp_add", args=("x2", "x3"), params=()),
                Op(name="v9", op="linalg.slogdet", args=("v4",), params=()),
                Op(name="v14", op="neg", args=("v9",), params=()),
                Grad(
                    name="g15",
                    outputs=("v14",),
                    inputs=("x2", "x3"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    # tp6 (issue 23, rule 6 with rule 15a): a consuming create_graph call's own
    # consumption of a cut's history
    (
        "numpy and jax tapes, oracle: a create_graph=True, retain_graph=False call with a "
        "cut v6 = v5[1:2] over a value it consumed (v5): the tapes and the oracle raised "
        "GraphFreedError on a later pass through its result, torch and paddle answered "
        "(the call's own consumption does not count; seed 93 program 610)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.39, 0.5], dtype="float64", watched=True),
                Op(name="v2", op="scale", args=("x1",), params=(("c", 1.0),)),
                Op(name="v5", op="tanh", args=("v2",), params=()),
                Op(name="v6", op="index", args=("v5",), params=(("index", ("slice", 1, 2)),)),
                Op(name="v7", op="atan2", args=("v6", "v5"), params=()),
                Op(name="v8", op="sum", args=("v7",), params=(("axis", None), ("keepdims", False))),
                Grad(
                    name="g9",
                    outputs=("v8",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("v6",),
                    batched=False,
                    single=True,
                ),
                Op(
                    name="v10",
                    op="sum",
                    args=("g9[0]",),
                    params=(("axis", None), ("keepdims", False)),
                ),
                Grad(
                    name="g11",
                    outputs=("v10",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
            )
        ),
    ),
    (
        "torch: grad(sum(ceil(h) + x * x), x) after grad(sum(h), x) consumed h = tanh(x *"
        " x): torch's engine ran ceil's node and then tanh's, whose saved tensors the "
        "first pass freed (GraphFreedError); the contract's pass runs only through x * x "
        "(rule 14: ceil cuts)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.3, -0.7], dtype="float64", watched=True),
                Op(name="v2", op="mul", args=("x1", "x1"), params=()),
                Op(name="v3", op="tanh", args=("v2",), params=()),
                Op(name="v4", op="sum", args=("v3",), params=(("axis", None), ("keepdims", False))),
                Grad(
                    name="g5",
                    outputs=("v4",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
                Op(name="v6", op="ceil", args=("v3",), params=()),
                Op(name="v7", op="mul", args=("x1", "x1"), params=()),
                Op(name="v8", op="add", args=("v6", "v7"), params=()),
                Op(name="v9", op="sum", args=("v8",), params=(("axis", None), ("keepdims", False))),
                Grad(
                    name="g10",
                    outputs=("v9",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
            )
        ),
    ),
    (
        "torch, paddle: rule 16g refused an intermediate behind a create_graph call the "
        "outputs reach only through round (a cut, rule 14); the tapes and the oracle "
        "answer (seed 777 program 4274, drawn before b400b9a)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-0.62, 1.39], [-1.23, 0.59], [-0.34, -1.22]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="x2", data=[-0.97, -1.16], dtype="float64", watched=True),
                Op(name="v3", op="linalg.matmul", args=("x1", "x2"), params=()),
                Op(
                    name="v4",
                    op="matrix_norm",
                    args=("x1",),
                    params=(("keepdims", False), ("ord", "-inf")),
                ),
                Leaf(name="x5", data=[[1.49, 0.98], [-1.46, -1.29]], dtype="float64", watched=True),
                Op(name="v6", op="linalg.matrix_power", args=("x5",), params=(("n", 3),)),
                Op(name="v7", op="linalg.matrix_transpose", args=("v6",), params=()),
                Grad(
                    name="g8",
                    outputs=("v7", "v6"),
                    inputs=("x5",),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v9", op="round", args=("g8[0]",), params=()),
                Op(name="v10", op="where_gt", args=("v7", "v9"), params=()),
                Grad(
                    name="g11",
                    outputs=("v10", "v10"),
                    inputs=("x5",),
                    seeds=(
                        Seed(
                            data=[[[1.46, 0.6], [0.99, 0.29]], [[-1.34, 0.72], [0.66, -0.22]]],
                            dtype="float64",
                        ),
                        Seed(
                            data=[[[0.24, -0.97], [-0.25, 0.83]], [[1.09, 0.88], [-1.17, 1.42]]],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
                Op(name="v12", op="subtract", args=("v10", "v4"), params=()),
                Grad(
                    name="g13",
                    outputs=("v12", "v12"),
                    inputs=("x5", "x5", "v6"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "reference: seed 2027 program 2600's first draw (before b400b9a), its (0, 2) leaf"
        " built as (0, 2) (nested lists read it back as (0,): tensordot gave a 0-d value "
        "that var reduced along axis -1, IndexError in the reference)",
        Program(
            steps=(
                Leaf(name="x1", data=-0.56, dtype="float32", watched=True),
                Op(name="v2", op="ceil", args=("x1",), params=()),
                Leaf(name="m3", data=False, dtype="bool", watched=False),
                Op(name="v4", op="nonzero_take", args=("v2", "m3"), params=()),
                Leaf(name="x5", data=[], dtype="float32", watched=False, shape=(0, 2)),
                Op(name="v6", op="tensordot", args=("v4", "x5"), params=(("axes", 1),)),
                Op(name="v7", op="sqrt", args=("x5",), params=()),
                Op(
                    name="v8",
                    op="var",
                    args=("v6",),
                    params=(("axis", -1), ("correction", 1), ("keepdims", True)),
                ),
                Op(name="v9", op="max", args=("v8",), params=(("axis", -1), ("keepdims", True))),
                Op(name="v10", op="logsumexp", args=("v6",), params=()),
                Op(name="v11", op="sigmoid", args=("v10",), params=()),
                Op(name="v12", op="sign", args=("x5",), params=()),
                Op(name="v13", op="signbit", args=("v10",), params=(("dtype", "float32"),)),
                Op(name="v14", op="sin", args=("x5",), params=()),
                Grad(
                    name="g15",
                    outputs=("v14",),
                    inputs=("x5", "x5"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=("x1",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: complex create_graph pass, no_grad_vars refuses as without (seed 2027, 42545)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[(-0.91 + 1.15j), (-0.87 + 0.68j), (1.3 - 0.94j)],
                    dtype="complex128",
                    watched=True,
                ),
                Leaf(name="x2", data=(0.29 - 0.89j), dtype="complex128", watched=True),
                Op(name="v3", op="tan", args=("x1",), params=()),
                Op(name="v4", op="log2", args=("x2",), params=()),
                Op(name="v5", op="neg", args=("x2",), params=()),
                Op(name="v6", op="neg", args=("v5",), params=()),
                Op(name="v7", op="reciprocal", args=("v6",), params=()),
                Leaf(
                    name="x8",
                    data=[
                        [(0.47 + 1.14j), (1.32 + 1.38j), (-0.22 + 1.4j)],
                        [(-1.13 - 1.09j), (-0.87 - 1.15j), (-0.79 - 0.77j)],
                    ],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v9", op="abs", args=("x8",), params=()),
                Op(name="v10", op="relu", args=("v9",), params=()),
                Op(name="v11", op="remainder", args=("v10", "v9"), params=()),
                Op(name="v12", op="repeat", args=("v9",), params=(("axis", 0), ("repeats", 2))),
                Grad(
                    name="g13",
                    outputs=("v12", "v12"),
                    inputs=("x8", "x8"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v14", op="log1p", args=("g13[1]",), params=()),
                Grad(
                    name="g15",
                    outputs=("v14",),
                    inputs=("x8", "x8"),
                    seeds=(
                        Seed(
                            data=[
                                [(-0.87 + 0.76j), (-0.75 + 1.3j), (0.36 - 1.12j)],
                                [(1.39 + 1.47j), (1.18 + 0.32j), (-0.68 - 1.29j)],
                            ],
                            dtype="complex128",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=("v11",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    # jx2 (issue 23): the jax tape's take of a zero-size index, a constant in jax 0.10.2
    (
        "jax: rule 14: the create_graph gradient of abs(take(-x, nonzero(False))) came back "
        "unused (jnp.take of no index is a constant zero array: the dependence on x was "
        "lost; torch, paddle, numpy and the oracle keep it whatever the sizes); "
        "differential seed 7, program 1 (program 51 the same class, through diff/einsum)",
        Program(
            steps=(
                Leaf(name="x1", data=(-0.52 + 0.34j), dtype="complex128", watched=True),
                Leaf(name="x2", data=(1.31 - 1.35j), dtype="complex128", watched=True),
                Leaf(name="x3", data=(0.78 - 1.1j), dtype="complex128", watched=False),
                Op(name="v4", op="neg", args=("x2",), params=()),
                Leaf(name="m5", data=False, dtype="bool", watched=False),
                Op(name="v6", op="nonzero_take", args=("v4", "m5"), params=()),
                Op(name="v7", op="neg", args=("x2",), params=()),
                Op(name="v8", op="neg", args=("v4",), params=()),
                Op(name="v9", op="abs", args=("v6",), params=()),
                Op(name="v10", op="acos", args=("x1",), params=()),
                Op(name="v11", op="acosh", args=("v9",), params=()),
                Op(name="v12", op="add", args=("v9", "v11"), params=()),
                Grad(
                    name="g13",
                    outputs=("v9",),
                    inputs=("x2", "x2", "x2"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v14", op="floor", args=("v9",), params=()),
                Grad(
                    name="g15",
                    outputs=("v12",),
                    inputs=("x2",),
                    seeds=(None,),
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
            )
        ),
    ),
    (
        "paddle: batched create_graph through ceil, the divisor unused after (seed 3030, 1314)",
        Program(
            steps=(
                Leaf(name="x1", data=[[-1.02, -0.48], [1.27, 1.12]], dtype="float32", watched=True),
                Leaf(
                    name="x2", data=[[-0.69, -0.96], [0.81, -0.27]], dtype="float32", watched=False
                ),
                Op(name="v3", op="atan2", args=("x1", "x2"), params=()),
                Op(name="v4", op="linalg.inv", args=("v3",), params=()),
                Op(name="v5", op="negative", args=("v3",), params=()),
                Op(name="v6", op="ceil", args=("v3",), params=()),
                Leaf(name="x7", data=[[-1.09, -0.62], [-1.1, 0.7]], dtype="float32", watched=True),
                Op(name="v8", op="divide", args=("v6", "x7"), params=()),
                Op(name="v9", op="round", args=("x7",), params=()),
                Op(name="v10", op="linalg.matmul", args=("x7", "x2"), params=()),
                Op(
                    name="v11",
                    op="matrix_norm",
                    args=("v10",),
                    params=(("keepdims", True), ("ord", -1)),
                ),
                Op(name="v12", op="linalg.matrix_power", args=("x2",), params=(("n", 3),)),
                Op(name="v13", op="linalg.matrix_transpose", args=("v5",), params=()),
                Grad(
                    name="g14",
                    outputs=("v13", "v8"),
                    inputs=("x1", "x7"),
                    seeds=(
                        Seed(
                            data=[[[-1.09, -0.3], [1.23, 1.09]], [[-1.44, 0.23], [-0.86, 0.79]]],
                            dtype="float32",
                        ),
                        Seed(
                            data=[[[-0.36, 1.48], [1.36, -1.05]], [[-1.1, 0.39], [-1.45, 0.75]]],
                            dtype="float32",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
                Op(name="v15", op="erf", args=("g14[0]",), params=()),
                Grad(
                    name="g16",
                    outputs=("v15", "v15"),
                    inputs=("x7", "x7", "x1"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v17", op="neg", args=("g14[0]",), params=()),
                Grad(
                    name="g18",
                    outputs=("v15",),
                    inputs=("x7", "g14[1]"),
                    seeds=(
                        Seed(
                            data=[
                                [[[-0.96, 0.76], [-1.48, -0.76]], [[-0.26, -0.25], [-0.64, 1.24]]],
                                [[[0.74, 1.16], [-0.24, 0.67]], [[-1.03, 0.7], [1.45, 0.28]]],
                            ],
                            dtype="float32",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: second pass through cumulative_sum include_initial (seed 3030, 4778)",
        Program(
            steps=(
                Leaf(name="x1", data=[-0.89, -1.44, -0.99], dtype="float64", watched=True),
                Op(name="v2", op="cos", args=("x1",), params=()),
                Op(name="v3", op="cosh", args=("v2",), params=()),
                Op(
                    name="v4",
                    op="cumulative_prod",
                    args=("v2",),
                    params=(("axis", 0), ("include_initial", False)),
                ),
                Op(
                    name="v5",
                    op="cumulative_sum",
                    args=("v3",),
                    params=(("axis", 0), ("include_initial", True)),
                ),
                Grad(
                    name="g6",
                    outputs=("v2", "v5"),
                    inputs=("x1", "x1", "x1"),
                    seeds=(None, Seed(data=[1.27, -1.49, -0.96, -1.15], dtype="float64")),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v7", op="isfinite", args=("v5",), params=(("dtype", "float64"),)),
                Grad(
                    name="g8",
                    outputs=("v7",),
                    inputs=("x1", "x1", "x1"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v9", op="atan", args=("g8[0]",), params=()),
                Grad(
                    name="g10",
                    outputs=("v4", "v9"),
                    inputs=("x1", "x1"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    # pd7 (issue 23, class: GraphFreedError where the others answer): an intermediate
    # input's own node, consumed by a create_graph retain_graph=False call and leading
    # to no other input past a cut (sign), is not run by the contract's pass
    (
        "paddle: a consumed intermediate input's own node, leading to no other input "
        "past a cut, is not the pass's (seed 3032, 2982)",
        Program(
            steps=(
                Leaf(
                    name="x1", data=[[-0.97, -0.22], [-0.67, -1.11]], dtype="float32", watched=True
                ),
                Op(name="v2", op="linalg.eigvalsh", args=("x1",), params=()),
                Op(name="v3", op="sign", args=("v2",), params=()),
                Op(
                    name="v4",
                    op="std",
                    args=("v2",),
                    params=(("axis", -1), ("correction", 0), ("keepdims", True)),
                ),
                Op(name="v5", op="asinh", args=("v4",), params=()),
                Op(name="v6", op="signbit", args=("v3",), params=(("dtype", "float32"),)),
                Op(name="v7", op="atan", args=("v5",), params=()),
                Leaf(name="x8", data=[1.22, 1.28], dtype="float32", watched=True),
                Op(name="v9", op="atan2", args=("v3", "x8"), params=()),
                Grad(
                    name="g10",
                    outputs=("v9",),
                    inputs=("x8",),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g11",
                    outputs=("v9", "v7"),
                    inputs=("x1", "v9", "x1"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    # t15 (issue 23, class: a consuming pass through a cut edge freed the nodes behind
    # it): torch's engine ran tanh's nodes behind ceil (zeros) with retain_graph=False
    # and freed them; the contract's pass does not run them (rule 14), so the later pass
    # through v3 answers (rule 6b)
    (
        "torch: a consuming pass through ceil leaves the nodes behind the cut usable",
        Program(
            steps=(
                Leaf(name="x1", data=[0.3, -0.7], dtype="float64", watched=True),
                Op(name="v2", op="mul", args=("x1", "x1"), params=()),
                Op(name="v3", op="tanh", args=("v2",), params=()),
                Op(name="v4", op="ceil", args=("v3",), params=()),
                Op(name="v5", op="mul", args=("x1", "x1"), params=()),
                Op(name="v6", op="add", args=("v4", "v5"), params=()),
                Grad(
                    name="g7",
                    outputs=("v6",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g8",
                    outputs=("v3",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: a cut branch run for its consumed nodes failed casting complex64 zeros "
        "after an unrelated consuming pass (seed 4040, 1065 after 1064)",
        Program(
            steps=(
                Leaf(name="x1", data=[0.3, -0.7], dtype="float64", watched=True),
                Op(name="v2", op="tanh", args=("x1",), params=()),
                Op(name="v3", op="sum", args=("v2",), params=(("axis", (0,)), ("keepdims", False))),
                Grad(
                    name="g4",
                    outputs=("v3",),
                    inputs=("x1",),
                    seeds=None,
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Leaf(
                    name="x5",
                    data=[[(0.9 + 0.38j), (-0.59 + 1.11j)], [(0.96 + 0.54j), (-0.25 - 0.96j)]],
                    dtype="complex64",
                    watched=True,
                ),
                Op(
                    name="v6",
                    op="matrix_norm",
                    args=("x5",),
                    params=(("keepdims", True), ("ord", "fro")),
                ),
                Grad(
                    name="g7",
                    outputs=("v6",),
                    inputs=("x5", "x5"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v8", op="sinh", args=("g7[1]",), params=()),
                Grad(
                    name="g9",
                    outputs=("v8",),
                    inputs=("x5",),
                    seeds=(
                        Seed(
                            data=[
                                [(1.21 - 0.92j), (0.54 - 1.36j)],
                                [(1.02 + 0.56j), (0.26 + 0.45j)],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=True,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("g7[1]",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: a create_graph gradient of a gradient linear in what it reads is a "
        "constant (seed 3033, 4298)",
        Program(
            steps=(
                Leaf(name="x1", data=-1.07, dtype="float64", watched=True),
                Op(name="v2", op="neg", args=("x1",), params=()),
                Op(name="v3", op="empty_like", args=("v2",), params=()),
                Leaf(
                    name="x4",
                    data=[[-0.29, 0.35, -1.44], [0.43, 0.59, 1.37]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(
                    name="x5",
                    data=[[-0.98, -1.02, -0.57], [0.94, -1.33, -0.88]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v6", op="linalg.vecdot", args=("x4", "x5"), params=()),
                Op(
                    name="v7",
                    op="vector_norm",
                    args=("v6",),
                    params=(("axis", (0,)), ("keepdims", True), ("ord", 3)),
                ),
                Op(name="v8", op="log", args=("x4",), params=()),
                Op(name="v9", op="log10", args=("v8",), params=()),
                Grad(
                    name="g10",
                    outputs=("v6",),
                    inputs=("x4", "x5"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Leaf(
                    name="m11",
                    data=[[True, False, True], [False, True, False]],
                    dtype="bool",
                    watched=False,
                ),
                Op(name="v12", op="where", args=("g10[0]", "v8", "m11"), params=()),
                Op(name="v13", op="signbit", args=("v12",), params=(("dtype", "float64"),)),
                Grad(
                    name="g14",
                    outputs=("v13",),
                    inputs=("x5",),
                    seeds=(None,),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
                Op(name="v15", op="log10", args=("g10[1]",), params=()),
                Grad(
                    name="g16",
                    outputs=("v15", "v13"),
                    inputs=("x5", "x4", "x5"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy tape: autograd 1.9.1's imag rule (-1j * g) made a Python complex of a 0-d "
        "gradient, which astype's rule cannot cast (raw AttributeError): seed 5054 "
        "program 4025",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[(-0.35 - 1.16j), (1.19 + 0.24j), (1.09 + 0.23j)],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[
                        [(0.77 - 0.81j), (0.28 + 1.06j), (-1.37 - 1.33j)],
                        [(-1.4 + 0.82j), (-0.77 + 1.28j), (0.63 - 1.03j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x3",
                    data=[
                        [(1.39 - 0.34j), (0.29 - 0.98j), (-1.18 + 0.38j)],
                        [(0.92 - 0.88j), (-0.93 - 1.44j), (-1.13 - 1.26j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x4",
                    data=[[(-0.8 - 0.56j), (-1.32 - 1.04j)], [(-0.83 + 1.02j), (-0.96 + 0.61j)]],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v5", op="linalg.det", args=("x4",), params=()),
                Op(name="v6", op="astype", args=("v5",), params=(("dtype", "complex128"),)),
                Op(name="v7", op="neg", args=("v6",), params=()),
                Op(name="v8", op="neg", args=("x2",), params=()),
                Op(name="v9", op="expm1", args=("v6",), params=()),
                Op(name="v10", op="imag", args=("v7",), params=()),
                Op(name="v11", op="logsumexp", args=("v10",), params=()),
                Leaf(
                    name="x12",
                    data=[(-0.5 - 0.59j), (0.72 + 0.97j)],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v13", op="matmul", args=("x4", "x12"), params=()),
                Op(name="v14", op="matrix_transpose", args=("v8",), params=()),
                Op(
                    name="v15", op="max", args=("v11",), params=(("axis", None), ("keepdims", True))
                ),
                Grad(
                    name="g16",
                    outputs=("v15",),
                    inputs=("x4", "x4", "x4"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=("x1",),
                    batched=False,
                    single=False,
                ),
                Op(name="v17", op="relu", args=("v11",), params=()),
                Op(name="v18", op="where_less_equal", args=("v17", "v15"), params=()),
                Grad(
                    name="g19",
                    outputs=("v18",),
                    inputs=("x4", "x4", "x4"),
                    seeds=(None,),
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy: the second derivative of prod over 2 factors is a constant (seed 3033, 2578)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[0.98, 1.4, -1.31], [0.62, 1.42, -1.11]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[[-0.46, 0.88, -1.14], [-0.94, 0.69, -0.79]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(
                    name="x3",
                    data=[[-0.54, -1.44, 0.9], [-0.76, -0.66, 1.25]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v4", op="sinh", args=("x2",), params=()),
                Op(name="v5", op="permute_dims", args=("x2",), params=(("axes", (1, 0)),)),
                Op(name="v6", op="positive", args=("x2",), params=()),
                Op(name="v7", op="pow", args=("v4", "x3"), params=()),
                Op(name="v8", op="prod", args=("v6",), params=(("axis", -2), ("keepdims", False))),
                Grad(
                    name="g9",
                    outputs=("v8",),
                    inputs=("x2", "x2", "x2"),
                    seeds=(Seed(data=[1.14, -1.04, -0.46], dtype="float64"),),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Leaf(
                    name="x10",
                    data=[[-1.37, 0.72, 0.29], [0.37, -0.42, 0.43]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v11", op="logical_or", args=("g9[2]", "x10"), params=()),
                Grad(
                    name="g12",
                    outputs=("v11", "v11"),
                    inputs=("x2", "x10"),
                    seeds=(
                        None,
                        Seed(data=[[-0.42, 0.32, -0.94], [-0.33, -1.34, -1.17]], dtype="float64"),
                    ),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v13", op="where_equal", args=("x3", "v11"), params=()),
                Grad(
                    name="g14",
                    outputs=("v13",),
                    inputs=("x3",),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=("v11",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: the second derivative of cumulative_prod over 2 factors is a constant "
        "(seed 3032, 2410)",
        Program(
            steps=(
                Leaf(name="x1", data=0.55, dtype="float64", watched=True),
                Leaf(name="x2", data=-1.12, dtype="float64", watched=True),
                Leaf(
                    name="x3",
                    data=[[-0.64, -0.27], [1.2, -1.27], [-1.28, -1.47]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v4", op="xp_square", args=("x2",), params=()),
                Op(name="v5", op="cos", args=("v4",), params=()),
                Op(name="v6", op="cosh", args=("v5",), params=()),
                Op(
                    name="v7",
                    op="cumulative_prod",
                    args=("x3",),
                    params=(("axis", 1), ("include_initial", True)),
                ),
                Op(
                    name="v8",
                    op="cumulative_sum",
                    args=("v7",),
                    params=(("axis", -1), ("include_initial", False)),
                ),
                Grad(
                    name="g9",
                    outputs=("v5",),
                    inputs=("x2",),
                    seeds=(Seed(data=0.73, dtype="float64"),),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v10", op="empty_like", args=("v4",), params=()),
                Leaf(
                    name="x11", data=[[1.01, -0.9], [-1.05, -0.35]], dtype="float64", watched=False
                ),
                Op(name="v12", op="linalg.pinv", args=("x11",), params=()),
                Grad(
                    name="g13",
                    outputs=("v8", "v7"),
                    inputs=("x3", "x3"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("v6",),
                    batched=False,
                    single=False,
                ),
                Op(
                    name="v14",
                    op="repeat",
                    args=("g13[0]",),
                    params=(("axis", None), ("repeats", 2)),
                ),
                Grad(
                    name="g15",
                    outputs=("v14",),
                    inputs=("x3", "x3", "x3"),
                    seeds=(
                        Seed(
                            data=[
                                -0.92,
                                -1.02,
                                -1.48,
                                1.08,
                                -0.77,
                                -0.41,
                                1.17,
                                0.23,
                                -0.27,
                                0.26,
                                1.16,
                                -0.26,
                            ],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "numpy: cumulative_prod's structure through a create_graph tensordot (seed 4040, 1818)",
        Program(
            steps=(
                Leaf(name="x1", data=[[-1.34, 1.49], [-1.14, 0.9]], dtype="float32", watched=True),
                Op(name="v2", op="negative", args=("x1",), params=()),
                Op(name="v3", op="nextafter", args=("x1", "v2"), params=()),
                Op(name="v4", op="repeat", args=("v3",), params=(("axis", None), ("repeats", 2))),
                Op(name="v5", op="cos", args=("x1",), params=()),
                Op(name="v6", op="cosh", args=("v3",), params=()),
                Op(
                    name="v7",
                    op="cumulative_prod",
                    args=("v2",),
                    params=(("axis", 1), ("include_initial", True)),
                ),
                Op(
                    name="v8",
                    op="cumulative_sum",
                    args=("v4",),
                    params=(("axis", -1), ("include_initial", True)),
                ),
                Grad(
                    name="g9",
                    outputs=("v7", "v7"),
                    inputs=("x1",),
                    seeds=(
                        None,
                        Seed(data=[[-0.49, 0.4, -0.33], [0.61, -0.7, -1.2]], dtype="float32"),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v10", op="linalg.tensordot", args=("v3", "g9[0]"), params=(("axes", 1),)),
                Grad(
                    name="g11",
                    outputs=("v10", "v10"),
                    inputs=("x1", "x1"),
                    seeds=(
                        Seed(data=[[0.89, -0.42], [-1.2, -1.0]], dtype="float32"),
                        Seed(data=[[-1.35, -0.24], [1.25, -0.31]], dtype="float32"),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Leaf(
                    name="x12",
                    data=[[-0.51, -0.87], [-0.88, 0.69], [-1.37, -0.81]],
                    dtype="float32",
                    watched=True,
                ),
                Op(name="v13", op="linalg.tensordot", args=("v7", "x12"), params=(("axes", 1),)),
                Grad(
                    name="g14",
                    outputs=("v2",),
                    inputs=("x1", "x1", "x1"),
                    seeds=(None,),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    # paddle's rule-6 check through a recorded result (issue 23, class: GraphFreedError)
    (
        "paddle: a create_graph result that does not reach the input (d(sum(m @ x))/dx "
        "reads only m) was walked along paddle's double-grad edges toward x, and m's "
        "consumed nodes raised GraphFreedError: seed 6060 program 858",
        Program(
            steps=(
                Leaf(name="x1", data=-1.26, dtype="float64", watched=True),
                Leaf(name="x2", data=[[-0.25, -0.25], [0.41, 0.52]], dtype="float64", watched=True),
                Op(name="v3", op="log", args=("x1",), params=()),
                Op(name="v4", op="where_gt", args=("v3", "x2"), params=()),
                Op(name="v5", op="tile", args=("x2",), params=(("reps", (1, 1)),)),
                Op(name="v6", op="zeros_like", args=("v4",), params=()),
                Op(name="v7", op="maximum", args=("v6", "v5"), params=()),
                Leaf(name="x8", data=[[-0.64, 0.76], [-0.89, 1.15]], dtype="float64", watched=True),
                Op(name="v9", op="pow", args=("x8", "v7"), params=()),
                Leaf(name="m10", data=[[True, True], [False, False]], dtype="bool", watched=False),
                Op(name="v11", op="index_mask", args=("v9", "m10"), params=(("index", ("mask",)),)),
                Leaf(name="i12", data=[[1, 1], [0, 0]], dtype="int64", watched=False),
                Op(name="v13", op="take_along_axis", args=("v7", "i12"), params=(("axis", 1),)),
                Op(name="v14", op="tan", args=("v11",), params=()),
                Op(name="v15", op="tanh", args=("v9",), params=()),
                Op(name="v16", op="tensordot", args=("v13", "x8"), params=(("axes", 1),)),
                Grad(
                    name="g17",
                    outputs=("v16",),
                    inputs=("x8", "x2"),
                    seeds=(None,),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v18", op="index_int", args=("v16",), params=(("index", ("int", -2)),)),
                Grad(
                    name="g19",
                    outputs=("v18", "v13"),
                    inputs=("x8",),
                    seeds=(
                        Seed(data=[[-0.53, 0.94], [0.28, -0.96]], dtype="float64"),
                        Seed(
                            data=[[[-0.38, 1.43], [-0.3, 0.29]], [[-0.55, -0.9], [1.15, -0.79]]],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
                Op(name="v20", op="neg", args=("g17[0]",), params=()),
                Grad(
                    name="g21",
                    outputs=("v9", "v20"),
                    inputs=("x8",),
                    seeds=None,
                    retain_graph=True,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: a create_graph result of WhereDoubleGradNode (the namespace's clip) as "
        "the input of a later pass: raw SystemError 'Invalid slot_id for "
        "GradTensorHolder::add()' (differential seed 6065, program 1858)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[1.16, -0.6, -0.29], [-0.44, 1.47, -0.81]],
                    dtype="float32",
                    watched=True,
                ),
                Op(name="v2", op="clip", args=("x1",), params=(("hi", 0.8), ("lo", -0.3))),
                Op(name="v3", op="tan", args=("v2",), params=()),
                Op(name="v4", op="linalg.vecdot", args=("v2", "v3"), params=()),
                Leaf(
                    name="x5",
                    data=[
                        [(-0.5 + 1.34j), (0.52 - 0.22j), (0.26 + 1.02j)],
                        [(0.68 + 0.48j), (-0.21 + 0.69j), (0.65 - 0.45j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v6", op="fft.irfft", args=("x5",), params=(("axis", -1),)),
                Op(name="v7", op="fft.irfftn", args=("x5",), params=()),
                Op(name="v8", op="fft.rfft", args=("v4",), params=(("axis", -1),)),
                Op(name="v9", op="fft.rfftn", args=("v7",), params=()),
                Grad(
                    name="g10",
                    outputs=("v4",),
                    inputs=("x1", "x1", "x1"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=("v8",),
                    batched=False,
                    single=False,
                ),
                Op(name="v11", op="tile", args=("g10[1]",), params=(("reps", (2, 1)),)),
                Grad(
                    name="g12",
                    outputs=("v11",),
                    inputs=("g10[2]",),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
                Op(
                    name="v13",
                    op="cumulative_prod",
                    args=("v4",),
                    params=(("axis", -1), ("include_initial", False)),
                ),
                Grad(
                    name="g14",
                    outputs=("v13", "v8"),
                    inputs=("x1", "x1", "x1"),
                    seeds=(None, Seed(data=[(0.87 - 1.14j), (0.2 - 1.42j)], dtype="complex64")),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=("g10[2]",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: an unused complex input made a real call's abs (matrix_norm ord=-1 of a "
        "concat) read as complex abs: its constant gradient required grad (differential "
        "seed 6074, program 1610)",
        Program(
            steps=(
                Leaf(name="x1", data=[[-1.42, -1.23], [0.51, 0.41]], dtype="float32", watched=True),
                Leaf(name="x2", data=[[-0.43, 1.15], [0.45, 0.67]], dtype="float32", watched=True),
                Leaf(name="x3", data=[-1.08, 0.36, 0.79], dtype="float32", watched=True),
                Op(name="v4", op="fft.fft", args=("x3",), params=(("axis", 0),)),
                Op(name="v5", op="concat", args=("x2", "x1"), params=(("axis", -1),)),
                Leaf(
                    name="x6",
                    data=[(-0.68 + 1.12j), (-0.51 - 0.38j), (-0.37 + 1.3j)],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v7", op="multiply", args=("v4", "x6"), params=()),
                Leaf(
                    name="x8",
                    data=[
                        [-0.91, -1.34, 1.22],
                        [-0.29, 0.55, 0.67],
                        [0.23, 0.24, 0.35],
                        [-0.4, 0.64, 0.28],
                    ],
                    dtype="float32",
                    watched=True,
                ),
                Op(name="v9", op="linalg.matmul", args=("v5", "x8"), params=()),
                Op(
                    name="v10",
                    op="matrix_norm",
                    args=("v5",),
                    params=(("keepdims", True), ("ord", -1)),
                ),
                Op(name="v11", op="linalg.matrix_power", args=("x1",), params=(("n", 3),)),
                Op(name="v12", op="linalg.matrix_transpose", args=("v10",), params=()),
                Grad(
                    name="g13",
                    outputs=("v12",),
                    inputs=("x6", "x2", "x8"),
                    seeds=(Seed(data=[[0.59]], dtype="float32"),),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v14", op="floor_divide", args=("v5", "v12"), params=()),
                Op(name="v15", op="tile", args=("g13[2]",), params=(("reps", (2, 2)),)),
                Grad(
                    name="g16",
                    outputs=("v15",),
                    inputs=("x3", "x3"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v17", op="cosh", args=("v12",), params=()),
                Grad(
                    name="g18",
                    outputs=("v17", "v17"),
                    inputs=("g13[0]", "x2", "x2"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: an output that reaches the input only through a cut ran its zeroed "
        "branch through complex abs's double-grad node, which cannot cast the zeros: "
        "UnsupportedDtypeError (differential seed 6076, program 4442)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[(1.35 - 0.23j), (0.98 + 0.34j)], [(0.7 - 0.83j), (0.55 - 1.42j)]],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v2", op="abs", args=("x1",), params=()),
                Op(name="v3", op="acos", args=("v2",), params=()),
                Op(name="v4", op="acosh", args=("v2",), params=()),
                Op(name="v5", op="add", args=("v4", "v3"), params=()),
                Grad(
                    name="g6",
                    outputs=("v5", "v5"),
                    inputs=("x1", "x1", "x1"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v7", op="sin", args=("g6[2]",), params=()),
                Op(name="v8", op="expand_dims", args=("g6[1]",), params=(("axis", 2),)),
                Grad(
                    name="g9",
                    outputs=("v4", "v8"),
                    inputs=("x1", "x1"),
                    seeds=(
                        Seed(data=[[0.83, 0.63], [1.44, -1.08]], dtype="float64"),
                        Seed(
                            data=[
                                [[(-1.02 - 0.55j)], [(1.49 - 0.64j)]],
                                [[(-1.18 - 1.32j)], [(0.81 + 1.5j)]],
                            ],
                            dtype="complex128",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=("g6[1]",),
                    batched=False,
                    single=False,
                ),
                Op(name="v10", op="acosh", args=("g9[1]",), params=()),
                Grad(
                    name="g11",
                    outputs=("v10", "v10"),
                    inputs=("x1", "x1"),
                    seeds=(
                        Seed(
                            data=[
                                [(-0.48 + 1.43j), (0.98 - 1.4j)],
                                [(0.5 - 1.05j), (1.35 - 1.44j)],
                            ],
                            dtype="complex128",
                        ),
                        Seed(
                            data=[
                                [[(1.25 + 1.14j), (0.46 - 1.19j)], [(0.7 - 1.14j), (1.01 - 0.48j)]],
                                [
                                    [(-0.54 + 1.39j), (-0.36 + 0.67j)],
                                    [(0.57 + 0.91j), (0.48 + 1.21j)],
                                ],
                            ],
                            dtype="complex128",
                        ),
                    ),
                    retain_graph=True,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: the double-grad nodes of take_along_axis, tile and repeat read as "
        "unknown formulas: a constant second derivative through take_along_axis required "
        "grad (differential seed 6078, program 2930)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[0.21, -0.75], [-0.48, 0.42], [-1.11, -0.49]],
                    dtype="float32",
                    watched=True,
                ),
                Leaf(name="i2", data=[[2, 2], [2, 0], [1, 0]], dtype="int64", watched=False),
                Op(name="v3", op="take_along_axis", args=("x1", "i2"), params=(("axis", 0),)),
                Op(name="v4", op="tan", args=("v3",), params=()),
                Op(name="v5", op="tanh", args=("v4",), params=()),
                Leaf(name="x6", data=[-0.99, 0.64], dtype="float32", watched=True),
                Op(name="v7", op="tensordot", args=("v3", "x6"), params=(("axes", 1),)),
                Grad(
                    name="g8",
                    outputs=("v7", "v7"),
                    inputs=("v7", "x1"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v9", op="isnan", args=("g8[1]",), params=(("dtype", "float32"),)),
                Grad(
                    name="g10",
                    outputs=("v9",),
                    inputs=("x6",),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
                Op(name="v11", op="linalg.matmul", args=("v3", "g10[0]"), params=()),
                Grad(
                    name="g12",
                    outputs=("v11",),
                    inputs=("x6", "x1", "x6"),
                    seeds=(Seed(data=[-0.76, -0.22, -0.53], dtype="float32"),),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: a pass toward a leaf and a complex create_graph result in front of it "
        "stopped its refusal walk at the result, whose graph paddle draws without the "
        "edge to the leaf: None for zeros (differential seed 9001, program 2625)",
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[
                        [(1.21 + 0.49j), (0.75 + 1.24j), (-0.78 - 1.36j)],
                        [(-0.74 + 1.28j), (-0.61 + 0.53j), (-1.22 + 1.27j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[
                        [(-1.49 + 1.22j), (-1.16 - 1.27j), (1.24 + 0.31j)],
                        [(-0.56 - 1.03j), (1.37 - 0.9j), (-0.29 - 0.82j)],
                    ],
                    dtype="complex64",
                    watched=False,
                ),
                Op(name="v3", op="permute_dims", args=("x1",), params=(("axes", (1, 0)),)),
                Leaf(
                    name="x4",
                    data=[
                        [(-0.9 + 0.88j), (0.63 + 0.61j), (-0.67 - 0.63j)],
                        [(-0.57 + 0.29j), (0.5 - 1.22j), (1.04 + 0.63j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v5", op="abs", args=("x4",), params=()),
                Op(
                    name="v6",
                    op="std",
                    args=("v5",),
                    params=(("axis", -1), ("correction", 1), ("keepdims", False)),
                ),
                Op(name="v7", op="sub", args=("x4", "x2"), params=()),
                Op(
                    name="v8",
                    op="sum",
                    args=("v3",),
                    params=(("axis", (0, 1)), ("keepdims", False)),
                ),
                Leaf(name="i9", data=[0, 0], dtype="int64", watched=False),
                Op(name="v10", op="take", args=("v5", "i9"), params=(("axis", -2),)),
                Grad(
                    name="g11",
                    outputs=("v10",),
                    inputs=("x4", "x4", "x4"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v12", op="sub", args=("g11[0]", "g11[1]"), params=()),
                Grad(
                    name="g13",
                    outputs=("v12",),
                    inputs=("x4", "x4", "g11[0]"),
                    seeds=(
                        Seed(
                            data=[
                                [(0.53 - 1.38j), (0.57 - 0.34j), (1.18 - 1.48j)],
                                [(0.68 - 0.55j), (0.46 + 0.79j), (0.82 + 0.88j)],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: a create_graph result in the second output slot of its double-grad node "
        "(the second operand of a matmul in solve) as the input of a later pass: raw "
        "SystemError 'Invalid slot_id for GradTensorHolder::add()' (differential seed "
        "9004, program 2810)",
        Program(
            steps=(
                Leaf(name="x1", data=[-1.11, 0.65, -1.26], dtype="float64", watched=True),
                Leaf(name="x2", data=-0.71, dtype="float64", watched=True),
                Op(name="v3", op="fft.fft", args=("x1",), params=(("axis", 0),)),
                Leaf(name="x4", data=[[0.74, -1.5], [1.1, 1.4]], dtype="float64", watched=True),
                Leaf(name="x5", data=[[0.43, 0.95], [-1.38, 0.51]], dtype="float64", watched=True),
                Op(name="v6", op="linalg.solve", args=("x4", "x5"), params=()),
                Op(name="v7", op="linalg.svd", args=("v6",), params=(("which", 1),)),
                Op(name="v8", op="linalg.svdvals", args=("v6",), params=()),
                Op(name="v9", op="linalg.tensordot", args=("v7", "v8"), params=(("axes", 1),)),
                Op(name="v10", op="linalg.trace", args=("v6",), params=(("offset", 1),)),
                Grad(
                    name="g11",
                    outputs=("v10",),
                    inputs=("x5", "x5", "x5"),
                    seeds=(Seed(data=1.12, dtype="float64"),),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v12", op="linalg.matrix_transpose", args=("g11[0]",), params=()),
                Op(name="v13", op="linalg.cholesky", args=("v12",), params=(("dtype", "float64"),)),
                Grad(
                    name="g14",
                    outputs=("v8", "v12"),
                    inputs=("x5", "x5", "g11[1]"),
                    seeds=(None, Seed(data=[[1.18, 0.78], [-0.97, -0.78]], dtype="float64")),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v15", op="T", args=("g14[2]",), params=()),
                Grad(
                    name="g16",
                    outputs=("v12",),
                    inputs=("x1", "x5"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: a consuming pass through a create_graph result left the forward nodes it"
        " carries usable while no result was recorded by the structure pass: a result "
        "where GraphFreedError is due (differential seed 9006, program 1330)",
        Program(
            steps=(
                Leaf(name="x1", data=[[0.28, 1.39], [0.49, 0.94]], dtype="float64", watched=True),
                Leaf(name="x2", data=[[0.49, -1.42], [0.96, 0.95]], dtype="float64", watched=True),
                Op(name="v3", op="linalg.solve", args=("x1", "x2"), params=()),
                Op(name="v4", op="linalg.svd", args=("v3",), params=(("which", 1),)),
                Op(name="v5", op="linalg.svdvals", args=("x2",), params=()),
                Op(name="v6", op="linalg.tensordot", args=("v5", "v4"), params=(("axes", 1),)),
                Op(name="v7", op="linalg.trace", args=("v3",), params=(("offset", 0),)),
                Grad(
                    name="g8",
                    outputs=("v7",),
                    inputs=("v7", "x2", "x2"),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v9", op="broadcast_arrays", args=("g8[2]", "v6"), params=(("i", 0),)),
                Grad(
                    name="g10",
                    outputs=("v9",),
                    inputs=("x1",),
                    seeds=(Seed(data=[[1.45, -1.4], [1.37, 1.11]], dtype="float64"),),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v11", op="linalg.matmul", args=("v9", "v5"), params=()),
                Grad(
                    name="g12",
                    outputs=("v7",),
                    inputs=("x2", "x2"),
                    seeds=(Seed(data=[-0.45, 1.35], dtype="float64"),),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    (
        "paddle: a consuming pass through a create_graph result left the forward nodes it"
        " carries usable while no result was recorded by the structure pass: a result "
        "where GraphFreedError is due (differential seed 9007, program 554)",
        Program(
            steps=(
                Leaf(name="x1", data=[[-0.89, -0.33], [-0.8, 1.38]], dtype="float32", watched=True),
                Leaf(
                    name="x2",
                    data=[[0.55, -1.45, 1.07], [0.4, -0.33, -1.15]],
                    dtype="float32",
                    watched=False,
                ),
                Leaf(
                    name="x3",
                    data=[[-0.5, -1.48, -1.02], [0.5, -1.42, -1.14]],
                    dtype="float32",
                    watched=True,
                ),
                Op(name="v4", op="remainder", args=("x2", "x3"), params=()),
                Op(
                    name="v5",
                    op="std",
                    args=("x3",),
                    params=(("axis", None), ("correction", 1), ("keepdims", False)),
                ),
                Op(name="v6", op="sub", args=("v5", "v4"), params=()),
                Op(name="v7", op="sum", args=("v5",), params=(("axis", None), ("keepdims", True))),
                Leaf(name="i8", data=[1, 1, 0], dtype="int64", watched=False),
                Op(name="v9", op="take", args=("x3", "i8"), params=(("axis", -2),)),
                Grad(
                    name="g10",
                    outputs=("v6", "v9"),
                    inputs=("x3", "x3", "x3"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v11", op="flip", args=("v6",), params=(("axis", 0),)),
                Leaf(name="m12", data=[True, False], dtype="bool", watched=False),
                Op(
                    name="v13",
                    op="index_mask",
                    args=("g10[1]", "m12"),
                    params=(("index", ("mask",)),),
                ),
                Grad(
                    name="g14",
                    outputs=("v4", "v13"),
                    inputs=("x3",),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v15", op="diff", args=("v9",), params=()),
                Grad(
                    name="g16",
                    outputs=("v15",),
                    inputs=("x3",),
                    seeds=(None,),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
            )
        ),
    ),
    (
        "paddle: a real abs (matrix_norm ord=inf of a real w) in a call with a complex "
        "input read as complex abs: w's constant gradient required grad (differential "
        "seed 6086, program 726)",
        Program(
            steps=(
                Leaf(name="x1", data=[-1.2, 0.93, 0.83], dtype="float32", watched=True),
                Op(name="v2", op="einsum_rowdot", args=("x1",), params=()),
                Op(name="v3", op="index_int", args=("x1",), params=(("index", ("int", 0)),)),
                Op(name="v4", op="fft.fft", args=("x1",), params=(("axis", 0),)),
                Leaf(
                    name="x5",
                    data=[(-0.72 + 0.51j), (-0.25 + 0.93j), (1.37 - 0.4j)],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v6", op="divide", args=("v4", "x5"), params=()),
                Op(name="v7", op="index_int", args=("x5",), params=(("index", ("int", -3)),)),
                Op(name="v8", op="fft.fftn", args=("x5",), params=()),
                Op(name="v9", op="min", args=("x1",), params=(("axis", (0,)), ("keepdims", True))),
                Leaf(
                    name="x10",
                    data=[[0.42, -1.15, -0.23], [-1.2, -1.42, 1.18]],
                    dtype="float32",
                    watched=True,
                ),
                Op(name="v11", op="linalg.matmul", args=("x10", "x1"), params=()),
                Op(
                    name="v12",
                    op="matrix_norm",
                    args=("x10",),
                    params=(("keepdims", True), ("ord", "inf")),
                ),
                Leaf(
                    name="x13",
                    data=[[(0.23 - 1.14j), (0.27 - 1.14j)], [(-0.49 + 0.65j), (-0.27 + 0.46j)]],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v14", op="linalg.matrix_power", args=("x13",), params=(("n", 2),)),
                Op(name="v15", op="linalg.matrix_transpose", args=("v14",), params=()),
                Grad(
                    name="g16",
                    outputs=("v15", "v12"),
                    inputs=("x13", "x13", "x10"),
                    seeds=(
                        Seed(
                            data=[[(0.54 - 1j), (-1.35 - 0.82j)], [(0.71 - 0.27j), (0.62 - 0.69j)]],
                            dtype="complex64",
                        ),
                        Seed(data=[[-1.32]], dtype="float32"),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Grad(
                    name="g17",
                    outputs=("v15", "v15"),
                    inputs=("x13",),
                    seeds=(
                        Seed(
                            data=[
                                [(-0.35 - 0.42j), (1.17 - 1.21j)],
                                [(1.25 - 1.03j), (0.85 - 1.35j)],
                            ],
                            dtype="complex64",
                        ),
                        Seed(
                            data=[
                                [(-0.23 + 1.38j), (-0.84 + 0.67j)],
                                [(-0.77 + 0.33j), (1.04 + 0.82j)],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "rule 14 (jax tape): jnp.where of an empty result was x1 broadcast, so x2 (here "
            "the square of -x2) reached nothing: a backward(create_graph=True) gradient came "
            "back not requiring grad (differential seed 9204, program 207)"
        ),
        Program(
            steps=(
                Leaf(name="x1", data=1.22, dtype="float32", watched=True),
                Leaf(name="x2", data=-1.38, dtype="float32", watched=True),
                Op(name="v3", op="neg", args=("x2",), params=()),
                Op(name="v4", op="pow_scalar", args=("v3",), params=(("c", 2.0),)),
                Op(name="v5", op="nextafter", args=("x2", "v3"), params=()),
                Leaf(name="m6", data=False, dtype="bool", watched=False),
                Op(name="v7", op="nonzero_take", args=("v3", "m6"), params=()),
                Op(name="v8", op="where_not_equal", args=("v7", "v4"), params=()),
                Op(name="v9", op="ones_like", args=("v4",), params=()),
                Backward(
                    outputs=("v8",),
                    seeds=(None,),
                    retain_graph=False,
                    create_graph=True,
                    inputs=("x2", "x2"),
                ),
                Grad(
                    name="g10",
                    outputs=("v7", "v8"),
                    inputs=("x1",),
                    seeds=(
                        Seed(data=[], dtype="float32", shape=(0,)),
                        Seed(data=[], dtype="float32", shape=(0,)),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "rule 14 (jax tape): jnp.diagonal is a cond on the platform whose branches read x"
            " for residuals, and the dependence walk took a cond's outputs to depend on all "
            "its operands: the constant gradient of a diagonal of a linear map required grad "
            "(differential seed 9106, program 215)"
        ),
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[
                        [(1.49 - 0.27j), (0.8 - 0.24j)],
                        [(-0.93 - 0.86j), (0.7 + 0.33j)],
                        [(-0.43 + 1.15j), (-0.79 - 0.77j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[
                        [(-0.52 - 0.66j), (0.5 + 1.15j), (-0.34 - 1.02j)],
                        [(-1.21 + 0.2j), (1.44 - 1j), (-0.49 - 1.27j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x3",
                    data=[
                        [(-0.77 + 0.42j), (-0.44 - 1.17j), (-0.96 + 0.96j)],
                        [(-1.43 - 0.45j), (0.96 - 0.43j), (1.07 - 1.07j)],
                    ],
                    dtype="complex64",
                    watched=False,
                ),
                Op(name="v4", op="neg", args=("x3",), params=()),
                Leaf(
                    name="x5",
                    data=[
                        [(-1.17 - 0.5j), (0.84 + 1.33j)],
                        [(0.63 - 0.88j), (-1.36 + 1.31j)],
                        [(0.46 - 0.35j), (-0.68 - 0.94j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v6", op="linalg.tensordot", args=("v4", "x5"), params=(("axes", 1),)),
                Op(name="v7", op="neg", args=("x5",), params=()),
                Op(name="v8", op="subtract", args=("x1", "v7"), params=()),
                Op(name="v9", op="linalg.diagonal", args=("v6",), params=(("offset", 0),)),
                Op(name="v10", op="add", args=("v4", "x2"), params=()),
                Op(name="v11", op="neg", args=("v9",), params=()),
                Op(name="v12", op="permute_dims", args=("v8",), params=(("axes", (1, 0)),)),
                Op(name="v13", op="positive", args=("v4",), params=()),
                Op(name="v14", op="pow", args=("x1", "v9"), params=()),
                Op(
                    name="v15", op="prod", args=("v7",), params=(("axis", None), ("keepdims", True))
                ),
                Backward(
                    outputs=("v11",),
                    seeds=(Seed(data=[(-1.45 - 1.35j), (-0.81 - 0.53j)], dtype="complex64"),),
                    retain_graph=False,
                    create_graph=True,
                    inputs=("x5",),
                ),
                Grad(
                    name="g16",
                    outputs=("v15", "v12"),
                    inputs=("x5",),
                    seeds=(
                        Seed(data=[[[(0.34 - 1.09j)]], [[(-0.21 + 1.39j)]]], dtype="complex64"),
                        Seed(
                            data=[
                                [
                                    [(1.09 + 0.41j), (-0.77 - 0.48j), (1.08 - 0.24j)],
                                    [(-1.37 + 1.25j), (-0.84 - 0.34j), (0.78 + 0.57j)],
                                ],
                                [
                                    [(-0.36 - 1.11j), (1 - 1.15j), (0.33 - 0.57j)],
                                    [(0.44 - 1.09j), (0.99 - 1.27j), (1.26 + 0.95j)],
                                ],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "paddle: a pass toward x17 through a list op whose other operand's branch "
            "backward() freed and leads to no input ran that branch and raised "
            "GraphFreedError (rule 6b; differential seed 6067, program 4695)"
        ),
        Program(
            steps=(
                Leaf(name="x1", data=[-0.75, -0.89, 1.07], dtype="float64", watched=True),
                Leaf(name="x2", data=0.43, dtype="float64", watched=True),
                Leaf(name="x3", data=[1.23, -0.9, -0.45], dtype="float64", watched=True),
                Op(name="v4", op="remainder", args=("x2", "x3"), params=()),
                Op(name="v5", op="neg", args=("v4",), params=()),
                Op(name="v6", op="neg", args=("v5",), params=()),
                Leaf(
                    name="x7",
                    data=[[-1.26, 0.78], [0.44, 1.29], [0.69, -0.45]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v8", op="tensordot", args=("v4", "x7"), params=(("axes", 1),)),
                Op(name="v9", op="scale", args=("v4",), params=(("c", 2.0),)),
                Op(name="v10", op="full_like", args=("v5",), params=()),
                Leaf(name="i11", data=[-3, -1, -2, -3], dtype="int64", watched=False),
                Op(
                    name="v12",
                    op="index_array",
                    args=("v4", "i11"),
                    params=(("index", ("array",)),),
                ),
                Op(name="v13", op="sqrt", args=("x3",), params=()),
                Op(name="v14", op="xp_square", args=("x7",), params=()),
                Leaf(name="x15", data=[[1.01], [0.32]], dtype="float64", watched=True),
                Op(name="v16", op="squeeze", args=("x15",), params=(("axis", 1),)),
                Leaf(name="x17", data=[1.08, 1.29, -0.52, 0.91], dtype="float64", watched=True),
                Op(name="v18", op="stack", args=("v12", "x17"), params=(("axis", -1),)),
                Backward(
                    outputs=("v14", "v9"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    inputs=None,
                ),
                Grad(
                    name="g19",
                    outputs=("v16", "v18"),
                    inputs=("x17",),
                    seeds=(
                        Seed(data=[0.69, -1.13], dtype="float64"),
                        Seed(
                            data=[[-0.83, -0.59], [0.31, -1.47], [-0.7, -0.97], [-0.59, 0.37]],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=("v13",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "paddle: a create_graph pass toward x2 through a stack whose other operand's "
            "branch backward() freed and leads to no input raised GraphFreedError (rule 6b;"
            " differential seed 9010, program 2623)"
        ),
        Program(
            steps=(
                Leaf(
                    name="x1", data=[[-0.31, -0.49], [-0.52, -1.47]], dtype="float64", watched=True
                ),
                Leaf(name="x2", data=[[-1.27, 0.63], [0.68, -0.97]], dtype="float64", watched=True),
                Op(name="v3", op="sqrt", args=("x1",), params=()),
                Op(name="v4", op="xp_square", args=("v3",), params=()),
                Leaf(name="x5", data=[[1.42], [0.59]], dtype="float64", watched=True),
                Op(name="v6", op="squeeze", args=("x5",), params=(("axis", 1),)),
                Op(name="v7", op="stack", args=("x2", "v3"), params=(("axis", 2),)),
                Backward(
                    outputs=("v4",),
                    seeds=(None,),
                    retain_graph=False,
                    create_graph=False,
                    inputs=None,
                ),
                Grad(
                    name="g8",
                    outputs=("v7",),
                    inputs=("x2", "x2"),
                    seeds=(None,),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "paddle 3.3.1's matmul_grad raised a raw ValueError (Required tensor shall not "
            "be nullptr) for a tensordot of an empty contraction with one operand's "
            "gradient asked for (differential seed 9314, program 3225)"
        ),
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[1.11, 0.55], [0.89, -1.2], [0.91, 0.32]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v2", op="clip", args=("x1",), params=(("hi", None), ("lo", -0.7))),
                Op(name="v3", op="linalg.matrix_transpose", args=("v2",), params=()),
                Op(name="v4", op="tile", args=("v2",), params=(("reps", (1, 1)),)),
                Op(name="v5", op="astype", args=("v2",), params=(("dtype", "float32"),)),
                Op(name="v6", op="argmax_take", args=("v2", "v4"), params=()),
                Leaf(name="x7", data=[0.57], dtype="float64", watched=True),
                Op(name="v8", op="add", args=("v6", "x7"), params=()),
                Op(name="v9", op="diff", args=("x7",), params=()),
                Leaf(name="i10", data=[[0], [1], [0]], dtype="int64", watched=False),
                Op(name="v11", op="take_along_axis", args=("v5", "i10"), params=(("axis", -1),)),
                Op(name="v12", op="tan", args=("v11",), params=()),
                Op(name="v13", op="tanh", args=("v12",), params=()),
                Leaf(name="x14", data=[], dtype="float64", watched=True, shape=(0, 2)),
                Op(name="v15", op="tensordot", args=("v9", "x14"), params=(("axes", 1),)),
                Grad(
                    name="g16",
                    outputs=("v13", "v15"),
                    inputs=("x14", "x14", "x14"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v17", op="add", args=("v15", "v13"), params=()),
                Op(name="v18", op="max", args=("v12",), params=(("axis", -2), ("keepdims", True))),
                Grad(
                    name="g19",
                    outputs=("v18", "v18"),
                    inputs=("x1", "x1", "x14"),
                    seeds=(None, Seed(data=[0.72], dtype="float32")),
                    retain_graph=True,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "torch: a consuming pass toward x2 from outputs one of which reaches x2 only "
            "through round (rule 14) ran and freed that branch's nodes (where, slice), and "
            "a later pass through them toward x7 raised GraphFreedError (rule 6b; "
            "differential seed 9334, program 3255)"
        ),
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[-0.4, -1.2, -0.82], [0.26, -0.49, 0.67]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="x2", data=[-1.21, 0.87, 0.93], dtype="float64", watched=True),
                Op(name="v3", op="round", args=("x2",), params=()),
                Leaf(name="x4", data=[1.42, 0.79, -0.7], dtype="float64", watched=False),
                Leaf(name="m5", data=[True, True, True], dtype="bool", watched=False),
                Op(name="v6", op="where", args=("v3", "x4", "m5"), params=()),
                Leaf(name="x7", data=[1.19, -1.44, -0.71], dtype="float64", watched=True),
                Op(name="v8", op="where_less_equal", args=("v6", "x7"), params=()),
                Op(name="v9", op="roll", args=("x7",), params=(("axis", None), ("shift", 0))),
                Leaf(name="i10", data=[2, -2], dtype="int64", watched=False),
                Op(
                    name="v11",
                    op="index_array",
                    args=("v6", "i10"),
                    params=(("index", ("array",)),),
                ),
                Op(name="v12", op="index_int", args=("x2",), params=(("index", ("int", 0)),)),
                Leaf(name="m13", data=[True, True, True], dtype="bool", watched=False),
                Op(name="v14", op="index_mask", args=("v6", "m13"), params=(("index", ("mask",)),)),
                Op(
                    name="v15", op="index_slice", args=("v8",), params=(("index", ("slice", 1, 3)),)
                ),
                Op(name="v16", op="zeros_like", args=("v3",), params=()),
                Backward(
                    outputs=("v15", "v12"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    inputs=("x2", "x2"),
                ),
                Grad(
                    name="g17",
                    outputs=("v15", "v15"),
                    inputs=("x7", "x7"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=True,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "reference: the oracle's cumulative_sum reshaped an array with no element along"
            " another axis to one row (a ValueError: the reference failed, a bug of the "
            "tester; differential seed 9346, program 633)"
        ),
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[[0.65, 1.3], [-1.0, 0.37], [-1.04, -0.63]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[[0.93, -1.44], [-0.46, -1.1], [0.79, 0.52]],
                    dtype="float64",
                    watched=True,
                ),
                Leaf(name="x3", data=[[-1.19, 1.02], [0.44, 1.45]], dtype="float64", watched=True),
                Op(name="v4", op="linalg.slogdet", args=("x3",), params=()),
                Op(
                    name="v5",
                    op="matrix_norm",
                    args=("x2",),
                    params=(("keepdims", True), ("ord", -1)),
                ),
                Op(name="v6", op="diff", args=("v5",), params=()),
                Op(name="v7", op="cos", args=("v6",), params=()),
                Op(name="v8", op="cosh", args=("v5",), params=()),
                Op(
                    name="v9",
                    op="cumulative_prod",
                    args=("x3",),
                    params=(("axis", 0), ("include_initial", True)),
                ),
                Op(
                    name="v10",
                    op="cumulative_sum",
                    args=("v7",),
                    params=(("axis", -2), ("include_initial", False)),
                ),
                Grad(
                    name="g11",
                    outputs=("v10", "v5"),
                    inputs=("x2",),
                    seeds=(
                        Seed(data=[[[]], [[]]], dtype="float64", shape=(2, 1, 0)),
                        Seed(data=[[[-1.41]], [[-0.89]]], dtype="float64"),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
                Op(name="v12", op="permute_dims", args=("v10",), params=(("axes", (1, 0)),)),
                Grad(
                    name="g13",
                    outputs=("v5", "v10"),
                    inputs=("x2", "x2"),
                    seeds=None,
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "paddle: fast mode: after a consuming pass, a create_graph pass toward x6 "
            "through concat([imag(x3), x6]) ran the operand branch toward x3, which leads "
            "to no requested input, through imag's grad node (no double-grad kernel): "
            "HigherOrderUnavailableError where strict mode answered (rule 6b; differential "
            "seed 9600, program 35)"
        ),
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[
                        [(-1.03 - 1.43j), (-0.28 - 0.49j), (-1.25 - 0.57j)],
                        [(-1.22 - 1.36j), (0.79 - 0.65j), (-1 + 0.94j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[
                        [(-0.69 + 1.12j), (1.39 - 1.43j), (-1.34 + 0.91j)],
                        [(-1.49 + 0.69j), (-1.18 + 0.83j), (0.44 + 1.36j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x3",
                    data=[
                        [(-0.87 + 0.77j), (1.46 + 0.24j), (-1.04 - 1.44j)],
                        [(1.08 - 0.64j), (0.66 - 1.43j), (-0.24 - 0.65j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v4", op="imag", args=("x3",), params=()),
                Op(name="v5", op="clip", args=("v4",), params=(("hi", 0.8), ("lo", None))),
                Leaf(
                    name="x6",
                    data=[[0.21, -0.46, -0.92], [0.72, -1.35, -1.48]],
                    dtype="float32",
                    watched=True,
                ),
                Op(name="v7", op="concat", args=("v4", "x6"), params=(("axis", 1),)),
                Op(name="v8", op="conj", args=("v4",), params=()),
                Op(name="v9", op="copysign", args=("v5", "v8"), params=()),
                Grad(
                    name="g10",
                    outputs=("v9",),
                    inputs=("x3", "x3", "x3"),
                    seeds=(
                        Seed(
                            data=[
                                [[0.8, -0.84, -0.5], [-0.78, 0.21, -1.21]],
                                [[-0.39, -0.72, -0.3], [-0.82, -0.97, -0.47]],
                            ],
                            dtype="float32",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
                Grad(
                    name="g11",
                    outputs=("v7",),
                    inputs=("x6",),
                    seeds=None,
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "paddle: 3.0 ** x2 of a complex x2 (Tensor.__rpow__) ran paddle's "
            "elementwise_pow, whose complex gradient is wrong: a wrong number (differential"
            " seed 9802, program 853)"
        ),
        Program(
            steps=(
                Leaf(name="x1", data=(-1.44 + 0.21j), dtype="complex64", watched=True),
                Leaf(name="x2", data=(-0.89 - 1.18j), dtype="complex64", watched=True),
                Leaf(
                    name="x3",
                    data=[[(0.58 - 0.43j), (-1.35 + 1.3j)], [(-0.46 + 1.31j), (0.83 - 0.24j)]],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v4", op="neg", args=("x3",), params=()),
                Op(name="v5", op="neg", args=("x3",), params=()),
                Op(name="v6", op="neg", args=("v5",), params=()),
                Op(name="v7", op="neg", args=("v4",), params=()),
                Op(name="v8", op="neg", args=("x3",), params=()),
                Op(name="v9", op="neg", args=("v8",), params=()),
                Op(name="v10", op="rpow", args=("x2",), params=(("c", 3.0),)),
                Leaf(
                    name="x11",
                    data=[
                        [(-0.57 + 1.49j), (0.24 - 1.01j), (0.35 + 1.49j)],
                        [(-0.51 - 0.42j), (0.94 + 1.06j), (-0.96 + 0.85j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v12", op="imag", args=("x11",), params=()),
                Op(
                    name="v13",
                    op="std",
                    args=("v12",),
                    params=(("axis", None), ("correction", 1), ("keepdims", False)),
                ),
                Leaf(
                    name="x14",
                    data=[[(0.9 - 0.6j), (1.27 - 0.55j)], [(0.63 - 0.81j), (0.48 - 0.42j)]],
                    dtype="complex64",
                    watched=False,
                ),
                Op(name="v15", op="sub", args=("x14", "v9"), params=()),
                Op(
                    name="v16",
                    op="sum",
                    args=("v6",),
                    params=(("axis", (0, 1)), ("keepdims", False)),
                ),
                Leaf(name="i17", data=[2, 2, 2], dtype="int64", watched=False),
                Op(name="v18", op="take", args=("x11", "i17"), params=(("axis", -1),)),
                Grad(
                    name="g19",
                    outputs=("v10",),
                    inputs=("x2", "x2", "x2"),
                    seeds=(Seed(data=(0.86 + 1.5j), dtype="complex64"),),
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=True,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Backward(
                    outputs=("v18",),
                    seeds=(
                        Seed(
                            data=[
                                [
                                    [(0.24 - 0.57j), (-1.14 - 1.27j)],
                                    [(1.17 - 0.23j), (-0.53 - 0.63j)],
                                    [(0.36 - 0.91j), (-0.24 + 1.5j)],
                                ],
                                [
                                    [(-1.27 - 0.42j), (0.93 + 0.52j)],
                                    [(-0.29 - 0.51j), (1.35 + 1.44j)],
                                    [(0.77 - 0.57j), (1.15 - 0.79j)],
                                ],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=False,
                    inputs=None,
                ),
            )
        ),
    ),
    (
        (
            "paddle: 0.5 ** x2 of a complex x2 in a batched pass: a wrong gradient from "
            "paddle's complex elementwise_pow_grad (differential seed 9802, program 4579)"
        ),
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[
                        [(0.58 - 0.88j), (0.96 - 0.64j)],
                        [(-0.79 + 0.35j), (0.77 - 0.23j)],
                        [(0.69 - 0.4j), (-1.34 + 0.54j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[[(1.02 - 0.58j), (0.41 - 0.48j)], [(-0.53 - 1.43j), (-0.73 + 0.93j)]],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x3",
                    data=[
                        [(0.29 - 0.33j), (-0.7 + 0.83j)],
                        [(1.39 - 1.01j), (1.39 + 0.67j)],
                        [(-0.98 + 1.42j), (0.61 + 0.48j)],
                    ],
                    dtype="complex64",
                    watched=False,
                ),
                Op(name="v4", op="isfinite", args=("x3",), params=(("dtype", "complex64"),)),
                Op(name="v5", op="neg", args=("x2",), params=()),
                Op(name="v6", op="neg", args=("v5",), params=()),
                Op(name="v7", op="rpow", args=("x2",), params=(("c", 0.5),)),
                Op(name="v8", op="fft.ifftn", args=("v4",), params=()),
                Leaf(
                    name="x9",
                    data=[(0.59 + 1.37j), (0.63 + 0.4j), (-0.37 - 1.21j)],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x10",
                    data=[(-0.89 - 1.28j), (-0.45 + 0.65j), (0.71 - 0.6j)],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v11", op="linalg.outer", args=("x9", "x10"), params=()),
                Leaf(
                    name="x12",
                    data=[
                        [(1.27 - 1.14j), (0.51 + 0.83j), (1.18 + 1.48j)],
                        [(-1.18 + 1.04j), (-0.83 - 0.67j), (0.63 + 0.78j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v13", op="abs", args=("x12",), params=()),
                Leaf(
                    name="x14", data=[[-0.67, 0.69], [-1.02, -1.29]], dtype="float32", watched=True
                ),
                Op(name="v15", op="linalg.pinv", args=("x14",), params=()),
                Op(name="v16", op="linalg.qr", args=("v15",), params=(("which", 0),)),
                Op(name="v17", op="linalg.slogdet", args=("v7",), params=()),
                Grad(
                    name="g18",
                    outputs=("v17", "v7"),
                    inputs=("x2",),
                    seeds=(
                        Seed(data=[-1.04, -0.63], dtype="float32"),
                        Seed(
                            data=[
                                [
                                    [(-0.65 - 0.94j), (0.47 - 0.31j)],
                                    [(0.35 + 1.3j), (-1.16 - 0.62j)],
                                ],
                                [
                                    [(0.35 - 0.6j), (-0.71 + 0.29j)],
                                    [(1.47 - 0.45j), (-1.16 - 1.03j)],
                                ],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=True,
                    single=False,
                ),
                Grad(
                    name="g19",
                    outputs=("v17", "v17"),
                    inputs=("x14",),
                    seeds=(Seed(data=1.29, dtype="float32"), None),
                    retain_graph=True,
                    create_graph=True,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "paddle: g16 = d(v9)/dx2 with create_graph, v9 built from a product of "
            "where(...) with a constant mask, reached x1 through the product's double-grad "
            "node (its dead edge): a later pass toward x1 gave zeros where UnusedInputError"
            " is expected (rule 14; differential seed 9614, program 665, drawn by the "
            "generator before session 33's operators)"
        ),
        Program(
            steps=(
                Leaf(name="x1", data=0.27, dtype="float64", watched=True),
                Leaf(
                    name="x2",
                    data=[[0.84, -1.44], [-0.49, -1.15], [-0.26, 1.2]],
                    dtype="float64",
                    watched=True,
                ),
                Op(name="v3", op="conj", args=("x2",), params=()),
                Op(name="v4", op="where_not_equal", args=("v3", "x1"), params=()),
                Op(name="v5", op="broadcast_to", args=("v4",), params=(("shape", (3, 3, 2)),)),
                Op(name="v6", op="isfinite", args=("v5",), params=(("dtype", "float64"),)),
                Op(name="v7", op="int_cast", args=("v4",), params=(("dtype", "float64"),)),
                Op(name="v8", op="log2", args=("v3",), params=()),
                Op(name="v9", op="sub", args=("v8", "v6"), params=()),
                Leaf(
                    name="x10",
                    data=[
                        [(1.15 + 0.44j), (1.35 - 0.86j), (1.19 + 1.14j)],
                        [(0.51 - 1j), (-0.32 - 0.38j), (-0.33 - 1.5j)],
                    ],
                    dtype="complex128",
                    watched=True,
                ),
                Op(name="v11", op="fft.hfft", args=("x10",), params=(("axis", 1),)),
                Op(name="v12", op="fft.ifft", args=("x10",), params=(("axis", 0),)),
                Op(name="v13", op="fft.ifftn", args=("v12",), params=()),
                Op(name="v14", op="fft.ifftshift", args=("v13",), params=()),
                Op(name="v15", op="fft.ihfft", args=("v8",), params=(("axis", 1),)),
                Grad(
                    name="g16",
                    outputs=("v9",),
                    inputs=("x1", "x2", "x2"),
                    seeds=(
                        Seed(
                            data=[
                                [[-1.21, 1.11], [0.32, 1.45], [-1.1, -0.66]],
                                [[0.27, -1.3], [-1.1, -1.22], [0.61, -1.5]],
                                [[0.38, -0.57], [-0.59, 1.43], [0.89, -0.45]],
                            ],
                            dtype="float64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=("v13",),
                    batched=False,
                    single=False,
                ),
                Op(name="v17", op="isfinite", args=("g16[1]",), params=(("dtype", "float64"),)),
                Grad(
                    name="g18",
                    outputs=("v17",),
                    inputs=("x1", "x1"),
                    seeds=None,
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "torch: v3 = +x2 was x2 itself (torch's +t returns t), so the pass that "
            "consumed v3's node consumed nothing and a later pass through it answered where"
            " GraphFreedError is expected (rule 6b; paddle's +t the same; differential seed"
            " 9920, program 968)"
        ),
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[
                        [(-0.57 - 1.1j), (-0.74 - 1j), (-0.59 - 0.79j)],
                        [(0.27 + 1.25j), (0.86 + 1.23j), (0.22 + 0.32j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Leaf(
                    name="x2",
                    data=[
                        [(-1.14 - 0.6j), (1.27 + 0.93j), (0.82 + 1.15j)],
                        [(-0.21 - 1.41j), (0.95 - 1.11j), (-0.29 + 0.32j)],
                    ],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v3", op="pos", args=("x2",), params=()),
                Op(name="v4", op="sin", args=("v3",), params=()),
                Op(name="v5", op="neg", args=("v4",), params=()),
                Op(name="v6", op="fft.irfft", args=("v3",), params=(("axis", 0),)),
                Op(name="v7", op="fft.irfftn", args=("v4",), params=()),
                Op(name="v8", op="fft.rfft", args=("v7",), params=(("axis", 1),)),
                Op(name="v9", op="fft.rfftn", args=("v6",), params=()),
                Grad(
                    name="g10",
                    outputs=("v8",),
                    inputs=("x2",),
                    seeds=(
                        Seed(
                            data=[
                                [(1.25 - 0.81j), (1.15 + 0.28j), (0.84 + 1.4j)],
                                [(0.66 + 1.33j), (-0.62 - 0.83j), (-1.04 + 1.22j)],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=True,
                    no_grad_vars=None,
                    batched=False,
                    single=True,
                ),
                Grad(
                    name="g11",
                    outputs=("v9",),
                    inputs=("x2",),
                    seeds=(
                        Seed(
                            data=[
                                [(-0.95 - 1.08j), (-1.33 + 1.03j)],
                                [(-1.49 - 0.21j), (0.8 - 0.47j)],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=None,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "paddle: v3 = v2 ** 1 of a complex v2 ran paddle's complex scalar pow, whose "
            "gradient reads its base, so the constant gradient of a create_graph call "
            "required grad (rule 14; differential seed 9961, program 3116)"
        ),
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[(-1.44 - 1.19j), (-0.36 - 0.41j), (-0.97 + 1.48j)],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v2", op="neg", args=("x1",), params=()),
                Op(name="v3", op="pow_scalar", args=("v2",), params=(("c", 1),)),
                Op(name="v4", op="neg", args=("v3",), params=()),
                Leaf(name="i5", data=[2, 0, 2], dtype="int64", watched=False),
                Op(name="v6", op="take", args=("v4", "i5"), params=(("axis", 0),)),
                Op(name="v7", op="neg", args=("v4",), params=()),
                Leaf(
                    name="x8",
                    data=[(1.44 + 0.51j), (-0.72 + 0.46j), (0.93 - 0.74j)],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v9", op="linalg.vecdot", args=("v4", "x8"), params=()),
                Op(
                    name="v10",
                    op="vector_norm",
                    args=("v7",),
                    params=(("axis", 0), ("keepdims", False), ("ord", 3)),
                ),
                Op(name="v11", op="log", args=("x8",), params=()),
                Op(name="v12", op="log10", args=("v6",), params=()),
                Grad(
                    name="g13",
                    outputs=("v6",),
                    inputs=("x1", "x1"),
                    seeds=(
                        Seed(
                            data=[(-1.07 + 0.77j), (0.61 - 0.34j), (0.49 - 0.72j)],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=("v11",),
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
    (
        (
            "jax: an FFT of acos(inv(a)) compiled with a column-major FFT operand; XLA's "
            "runtime check failed when the result was read, after the tape's fallback had "
            "returned (seed 9985, program 953)"
        ),
        Program(
            steps=(
                Leaf(
                    name="x1",
                    data=[(1.01 - 1.15j), (-1.05 + 0.58j), (1.35 + 1.31j)],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v2", op="atan", args=("x1",), params=()),
                Leaf(
                    name="x3",
                    data=[[(0.9 + 1.48j), (-0.78 - 0.55j)], [(0.95 - 1.26j), (0.78 + 0.43j)]],
                    dtype="complex64",
                    watched=True,
                ),
                Op(name="v4", op="linalg.inv", args=("x3",), params=()),
                Op(name="v5", op="neg", args=("v2",), params=()),
                Op(name="v6", op="acos", args=("v4",), params=()),
                Op(name="v7", op="expm1", args=("v4",), params=()),
                Op(name="v8", op="fft.fft", args=("v5",), params=(("axis", 0),)),
                Op(name="v9", op="fft.fftn", args=("v6",), params=()),
                Op(name="v10", op="fft.fftshift", args=("v9",), params=()),
                Grad(
                    name="g11",
                    outputs=("v10", "v10"),
                    inputs=("x3", "x3"),
                    seeds=(
                        Seed(
                            data=[
                                [(0.51 - 1.25j), (-0.24 + 0.65j)],
                                [(0.5 - 1.26j), (-1.13 + 0.56j)],
                            ],
                            dtype="complex64",
                        ),
                        Seed(
                            data=[
                                [(1.06 + 0.82j), (0.82 + 1.3j)],
                                [(-0.34 - 0.64j), (0.24 + 1.33j)],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=None,
                    create_graph=True,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
                Op(name="v12", op="full_like", args=("x3",), params=()),
                Op(name="v13", op="neg", args=("g11[1]",), params=()),
                Grad(
                    name="g14",
                    outputs=("v8", "v13"),
                    inputs=("x3", "x3", "x3"),
                    seeds=(
                        Seed(
                            data=[
                                [(0.28 - 0.27j), (0.25 - 1.15j)],
                                [(-1.27 + 1.23j), (-0.25 + 0.34j)],
                                [(0.62 + 1.42j), (0.96 - 0.59j)],
                            ],
                            dtype="complex64",
                        ),
                        Seed(
                            data=[
                                [(1.11 - 0.38j), (1.19 - 0.77j)],
                                [(0.58 + 0.26j), (0.44 - 0.89j)],
                            ],
                            dtype="complex64",
                        ),
                    ),
                    retain_graph=False,
                    create_graph=False,
                    allow_unused=False,
                    materialize_grads=False,
                    no_grad_vars=None,
                    batched=False,
                    single=False,
                ),
            )
        ),
    ),
]
