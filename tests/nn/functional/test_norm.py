"""layer_norm and normalize: values against PyTorch, gradients to second order."""
import numpy as np
import pytest

import opsdk as paddle
import opsdk.nn.functional as F
from opsdk.errors import ShapeError
from helpers.gradients import assert_gradients
from helpers.samples import signed


def test_layer_norm_matches_torch_with_weight_and_bias():
    torch = pytest.importorskip("torch")
    x, w, b = signed(3, 2, 4, seed=1), signed(2, 4, seed=2), signed(2, 4, seed=3)
    # Paddle's weight and bias are 1-D with prod(normalized_shape) elements
    ours = F.layer_norm(paddle.to_tensor(x), [2, 4], paddle.to_tensor(w.reshape(-1)),
                        paddle.to_tensor(b.reshape(-1)), 1e-5).numpy()
    theirs = torch.nn.functional.layer_norm(torch.tensor(x), [2, 4], torch.tensor(w),
                                            torch.tensor(b), 1e-5).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("arg, shape", [("weight", [2, 4]), ("weight", [4]), ("bias", [9])])
def test_layer_norm_weight_and_bias_must_be_flat_as_in_paddle(arg, shape):
    x = paddle.ones([3, 2, 4])
    with pytest.raises(ShapeError, match=rf"layer_norm: argument '{arg}' must be 1-D .*"
                                         rf"expected: shape \[8\]"):
        F.layer_norm(x, [2, 4], **{arg: paddle.ones(shape)})


def test_layer_norm_layer_keeps_flat_parameters_as_paddle():
    ln = paddle.nn.LayerNorm([2, 4])
    assert [list(p.shape) for p in ln.parameters()] == [[8], [8]]
    assert ln(paddle.ones([3, 2, 4])).shape == [3, 2, 4]


def test_layer_norm_gradients_match_numeric_to_second_order():
    assert_gradients(lambda x, w, b: F.layer_norm(x, 4, w, b),
                     [signed(3, 4, seed=4), signed(4, seed=5), signed(4, seed=6)])


def test_layer_norm_refuses_a_shape_that_is_not_trailing():
    with pytest.raises(ShapeError, match="layer_norm: the last dims"):
        F.layer_norm(paddle.ones([2, 3]), [2])


def test_normalize_matches_torch_and_its_gradients_numeric():
    torch = pytest.importorskip("torch")
    x = signed(3, 4, seed=7)
    np.testing.assert_allclose(F.normalize(paddle.to_tensor(x), axis=1).numpy(),
                               torch.nn.functional.normalize(torch.tensor(x), dim=1).numpy(),
                               rtol=1e-12)
    assert_gradients(lambda t: F.normalize(t, axis=0), [x])


def test_layer_norm_layer_starts_at_ones_and_zeros_and_trains():
    ln = paddle.nn.LayerNorm([3])
    assert ln.weight.numpy().tolist() == [1, 1, 1] and ln.bias.numpy().tolist() == [0, 0, 0]
    ln(paddle.to_tensor([[1.0, 2.0, 4.0]])).sum().backward()
    assert ln.weight.grad is not None and ln.bias.grad.numpy().tolist() == [1, 1, 1]
    assert paddle.nn.LayerNorm(3, weight_attr=False, bias_attr=False).parameters() == []


def test_cosine_similarity_matches_torch_and_its_gradients_numeric():
    torch = pytest.importorskip("torch")
    a, b = signed(3, 4, seed=8), signed(3, 4, seed=9)
    ours = F.cosine_similarity(paddle.to_tensor(a), paddle.to_tensor(b), axis=1).numpy()
    theirs = torch.nn.functional.cosine_similarity(torch.tensor(a), torch.tensor(b), dim=1)
    np.testing.assert_allclose(ours, theirs.numpy(), rtol=1e-12)
    assert_gradients(lambda x, y: F.cosine_similarity(x, y, axis=0), [a, b])
