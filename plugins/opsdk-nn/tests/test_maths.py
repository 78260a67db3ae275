"""The python kernels' shared dtype rule."""
import numpy

from opsdk_nn import maths


def test_float16_computes_in_float32():
    assert maths.compute_dtype(numpy.zeros(1, numpy.float16)) == numpy.float32
    assert maths.compute_dtype(numpy.zeros(1, numpy.float64)) == numpy.float64
