"""Code that assumes C-ordered arrays."""
import numpy

import opsdk
from opsdk import TensorSpec

from ._arrays import array_of, tensor_of

F = ("float32", "float64")


# -- out.softsign_ravel: works on x.ravel(order="K") and reshapes the result in C order --------
class SoftsignRavel(opsdk.Function):
    """x / (1 + |x|)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = array_of(x)
        flat = a.ravel(order="K")               # no copy, whatever the layout
        return tensor_of((flat / (1 + numpy.abs(flat))).reshape(a.shape))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        return tensor_of(array_of(dy) / (1 + numpy.abs(a)) ** 2)


# -- out.rowmax_scatter: backward scatters into dx.reshape(-1) ---------------------------------
class RowMaxScatter(opsdk.Function):
    """Max over the last axis."""

    @staticmethod
    def forward(ctx, x):
        a = array_of(x)
        ctx.save_for_backward(x)
        return tensor_of(a.max(axis=-1))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        cols = a.shape[-1]
        arg = a.reshape(-1, cols).argmax(axis=-1)
        dx = numpy.zeros_like(a)
        flat = dx.reshape(-1)
        flat[numpy.arange(arg.size) * cols + arg] = array_of(dy).reshape(-1)
        return tensor_of(dx)


def register(register):
    register(SoftsignRavel, name="softsign_ravel", inputs=[TensorSpec(shape=(3, 4))], dtypes=F)
    register(RowMaxScatter, name="rowmax_scatter", inputs=[TensorSpec(shape=(3, 5))], dtypes=F)
