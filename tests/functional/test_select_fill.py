"""index_fill, masked_scatter, renorm: values, gradients to second order, Paddle's results."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import paddle_cases
from helpers.gradients import assert_gradients

X = np.array([[3.0, 4.0, 1.0], [0.3, -0.4, 0.2]])
MASK = np.array([[True, False, True], [False, True, True]])


def test_values():
    x = opsdk.to_tensor(X)
    filled = opsdk.index_fill(x, opsdk.to_tensor([0, 2]), 1, -1.0)
    assert filled.numpy().tolist() == [[-1.0, 4.0, -1.0], [-1.0, -0.4, -1.0]]
    scattered = opsdk.masked_scatter(x, opsdk.to_tensor(MASK), opsdk.arange(1, 7, dtype="float64"))
    assert scattered.numpy().tolist() == [[1.0, 4.0, 2.0], [0.3, 3.0, 4.0]]
    r = opsdk.renorm(x, 2, 0, 1.0).numpy()
    np.testing.assert_allclose(np.linalg.norm(r, axis=1), [1.0, np.linalg.norm(X[1])],
                               rtol=1e-6)


def test_gradients_hold_to_second_order():
    idx, mask = opsdk.to_tensor([1]), opsdk.to_tensor(MASK)
    assert_gradients(lambda x: opsdk.index_fill(x, idx, 1, 2.0) ** 2, [X])
    assert_gradients(lambda x, v: opsdk.masked_scatter(x, mask, v) ** 2, [X, X[::-1] * 2])
    assert_gradients(lambda x: opsdk.renorm(x, 2, 0, 1.0), [X])
    assert_gradients(lambda x: opsdk.renorm(x, 3, 1, 1.5), [X])


def test_renorm_scales_by_max_norm_over_the_norm_exactly_as_paddle_3_3_1():
    # Paddle 3.3.1's factor is max_norm / norm (no epsilon): [3, 4] with max_norm 1 -> [.6, .8]
    x = opsdk.to_tensor([[3.0, 4.0]], dtype="float64", stop_gradient=False)
    y = opsdk.renorm(x, 2.0, 0, 1.0)
    assert y.numpy().tolist() == [[3 * (1.0 / 5.0), 4 * (1.0 / 5.0)]]  # Paddle's bits
    (y * opsdk.to_tensor([[1.0, 2.0]], dtype="float64")).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[-0.064, 0.048]], rtol=1e-14)


def test_renorm_gradient_is_an_exact_zero_where_the_loss_sees_a_constant():
    # a p=1 slice of positive values scaled to max_norm sums to max_norm whatever x is:
    # Paddle's formula gives exactly 0 there (float32), and so does opsdk's
    x = opsdk.to_tensor([[[2.0, 2, -2], [3, 0.3, 3]], [[2, -8, 2], [3.1, 3.7, 3]]],
                        stop_gradient=False)
    opsdk.mean(opsdk.renorm(x, 1.0, 2, 2.05)).backward()
    assert (x.grad.numpy()[..., 0] == 0).all()


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="masked_scatter: 'mask' selects 4 places"):
        opsdk.masked_scatter(opsdk.to_tensor(X), opsdk.to_tensor(MASK), opsdk.ones([2], "float64"))
    with pytest.raises(ValueError, match="index_fill: argument 'index' holds 5"):
        opsdk.index_fill(opsdk.to_tensor(X), opsdk.to_tensor([5]), 1, 0.0)


def test_in_place_forms():
    x = opsdk.to_tensor(X)
    assert x.index_fill_(opsdk.to_tensor([0]), 0, 0.0) is x and x.numpy()[0].tolist() == [0, 0, 0]
    y = opsdk.to_tensor(X)
    assert opsdk.renorm_(y, 1, 0, 1.0) is y and abs(np.abs(y.numpy()[0]).sum() - 1) < 1e-6


test_values_and_gradients_match_paddle = paddle_cases({
    "index_fill": (lambda P, x: P.index_fill(x, P.to_tensor([0, 2]), 1, 2.0), [X]),
    "masked_scatter": (lambda P, x, v: P.masked_scatter(x, P.to_tensor(MASK), v), [X, X * 3]),
    "renorm": (lambda P, x: P.renorm(x, 2.0, 0, 1.0), [X]),
    "renorm_axis1": (lambda P, x: P.renorm(x, 1.0, 1, 2.0), [X]),
})
