"""F.pad and F.zeropad2d: Paddle's two readings of the amounts, the four modes, gradients to
second order, and Paddle's refusals."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from opsdk.errors import LayerArgumentError, OpArgumentError
from helpers.frameworks import assert_same_as_paddle
from helpers.gradients import assert_gradients
from helpers.samples import signed

ROW = opsdk.to_tensor([[[1.0, 2.0, 3.0]]])


@pytest.mark.parametrize("mode, want", [("constant", [9, 9, 1, 2, 3, 9]),
                                        ("reflect", [3, 2, 1, 2, 3, 2]),
                                        ("replicate", [1, 1, 1, 2, 3, 3]),
                                        ("circular", [2, 3, 1, 2, 3, 1])])
def test_the_four_modes_by_hand(mode, want):
    assert F.pad(ROW, [2, 1], mode=mode, value=9.0).numpy().ravel().tolist() == want


def test_constant_amounts_from_the_last_axis_or_the_first():
    x = opsdk.ones([1, 2, 3])
    assert F.pad(x, [1, 0, 0, 1]).shape == [1, 3, 4]           # last axis first
    assert F.pad(x, [1, 0, 0, 1, 0, 0]).shape == [2, 3, 3]     # 2 * ndim: first axis first
    assert F.pad(x, [1, 0, 0, 1, 0, 0], pad_from_left_axis=False).shape == [1, 3, 4]
    assert F.pad(opsdk.ones([2, 3]), [1, 2]).shape == [2, 6]   # any rank in this reading


def test_layout_reading_crops_with_negative_amounts_and_follows_data_format():
    x = opsdk.to_tensor(np.arange(6.0).reshape(1, 1, 2, 3))
    assert F.pad(x, [-1, 0, 0, 0]).numpy().ravel().tolist() == [1.0, 2.0, 4.0, 5.0]
    nhwc = F.pad(x.reshape([1, 2, 3, 1]), [1, 1, 1, 0], mode="reflect", data_format="NHWC")
    assert nhwc.shape == [1, 3, 5, 1]


PAD_CASES = {
    "constant_nchw": (lambda P, x: P.nn.functional.pad(x, [1, 2, 0, 1], value=0.5),
                      [signed(2, 3, 3, 4)]),
    "reflect_ncdhw": (lambda P, x: P.nn.functional.pad(x, [1, 2, 1, 0, 1, 1], mode="reflect"),
                      [signed(1, 2, 3, 3, 4)]),
    "replicate_nlc": (lambda P, x: P.nn.functional.pad(x, [3, 1], mode="replicate",
                                                       data_format="NLC"), [signed(2, 4, 3)]),
    "circular_big": (lambda P, x: P.nn.functional.pad(x, [4, 5, 1, 2], mode="circular"),
                     [signed(1, 2, 2, 3)]),
    "constant_general": (lambda P, x: P.nn.functional.pad(x, [1, 0, 2], value=-1.0),
                         [signed(2, 3, 4)]),
}


@pytest.mark.paddle
@pytest.mark.parametrize("case", PAD_CASES)
def test_values_and_gradients_match_paddle(case):
    fn, arrays = PAD_CASES[case]
    assert_same_as_paddle(fn, arrays)


def test_gradients_to_second_order():
    for mode in ("constant", "reflect", "replicate", "circular"):
        assert_gradients(lambda x, m=mode: F.pad(x, [2, 1, 1, 0], mode=m) ** 2,
                         [signed(1, 1, 2, 3, seed=4)])


def test_integer_tensors_keep_their_dtype_and_the_value_is_cast():
    y = F.pad(opsdk.to_tensor([[[1, 2]]]), [1, 1], value=2.7)
    assert y.dtype == "int64" and y.numpy().ravel().tolist() == [2, 1, 2, 2]


def test_refusals_as_paddle():
    x = opsdk.ones([1, 1, 2, 3])
    with pytest.raises(LayerArgumentError, match="argument 'mode' must be one of"):
        F.pad(x, [1, 1, 1, 1], mode="edge")
    with pytest.raises(LayerArgumentError, match="x must be 3-D, 4-D or 5-D"):
        F.pad(opsdk.ones([2, 3]), [1, 1], mode="reflect")
    with pytest.raises(LayerArgumentError, match="data_format for a 4-D x must be NCHW or NHWC"):
        F.pad(x, [1, 1, 1, 1], mode="reflect", data_format="NCL")
    with pytest.raises(OpArgumentError, match="reflect mode each pad must be smaller"):
        F.pad(x, [3, 0, 0, 0], mode="reflect")
    with pytest.raises(OpArgumentError, match="expected 4 amounts"):
        F.pad(x, [1, 1], mode="replicate")
    with pytest.raises(OpArgumentError, match="must be >= 0"):
        F.pad(x, [-1, 1])
    with pytest.raises(TypeError, match="argument 'pad' must be a list"):
        F.zeropad2d(x, 1)


def test_zeropad2d():
    assert F.zeropad2d(opsdk.ones([1, 1, 2, 2]), [1, 0, 0, 2]).numpy()[0, 0].tolist() == \
        [[0.0, 1.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
