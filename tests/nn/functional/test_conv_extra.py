"""unfold, fold, conv1d_transpose, conv2d_transpose, lp_pool1d/2d: values, shapes, gradients vs
Paddle 3.3.1 over strides, paddings (every form), dilations, groups, output_padding and
output_size; second order against central differences; the errors."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_same_as_paddle
from helpers.gradients import assert_gradients

RNG = np.random.default_rng(5)
X = RNG.standard_normal((2, 4, 5, 6))


@pytest.mark.paddle
@pytest.mark.parametrize("kw", [
    dict(kernel_sizes=2), dict(kernel_sizes=[2, 3], strides=[2, 1]),
    dict(kernel_sizes=3, paddings=1), dict(kernel_sizes=[3, 2], paddings=[1, 0, 2, 1]),
    dict(kernel_sizes=2, paddings=[1, 2], dilations=[2, 1], strides=2),
])
def test_unfold_and_fold_match_paddle(kw):
    assert_same_as_paddle(lambda P, a: P.nn.functional.unfold(a, **kw), [X])
    if np.size(kw.get("paddings", 0)) == 4:
        return  # fold takes symmetric paddings only (below)
    cols = F.unfold(opsdk.to_tensor(X), **kw).numpy()
    assert_same_as_paddle(lambda P, c: P.nn.functional.fold(c, [5, 6], **kw), [cols])
    kw4 = dict(kw, paddings=[1, 2, 1, 2])
    cols = F.unfold(opsdk.to_tensor(X), **kw4).numpy()
    assert_same_as_paddle(lambda P, c: P.nn.functional.fold(c, [5, 6], **kw4), [cols])


@pytest.mark.paddle
@pytest.mark.parametrize("kw", [
    dict(), dict(stride=2), dict(stride=2, padding=1, output_padding=1),
    dict(stride=[2, 3], padding=[1, 0, 2, 1], dilation=[1, 2]),
    dict(stride=2, padding="SAME"), dict(stride=2, padding="VALID"),
    dict(stride=2, output_size=[11, 12]), dict(stride=2, dilation=2, groups=2),
    dict(stride=3, padding=[1, 2], dilation=2, output_padding=[2, 1]),
])
def test_conv2d_transpose_matches_paddle(kw):
    w = RNG.standard_normal((4, 3 if kw.get("groups", 1) == 1 else 2, 3, 2))
    b = RNG.standard_normal(w.shape[1] * kw.get("groups", 1))
    assert_same_as_paddle(lambda P, a, k, c: P.nn.functional.conv2d_transpose(a, k, c, **kw),
                          [X, w, b], diff=(0, 1, 2))


@pytest.mark.paddle
def test_conv2d_transpose_channels_last_and_float32_match_paddle():
    w = RNG.standard_normal((4, 3, 2, 2))
    assert_same_as_paddle(lambda P, a, k: P.nn.functional.conv2d_transpose(
        a, k, stride=2, padding=1, data_format="NHWC"), [X.transpose(0, 2, 3, 1), w],
        diff=(0, 1))
    assert_same_as_paddle(lambda P, a, k: P.nn.functional.conv2d_transpose(a, k, stride=2),
                          [X, w], dtypes=["float32", "float32"], diff=(0, 1), rtol=1e-5,
                          atol=1e-6)


@pytest.mark.paddle
@pytest.mark.parametrize("kw", [
    dict(), dict(stride=2, padding=1, output_padding=1), dict(stride=2, padding=[0, 2]),
    dict(stride=2, output_size=14), dict(groups=2, dilation=2, padding="SAME", stride=2),
])
def test_conv1d_transpose_matches_paddle(kw):
    x = X[:, :, 0]
    w = RNG.standard_normal((4, 2, 3))
    assert_same_as_paddle(lambda P, a, k: P.nn.functional.conv1d_transpose(a, k, **kw), [x, w],
                          diff=(0, 1))
    assert_same_as_paddle(lambda P, a, k: P.nn.functional.conv1d_transpose(
        a, k, data_format="NLC", **kw), [x.transpose(0, 2, 1), w], diff=(0, 1))


@pytest.mark.paddle
def test_the_layers_match_paddle():
    paddle_ = pytest.importorskip("paddle")
    for make, x, call in [
        (lambda P: P.nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1, output_padding=1,
                                        groups=2), X, {}),
        (lambda P: P.nn.Conv2DTranspose(4, 3, 2, stride=2), X, {"output_size": [11, 13]}),
        (lambda P: P.nn.Conv1DTranspose(4, 2, 3, stride=2), X[:, :, 0], {"output_size": 14}),
    ]:
        theirs = make(paddle_)
        ours = make(opsdk)
        assert [p.shape for p in ours.parameters()] == [list(p.shape) for p in
                                                          theirs.parameters()]
        for mine, their in zip(ours.parameters(), theirs.parameters()):
            mine.set_value(their.numpy())
        want = theirs(paddle_.to_tensor(x.astype("float32")), **call).numpy()
        got = ours(opsdk.to_tensor(x.astype("float32")), **call).numpy()
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    cols = F.unfold(opsdk.to_tensor(X), 2).numpy()
    np.testing.assert_array_equal(opsdk.nn.Unfold(2)(opsdk.to_tensor(X)).numpy(), cols)
    np.testing.assert_allclose(opsdk.nn.Fold([5, 6], 2)(opsdk.to_tensor(cols)).numpy(),
                               paddle_.nn.Fold([5, 6], 2)(paddle_.to_tensor(cols)).numpy())


def test_fold_of_unfold_counts_the_blocks_covering_each_pixel():
    ones = opsdk.ones([1, 1, 4, 4], dtype="float64")
    assert F.fold(F.unfold(ones, 2), [4, 4], 2).numpy()[0, 0].tolist() == [
        [1.0, 2.0, 2.0, 1.0], [2.0, 4.0, 4.0, 2.0], [2.0, 4.0, 4.0, 2.0], [1.0, 2.0, 2.0, 1.0]]


@pytest.mark.slow  # central differences of second order: a few seconds
def test_gradients_hold_to_second_order():
    x, w = X[:1, :2, :3, :3], RNG.standard_normal((2, 2, 2, 2))
    assert_gradients(lambda a, k: F.conv2d_transpose(a, k, stride=2, padding=1,
                                                     output_padding=1), [x, w])
    assert_gradients(lambda a: F.fold(F.unfold(a, 2, paddings=1) ** 2, [3, 3], 2, paddings=1),
                     [x])


def test_bad_arguments_are_named():
    x = opsdk.to_tensor(X)
    with pytest.raises(ValueError, match="unfold: argument 'paddings' must be an int or a list"):
        F.unfold(x, 2, paddings=[1, 2, 3])
    with pytest.raises(ValueError, match="unfold: x must be \\[N, C, H, W\\]"):
        F.unfold(x[0], 2)
    with pytest.raises(ValueError, match="fold: paddings \\[top, left, bottom, right\\] must"):
        F.fold(opsdk.ones([1, 8, 16]), [5, 5], 2, paddings=[1, 0, 0, 1])
    with pytest.raises(ValueError, match="fold: output_sizes \\[5, 5\\].*give 4 x 4 blocks"):
        F.fold(opsdk.ones([1, 8, 5]), [5, 5], 2)
    with pytest.raises(ValueError, match="conv2d_transpose: output_padding must lie in"):
        F.conv2d_transpose(x, opsdk.ones([4, 1, 2, 2], dtype="float64"), stride=2,
                           output_padding=2)
    with pytest.raises(ValueError, match="conv2d_transpose: x has 4 channels"):
        F.conv2d_transpose(x, opsdk.ones([3, 1, 2, 2], dtype="float64"))
    with pytest.raises(ValueError, match="output_padding and output_size exclude each other"):
        F.conv2d_transpose(x, opsdk.ones([4, 1, 2, 2], dtype="float64"), stride=2,
                           output_padding=1, output_size=[11, 13])


@pytest.mark.paddle
@pytest.mark.parametrize("p, kw", [
    (2, dict(kernel_size=2)), (3, dict(kernel_size=[2, 3], stride=1)),
    (1.5, dict(kernel_size=3, stride=2, padding=1)), (2, dict(kernel_size=3, stride=2,
                                                            ceil_mode=True)),
    (4, dict(kernel_size=2, padding="SAME")), (2.5, dict(kernel_size=2, data_format="NHWC")),
])
def test_lp_pool2d_matches_paddle(p, kw):
    x = np.abs(X) + 0.1  # a fractional power of a negative sum is NaN (in both)
    if kw.get("data_format") == "NHWC":
        x = x.transpose(0, 2, 3, 1)
    assert_same_as_paddle(lambda P, a: P.nn.functional.lp_pool2d(a, p, **kw), [x])
    assert_same_as_paddle(lambda P, a: P.nn.LPPool2D(p, **kw)(a), [x])


@pytest.mark.paddle
@pytest.mark.parametrize("kw", [dict(kernel_size=2), dict(kernel_size=3, stride=1, padding=1),
                                dict(kernel_size=2, ceil_mode=True),
                                dict(kernel_size=2, data_format="NLC")])
def test_lp_pool1d_matches_paddle(kw):
    x = np.abs(X[:, :, 0]) + 0.1
    if kw.get("data_format") == "NLC":
        x = x.transpose(0, 2, 1)
    assert_same_as_paddle(lambda P, a: P.nn.functional.lp_pool1d(a, 3, **kw), [x])
    assert_same_as_paddle(lambda P, a: P.nn.LPPool1d(2, **kw)(a), [x])


def test_lp_pool_errors_are_named():
    with pytest.raises(ValueError, match="lp_pool2d: norm_type must not be 0"):
        F.lp_pool2d(opsdk.to_tensor(X), 0, 2)
    with pytest.raises(ValueError, match="lp_pool1d: data_format must be 'NCL' or 'NLC'"):
        F.lp_pool1d(opsdk.to_tensor(X[:, :, 0]), 2, 2, data_format="NCHW")


X3 = RNG.standard_normal((2, 3, 5, 4, 6))
POOL3D = [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
          dict(kernel_size=[2, 3, 2], stride=[1, 2, 2], ceil_mode=True),
          dict(kernel_size=2, padding="SAME"), dict(kernel_size=3, padding=[0, 1, 1, 0, 2, 1])]


@pytest.mark.paddle
@pytest.mark.parametrize("kw", POOL3D)
def test_pool3d_matches_paddle(kw):
    assert_same_as_paddle(lambda P, a: P.nn.functional.max_pool3d(a, **kw), [X3])
    assert_same_as_paddle(lambda P, a: P.nn.functional.avg_pool3d(a, **kw), [X3])
    assert_same_as_paddle(lambda P, a: P.nn.AvgPool3D(exclusive=False, **kw)(a), [X3])
    assert_same_as_paddle(lambda P, a: P.nn.MaxPool3D(data_format="NDHWC", **kw)(a),
                          [X3.transpose(0, 2, 3, 4, 1)])


@pytest.mark.paddle
def test_pool3d_mask_and_divisor_match_paddle():
    kw = dict(kernel_size=2, stride=2, padding=1)
    assert_same_as_paddle(lambda P, a: P.nn.functional.max_pool3d(a, return_mask=True, **kw),
                          [X3])
    assert_same_as_paddle(lambda P, a: P.nn.functional.avg_pool3d(a, divisor_override=3, **kw),
                          [X3])


def test_pool3d_errors_are_named():
    with pytest.raises(ValueError, match="max_pool3d: expected: x \\[N, C, D, H, W\\]"):
        F.max_pool3d(opsdk.to_tensor(X), 2)
    with pytest.raises(ValueError, match="avg_pool3d: data_format must be 'NCDHW' or 'NDHWC'"):
        F.avg_pool3d(opsdk.to_tensor(X3), 2, data_format="NCHW")
    with pytest.raises(ValueError, match="max_pool3d: return_mask=True needs"):
        F.max_pool3d(opsdk.to_tensor(X3), 2, return_mask=True, data_format="NDHWC")


@pytest.mark.paddle
@pytest.mark.parametrize("kw", [
    dict(), dict(stride=2, padding=1), dict(stride=[1, 2, 1], padding=[0, 1, 1, 0, 2, 1],
                                            dilation=[2, 1, 1]),
    dict(padding="SAME", dilation=2), dict(padding="VALID", groups=3),
    dict(data_format="NDHWC", stride=2),
])
def test_conv3d_matches_paddle(kw):
    groups = kw.get("groups", 1)
    x = X3 if kw.get("data_format") != "NDHWC" else X3.transpose(0, 2, 3, 4, 1)
    w = RNG.standard_normal((6, 3 // groups, 2, 3, 2))
    b = RNG.standard_normal(6)
    assert_same_as_paddle(lambda P, a, k, c: P.nn.functional.conv3d(a, k, c, **kw), [x, w, b],
                          diff=(0, 1, 2))


@pytest.mark.paddle
def test_conv3d_layer_and_top_level_name_match_paddle():
    paddle = pytest.importorskip("paddle")
    assert opsdk.nn.Conv3d is opsdk.nn.Conv3D and opsdk.conv3d is F.conv3d
    theirs, ours = paddle.nn.Conv3D(3, 4, 2, stride=2), opsdk.nn.Conv3D(3, 4, 2, stride=2)
    assert [(n, p.shape) for n, p in ours.named_parameters()] == [
        (n, list(p.shape)) for n, p in theirs.named_parameters()]
    for mine, their in zip(ours.parameters(), theirs.parameters()):
        mine.set_value(their.numpy())
    x = X3.astype("float32")
    np.testing.assert_allclose(ours(opsdk.to_tensor(x)).numpy(),
                               theirs(paddle.to_tensor(x)).numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.slow  # central differences of second order: a few seconds
def test_conv3d_gradients_hold_to_second_order():
    assert_gradients(lambda a, k: F.conv3d(a, k, stride=2, padding=1) ** 2,
                     [X3[:1, :2, :2, :2, :3], RNG.standard_normal((2, 2, 2, 1, 2))])


@pytest.mark.paddle
@pytest.mark.parametrize("kw", [
    dict(), dict(stride=2, padding=1, output_padding=1),
    dict(stride=[1, 2, 2], padding=[0, 1, 1, 0, 2, 1], dilation=[2, 1, 1]),
    dict(padding="SAME", stride=2), dict(padding="VALID", groups=2),
    dict(stride=2, output_size=[6, 9, 7]),
    dict(padding=[[0, 0], [0, 0], [1, 1], [0, 1], [1, 0]], stride=2),
    dict(data_format="NDHWC", stride=2, padding=1),
])
def test_conv3d_transpose_matches_paddle(kw):
    x = X3[:, :, :3, :4, :3].copy()
    x = x if kw.get("data_format") != "NDHWC" else x.transpose(0, 2, 3, 4, 1)
    w = RNG.standard_normal((3, 2, 2, 3, 2))
    b = RNG.standard_normal(2 * kw.get("groups", 1))
    if kw.get("groups") == 2:
        x, w = np.concatenate([x, x[:, :1]], 1), np.concatenate([w, w[:1]], 0)
    assert_same_as_paddle(lambda P, a, k, c: P.nn.functional.conv3d_transpose(a, k, c, **kw),
                          [x, w, b], diff=(0, 1, 2))


@pytest.mark.paddle
def test_conv3d_transpose_layer_matches_paddle():
    paddle = pytest.importorskip("paddle")
    make = lambda P: P.nn.Conv3DTranspose(3, 4, 2, stride=2, padding=1, dilation=[1, 2, 1],
                                          groups=1)
    theirs, ours = make(paddle), make(opsdk)
    assert [(n, p.shape) for n, p in ours.named_parameters()] == [
        (n, list(p.shape)) for n, p in theirs.named_parameters()]
    for mine, their in zip(ours.parameters(), theirs.parameters()):
        mine.set_value(their.numpy())
    x = X3.astype("float32")
    for size in (None, [9, 8, 10]):
        np.testing.assert_allclose(ours(opsdk.to_tensor(x), size).numpy(),
                                   theirs(paddle.to_tensor(x), size).numpy(), rtol=1e-5,
                                   atol=1e-5)


def test_conv3d_transpose_errors_are_named():
    x, w = opsdk.to_tensor(X3), opsdk.ones([3, 2, 2, 2, 2], dtype="float64")
    with pytest.raises(ValueError, match="conv3d_transpose: data_format must be 'NCDHW'"):
        F.conv3d_transpose(x, w, data_format="NCHW")
    with pytest.raises(ValueError, match="conv3d_transpose: expected: x \\[N, C, D, H, W\\]"):
        F.conv3d_transpose(x[0], w)
    with pytest.raises(ValueError, match="conv3d_transpose: output_padding must lie in"):
        F.conv3d_transpose(x, w, stride=2, output_padding=2)


@pytest.mark.slow  # central differences of second order: a few seconds
def test_conv3d_transpose_gradients_hold_to_second_order():
    assert_gradients(lambda a, k: F.conv3d_transpose(a, k, stride=2, padding=1) ** 2,
                     [X3[:1, :2, :2, :2, :2], RNG.standard_normal((2, 1, 2, 1, 2))])
