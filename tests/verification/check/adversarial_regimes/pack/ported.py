"""Correct ops whose maths was ported from public projects (the maths, not their code).

sparsemax: the Euclidean projection onto the simplex of Martins & Astudillo (2016), computed
as the entmax package (deep-spin/entmax) does: sort each row, the support is the largest k with
1 + k z_(k) > sum of the k largest, tau = (that sum - 1) / k, p = max(z - tau, 0); the
gradient keeps the support and subtracts its mean there. Which elements are active switches
with the values: rows close together activate many, spread rows one.

soft_dtw: soft dynamic time warping of Cuturi & Blondel (2017), as mblondel/soft-dtw computes
it: R[i, j] = D[i, j] + softmin_gamma(R[i-1, j-1], R[i-1, j], R[i, j-1]) over the squared
distances D of two sequences, the value R[m, n]; its gradient with respect to D is the
expected alignment E, filled backwards with the same recursion's weights, then chained to the
points. The table has a C kernel; python fills it, and the gradient, with two Python loops over
the m x n grid: the op declares ``cost="sequential n^2"`` (its two sequences have one length, so
a derived size of n makes an n x n grid).

chamfer's nearest neighbour (one side, with its indices and a C backward scatter, after the
CUDA kernels of chrdiller/pyTorchChamferDistance and ThibaultGROUEIX/AtlasNet's nndistance) is
``nearest`` in correct.py.
"""
import numpy as np

import opsdk
from opsdk import Sample, TensorSpec
from opsdk_adversarial._common import arr, ten

from ._kernels import soft_dtw_kernel


def sparsemax_forward(z):
    """(p, support mask) of sparsemax over the last axis."""
    z = z.astype(np.float64)
    srt = -np.sort(-z, axis=-1)
    k = np.arange(1, z.shape[-1] + 1)
    cumsum = np.cumsum(srt, axis=-1)
    support = 1 + k * srt > cumsum
    size = support.sum(axis=-1, keepdims=True)
    tau = (np.take_along_axis(cumsum, size - 1, -1) - 1) / size
    p = np.maximum(z - tau, 0)
    return p, p > 0


def sparsemax_backward(mask, dy, limit=None):
    """The gradient through sparsemax: dy on the support minus its mean there. ``limit`` caps
    the support size the mean divides by (the planted bug of sparsemax_k3)."""
    size = mask.sum(axis=-1, keepdims=True)
    if limit is not None:
        size = np.minimum(size, limit)
    mean = (dy * mask).sum(axis=-1, keepdims=True) / size
    return np.where(mask, dy - mean, 0)


def sparsemax_op(class_name, limit=None):
    """A Function: sparsemax over the last axis (``limit``: see sparsemax_backward)."""

    def forward(ctx, x):
        p, mask = sparsemax_forward(arr(x))
        ctx.mask = mask
        return ten(p.astype(arr(x).dtype))

    def backward(ctx, dy):
        g = arr(dy)
        return ten(sparsemax_backward(ctx.mask, g.astype(np.float64), limit).astype(g.dtype))

    return type(class_name, (opsdk.PyLayer,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward),
        "__module__": __name__, "__doc__": "Sparsemax over the last axis (a sparse softmax)."})


Sparsemax = sparsemax_op("Sparsemax")


def _softmin3(a, b, c, gamma):
    """-gamma log(exp(-a/gamma) + exp(-b/gamma) + exp(-c/gamma)), without overflow."""
    values = np.array([a, b, c]) / -gamma
    top = values.max()
    if not np.isfinite(top):
        return np.inf
    return -gamma * (np.log(np.exp(values - top).sum()) + top)


def soft_dtw_table(D, gamma):
    """The soft-DTW table R (m + 2) x (n + 2): R[m, n] is the value."""
    m, n = D.shape
    R = np.full((m + 2, n + 2), np.inf)
    R[0, 0] = 0.0
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            R[i, j] = D[i - 1, j - 1] + _softmin3(R[i - 1, j - 1], R[i - 1, j], R[i, j - 1], gamma)
    return R


def soft_dtw_alignment(D, R, gamma):
    """dR[m, n] / dD: the expected alignment, filled backwards."""
    m, n = D.shape
    Dp = np.zeros((m + 2, n + 2))
    Dp[1:m + 1, 1:n + 1] = D
    R = R.copy()
    R[1:m + 1, n + 1] = -np.inf
    R[m + 1, 1:n + 1] = -np.inf
    R[m + 1, n + 1] = R[m, n]
    E = np.zeros((m + 2, n + 2))
    E[m + 1, n + 1] = 1.0
    with np.errstate(invalid="ignore", over="ignore"):
        for j in range(n, 0, -1):
            for i in range(m, 0, -1):
                a = np.exp((R[i + 1, j] - R[i, j] - Dp[i + 1, j]) / gamma)
                b = np.exp((R[i, j + 1] - R[i, j] - Dp[i, j + 1]) / gamma)
                c = np.exp((R[i + 1, j + 1] - R[i, j] - Dp[i + 1, j + 1]) / gamma)
                E[i, j] = E[i + 1, j] * a + E[i, j + 1] * b + E[i + 1, j + 1] * c
    return E[1:m + 1, 1:n + 1]


table = soft_dtw_kernel(soft_dtw_table)


class SoftDTW(opsdk.PyLayer):
    """Soft-DTW between two sequences of points x[m, d] and y[n, d] (squared distances); the
    table in C or python, its gradient in python."""

    kernels = (table,)

    @staticmethod
    def forward(ctx, x, y, gamma=1.0):
        a, b = arr(x).astype(np.float64), arr(y).astype(np.float64)
        D = ((a[:, None, :] - b[None, :, :]) ** 2).sum(-1)
        R = table(D, gamma=gamma)
        ctx.save_for_backward(x, y)
        ctx.state = (D, R, float(gamma))
        return ten(np.asarray(R[len(a), len(b)], dtype=arr(x).dtype))

    @staticmethod
    def backward(ctx, dvalue):
        x, y = ctx.saved_tensor()
        D, R, gamma = ctx.state
        E = soft_dtw_alignment(D, R, gamma) * float(np.sum(arr(dvalue)))
        a, b = arr(x).astype(np.float64), arr(y).astype(np.float64)
        diff = a[:, None, :] - b[None, :, :]
        gx = 2 * (E[:, :, None] * diff).sum(1)
        gy = -2 * (E[:, :, None] * diff).sum(0)
        return ten(gx.astype(arr(x).dtype)), ten(gy.astype(arr(y).dtype))


def _sequences(rng, dtype):
    t = np.linspace(0, 2 * np.pi, 6)
    x = np.stack([np.sin(t), np.cos(t)], axis=1) + 0.1 * rng.standard_normal((6, 2))
    y = np.stack([np.sin(t + 0.3), np.cos(t + 0.3)], axis=1)
    return [Sample((x.astype(dtype), y.astype(dtype)), {"gamma": 0.5})]


def register(register):
    register(Sparsemax, name="sparsemax", inputs=[TensorSpec(shape=(3, 5))])
    register(SoftDTW, name="soft_dtw", samples=_sequences, cost="sequential n^2",
             kernels=SoftDTW.kernels)
