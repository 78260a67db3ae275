"""The kernels of example.swish: forward and backward, each in python, C and CUDA.

A kernel works on arrays (NumPy on the CPU, CuPy on a GPU). opsdk picks its implementation per
call: C, then python, for NumPy arrays; CUDA, then python, for CuPy arrays; or the one forced
with ``opsdk.kernels.use_backend`` / ``OPSDK_BACKEND``. Before a C or CUDA call, opsdk checks
that the arrays are float32 or float64 and makes them C-contiguous.

    swish_fwd(x, *, beta) -> y               y = x * sigmoid(beta * x)
    swish_bwd(x, dy, *, beta) -> dx          dx = dy * swish'(x); x and dy of one shape and dtype
"""
import numpy

from opsdk.kernels import CSource, CudaSource, Kernel, c_pointer, launch_1d

from ._arrays import array_module

# paths are relative to this file; both sources ship in the wheel as package data
C_SOURCE = CSource(
    "csrc/swish.c",
    cdef="""
        void swish_fwd_f32(const float *x, float *y, int64_t n, float beta);
        void swish_fwd_f64(const double *x, double *y, int64_t n, double beta);
        void swish_bwd_f32(const float *x, const float *dy, float *dx, int64_t n, float beta);
        void swish_bwd_f64(const double *x, const double *dy, double *dx, int64_t n, double beta);
    """,
    libraries=("m",),
)
CUDA_SOURCE = CudaSource("csrc/swish.cu",
                         names=("swish_fwd_f32", "swish_fwd_f64", "swish_bwd_f32", "swish_bwd_f64"))

swish_fwd = Kernel("example.swish_fwd", dtypes=("float32", "float64"))
swish_bwd = Kernel("example.swish_bwd", dtypes=("float32", "float64"))


def _suffix(array):
    """The C/CUDA function suffix for an array's dtype."""
    return "f32" if array.dtype == numpy.float32 else "f64"


def _sigmoid(xp, z):
    """1 / (1 + exp(-z)); exp only ever sees -|z|, so it never overflows."""
    e = xp.exp(-xp.abs(z))
    return xp.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


# -- forward: y = x * sigmoid(beta * x) --------------------------------------------------------

@swish_fwd.python
def _(x, *, beta):
    return x * _sigmoid(array_module(x), beta * x)


@swish_fwd.c(C_SOURCE)
def _(lib, ffi, x, *, beta):
    y = numpy.empty_like(x)
    fn = getattr(lib, f"swish_fwd_{_suffix(x)}")
    fn(c_pointer(ffi, x), c_pointer(ffi, y, writable=True), x.size, beta)
    return y


@swish_fwd.cuda(CUDA_SOURCE)
def _(module, x, *, beta):
    import cupy  # only reached for CuPy arrays

    y = cupy.empty_like(x)
    launch_1d(module.get_function(f"swish_fwd_{_suffix(x)}"), x.size,
              (x, y, numpy.int64(x.size), x.dtype.type(beta)))
    return y


# -- backward: dx = dy * (s + beta * x * s * (1 - s)), s = sigmoid(beta * x) -------------------

@swish_bwd.python
def _(x, dy, *, beta):
    s = _sigmoid(array_module(x), beta * x)
    return dy * (s + beta * x * s * (1.0 - s))


@swish_bwd.c(C_SOURCE)
def _(lib, ffi, x, dy, *, beta):
    dx = numpy.empty_like(x)
    fn = getattr(lib, f"swish_bwd_{_suffix(x)}")
    fn(c_pointer(ffi, x), c_pointer(ffi, dy), c_pointer(ffi, dx, writable=True), x.size, beta)
    return dx


@swish_bwd.cuda(CUDA_SOURCE)
def _(module, x, dy, *, beta):
    import cupy  # only reached for CuPy arrays

    dx = cupy.empty_like(x)
    launch_1d(module.get_function(f"swish_bwd_{_suffix(x)}"), x.size,
              (x, dy, dx, numpy.int64(x.size), x.dtype.type(beta)))
    return dx
