"""The auto_cast state helpers losses and linear consult."""
import numpy as np

import opsdk as paddle
from opsdk.amp.state import casts_to_low, keep_float32


def test_casts_to_low_only_inside_auto_cast_for_white_listed_ops():
    assert not casts_to_low("linear")
    with paddle.amp.auto_cast():
        assert casts_to_low("linear") and casts_to_low("matmul")
        assert not casts_to_low("softmax")


def test_keep_float32_casts_float16_inputs_of_black_listed_ops_only():
    x16 = paddle.ones([2], dtype="float16")
    assert keep_float32(x16, "cross_entropy") is x16
    with paddle.amp.auto_cast():
        assert keep_float32(x16, "cross_entropy").dtype == np.float32
        assert keep_float32(x16, "relu") is x16
        x64 = paddle.ones([2], dtype="float64")
        assert keep_float32(x64, "cross_entropy") is x64
