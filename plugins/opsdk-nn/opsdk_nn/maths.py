"""Constants and dtype rules the python kernels share (NumPy and CuPy arrays)."""
import numpy

from opsdk.kernels import array_module  # noqa: F401 - the python kernels' array module, from the SDK

SQRT1_2 = 0.70710678118654752440
INV_SQRT_2PI = 0.39894228040143267794
GELU_TANH_C = 0.79788456080286535588  # sqrt(2 / pi)
GELU_TANH_A = 0.044715


def compute_dtype(array):
    """The dtype the python kernels compute in: the array's own, float32 for float16."""
    return numpy.float32 if array.dtype == numpy.float16 else array.dtype
