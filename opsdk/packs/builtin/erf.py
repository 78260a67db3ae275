"""opsdk.erf: the error function, elementwise, with python, C and CUDA kernels.

The forward runs the Kernel ``opsdk.erf`` (CPU: C, then python; GPU: CUDA, then python); the
backward, ``2/sqrt(pi) * exp(-x^2) * dy``, is written with opsdk ops, so it differentiates again
to any order.
"""
import math

import numpy

from ...autograd import grad_mode as _grad_mode
from ...autograd.function import PyLayer
from ...errors import DTypeError
from ...functional.casting import float_arg
from ...functional.elementwise import exp
from ...kernels import CSource, CudaSource, Kernel, c_pointer, launch_1d
from ...tensor import _wrap
from ...kernels.cody_erf import erf as cody_erf

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)

erf_kernel = Kernel("opsdk.erf", dtypes=("float32", "float64"))


@erf_kernel.python
def _erf_python(x):
    """Cody's approximation, evaluated in float64 and returned in x's dtype."""
    return cody_erf(x).astype(x.dtype, copy=False)


@erf_kernel.c(CSource("csrc/erf.c", libraries=("m",),
                      cdef="void opsdk_erf_f32(const float *x, float *y, int64_t n);"
                           "void opsdk_erf_f64(const double *x, double *y, int64_t n);"))
def _erf_c(lib, ffi, x):
    y = numpy.empty_like(x)
    fn = lib.opsdk_erf_f32 if x.dtype == numpy.float32 else lib.opsdk_erf_f64
    fn(c_pointer(ffi, x), c_pointer(ffi, y, writable=True), x.size)
    return y


@erf_kernel.cuda(CudaSource("csrc/erf.cu", names=("opsdk_erf_f32", "opsdk_erf_f64")))
def _erf_cuda(module, x):
    import cupy  # only reached for CuPy arrays

    y = cupy.empty_like(x)
    name = "opsdk_erf_f32" if x.dtype == numpy.float32 else "opsdk_erf_f64"
    launch_1d(module.get_function(name), x.size, (x, y, numpy.int64(x.size)))
    return y


def erf_array(x):
    """erf of a NumPy or CuPy float array through the ``opsdk.erf`` kernel, keeping its dtype.

    For code that works on arrays (e.g. a kernel of another op); Tensors go through ``erf``.
    float16 is computed in float32 (the C and CUDA kernels take float32 and float64).

    Args:
        x: a float array (NumPy or CuPy), or anything ``numpy.asarray`` takes.

    Returns:
        An array of erf(x): same shape, dtype and device.

    Raises:
        DTypeError: x is not a float array.

    Example:
        >>> erf_array(numpy.array([0.0, 1.0]))
        array([0.        , 0.84270079])
    """
    if not isinstance(x, numpy.ndarray) and not hasattr(x, "__cuda_array_interface__"):
        x = numpy.asarray(x)
    dtype = x.dtype
    if dtype.kind != "f":
        raise DTypeError(f"opsdk.erf: argument 'x' must be a float array\n"
                         f"  expected: float16, float32 or float64\n  got: {dtype}")
    if dtype == numpy.float16:
        return erf_kernel(x.astype(numpy.float32)).astype(numpy.float16)
    return erf_kernel(x)


class Erf(PyLayer):
    """The error function, elementwise: erf(x) = 2/sqrt(pi) * integral from 0 to x of exp(-t^2) dt."""

    _opsdk_qualname = "opsdk.erf"  # the name the engine shows in errors about this op

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return _wrap(erf_array(x.array))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return dy * (_TWO_OVER_SQRT_PI * exp(-(x * x)))


def erf(x, name=None):
    """The error function, elementwise: erf(x) = 2/sqrt(pi) * integral from 0 to x of exp(-t^2) dt.

    Differentiable to any order (d/dx erf(x) = 2/sqrt(pi) * exp(-x^2)). Runs the C kernel on the
    CPU and the CUDA kernel on a GPU where they can run, else the python one.

    Args:
        x: a float Tensor (float16, float32 or float64); arrays, numbers and integer tensors
            become one (a bool tensor is an error, as in Paddle).
        name: ignored (Paddle compatibility).

    Returns:
        A Tensor of the same shape, dtype and place.

    Example:
        >>> opsdk.erf(opsdk.to_tensor([0.0, 1.0], dtype="float64")).numpy()
        array([0.        , 0.84270079])
    """
    # an integer tensor becomes the default float and a bool one is refused, as in Paddle
    x = float_arg(x, "erf")
    if not (x._req and _grad_mode._state.enabled):
        # nothing to record: skip the Function's bookkeeping (about 5 us a call)
        return _wrap(erf_array(x.array))
    return Erf.apply(x)


def register_op(register):
    """Register ``opsdk.erf`` with the SDK's pack."""
    from ..registry import TensorSpec

    register(Erf, name="erf", inputs=[TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))],
             dtypes=("float32", "float64"), double_backward=True, kernels=(erf_kernel,))
