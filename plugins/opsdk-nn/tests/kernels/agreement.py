"""C kernels vs the python kernels on inputs large enough for the C kernels' OpenMP path.

The op tests use small inputs, which stay on one thread; kernel tests cross NN_OMP_MIN (65536
elements) so the chunked parallel loops and the per-chunk weight-gradient partials run too.
"""
import numpy
import pytest

from opsdk.kernels import compiler_info

needs_c = pytest.mark.skipif(not compiler_info().available, reason="no C compiler: the c backend cannot run")
TOL = {"float32": dict(rtol=2e-5, atol=1e-4), "float64": dict(rtol=1e-10, atol=1e-10)}


def _up(value):
    return value.astype(numpy.float64) if isinstance(value, numpy.ndarray) and value.dtype.kind == "f" else value


def assert_c_agrees(kernel, *arrays, dtype, **params):
    """The C kernel matches the python kernel run in float64 (float32 sums over thousands of
    rows differ by their own rounding, so the reference is exact rather than the same dtype)."""
    got = kernel.run("c", *arrays, **params)
    want = kernel.run("python", *map(_up, arrays), **params)
    for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
        assert g.dtype == numpy.dtype(dtype)
        numpy.testing.assert_allclose(g, w, **TOL[dtype])
