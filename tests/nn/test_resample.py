"""Upsample, UpsamplingNearest2D, UpsamplingBilinear2D: F.interpolate with fixed arguments,
Paddle's reprs."""
import numpy as np

import opsdk
import opsdk.nn.functional as F
from helpers.samples import signed


def test_upsample_is_interpolate_and_keeps_the_inferred_layout():
    x = opsdk.to_tensor(signed(1, 2, 3, 4))
    up = opsdk.nn.Upsample(scale_factor=2, mode="bilinear")
    np.testing.assert_array_equal(up(x).numpy(),
                                  F.interpolate(x, scale_factor=2, mode="bilinear").numpy())
    assert repr(up) == ("Upsample(scale_factor=2, mode=bilinear, align_corners=False, "
                        "align_mode=0, data_format=NCHW)")


def test_the_2d_layers_fix_mode_and_corners():
    x = opsdk.to_tensor(signed(1, 2, 3, 4))
    near = opsdk.nn.UpsamplingNearest2D(5)
    assert near.size == [5, 5] and repr(near) == "UpsamplingNearest2D(size=[5, 5], data_format=NCHW)"
    np.testing.assert_array_equal(near(x).numpy(), F.interpolate(x, size=[5, 5]).numpy())
    bil = opsdk.nn.UpsamplingBilinear2D(scale_factor=[1.5, 2])
    np.testing.assert_array_equal(bil(x).numpy(), F.interpolate(
        x, scale_factor=[1.5, 2], mode="bilinear", align_corners=True).numpy())
