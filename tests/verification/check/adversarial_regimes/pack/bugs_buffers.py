"""Bugs of a buffer reused across calls (issue 21, class 4).

tanh_buf        the backward writes dy * (1 - y^2) into one module-level array per shape and
                returns it: each call overwrites the gradient the last one handed out
nearest_buf_c   the C backward of a nearest neighbour scatters the gradient of y into an array
                its adapter keeps per shape between calls (to save the allocation)
softsign_ws     a twice-differentiable softsign: under create_graph it differentiates its
                formula, otherwise it computes into a module-level workspace with ``out=`` and
                returns it; two calls in one graph (a model applying it twice) get the second
                node's gradient for both
"""
import numpy as np

import opsdk
from opsdk import TensorSpec
from opsdk_adversarial._common import arr, ten

from ._kernels import nearest_grad_c, nearest_kernel, nearest_python
from .correct import nearest_op

_BUFFERS = {}


class TanhBuf(opsdk.PyLayer):
    """tanh(x)."""

    @staticmethod
    def forward(ctx, x):
        y = np.tanh(arr(x))
        ctx.save_for_backward(ten(y))
        return ten(y.copy())

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        a = arr(y)
        out = _BUFFERS.setdefault((a.shape, a.dtype.str), np.empty_like(a))
        np.multiply(arr(dy), 1 - a * a, out=out)
        return ten(out)


_SCATTER = {}


NearestBuf = nearest_op("NearestBuf",
                        nearest_kernel("reg.nearest_buf_fwd", "nearest_first", nearest_python()),
                        nearest_grad_c("reg.nearest_buf_bwd", _SCATTER))


_WORKSPACE = {}


class SoftsignWs(opsdk.PyLayer):
    """x / (1 + |x|)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = arr(x)
        return ten((a / (1 + np.abs(a))).astype(a.dtype))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        if opsdk.is_grad_enabled():  # create_graph: differentiable in x and dy
            return dy / ((1 + opsdk.abs(x)) * (1 + opsdk.abs(x)))
        a = arr(x)
        out = _WORKSPACE.setdefault((a.shape, a.dtype.str), np.empty_like(a))
        np.abs(a, out=out)
        out += 1
        np.multiply(out, out, out=out)
        np.divide(arr(dy), out, out=out)
        return ten(out)


def register(register):
    register(TanhBuf, name="tanh_buf", inputs=[TensorSpec(shape=(3, 4))])
    register(NearestBuf, name="nearest_buf_c",
             inputs=[TensorSpec(shape=(5, 3)), TensorSpec(shape=(4, 3))],
             kernels=NearestBuf.kernels)
    register(SoftsignWs, name="softsign_ws", inputs=[TensorSpec(shape=(3, 4))],
             double_backward=True)
