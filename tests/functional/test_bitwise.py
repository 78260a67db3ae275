"""bitwise_* , gcd and lcm: NumPy's integer results; other dtypes are refused by name."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_same_as_paddle
from opsdk.errors import DTypeError

A, B = np.array([12, -10, 7, 0]), np.array([10, 6, -3, 5])


def test_results_are_numpys():
    a, b = opsdk.to_tensor(A), opsdk.to_tensor(B)
    for name, ref in (("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                      ("bitwise_xor", np.bitwise_xor), ("gcd", np.gcd), ("lcm", np.lcm)):
        assert getattr(opsdk, name)(a, b).numpy().tolist() == ref(A, B).tolist()
    assert opsdk.bitwise_not(a).numpy().tolist() == (~A).tolist()
    assert opsdk.bitwise_left_shift(a, opsdk.to_tensor([1, 2, 3, 0])).numpy().tolist() == \
        [24, -40, 56, 0]
    assert opsdk.bitwise_right_shift(a, opsdk.to_tensor([1, 1, 1, 1])).numpy().tolist() == \
        [6, -5, 3, 0]
    logical = opsdk.bitwise_right_shift(opsdk.to_tensor(np.array([-8], np.int8)),
                                        opsdk.to_tensor(np.array([1], np.int8)), False)
    assert logical.numpy().tolist() == [124]
    assert opsdk.bitwise_and(opsdk.to_tensor([True]), opsdk.to_tensor([False])).numpy().tolist() \
        == [False]
    with pytest.raises(DTypeError, match="bitwise_and: argument 'x' must be an integer"):
        opsdk.bitwise_and(opsdk.to_tensor([1.0]), opsdk.to_tensor([1]))


@pytest.mark.paddle
@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm",
                                  "bitwise_left_shift", "bitwise_right_shift"])
def test_matches_paddle(name):
    shifts = np.array([1, 2, 3, 0])
    assert_same_as_paddle(lambda P, a, b: getattr(P, name)(a, b),
                          [A, shifts if "shift" in name else B], dtypes=["int64", "int64"],
                          diff=())
