"""Broadcasting bugs whose derived sizes ask for gigabytes (issue 21, class 5).

center_nokeep   python centres rows with x - x.mean(axis=-1), without keepdims: on the square
                sample it subtracts row j's mean from column j, on the sample of one column it
                returns a square, and on the C kernel's parallel size (65537 rows of one
                element) it broadcasts [65537, 1] against [65537] into 65537 x 65537 (16 GiB in
                float32): the bug must be reported as wrong values and shapes, the derived size
                within the memory budget
scale_nokeep    python divides rows by their maximum with x / x.max(axis=-1) (no keepdims):
                wrong on the square sample
template_mean   squared distances of a batch to templates, sum((x - t)^2, -1), where one
                template t[1, n] may serve the whole batch: backward reduces its gradient over
                the batch with a mean instead of a sum
share_squeeze   each row's share of its sum, x / x.sum(-1): backward takes the sums as
                s.squeeze()[..., None], which drops a middle axis of size 1 (x[2, 1, 5]) and
                broadcasts the gradient into a wrong shape
"""
import numpy as np

import opsdk
from opsdk import Sample, TensorSpec
from opsdk_adversarial._common import arr, ten

from .correct import center_op


def _center_wrong(x):
    return (x - x.mean(axis=-1)).astype(x.dtype)


CenterNoKeep = center_op("CenterNoKeep", _center_wrong, "Each row minus its mean.")


class ScaleNoKeep(opsdk.PyLayer):
    """Each row divided by its maximum (positive inputs)."""

    @staticmethod
    def forward(ctx, x):
        a = arr(x)
        top = a.max(axis=-1)
        ctx.save_for_backward(x)
        return ten((a / top).astype(a.dtype))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a, g = arr(x), arr(dy)
        top = a.max(axis=-1, keepdims=True)
        dx = g / top
        first = np.argmax(a, axis=-1)
        np.put_along_axis(dx, first[..., None],
                          np.take_along_axis(dx, first[..., None], -1)
                          - (g * a).sum(-1, keepdims=True) / top ** 2, -1)
        return ten(dx.astype(a.dtype))


class TemplateMean(opsdk.PyLayer):
    """sum((x - t)^2, -1) for x[b, n] and t[b, n] or t[1, n] (one template for the batch)."""

    @staticmethod
    def forward(ctx, x, t):
        ctx.save_for_backward(x, t)
        d = arr(x) - arr(t)
        return ten((d * d).sum(-1).astype(d.dtype))

    @staticmethod
    def backward(ctx, dy):
        x, t = ctx.saved_tensor()
        g = 2 * (arr(x) - arr(t)) * arr(dy)[:, None]
        dt = -g
        if dt.shape != arr(t).shape:
            dt = dt.mean(axis=0, keepdims=True)  # BUG: a broadcast gradient is summed
        return ten(g.astype(arr(x).dtype)), ten(dt.astype(arr(t).dtype))


class ShareSqueeze(opsdk.PyLayer):
    """x / x.sum(-1) over the last axis (positive inputs)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = arr(x)
        return ten((a / a.sum(-1, keepdims=True)).astype(a.dtype))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a, g = arr(x), arr(dy)
        s = a.sum(-1, keepdims=True).squeeze()[..., None]  # BUG: squeeze drops every size-1 axis
        return ten((g / s - (g * a).sum(-1, keepdims=True).squeeze()[..., None] / s ** 2)
                   .astype(a.dtype))


def _square_and_column(rng, dtype):
    return [Sample((rng.uniform(-2, 2, size=shape).astype(dtype),)) for shape in ((4, 4), (3, 1))]


def register(register):
    register(CenterNoKeep, name="center_nokeep", samples=_square_and_column,
             kernels=CenterNoKeep.kernels)
    register(ScaleNoKeep, name="scale_nokeep", inputs=[TensorSpec(shape=(4, 4), domain=(0.5, 2.0))])
    register(TemplateMean, name="template_mean",
             inputs=[TensorSpec(shape=(3, 4)), TensorSpec(shape=(3, 4))])
    register(ShareSqueeze, name="share_squeeze",
             inputs=[TensorSpec(shape=(2, 3, 5), domain=(0.5, 2.0))])
