"""nn.Linear."""
import numpy as np
import pytest

import opsdk as paddle


def test_linear_weight_is_in_by_out_and_bias_starts_at_zero():
    fc = paddle.nn.Linear(784, 10)
    assert fc.weight.shape == [784, 10] and fc.bias.shape == [10]
    np.testing.assert_array_equal(fc.bias.numpy(), np.zeros(10))


def test_linear_forward_and_gradients():
    fc = paddle.nn.Linear(3, 2)
    x = paddle.randn([4, 3])
    y = fc(x)
    np.testing.assert_allclose(y.numpy(), x.numpy() @ fc.weight.numpy() + fc.bias.numpy(),
                               rtol=1e-6)
    y.sum().backward()
    np.testing.assert_allclose(fc.weight.grad.numpy(),
                               x.numpy().sum(axis=0)[:, None] * np.ones((1, 2)), rtol=1e-6)
    np.testing.assert_array_equal(fc.bias.grad.numpy(), [4.0, 4.0])


def test_linear_follows_the_default_dtype():
    paddle.set_default_dtype("float64")
    try:
        fc = paddle.nn.Linear(2, 2)
    finally:
        paddle.set_default_dtype("float32")
    assert fc.weight.dtype == np.float64


def test_torch_linear_gives_the_same_output_and_gradients():
    torch = pytest.importorskip("torch")
    fc = paddle.nn.Linear(5, 3)
    x = np.random.default_rng(0).standard_normal((2, 4, 5)).astype(np.float32)
    tfc = torch.nn.Linear(5, 3)
    with torch.no_grad():
        tfc.weight.copy_(torch.from_numpy(fc.weight.numpy().T.copy()))
        tfc.bias.copy_(torch.from_numpy(fc.bias.numpy()))
    out = fc(paddle.to_tensor(x))
    tout = tfc(torch.from_numpy(x))
    (out ** 2).sum().backward()
    (tout ** 2).sum().backward()
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(fc.weight.grad.numpy(), tfc.weight.grad.numpy().T, rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(fc.bias.grad.numpy(), tfc.bias.grad.numpy(), rtol=1e-4)


def test_bilinear_layer_has_paddles_parameters_and_calls_bilinear():
    layer = paddle.nn.Bilinear(3, 2, 4)
    assert [(n, p.shape) for n, p in layer.named_parameters()] == [
        ("weight", [4, 3, 2]), ("bias", [1, 4])]
    assert not layer.bias.numpy().any()
    x1, x2 = paddle.randn([5, 3]), paddle.randn([5, 2])
    np.testing.assert_allclose(layer(x1, x2).numpy(), paddle.nn.functional.bilinear(
        x1, x2, layer.weight, layer.bias).numpy())
    assert paddle.nn.Bilinear(3, 2, 4, bias_attr=False).bias is None
    assert repr(layer) == "Bilinear(in1_features=3, in2_features=2, out_features=4, " \
                          "dtype=float32)"
