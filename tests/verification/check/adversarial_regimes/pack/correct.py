"""Hard correct ops: selections with legitimate ties, a declared float32 accumulator, regime
switches, a broadcast, a cost hint. `opsdk check` must pass every one on every seed.

rowmax (a value and its index, C and python, ties to the first index), nearest (one side of
a chamfer distance: distances and indices, C forward and a C backward that scatters),
rowmax_any (its C kernel takes the last of equal values, python the first: declared
``ties="any"``), rowsum (C, a double accumulator), rowsum_f32 (C, a float accumulator for
float32, declared ``accumulation="dtype"``), softmax_c (C, double accumulators), center (row
centring, C in parallel above 65536 rows), huber (a regime switch at delta, python and C),
hinge (a margin loss with ±1 labels), topk_mask (the k largest of a row kept, ties to the
first).
"""
import numpy as np

import opsdk
from opsdk import Sample, TensorSpec
from opsdk_adversarial._common import arr, ten

from ._kernels import (huber_kernels, nearest_grad_c, nearest_kernel, nearest_python,
                       row_kernel)


def _argmax_first(x):
    idx = np.argmax(x, axis=-1)
    return np.take_along_axis(x, idx[..., None], -1)[..., 0], idx.astype(np.int64)


def rowmax_op(class_name, kernel, doc):
    """A Function: (max over the last axis, its index); the gradient goes to that index."""

    def forward(ctx, x):
        y, idx = kernel(arr(x))
        ctx.shape = x.shape
        ctx.idx = idx
        out_idx = ten(idx)
        ctx.mark_non_differentiable(out_idx)
        return ten(y), out_idx

    def backward(ctx, dy, didx):
        dx = np.zeros(ctx.shape, arr(dy).dtype)
        np.put_along_axis(dx, ctx.idx[..., None], arr(dy)[..., None], -1)
        return ten(dx)

    return type(class_name, (opsdk.PyLayer,), {"forward": staticmethod(forward),
                                               "backward": staticmethod(backward),
                                               "__module__": __name__, "__doc__": doc,
                                               "kernels": (kernel,)})


rowmax_first = row_kernel("reg.rowmax_first", "rowmax_first_fwd", _argmax_first,
                          outputs=("row", "index"))
RowMax = rowmax_op("RowMax", rowmax_first, "Max over the last axis and its index (ties: first).")

rowmax_any_kernel = row_kernel("reg.rowmax_any", "rowmax_last_fwd", _argmax_first,
                               outputs=("row", "index"))
RowMaxAny = rowmax_op("RowMaxAny", rowmax_any_kernel,
                      "Max over the last axis; C takes the last of equal values, python the first.")


def nearest_op(class_name, fwd, bwd):
    """A Function: for each point of x, the squared distance to the nearest point of y and its
    index (one side of a chamfer distance); backward scatters along the indices."""

    def forward(ctx, x, y):
        dist, idx = fwd(arr(x), arr(y))
        ctx.save_for_backward(x, y)
        ctx.idx = idx
        out_idx = ten(idx)
        ctx.mark_non_differentiable(out_idx)
        return ten(dist), out_idx

    def backward(ctx, ddist, didx):
        x, y = ctx.saved_tensor()
        gx, gy = bwd(arr(x), arr(y), ctx.idx, arr(ddist))
        return ten(gx), ten(gy)

    return type(class_name, (opsdk.PyLayer,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward),
        "__module__": __name__, "kernels": (fwd, bwd),
        "__doc__": "For each point of x: the squared distance to the nearest y and its index."})


Nearest = nearest_op("Nearest",
                     nearest_kernel("reg.nearest_first", "nearest_first", nearest_python()),
                     nearest_grad_c("reg.nearest_bwd"))


def _rowsum(x):
    return x.sum(axis=-1, dtype=np.float64).astype(x.dtype)


def rowsum_op(class_name, kernel):
    """A Function: the sum over the last axis."""

    def forward(ctx, x):
        ctx.shape = x.shape
        return ten(kernel(arr(x)))

    def backward(ctx, dy):
        return ten(np.broadcast_to(arr(dy)[..., None], ctx.shape).copy())

    return type(class_name, (opsdk.PyLayer,), {"forward": staticmethod(forward),
                                               "backward": staticmethod(backward),
                                               "__module__": __name__, "__doc__": "Row sums.",
                                               "kernels": (kernel,)})


RowSum = rowsum_op("RowSum", row_kernel("reg.rowsum", "rowsum_wide", _rowsum, outputs=("row",)))
RowSumF32 = rowsum_op("RowSumF32", row_kernel("reg.rowsum_f32", "rowsum_narrow", _rowsum,
                                               outputs=("row",)))


def softmax_python(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(x.dtype)


def softmax_grad_python(y, dy):
    return (y * (dy - (y * dy).sum(axis=-1, keepdims=True))).astype(y.dtype)


def softmax_op(class_name, fwd, bwd):
    """A Function: softmax over the last axis with kernels ``fwd`` (x) and ``bwd`` (y, dy)."""

    def forward(ctx, x):
        y = fwd(arr(x))
        ctx.save_for_backward(ten(y))
        return ten(y.copy())

    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return ten(bwd(arr(y), arr(dy)))

    return type(class_name, (opsdk.PyLayer,), {"forward": staticmethod(forward),
                                               "backward": staticmethod(backward),
                                               "__module__": __name__,
                                               "__doc__": "Softmax over the last axis.",
                                               "kernels": (fwd, bwd)})


SoftmaxC = softmax_op("SoftmaxC",
                      row_kernel("reg.softmax_fwd", "softmax_wide_fwd", softmax_python),
                      row_kernel("reg.softmax_bwd", "softmax_wide_bwd", softmax_grad_python,
                                 inputs=2))


def center_python(x):
    return (x - x.mean(axis=-1, keepdims=True)).astype(x.dtype)


def center_op(class_name, python, doc):
    """A Function: each row minus its mean (C kernel in parallel above 65536 rows)."""
    kernel = row_kernel(f"reg.{class_name.lower()}", "center_fwd", python)

    def forward(ctx, x):
        return ten(kernel(arr(x)))

    def backward(ctx, dy):
        return ten(center_python(arr(dy)))

    return type(class_name, (opsdk.PyLayer,), {"forward": staticmethod(forward),
                                               "backward": staticmethod(backward),
                                               "__module__": __name__, "__doc__": doc,
                                               "kernels": (kernel,)})


Center = center_op("Center", center_python, "Each row minus its mean.")

huber_fwd, huber_bwd = huber_kernels()


class Huber(opsdk.PyLayer):
    """Huber loss, elementwise: x^2 / 2 below delta, delta (|x| - delta / 2) above."""

    kernels = (huber_fwd, huber_bwd)

    @staticmethod
    def forward(ctx, x, delta=1.0):
        ctx.save_for_backward(x)
        ctx.delta = float(delta)
        return ten(huber_fwd(arr(x), delta=ctx.delta))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return ten(huber_bwd(arr(x), arr(dy), delta=ctx.delta))


class Hinge(opsdk.PyLayer):
    """Hinge loss per element, max(0, 1 - label * x), labels ±1 (a float input, not
    differentiated)."""

    @staticmethod
    def forward(ctx, x, label):
        ctx.save_for_backward(x, label)
        a, t = arr(x), arr(label)
        return ten(np.maximum(0, 1 - t * a).astype(a.dtype))

    @staticmethod
    def backward(ctx, dy):
        x, label = ctx.saved_tensor()
        a, t = arr(x), arr(label)
        return ten(np.where(1 - t * a > 0, -t, 0).astype(a.dtype) * arr(dy)), None


def _hinge_samples(rng, dtype):
    x = rng.uniform(-3, 3, size=(4, 5))
    x = np.where(np.abs(x - 1) < 0.05, x + 0.2, x)  # clear of the margins at ±1
    x = np.where(np.abs(x + 1) < 0.05, x - 0.2, x)
    label = np.where(rng.uniform(size=(4, 5)) < 0.5, -1.0, 1.0)
    return [Sample((x.astype(dtype), opsdk.to_tensor(label.astype(dtype))))]


def topk_mask(x, k):
    """Mask of the k largest of each row; of equal values the first ones win (a stable sort)."""
    order = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    mask = np.zeros(x.shape, bool)
    np.put_along_axis(mask, order, True, -1)
    return mask


class TopKMask(opsdk.PyLayer):
    """The k largest entries of each row kept, the others zeroed."""

    @staticmethod
    def forward(ctx, x, k=2):
        mask = topk_mask(arr(x), k)
        ctx.mask = mask
        return ten(np.where(mask, arr(x), 0).astype(arr(x).dtype))

    @staticmethod
    def backward(ctx, dy):
        return ten(np.where(ctx.mask, arr(dy), 0).astype(arr(dy).dtype))


def register(register):
    x = [TensorSpec(shape=(3, 5))]
    register(RowMax, name="rowmax", inputs=x, kernels=RowMax.kernels)
    register(RowMaxAny, name="rowmax_any", inputs=x, ties="any", kernels=RowMaxAny.kernels)
    register(Nearest, name="nearest", inputs=[TensorSpec(shape=(5, 3)), TensorSpec(shape=(4, 3))],
             kernels=Nearest.kernels)
    register(RowSum, name="rowsum", inputs=x, kernels=RowSum.kernels)
    register(RowSumF32, name="rowsum_f32", inputs=x, accumulation="dtype",
             kernels=RowSumF32.kernels)
    register(SoftmaxC, name="softmax_c", inputs=x, kernels=SoftmaxC.kernels)
    register(Center, name="center", inputs=[TensorSpec(shape=(4, 5))], kernels=Center.kernels)
    register(Huber, name="huber", inputs=x, attrs={"delta": 1.0}, attr_ranges={"delta": (0.5, 1.5)},
             kernels=Huber.kernels)
    register(Hinge, name="hinge", samples=_hinge_samples)
    register(TopKMask, name="topk_mask", inputs=[TensorSpec(shape=(3, 6))], attrs={"k": 2})
