"""Paddle 3.3.1's PyTorch-style top-level names: paddle.softmax (dim, dtype, Paddle's default
axis) and Tensor.softmax, Tensor.create_parameter, and the top-level autocast / layer_norm
names: against Paddle where installed, gradients to second order."""
import pytest

import opsdk
from helpers.frameworks import assert_same_as_paddle, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import signed

test_values_and_gradients_match_paddle = paddle_cases({
    "softmax_1d": (lambda P, x: P.softmax(x), [signed(4)]),
    "softmax_2d_default": (lambda P, x: P.softmax(x), [signed(3, 4)]),
    "softmax_3d_default": (lambda P, x: P.softmax(x), [signed(2, 3, 4)]),
    "softmax_4d_default": (lambda P, x: P.softmax(x), [signed(2, 3, 2, 2)]),
    "softmax_dim": (lambda P, x: P.softmax(x, dim=-1), [signed(2, 3, 4)]),
    "softmax_method": (lambda P, x: x.softmax(dim=0), [signed(3, 4)]),
    "layer_norm": (lambda P, x: P.layer_norm(x, 4), [signed(3, 4)]),
})


@pytest.mark.paddle
def test_softmax_dtype_casts_first():
    assert_same_as_paddle(lambda P, x: P.softmax(x, dtype="float64"), [signed(3, 4)],
                          dtypes=["float32"], rtol=1e-6)


def test_softmax_gradients_to_second_order():
    assert_gradients(lambda x: opsdk.softmax(x) * x, [signed(3, 4)])


def test_create_parameter_on_tensor():
    p = opsdk.Tensor.create_parameter([2, 3], "float32")
    assert p.shape == [2, 3] and p.stop_gradient is False


def test_autocast_names():
    assert opsdk.is_autocast_enabled() is False
    with opsdk.autocast("cpu"):
        assert opsdk.is_autocast_enabled() is True
        y = opsdk.matmul(opsdk.ones([2, 2]), opsdk.ones([2, 2]))
    assert str(y.dtype) == "paddle.float16"
    assert opsdk.get_autocast_dtype() == opsdk.get_autocast_cpu_dtype() == "float16"
    assert opsdk.get_autocast_gpu_dtype() == "float16"
    with opsdk.autocast("cpu", enabled=False):
        assert opsdk.is_autocast_enabled() is False
