"""pixel_shuffle, pixel_unshuffle, channel_shuffle, temporal_shift against Paddle 3.3.1 (values and
gradients, both layouts), their layers, and the errors."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_same_as_paddle

X = np.random.default_rng(9).standard_normal((2, 12, 2, 4))


@pytest.mark.paddle
@pytest.mark.parametrize("fmt", ["NCHW", "NHWC"])
def test_rearrangements_match_paddle(fmt):
    x = X if fmt == "NCHW" else X.transpose(0, 2, 3, 1)
    for fn in (lambda P, a: P.nn.functional.pixel_shuffle(a, 2, fmt),
               lambda P, a: P.nn.functional.pixel_unshuffle(a, 2, fmt),
               lambda P, a: P.nn.functional.channel_shuffle(a, 3, fmt),
               lambda P, a: P.nn.PixelShuffle(2, fmt)(a),
               lambda P, a: P.nn.PixelUnshuffle(2, fmt)(a),
               lambda P, a: P.nn.ChannelShuffle(4, fmt)(a)):
        assert_same_as_paddle(fn, [x])
    assert_same_as_paddle(lambda P, a: P.nn.functional.pixel_shuffle(a, 2, fmt), [x],
                          dtypes=["float32"], rtol=1e-7)


def test_unshuffle_inverts_shuffle():
    x = opsdk.to_tensor(X)
    np.testing.assert_array_equal(F.pixel_unshuffle(F.pixel_shuffle(x, 2), 2).numpy(), X)
    assert F.channel_shuffle(opsdk.to_tensor(np.arange(6.0).reshape(1, 6, 1, 1)),
                             2).numpy().ravel().tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    assert repr(opsdk.nn.PixelUnshuffle(2, "NHWC")) == \
        "PixelUnshuffle(downscale_factor=2, data_format=NHWC)"


def test_bad_arguments_are_named():
    x = opsdk.to_tensor(X)
    with pytest.raises(ValueError, match="pixel_shuffle: the channel count \\(12\\) must be "
                                         "divisible by upscale_factor\\^2 \\(9\\)"):
        F.pixel_shuffle(x, 3)
    with pytest.raises(ValueError, match="pixel_unshuffle: downscale_factor \\(3\\) must divide"):
        F.pixel_unshuffle(x, 3)
    with pytest.raises(ValueError, match="channel_shuffle: groups \\(5\\) must divide"):
        F.channel_shuffle(x, 5)
    with pytest.raises(ValueError, match="pixel_shuffle: x must be a 4-D tensor"):
        F.pixel_shuffle(x[0], 2)
    with pytest.raises(ValueError, match="data_format must be 'NCHW' or 'NHWC'"):
        F.channel_shuffle(x, 2, "NCL")
    with pytest.raises(TypeError, match="pixel_shuffle: argument 'x' must be a float tensor"):
        F.pixel_shuffle(opsdk.ones([1, 4, 1, 1], dtype="int64"), 2)
    with pytest.raises(TypeError, match="pixel_shuffle: upscale_factor must be an int"):
        F.pixel_shuffle(x, 2.0)
    with pytest.raises(ValueError, match="PixelUnshuffle: downscale_factor must be positive"):
        opsdk.nn.PixelUnshuffle(0)


@pytest.mark.paddle
@pytest.mark.parametrize("seg, ratio, fmt", [(3, 0.25, "NCHW"), (2, 0.4, "NCHW"),
                                             (6, 0.1, "NHWC"), (1, 0.25, "NCHW")])
def test_temporal_shift_matches_paddle(seg, ratio, fmt):
    x = np.random.default_rng(3).standard_normal((6, 10, 2, 3))
    if fmt == "NHWC":
        x = x.transpose(0, 2, 3, 1)
    assert_same_as_paddle(lambda P, a: P.nn.functional.temporal_shift(a, seg, ratio,
                                                                      data_format=fmt), [x])


def test_temporal_shift_errors_are_named():
    with pytest.raises(ValueError, match="temporal_shift: shift_ratio must lie in \\(0, 0.5\\)"):
        F.temporal_shift(opsdk.ones([4, 4, 1, 1]), 2, 0.5)
    with pytest.raises(ValueError, match="temporal_shift: the batch \\(4\\) must be a multiple"):
        F.temporal_shift(opsdk.ones([4, 4, 1, 1]), 3)
