"""kernels.cody_erf: float64 erf of arrays, against the C library's erf (math.erf)."""
import math

import numpy
import pytest

from opsdk.kernels.cody_erf import erf

# the ends of each of Cody's three ranges, and the points where erf(x) rounds to +-1
_EDGES = [0.46875, 4.0, 5.9, 6.0, 26.5, 27.0, 1e-300, 5e-324, 1e-8]


def _reference(x):
    return numpy.array([math.erf(v) for v in x])


def test_relative_error_is_below_1e_15_over_every_range():
    x = numpy.concatenate([numpy.linspace(-7.0, 7.0, 20001), _EDGES,
                           numpy.nextafter(_EDGES, 0.0), -numpy.array(_EDGES)])
    want = _reference(x)
    got = erf(x)
    relative = numpy.abs(got - want) / numpy.maximum(numpy.abs(want), numpy.finfo(float).tiny)
    assert relative.max() < 1e-15, f"worst at x={x[relative.argmax()]!r}: {relative.max():.3g}"


def test_nan_stays_nan_and_infinities_give_plus_minus_one():
    got = erf(numpy.array([numpy.nan, numpy.inf, -numpy.inf]))
    assert numpy.isnan(got[0]) and got[1] == 1.0 and got[2] == -1.0


def test_negative_zero_keeps_its_sign():
    assert math.copysign(1.0, erf(numpy.array([-0.0]))[0]) == -1.0


def test_is_odd():
    x = numpy.linspace(0.0, 8.0, 801)
    assert numpy.array_equal(erf(-x), -erf(x))


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_evaluates_lower_precisions_in_float64(dtype):
    x = numpy.array([0.25, 1.5], dtype=dtype)
    got = erf(x)
    assert got.dtype == numpy.float64
    numpy.testing.assert_allclose(got, _reference(x.astype(numpy.float64)), rtol=1e-15)


def test_keeps_the_shape_of_its_argument():
    assert erf(numpy.zeros((2, 0, 3))).shape == (2, 0, 3)
    assert erf(numpy.array(0.5)).shape == ()
