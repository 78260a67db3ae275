"""atan2: values in every quadrant, gradients to second order, broadcasting, a number operand
and integer inputs, against Paddle and central differences."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_same_as_paddle
from helpers.gradients import assert_gradients

RNG = np.random.default_rng(5)
X, Y = RNG.standard_normal((3, 4)), RNG.standard_normal((3, 4))


def test_values_in_every_quadrant_and_gradients_to_second_order():
    got = opsdk.atan2(opsdk.to_tensor(X), opsdk.to_tensor(Y)).numpy()
    np.testing.assert_allclose(got, np.arctan2(X, Y), rtol=1e-14)
    assert_gradients(lambda x, y: opsdk.atan2(x, y), [X, Y])
    assert_gradients(lambda x, y: opsdk.atan2(x, y), [X, Y[0]])  # y broadcast over rows


def test_a_constant_operand_gets_no_gradient():
    x = opsdk.to_tensor(X, stop_gradient=False)
    (g,) = opsdk.grad(opsdk.atan2(x, opsdk.to_tensor(Y)).sum(), x)
    np.testing.assert_allclose(g.numpy(), Y / (X * X + Y * Y), rtol=1e-12)


@pytest.mark.paddle
def test_matches_paddle():
    assert_same_as_paddle(lambda P, x, y: P.atan2(x, y), [X, Y], diff=(0, 1))
    assert_same_as_paddle(lambda P, x, y: P.atan2(x, y), [np.array([1, -2, 3]), np.array([2, 2, -1])],
                          dtypes=["int64", "int64"], diff=())
