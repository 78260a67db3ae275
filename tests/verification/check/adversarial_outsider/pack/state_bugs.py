"""Hidden state and aliasing: ops that touch what they were given or keep what they should not."""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel

from . import _c
from ._arrays import array_of, tensor_of
from ._unary import SavedTanh, unary_function

F = ("float32", "float64")


# -- out.softmax_inplace: forward subtracts the row max from its input in place ---------------
class SoftmaxInplace(opsdk.Function):
    """Softmax over the last axis."""

    @staticmethod
    def forward(ctx, x):
        a = array_of(x)
        a -= a.max(axis=-1, keepdims=True)      # "stabilise" -- on the caller's tensor
        e = numpy.exp(a)
        y = tensor_of(e / e.sum(axis=-1, keepdims=True))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        y, g = array_of(y), array_of(dy)
        return tensor_of(y * (g - (g * y).sum(axis=-1, keepdims=True)))


# -- out.tanh_dy_inplace: backward scales its incoming gradient in place and returns it -------
class TanhDyInplace(SavedTanh):
    """tanh(x)."""

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        g = array_of(dy)
        g *= 1 - array_of(y) ** 2
        return tensor_of(g)


# -- out.scale_view: alpha == 1 returns the input itself --------------------------------------
class ScaleView(opsdk.Function):
    """alpha * x."""

    @staticmethod
    def forward(ctx, x, alpha=1.0):
        ctx.alpha = alpha
        a = array_of(x)
        if alpha == 1.0:
            return tensor_of(a)             # nothing to do
        return tensor_of(a * alpha)

    @staticmethod
    def backward(ctx, dy):
        return dy * ctx.alpha


# -- out.square_buffer_c: the C adapter keeps its output buffer between calls -----------------
square_fwd = Kernel("out.square_buffer_fwd", dtypes=F)
square_bwd = Kernel("out.square_buffer_bwd", dtypes=F)
_BUFFERS = {}


@square_fwd.python
def _(x):
    return x * x


@square_fwd.c(_c.EW)
def _(lib, ffi, x):
    key = (x.shape, x.dtype.str)
    if key not in _BUFFERS:             # allocate once per shape: saves a malloc per call
        _BUFFERS[key] = numpy.empty_like(x)
    y = _BUFFERS[key]
    _c.fn(lib, "rt_square_fwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, y, True), x.size)
    return y


@square_bwd.python
def _(x, dy):
    return 2 * x * dy


_c.unary_grad(square_bwd, _c.EW, "rt_square_bwd")
SquareBuffer = unary_function("SquareBuffer", square_fwd, square_bwd)


# -- out.cube_class_state: x kept on the Function class instead of ctx ------------------------
class CubeClassState(opsdk.Function):
    """x ** 3."""

    @staticmethod
    def forward(ctx, x):
        CubeClassState.saved_x = array_of(x).copy()
        return tensor_of(array_of(x) ** 3)

    @staticmethod
    def backward(ctx, dy):
        return tensor_of(3 * CubeClassState.saved_x ** 2 * array_of(dy))


# -- out.l2norm_shape_cache: the row norms cached by shape ------------------------------------
_NORMS = {}


class L2NormShapeCache(opsdk.Function):
    """x / ||x|| over the last axis."""

    @staticmethod
    def forward(ctx, x):
        a = array_of(x)
        if a.shape not in _NORMS:
            _NORMS[a.shape] = numpy.sqrt((a * a).sum(axis=-1, keepdims=True))
        n = _NORMS[a.shape]
        y = a / n
        ctx.save_for_backward(tensor_of(y), tensor_of(n))
        return tensor_of(y)

    @staticmethod
    def backward(ctx, dy):
        y, n = (array_of(t) for t in ctx.saved_tensor())
        g = array_of(dy)
        return tensor_of((g - y * (g * y).sum(axis=-1, keepdims=True)) / n)


# -- out.sigmoid_dy_c: the C backward multiplies dy in place and hands it back ----------------
sig_fwd = Kernel("out.sigmoid_dy_fwd", dtypes=F)
sig_bwd = Kernel("out.sigmoid_dy_bwd", dtypes=F)


@sig_fwd.python
def _(x):
    return 1 / (1 + numpy.exp(-x))


_c.unary(sig_fwd, _c.EW, "rt_sigmoid_fwd")


@sig_bwd.python
def _(y, dy):
    return dy * y * (1 - y)


@sig_bwd.c(_c.EW)
def _(lib, ffi, y, dy):
    _c.fn(lib, "rt_sigmoid_bwd_inplace", y)(_c.ptr(ffi, y), _c.ptr(ffi, dy, True), y.size)
    return dy                              # no extra buffer needed


SigmoidDy = unary_function("SigmoidDy", sig_fwd, sig_bwd, saves="y")


def register(register):
    x = [TensorSpec(shape=(3, 4), domain=(-2.0, 2.0))]
    register(SoftmaxInplace, name="softmax_inplace", inputs=x, dtypes=F)
    register(TanhDyInplace, name="tanh_dy_inplace", inputs=x, dtypes=F)
    register(ScaleView, name="scale_view", inputs=x, attrs={"alpha": 1.0}, dtypes=F)
    register(SquareBuffer, name="square_buffer_c", inputs=x, dtypes=F,
             kernels=(square_fwd, square_bwd))
    register(CubeClassState, name="cube_class_state", inputs=x, dtypes=F)
    register(L2NormShapeCache, name="l2norm_shape_cache",
             inputs=[TensorSpec(shape=(3, 4), domain=(0.5, 2.0))], dtypes=F)
    register(SigmoidDy, name="sigmoid_dy_c", inputs=x, dtypes=F, kernels=(sig_fwd, sig_bwd))
