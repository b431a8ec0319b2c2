"""The torch adapter's consumed-graph walk: which nodes a pass runs, exactly."""

from __future__ import annotations

import pytest

import unigrad

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("retain", [True, False])
def test_a_consumed_node_raises_only_if_the_pass_runs_it(retain):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    h = x + 1.0  # AddBackward saves nothing: torch alone would run it again
    unigrad.grad(h.sum(), x)  # consumes h's node
    y = (h + w).sum()
    (g,) = unigrad.grad(y, w, retain_graph=True)  # reaches h's node, does not run it
    assert g.tolist() == [1.0, 1.0]
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.grad(y, x, retain_graph=retain)


def test_diamonds_and_shared_leaves_are_walked_once():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * x
    y = (h * h + h).sum()  # h's node reached on two paths, x on two edges
    (g,) = unigrad.grad(y, x, retain_graph=True)
    assert g.tolist() == [4 * 1 + 2, 4 * 8 + 4]
    unigrad.grad(y, x)  # consumes
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.grad((h * 1.0).sum(), x)


def test_a_long_chain_does_not_recurse():
    x = torch.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(5000):
        y = y + 0.0
    (g,) = unigrad.grad(y.sum(), x)
    assert g.tolist() == [1.0]
    with pytest.raises(unigrad.GraphFreedError):
        unigrad.grad(y.sum(), x, retain_graph=True)
