"""The extra activation layers call their functionals with the options they were built with."""
import numpy as np
import pytest

import opsdk as paddle
import opsdk.nn.functional as F

X = paddle.to_tensor([-2.0, -0.5, 0.5, 2.0])


@pytest.mark.parametrize("layer, fn", [
    (paddle.nn.ELU(0.5), lambda x: F.elu(x, 0.5)), (paddle.nn.SELU(), F.selu),
    (paddle.nn.CELU(2.0), lambda x: F.celu(x, 2.0)), (paddle.nn.ReLU6(), F.relu6),
    (paddle.nn.Hardtanh(-0.5, 0.5), lambda x: F.hardtanh(x, -0.5, 0.5)),
    (paddle.nn.Hardsigmoid(), F.hardsigmoid), (paddle.nn.Hardswish(), F.hardswish),
    (paddle.nn.Softplus(2.0, 10.0), lambda x: F.softplus(x, 2.0, 10.0)),
    (paddle.nn.Softsign(), F.softsign), (paddle.nn.Tanhshrink(), F.tanhshrink),
    (paddle.nn.LogSigmoid(), F.log_sigmoid), (paddle.nn.Mish(), F.mish),
    (paddle.nn.Silu(), F.silu)])
def test_layer_equals_its_functional(layer, fn):
    np.testing.assert_allclose(layer(X).numpy(), fn(X).numpy(), rtol=1e-6)


def test_prelu_layer_learns_its_slope():
    act = paddle.nn.PReLU(num_parameters=1, init=0.25)
    act(X).sum().backward()
    np.testing.assert_allclose(act.weight.numpy(), [0.25])
    np.testing.assert_allclose(act.weight.grad.numpy(), [-2.5])


def test_flatten_and_identity():
    x = paddle.ones([2, 3, 4])
    assert paddle.nn.Flatten()(x).shape == [2, 12]
    assert paddle.nn.Flatten(0, 1)(x).shape == [6, 4]
    assert paddle.nn.Identity(54, unused=1)(x) is x


def test_unflatten_cosine_similarity_and_torch_style_aliases():
    x = paddle.ones([2, 6])
    assert paddle.nn.Unflatten(1, [2, 3])(x).shape == [2, 2, 3]
    np.testing.assert_allclose(paddle.nn.CosineSimilarity(axis=1)(x, x).numpy(), [1, 1], rtol=1e-6)
    assert paddle.nn.Module is paddle.nn.Layer and paddle.nn.ModuleList is paddle.nn.LayerList
    assert paddle.nn.ThresholdedReLU()(paddle.to_tensor([0.5, 2.0])).numpy().tolist() == [0, 2]


def test_maxout_and_softmax2d_layers():
    x = paddle.randn([2, 4, 3, 3])
    np.testing.assert_array_equal(paddle.nn.Maxout(2)(x).numpy(), F.maxout(x, 2).numpy())
    np.testing.assert_allclose(paddle.nn.Softmax2D()(x).numpy(), F.softmax(x, axis=1).numpy())
    np.testing.assert_allclose(paddle.nn.Softmax2D()(x[0]).numpy(), F.softmax(x[0], 0).numpy())
    with pytest.raises(AssertionError, match="Softmax2D: expected a 3-D or 4-D input"):
        paddle.nn.Softmax2D()(x[0, 0])
