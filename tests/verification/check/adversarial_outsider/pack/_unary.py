"""A Function for elementwise ops whose forward and backward are one kernel each."""
import numpy

import opsdk

from ._arrays import array_of, tensor_of
from ._maths import softplus


class SavedTanh(opsdk.Function):
    """tanh(x), saving its output: subclasses write backward from ``y``."""

    @staticmethod
    def forward(ctx, x):
        y = tensor_of(numpy.tanh(array_of(x)))
        ctx.save_for_backward(y)
        return y


class SavedSoftplus(opsdk.Function):
    """softplus(x), saving its input: subclasses write backward from ``x``."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return tensor_of(softplus(array_of(x)))


class TakeRows(opsdk.Function):
    """w[idx], rows of w picked by an index vector: subclasses write backward."""

    @staticmethod
    def forward(ctx, w, idx):
        ctx.save_for_backward(idx)
        ctx.rows = w.shape[0]
        return tensor_of(array_of(w)[array_of(idx)])


def unary_function(name, forward_kernel, backward_kernel, saves="x"):
    """Function y = forward_kernel(x), dx = backward_kernel(saved, dy); saved is x or y."""

    def forward(ctx, x):
        y = tensor_of(forward_kernel(array_of(x)))
        ctx.save_for_backward(x if saves == "x" else y)
        return y

    def backward(ctx, dy):
        (a,) = ctx.saved_tensor()
        return tensor_of(backward_kernel(array_of(a), array_of(dy).astype(a.dtype, copy=False)))

    return type(name, (opsdk.Function,), {"forward": staticmethod(forward),
                                         "backward": staticmethod(backward),
                                         "__doc__": f"{name}: elementwise, kernels in python and C."})
