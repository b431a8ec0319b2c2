import unigrad


def test_paddle_doc_example(backend):
    x = backend.leaf(2.0)
    y1, y2 = x * x, x * 3
    for seeds, expected in [
        (None, 7.0),
        ([None, backend.tensor(4.0)], 16.0),
        ([backend.tensor(4.0), None], 19.0),
        ([backend.tensor(3.0), backend.tensor(4.0)], 24.0),
    ]:
        (g,) = unigrad.grad([y1, y2], [x], seeds, retain_graph=True)
        backend.close(g, expected)
