"""Issue 10, "the same answer on any program": each divergence the differential tester
(or a user) found, as a regression test on all four backends, and the upstream tests of
torch and paddle named in the issue, replayed through unigrad."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad


# ---- structure follows torch ----------------------------------------------------------------
def test_a_constant_gradient_does_not_require_grad(backend) -> None:
    x, c = backend.leaf([1.0, 2.0]), backend.leaf([3.0, 4.0])
    (g,) = unigrad.grad(x + c, x, create_graph=True)
    backend.close(g, [1.0, 1.0])
    assert not backend.requires_grad(g)
    with pytest.raises(unigrad.NotDifferentiableError):
        unigrad.grad(g, x)


def test_a_gradient_is_unused_by_what_it_does_not_depend_on(backend) -> None:
    x, a = backend.leaf([0.5, 1.5]), backend.leaf([2.0, -1.0])
    (g,) = unigrad.grad(x * a, x, create_graph=True)
    assert backend.requires_grad(g)  # it depends on a
    assert unigrad.grad(g, x, allow_unused=True) == (None,)  # but not on x
    with pytest.raises(unigrad.UnusedInputError):
        unigrad.grad(g, x)
    backend.close(unigrad.grad(g, a)[0], [1.0, 1.0])


def test_one_gradient_per_input_has_its_own_dependencies(backend) -> None:
    x, a = backend.leaf([0.5]), backend.leaf([2.0])
    gx, ga = unigrad.grad(x * a + a * a, [x, a], create_graph=True)
    # d/dx = a depends on a only; d/da = x + 2a depends on both (retain_graph: a pass
    # through gx consumes the forward nodes it carries, which ga carries too: rule 6)
    assert unigrad.grad(gx, [x, a], allow_unused=True, retain_graph=True)[0] is None
    backend.close(unigrad.grad(ga, [x, a])[0], [1.0])


def test_materialized_zeros_under_create_graph_are_differentiable(backend) -> None:
    x, y = backend.leaf([1.0]), backend.leaf([2.0])
    (z,) = unigrad.grad(x * 2.0, y, create_graph=True, materialize_grads=True)
    backend.close(z, [0.0])
    assert backend.requires_grad(z)
    (zz,) = unigrad.grad(z, x, materialize_grads=True)
    backend.close(zz, [0.0])


def test_torch_test_grad_materialize_grads(backend) -> None:
    # pytorch/pytorch test/test_autograd.py, TestAutograd.test_grad_materialize_grads,
    # through unigrad (torch's assertRaisesRegex(ValueError) is GradArgumentError here)
    x = backend.leaf(0.5)
    a = backend.leaf(1.0)
    y = x * a
    dydx = unigrad.grad(y, x, create_graph=True)
    d2ydx2_none = unigrad.grad(dydx, x, create_graph=True, allow_unused=True)
    d2ydx2 = unigrad.grad(dydx, x, create_graph=True, allow_unused=True, materialize_grads=True)
    d3ydx3 = unigrad.grad(d2ydx2, x, materialize_grads=True)
    assert d2ydx2_none[0] is None
    assert backend.value(d2ydx2[0]) == 0
    assert backend.value(d3ydx3[0]) == 0
    with pytest.raises(ValueError, match="materialize_grads"):
        unigrad.grad(y, x, allow_unused=False, materialize_grads=True)


def test_a_cut_branch_is_not_part_of_a_create_graph_result(backend) -> None:
    # torch's no_grad_vars used to be zeroing hooks: the branch beyond the cut stayed in
    # the result's graph (zero-valued), which then reported requires_grad
    x, a = backend.leaf([0.5, 1.0], "float64"), backend.leaf([2.0, 3.0], "float64")
    v = x * a
    (g,) = unigrad.grad(v * 2.0 + x, x, no_grad_vars=[v], create_graph=True)
    backend.close(g, [1.0, 1.0])
    assert not backend.requires_grad(g)
    # a result that depends on the cut tensor's value still differentiates through it
    (h,) = unigrad.grad(v * x, x, no_grad_vars=[v], create_graph=True)
    backend.close(h, [1.0, 3.0])
    assert backend.requires_grad(h)
    hx, ha = unigrad.grad(h, [x, a], backend.tensor([1.0, 1.0], "float64"))
    backend.close(hx, [2.0, 3.0])
    backend.close(ha, [0.5, 1.0])


# ---- create_graph results stay differentiable whatever retain_graph says ---------------------
def test_create_graph_results_survive_retain_graph_false(backend) -> None:
    x = backend.leaf([0.5, -1.0], "float64")
    y = backend.xp.tanh(x)
    (g,) = unigrad.grad(y, x, create_graph=True, retain_graph=False)
    (h,) = unigrad.grad(g, x)
    t = np.tanh([0.5, -1.0])
    backend.close(h, -2 * t * (1 - t * t), rtol=1e-12)
    with pytest.raises(unigrad.GraphFreedError):  # the same outputs: consumed
        unigrad.grad(y, x)
    with pytest.raises(unigrad.GraphFreedError):  # anything built on them too
        unigrad.grad(g * g + y, x)


def test_a_freed_gradient_graph_lets_no_consumed_pass_through(backend) -> None:
    # paddle remembered the nodes of create_graph results by address: once they were
    # freed, a new node at a reused address let a second pass through a consumed graph
    # (the long differential run, seed 7)
    x = backend.leaf([0.5, -1.0], "float64")
    xp = backend.xp
    for _ in range(30):
        (g,) = unigrad.grad(xp.tanh(x), x, create_graph=True, retain_graph=False)
        del g
    for _ in range(30):
        y = xp.tanh(x) * 2.0 + 1.0
        unigrad.grad(y, x)
        with pytest.raises(unigrad.GraphFreedError):
            unigrad.grad(y, x)


def test_backward_from_a_create_graph_result_after_retain_graph_false(backend) -> None:
    # paddle's backward (without inputs=) ran into the consumed forward nodes: it raised
    # GraphFreedError (differential seed 7, program 2819)
    x = backend.leaf([0.5, -1.0], "float64")
    xp = backend.xp
    y = xp.tanh(x)
    (g,) = unigrad.grad(y, x, create_graph=True, retain_graph=False)
    unigrad.backward(xp.sum(-g))
    t = np.tanh([0.5, -1.0])
    backend.close(backend.grad_of(x), 2 * t * (1 - t * t), rtol=1e-12)
    with pytest.raises(unigrad.GraphFreedError):  # the consumed outputs themselves
        unigrad.backward(xp.sum(y))


def test_no_grad_vars_do_not_excuse_a_consumed_graph(backend) -> None:
    xp = backend.xp
    x, w = backend.leaf([0.5, -1.0], "float64"), backend.leaf([2.0, 3.0], "float64")
    y = xp.tanh(x)
    unigrad.grad(y, x, create_graph=True, retain_graph=False)
    # y is cut, but the pass without the cut would run tanh's consumed node toward x
    # (torch's and paddle's engines run it, its gradients dropped): GraphFreedError
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.grad([y], [x], allow_unused=True, no_grad_vars=[y])
    # a cut input is not the pass's: nothing runs toward x, the consumed node included
    gw, gx = unigrad.grad([xp.sum(y * w)], [w, x], allow_unused=True, no_grad_vars=[x])
    backend.close(gw, np.tanh([0.5, -1.0]))
    assert gx is None


# ---- never a wrong number -------------------------------------------------------------------
def test_complex_tanh_second_derivative(backend) -> None:
    z = backend.leaf([0.3 + 0.4j, -0.5 + 0.2j], "complex128")
    (g,) = unigrad.grad(
        backend.xp.tanh(z), z, backend.tensor([1, 1j], "complex128"), create_graph=True
    )
    seed = backend.tensor([1.0, 0.5 - 1j], "complex128")
    if backend.name == "paddle":  # its complex tanh double-grad kernel is wrong: refused
        with pytest.raises(unigrad.HigherOrderUnavailableError, match="tanh"):
            unigrad.grad(g, z, seed)
        return
    (h,) = unigrad.grad(g, z, seed)
    v = np.array([0.3 + 0.4j, -0.5 + 0.2j])
    t = np.tanh(v)
    d2 = -2 * t * (1 - t * t)  # d2 tanh / dz2
    # g = s1 conj(f'(z)) is antiholomorphic; with seed s2 the torch convention gives
    # conj(d/dz (conj(s1) s2 f'(z))) = s1 conj(s2) conj(f''(z))
    want = np.array([1, 1j]) * np.conj(np.array([1.0, 0.5 - 1j]) * d2)
    backend.close(h, want, rtol=1e-12)


def test_complex_second_derivatives(backend) -> None:
    # paddle differentiates a complex gradient without the conjugation: d/dz of (z*z)'s
    # gradient 2*s*conj(z), with seed t, came out as 2*s*t (differential seed 1)
    z = backend.leaf([-0.99 + 1.19j, 0.37 + 0.79j], "complex128")
    s = np.array([1.46 + 1.06j, 0.45 - 0.35j])
    t = np.array([0.86 + 0.59j, -0.24 + 0.9j])
    (g,) = unigrad.grad(z * z, z, backend.tensor(s, "complex128"), create_graph=True)
    backend.close(g, s * np.conj(2 * np.array([-0.99 + 1.19j, 0.37 + 0.79j])), rtol=1e-12)
    if backend.name == "paddle":
        with pytest.raises(unigrad.HigherOrderUnavailableError, match="complex"):
            unigrad.grad(g, z, backend.tensor(t, "complex128"))
        return
    (h,) = unigrad.grad(g, z, backend.tensor(t, "complex128"))
    backend.close(h, 2 * s * np.conj(t), rtol=1e-12)


def test_complex_abs_second_derivative(backend) -> None:
    # paddle's complex abs double-grad node has no edge to z: the second derivative came
    # out as nothing (zeros), and the gradient as a constant (differential seed 7)
    z = backend.leaf([1.35 - 1.49j, -0.5 + 0.2j], "complex128")
    (g,) = unigrad.grad(backend.xp.abs(z), z, create_graph=True)
    v = np.array([1.35 - 1.49j, -0.5 + 0.2j])
    backend.close(g, v / np.abs(v), rtol=1e-12)
    assert backend.requires_grad(g)
    loss = backend.xp.sum(backend.xp.real(g))
    if backend.name == "paddle":
        with pytest.raises(unigrad.HigherOrderUnavailableError, match="abs"):
            unigrad.grad(loss, z)
        return
    (h,) = unigrad.grad(loss, z)
    # Re(z/|z|) = x/r: d/dx = y^2/r^3, d/dy = -xy/r^3 (torch's convention: d/dx + i d/dy)
    x, y, r = v.real, v.imag, np.abs(v)
    backend.close(h, (y * y - 1j * x * y) / r**3, rtol=1e-12)


def test_an_intermediate_input_behind_a_gradient(backend) -> None:
    # differential seed 4: paddle's divide saves its output, so a gradient of
    # v = x / (x*x + 1) depends on v in paddle's graph and not in torch's: the derivative
    # with respect to v through the gradient has no single answer (v lies between the
    # earlier grad's input x and its output v): refused on every backend
    x = backend.leaf(-0.25, "float64")
    v = x / (x * x + 1.0)
    (g,) = unigrad.grad(v, x, create_graph=True)
    dv = (1 - 0.0625) / (1 + 0.0625) ** 2
    backend.close(g, dv, rtol=1e-12)
    with pytest.raises(unigrad.UnsupportedFeatureError, match="intermediate"):
        unigrad.grad(g * v, v, retain_graph=True)
    (gx,) = unigrad.grad(g * v, x)  # with respect to the leaf: the same everywhere
    backend.close(
        gx,
        dv * dv + (-0.25 / (1 + 0.0625)) * (2 * -0.25 * (0.0625 - 3)) / (1 + 0.0625) ** 3,
        rtol=1e-9,
    )


def test_an_intermediate_between_a_create_graph_grads_inputs_and_outputs(backend) -> None:
    # the torch-only long run: v4 = x2.T; g = d(0.5 - v4*v4)/dx2 is -2*v4.T through
    # torch's saved tensors and -2*x2 on the tape: d[y, g.T]/dv4 gave -2*v4 - 2 on torch,
    # -2*v4 on the tape and the reference. Refused everywhere, also as a cut.
    x2 = backend.leaf([[0.3, -0.7]], "float64")
    v4 = x2.T
    (g,) = unigrad.grad(0.5 - v4 * v4, x2, create_graph=True)
    backend.close(g, [[-0.6, 1.4]])
    with pytest.raises(unigrad.UnsupportedFeatureError, match=r"inputs\[0\] is an intermediate"):
        unigrad.grad([0.5 - v4 * v4, g.T], v4, retain_graph=True)
    with pytest.raises(unigrad.UnsupportedFeatureError, match=r"no_grad_vars\[0\]"):
        unigrad.grad(g, x2, no_grad_vars=[v4], retain_graph=True)
    with pytest.raises(unigrad.UnsupportedFeatureError, match=r"inputs\[1\]"):
        unigrad.backward([(g * g).sum()], inputs=[x2, v4], retain_graph=True)
    # with respect to the leaf it is well defined: d(sum(g.T))/dx2 = -2
    backend.close(unigrad.grad(g.T.sum(), x2)[0], [[-2.0, -2.0]])


def test_a_create_graph_result_another_result_runs_through(backend) -> None:
    # the torch-only long run (seed 1010, 7 programs): g = grad(y, [v, x]) with
    # v = tanh(x); torch and paddle compute g[1] = g[0] * (1 - v**2), through g[0], the
    # tape and the reference around it: grad(cos(g[1]), x, no_grad_vars=[g[0]]) gave
    # [-0.741, -2.111, -0.121] on torch and paddle, [-0.094, -1.065, 1.772] on the tape.
    # Refused everywhere, as a cut and as an input.
    xp = backend.xp
    x = backend.leaf([-0.93, -1.15, -0.25], "float64")
    v = xp.tanh(x)
    g = unigrad.grad(
        v * v * v,
        [v, x],
        backend.tensor([1.0, 2.0, 3.0], "float64"),
        retain_graph=True,
        create_graph=True,
    )
    with pytest.raises(unigrad.UnsupportedFeatureError, match=r"no_grad_vars\[0\] is a result"):
        unigrad.grad(xp.cos(g[1]), x, no_grad_vars=[g[0]], retain_graph=True)
    with pytest.raises(unigrad.UnsupportedFeatureError, match=r"inputs\[1\] is a result"):
        unigrad.grad(xp.cos(g[1]), [x, g[0]], retain_graph=True)
    # the other way round is well defined (g[0] = 3 v**2 s does not run through g[1])
    (h,) = unigrad.grad(xp.cos(g[0]), x, no_grad_vars=[g[1]], retain_graph=True)
    t, s = np.tanh([-0.93, -1.15, -0.25]), np.array([1.0, 2.0, 3.0])
    backend.close(h, -np.sin(3 * t * t * s) * 6 * t * s * (1 - t * t))
    # results for inputs that do not depend on each other answer: g_w = 2wb, g_b = w**2,
    # d(g_w * g_b)/dw with g_b cut is g_b * 2b = 1
    w, b = backend.leaf([0.5], "float64"), backend.leaf([2.0], "float64")
    gw, gb = unigrad.grad((w * w * b).sum(), [w, b], create_graph=True)
    backend.close(unigrad.grad((gw * gb).sum(), w, no_grad_vars=[gb])[0], [1.0])


@pytest.mark.needs("backward_create_graph")
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")
def test_an_intermediate_behind_a_create_graph_backward(backend) -> None:
    # backward(create_graph=True) without inputs= records its .grad results as
    # grad(create_graph=True) does: torch gave d(sum(g.T**2))/dv4 = [[2.4], [-5.6]]
    # (through its saved tensors), the tapes UnusedInputError
    xp = backend.xp
    for inputs in (None, "x2"):
        x2 = backend.leaf([[0.3, -0.7]], "float64")
        v4 = x2.T
        unigrad.backward(
            [xp.sum(0.5 - v4 * v4)], create_graph=True, inputs=None if inputs is None else [x2]
        )
        g = backend.grad_of(x2)
        backend.close(g, [[-0.6, 1.4]])
        with pytest.raises(unigrad.UnsupportedFeatureError, match=r"inputs\[0\] is an interm"):
            unigrad.grad([xp.sum(g.T * g.T)], v4, retain_graph=True)
        # with respect to the leaf it is well defined: d(sum(g**2))/dx2 = 8 x2
        backend.close(unigrad.grad(xp.sum(g * g), x2)[0], [[2.4, -5.6]])


def test_an_intermediate_through_two_create_graph_grads(backend) -> None:
    # the second grad's result reaches the first's through its outputs: still refused
    x = backend.leaf([0.4, -0.2], "float64")
    xp = backend.xp
    v = xp.sin(x)
    (g1,) = unigrad.grad((v * v).sum(), x, create_graph=True)
    w = backend.leaf([1.5, 0.5], "float64")
    (g2,) = unigrad.grad((g1 * w).sum(), w, create_graph=True)  # = g1, through w's pass
    with pytest.raises(unigrad.UnsupportedFeatureError):
        unigrad.grad(g2.sum(), v, retain_graph=True)


def test_an_intermediate_off_the_path_of_a_create_graph_grad_answers(backend) -> None:
    # v does not depend on the earlier grad's input x: g = d(v*x)/dx = v is a function
    # of v on every backend, dg/dv = 1
    a, x = backend.leaf([0.5, -1.0], "float64"), backend.leaf([2.0, 3.0], "float64")
    v = backend.xp.exp(a)
    (g,) = unigrad.grad((v * x).sum(), x, create_graph=True)
    backend.close(unigrad.grad(g.sum(), v, retain_graph=True)[0], [1.0, 1.0])
    # upstream of the earlier grad's input too: h = 3v, y = h**3, g = 3h**2, dg/dv = 18h
    h = v * 3.0
    (g,) = unigrad.grad((h * h * h).sum(), h, create_graph=True)
    hv = 3 * np.exp([0.5, -1.0])
    backend.close(unigrad.grad(g.sum(), v)[0], 18 * hv)


def test_an_intermediate_behind_a_create_graph_grad_reached_only_through_a_cut_answers(
    backend,
) -> None:
    # rule 16g reads "reach" as rule 14's dependence: the outputs reach the earlier
    # grad's result g only through round (a cut), so the derivative through g is zero
    # whichever way g is written and d(sum(round(g) * v))/dv = round(g) everywhere
    # (torch and paddle walked round's edge and refused; differential seed 777,
    # program 4274 before b400b9a)
    x = backend.leaf([0.6, -1.3], "float64")
    v = x * x * x  # between the earlier grad's input x and its output
    (g,) = unigrad.grad(backend.xp.sum(v), x, create_graph=True)
    r = backend.xp.round(g)  # 3 x**2 = [1.08, 5.07]
    (dv,) = unigrad.grad(backend.xp.sum(r * v), v, retain_graph=True)
    backend.close(dv, [1.0, 5.0])
    # reached through a differentiable path it stays ambiguous: refused everywhere
    with pytest.raises(unigrad.UnsupportedFeatureError):
        unigrad.grad(backend.xp.sum(g * v), v)


def test_an_intermediate_behind_a_dropped_create_graph_gradient(backend) -> None:
    # paddle keeps the record of a create_graph call as long as the result tensor: behind
    # a gradient graph whose result is gone it cannot tell, and refuses (never its own
    # formulas' answer); the other backends keep the record on the graph and answer
    a, x = backend.leaf([0.5, -1.0], "float64"), backend.leaf([2.0, 3.0], "float64")
    v = backend.xp.exp(a)
    gt = unigrad.grad((v * x).sum(), x, create_graph=True)[0] * 1.0  # g itself dropped
    if backend.name == "paddle":
        with pytest.raises(unigrad.UnsupportedFeatureError):
            unigrad.grad(gt.sum(), v, retain_graph=True)
    else:
        backend.close(unigrad.grad(gt.sum(), v, retain_graph=True)[0], [1.0, 1.0])
    # ambiguous either way: refused everywhere
    w = x * x
    gw = unigrad.grad((w * w).sum(), x, create_graph=True)[0] * 1.0
    with pytest.raises(unigrad.UnsupportedFeatureError):
        unigrad.grad(gw.sum(), w)


def test_a_hessian_with_respect_to_an_intermediate_answers(backend) -> None:
    # v is the earlier grad's own input: every saved tensor is a function of v
    a = backend.leaf([0.3, 1.1], "float64")
    xp = backend.xp
    h = xp.sin(a) * 3.0
    y = (h * h * h).sum() + (h / (h * h + 1.0)).sum()
    (g,) = unigrad.grad(y, h, create_graph=True)
    hv = 3 * np.sin([0.3, 1.1])
    backend.close(g, 3 * hv**2 + (1 - hv**2) / (1 + hv**2) ** 2, rtol=1e-10)
    (hh,) = unigrad.grad(g.sum(), h, retain_graph=True)
    backend.close(hh, 6 * hv + 2 * hv * (hv**2 - 3) / (1 + hv**2) ** 3, rtol=1e-10)
    # cut at the earlier grad's input: g as a function of what is upstream of h alone
    with pytest.raises(unigrad.UnusedInputError):
        unigrad.grad(g.sum(), a, no_grad_vars=[h])


# ---- raw framework errors where other backends answer ---------------------------------------
def test_boolean_mask_index(backend) -> None:
    x = backend.leaf([[1.0, 2.0], [3.0, 4.0]], "float64")
    m = backend.tensor([[True, False], [True, True]], "bool")
    (g,) = unigrad.grad(x[m] * x[m], x)
    backend.close(g, [[2.0, 0.0], [6.0, 8.0]])


def test_a_plain_array_indexed_by_a_tracked_mask(backend) -> None:
    # a mask or an argmax computed from a tensor that requires grad is a constant (rule
    # 14). A plain array indexed by one: torch, paddle and numpy read the index's value (a
    # plain result); jax's indexing takes only its own arrays, NumPy's and lists, and
    # raised a bare IndexError: now UnsupportedFeatureError naming the two ways that work
    # everywhere, the namespace's array indexed by the mask, or the index's value
    xp = backend.xp
    t = backend.leaf([0.5, -1.0, 2.0], "float64")
    plain = backend.tensor([1.0, 2.0, 3.0], "float64")
    m, i = t > 0, xp.argmax(t)
    got = xp.asarray(plain)[m]
    backend.close(got, [1.0, 3.0])
    assert not backend.requires_grad(got)
    if backend.name == "jax":
        backend.close(plain[m.value], [1.0, 3.0])
        for index in (m, i, (m,)):
            with pytest.raises(unigrad.UnsupportedFeatureError, match=r"xp\.asarray"):
                plain[index]
    elif backend.name != "tensorflow":  # (a plain tf.Tensor takes no mask at all)
        backend.close(plain[m], [1.0, 3.0])
        backend.close(plain[i], 3.0)
        assert not backend.requires_grad(plain[m])
    (g,) = unigrad.grad(xp.sum(t[m] ** 2), t)  # the mask still indexes its own source
    backend.close(g, [1.0, 0.0, 4.0])


def test_where_over_broadcast_operands_with_batched_seeds(backend) -> None:
    a = backend.leaf(0.89, "float64")
    b = backend.leaf([-1.16, 1.43, -0.53], "float64")
    xp = backend.xp
    y = xp.where(a > b, a, b)
    seeds = backend.tensor([[-1.09, -0.86, -0.4], [1.49, 0.29, 0.77]], "float64")
    ga, gb = unigrad.grad([y], [a, b], [seeds], is_grads_batched=True)
    backend.close(ga, [-1.49, 2.26])
    backend.close(gb, [[0.0, -0.86, 0.0], [0.0, 0.29, 0.0]])


def test_a_reshaped_intermediate_beside_its_source(backend) -> None:
    # paddle 3.3 gave the reshaped input its source's gradient (the long differential
    # run, seed 11): view-made inputs get a pass of their own there
    x = backend.leaf([[0.5, -1.0], [2.0, 0.25]], "float64")
    xp = backend.xp
    v = xp.reshape(xp.exp(x), (4,))
    gx, gv = unigrad.grad(xp.sum(v * 3.0), [x, v])
    backend.close(gv, [3.0, 3.0, 3.0, 3.0])
    backend.close(gx, 3.0 * np.exp([[0.5, -1.0], [2.0, 0.25]]))


def test_an_output_that_is_an_input_made_by_a_view(backend) -> None:
    # differential seed 11, program 1606: the seed of an output that is also an input
    x = backend.leaf([[3.0, 4.0], [1.0, 0.0], [0.6, 0.8]], "float64")
    v = backend.xp.linalg.vector_norm(x, axis=1, keepdims=True)
    gv, gx = unigrad.grad([v], [v, x], materialize_grads=True)
    backend.close(gv, [[1.0], [1.0], [1.0]])
    backend.close(gx, [[0.6, 0.8], [1.0, 0.0], [0.6, 0.8]])


def test_second_derivative_of_the_2_norm_at_a_zero_element(backend) -> None:
    # d2|x|/dx0 dx at x = (0, 3) is (1/3, 0): the norm is smooth there. numpy and
    # paddle built it from abs(x), whose derivative is zero at 0, and gave (0, 0).
    x = backend.leaf([0.0, 3.0], "float64")
    (g,) = unigrad.grad(backend.xp.linalg.vector_norm(x), x, create_graph=True)
    backend.close(g, [0.0, 1.0])
    (h,) = unigrad.grad(g[0], x, materialize_grads=True)
    backend.close(h, [1.0 / 3.0, 0.0])


def test_the_same_element_indexed_twice(backend) -> None:
    x = backend.leaf([1.0, 2.0, 3.0], "float64")
    (g,) = unigrad.grad([x[0], x[0]], x)
    backend.close(g, [2.0, 0.0, 0.0])


def test_diagonal(backend) -> None:
    x = backend.leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float64")
    (g,) = unigrad.grad(x.diagonal(), x)
    backend.close(g, [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def test_backward_into_a_non_leaf(backend) -> None:
    x = backend.leaf([1.0, 2.0], "float64")
    h = x * 2.0
    unigrad.backward((h * h).sum(), inputs=[h])
    backend.close(backend.grad_of(h), [4.0, 8.0])
    assert backend.grad_of(x) is None


def test_an_output_that_is_also_an_input_passes_gradients_on(backend) -> None:
    x = backend.leaf([0.28], "float64")
    v = -x
    gv, gx = unigrad.grad([v], [v, x])
    backend.close(gv, [1.0])
    backend.close(gx, [-1.0])


def test_to_numpy_of_a_batched_second_order_abs_gradient(backend) -> None:
    # torch returned a lazily-zero tensor (ZeroTensor) here, which .numpy() refuses;
    # under rule 14 x is unused by g = sign(x) * w, and its zeros are materialized
    x = backend.leaf([1.0, -2.0], "float64")
    w = backend.leaf([3.0, 0.5], "float64")
    (g,) = unigrad.grad(backend.xp.abs(x) * w, x, create_graph=True)
    h, hw = unigrad.grad(
        g, [x, w], backend.eye(2, "float64"), is_grads_batched=True, materialize_grads=True
    )
    assert unigrad.to_numpy(h).tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert unigrad.to_numpy(hw).tolist() == [[1.0, 0.0], [0.0, -1.0]]


def test_to_numpy_is_a_copy(backend) -> None:
    x = backend.leaf([1.0, 2.0])
    unigrad.backward(x * x, retain_graph=True)
    first = unigrad.to_numpy(backend.grad_of(x))
    unigrad.backward(x * x)
    assert first.tolist() == [2.0, 4.0]


def test_backward_with_empty_inputs_is_a_runtime_error(backend) -> None:
    x = backend.leaf([1.0])
    with pytest.raises(RuntimeError):
        unigrad.backward(x * x, inputs=[])
    with pytest.raises(unigrad.GradArgumentError):
        unigrad.grad(x * x, [])


# ---- paddle's own tests, through unigrad -------------------------------------------------------
def test_paddle_double_grad_matmul_value_error(backend) -> None:
    # PaddlePaddle/Paddle test/legacy_test/test_imperative_double_grad.py,
    # TestDygraphDoubleGradMatmul.test_value_error: the second derivative of a linear
    # layer with respect to its input is unused (paddle raises ValueError)
    rng = np.random.default_rng(0)
    w = backend.leaf(rng.normal(size=(3, 4)))
    b = backend.leaf(rng.normal(size=(4,)))
    x = backend.leaf(rng.normal(size=(4, 1)))
    y = backend.leaf(rng.normal(size=(4, 1)))
    z = backend.leaf(rng.normal(size=(4, 1)))
    xp = backend.xp
    out = xp.concat((x, y, z), axis=1) @ w + b
    v = out[:, 1:2]
    dz = unigrad.grad(v, x, create_graph=True)[0]
    with pytest.raises(ValueError):
        unigrad.grad(dz, x, create_graph=True)


@pytest.mark.parametrize("backward", ["Tensor.backward", "unigrad.backward"])
def test_paddle_gradient_accumulation_and_no_grad_vars_as_upstream_writes_it(backward) -> None:
    # PaddlePaddle/Paddle test/legacy_test/test_imperative_double_grad.py,
    # TestDygraphDoubleGrad.test_example_with_gradient_accumulation_and_no_grad_vars, as
    # upstream writes it (paddle.nn.functional.relu twice; the grad call through unigrad;
    # then upstream's loss.backward(), or unigrad's). unigrad's zeroed cut made paddle
    # 3.3's ReluDoubleGradNode raise "The current MetaTensor is not initialized" there.
    paddle = pytest.importorskip("paddle")
    functional = paddle.nn.functional
    rng = np.random.default_rng(2021)
    x_np = rng.uniform(-1, 1, size=(5, 10)).astype("float32")
    numel = x_np.size
    x = paddle.to_tensor(x_np)
    x.stop_gradient = False
    y1 = functional.relu(x)
    y2 = functional.relu(x)
    z = y1 + y2
    w = z * z
    w_mean = paddle.mean(w)
    del y1, z, w
    (dx_actual,) = unigrad.grad(
        [w_mean], [x], retain_graph=True, create_graph=True, no_grad_vars=[y2]
    )
    assert not y2.stop_gradient
    assert not dx_actual.stop_gradient
    dx_expected = (1.0 / numel * (np.maximum(x_np, 0) + y2.numpy()) * (x_np > 0) * 2).astype(
        "float32"
    )
    np.testing.assert_allclose(dx_actual.numpy(), dx_expected, rtol=1e-05)
    loss = paddle.mean(dx_actual * dx_actual + x * x)
    if backward == "Tensor.backward":
        loss.backward()
    else:
        unigrad.backward(loss)
    # upstream expects "* 2 / numel" (y2, cut in the first call, a constant of dx's
    # graph); unigrad's contract (structure follows differentiable dependence: y2 is a
    # tensor that requires grad, row 14) and paddle.grad itself here give "* 4 / numel"
    x_grad_expected = 2.0 / numel * (x_np + dx_expected * (x_np > 0) * 4 / numel)
    # (x.gradient(), which upstream reads, is removed in paddle 3.3: x.grad)
    np.testing.assert_allclose(x.grad.numpy(), x_grad_expected, rtol=1e-05)


def test_paddle_gradient_accumulation_and_no_grad_vars(backend) -> None:
    # PaddlePaddle/Paddle test/legacy_test/test_imperative_double_grad.py,
    # TestDygraphDoubleGrad.test_example_with_gradient_accumulation_and_no_grad_vars,
    # portable: relu written as maximum(x, 0) (the namespace has no relu), paddle's
    # x.gradient() as .grad; paddle's own spelling is the test above
    rng = np.random.default_rng(2021)
    x_np = rng.uniform(-1, 1, size=(5, 10)).astype("float32")
    numel = x_np.size
    x = backend.leaf(x_np)
    xp = backend.xp
    zero = backend.tensor(0.0)
    y1 = xp.maximum(x, zero)
    y2 = xp.maximum(x, zero)
    z = y1 + y2
    w = z * z
    w_mean = xp.mean(w)
    del y1, z, w
    (dx_actual,) = unigrad.grad([w_mean], [x], create_graph=True, no_grad_vars=[y2])
    assert backend.requires_grad(y2)
    assert backend.requires_grad(dx_actual)
    y2_np = np.maximum(x_np, 0)
    dx_expected = (1.0 / numel * (np.maximum(x_np, 0) + y2_np) * (x_np > 0) * 2).astype("float32")
    backend.close(dx_actual, dx_expected, rtol=1e-5)
    loss = xp.mean(dx_actual * dx_actual + x * x)
    unigrad.backward(loss)
    # paddle's own test expects d(dx)/dx through y1 only (it treats y2, cut in the first
    # call, as a constant of dx's graph): "* 2 / numel". unigrad's contract (structure
    # follows torch) keeps y2 a tensor that requires grad, so dx depends on x through
    # both relus: "* 4 / numel", identically on every backend.
    x_grad_expected = 2.0 / numel * (x_np + dx_expected * (x_np > 0) * 4 / numel)
    backend.close(backend.grad_of(x), x_grad_expected, rtol=1e-5)


# ---- what used to be left unspecified ---------------------------------------------------------
def test_a_cut_on_one_output_of_a_multi_output_op(backend) -> None:
    x = backend.leaf([[1.0, 2.0], [3.0, 4.0]])
    a, b = backend.xp.unstack(x)
    (g,) = unigrad.grad([a, b], x, no_grad_vars=[a])
    backend.close(g, [[0.0, 0.0], [1.0, 1.0]])


def test_leaf_hooks_fire_inside_grad_as_the_capability_says(backend) -> None:
    x = backend.leaf([1.0])
    fired: list[int] = []
    if backend.caps.leaf_hooks_in_grad:
        x.register_hook(lambda g: fired.append(1))
        unigrad.grad(x * x, x)
        assert fired == [1]
    elif hasattr(x, "register_hook"):  # paddle: hooks on leaves run in backward only
        x.register_hook(lambda g: fired.append(1))
        unigrad.grad(x * x, x)
        assert fired == []
        unigrad.backward(x * x)
        assert fired == [1]
    else:  # tape tensors have no hooks
        assert not backend.caps.leaf_hooks_in_grad


def test_the_gradient_of_a_tensor_by_itself_is_its_seed(backend) -> None:
    x = backend.leaf([1.0, 2.0])
    seed = backend.tensor([3.0, -4.0])
    (g,) = unigrad.grad(x, x, seed)
    backend.close(g, [3.0, -4.0])


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")
def test_backward_create_graph_is_differentiable_or_refused(backend) -> None:
    x = backend.leaf([1.0, 2.0])
    if not backend.caps.backward_create_graph:
        with pytest.raises(unigrad.UnsupportedFeatureError, match="create_graph"):
            unigrad.backward(x * x * x, create_graph=True, inputs=[x])
        return
    unigrad.backward((x * x * x).sum(), create_graph=True, inputs=[x])
    g = backend.grad_of(x)
    backend.close(g, [3.0, 12.0])
    assert backend.requires_grad(g)
    (h,) = unigrad.grad(g.sum(), x)
    backend.close(h, [6.0, 12.0])


def test_backward_into_an_output_after_a_consuming_pass(backend) -> None:
    x = backend.leaf(-1.44, "float64")
    v = backend.xp.mean(x, axis=None)
    w = v * 0.5
    unigrad.backward([w], retain_graph=False)
    # w is its own input: nothing consumed runs (torch's engine would run w's node)
    unigrad.backward([v, w], inputs=[w])
    backend.close(backend.grad_of(w), 1.0)


def test_a_real_input_of_complex_ops_gets_a_real_gradient(backend) -> None:
    z = backend.leaf([0.5 + 1.0j, -1.0 + 0.5j], "complex64")
    r = backend.xp.sum(backend.xp.abs(z))  # real
    y = r * z  # complex again
    (g,) = unigrad.grad(y, r, backend.tensor([1.0 + 2.0j, 0.5 - 1.0j], "complex64"))
    assert backend.dtype(g) == "float32"
    want = np.real(np.conj([1.0 + 2.0j, 0.5 - 1.0j]) @ np.array([0.5 + 1.0j, -1.0 + 0.5j]))
    backend.close(g, want, rtol=1e-5)


def test_a_cut_input_is_unused_even_after_a_consuming_pass(backend) -> None:
    x = backend.leaf([0.2, -0.35], "float64")
    v = x + -1.5
    unigrad.grad([v], [v, x])  # consumes the graph between v and x
    # x itself is cut: the pass never runs toward it, so nothing consumed is touched
    with pytest.raises(unigrad.UnusedInputError):
        unigrad.grad([v], [x], no_grad_vars=[x])


def test_a_full_slice_and_its_source_as_two_inputs(backend) -> None:
    # paddle's autograd identifies x[0:2] with x: refused on every backend
    x = backend.leaf([[1.47, 0.87], [-0.67, -0.95]])
    top, whole = x[0:1], x[0:2]
    with pytest.raises(unigrad.UnsupportedFeatureError, match=r"inputs\[1\] is a full-range"):
        unigrad.grad([top], [x, whole], allow_unused=True)
    (gx,) = unigrad.grad([top], [x])
    backend.close(gx, [[1.0, 1.0], [0.0, 0.0]])


def test_a_full_slice_as_an_input_or_a_cut_is_refused(backend) -> None:
    # differential seed 7, program 134 (shrunk): paddle identifies v[0:2] with v, so it
    # gave the slice v's gradient (every use of v counted), torch and the tape the
    # slice's own ([2, -6]): refused as an input or a cut on every backend
    x = backend.leaf([0.5, -1.5], "float64")
    v = x * 2.0
    s = v[0:2]
    y = backend.xp.sum(s * s) + backend.xp.sum(v * 3.0)
    with pytest.raises(unigrad.UnsupportedFeatureError, match=r"inputs\[0\] is a full-range"):
        unigrad.grad(y, s, retain_graph=True)
    with pytest.raises(unigrad.UnsupportedFeatureError, match=r"no_grad_vars\[0\] is a full"):
        unigrad.grad(y, x, no_grad_vars=[s], retain_graph=True)
    with pytest.raises(unigrad.UnsupportedFeatureError, match=r"inputs\[1\] is a full-range"):
        unigrad.backward([y], inputs=[x, s], retain_graph=True)
    (g,) = unigrad.grad(y, x, retain_graph=True)  # the source itself is fine
    backend.close(g, [2.0 * 2.0 * 1.0 + 6.0, 2.0 * 2.0 * -3.0 + 6.0])
    # a full slice of a constant has no gradient to get wrong: unused, as any constant
    c = backend.tensor([1.0, 2.0], "float64")
    with pytest.raises(unigrad.UnusedInputError):
        unigrad.grad(y, [x, c[0:2]], retain_graph=True)
    assert unigrad.grad(y, [x, c[0:2]], allow_unused=True)[1] is None


#: (index, whether paddle 3.3 returns an alias of a 2 x 3 source: measured)
_FULL_KEYS = [
    ((slice(None),), True),
    ((slice(0, 2),), True),
    ((Ellipsis,), True),
    ((), True),
    ((slice(None), slice(None)), True),
    ((slice(0, 2), Ellipsis), True),
    ((Ellipsis, slice(None)), True),
    ((slice(-2, None),), True),
    ((slice(0, 100),), True),
    ((slice(-100, 100),), True),
    ((slice(None, None, 1),), True),
    ((slice(None), slice(-3, 3)), True),
    ((slice(0, 2), slice(0, 3)), True),
    ((slice(1, None),), False),
    ((slice(0, 1),), False),
    ((slice(None, None, -1),), False),
    ((slice(None), slice(None, None, 2)), False),
    ((slice(None), slice(1, None)), False),
    ((slice(1, None), slice(0, 3)), False),
    ((None,), False),
    ((slice(None), None), False),
    ((0,), False),
]


@pytest.mark.parametrize(("key", "full"), _FULL_KEYS, ids=[str(k) for k, _ in _FULL_KEYS])
def test_the_full_range_slices_are_paddle_s_aliases(backend, key, full) -> None:
    # the indexings paddle 3.3 aliases (measured: an over-long stop, negative bounds,
    # several dimensions, `...`, `()`), and only those, are refused, on every backend
    if backend.name == "torch" and any(getattr(k, "step", None) == -1 for k in key):
        pytest.skip("torch has no negative steps")
    x = backend.leaf(np.arange(6.0).reshape(2, 3) / 7.0, "float64")
    for src in (x, x * 1.0):
        v = src[key]
        y = backend.xp.sum(v * v)
        if full:
            with pytest.raises(unigrad.UnsupportedFeatureError, match="full-range slice"):
                unigrad.grad(y, v, retain_graph=True)
            continue
        (g,) = unigrad.grad(y, v, retain_graph=True)
        backend.close(g, 2.0 * backend.np(v))
    # a one-element dimension: x[0:1] selects all of it
    one = backend.leaf([[0.25, 0.5]], "float64") * 1.0
    with pytest.raises(unigrad.UnsupportedFeatureError, match="full-range slice"):
        unigrad.grad(backend.xp.sum(one[0:1]), one[0:1])


@pytest.mark.thin_on("jax", "key", len(_FULL_KEYS))  # 9 passes each: --long runs all
@pytest.mark.parametrize(("key", "full"), _FULL_KEYS, ids=[str(k) for k, _ in _FULL_KEYS])
def test_no_pass_consumes_a_full_slice(backend, key, full) -> None:
    # differential seed 28, program 1002: after grad(v, x, retain_graph=False) with
    # v = x[0:2], a second grad(v, x) raised GraphFreedError on torch and the tapes (v's
    # slice node was consumed) and answered on paddle, where v is x to the autograd (no
    # node to consume). No pass consumes a full-range slice (rule 6): paddle has nothing
    # to consume and torch's node for it saves nothing. Any other slice is consumed, and
    # so is the source's own node.
    if backend.name == "torch" and any(getattr(k, "step", None) == -1 for k in key):
        pytest.skip("torch has no negative steps")
    xp = backend.xp
    uses = {  # the slice as an output (paddle: a copy of the alias), read by ops
        "itself": (lambda v: v, 1.0),
        "sum": (lambda v: xp.sum(v), 1.0),
        "times 3": (lambda v: xp.sum(v * 3.0), 3.0),
    }
    for first, _ in uses.values():
        for second, factor in uses.values():
            x = backend.leaf(np.arange(6.0).reshape(2, 3) / 7.0, "float64")
            for src in (x, x * 2.0):
                v = src[key]
                out = first(v)
                unigrad.grad(out, x, grad_outputs=xp.ones_like(out), retain_graph=False)
                again = second(v)
                seed = xp.ones_like(again)
                if not full or src is not x:  # the slice's node, or the source's, was consumed
                    with pytest.raises(unigrad.GraphFreedError):
                        unigrad.grad(again, x, grad_outputs=seed)
                    continue
                (g,) = unigrad.grad(again, x, grad_outputs=seed)
                backend.close(g, np.full((2, 3), factor))


def test_a_full_slice_of_an_input_as_an_output(backend) -> None:
    # differential seed 11: paddle saw the output x[0:2] as the input x itself, stopped
    # there and gave x no gradient
    x = backend.leaf([[-0.9, -0.43], [-1.12, 0.58]])
    c = backend.leaf(1.11)
    unigrad.backward([c * 2.0, x[0:2]], inputs=[x, c])
    backend.close(backend.grad_of(x), [[1.0, 1.0], [1.0, 1.0]])
    backend.close(backend.grad_of(c), 2.0)
    gx, gc = unigrad.grad([x[0:2] * 3.0, x[0:2]], [x, c], allow_unused=True)
    backend.close(gx, [[4.0, 4.0], [4.0, 4.0]])
    assert gc is None


def test_a_full_slice_and_its_source_as_two_backward_outputs(backend) -> None:
    # differential seed 11: paddle's backward counted x and x[0:n] once
    x = backend.leaf([-0.53], "float64")
    v = x * 3.0
    unigrad.backward([v[0:1], v], [backend.tensor([-1.32], "float64"), None])
    backend.close(backend.grad_of(x), [3.0 * (-1.32 + 1.0)])


def test_a_reshape_to_its_own_shape_is_a_tensor_of_its_own(backend) -> None:
    # paddle.reshape returns x itself for x's own shape: the namespace's reshape made a
    # gradient with respect to the result count every use of x (a wrong number)
    x = backend.leaf([1.0, 2.0, 3.0], "float64")
    v = x * 2.0
    r = backend.xp.reshape(v, (3,))
    y = backend.xp.sum(r * r) + backend.xp.sum(v)
    gr, gv, gx = unigrad.grad(y, [r, v, x])
    backend.close(gr, [4.0, 8.0, 12.0])
    backend.close(gv, [5.0, 9.0, 13.0])
    backend.close(gx, [10.0, 18.0, 26.0])


def test_unary_plus_is_a_tensor_of_its_own(backend) -> None:
    # torch's and paddle's ``+t`` return ``t`` itself: a gradient with respect to ``+v``
    # counted every use of ``v`` (a wrong number), and a pass that consumed ``+x``'s node
    # consumed nothing, so a later pass through it answered where GraphFreedError is
    # the contract's (differential seed 9920, program 968)
    x = backend.leaf([1.0, 2.0, 3.0], "float64")
    xp = backend.xp
    v = x * 2.0
    p = +v
    y = xp.sum(p * p) + xp.sum(v)
    gp, gv, gx = unigrad.grad(y, [p, v, x], retain_graph=True)
    backend.close(gp, [4.0, 8.0, 12.0], rtol=0, atol=0)
    backend.close(gv, [5.0, 9.0, 13.0], rtol=0, atol=0)
    backend.close(gx, [10.0, 18.0, 26.0], rtol=0, atol=0)
    q = +x
    unigrad.grad(xp.sum(xp.sin(q)), x)  # consumes sin's node and q's
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.grad(xp.sum(q * 3.0), x)


@pytest.mark.parametrize("make", ["broadcast_to", "broadcast_arrays"])
def test_a_0d_broadcast_to_its_own_shape_is_a_tensor_of_its_own(backend, make) -> None:
    # paddle's broadcast_to returns a 0-d x itself for the shape (): a gradient with
    # respect to the result counted every use of x (differential seed 2026, program 21340)
    xp = backend.xp
    x = backend.leaf(0.99, "float64")
    v = -x
    b = xp.broadcast_to(v, ()) if make == "broadcast_to" else xp.broadcast_arrays(v, x)[0]
    y = xp.broadcast_to(v, (2,))
    seed = backend.tensor([0.59, -1.36], "float64")
    gb, gx = unigrad.grad(y, [b, x], grad_outputs=seed, allow_unused=True)
    assert gb is None
    backend.close(gx, 0.77, rtol=1e-12, atol=0)
    gb, gv = unigrad.grad(b * 3.0 + v, [b, v])
    backend.close(gb, 3.0, rtol=1e-12, atol=0)
    backend.close(gv, 4.0, rtol=1e-12, atol=0)


def test_a_full_slice_and_its_source_as_two_outputs(backend) -> None:
    x = backend.leaf([-0.53], "float64")
    v = x * 3.0
    whole = v[0:1]  # paddle: the same tensor as v to its autograd (merged here)
    (g,) = unigrad.grad([whole, v], [x], [backend.tensor([-1.32], "float64"), None])
    backend.close(g, [3.0 * (-1.32 + 1.0)])


def test_a_call_with_no_input_that_requires_grad_runs_no_backend_check(backend) -> None:
    # differential seed 8, program 73 (shrunk): the reference refused the full-slice cut,
    # every backend said unused; no pass runs, so only the front's checks apply (rule 16)
    x = backend.leaf([[1.15, -1.49], [-0.67, 0.8]], "float64")
    c = backend.tensor(-0.99, "float64")
    whole = x[0:2]  # a full-range slice: refused as a cut whenever a pass runs
    y = backend.xp.tanh(whole)
    with pytest.raises(unigrad.UnusedInputError):
        unigrad.grad([y, whole], [c], no_grad_vars=[whole])
    assert unigrad.grad([y], [c], allow_unused=True, no_grad_vars=[whole]) == (None,)
    with pytest.raises(unigrad.UnsupportedFeatureError, match=r"no_grad_vars\[0\]"):
        unigrad.grad([y], [x, c], allow_unused=True, no_grad_vars=[whole])


def test_a_consumed_node_beyond_a_cut_still_raises(backend) -> None:
    # differential (shrunk): a cut output's consumed node, on the way to an input
    x1, x3 = backend.leaf([[-0.73, -0.36]], "float64"), backend.leaf([[0.81, -0.84]], "float64")
    xp = backend.xp
    v4 = x1 * x3
    v5 = xp.maximum(x3, x1)
    unigrad.grad([v5], [x3])  # consumes maximum's node
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.grad([v4, v5], [x3], retain_graph=False, no_grad_vars=[v5])
    (g,) = unigrad.grad([v4], [x3], no_grad_vars=[v5])  # v5 not an output: answers
    backend.close(g, [[-0.73, -0.36]])


def test_an_output_that_is_the_only_input_adds_its_seed(backend) -> None:
    x = backend.leaf([[0.4, 0.88], [-0.75, 0.41]], "float64")
    v = x * 0.5
    w = backend.xp.minimum(v, x)  # v where x > 0, else x
    (g,) = unigrad.grad([w, v], [v])
    backend.close(g, [[2.0, 2.0], [1.0, 2.0]])


def test_complex_exp_and_the_ops_built_on_it_at_float64_precision(backend) -> None:
    # paddle's complex128 exp kernel is accurate to about 3e-8 (a single-precision step
    # inside); the namespace computes exp(a) * cis(b) with real kernels: values and the
    # gradient (seed * conj(exp(z))) at float64 precision on every backend
    z = np.array([0.3 + 1.2j, -1.1 + 2.9j, 2.5 - 0.7j, -2.8 - 2.2j])
    s = np.array([1.0 - 0.5j, 0.25 + 2.0j, -1.5 + 0.0j, 0.7 + 0.3j])
    xp = backend.xp
    x = backend.leaf(z, "complex128")
    y = xp.exp(x)
    backend.close(y, np.exp(z), rtol=1e-14, atol=0)
    (g,) = unigrad.grad(y, x, backend.tensor(s, "complex128"))
    backend.close(g, s * np.conj(np.exp(z)), rtol=1e-14, atol=0)
    for name, ref in (("expm1", np.expm1), ("sinh", np.sinh), ("cosh", np.cosh)):
        backend.close(getattr(xp, name)(x), ref(z), rtol=1e-14, atol=0)
    backend.close(x**x, z**z, rtol=1e-14, atol=0)
    backend.close(xp.exp(backend.leaf(z, "complex64")), np.exp(z), rtol=1e-6, atol=0)


def test_a_cut_branch_freed_by_an_earlier_backward(backend) -> None:
    # torch's and paddle's engines run b's node toward x although b is cut (gradients
    # dropped), and backward(retain_graph=False) freed its saved tensors: no_grad_vars
    # never excuse a consumed graph, on every backend (rule 15)
    xp = backend.xp
    x, z = backend.leaf([0.3, -0.8], "float64"), backend.leaf([0.5, 0.1], "float64")
    a, b = xp.sin(x), xp.exp(x) * x
    unigrad.backward([xp.sum(b)], retain_graph=False)
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.grad(xp.sum(a + b), x, no_grad_vars=[b])
    # a consumed cut branch that leads to no input is not the pass's: it answers
    c = xp.exp(z) * z
    unigrad.backward([xp.sum(c)], retain_graph=False)
    (g,) = unigrad.grad(xp.sum(a + c), x, no_grad_vars=[c])
    backend.close(g, np.cos([0.3, -0.8]))


def test_a_real_loss_over_a_complex_gradient_graph(backend) -> None:
    # differential seed 15 (a complex output), then a real one: paddle's backward() does
    # not know its leaves before the pass, and paddle's complex second derivatives are
    # wrong (no conjugation): a wrong number, now HigherOrderUnavailableError there
    xp = backend.xp
    a, b = -0.53 + 1.03j, np.array([-0.69 - 0.72j, 1.3 - 0.4j])
    s = np.array([0.5 - 0.3j, 1.0 + 1.0j])
    x1, x2 = backend.leaf(a, "complex128"), backend.leaf(b, "complex128")
    (g,) = unigrad.grad([x1 * x2], [x2], [backend.tensor(s, "complex128")], create_graph=True)
    backend.close(g, s * np.conj(a), rtol=1e-12)  # the first derivative is right everywhere
    for loss in (xp.sum(xp.real(xp.cos(g))), xp.cos(g)):
        seed = None if loss.ndim == 0 else xp.ones_like(loss)
        if backend.name == "paddle":
            with pytest.raises(unigrad.HigherOrderUnavailableError):
                unigrad.backward(loss, seed, retain_graph=True)
            continue
        unigrad.backward(loss, seed, retain_graph=True)
    if backend.name != "paddle":
        # both losses are sum(Re cos(s * conj(x1))) (a ones seed): torch's gradient of a
        # real L is dL/dRe + i dL/dIm, here sum(-sin(s u) s) at u = conj(x1), twice
        want = 2 * np.sum(-np.sin(s * np.conj(a)) * s)
        backend.close(backend.grad_of(x1), want, rtol=1e-9)


@pytest.mark.parametrize(
    ("name", "slope"),
    [
        ("exp", 1.0),
        ("expm1", 1.0),
        ("log1p", 1.0),
        ("sinh", 1.0),
        ("cosh", 0.0),
        ("tanh", 1.0),
        ("asinh", 1.0),
        ("atanh", 1.0),
        ("acos", -1.0),
    ],
)
def test_a_complex_function_at_an_exact_zero_has_its_derivative(backend, name, slope) -> None:
    # differential seed 25 (shrunk): the namespaces pin the standard's value at 0j (the
    # sign of its zeros), and the pinning gave the gradient 0 there: a wrong number
    z = np.array([-0.48 + 0.71j, 1.15 + 0.2j])
    x = backend.leaf(z, "complex128")
    v = x - x  # exactly 0j
    s = np.array([1.0 + 1.0j, 0.5 - 2.0j])
    y = getattr(backend.xp, name)(v)
    backend.close(
        y,
        getattr(np, {"asinh": "arcsinh", "atanh": "arctanh", "acos": "arccos"}.get(name, name))(
            np.zeros(2, complex)
        ),
        rtol=0,
        atol=1e-15,
    )
    gv, gx = unigrad.grad([y], [v, x], [backend.tensor(s, "complex128")])
    backend.close(gv, s * slope, rtol=1e-12, atol=1e-15)  # seed * conj(f'(0))
    backend.close(gx, np.zeros(2), atol=1e-15)
    # with create_graph (differential seed 34: a raw TypeError on the numpy tape, the
    # pin's finiteness mask taken on autograd's boxes)
    w = x - x
    y = getattr(backend.xp, name)(w * w)
    seed = backend.tensor(s, "complex128")
    if backend.name == "paddle" and name not in ("tanh", "acos"):
        # paddle cannot differentiate complex_grad, exp_grad, ... again (rule 9)
        with pytest.raises(unigrad.HigherOrderUnavailableError):
            unigrad.grad([y], [w], [seed], create_graph=True)
        return
    (gw,) = unigrad.grad([y], [w], [seed], create_graph=True)
    backend.close(gw, np.zeros(2), atol=1e-15)  # seed * conj(f'(0) * 2w), w = 0


def test_a_batched_create_graph_result_of_a_consuming_call_is_differentiable(backend) -> None:
    # differential seed 45, program 803 (shrunk): rule 15 keeps create_graph results
    # differentiable after retain_graph=False; batched seeds make one result per row
    # (paddle stacked the rows, and its engine could not hand a stack node's gradients
    # through the hook that marks a gradient graph: a raw TypeError)
    x = backend.leaf([[-0.26, 1.08], [1.12, -1.27]], "float32")
    s = np.array([[[-1.28, -0.33], [0.22, 0.35]], [[-0.59, 0.43], [0.97, -0.9]]])
    (g,) = unigrad.grad(
        [x * x],
        [x],
        grad_outputs=[backend.tensor(s, "float32")],
        retain_graph=False,
        create_graph=True,
        is_grads_batched=True,
    )
    backend.close(g, 2.0 * backend.np(x) * s)
    (gg,) = unigrad.grad([backend.xp.sum(g)], [x])
    backend.close(gg, 2.0 * s.sum(axis=0))


def _cg_result_through_a_consumed_stack(backend, op="stack"):
    """Rule 15: a create_graph result of a consuming call stays differentiable, and
    its graph runs through the consumed ``stack`` (``concat``) node (the call to make,
    its answer)."""
    xp = backend.xp
    x = backend.leaf([1.0, 2.0])
    h = getattr(xp, op)([x * x, x * 3.0])
    (g,) = unigrad.grad(xp.sum(h * h), x, create_graph=True, retain_graph=False)
    # g = 4x^3 + 18x, so d(sum g)/dx = 12x^2 + 18
    return (lambda: unigrad.grad(xp.sum(g), x)), 12.0 * np.array([1.0, 4.0]) + 18.0


@pytest.mark.parametrize("op", ["stack", "concat"])
def test_a_create_graph_result_crosses_a_consumed_list_op(backend, op) -> None:
    # paddle 3.3 refused it (UnsupportedFeatureError, capability list_ops_after_consuming):
    # the consumed stack/concat node's freed hook could not hand its gradients on
    call, expected = _cg_result_through_a_consumed_stack(backend, op)
    (got,) = call()
    backend.close(got, expected)


@pytest.mark.parametrize("op", ["stack", "concat"])
def test_a_list_op_over_leaves_consumed_by_a_create_graph_call_raises_later(backend, op) -> None:
    # rule 15 (KNOWN until now; differential seed 2026, programs 4690, 19494, 40802):
    # paddle's create_graph=True, retain_graph=False call left the list op's node
    # unmarked (a hook cannot hand its gradients on), and where every operand is a leaf
    # or an input of that call no other node was marked: a later plain pass answered
    xp = backend.xp
    x, w = backend.leaf([1.0, 2.0]), backend.leaf([0.5, -1.0])
    n = getattr(xp, op)([x, w])
    (g,) = unigrad.grad(xp.sum(n * n), x, create_graph=True, retain_graph=False)
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.grad(xp.sum(n), w)
    with pytest.raises(unigrad.GraphFreedError):  # the cut pass raises as the uncut one
        unigrad.grad(n, x, grad_outputs=xp.ones_like(n), no_grad_vars=[n])
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.backward(xp.sum(n))
    (gg,) = unigrad.grad(xp.sum(g), x)  # its results stay differentiable
    backend.close(gg, [2.0, 2.0])


def test_a_branch_to_no_input_crosses_a_consumed_list_op(backend) -> None:
    # rule 6: a consumed branch that leads to no requested input did not run
    xp = backend.xp
    x, c = backend.leaf([1.0, 2.0]), backend.leaf([0.5, -1.0])
    y = xp.sum(xp.stack([x * x, x * 3.0]))
    unigrad.grad(y, x)
    (gc,) = unigrad.grad(y + xp.sum(c * c), c)
    backend.close(gc, [1.0, -2.0])


def test_a_recorded_gradient_is_not_linear_in_what_it_reads(backend) -> None:
    # differential seed 54 (shrunk): g = d(x*v*x)/dv with v = -x is x*x, a gradient
    # paddle's structure pass records with a node of its own; that node was read as a
    # linear op, so d(g)/dx = 2x came back detached, and a third call gave a wrong
    # number (3 for 6)
    x = backend.leaf(1.5)
    v = -x
    (g,) = unigrad.grad((x * v) * x, v, create_graph=True)
    (h,) = unigrad.grad(g, x, create_graph=True)
    assert backend.requires_grad(h)
    backend.close(h, 3.0)
    (k,) = unigrad.grad(h * x, x)
    backend.close(k, 6.0)


@pytest.mark.parametrize("name", ["expm1", "sinh", "atan", "log1p"])
def test_a_cut_at_a_namespace_result_is_honoured(backend, name) -> None:
    # differential seeds 57 and 58: while paddle's namespace computed these through a
    # PyLayer (on whose output paddle runs no tensor hook), a cut there was silently
    # ignored (a wrong number); the PyLayers are gone (see no_second_order), the test
    # stays
    x = backend.leaf([0.3, 0.5])
    xp = backend.xp
    v = getattr(xp, name)(x)
    (g,) = unigrad.grad(xp.sum(x * 2.0 + v * v), x, no_grad_vars=[v])
    backend.close(g, [2.0, 2.0])
    w = xp.atan2(x, x + 1.0)
    (g,) = unigrad.grad(xp.sum(x + w), x, no_grad_vars=[w])
    backend.close(g, [1.0, 1.0])


def test_paddle_refuses_a_cut_at_a_pylayer_output() -> None:
    # paddle runs no tensor hook on a PyLayer's output, and unigrad cuts with one: a
    # user's PyLayer output as a cut is refused rather than ignored
    paddle = pytest.importorskip("paddle")

    class Double(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, t):
            return t * 2.0

        @staticmethod
        def backward(ctx, dt):
            return dt * 2.0

    x = paddle.to_tensor([0.3, 0.5], stop_gradient=False)
    v = Double.apply(x)
    with pytest.raises(unigrad.UnsupportedFeatureError, match="PyLayer"):
        unigrad.grad((x + v).sum(), x, no_grad_vars=[v])
    u = v * 1.0  # the way out: a copy by a native op, used downstream and cut
    (g,) = unigrad.grad((x + u).sum(), x, no_grad_vars=[u])
    np.testing.assert_allclose(g.numpy(), [1.0, 1.0])
    # a PyLayer output the outputs do not reach cuts nothing: no refusal
    y = paddle.to_tensor([1.5, -0.5], stop_gradient=False)
    (g,) = unigrad.grad((y * y).sum(), y, no_grad_vars=[v])
    np.testing.assert_allclose(g.numpy(), [3.0, -1.0])


def test_a_cut_in_an_unrelated_graph_cuts_nothing(backend) -> None:
    # differential seed 7, program 1122: paddle refused (UnsupportedFeatureError) a cut
    # at a complex create_graph gradient (there the output of a PyLayer, on which paddle
    # runs no hook) in a call whose outputs do not reach it
    xp = backend.xp
    z = backend.leaf(1.15 + 0.54j, "complex64")
    (gz,) = unigrad.grad(xp.abs(z) * xp.abs(z), z, retain_graph=True, create_graph=True)
    backend.close(gz, 2 * (1.15 + 0.54j), rtol=1e-5)
    a = np.array([[0.67, 0.38], [-0.51, 0.26]])
    x = backend.leaf(a, "float64")
    (g,) = unigrad.grad(xp.sum(xp.linalg.inv(x)), x, no_grad_vars=[gz])
    inv = np.linalg.inv(a)
    backend.close(g, -(inv.T @ np.ones((2, 2)) @ inv.T), rtol=1e-12, atol=1e-12)


def test_backward_leaves_alone_an_input_a_gradient_does_not_depend_on(backend) -> None:
    # differential seed 71 (shrunk): g = d(x3 / (x2*x2 + 1))/dx3 depends on x2 alone;
    # paddle's graph of g reaches x3 too, and backward(inputs=[x2, x3]) gave x3 a zero
    # .grad where the others leave it None (as grad leaves x3 unused)
    x2, x3 = backend.leaf([1.39, 0.99]), backend.leaf([-1.42, 1.26])
    (g,) = unigrad.grad(backend.xp.sum(x3 / (x2 * x2 + 1.0)), x3, create_graph=True)
    unigrad.backward(backend.xp.sum(g * 2.0), inputs=[x2, x3])
    assert x3.grad is None
    x = np.array([1.39, 0.99])
    backend.close(x2.grad, -4.0 * x / (x * x + 1.0) ** 2)


def test_a_complex_create_graph_result_as_a_cut(backend) -> None:
    # paddle wrapped a complex create_graph result in a PyLayer (its higher-order
    # kernels are wrong: any pass through it refuses), on whose output it runs no hook:
    # a cut there was refused (UnsupportedFeatureError) where the other backends answer
    # (differential seed 2026, programs 16329, 23434)
    xp = backend.xp
    x = backend.leaf([0.3 + 0.4j, -1.0 + 0.5j], "complex128")
    w = backend.leaf([1.5 - 0.5j, 0.25 + 1.0j], "complex128")
    seed = backend.tensor([0.81 + 1.3j, 0.65 - 0.42j], "complex128")
    (g,) = unigrad.grad(x * x * w, x, grad_outputs=seed, create_graph=True)
    y = xp.sqrt(g * g + 0.25)
    assert unigrad.grad(y, [x, w], grad_outputs=seed, no_grad_vars=[g], allow_unused=True) == (
        None,
        None,
    )
    with pytest.raises(unigrad.UnusedInputError):
        unigrad.grad(y, x, grad_outputs=seed, no_grad_vars=[g])
    # beside a path that does not cross the cut: the cut branch brings zeros
    (gx,) = unigrad.grad(y + x * w, x, grad_outputs=seed, no_grad_vars=[g])
    backend.close(gx, np.conj(backend.np(w)) * backend.np(seed), rtol=1e-12, atol=1e-12)


def test_a_cut_pass_that_reaches_no_input_consumes_nothing(backend) -> None:
    # once any graph had been consumed, paddle's cut pass ran its cut branches (to meet a
    # consumed node there) and marked them consumed: a later pass raised GraphFreedError
    # where the other backends answer (differential seed 2026, program 40132)
    xp = backend.xp
    other = backend.leaf([0.5, 1.5], "float64")
    unigrad.grad(xp.sum(xp.sin(other)), other)  # a consumption, anywhere
    x = backend.leaf([0.3, -0.7], "float64")
    e = xp.exp(x)
    y = xp.sum(xp.sin(e)) + xp.sum(xp.ceil(x))  # ceil: a cut too (rule 14)
    assert unigrad.grad(y, x, no_grad_vars=[e], allow_unused=True) == (None,)
    (g,) = unigrad.grad(y, x)
    xn = np.array([0.3, -0.7])
    backend.close(g, np.cos(np.exp(xn)) * np.exp(xn), rtol=1e-12, atol=0)
