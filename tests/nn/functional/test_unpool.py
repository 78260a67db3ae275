"""max_unpool1d/2d/3d: values, shapes and gradients vs Paddle 3.3.1 (masks
from max_pool, repeated indices, output_size forms, Paddle's 1-D padding quirks); the errors
as Paddle's classes."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_raises_as_paddle, assert_same_as_paddle
from helpers.gradients import assert_gradients

RNG = np.random.default_rng(11)
X2 = RNG.standard_normal((2, 3, 6, 8))


@pytest.mark.paddle
@pytest.mark.parametrize("pool, unpool", [
    (dict(kernel_size=2), dict(kernel_size=2)),
    (dict(kernel_size=3, stride=2, padding=1), dict(kernel_size=3, stride=2, padding=1)),  # 5x7
    (dict(kernel_size=3, stride=1), dict(kernel_size=3, stride=1)),  # overlapping windows
    (dict(kernel_size=2), dict(kernel_size=2, output_size=[7, 9])),
    (dict(kernel_size=2), dict(kernel_size=2, output_size=[2, 3, 7, 7])),
])
def test_max_unpool2d_of_max_pool2d_matches_paddle(pool, unpool):
    def fn(P, a):
        y, mask = P.nn.functional.max_pool2d(a, return_mask=True, **pool)
        return P.nn.functional.max_unpool2d(y, mask, **unpool)
    # the mask indexes the pooled input: the unpooled size must be the input's (or more)
    assert_same_as_paddle(fn, [X2[:, :, :5, :7] if pool.get("padding") else X2])


@pytest.mark.paddle
def test_repeated_indices_keep_the_last_value_and_all_get_gradients_as_paddle():
    x = np.arange(1.0, 5.0).reshape(1, 1, 2, 2)
    idx = np.array([[[[0, 0], [5, 15]]]])
    for dt in ("float32", "float64"):
        assert_same_as_paddle(lambda P, a, i: P.nn.functional.max_unpool2d(a, i, 2), [x, idx],
                              dtypes=[dt, "int32"])
    assert_same_as_paddle(lambda P, a, i: P.nn.functional.max_unpool2d(a, i, 2), [x, idx],
                          dtypes=["int64", "int32"], diff=())


@pytest.mark.paddle
@pytest.mark.parametrize("kw", [dict(), dict(padding=[1, 2]), dict(padding="SAME"),
                                dict(output_size=[2, 3, 17]), dict(output_size=(2, 3, 17)),
                                dict(stride=3, padding=[[0, 0], [0, 0], [1, 1]])])
def test_max_unpool1d_matches_paddle(kw):
    x = X2[:, :, 0]
    def fn(P, a):
        y, mask = P.nn.functional.max_pool1d(a, 2, return_mask=True)
        return P.nn.functional.max_unpool1d(y, mask, 2, **kw)
    assert_same_as_paddle(fn, [np.concatenate([x, x], axis=2)])


@pytest.mark.paddle
@pytest.mark.parametrize("kw", [dict(), dict(output_size=[5, 5, 5]), dict(stride=[2, 1, 2])])
def test_max_unpool3d_matches_paddle(kw):
    x = RNG.standard_normal((1, 2, 4, 4, 4))
    def fn(P, a):
        y, mask = P.nn.functional.max_pool3d(a, 2, stride=kw.get("stride"), return_mask=True)
        return P.nn.functional.max_unpool3d(y, mask, 2, **kw)
    assert_same_as_paddle(fn, [x])


@pytest.mark.paddle
@pytest.mark.parametrize("call", [
    lambda P, x, i: P.nn.functional.max_unpool2d(x, i + 1, 2),  # an index past the plane
    lambda P, x, i: P.nn.functional.max_unpool2d(x, i, 2, padding=1),  # a smaller plane
    lambda P, x, i: P.nn.functional.max_unpool2d(x, i, 2, padding=[1, 1, 1, 1]),
    lambda P, x, i: P.nn.functional.max_unpool2d(x, i, 2, output_size=[6, 5]),
    lambda P, x, i: P.nn.functional.max_unpool2d(x, i, 2, output_size=[1, 5, 4, 4, 4]),
    lambda P, x, i: P.nn.functional.max_unpool2d(x, i, 2, data_format="NHWC"),
    lambda P, x, i: P.nn.functional.max_unpool2d(x, i[:, :, :1], 2),
    lambda P, x, i: P.nn.functional.max_unpool2d(x[0], i[0], 2),
    lambda P, x, i: P.nn.functional.max_unpool2d(x.astype("int32"), i, 2),
    lambda P, x, i: P.nn.functional.max_unpool2d(x, i.astype("float32"), 2),
    lambda P, x, i: P.nn.functional.max_unpool1d(x[:, :, 0], i[:, :, 0], 2, output_size=[5]),
    lambda P, x, i: P.nn.functional.max_unpool1d(x[:, :, 0], i[:, :, 0], 2,
                                                 data_format="NLC"),
    lambda P, x, i: P.nn.functional.max_unpool3d(x, i, 2),
])
def test_errors_are_paddles_classes(call):
    x = np.arange(1.0, 5.0).reshape(1, 1, 2, 2)
    i = np.array([[[[0, 3], [9, 15]]]], dtype=np.int32)
    assert_raises_as_paddle(lambda P: call(P, P.to_tensor(x), P.to_tensor(i)))


def test_error_messages_name_the_op_and_argument():
    x, i = opsdk.ones([1, 1, 2, 2]), opsdk.to_tensor(np.array([[[[0, 3], [9, 16]]]], "int32"))
    with pytest.raises(ValueError, match=r"max_unpool2d: every index must lie in \[0, 16\)"):
        F.max_unpool2d(x, i, 2)
    with pytest.raises(ValueError, match="max_unpool2d: invalid output_size \\[6, 5\\]: dim 0"):
        F.max_unpool2d(x, i, 2, output_size=[6, 5])
    with pytest.raises(ValueError, match="max_unpool3d: argument 'data_format' must be 'NCDHW'"):
        F.max_unpool3d(x, i, 2, data_format="NDHWC")


@pytest.mark.slow  # central differences of second order
def test_gradients_hold_to_second_order():
    # distinct indices: with a repeated one Paddle's gradient is not the derivative (the value
    # overwritten gets a gradient too), as the Paddle test above shows
    idx = opsdk.to_tensor(np.array([[[[0, 3], [5, 15]]]], "int32"))
    assert_gradients(lambda a: F.max_unpool2d(a, idx, 2) ** 2, [X2[:1, :1, :2, :2]])
