"""Class 1, hidden state and aliasing: each op is right on a casual test, wrong in one way.

inplace_fwd      forward exponentiates its input in place (python)
inplace_fwd_c    the C adapter hands the input's buffer to the kernel as its output
grad_inplace     relu's backward zeroes its incoming gradient in place (python)
grad_inplace_c   the C backward adapter writes dx into dy's buffer
view_output      a clip whose fast path returns its input itself (python)
module_buffer_c  the C forward writes into one module-level buffer per shape
class_state      forward keeps x on the Function class, backward reads it from there
shape_cache      relu caches its mask per shape in a module-level dict
"""
import numpy as np

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel, c_pointer

from ._common import DTYPES, arr, c_source, kernel_op, sigmoid, suffix, ten

SOURCE = c_source("csrc/bugs.c", [
    "void swish_fwd_{S}(const {T} *x, {T} *y, int64_t n);",
    "void swish_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);",
])


def _swish(x):
    return (x * sigmoid(x)).astype(x.dtype)


def _swish_grad(x, dy):
    s = sigmoid(x)
    return (dy * (s + x * s * (1 - s))).astype(x.dtype)


class InplaceFwd(opsdk.PyLayer):
    """exp(x), computed into x's own memory (np.exp(out=...) reused the input)."""

    @staticmethod
    def forward(ctx, x):
        xa = arr(x)
        np.exp(xa, out=xa)
        y = ten(xa.copy())
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return dy * y


swish_inplace = Kernel("adv.swish_inplace_fwd", dtypes=DTYPES)
swish_inplace.python(_swish)


@swish_inplace.c(SOURCE)
def _(lib, ffi, x):
    # BUG: "no need for a new buffer": the kernel writes y over x
    getattr(lib, f"swish_fwd_{suffix(x)}")(c_pointer(ffi, x), c_pointer(ffi, x, writable=True), x.size)
    return x.copy()


swish_grad = Kernel("adv.swish_grad", dtypes=DTYPES)
swish_grad.python(_swish_grad)


@swish_grad.c(SOURCE)
def _(lib, ffi, x, dy):
    dx = np.empty_like(x)
    getattr(lib, f"swish_bwd_{suffix(x)}")(c_pointer(ffi, x), c_pointer(ffi, dy),
                                           c_pointer(ffi, dx, writable=True), x.size)
    return dx


InplaceFwdC = kernel_op("InplaceFwdC", swish_inplace, swish_grad,
                        "swish with a C kernel whose adapter writes over the input.")


class GradInplace(opsdk.PyLayer):
    """relu whose backward masks the incoming gradient in place."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return ten(np.maximum(arr(x), 0).astype(arr(x).dtype))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        g = arr(dy)
        g[arr(x) <= 0] = 0  # BUG: dy belongs to the caller
        return ten(g)


swish_grad_inplace = Kernel("adv.swish_grad_inplace", dtypes=DTYPES)
swish_grad_inplace.python(_swish_grad)


@swish_grad_inplace.c(SOURCE)
def _(lib, ffi, x, dy):
    # BUG: dx "reuses" dy's buffer
    getattr(lib, f"swish_bwd_{suffix(x)}")(c_pointer(ffi, x), c_pointer(ffi, dy),
                                           c_pointer(ffi, dy, writable=True), x.size)
    return dy


class GradInplaceC(opsdk.PyLayer):
    """swish whose C backward writes its result into the incoming gradient."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return ten(_swish(arr(x)))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return ten(swish_grad_inplace(arr(x), arr(dy)))


class ViewOutput(opsdk.PyLayer):
    """clip(x, -5, 5) with a fast path that returns x itself when nothing needs clipping."""

    @staticmethod
    def forward(ctx, x):
        xa = arr(x)
        ctx.save_for_backward(x)
        if ((xa > -5) & (xa < 5)).all():
            return ten(xa)  # BUG: the output is the input's memory
        return ten(np.clip(xa, -5, 5))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        xa = arr(x)
        return ten((arr(dy) * ((xa > -5) & (xa < 5))).astype(xa.dtype))


_BUFFERS = {}  # BUG: one output buffer per shape, shared by every call
swish_buffered = Kernel("adv.swish_buffered", dtypes=DTYPES)
swish_buffered.python(_swish)


@swish_buffered.c(SOURCE)
def _(lib, ffi, x):
    key = (x.shape, x.dtype.str)
    if key not in _BUFFERS:
        _BUFFERS[key] = np.empty_like(x)
    y = _BUFFERS[key]
    getattr(lib, f"swish_fwd_{suffix(x)}")(c_pointer(ffi, x), c_pointer(ffi, y, writable=True), x.size)
    return y


ModuleBufferC = kernel_op("ModuleBufferC", swish_buffered, swish_grad,
                          "swish whose C forward reuses a module-level output buffer.")


class ClassState(opsdk.PyLayer):
    """x**2 whose forward keeps x on the class (a second call overwrites it)."""

    saved = None

    @staticmethod
    def forward(ctx, x):
        ClassState.saved = arr(x).copy()  # BUG: state outside ctx
        return x * x

    @staticmethod
    def backward(ctx, dy):
        return dy * ten(2 * ClassState.saved)


_MASKS = {}  # BUG: a cache keyed by shape, not by the values


class ShapeCache(opsdk.PyLayer):
    """relu whose mask is cached per shape."""

    @staticmethod
    def forward(ctx, x):
        xa = arr(x)
        mask = _MASKS.setdefault(xa.shape, xa > 0)
        ctx.mask = mask
        return ten((xa * mask).astype(xa.dtype))

    @staticmethod
    def backward(ctx, dy):
        return ten((arr(dy) * ctx.mask).astype(arr(dy).dtype))


def register(register):
    """Register the hidden-state and aliasing bugs."""
    spec = [TensorSpec(shape=(3, 4), domain=(-2.0, 2.0))]
    kink = [TensorSpec(shape=(3, 4), domain=(-2.0, 2.0), avoid=(0.0,), min_distance=0.05)]
    register(InplaceFwd, name="inplace_fwd", inputs=spec)
    register(InplaceFwdC, name="inplace_fwd_c", inputs=spec, kernels=(swish_inplace, swish_grad))
    register(GradInplace, name="grad_inplace", inputs=kink)
    register(GradInplaceC, name="grad_inplace_c", inputs=spec, kernels=(swish_grad_inplace,))
    register(ViewOutput, name="view_output", inputs=spec)
    register(ModuleBufferC, name="module_buffer_c", inputs=spec, kernels=(swish_buffered, swish_grad))
    register(ClassState, name="class_state", inputs=spec)
    register(ShapeCache, name="shape_cache", inputs=kink)
