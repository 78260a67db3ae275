"""F.sequence_mask (opsdk/nn/functional/extension.py) against Paddle 3.3.1."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_same_as_paddle


def test_sequence_mask_marks_positions_below_each_length():
    mask = F.sequence_mask(opsdk.to_tensor([3, 1, 0]))
    assert mask.dtype == opsdk.int64 and mask.stop_gradient
    np.testing.assert_array_equal(mask.numpy(), [[1, 1, 1], [1, 0, 0], [0, 0, 0]])


@pytest.mark.paddle
@pytest.mark.parametrize("lengths, options", [
    ([[3, 1], [0, 2]], {"maxlen": 4, "dtype": "bool"}),
    ([4, 1], {"maxlen": 2}),
    ([2.0, 1.5], {"maxlen": 3, "dtype": "float32"}),
    ([2, 5], {"dtype": "int32"}),
], ids=["bool", "shorter-maxlen", "float-lengths", "int32"])
def test_sequence_mask_matches_paddle(lengths, options):
    dtype = "float64" if isinstance(lengths[0], float) else "int64"
    assert_same_as_paddle(lambda P, x: P.nn.functional.sequence_mask(x, **options), [lengths],
                          [dtype], diff=())


@pytest.mark.paddle
def test_sequence_mask_takes_a_tensor_maxlen_as_paddle():
    assert_same_as_paddle(lambda P, x: P.nn.functional.sequence_mask(x, P.to_tensor(5)),
                          [[3, 1]], ["int64"], diff=())


def test_sequence_mask_refuses_a_negative_maxlen():
    with pytest.raises(opsdk.errors.OpArgumentError, match="sequence_mask: maxlen"):
        F.sequence_mask(opsdk.to_tensor([1]), maxlen=-3)
