"""Bugs visible in one selection regime only (issue 21, class 1).

sparsemax_k3   the backward divides by a support of at most 2 (written for pairs): right while
               a row has one or two active elements, wrong from three on
std_clamp      rows standardised by max(std, min_std); the backward always differentiates the
               std, also where the clamp holds it constant (nearly constant rows)
softmax_pair_c the C forward's fast path for rows of two (a sigmoid of the difference) has its
               sign flipped; the sample's rows are longer
softmax_sat    the backward skips saturated rows (max ahead of the rest by more than 10) and
               returns 0 for them: right for the values the sample draws, wrong for wide ones
"""
import numpy as np

import opsdk
from opsdk import Sample, TensorSpec
from opsdk_adversarial._common import arr, ten

from ._kernels import row_kernel
from .correct import softmax_grad_python, softmax_op, softmax_python
from .ported import sparsemax_op

SparsemaxK3 = sparsemax_op("SparsemaxK3", limit=2)


class StdClamp(opsdk.PyLayer):
    """(x - mean) / max(std, min_std) over the last axis."""

    @staticmethod
    def forward(ctx, x, min_std=0.05):
        a = arr(x).astype(np.float64)
        centred = a - a.mean(axis=-1, keepdims=True)
        std = np.sqrt((centred ** 2).mean(axis=-1, keepdims=True))
        ctx.state = (centred, std, float(min_std))
        return ten((centred / np.maximum(std, min_std)).astype(arr(x).dtype))

    @staticmethod
    def backward(ctx, dy):
        centred, std, _ = ctx.state
        g = arr(dy).astype(np.float64)
        y = centred / std
        # the unclamped standardisation's gradient, wherever the clamp holds or not (BUG)
        dx = (g - g.mean(axis=-1, keepdims=True) - y * (g * y).mean(axis=-1, keepdims=True)) / std
        return ten(dx.astype(arr(dy).dtype))


SoftmaxPair = softmax_op("SoftmaxPair",
                         row_kernel("reg.softmax_pair_fwd", "softmax_pair_fwd", softmax_python),
                         row_kernel("reg.softmax_pair_bwd", "softmax_wide_bwd",
                                         softmax_grad_python, inputs=2))


class SoftmaxSat(opsdk.PyLayer):
    """Softmax over the last axis."""

    @staticmethod
    def forward(ctx, x):
        y = softmax_python(arr(x))
        ctx.state = (arr(x).copy(), y)
        return ten(y.copy())

    @staticmethod
    def backward(ctx, dy):
        x, y = ctx.state
        g = softmax_grad_python(y, arr(dy))
        srt = np.sort(x, axis=-1)
        saturated = srt[..., -1] - srt[..., -2] > 10  # one-hot to within float32: skip (BUG)
        return ten(np.where(saturated[..., None], 0, g).astype(g.dtype))


def _logits(rng, dtype):
    return [Sample((rng.uniform(-3, 3, size=(3, 5)).astype(dtype),))]


def register(register):
    register(SparsemaxK3, name="sparsemax_k3", inputs=[TensorSpec(shape=(3, 4))])
    register(StdClamp, name="std_clamp", inputs=[TensorSpec(shape=(3, 5))],
             attrs={"min_std": 0.05})
    register(SoftmaxPair, name="softmax_pair_c", inputs=[TensorSpec(shape=(3, 5))],
             kernels=SoftmaxPair.kernels)
    register(SoftmaxSat, name="softmax_sat", samples=_logits)
