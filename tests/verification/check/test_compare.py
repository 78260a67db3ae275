import numpy as np

from opsdk.verification.check.compare import compare


def test_equal_arrays_pass_with_zero_error():
    result = compare(np.ones(3), np.ones(3), 0.0, 0.0)
    assert result.ok and result.worst == 0.0


def test_difference_beyond_tolerance_names_the_worst_element():
    result = compare(np.array([1.0, 2.5]), np.array([1.0, 2.0]), 1e-3, 1e-3)
    assert not result.ok and result.index == (1,) and result.worst == 0.5
    assert "worst at [1]: expected 2, got 2.5" in result.message


def test_relative_tolerance_scales_with_the_expected_value():
    assert compare(np.array([1001.0]), np.array([1000.0]), 0.0, 1e-2).ok


def test_shape_mismatch_fails():
    result = compare(np.ones((2, 3)), np.ones((3, 2)), 1.0, 1.0)
    assert not result.ok and "expected: [3, 2]; got: [2, 3]" in result.message


def test_nan_matches_only_nan():
    assert compare(np.array([np.nan]), np.array([np.nan]), 0.0, 0.0).ok
    assert not compare(np.array([np.nan]), np.array([1.0]), 1.0, 1.0).ok


def test_a_nan_on_one_side_is_named_never_an_error_of_zero():
    from opsdk.verification.check.compare import compare

    result = compare(np.array([1.0, np.nan]), np.array([1.0, 2.0]), 1e-5, 1e-3)
    assert not result.ok and "got nan where 2 was expected" in result.message
    assert "NaN or inf on one side only" in result.message


def test_the_same_infinity_and_nan_on_both_sides_agree():
    from opsdk.verification.check.compare import compare

    assert compare(np.array([np.inf, np.nan]), np.array([np.inf, np.nan]), 0.0, 0.0).ok
    assert not compare(np.array([np.inf]), np.array([-np.inf]), 1.0, 1.0).ok


def test_bitwise_tells_the_last_bit():
    from opsdk.verification.check.compare import bitwise

    assert bitwise(np.array([1.0, np.nan]), np.array([1.0, np.nan])).ok
    result = bitwise(np.array([1.0 + 2e-16]), np.array([1.0]))
    assert not result.ok and "not bit for bit" in result.message


def test_ratio_is_the_largest_error_over_its_allowance():
    from opsdk.verification.check.compare import compare

    assert np.isclose(compare(np.array([1.5]), np.array([1.0]), 1.0, 0.0).ratio, 0.5)
