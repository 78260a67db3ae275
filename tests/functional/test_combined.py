"""lerp, addmm, dist, diff: values and gradients (numeric, second order; Paddle where
installed), Paddle's special cases (dist's p = 0 and inf, lerp's constant weight)."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import OpArgumentError
from helpers.frameworks import paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import distinct, signed


def test_gradients_match_central_differences_to_second_order():
    a, b, w = signed(2, 3), signed(2, 3, seed=1), signed(2, 3, seed=2)
    assert_gradients(lambda x, y: opsdk.lerp(x, y, 0.3), [a, b])
    assert_gradients(lambda i, x, y: opsdk.addmm(i, x, y, 0.5, 2.0),
                     [signed(3), signed(2, 4), signed(4, 3, seed=3)])
    assert_gradients(lambda x, y: opsdk.dist(x, y, 3), [a, b])
    assert_gradients(lambda x, y: opsdk.dist(x, y), [a, b])
    assert_gradients(lambda x: opsdk.diff(x, n=2, axis=1), [signed(2, 5)])
    assert_gradients(lambda x, p: opsdk.diff(x, prepend=p, axis=0), [signed(2, 3), w[:1]])


def test_lerp_with_a_tensor_weight_gives_the_weight_no_gradient_as_paddle():
    x, y = opsdk.to_tensor([0.5, 2.0], stop_gradient=False), opsdk.to_tensor([3.0, 1.0])
    w = opsdk.to_tensor([0.2, 0.7], stop_gradient=False)
    opsdk.lerp(x, y, w).sum().backward()
    assert w.grad is None
    np.testing.assert_allclose(x.grad.numpy(), [0.8, 0.3], rtol=1e-6)


def test_dist_at_p_zero_counts_and_inf_takes_the_largest():
    x = opsdk.to_tensor([1.0, 2.0, 5.0], stop_gradient=False)
    y = opsdk.to_tensor([1.0, 4.0, 2.0])
    d0 = opsdk.dist(x, y, 0)
    assert d0.item() == 2.0 and d0.shape == [] and not d0.stop_gradient
    d0.backward()
    assert x.grad.numpy().tolist() == [0.0, 0.0, 0.0]
    assert opsdk.dist(x, y, float("inf")).item() == 3.0
    assert opsdk.dist(x, y, float("-inf")).item() == 0.0


def test_diff_values_and_bad_arguments():
    x = opsdk.to_tensor([1.0, 4.0, 9.0, 16.0])
    assert opsdk.diff(x, n=2).numpy().tolist() == [2.0, 2.0]
    assert opsdk.diff(x, n=5).shape == [0]
    assert opsdk.diff(opsdk.to_tensor([1, 4, 9])).dtype == np.int64
    with pytest.raises(OpArgumentError, match="diff: argument 'n'"):
        opsdk.diff(x, n=-1)
    with pytest.raises(OpArgumentError, match="at least one dimension"):
        opsdk.diff(opsdk.to_tensor(1.0))


def test_diff_of_booleans_is_whether_neighbours_differ():
    # booleans have no subtraction; Paddle 3.3.1 gives [True, False, True] here
    out = opsdk.diff(opsdk.to_tensor([True, False, False, True]))
    assert out.dtype == np.bool_ and out.numpy().tolist() == [True, False, True]


def test_addmm_refuses_a_non_matrix():
    with pytest.raises(OpArgumentError, match="addmm: argument 'x' must be a matrix"):
        opsdk.addmm(opsdk.ones([2]), opsdk.ones([2]), opsdk.ones([2, 2]))


test_values_and_gradients_match_paddle = paddle_cases({
    "lerp": (lambda P, x, y: P.lerp(x, y, 0.3), [signed(2, 3), signed(2, 3, seed=1)]),
    "addmm": (lambda P, i, x, y: P.addmm(i, x, y, beta=0.5, alpha=2.0),
              [signed(3), signed(2, 4), signed(4, 3, seed=3)]),
    "dist2": (lambda P, x, y: P.dist(x, y), [signed(2, 3), signed(2, 3, seed=1)]),
    "dist3": (lambda P, x, y: P.dist(x, y, 3), [signed(2, 3), signed(2, 3, seed=1)]),
    "dist_inf": (lambda P, x, y: P.dist(x, y, float("inf")), [distinct(2, 3), signed(2, 3)]),
    "dist0": (lambda P, x, y: P.dist(x, y, 0), [signed(2, 3), signed(2, 3, seed=1)]),
    "diff": (lambda P, x: P.diff(x, n=2, axis=0), [signed(4, 3)]),
    "diff_append": (lambda P, x, a: P.diff(x, append=a), [signed(2, 3), signed(2, 1)]),
    "stanh_method": (lambda P, x: x.stanh(), [signed(3)]),
})
