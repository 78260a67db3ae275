"""gaussian / standard_normal: shape, dtype, statistics, seeding, bad arguments."""
import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpArgumentError


def test_gaussian_shape_dtype_and_moments():
    paddle.seed(0)
    g = paddle.gaussian([4000, 2], mean=1.0, std=2.0)
    assert g.shape == [4000, 2] and g.dtype == paddle.float32 and g.stop_gradient
    assert abs(g.numpy().mean() - 1.0) < 0.1 and abs(g.numpy().std() - 2.0) < 0.1


def test_gaussian_follows_the_global_seed():
    paddle.seed(7)
    a = paddle.gaussian([5]).numpy()
    paddle.seed(7)
    np.testing.assert_array_equal(paddle.gaussian([5]).numpy(), a)


def test_gaussian_nonzero_seed_reproduces_on_its_own():
    a = paddle.gaussian([5], seed=11).numpy()
    paddle.randn([3])
    np.testing.assert_array_equal(paddle.gaussian([5], seed=11).numpy(), a)


def test_gaussian_dtype_and_standard_normal():
    assert paddle.gaussian([2], dtype="float64").dtype == paddle.float64
    s = paddle.standard_normal([3, 2])
    assert s.shape == [3, 2] and s.dtype == paddle.float32


def test_gaussian_refuses_a_negative_std():
    with pytest.raises(OpArgumentError, match="std must not be negative"):
        paddle.gaussian([2], std=-1.0)


def test_gaussian_output_gets_no_gradient():
    out = paddle.gaussian([3, 4])
    paddle.mean(out * 2.0)
    assert out.grad is None and out.stop_gradient
