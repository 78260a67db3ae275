"""weight_norm / remove_weight_norm as Paddle's, from the same weights: parameter names and
shapes, the recomputed weight, outputs and gradients of weight_g and weight_v."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle, import_paddle

pytestmark = pytest.mark.paddle

RNG = np.random.default_rng(3)
LAYERS = {
    "linear": (lambda P: P.nn.Linear(3, 4), [2, 3]),
    "conv": (lambda P: P.nn.Conv2D(2, 3, 3), [1, 2, 5, 5]),
}


def normed(P, kind, dim, values):
    make, x_shape = LAYERS[kind]
    layer = make(P)
    for p, v in zip(layer.parameters(), values):
        p.set_value(v)
    layer = P.nn.utils.weight_norm(layer, dim=dim)
    x = P.to_tensor(np.linspace(-1, 1, int(np.prod(x_shape)), dtype="float32").reshape(x_shape))
    y = layer(x)
    (y * y).sum().backward()
    names = [n for n, _ in layer.named_parameters()]
    state = {n: (p.numpy(), p.grad.numpy()) for n, p in layer.named_parameters()}
    P.nn.utils.remove_weight_norm(layer)
    return names, state, y.numpy(), [n for n, _ in layer.named_parameters()], layer.weight.numpy()


@pytest.mark.parametrize("kind, dim", [("linear", 0), ("linear", 1), ("linear", None),
                                       ("linear", -2), ("conv", 0), ("conv", 2),
                                       ("conv", 3), ("conv", None)])
def test_weight_norm_as_paddle(kind, dim):
    paddle = import_paddle()
    values = [RNG.standard_normal(p.shape).astype("float32")
              for p in LAYERS[kind][0](opsdk).parameters()]
    got, want = normed(opsdk, kind, dim, values), normed(paddle, kind, dim, values)
    assert got[0] == want[0] and got[3] == want[3]
    for name in want[1]:
        for a, b in zip(got[1][name], want[1][name]):
            assert a.shape == b.shape, name
            np.testing.assert_allclose(a, b, rtol=2e-5, atol=1e-6, err_msg=name)
    np.testing.assert_allclose(got[2], want[2], rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(got[4], want[4], rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(got[4], values[0], rtol=2e-5, atol=1e-6)


def test_errors_as_paddle():
    def twice(P):
        layer = P.nn.utils.weight_norm(P.nn.Linear(2, 2))
        P.nn.utils.weight_norm(layer)
    assert_raises_as_paddle(twice, RuntimeError)
    assert_raises_as_paddle(lambda P: P.nn.utils.remove_weight_norm(P.nn.Linear(2, 2)),
                            ValueError)
    assert_raises_as_paddle(lambda P: P.nn.utils.weight_norm(P.nn.Linear(2, 2), dim=2),
                            AssertionError)
