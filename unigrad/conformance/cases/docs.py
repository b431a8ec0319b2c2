"""Examples from framework documentation, replayed with ``unigrad.grad``/``backward``.

Each case names the page it replays. Tape-style examples of other frameworks (nested
and persistent ``tf.GradientTape``, ``tape.jacobian``, ``stop_gradients``) are written
with unigrad's equivalents: ``create_graph``, ``retain_graph``, ``is_grads_batched``,
``no_grad_vars``. Purely functional examples (``torch.autograd.functional``,
``jax.jvp``, ``jax.hessian``, ...) are not here: they join with the functional API.
"""

from __future__ import annotations

from typing import Any

from .._case import Case
from .._kit import Kit

__all__ = ["CASES"]

TORCH_TUTORIAL = "https://docs.pytorch.org/tutorials/beginner/blitz/autograd_tutorial.html"
PADDLE_GRAD = "https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/grad_en.html"
TF_TAPE = "https://www.tensorflow.org/api_docs/python/tf/GradientTape"
TF_GUIDE = "https://www.tensorflow.org/guide/autodiff"
TF_GRADIENTS = "https://www.tensorflow.org/api_docs/python/tf/compat/v1/gradients"
JAX_GRAD = "https://docs.jax.dev/en/latest/_autosummary/jax.grad.html"
JAX_AUTODIFF = "https://docs.jax.dev/en/latest/automatic-differentiation.html"
JAX_COMPLEX = "https://github.com/jax-ml/jax/issues/9110"
HIPS_README = "https://github.com/HIPS/autograd/blob/master/README.md"
EAGERPY = "https://github.com/jonasrauber/eagerpy/blob/master/docs/guide/autodiff.md"
IVY = "https://github.com/ivy-llc/ivy/blob/main/ivy/functional/ivy/gradients.py"
MINDSPORE = "https://mindspore.cn/docs/en/r1.7/api_python/ops/mindspore.ops.grad.html"
TINYGRAD = "https://github.com/tinygrad/tinygrad/blob/master/tinygrad/tensor.py"
OPTIMISTIX = "https://github.com/patrick-kidger/optimistix/pull/61"
TF_COMPLEX = "https://github.com/tensorflow/tensorflow/issues/3348"


# ---- PyTorch ------------------------------------------------------------------------
def _torch_tutorial_q(k: Kit) -> Any:
    a, b = k.leaf([2.0, 3.0]), k.leaf([6.0, 4.0])
    q = 3 * a**3 - b**2
    k.backward(q, k.ones(2))
    return k.grad_of(a), k.grad_of(b)


# ---- Paddle -------------------------------------------------------------------------
def _paddle_create_graph(create_graph: bool) -> Any:
    def compute(k: Kit) -> Any:
        x = k.leaf(k.np(k.ones([1])))
        y = x * x
        (dx,) = k.grad([y], [x], create_graph=create_graph, retain_graph=True)
        z = y + dx
        k.backward(z)
        return k.grad_of(x)

    return compute


def _paddle_grad_outputs(seeds: tuple[float | None, float | None]) -> Any:
    def compute(k: Kit) -> Any:
        x = k.leaf(2.0)
        y1, y2 = x * x, x * 3
        go = None if seeds == (None, None) else [None if s is None else k.tensor(s) for s in seeds]
        return k.grad([y1, y2], [x], grad_outputs=go)

    return compute


# ---- TensorFlow -------------------------------------------------------------------
def _tf_square(k: Kit) -> Any:
    x = k.leaf(3.0)
    return k.grad(x * x, x)


def _tf_nested(x0: float) -> Any:
    def compute(k: Kit) -> Any:
        x = k.leaf(x0)
        y = x * x
        (dy_dx,) = k.grad(y, x, create_graph=True)
        (d2y_dx2,) = k.grad(dy_dx, x)
        return dy_dx, d2y_dx2

    return compute


def _tf_persistent(k: Kit) -> Any:
    x = k.leaf(3.0)
    y = x * x
    z = y * y
    (dz_dx,) = k.grad(z, x, retain_graph=True)
    (dy_dx,) = k.grad(y, x)
    return dz_dx, dy_dx


def _tf_jacobian(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0])
    y = x * x
    return k.grad(y, x, k.eye(2), is_grads_batched=True)


def _tf_guide_scalar_targets(k: Kit) -> Any:
    x = k.leaf(2.0)
    y0, y1 = x**2, 1 / x
    (g0,) = k.grad(y0, x, retain_graph=True)
    (g1,) = k.grad(y1, x, retain_graph=True)
    (g_sum,) = k.grad([y0, y1], x)
    return g0, g1, g_sum


def _tf_guide_vector_target(k: Kit) -> Any:
    x = k.leaf(2.0)
    y = x * k.tensor([3.0, 4.0])
    return k.grad(y, x)


def _tf_guide_persistent(k: Kit) -> Any:
    x = k.leaf([1.0, 3.0])
    y = x * x
    z = y * y
    (dz_dx,) = k.grad(z, x, retain_graph=True)
    (dy_dx,) = k.grad(y, x)
    return dz_dx, dy_dx


def _tf_guide_intermediate(k: Kit) -> Any:
    x = k.leaf(3.0)
    y = x * x
    z = y * y
    return k.grad(z, y)


def _tf_guide_control_flow(k: Kit) -> Any:
    x = k.leaf(1.0)
    v0, v1 = k.leaf(2.0), k.leaf(2.0)
    result = v0 if k.value(x) > 0 else v1**2
    dv0, dv1 = k.grad(result, [v0, v1], retain_graph=True, allow_unused=True)
    (dx,) = k.grad(result, x, allow_unused=True)
    return dv0, dv1, dx


def _tf_stop_gradients(k: Kit) -> Any:
    a = k.leaf(0.0)
    b = 2 * a
    s = a + b
    (da,) = k.grad(s, a, no_grad_vars=[b], retain_graph=True)
    (db,) = k.grad(s, b)
    return da, db


def _tf_total_derivative(k: Kit) -> Any:
    a = k.leaf(0.0)
    b = 2 * a
    return k.grad(a + b, [a, b])


# ---- JAX ----------------------------------------------------------------------------
def _tanh_derivatives(x0: float, order: int) -> Any:
    def compute(k: Kit) -> Any:
        x = k.leaf(x0)
        y = k.xp.tanh(x)
        for i in range(order):
            (y,) = k.grad(y, x, create_graph=i < order - 1)
        return y

    return compute


def _poly(k: Kit) -> tuple[Any, Any]:
    x = k.leaf(1.0)
    return x, x * x * x + 2 * x * x - 3 * x + 1


def _jax_poly_123(k: Kit) -> Any:
    x, f = _poly(k)
    (d1,) = k.grad(f, x, create_graph=True)
    (d2,) = k.grad(d1, x, create_graph=True)
    (d3,) = k.grad(d2, x)
    return d1, d2, d3


def _jax_poly_4(k: Kit) -> Any:
    x, f = _poly(k)
    (d1,) = k.grad(f, x, create_graph=True)
    (d2,) = k.grad(d1, x, create_graph=True)
    (d3,) = k.grad(d2, x, create_graph=True)
    return k.grad(d3 + 0 * x, x)


def _jax_complex_abs2(k: Kit) -> Any:
    z = k.leaf(3 + 4j, "complex64")
    xp = k.xp
    return k.grad(xp.real(z) ** 2 + xp.imag(z) ** 2, z)


# ---- other libraries ------------------------------------------------------------------
def _eagerpy(k: Kit) -> Any:
    x = k.leaf([1.0, 2.0, 3.0])
    f = k.xp.sum(x * x)
    (g,) = k.grad(f, x)
    return f, g


def _ivy_mean_square(data: list[list[float]]) -> Any:
    def compute(k: Kit) -> Any:
        x = k.leaf(data)
        f = k.xp.mean(x * x)
        (g,) = k.grad(f, x)
        return f, g

    return compute


def _mindspore(k: Kit) -> Any:
    x = k.tensor([[1.0, 2.0], [3.0, 4.0]])
    y = k.leaf([[-2.0, 3.0], [-1.0, 2.0]])
    z = k.leaf([[0.0, 3.0], [5.0, -1.0]])
    return k.grad(x * y * z, [y, z])


def _tinygrad(k: Kit) -> Any:
    x = k.leaf(k.np(k.eye(3)))
    y = k.leaf([[2.0, 0.0, -2.0]])
    z = k.xp.sum(k.xp.matmul(y, x))
    return k.grad(z, [x, y])


def _holomorphic_square(z0: complex) -> Any:
    def compute(k: Kit) -> Any:
        z = k.leaf(z0, "complex64")
        return k.grad(z * z, z, k.ones([], "complex64"))

    return compute


def _ivy_expected(data: list[list[float]]) -> tuple[float, list[list[float]]]:
    flat = [v for row in data for v in row]
    return sum(v * v for v in flat) / len(flat), [[2 * v / len(flat) for v in row] for row in data]


_IVY_INT_DATA = [[1.0, 4.0, 6.0], [2.0, 6.0, 9.0]]
_IVY_DATA = [[4.6, 2.1, 5.0], [2.8, 1.3, 6.2]]

CASES: list[Case] = [
    # PyTorch tutorial: Q = 3a^3 - b^2, Q.backward(gradient=ones); a.grad == 9a^2, b.grad == -2b
    Case(
        "torch.tutorial/Q=3a^3-b^2",
        TORCH_TUTORIAL,
        _torch_tutorial_q,
        expected=([36.0, 81.0], [-12.0, -8.0]),
    ),
    # paddle.grad docs, first example: z = y + dx, z.backward(), x.grad is 2 or 4
    Case(
        "paddle.grad/create_graph=False", PADDLE_GRAD, _paddle_create_graph(False), expected=[2.0]
    ),
    Case("paddle.grad/create_graph=True", PADDLE_GRAD, _paddle_create_graph(True), expected=[4.0]),
    # paddle.grad docs, second example: dx = 4*dy1 + 3*dy2
    Case(
        "paddle.grad/grad_outputs=None",
        PADDLE_GRAD,
        _paddle_grad_outputs((None, None)),
        expected=(7.0,),
    ),
    Case(
        "paddle.grad/grad_outputs=[None,4]",
        PADDLE_GRAD,
        _paddle_grad_outputs((None, 4.0)),
        expected=(16.0,),
    ),
    Case(
        "paddle.grad/grad_outputs=[4,None]",
        PADDLE_GRAD,
        _paddle_grad_outputs((4.0, None)),
        expected=(19.0,),
    ),
    Case(
        "paddle.grad/grad_outputs=[3,4]",
        PADDLE_GRAD,
        _paddle_grad_outputs((3.0, 4.0)),
        expected=(24.0,),
    ),
    # tf.GradientTape API page
    Case("tf.GradientTape/x*x", TF_TAPE, _tf_square, expected=(6.0,)),
    Case(
        "tf.GradientTape/nested-tapes-x=3",
        TF_TAPE,
        _tf_nested(3.0),
        expected=(6.0, 2.0),
        note="the nested tape is create_graph=True on the inner call",
    ),
    Case("tf.GradientTape/nested-tapes-x=5", TF_TAPE, _tf_nested(5.0), expected=(10.0, 2.0)),
    Case(
        "tf.GradientTape/persistent",
        TF_TAPE,
        _tf_persistent,
        expected=(108.0, 6.0),
        note="a persistent tape is retain_graph=True",
    ),
    Case(
        "tf.GradientTape/jacobian",
        TF_TAPE,
        _tf_jacobian,
        expected=([[2.0, 0.0], [0.0, 4.0]],),
        note="tape.jacobian is a batched VJP with identity seeds (is_grads_batched)",
    ),
    # TensorFlow autodiff guide
    Case(
        "tf.guide/gradient-of-each-target",
        TF_GUIDE,
        _tf_guide_scalar_targets,
        expected=(4.0, -0.25, 3.75),
        note="a dict of targets is differentiated as their sum: a list of outputs",
    ),
    Case("tf.guide/non-scalar-target", TF_GUIDE, _tf_guide_vector_target, expected=(7.0,)),
    Case(
        "tf.guide/persistent-vector",
        TF_GUIDE,
        _tf_guide_persistent,
        expected=([4.0, 108.0], [2.0, 6.0]),
    ),
    Case("tf.guide/intermediate-result", TF_GUIDE, _tf_guide_intermediate, expected=(18.0,)),
    Case(
        "tf.guide/control-flow",
        TF_GUIDE,
        _tf_guide_control_flow,
        expected=(1.0, None, None),
        note="TF returns None for unconnected sources: allow_unused=True",
    ),
    Case(
        "tf.gradients/stop_gradients",
        TF_GRADIENTS,
        _tf_stop_gradients,
        expected=(1.0, 1.0),
        note="stop_gradients=[a, b] gives partial derivatives: no_grad_vars cuts b when "
        "differentiating w.r.t. a, and the gradient w.r.t. b stops at b",
    ),
    Case("tf.gradients/total-derivative", TF_GRADIENTS, _tf_total_derivative, expected=(3.0, 1.0)),
    # JAX
    Case("jax.grad/tanh(0.2)", JAX_GRAD, _tanh_derivatives(0.2, 1), expected=0.961043),
    Case("jax.autodiff/tanh'(2)", JAX_AUTODIFF, _tanh_derivatives(2.0, 1), expected=0.070650816),
    Case("jax.autodiff/tanh''(2)", JAX_AUTODIFF, _tanh_derivatives(2.0, 2), expected=-0.13621868),
    Case(
        "jax.autodiff/tanh'''(2)",
        JAX_AUTODIFF,
        _tanh_derivatives(2.0, 3),
        expected=0.25265405,
        rtol=1e-4,
        note="the last call uses create_graph=False, which every backend supports",
    ),
    Case("jax.autodiff/polynomial-d1-d3", JAX_AUTODIFF, _jax_poly_123, expected=(4.0, 10.0, 6.0)),
    Case(
        "jax.autodiff/polynomial-d4",
        JAX_AUTODIFF,
        _jax_poly_4,
        expected=(0.0,),
        note="f''' is a constant, whose requires-grad flag is unspecified (contract "
        "§3.1.7), so the fourth derivative is taken of f''' + 0*x",
    ),
    Case(
        "jax.complex/|z|^2-torch-convention",
        JAX_COMPLEX,
        _jax_complex_abs2,
        expected=(6 + 8j,),
        note="JAX prints 6-8j; unigrad follows torch/paddle/TF: 6+8j (contract §3.2)",
    ),
    # other libraries' documentation
    Case(
        "autograd.readme/tanh(1)",
        HIPS_README,
        _tanh_derivatives(1.0, 1),
        expected=0.41997434161402603,
    ),
    Case("eagerpy/sum(x^2)", EAGERPY, _eagerpy, expected=(14.0, [2.0, 4.0, 6.0])),
    Case(
        "ivy/execute_with_gradients-mean(x^2)",
        IVY,
        _ivy_mean_square(_IVY_INT_DATA),
        expected=_ivy_expected(_IVY_INT_DATA),
        note="the doc's input is an integer array; replayed in float32, since integer "
        "inputs are not differentiable (contract §3.1.10)",
    ),
    Case("ivy/grad-mean(x^2)", IVY, _ivy_mean_square(_IVY_DATA), expected=_ivy_expected(_IVY_DATA)),
    Case(
        "mindspore/grad_position=(1,2)",
        MINDSPORE,
        _mindspore,
        expected=([[0.0, 6.0], [15.0, -4.0]], [[-2.0, 6.0], [-3.0, 8.0]]),
    ),
    Case(
        "tinygrad/gradient-of-matmul",
        TINYGRAD,
        _tinygrad,
        expected=([[2.0, 2.0, 2.0], [0.0, 0.0, 0.0], [-2.0, -2.0, -2.0]], [[1.0, 1.0, 1.0]]),
    ),
    Case(
        "holomorphic/z^2-at-1+1j",
        OPTIMISTIX,
        _holomorphic_square(1 + 1j),
        expected=(2 - 2j,),
        note="torch convention g*conj(f'(z)); JAX's holomorphic grad prints 2+2j",
    ),
    Case("holomorphic/x*x-at-0.1j", TF_COMPLEX, _holomorphic_square(0.1j), expected=(-0.2j,)),
]
