"""nn.utils.clip_grad_norm_ / clip_grad_value_ (in place on param.grad)."""
import math

import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpArgumentError


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
    with pytest.raises(OpArgumentError, match="error_if_nonfinite"):
        paddle.nn.utils.clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)


def test_clip_grad_value_clamps_in_place():
    ps = _params([-5.0, 0.2, 5.0])
    paddle.nn.utils.clip_grad_value_(ps, 1.0)
    np.testing.assert_allclose(ps[0].grad.numpy(), [-1.0, 0.2, 1.0], rtol=1e-6)
