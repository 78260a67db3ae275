"""Bugs visible at exact ties only (issue 21, class 2).

rowmax_last_c   the C kernel takes the last of equal values (>=), python the first: the index
                output and the gradient go elsewhere at a tie
nearest_last_c  the C nearest neighbour keeps the last of equal distances (<=): a duplicated
                point of y gets the index and the gradient python gives the first copy
rowmax_bwd_c    forward agrees (first index), but the C backward finds the maximum again with
                >= and sends the gradient to the last of equal values
rowmax_grad_ties  python only: the index output names the first maximum, but backward sends
                the gradient to every element equal to the maximum (a mask x == max)
"""
import numpy as np

import opsdk
from opsdk import TensorSpec
from opsdk_adversarial._common import arr, ten

from ._kernels import nearest_grad_c, nearest_kernel, nearest_python, row_kernel
from .correct import _argmax_first, nearest_op, rowmax_first, rowmax_op

RowMaxLast = rowmax_op("RowMaxLast", row_kernel("reg.rowmax_last", "rowmax_last_fwd",
                                                   _argmax_first, outputs=("row", "index")),
                       "Max over the last axis and its index.")


NearestLast = nearest_op("NearestLast",
                         nearest_kernel("reg.nearest_last", "nearest_last", nearest_python()),
                         nearest_grad_c("reg.nearest_last_bwd"))


_argmax_again = row_kernel("reg.rowmax_again", "rowmax_last_fwd", _argmax_first,
                           outputs=("row", "index"))


class RowMaxBwd(opsdk.PyLayer):
    """Max over the last axis and its index; backward finds the maximum again."""

    kernels = (rowmax_first, _argmax_again)

    @staticmethod
    def forward(ctx, x):
        y, idx = rowmax_first(arr(x))
        ctx.save_for_backward(x)
        out_idx = ten(idx)
        ctx.mark_non_differentiable(out_idx)
        return ten(y), out_idx

    @staticmethod
    def backward(ctx, dy, didx):
        (x,) = ctx.saved_tensor()
        _, idx = _argmax_again(arr(x))
        dx = np.zeros(x.shape, arr(dy).dtype)
        np.put_along_axis(dx, idx[..., None], arr(dy)[..., None], -1)
        return ten(dx)


class RowMaxGradTies(opsdk.PyLayer):
    """Max over the last axis and its (first) index; backward sends the gradient to every
    element equal to the maximum (a mask ``x == max``), not to the one the index names."""

    @staticmethod
    def forward(ctx, x):
        a = arr(x)
        idx = np.argmax(a, axis=-1)
        ctx.save_for_backward(x)
        out_idx = ten(idx)
        ctx.mark_non_differentiable(out_idx)
        return ten(np.take_along_axis(a, idx[..., None], -1)[..., 0]), out_idx

    @staticmethod
    def backward(ctx, dy, didx):
        (x,) = ctx.saved_tensor()
        a = arr(x)
        mask = a == a.max(axis=-1, keepdims=True)
        return ten((mask * arr(dy)[..., None]).astype(a.dtype))


def register(register):
    x = [TensorSpec(shape=(3, 5))]
    register(RowMaxLast, name="rowmax_last_c", inputs=x, kernels=RowMaxLast.kernels)
    register(NearestLast, name="nearest_last_c",
             inputs=[TensorSpec(shape=(5, 3)), TensorSpec(shape=(4, 3))],
             kernels=NearestLast.kernels)
    register(RowMaxBwd, name="rowmax_bwd_c", inputs=x, kernels=RowMaxBwd.kernels)
    register(RowMaxGradTies, name="rowmax_grad_ties", inputs=x)
