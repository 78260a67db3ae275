"""layer_norm, group_norm, instance_norm, rms_norm and normalize: values against PyTorch and
Paddle (rms_norm by its formula), gradients to second order."""
import numpy as np
import pytest

import opsdk as paddle
import opsdk.nn.functional as F
from opsdk.errors import ShapeError
from helpers.frameworks import assert_raises_as_paddle, assert_same_as_paddle
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


NORM_CASES = {
    "group_norm": (lambda P, x, w, b: P.nn.functional.group_norm(x, 2, 1e-3, w, b),
                   [signed(2, 4, 3, seed=7), signed(4, seed=8), signed(4, seed=9)]),
    "group_norm_nhwc": (lambda P, x, w, b: P.nn.functional.group_norm(
        x, 2, weight=w, bias=b, data_format="NHWC"),
        [signed(2, 3, 2, 4, seed=7), signed(4, seed=8), signed(4, seed=9)]),
    "group_norm_2d": (lambda P, x, w, b: P.nn.functional.group_norm(x, 4, weight=w, bias=b),
                      [signed(3, 4, seed=7), signed(4, seed=8), signed(4, seed=9)]),
    "instance_norm": (lambda P, x, w, b: P.nn.functional.instance_norm(x, weight=w, bias=b),
                      [signed(2, 3, 2, 4, seed=7), signed(3, seed=8), signed(3, seed=9)]),
    "instance_norm_2d": (lambda P, x, w, b: P.nn.functional.instance_norm(x, weight=w, bias=b),
                         [signed(3, 4, seed=7), signed(4, seed=8), signed(4, seed=9)]),
}


@pytest.mark.paddle
@pytest.mark.parametrize("case", NORM_CASES)
def test_group_and_instance_norm_match_paddle(case):
    fn, arrays = NORM_CASES[case]
    # Paddle's float64 instance_norm is accurate to about 1e-10
    assert_same_as_paddle(fn, arrays, diff=(0, 1, 2), rtol=1e-8, atol=1e-9)


def test_group_and_instance_norm_gradients_to_second_order():
    assert_gradients(lambda x, w, b: F.group_norm(x, 2, weight=w, bias=b),
                     [signed(2, 4, 2, seed=1), signed(4, seed=2), signed(4, seed=3)])
    assert_gradients(lambda x, w: F.instance_norm(x, weight=w),
                     [signed(2, 2, 3, seed=4), signed(2, seed=5)])


def test_group_norm_values_by_hand():
    x = paddle.to_tensor([[[1.0], [3.0], [2.0], [6.0]]], dtype="float64")
    np.testing.assert_allclose(F.group_norm(x, 2, epsilon=0.0).numpy().ravel(), [-1, 1, -1, 1])


def test_instance_norm_ignores_the_running_statistics_as_paddle():
    # Paddle 3.3.1 always normalizes by the input's statistics and never updates the running
    # ones, use_input_stats=False included
    x = paddle.to_tensor(signed(2, 3, 4, seed=6))
    rm, rv = paddle.full([3], 0.5, dtype="float64"), paddle.full([3], 2.0, dtype="float64")
    y = F.instance_norm(x, rm, rv, use_input_stats=False)
    np.testing.assert_allclose(y.numpy(), F.instance_norm(x).numpy())
    assert rm.numpy().tolist() == [0.5] * 3 and rv.numpy().tolist() == [2.0] * 3


def test_group_and_instance_norm_refuse_bad_arguments():
    x = paddle.ones([2, 4, 3])
    with pytest.raises(ShapeError, match="group_norm: the number of channels must be divisible"):
        F.group_norm(x, 3)
    with pytest.raises(ShapeError, match=r"group_norm: argument 'weight' .*expected: shape \[4\]"):
        F.group_norm(x, 2, weight=paddle.ones([2]))
    with pytest.raises(ValueError, match="group_norm: argument 'data_format'"):
        F.group_norm(x, 2, data_format="NCX")
    with pytest.raises(ShapeError, match=r"instance_norm: argument 'bias' .*expected: shape \[4\]"):
        F.instance_norm(x, bias=paddle.ones([3]))


def test_input_gradients_where_paddle_is_wrong_are_the_derivative():
    # Paddle 3.3.1 takes a layer_norm weight that needs no gradient as 1 in x's gradient, and
    # its group_norm without a weight gives x a gradient that is not the derivative: opsdk's
    # match central differences there (docs/paddle.md, paddle.nn)
    w = paddle.to_tensor(signed(3, seed=11))
    assert_gradients(lambda x: F.layer_norm(x, 3, weight=w), [signed(2, 3, seed=12)])
    assert_gradients(lambda x: F.group_norm(x, 2), [signed(2, 4, 3, seed=13)])


@pytest.mark.paddle
@pytest.mark.parametrize("shape, normalized", [([2, 3], [2, 3]), ([3], [3]), ([3], 3), ([], [])])
def test_layer_norm_over_every_axis_of_x_raises_as_paddle(shape, normalized):
    assert_raises_as_paddle(lambda P: P.nn.functional.layer_norm(P.ones(shape), normalized))


@pytest.mark.paddle
def test_layer_norm_layer_over_every_axis_raises_as_paddle():
    err = assert_raises_as_paddle(lambda P: P.nn.LayerNorm([2, 3])(P.ones([2, 3])))
    assert "layer_norm" in str(err)


def test_rms_norm_by_hand_with_gradients_to_second_order():
    # Paddle 3.3.1 registers rms_norm's kernel for CUDA only: checked against its formula
    rng = np.random.default_rng(8)
    x, w = rng.standard_normal((2, 3, 4)), rng.standard_normal((3, 4))
    out, invvar = F.rms_norm(paddle.to_tensor(x), [3, 4], paddle.to_tensor(w), eps=1e-3)
    inv = 1 / np.sqrt((x ** 2).mean(axis=(1, 2)) + 1e-3)
    np.testing.assert_allclose(invvar.numpy(), inv)
    np.testing.assert_allclose(out.numpy(), x * inv[:, None, None] * w)
    out, invvar = F.rms_norm(paddle.to_tensor(x), 4)
    assert invvar.shape == [2, 3] and out.shape == [2, 3, 4]
    assert_gradients(lambda a, b: F.rms_norm(a, [4], b)[0], [x[0], w[0]])
    with pytest.raises(ValueError, match="rms_norm: the last dims of input must be"):
        F.rms_norm(paddle.to_tensor(x), [3])
    with pytest.raises(ValueError, match="rms_norm: weight must have normalized_shape"):
        F.rms_norm(paddle.to_tensor(x), [4], paddle.ones([3]))


@pytest.mark.paddle
@pytest.mark.parametrize("size, fmt, shape", [
    (3, "NCHW", (2, 5, 3, 2)), (4, "NCL", (2, 6, 3)), (5, "NHWC", (2, 3, 2, 6)),
    (2, "NLC", (2, 3, 4)), (3, "NCDHW", (1, 4, 2, 2, 2)), (1, "NDHWC", (1, 2, 2, 2, 3)),
])
def test_local_response_norm_matches_paddle(size, fmt, shape):
    x = np.random.default_rng(2).standard_normal(shape)
    # Paddle's kernels here take float32
    assert_same_as_paddle(lambda P, a: P.nn.functional.local_response_norm(
        a, size, 0.3, 0.6, 1.5, fmt), [x], dtypes=["float32"], rtol=1e-5, atol=1e-6)
    assert_same_as_paddle(lambda P, a: P.nn.LocalResponseNorm(size, data_format=fmt)(a), [x],
                          dtypes=["float32"], rtol=1e-5, atol=1e-6)


def test_local_response_norm_second_order_and_errors():
    x = np.random.default_rng(3).standard_normal((1, 4, 2))
    assert_gradients(lambda a: F.local_response_norm(a, 3, alpha=0.5, data_format="NCL"), [x])
    with pytest.raises(ValueError, match="local_response_norm: expected an input of 3 or more"):
        F.local_response_norm(paddle.ones([2, 3]), 2)
    with pytest.raises(ValueError, match="local_response_norm: data_format must be one of"):
        F.local_response_norm(paddle.ones([2, 3, 4]), 2, data_format="NHCW")
