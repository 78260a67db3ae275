"""Activation layers delegate to nn.functional."""
import numpy as np
import pytest

import opsdk as paddle
import opsdk.nn.functional as F

X = paddle.to_tensor([[-1.5, 0.0, 2.0], [0.3, -0.2, 1.0]])


@pytest.mark.parametrize("layer,fn", [
    (paddle.nn.ReLU(), F.relu), (paddle.nn.GELU(), F.gelu),
    (paddle.nn.GELU(approximate=True), lambda x: F.gelu(x, approximate=True)),
    (paddle.nn.SiLU(), F.silu), (paddle.nn.Sigmoid(), F.sigmoid), (paddle.nn.Tanh(), F.tanh),
    (paddle.nn.Softmax(axis=0), lambda x: F.softmax(x, axis=0)),
    (paddle.nn.LogSoftmax(), F.log_softmax),
    (paddle.nn.LeakyReLU(0.2), lambda x: F.leaky_relu(x, 0.2)),
])
def test_activation_layer_equals_its_functional(layer, fn):
    np.testing.assert_array_equal(layer(X).numpy(), fn(X).numpy())


def test_activation_layers_have_no_parameters():
    assert paddle.nn.GELU().parameters() == []


@pytest.mark.paddle
def test_silu_inplace_writes_into_its_input_as_paddle():
    from helpers.frameworks import import_paddle
    real = import_paddle()
    seen = []
    for P in (real, paddle):
        x, z = P.to_tensor([1.0, -2.0, 3.0]), P.to_tensor([0.5, -1.0])
        r = P.nn.functional.silu(x, inplace=True)
        layer_out = P.nn.SiLU(inplace=True)(z)
        seen.append((r is x, layer_out is z, x.numpy(), z.numpy()))
    assert seen[1][:2] == seen[0][:2] == (True, True)
    for got, want in zip(seen[1][2:], seen[0][2:]):
        np.testing.assert_allclose(got, want, rtol=1e-6)
