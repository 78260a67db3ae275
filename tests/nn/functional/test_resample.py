"""F.interpolate and F.upsample: Paddle's source rows and weights per mode, gradients to second
order, Paddle's values and gradients, and its refusals."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from opsdk.errors import OpArgumentError, UnsupportedError
from helpers.frameworks import assert_same_as_paddle
from helpers.gradients import assert_gradients
from helpers.samples import signed

ROW = opsdk.to_tensor([[[1.0, 2.0, 4.0, 8.0]]], dtype="float64")


def test_linear_by_hand():
    # align_corners: the corners map onto each other
    assert F.interpolate(ROW, size=[7], mode="linear", align_corners=True).numpy().ravel() \
        .tolist() == [1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0]
    # half-pixel sources (align_mode 0), clipped at 0: k -> 0.5 * k - 0.25
    np.testing.assert_allclose(F.interpolate(ROW, scale_factor=2, mode="linear").numpy().ravel(),
                               [1.0, 1.25, 1.75, 2.5, 3.5, 5.0, 7.0, 8.0])
    # align_mode 1: k -> 0.5 * k
    np.testing.assert_allclose(F.interpolate(ROW, scale_factor=2, mode="linear", align_mode=1)
                               .numpy().ravel(), [1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 8.0])


def test_nearest_and_one_output_place_as_paddle():
    x = ROW.reshape([1, 1, 1, 4])
    assert F.interpolate(x, size=[1, 3]).numpy().ravel().tolist() == [1.0, 2.0, 4.0]
    # one output place: ratio 0 (the first row), except 'linear' and 'trilinear' (Paddle's
    # kernels keep the ratio there: the middle)
    assert F.interpolate(x, size=[1, 1], mode="bilinear").item() == 1.0
    assert F.interpolate(ROW, size=[1], mode="linear").item() == 3.0


RESAMPLE_CASES = {
    "nearest_scale": (lambda P, x: P.nn.functional.interpolate(x, scale_factor=[1.5, 0.7]),
                      [signed(2, 3, 4, 5)]),
    "bilinear_corners": (lambda P, x: P.nn.functional.interpolate(
        x, size=[7, 3], mode="bilinear", align_corners=True), [signed(2, 3, 4, 5)]),
    "bilinear_nhwc": (lambda P, x: P.nn.functional.interpolate(
        x, scale_factor=2, mode="bilinear", data_format="NHWC"), [signed(1, 3, 2, 4)]),
    "bicubic": (lambda P, x: P.nn.functional.interpolate(x, size=[5, 7], mode="bicubic"),
                [signed(1, 2, 4, 3)]),
    "trilinear": (lambda P, x: P.nn.functional.interpolate(
        x, scale_factor=[2, 1.5, 0.5], mode="trilinear", align_mode=1), [signed(1, 2, 2, 3, 4)]),
    "linear_recompute": (lambda P, x: P.nn.functional.interpolate(
        x, scale_factor=1.7, mode="linear", recompute_scale_factor=True), [signed(2, 3, 5)]),
    "area": (lambda P, x: P.nn.functional.interpolate(x, size=[2, 3], mode="area"),
             [signed(1, 2, 5, 7)]),
}


@pytest.mark.paddle
@pytest.mark.parametrize("case", RESAMPLE_CASES)
def test_values_and_gradients_match_paddle(case):
    fn, arrays = RESAMPLE_CASES[case]
    # Paddle keeps the ratio in float32: float64 results agree to about 1e-7
    assert_same_as_paddle(fn, arrays, rtol=1e-6, atol=1e-7)


def test_gradients_to_second_order():
    for mode in ("nearest", "bilinear", "bicubic"):
        assert_gradients(lambda x, m=mode: F.interpolate(x, size=[3, 4], mode=m) ** 2,
                         [signed(1, 1, 2, 3, seed=3)])


def test_upsample_and_the_pytorch_argument_order():
    x = opsdk.ones([1, 1, 2, 3])
    assert F.upsample(x, scale_factor=2).shape == [1, 1, 4, 6]
    # a sixth positional argument that is not an int is PyTorch's recompute_scale_factor
    assert F.interpolate(x, None, 1.7, "bilinear", False, True).shape == [1, 1, 3, 5]


@pytest.mark.parametrize("kwargs, words", [
    ({"size": [4, 4], "mode": "linear"}, "'linear' takes only a 3-D x"),
    ({"size": [4, 4], "scale_factor": 2}, "only one of size or scale_factor"),
    ({"mode": "bilinear"}, "one of size and scale_factor must be given"),
    ({"scale_factor": 0.1}, "gives an empty output"),
    ({"size": [4, 4], "align_corners": True}, "align_corners goes only with"),
    ({"size": [4], "mode": "bilinear"}, "size must have 2 entries"),
    ({"size": [4, 4], "mode": "cubic"}, "argument 'mode' must be one of"),
])
def test_refusals_as_paddle(kwargs, words):
    with pytest.raises(OpArgumentError, match=words):
        F.interpolate(opsdk.ones([1, 1, 3, 3]), **kwargs)


def test_antialias_is_not_supported():
    with pytest.raises(UnsupportedError, match="antialias"):
        F.interpolate(opsdk.ones([1, 1, 3, 3]), size=[2, 2], mode="bilinear", antialias=True)
