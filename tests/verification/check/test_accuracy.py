import numpy as np

from opsdk.verification.check.accuracy import against_reference, allowed_error, call_scale, growth


def test_a_few_ulps_pass_and_a_fourth_digit_error_fails_in_float32():
    ref = np.linspace(0.5, 2.0, 12)
    close = (ref * (1 + 4e-7)).astype(np.float32)
    assert against_reference(close, ref, np.float32, 12).ok
    result = against_reference((ref * (1 + 1e-4)).astype(np.float32), ref, np.float32, 12)
    assert not result.ok and "eps of its magnitude" in result.message


def test_float64_holds_to_float64_epsilons():
    ref = np.linspace(0.5, 2.0, 12)
    assert against_reference(ref * (1 + 1e-14), ref, np.float64, 12).ok
    assert not against_reference(ref * (1 + 1e-9), ref, np.float64, 12).ok


def test_the_bound_grows_with_the_square_root_of_a_long_reduction():
    assert growth(12) == growth(16) == 1.0 and growth(1600) == 10.0
    ref = np.ones(4)
    assert allowed_error(ref, np.float32, 1600)[0] == 10 * allowed_error(ref, np.float32, 4)[0]


def test_python_s_own_error_in_the_dtype_widens_the_bound():
    ref = np.array([1.0, 2.0])
    empirical = ref * (1 + 1e-4)
    assert against_reference(ref * (1 + 2e-4), ref, np.float32, 2, empirical=empirical).ok


def test_an_overflow_of_a_value_beyond_the_dtype_is_no_error():
    ref = np.array([1e39, 1.0])
    assert against_reference(np.array([np.inf, 1.0]), ref, np.float32, 2).ok
    assert not against_reference(np.array([np.inf, 1.0]), np.array([1e30, 1.0]), np.float32, 2).ok


def test_a_declared_tolerance_loosens_and_says_so():
    ref = np.array([1.0])
    result = against_reference(np.array([1.01]), ref, np.float32, 1, declared=(0.0, 0.1))
    assert result.ok and result.loosened


def test_call_scale_floors_results_that_cancel_to_zero():
    scale = call_scale([np.zeros(3), np.array([3.0, 4.0]), None])
    assert np.isclose(scale, np.sqrt(12.5))
    assert against_reference(np.array([1e-7]), np.array([0.0]), np.float32, 1, scale=1.0).ok
