"""The shared maths of the python kernels: the erfc fit and the overflow-free logistic."""
import math

import numpy
import pytest

from opsdk_nn import maths


@pytest.mark.parametrize("dtype, zmax, bound", [("float32", 10.5, 1e-6), ("float64", 26.0, 1e-13)])
def test_erfc_fit_has_the_stated_relative_accuracy(dtype, zmax, bound):
    z = numpy.linspace(0.0, zmax, 2001)
    t = (2 / (2 + z)).astype(dtype)
    got = t.astype(numpy.float64) * maths.erfc_q(numpy, t).astype(numpy.float64) * numpy.exp(-z * z)
    want = numpy.array([math.erfc(v) for v in z])
    assert numpy.max(numpy.abs(got / want - 1)) < bound


def test_erfc_fit_keeps_the_input_precision():
    t = numpy.array([0.5], numpy.float32)
    assert maths.erfc_q(numpy, t).dtype == numpy.float32


def test_logistic_never_overflows():
    u = numpy.array([-1000.0, -30.0, 0.0, 30.0, 1000.0])
    with numpy.errstate(over="raise", invalid="raise"):
        s, s1, e = maths.logistic(numpy, u)
    numpy.testing.assert_allclose(s, [0.0, 9.357622968840175e-14, 0.5, 1.0, 1.0], rtol=1e-13, atol=1e-300)
    tail = math.exp(-30) / (1 + math.exp(-30)) ** 2
    numpy.testing.assert_allclose(s1, [0.0, tail, 0.25, tail, 0.0], rtol=1e-13, atol=1e-300)


def test_float16_computes_in_float32():
    assert maths.compute_dtype(numpy.zeros(1, numpy.float16)) == numpy.float32
    assert maths.compute_dtype(numpy.zeros(1, numpy.float64)) == numpy.float64
