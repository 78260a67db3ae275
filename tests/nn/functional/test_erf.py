"""erf in NumPy (Cody's rational approximations) against the C library's math.erf."""
import math

import numpy as np

from opsdk.nn.functional.erf import erf


def test_erf_matches_math_erf_to_double_precision_on_a_dense_grid():
    xs = np.linspace(-7.0, 7.0, 20001)
    want = np.array([math.erf(v) for v in xs])
    rel = np.abs(erf(xs) - want) / np.maximum(np.abs(want), 1e-300)
    assert rel.max() < 2e-15


def test_erf_is_accurate_near_zero_where_it_is_linear():
    xs = np.array([1e-300, 1e-20, 1e-8, -1e-8, 0.3])
    want = np.array([math.erf(v) for v in xs])
    np.testing.assert_allclose(erf(xs), want, rtol=1e-15, atol=0)


def test_erf_is_odd():
    xs = np.linspace(0.0, 6.0, 101)
    np.testing.assert_array_equal(erf(-xs), -erf(xs))


def test_erf_of_infinities_is_plus_minus_one_and_nan_stays_nan():
    out = erf(np.array([np.inf, -np.inf, 40.0, -40.0, np.nan]))
    np.testing.assert_array_equal(out[:4], [1.0, -1.0, 1.0, -1.0])
    assert np.isnan(out[4])


def test_erf_keeps_the_input_shape_and_returns_float64():
    out = erf(np.zeros((2, 3), dtype=np.float32))
    assert out.shape == (2, 3) and out.dtype == np.float64
