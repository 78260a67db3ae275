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
