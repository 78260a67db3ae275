"""Chunked whole-block passes."""
import numpy as np

from opsdk.verification.gradcheck.blocks import abs_max, all_close


def test_abs_max_takes_the_largest_magnitude_of_either_sign():
    assert abs_max(np.array([[1.0, -3.0], [2.0, 0.5]])) == 3.0


def test_abs_max_ignores_nan_and_inf():
    assert abs_max(np.array([[np.nan, -np.inf, 2.0]])) == 2.0


def test_abs_max_of_an_empty_block_is_zero():
    assert abs_max(np.zeros((0, 3))) == 0.0


def test_all_close_holds_within_tolerance_across_chunks():
    a = np.ones((5000, 20))
    assert all_close(a, a + 1e-7, 1e-6, 0.0)
    b = a.copy()
    b[4999, 19] += 1e-3
    assert not all_close(a, b, 1e-6, 0.0)


def test_all_close_never_accepts_nan():
    assert not all_close(np.array([[np.nan]]), np.array([[np.nan]]), 1.0, 1.0)
