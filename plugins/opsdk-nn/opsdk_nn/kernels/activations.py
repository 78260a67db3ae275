"""Kernels of the elementwise activations: forward, backward and double backward, three backends.

For each activation ``act`` (gelu, gelu_tanh, silu, softplus, mish) there are three kernels:
``nn.<act>_fwd(x, p0=, p1=) -> y``, ``nn.<act>_bwd(x, dy, ...) -> dx`` and
``nn.<act>_bwd2(x, dy, g, ...) -> (gx, gdy)``; p0, p1 carry the activation's parameters
(softplus: beta, threshold).
"""
from typing import NamedTuple

import numpy

from opsdk.kernels import Kernel, cuda_function, launch_1d

from ..maths import array_module, compute_dtype
from . import activation_math as math
from .sources import ACTIVATIONS, ACTIVATIONS_C, ACTIVATIONS_CUDA


class ActivationKernels(NamedTuple):
    """The three kernels of one activation."""

    fwd: Kernel
    bwd: Kernel
    bwd2: Kernel


def _python(value, first, second):
    """The python implementations (compute in float32 for float16, cast back)."""

    def fwd(x, *, p0=0.0, p1=0.0):
        xp, dt = array_module(x), compute_dtype(x)
        return value(xp, x.astype(dt, copy=False), p0, p1).astype(x.dtype, copy=False)

    def bwd(x, dy, *, p0=0.0, p1=0.0):
        xp, dt = array_module(x), compute_dtype(x)
        d1 = first(xp, x.astype(dt, copy=False), p0, p1)
        return (dy * d1).astype(x.dtype, copy=False)

    def bwd2(x, dy, g, *, p0=0.0, p1=0.0):
        xp, dt = array_module(x), compute_dtype(x)
        xc = x.astype(dt, copy=False)
        gx = g * dy * second(xp, xc, p0, p1)
        gdy = g * first(xp, xc, p0, p1)
        return gx.astype(x.dtype, copy=False), gdy.astype(x.dtype, copy=False)

    return fwd, bwd, bwd2


def _cuda(act):
    """The CUDA adapters: grid-stride kernels launched over x.size elements."""
    import_names = tuple(f"nn_{act}_{stage}" for stage in ("fwd", "bwd", "bwd2"))

    def scalars(x, p0, p1):
        return numpy.int64(x.size), numpy.float64(p0), numpy.float64(p1)

    def fwd(module, x, *, p0=0.0, p1=0.0):
        y = array_module(x).empty_like(x)
        launch_1d(cuda_function(module, import_names[0], x.dtype), x.size, (x, y, *scalars(x, p0, p1)))
        return y

    def bwd(module, x, dy, *, p0=0.0, p1=0.0):
        dx = array_module(x).empty_like(x)
        launch_1d(cuda_function(module, import_names[1], x.dtype), x.size,
                  (x, dy, dx, *scalars(x, p0, p1)))
        return dx

    def bwd2(module, x, dy, g, *, p0=0.0, p1=0.0):
        xp = array_module(x)
        gx, gdy = xp.empty_like(x), xp.empty_like(x)
        launch_1d(cuda_function(module, import_names[2], x.dtype), x.size,
                  (x, dy, g, gx, gdy, *scalars(x, p0, p1)))
        return gx, gdy

    return fwd, bwd, bwd2


def _build(act):
    """The three Kernel objects of activation ``act``, each with python, c and cuda.

    The C functions nn_<act>_<stage>_<f32|f64> follow the SDK's convention (inputs, outputs, n,
    then p0 and p1), so opsdk writes their adapters from the declarations in sources.py.
    """
    rules = (getattr(math, f"{act}_value"), getattr(math, f"{act}_first"), getattr(math, f"{act}_second"))
    kernels = []
    for stage, py, cuda in zip(("fwd", "bwd", "bwd2"), _python(*rules), _cuda(act)):
        kernel = Kernel(f"nn.{act}_{stage}", dtypes=("float32", "float64"))
        kernel.python(py)
        kernel.c(ACTIVATIONS_C, f"nn_{act}_{stage}")
        kernel.cuda(ACTIVATIONS_CUDA)(cuda)
        kernels.append(kernel)
    return ActivationKernels(*kernels)


KERNELS = {act: _build(act) for act in ACTIVATIONS}
