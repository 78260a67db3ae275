"""The shared maths of the python kernels: the erfc fit and the dtype rule."""
import math

import numpy
import pytest

from opsdk_nn import maths


@pytest.mark.parametrize("dtype, zmax, bound", [("float32", 26.0, 1e-6), ("float64", 26.0, 1e-13)])
def test_erfc_fit_has_the_stated_relative_accuracy(dtype, zmax, bound):
    z = numpy.linspace(0.0, zmax, 2001)
    t = (2 / (2 + z)).astype(dtype)
    got = t.astype(numpy.float64) * maths.erfc_q(numpy, t).astype(numpy.float64) * numpy.exp(-z * z)
    want = numpy.array([math.erfc(v) for v in z])
    assert numpy.max(numpy.abs(got / want - 1)) < bound


def test_erfc_fit_keeps_the_input_precision():
    t = numpy.array([0.5], numpy.float32)
    assert maths.erfc_q(numpy, t).dtype == numpy.float32


def test_float16_computes_in_float32():
    assert maths.compute_dtype(numpy.zeros(1, numpy.float16)) == numpy.float32
    assert maths.compute_dtype(numpy.zeros(1, numpy.float64)) == numpy.float64
