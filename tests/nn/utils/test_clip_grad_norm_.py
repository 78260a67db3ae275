"""nn.utils.clip_grad_norm_ (in place on param.grad), with Paddle's norm orders and errors."""
import math

import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpArgumentError, StateError


def _params(*grads):
    ps = []
    for g in grads:
        p = paddle.create_parameter([len(g)], "float32")
        p.grad = paddle.to_tensor(g)
        ps.append(p)
    return ps


def test_clip_grad_norm_scales_in_place_and_returns_the_norm_before():
    ps = _params([3.0, 0.0], [0.0, 4.0])
    total = paddle.nn.utils.clip_grad_norm_(ps, max_norm=1.0)
    assert total.item() == pytest.approx(5.0)
    after = math.sqrt(sum(float((p.grad.numpy() ** 2).sum()) for p in ps))
    assert after == pytest.approx(1.0, rel=1e-5)


def test_clip_grad_norm_leaves_small_gradients_alone():
    ps = _params([0.3, 0.4])
    paddle.nn.utils.clip_grad_norm_(ps, max_norm=1.0)
    np.testing.assert_allclose(ps[0].grad.numpy(), [0.3, 0.4])


def test_clip_grad_norm_infinity_norm_uses_the_largest_element():
    ps = _params([1.0, -6.0], [2.0])
    assert paddle.nn.utils.clip_grad_norm_(ps, 3.0, norm_type=float("inf")).item() == 6.0
    np.testing.assert_allclose(ps[0].grad.numpy(), [0.5, -3.0], rtol=1e-5)


def test_clip_grad_norm_can_refuse_a_nonfinite_norm():
    ps = _params([float("nan"), 1.0])
    # Paddle raises RuntimeError here: StateError is one
    with pytest.raises(StateError, match="error_if_nonfinite") as info:
        paddle.nn.utils.clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)
    assert isinstance(info.value, RuntimeError)


@pytest.mark.parametrize("order", [3.0, 0.5, -1.0, float("-inf")])
def test_clip_grad_norm_refuses_orders_paddle_does_not_have(order):
    with pytest.raises(OpArgumentError, match="norm_type must be one of inf, 0, 1, 2"):
        paddle.nn.utils.clip_grad_norm_(_params([3.0, 4.0]), 1.0, norm_type=order)


def test_clip_grad_norm_order_one_sums_all_absolute_values():
    ps = _params([3.0, -4.0], [2.0])
    total = paddle.nn.utils.clip_grad_norm_(ps, 100.0, norm_type=1)
    assert total.item() == 9.0


def test_clip_grad_norm_order_zero_counts_parameters_with_a_nonzero_norm():
    # Paddle takes the norm of the per-parameter norms: order 0 counts nonzero ones
    ps = _params([3.0, 0.0, -4.0], [0.0, 0.0], [1.0])
    total = paddle.nn.utils.clip_grad_norm_(ps, 100.0, norm_type=0)
    assert total.item() == 2.0


def test_clip_grad_norm_importable_from_its_module_path():
    from opsdk.nn.utils.clip_grad_norm_ import clip_grad_norm_
    assert clip_grad_norm_ is paddle.nn.utils.clip_grad_norm_
