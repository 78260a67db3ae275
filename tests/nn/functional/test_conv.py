"""conv1d, conv2d, max_pool2d, avg_pool2d, batch_norm: values by hand, gradients to second
order (central differences), and Paddle's values and gradients."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_same_as_paddle
from helpers.gradients import assert_first_order, assert_gradients
from helpers.samples import signed

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 4, 5, 4))
W = RNG.standard_normal((4, 2, 3, 2))


def test_values_by_hand():
    x = opsdk.to_tensor(np.arange(16.0).reshape(1, 1, 4, 4))
    assert F.conv2d(x, opsdk.ones([1, 1, 2, 2], dtype="float64")).numpy()[0, 0, 0].tolist() == \
        [10.0, 14.0, 18.0]
    assert F.max_pool2d(x, 2).numpy()[0, 0].tolist() == [[5.0, 7.0], [13.0, 15.0]]
    assert F.avg_pool2d(x, 2).numpy()[0, 0].tolist() == [[2.5, 4.5], [10.5, 12.5]]
    # exclusive: the corner window holds 4 real values of 9
    assert F.avg_pool2d(x, 3, stride=3, padding=1).numpy()[0, 0, 0, 0] == (0 + 1 + 4 + 5) / 4
    y = F.conv1d(opsdk.to_tensor([[[1.0, 2.0, 3.0]]]), opsdk.to_tensor([[[1.0, -1.0]]]))
    assert y.numpy().tolist() == [[[-1.0, -1.0]]]


def test_first_order_gradients_match_central_differences():
    x, w = X[:1, :2, :3, :3], W[:2, :1, :2, :2]
    assert_first_order(lambda a, b: F.conv2d(a, b, padding=1, groups=2), [x, w])
    assert_first_order(lambda a: F.max_pool2d(a, 2, stride=1) + F.avg_pool2d(a, 2, padding=1), [x])


@pytest.mark.slow  # central differences of second order over every element: ~6 s
def test_gradients_hold_to_second_order():
    x, w = X[:1, :2, :3, :3], W[:2, :1, :2, :2]
    assert_gradients(lambda a, b: F.conv2d(a, b, stride=[2, 1], padding=1, groups=2), [x, w])
    assert_gradients(lambda a: F.max_pool2d(a, 2, padding=1), [x])
    assert_gradients(lambda a: F.avg_pool2d(a, 3, stride=2, padding=1), [x])
    rm, rv = opsdk.zeros([2], dtype="float64"), opsdk.ones([2], dtype="float64")
    assert_gradients(lambda a, g: F.batch_norm(a, rm, rv, g, None, training=True),
                     [X[:2, :2, :2, 0], X[1, 0, 0, :2]])


def test_batch_norm_updates_the_running_statistics_as_paddle():
    x = opsdk.to_tensor(X)
    rm, rv = opsdk.zeros([4], dtype="float64"), opsdk.ones([4], dtype="float64")
    F.batch_norm(x, rm, rv, training=True, momentum=0.9)
    np.testing.assert_allclose(rm.numpy(), 0.1 * X.mean(axis=(0, 2, 3)))
    # the biased batch variance, as Paddle
    np.testing.assert_allclose(rv.numpy(), 0.9 + 0.1 * X.var(axis=(0, 2, 3)))


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="conv2d: x has 4 channels"):
        F.conv2d(opsdk.to_tensor(X), opsdk.to_tensor(W), groups=1)
    with pytest.raises(ValueError, match="max_pool2d: padding='VALID' needs ceil_mode=False"):
        F.max_pool2d(opsdk.to_tensor(X), 2, padding="VALID", ceil_mode=True)
    with pytest.raises(ValueError, match="max_pool2d: return_mask=True needs data_format='NCHW'"):
        F.max_pool2d(opsdk.to_tensor(X), 2, return_mask=True, data_format="NHWC")


def test_ceil_mode_windows_and_mask_by_hand():
    x = opsdk.to_tensor(np.arange(25.0).reshape(1, 1, 5, 5))
    # the last window of each axis holds only the last row / column
    assert F.max_pool2d(x, 2, ceil_mode=True).numpy()[0, 0].tolist() == \
        [[6.0, 8.0, 9.0], [16.0, 18.0, 19.0], [21.0, 23.0, 24.0]]
    # exclusive: the corner window averages its one value
    assert F.avg_pool2d(x, 2, ceil_mode=True).numpy()[0, 0, 2, 2] == 24.0
    y, mask = F.max_pool2d(x, 2, return_mask=True)
    assert mask.numpy()[0, 0].tolist() == [[6, 8], [16, 18]] and mask.dtype == "int32"


def test_divisor_override_rescales_the_mean_as_paddle():
    # Paddle: mean * kh * kw / divisor; at a padded window the exclusive mean counts fewer places
    x = opsdk.to_tensor(np.arange(25.0).reshape(1, 1, 5, 5))
    y = F.avg_pool2d(x, 2, 2, padding=1, divisor_override=2).numpy()[0, 0]
    assert y[0].tolist() == [0.0, 3.0, 7.0] and y[1, 1] == 18.0


CASES = {
    "conv2d": (lambda P, x, w: P.nn.functional.conv2d(x, w, stride=[2, 1], padding=[1, 2],
                                                      dilation=[1, 2], groups=2), [X, W]),
    "conv2d_same_nhwc": (lambda P, x, w: P.nn.functional.conv2d(
        x, w, padding="SAME", groups=2, data_format="NHWC"), [X.transpose(0, 2, 3, 1), W]),
    "conv1d": (lambda P, x, w: P.nn.functional.conv1d(x, w, stride=2, padding=1, dilation=2),
               [X[:, :, 0], W[:, :, 0] * 1]),
    "max_pool2d": (lambda P, x: P.nn.functional.max_pool2d(x, 3, stride=2, padding=1), [X]),
    "avg_pool2d": (lambda P, x: P.nn.functional.avg_pool2d(x, 3, stride=2, padding=1), [X]),
    "max_pool2d_ceil": (lambda P, x: P.nn.functional.max_pool2d(x, [2, 3], stride=[2, 2],
                                                                ceil_mode=True), [X]),
    "max_pool2d_mask": (lambda P, x: P.nn.functional.max_pool2d(x, 2, padding=1,
                                                                return_mask=True), [X]),
    "avg_pool2d_ceil": (lambda P, x: P.nn.functional.avg_pool2d(x, 3, stride=2, padding=1,
                                                                ceil_mode=True), [X]),
    "avg_pool2d_ceil_inclusive": (lambda P, x: P.nn.functional.avg_pool2d(
        x, 2, padding=[0, 1, 1, 0], ceil_mode=True, exclusive=False), [X]),
    "avg_pool2d_inclusive_uneven_pad": (lambda P, x: P.nn.functional.avg_pool2d(
        x, 3, stride=2, padding="SAME", exclusive=False), [X]),
    "avg_pool2d_divisor": (lambda P, x: P.nn.functional.avg_pool2d(
        x, 2, stride=2, padding=1, divisor_override=3), [X]),
}


@pytest.mark.paddle
@pytest.mark.parametrize("case", CASES)
def test_values_and_gradients_match_paddle(case):
    fn, arrays = CASES[case]
    if case == "conv1d":
        arrays = [arrays[0], RNG.standard_normal((3, 4, 3))]
    # Paddle's pooling gradients are float32-accurate even in float64
    assert_same_as_paddle(fn, arrays, diff=tuple(range(len(arrays))), rtol=1e-6, atol=1e-7)


@pytest.mark.paddle
def test_same_padding_ignores_the_dilation_as_paddle():
    assert_same_as_paddle(lambda P, a, k: P.nn.functional.conv2d(a, k, padding="SAME",
                                                                  dilation=2, stride=2),
                          [X, W[:, :, :3, :3].repeat(2, axis=1)], diff=(0, 1))
    assert_same_as_paddle(lambda P, a, k: P.nn.functional.conv1d(a, k, padding="SAME",
                                                                  dilation=3),
                          [X[:, :, 0], W[:, :, 0].repeat(2, axis=1)], diff=(0, 1))


@pytest.mark.paddle
@pytest.mark.parametrize("fmt, pairs", [
    ("NCHW", [[0, 0], [0, 0], [1, 0], [2, 1]]),
    ("NHWC", [[0, 0], [1, 0], [2, 1], [0, 0]]),
])
def test_conv2d_padding_as_one_pair_per_axis_of_x_as_paddle(fmt, pairs):
    x = np.random.default_rng(5).standard_normal((1, 4, 4, 2) if fmt == "NHWC" else (1, 2, 4, 4))
    w = np.random.default_rng(6).standard_normal((3, 2, 2, 2))
    assert_same_as_paddle(lambda P, a, b: P.nn.functional.conv2d(
        a, b, padding=pairs, data_format=fmt), [x, w])


@pytest.mark.paddle
def test_conv1d_padding_as_pairs_and_a_padded_channel_refused_as_paddle():
    x, w = signed(1, 2, 5, seed=7), signed(3, 2, 2, seed=8)
    assert_same_as_paddle(lambda P, a, b: P.nn.functional.conv1d(
        a, b, padding=[[0, 0], [0, 0], [2, 1]]), [x, w])
    with pytest.raises(ValueError, match="batch or channel"):
        F.conv2d(opsdk.ones([1, 1, 3, 3]), opsdk.ones([1, 1, 2, 2]),
                 padding=[[0, 0], [1, 1], [1, 1], [1, 1]])
