"""Bugs in code that runs outside kernels: buffers half filled, tuple attributes, list arguments."""
import numpy

import opsdk
from opsdk import TensorSpec

from ._arrays import array_of, tensor_of

F = ("float32", "float64")


# -- out.relu_empty: python Function fills numpy.empty_like only where x > 0 -------------------
class ReluEmpty(opsdk.Function):
    """max(x, 0)."""

    @staticmethod
    def forward(ctx, x):
        a = array_of(x)
        ctx.save_for_backward(x)
        y = numpy.empty_like(a)
        pos = a > 0
        y[pos] = a[pos]                      # the rest is zero anyway (it is not)
        return tensor_of(y)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return tensor_of(numpy.where(array_of(x) > 0, array_of(dy), 0).astype(array_of(dy).dtype))


# -- out.clamp_bounds_hardcoded: bounds as a tuple attribute; backward uses the default tuple --
class ClampBounds(opsdk.Function):
    """clip(x, *bounds)."""

    @staticmethod
    def forward(ctx, x, bounds=(-0.5, 0.5)):
        ctx.save_for_backward(x)
        return tensor_of(numpy.clip(array_of(x), *bounds))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        inside = (a >= -0.5) & (a <= 0.5)
        return tensor_of(numpy.where(inside, array_of(dy), 0).astype(a.dtype))


# -- out.sum_axes_mutates: normalises negative axes in the caller's list -----------------------
class SumAxes(opsdk.Function):
    """Sum over the listed axes."""

    @staticmethod
    def forward(ctx, x, axes=None):
        a = array_of(x)
        for i, ax in enumerate(axes):
            if ax < 0:
                axes[i] = ax + a.ndim        # in place, on the caller's list
        ctx.axes, ctx.shape = tuple(axes), a.shape
        return tensor_of(a.sum(axis=tuple(axes)))

    @staticmethod
    def backward(ctx, dy):
        g = numpy.expand_dims(array_of(dy), ctx.axes)
        return tensor_of(numpy.broadcast_to(g, ctx.shape).copy())


def register(register):
    register(ReluEmpty, name="relu_empty", inputs=[TensorSpec(shape=(3, 4), avoid=(0.0,))], dtypes=F)
    register(ClampBounds, name="clamp_bounds_hardcoded",
             inputs=[TensorSpec(shape=(3, 4), domain=(-1.0, 1.0))],
             attrs={"bounds": (-0.5, 0.5)}, dtypes=F)
    register(SumAxes, name="sum_axes_mutates", inputs=[TensorSpec(shape=(3, 4))],
             attrs={"axes": [-1]}, dtypes=F)
