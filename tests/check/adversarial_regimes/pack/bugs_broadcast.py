"""Broadcasting bugs whose derived sizes ask for gigabytes (issue 21, class 5).

center_nokeep   python centres rows with x - x.mean(axis=-1), without keepdims: on the square
                sample it subtracts row j's mean from column j, on the sample of one column it
                returns a square, and on the C kernel's parallel size (65537 rows of one
                element) it broadcasts [65537, 1] against [65537] into 65537 x 65537 (16 GiB in
                float32): the bug must be reported as wrong values and shapes, the derived size
                within the memory budget
scale_nokeep    python divides rows by their maximum with x / x.max(axis=-1) (no keepdims):
                wrong on the square sample
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


def _square_and_column(rng, dtype):
    return [Sample((rng.uniform(-2, 2, size=shape).astype(dtype),)) for shape in ((4, 4), (3, 1))]


def register(register):
    register(CenterNoKeep, name="center_nokeep", samples=_square_and_column,
             kernels=CenterNoKeep.kernels)
    register(ScaleNoKeep, name="scale_nokeep", inputs=[TensorSpec(shape=(4, 4), domain=(0.5, 2.0))])
