"""Broadcasting handled for the leading axis only."""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel

from . import _c
from ._arrays import array_of, tensor_of

F = ("float32", "float64")


def _reduce_to(g, shape):
    """Sum a broadcast gradient back to `shape` (the author's helper: leading axes only)."""
    shape = tuple(shape)
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    if g.shape != shape:
        g = g.sum(axis=0, keepdims=True)
    return numpy.asarray(g)


# -- out.sqdiff_bcast: (x - y)^2 with the leading-axis helper ----------------------------------
class SqDiff(opsdk.Function):
    """(x - y) ** 2, broadcasting."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return tensor_of((array_of(x) - array_of(y)) ** 2)

    @staticmethod
    def backward(ctx, dz):
        x, y = ctx.saved_tensor()
        a, b = array_of(x), array_of(y)
        g = 2 * (a - b) * array_of(dz)
        return tensor_of(_reduce_to(g, a.shape)), tensor_of(_reduce_to(-g, b.shape))


# -- out.mul_bcast_reshape: x * y; the reduction sums axis 0 and reshapes to the input --------
class MulReshape(opsdk.Function):
    """x * y, broadcasting."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return tensor_of(array_of(x) * array_of(y))

    @staticmethod
    def backward(ctx, dz):
        x, y = ctx.saved_tensor()
        a, b, g = array_of(x), array_of(y), array_of(dz)

        def back(grad, shape):
            if grad.shape == tuple(shape):
                return grad
            return grad.sum(axis=0).reshape(shape)

        return tensor_of(back(g * b, a.shape)), tensor_of(back(g * a, b.shape))


# -- out.bias_tanh_c: tanh(x + b), b per column; the C backward overwrites db per row ----------
bias_fwd = Kernel("out.bias_tanh_fwd", dtypes=F)
bias_bwd = Kernel("out.bias_tanh_bwd", dtypes=F)


@bias_fwd.python
def _(x, b):
    return numpy.tanh(x + b)


@bias_fwd.c(_c.ROWS)
def _(lib, ffi, x, b):
    y = numpy.empty_like(x)
    cols = b.size
    _c.fn(lib, "rt_biasact_fwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, b), _c.ptr(ffi, y, True),
                                    x.size // cols, cols)
    return y


@bias_bwd.python
def _(y, dy):
    dx = dy * (1 - y * y)
    return dx, dx.reshape(-1, dx.shape[-1]).sum(axis=0)


@bias_bwd.c(_c.ROWS)
def _(lib, ffi, y, dy):
    cols = y.shape[-1]
    dx = numpy.empty_like(y)
    db = numpy.empty(cols, dtype=y.dtype)
    _c.fn(lib, "rt_biasact_bwd", y)(_c.ptr(ffi, y), _c.ptr(ffi, dy), _c.ptr(ffi, dx, True),
                                    _c.ptr(ffi, db, True), y.size // cols, cols)
    return dx, db


class BiasTanh(opsdk.Function):
    """tanh(x + b) with a bias b per column (last axis)."""

    @staticmethod
    def forward(ctx, x, b):
        if b.ndim != 1 or b.shape[0] != x.shape[-1]:
            raise ValueError("out.bias_tanh_c: b must be a vector of x's last dimension")
        y = tensor_of(bias_fwd(array_of(x), array_of(b)))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        dx, db = bias_bwd(array_of(y), array_of(dy).astype(y.dtype, copy=False))
        return tensor_of(dx), tensor_of(db)


def register(register):
    register(SqDiff, name="sqdiff_bcast",
             inputs=[TensorSpec(shape=(3, 4)), TensorSpec(shape=(3, 4))], dtypes=F)
    register(MulReshape, name="mul_bcast_reshape",
             inputs=[TensorSpec(shape=(4, 4)), TensorSpec(shape=(4, 4))], dtypes=F)
    register(BiasTanh, name="bias_tanh_c", inputs=[TensorSpec(shape=(3, 4)), TensorSpec(shape=(4,))],
             dtypes=F, kernels=(bias_fwd, bias_bwd))
