"""The swish kernels the SDK writes from the op's maths: C agrees with python, CUDA compiles
(and agrees on a GPU)."""
import shutil
import warnings

import numpy
import pytest

from opsdk.kernels import cuda_status
from opsdk_example.swish import OP

swish_fwd, swish_bwd, swish_grad2 = OP.kernels

BETA = 1.5


def _uniform(dtype, size=1000, seed=0):
    return numpy.random.default_rng(seed).uniform(-8.0, 8.0, size=size).astype(dtype)


def _tolerance(dtype):
    eps = numpy.finfo(dtype).eps
    return {"rtol": 8 * eps, "atol": 8 * eps}


@pytest.mark.parametrize("kernel", OP.kernels, ids=lambda k: k.name)
def test_kernel_implements_python_c_and_cuda(kernel):
    assert kernel.backends == ("python", "c", "cuda")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_c_forward_agrees_with_python(cpu_backend, dtype):
    x = _uniform(dtype)
    got = swish_fwd.run(cpu_backend, x, beta=BETA)
    assert got.dtype == numpy.dtype(dtype)
    numpy.testing.assert_allclose(got, swish_fwd.run("python", x, beta=BETA), **_tolerance(dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_c_backward_agrees_with_python(cpu_backend, dtype):
    x, dy = _uniform(dtype), _uniform(dtype, seed=1)
    got = swish_bwd.run(cpu_backend, x, dy, beta=BETA)
    assert got.dtype == numpy.dtype(dtype)
    numpy.testing.assert_allclose(got, swish_bwd.run("python", x, dy, beta=BETA), **_tolerance(dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_c_second_derivative_agrees_with_python(cpu_backend, dtype):
    x, dy, g = _uniform(dtype), _uniform(dtype, seed=1), _uniform(dtype, seed=2)
    got = swish_grad2.run(cpu_backend, x, dy, g, beta=BETA)
    # swish'' holds 2 + beta x (1 - 2 s), which cancels near its zeros: float32's order of
    # operations shows there, within a few hundred ulps
    eps = numpy.finfo(dtype).eps
    for a, b in zip(got, swish_grad2.run("python", x, dy, g, beta=BETA)):
        assert a.dtype == numpy.dtype(dtype)
        numpy.testing.assert_allclose(a, b, rtol=256 * eps, atol=256 * eps)


def test_kernels_read_non_contiguous_arrays(cpu_backend):
    x = _uniform("float64", size=40).reshape(8, 5)[::2, 1:]
    numpy.testing.assert_allclose(swish_fwd.run(cpu_backend, x, beta=BETA),
                                  swish_fwd.run("python", numpy.ascontiguousarray(x), beta=BETA), rtol=1e-15)


def test_huge_arguments_neither_overflow_nor_warn(cpu_backend):
    x = numpy.array([-1e4, -800.0, 800.0, 1e4])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = swish_fwd.run(cpu_backend, x, beta=BETA)
        dx = swish_bwd.run(cpu_backend, x, numpy.ones_like(x), beta=BETA)
    numpy.testing.assert_array_equal(y, [-0.0, -0.0, 800.0, 1e4])
    numpy.testing.assert_array_equal(dx, [0.0, 0.0, 1.0, 1.0])


# above OPSDK_OMP_MIN (65536) the C kernels split the array in chunks across OpenMP threads; an
# odd size leaves a tail that is neither a whole chunk nor a whole vector
_THREADED = 65536 * 3 + 7


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_c_kernels_agree_with_python_on_arrays_split_across_threads(cpu_backend, dtype):
    x, dy = _uniform(dtype, size=_THREADED), _uniform(dtype, size=_THREADED, seed=1)
    numpy.testing.assert_allclose(swish_fwd.run(cpu_backend, x, beta=BETA),
                                  swish_fwd.run("python", x, beta=BETA), **_tolerance(dtype))
    numpy.testing.assert_allclose(swish_bwd.run(cpu_backend, x, dy, beta=BETA),
                                  swish_bwd.run("python", x, dy, beta=BETA), **_tolerance(dtype))


def test_float32_kernels_keep_inf_nan_and_signed_zero_as_python_does(cpu_backend):
    # the vectorized float32 sigmoid (opsdk/maths.h) must treat the special values as expf does
    x = numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1e-40, -1e-40, 88.7, -88.7,
                     104.0, -104.0, 3.4e38, -3.4e38] * 3, dtype="float32")
    with numpy.errstate(invalid="ignore", over="ignore"):  # NumPy's own inf * 0 and overflow
        want_y = swish_fwd.run("python", x, beta=BETA)
        want_dx = swish_bwd.run("python", x, numpy.ones_like(x), beta=BETA)
        y = swish_fwd.run(cpu_backend, x, beta=BETA)
        dx = swish_bwd.run(cpu_backend, x, numpy.ones_like(x), beta=BETA)
    numpy.testing.assert_array_equal(y, want_y)
    numbers = ~numpy.isnan(want_y)  # a NaN's sign bit means nothing
    numpy.testing.assert_array_equal(numpy.signbit(y[numbers]), numpy.signbit(want_y[numbers]))
    numpy.testing.assert_allclose(dx, want_dx, rtol=8 * numpy.finfo("float32").eps)


@pytest.mark.skipif(shutil.which("nvcc") is None,
                    reason="nvcc is not on PATH: the CUDA source cannot be compile-checked")
def test_cuda_source_passes_the_nvcc_compile_check():
    # the three kernels share the written source: one check covers them
    assert swish_fwd.check_cuda().checked


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_status()[0], reason=f"no CUDA device: {cuda_status()[1]}")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cuda_kernels_agree_with_python_on_gpu(dtype):
    import cupy

    x, dy = cupy.asarray(_uniform(dtype)), cupy.asarray(_uniform(dtype, seed=1))
    y = swish_fwd.run("cuda", x, beta=BETA)
    dx = swish_bwd.run("cuda", x, dy, beta=BETA)
    assert isinstance(y, cupy.ndarray) and y.dtype == dx.dtype == numpy.dtype(dtype)
    want_y = swish_fwd.run("python", x, beta=BETA).get()
    want_dx = swish_bwd.run("python", x, dy, beta=BETA).get()
    numpy.testing.assert_allclose(y.get(), want_y, **_tolerance(dtype))
    numpy.testing.assert_allclose(dx.get(), want_dx, **_tolerance(dtype))
