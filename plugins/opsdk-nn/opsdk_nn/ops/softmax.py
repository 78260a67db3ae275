"""softmax and log_softmax along one axis, fused (one kernel forward, one backward).

The kernels are ``Rows`` ops (kernels/softmax.py) over an axis of x viewed as [outer, n, inner]:
any axis in place, no transpose. Backward reads the forward's output, not x. When the backward is itself recorded
(create_graph=True) its rule is written with opsdk ops on that output (which opsdk hands back
connected to the graph), so higher orders work too.
"""
import math

import opsdk as P
from opsdk.autograd import PyLayer

from ..kernels.softmax import LOG_SOFTMAX, SOFTMAX
from ._common import array_of, check_axis, creating_graph, float_input, grad_like, run, tensor


def _along(kernel, axis, *arrays):
    """``kernel`` over ``axis`` of the arrays, viewed as [outer, n, inner] around it (in place, no
    copy: the kernels take the axis in the middle). 0-d arrays are rows of one."""
    first = arrays[0]
    if first.ndim == 0:
        return run(kernel, *(a.reshape(1, 1) for a in arrays)).reshape(())
    shape = first.shape
    view = (math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1:]))
    if view[2] == 1:
        view = view[:2]
    return run(kernel, *(a.reshape(view) for a in arrays)).reshape(shape)


def _forward(ctx, x, axis, log, op):
    xa = float_input(x, op, "x")
    axis = check_axis(axis, xa.ndim, op)
    out = tensor(_along((LOG_SOFTMAX if log else SOFTMAX).forward_kernel, axis, xa))
    ctx.save_for_backward(out)  # version-checked: changing the output in place is caught
    ctx.axis, ctx.log = axis, log
    return out


def _backward(ctx, dy):
    (out,) = ctx.saved_tensor()
    if creating_graph():
        if ctx.log:
            return dy - P.exp(out) * P.sum(dy, axis=ctx.axis, keepdim=True)
        return out * (dy - P.sum(dy * out, axis=ctx.axis, keepdim=True))
    y = array_of(out)
    return tensor(_along((LOG_SOFTMAX if ctx.log else SOFTMAX).backward_kernel, ctx.axis, y, grad_like(dy, y)))


class Softmax(PyLayer):
    """softmax(x) = exp(x - max) / sum(exp(x - max)) along ``axis``; stable for any magnitude.

    Fused kernels (python, c, cuda: written from the row's statements), float32 and float64; any
    axis in place (no transpose).
    """

    _opsdk_qualname = "nn.softmax"

    @staticmethod
    def forward(ctx, x, axis=-1):
        return _forward(ctx, x, axis, False, "nn.softmax")

    backward = staticmethod(_backward)


class LogSoftmax(PyLayer):
    """log_softmax(x) = x - max - log(sum(exp(x - max))) along ``axis``; never takes log of 0.

    Fused kernels (python, c, cuda: written from the row's statements), float32 and float64.
    """

    _opsdk_qualname = "nn.log_softmax"

    @staticmethod
    def forward(ctx, x, axis=-1):
        return _forward(ctx, x, axis, True, "nn.log_softmax")

    backward = staticmethod(_backward)
