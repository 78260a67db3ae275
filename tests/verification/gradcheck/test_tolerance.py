"""Dtype-derived tolerances."""
import numpy as np

from opsdk.verification.gradcheck.tolerance import block_tolerance

F16, F32, F64 = np.dtype("float16"), np.dtype("float32"), np.dtype("float64")


def test_float64_and_float32_use_the_given_tolerances():
    assert block_tolerance(1e-5, 1e-3, (F64, F64), F64, 1.0) == (1e-5, 1e-3)
    assert block_tolerance(1e-5, 1e-3, (F32, F64), F64, 1.0) == (1e-5, 1e-3)


def test_float16_widens_to_its_epsilon():
    atol, rtol = block_tolerance(1e-5, 1e-3, (F16, F32), F64, 1.0)
    eps = float(np.finfo(F16).eps)
    assert (atol, rtol) == (32 * eps, 32 * eps)


def test_floor_grows_with_the_block_scale():
    small = block_tolerance(0.0, 0.0, (F32,), F64, 1.0)[0]
    large = block_tolerance(0.0, 0.0, (F32,), F64, 1000.0)[0]
    assert large == 1000 * small


def test_low_precision_numeric_side_widens_both():
    atol, rtol = block_tolerance(1e-5, 1e-3, (F32,), F32, 1.0)
    expected = 16 * float(np.finfo(F32).eps) ** (2 / 3)
    assert atol == expected and rtol == 1e-3
    assert block_tolerance(1e-5, 1e-6, (F32,), F32, 1.0)[1] == expected
