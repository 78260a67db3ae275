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
