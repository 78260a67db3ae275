"""nn.functional.linear and dropout."""
import numpy as np
import pytest

import opsdk as paddle
import opsdk.nn.functional as F
from helpers.gradients import assert_gradients
from helpers.samples import signed
from opsdk.errors import DTypeError, OpArgumentError, ShapeError


def test_linear_is_x_times_weight_plus_bias():
    x, w, b = signed(3, 4), signed(4, 2, seed=1), signed(2, seed=2)
    out = F.linear(paddle.to_tensor(x), paddle.to_tensor(w), paddle.to_tensor(b))
    np.testing.assert_allclose(out.numpy(), x @ w + b, rtol=1e-12)


def test_linear_gradients_match_numeric_to_second_order():
    assert_gradients(F.linear, [signed(3, 4), signed(4, 2, seed=1), signed(2, seed=2)])


def test_linear_on_batched_input_gradients_match_numeric():
    assert_gradients(lambda x, w: F.linear(x, w), [signed(2, 3, 4), signed(4, 5, seed=1)])


def test_linear_without_bias_needs_no_bias_gradient():
    x = paddle.to_tensor(signed(2, 3))
    w = paddle.to_tensor(signed(3, 2, seed=1), stop_gradient=False)
    F.linear(x, w).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), signed(2, 3).sum(axis=0)[:, None] * np.ones(2))


def test_linear_refuses_mixed_dtypes_naming_the_arguments():
    with pytest.raises(DTypeError, match=r"linear.*x float64.*weight float32"):
        F.linear(paddle.to_tensor(signed(2, 3)), paddle.ones([3, 2]))


def test_linear_refuses_mismatched_inner_size():
    with pytest.raises(ShapeError, match="linear"):
        F.linear(paddle.ones([2, 3]), paddle.ones([4, 2]))


def test_dropout_in_eval_is_a_new_tensor_with_the_same_values_as_paddle():
    # Paddle 3.3.1: eval dropout (p > 0) is an op whose result is not the input nor a leaf;
    # p == 0 returns the input itself
    x = paddle.randn([4, 5])
    x.stop_gradient = False
    y = F.dropout(x, 0.5, training=False)
    assert y is not x and not y.is_leaf
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones([4, 5]))
    assert F.dropout(x, 0.0, training=False) is x and F.dropout(x, 0.0) is x


def test_dropout_downscale_in_infer_scales_by_keep_probability_at_inference():
    x = paddle.ones([3])
    np.testing.assert_allclose(
        F.dropout(x, 0.25, training=False, mode="downscale_in_infer").numpy(), [0.75] * 3)


def test_dropout_training_zeroes_about_p_and_scales_the_rest():
    paddle.seed(0)
    y = F.dropout(paddle.ones([10000]), p=0.3).numpy()
    kept = y != 0
    assert abs(1 - kept.mean() - 0.3) < 0.02
    np.testing.assert_allclose(y[kept], 1 / 0.7, rtol=1e-6)


def test_dropout_is_reproducible_under_seed():
    paddle.seed(42)
    a = F.dropout(paddle.ones([50]), 0.5).numpy()
    paddle.seed(42)
    b = F.dropout(paddle.ones([50]), 0.5).numpy()
    np.testing.assert_array_equal(a, b)


def test_dropout_gradient_is_the_mask():
    paddle.seed(1)
    x = paddle.ones([200], stop_gradient=False)
    y = F.dropout(x, 0.5)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.numpy())


def test_dropout_axis_drops_whole_rows():
    paddle.seed(3)
    y = F.dropout(paddle.ones([20, 6]), 0.5, axis=0).numpy()
    assert all(len(set(row)) == 1 for row in y)


def test_dropout_p_one_zeroes_everything_and_p_zero_is_identity():
    x = paddle.ones([5])
    assert F.dropout(x, 0.0) is x
    np.testing.assert_array_equal(F.dropout(x, 1.0).numpy(), np.zeros(5))


def test_dropout_rejects_p_outside_unit_interval():
    with pytest.raises(OpArgumentError, match=r"dropout: p must be a number in \[0, 1\]"):
        F.dropout(paddle.ones([2]), 1.5)


def test_linear_with_a_1d_weight_gives_one_output_feature_dropped_as_paddle():
    from helpers.frameworks import assert_same_as_paddle
    x = np.arange(6.0).reshape(2, 3)
    assert_same_as_paddle(lambda P, x, w: P.nn.functional.linear(x, w),
                          [x, np.array([1.0, 2.0, 3.0])], diff=(0, 1))
    assert_same_as_paddle(lambda P, x, w, b: P.nn.functional.linear(x, w, b),
                          [x, np.array([1.0, 2.0, 3.0]), np.array([0.5])], diff=(0, 1, 2))
