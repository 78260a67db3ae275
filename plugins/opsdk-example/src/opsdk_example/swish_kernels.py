"""The kernels of example.swish: forward and backward, each in python, C and CUDA.

A kernel works on arrays (NumPy on the CPU, CuPy on a GPU). opsdk picks its implementation per
call: C, then python, for NumPy arrays; CUDA, then python, for CuPy arrays; or the one forced
with ``opsdk.kernels.use_backend`` / ``OPSDK_BACKEND``.

    swish_fwd(x, *, beta) -> y               y = x * sigmoid(beta * x)
    swish_bwd(x, dy, *, beta) -> dx          dx = dy * swish'(x); x and dy of one shape and dtype

The C and CUDA functions ``swish_fwd_f32`` & co. are called as they are declared in csrc/: const
pointers are the inputs, the other pointer the output (allocated by opsdk like x), n the element
count, beta an attribute. opsdk reads the declarations from the sources, checks dtypes and
shapes, makes arrays contiguous and picks the function for the dtype: no adapter to write.
"""
from opsdk.kernels import CSource, CudaSource, Kernel, array_module
from opsdk.kernels.elementwise import C_FLAGS

# paths are relative to this file; both sources ship in the wheel as package data. C_FLAGS
# (-O3 -fno-math-errno -fno-trapping-math) and OpenMP are what opsdk/elementwise.h expects:
# vectorized loops, threads above OPSDK_OMP_MIN elements (see csrc/swish.c)
C_SOURCE = CSource("csrc/swish.c", openmp=True, extra_compile_args=C_FLAGS, libraries=("m",))
CUDA_SOURCE = CudaSource("csrc/swish.cu")

swish_fwd = Kernel("example.swish_fwd", dtypes=("float32", "float64"))
swish_bwd = Kernel("example.swish_bwd", dtypes=("float32", "float64"))


def _sigmoid(xp, z):
    """1 / (1 + exp(-z)); exp only ever sees -|z|, so it never overflows."""
    e = xp.exp(-xp.abs(z))
    return xp.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


# -- forward: y = x * sigmoid(beta * x) --------------------------------------------------------

@swish_fwd.python
def _(x, *, beta):
    return x * _sigmoid(array_module(x), beta * x)


swish_fwd.c(C_SOURCE, "swish_fwd").cuda(CUDA_SOURCE, "swish_fwd")


# -- backward: dx = dy * (s + beta * x * s * (1 - s)), s = sigmoid(beta * x) -------------------

@swish_bwd.python
def _(x, dy, *, beta):
    s = _sigmoid(array_module(x), beta * x)
    return dy * (s + beta * x * s * (1.0 - s))


swish_bwd.c(C_SOURCE, "swish_bwd").cuda(CUDA_SOURCE, "swish_bwd")
