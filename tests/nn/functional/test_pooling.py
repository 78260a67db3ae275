"""max_pool1d, avg_pool1d, adaptive_{avg,max}_pool{1,2,3}d, fractional_max_pool2d/3d: values
by hand (overlapping adaptive bins, windows in the padding), gradients to second order (central
differences and Paddle where Paddle has them), masks and ties as Paddle's (fractional windows
for a given random_u), named errors."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_same_as_paddle, import_paddle, paddle_cases
from helpers.gradients import assert_gradients

RNG = np.random.default_rng(3)
X1 = RNG.standard_normal((2, 3, 7))
X2 = RNG.standard_normal((2, 2, 5, 7))
X3 = RNG.standard_normal((1, 2, 3, 5, 4))
# integers: many ties, so the choice among equal maxima shows
T1 = np.round(RNG.standard_normal((2, 2, 9)))
T2 = np.round(RNG.standard_normal((1, 2, 6, 7)))


def _t(values):
    return opsdk.to_tensor(np.asarray(values, dtype="float64"))


def test_values_by_hand():
    x = _t(np.arange(1.0, 8.0).reshape(1, 1, 7))
    # bins [0,2) [1,3) [2,5) [4,6) [5,7): floor(o * 7 / 5), ceil((o + 1) * 7 / 5), overlapping
    assert F.adaptive_avg_pool1d(x, 5).numpy()[0, 0].tolist() == [1.5, 2.5, 4.0, 5.5, 6.5]
    assert F.adaptive_max_pool1d(x, 5).numpy()[0, 0].tolist() == [2.0, 3.0, 5.0, 6.0, 7.0]
    # more bins than places: each bin still holds one
    assert F.adaptive_max_pool1d(x, 10).numpy()[0, 0].tolist() == \
        [1.0, 2.0, 3.0, 3.0, 4.0, 5.0, 5.0, 6.0, 7.0, 7.0]
    # exclusive divides by the real places; not exclusive by the kernel (clipped at L + pad)
    assert F.avg_pool1d(x, 3, 2, 1).numpy()[0, 0].tolist() == [1.5, 3.0, 5.0, 6.5]
    np.testing.assert_allclose(F.avg_pool1d(x, 3, 2, 1, exclusive=False).numpy()[0, 0],
                               [1.0, 3.0, 5.0, 13 / 3])
    # ceil_mode adds a window reaching into the padding; one wholly there averages to 0 / -1
    # (exclusive) or 0 / 0, and maxes to -FLT_MAX with mask -1, as Paddle's kernels give
    y = F.avg_pool1d(x, 2, 3, 1, ceil_mode=True).numpy()[0, 0]
    assert y.tolist() == [1.0, 3.5, 6.5, 0.0] and np.signbit(y[3])
    y = F.avg_pool1d(x, 2, 3, 1, exclusive=False, ceil_mode=True).numpy()[0, 0]
    assert y[:3].tolist() == [0.5, 3.5, 6.5] and np.isnan(y[3])
    y, mask = F.max_pool1d(x, 3, 2, 3, return_mask=True)
    assert y.numpy()[0, 0, 1:5].tolist() == [2.0, 4.0, 6.0, 7.0]
    assert y.numpy()[0, 0, 0] == -np.finfo(np.float32).max
    assert mask.numpy()[0, 0].tolist() == [-1, 1, 3, 5, 6, -1] and mask.dtype == opsdk.int32
    # 'SAME' pads (total // 2 before); with return_mask Paddle's kernel ignores it
    assert F.max_pool1d(x, 4, 2, "SAME").numpy()[0, 0].tolist() == [3.0, 5.0, 7.0, 7.0]
    assert F.max_pool1d(x, 4, 2, "SAME", return_mask=True)[1].numpy()[0, 0].tolist() == [3, 5]


def test_adaptive_2d_and_3d_by_hand():
    x = _t(np.arange(1.0, 36.0).reshape(1, 1, 5, 7))
    assert F.adaptive_avg_pool2d(x, [2, 3]).numpy()[0, 0].tolist() == \
        [[9.0, 11.0, 13.0], [23.0, 25.0, 27.0]]
    y, mask = F.adaptive_max_pool2d(x, [2, 3], return_mask=True)
    assert y.numpy()[0, 0].tolist() == [[17.0, 19.0, 21.0], [31.0, 33.0, 35.0]]
    assert mask.numpy()[0, 0].tolist() == [[16, 18, 20], [30, 32, 34]]  # h * W + w
    # None keeps an axis; NHWC pools axes 1 and 2
    assert F.adaptive_avg_pool2d(x, [None, 3]).shape == [1, 1, 5, 3]
    assert F.adaptive_avg_pool2d(x, 2, data_format="NHWC").shape == [1, 2, 2, 7]
    x3 = _t(np.arange(60.0).reshape(1, 1, 3, 4, 5))
    y, mask = F.adaptive_max_pool3d(x3, [2, 3, 2], return_mask=True)
    assert mask.numpy()[0, 0, 1].tolist() == [[47, 49], [52, 54], [57, 59]]
    assert F.adaptive_avg_pool3d(x3, [1, None, 1]).numpy()[0, 0, 0, :, 0].tolist() == \
        [22.0, 27.0, 32.0, 37.0]


FNS = {
    "avg_pool1d": lambda a: F.avg_pool1d(a * a, 3, 2, 1, exclusive=False, ceil_mode=True),
    "max_pool1d": lambda a: F.max_pool1d(a, 3, 2, [1, 2]) ** 2,
    "adaptive_avg_pool1d": lambda a: F.adaptive_avg_pool1d(a, 4) ** 2,
    "adaptive_max_pool1d": lambda a: F.adaptive_max_pool1d(a * a, 3),
    "adaptive_avg_pool2d": lambda a: F.adaptive_avg_pool2d(a, [2, 3]) ** 2,
    "adaptive_max_pool2d": lambda a: F.adaptive_max_pool2d(a, [2, 3]) ** 2,
    "adaptive_avg_pool3d": lambda a: F.adaptive_avg_pool3d(a, [1, 2, 2]) ** 2,
    "adaptive_max_pool3d": lambda a: F.adaptive_max_pool3d(a, [1, 2, 2]) ** 2,
}


@pytest.mark.parametrize("name", FNS)
def test_gradients_hold_to_second_order(name):
    # small (central differences of second order cost the square of the size); the bins of
    # 3 -> 2 and 4 -> 3 overlap
    x = {"1": X1[:1, :2], "2": X2[:1, :1, :3, :4], "3": X3[:, :1, :2, :3, :3]}[name[-2]]
    assert_gradients(FNS[name], [x])


test_values_and_gradients_match_paddle = paddle_cases({
    "avg_pool1d": (lambda P, x: P.nn.functional.avg_pool1d(x, 3, 2, [1, 2]), [X1]),
    "avg_pool1d_ceil": (lambda P, x: P.nn.functional.avg_pool1d(
        x, 4, 3, 1, exclusive=False, ceil_mode=True), [X1]),
    "avg_pool1d_same": (lambda P, x: P.nn.functional.avg_pool1d(x, 4, 2, "SAME"), [X1]),
    "max_pool1d": (lambda P, x: P.nn.functional.max_pool1d(x, 3, 2, 1, ceil_mode=True), [X1]),
    "max_pool1d_mask": (lambda P, x: P.nn.functional.max_pool1d(x, 2, 1, 1, return_mask=True),
                        [T1]),
    "max_pool1d_ties": (lambda P, x: P.nn.functional.max_pool1d(x, 3, 1, [0, 1]), [T1]),
    "adaptive_avg_pool1d": (lambda P, x: P.nn.functional.adaptive_avg_pool1d(x, 5), [X1]),
    "adaptive_max_pool1d": (lambda P, x: P.nn.functional.adaptive_max_pool1d(
        x, 4, return_mask=True), [T1]),
    "adaptive_avg_pool2d": (lambda P, x: P.nn.functional.adaptive_avg_pool2d(x, [3, 4]), [X2]),
    "adaptive_avg_pool2d_nhwc": (lambda P, x: P.nn.functional.adaptive_avg_pool2d(
        x, [None, 2], data_format="NHWC"), [X2]),
    "adaptive_max_pool2d": (lambda P, x: P.nn.functional.adaptive_max_pool2d(
        x, [4, 3], return_mask=True), [T2]),
    "adaptive_max_pool2d_upsampled": (lambda P, x: P.nn.functional.adaptive_max_pool2d(
        x, [7, 9]), [X2]),
    "adaptive_avg_pool3d": (lambda P, x: P.nn.functional.adaptive_avg_pool3d(
        x, [2, 3, None]), [X3]),
    "adaptive_avg_pool3d_ndhwc": (lambda P, x: P.nn.functional.adaptive_avg_pool3d(
        x, 2, data_format="NDHWC"), [X3]),
    "adaptive_max_pool3d": (lambda P, x: P.nn.functional.adaptive_max_pool3d(
        x, [2, 3, 3], return_mask=True), [X3]),
})


@pytest.mark.paddle
@pytest.mark.parametrize("case", ["avg_pool1d", "adaptive_avg_pool1d", "adaptive_avg_pool2d"])
def test_second_order_matches_paddle(case):
    """Paddle has double gradients for the average pools in 1-D and 2-D only."""
    fn = {"avg_pool1d": lambda P, a: P.nn.functional.avg_pool1d(a, 3, 2, 1, exclusive=False),
          "adaptive_avg_pool1d": lambda P, a: P.nn.functional.adaptive_avg_pool1d(a, 5),
          "adaptive_avg_pool2d": lambda P, a: P.nn.functional.adaptive_avg_pool2d(a, [3, 4])}
    x = X2 if case.endswith("2d") else X1
    results = []
    for P in (import_paddle(), opsdk):
        t = P.to_tensor(x, stop_gradient=False)
        y = fn[case](P, t)
        (g,) = P.grad((y * y * y).sum(), t, create_graph=True)
        (h,) = P.grad((g * g).sum(), t)
        results.append((g.numpy(), h.numpy()))
    for theirs, ours in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7)


def test_bad_input_is_named():
    x = _t(X1)
    with pytest.raises(ValueError, match="max_pool1d: expected: x with 3 dims NCL; got: shape "
                                         r"\[2, 2, 5, 7\]"):
        F.max_pool1d(_t(X2), 2)
    with pytest.raises(ValueError, match="avg_pool1d: argument 'kernel_size' must be an int or 1"):
        F.avg_pool1d(x, [2, 2])
    with pytest.raises(ValueError, match="'kernel_size' and 'stride' must be >= 1"):
        F.avg_pool1d(x, 0)
    with pytest.raises(ValueError, match="padding='VALID' needs ceil_mode=False"):
        F.max_pool1d(x, 2, padding="valid", ceil_mode=True)
    with pytest.raises(ValueError, match="return_mask=True needs a symmetric padding"):
        F.max_pool1d(x, 3, padding=[0, 1], return_mask=True)
    with pytest.raises(ValueError, match="the output would have -1 places"):
        F.avg_pool1d(x, 9, stride=1)
    with pytest.raises(TypeError, match="adaptive_avg_pool2d: argument 'output_size' must "
                                        "hold ints or None; got: 2.0"):
        F.adaptive_avg_pool2d(_t(X2), [2.0, 3])
    with pytest.raises(ValueError, match="adaptive_max_pool1d: argument 'output_size' must "
                                         "hold ints; got: None"):
        F.adaptive_max_pool1d(x, [None])
    with pytest.raises(ValueError, match="'output_size' must be >= 0; got: -1"):
        F.adaptive_avg_pool1d(x, -1)
    with pytest.raises(ValueError, match="'data_format' must be 'NCDHW' or 'NDHWC'; got: 'NCHW'"):
        F.adaptive_avg_pool3d(_t(X3), 2, data_format="NCHW")
    with pytest.raises(TypeError, match="adaptive_max_pool2d: argument 'x' must be a float"):
        F.adaptive_max_pool2d(opsdk.ones([1, 1, 2, 2], dtype="int64"), 1)


def test_keyword_aliases_and_top_level_name():
    x = _t(X1)
    y, mask = F.adaptive_max_pool1d(input=x, output_size=3, return_indices=True)
    assert mask.shape == [2, 3, 3]
    assert opsdk.adaptive_avg_pool1d is F.adaptive_avg_pool1d


@pytest.mark.paddle
def test_errors_are_paddles_kind():
    paddle = import_paddle()
    for P in (paddle, opsdk):
        x = P.to_tensor(X1)
        with pytest.raises(ValueError):
            P.nn.functional.avg_pool1d(x, 3, padding="same_ish")
        with pytest.raises(ValueError):
            P.nn.functional.max_pool1d(x, 3, padding=[1, 2], return_mask=True)
        with pytest.raises(TypeError):
            P.nn.functional.adaptive_max_pool2d(P.to_tensor(X2), [2.0, 3])


@pytest.mark.paddle
def test_float32_matches_paddle():
    assert_same_as_paddle(lambda P, x: P.nn.functional.adaptive_avg_pool2d(x, [3, 5]),
                          [X2], dtypes=["float32"], rtol=1e-5, atol=1e-6)


FRACTIONAL_X = np.random.default_rng(1).standard_normal((2, 3, 7, 9))


@pytest.mark.paddle
@pytest.mark.parametrize("kw", [
    dict(output_size=[3, 3], random_u=0.3), dict(output_size=5, random_u=0.5),
    dict(output_size=[2, 5], random_u=0.7), dict(output_size=[3, 4], kernel_size=2,
                                                  random_u=0.6),
    dict(output_size=[None, 3], random_u=0.6), dict(output_size=[7, 1], random_u=0.2),
    dict(output_size=[1, 1], kernel_size=2, random_u=0.4), dict(output_size=[6, 8],
                                                                random_u=0.9),
    dict(output_size=[4, 4], return_mask=True, random_u=0.35),
])
def test_fractional_max_pool2d_matches_paddle(kw):
    assert_same_as_paddle(lambda P, a: P.nn.functional.fractional_max_pool2d(a, **kw),
                          [FRACTIONAL_X])


@pytest.mark.paddle
@pytest.mark.parametrize("kw", [dict(output_size=[2, 3, 4], random_u=0.4),
                                dict(output_size=3, kernel_size=2, random_u=0.8,
                                     return_mask=True)])
def test_fractional_max_pool3d_matches_paddle(kw):
    x = FRACTIONAL_X[:1, :2, :5, :6, None].repeat(7, 4)
    assert_same_as_paddle(lambda P, a: P.nn.functional.fractional_max_pool3d(a, **kw), [x])


def test_fractional_max_pool_draws_its_windows_when_random_u_is_none():
    x = opsdk.to_tensor(FRACTIONAL_X)
    y, mask = F.fractional_max_pool2d(x, [3, 4], return_mask=True)
    assert y.shape == [2, 3, 3, 4] and mask.dtype == opsdk.int32
    np.testing.assert_array_equal(y.numpy(), np.take_along_axis(
        FRACTIONAL_X.reshape(2, 3, -1), mask.numpy().reshape(2, 3, -1), -1).reshape(y.shape))


@pytest.mark.paddle
@pytest.mark.parametrize("call", [
    lambda P, x: P.nn.functional.fractional_max_pool2d(x, 3, random_u=1.0),
    lambda P, x: P.nn.functional.fractional_max_pool2d(x, 3, random_u=-0.5),
    lambda P, x: P.nn.functional.fractional_max_pool2d(x, 9, random_u=0.5),
    lambda P, x: P.nn.functional.fractional_max_pool2d(x, 3, kernel_size=8, random_u=0.5),
    lambda P, x: P.nn.functional.fractional_max_pool2d(x[0], 3, random_u=0.5),
    lambda P, x: P.nn.functional.fractional_max_pool2d(x.astype("int32"), 3, random_u=0.5),
    lambda P, x: P.nn.functional.fractional_max_pool3d(x, 2, random_u=0.5),
])
def test_fractional_max_pool_errors_are_paddles_classes(call):
    from helpers.frameworks import assert_raises_as_paddle
    err = assert_raises_as_paddle(lambda P: call(P, P.to_tensor(FRACTIONAL_X[:, :, :, :7])))
    assert str(err).startswith("fractional_max_pool")
