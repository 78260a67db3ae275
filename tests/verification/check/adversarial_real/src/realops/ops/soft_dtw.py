"""realops.soft_dtw: the soft-DTW discrepancy between two batches of sequences (Cuturi & Blondel, 2017).

Ported from Maghoumi/pytorch-softdtw-cuda, soft_dtw_cuda.py (the CPU path: ``compute_softdtw``,
``compute_softdtw_backward``, ``_SoftDTW``, and ``SoftDTW._euclidean_dist_func``), itself based
on Sleepwalking/pytorch-softdtw: the dynamic programmes, the Sakoe-Chiba pruning and the
backward recursion, written anew in NumPy (vectorized over the batch)::

    D[b, i, j] = |x[b, i] - y[b, j]|^2          x [B, N, F], y [B, M, F] (or a template [1, M, F])
    R[0, 0] = 0, R = inf elsewhere on the border; for i, j >= 1 within the band (|i - j| <= bandwidth
    when bandwidth > 0):  R[i, j] = D[i-1, j-1] - gamma log(sum exp(-R[neighbours] / gamma))
    out[b] = R[b, N, M]
    backward: E from the bottom-right corner, E[i, j] = sum over the three successors of
    E[succ] exp((R[succ] - R[i, j] - D[succ]) / gamma), cells still inf turned to -inf first;
    dD = dout E;  dx = 2 sum_j dD (x_i - y_j),  dy = -2 sum_i dD (x_i - y_j)

Bug variants:

- ``soft_dtw_bug_no_grad_scale``: backward returns the gradient of out.sum(): it forgets to scale
  by the incoming gradient (k2-fsa/k2 #341: "the backward of get_tot_scores needs to multiply
  by the gradient at the output").
- ``soft_dtw_bug_state_on_class``: forward keeps D and R on the Function class (``SoftDTW.saved``)
  instead of ctx: a second forward before the first backward overwrites them.
- ``soft_dtw_bug_template_mean``: with a template y [1, M, F], the gradient of y is averaged over
  the batch instead of summed.
- ``soft_dtw_bug_band_nan``: the backward recursion skips the source's ``if isinf(R): R = -inf``:
  with pruning, out-of-band cells keep R = inf and ``exp(inf - ...) * 0`` is NaN.
"""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.errors import OpArgumentError
from opsdk.kernels import Kernel, array_of, tensor_of

VARIANTS = {
    "soft_dtw": (),
    "soft_dtw_bug_no_grad_scale": ("no_grad_scale",),
    "soft_dtw_bug_state_on_class": ("state_on_class",),
    "soft_dtw_bug_template_mean": ("template_mean",),
    "soft_dtw_bug_band_nan": ("band_nan",),
}


def _pruned(i, j, bandwidth):
    return 0 < bandwidth < abs(i - j)


def _kernels(name, bugs):
    forward = Kernel(f"realops.{name}_forward")
    backward = Kernel(f"realops.{name}_backward")

    @forward.python
    def _(D, *, gamma, bandwidth):
        B, N, M = D.shape
        R = numpy.full((B, N + 2, M + 2), numpy.inf, dtype=D.dtype)
        R[:, 0, 0] = 0
        for j in range(1, M + 1):
            for i in range(1, N + 1):
                if _pruned(i, j, bandwidth):
                    continue
                r = -numpy.stack([R[:, i - 1, j - 1], R[:, i - 1, j], R[:, i, j - 1]]) / gamma
                rmax = r.max(axis=0)
                softmin = -gamma * (numpy.log(numpy.exp(r - rmax).sum(axis=0)) + rmax)
                R[:, i, j] = D[:, i - 1, j - 1] + softmin
        return R

    @backward.python
    def _(D_, R, *, gamma, bandwidth):
        B, N, M = D_.shape
        D = numpy.zeros((B, N + 2, M + 2), dtype=D_.dtype)
        D[:, 1:N + 1, 1:M + 1] = D_
        R = R.copy()
        E = numpy.zeros((B, N + 2, M + 2), dtype=D_.dtype)
        E[:, -1, -1] = 1
        R[:, :, -1] = -numpy.inf
        R[:, -1, :] = -numpy.inf
        R[:, -1, -1] = R[:, -2, -2]
        with numpy.errstate(invalid="ignore", over="ignore"):
            for j in range(M, 0, -1):
                for i in range(N, 0, -1):
                    if "band_nan" not in bugs:
                        R[:, i, j] = numpy.where(numpy.isinf(R[:, i, j]), -numpy.inf, R[:, i, j])
                    if _pruned(i, j, bandwidth):
                        continue
                    a = numpy.exp((R[:, i + 1, j] - R[:, i, j] - D[:, i + 1, j]) / gamma)
                    b = numpy.exp((R[:, i, j + 1] - R[:, i, j] - D[:, i, j + 1]) / gamma)
                    c = numpy.exp((R[:, i + 1, j + 1] - R[:, i, j] - D[:, i + 1, j + 1]) / gamma)
                    E[:, i, j] = E[:, i + 1, j] * a + E[:, i, j + 1] * b + E[:, i + 1, j + 1] * c
        return E[:, 1:N + 1, 1:M + 1]

    return forward, backward


def _function(name, bugs):
    forward, backward = _kernels(name, bugs)
    qualname = f"realops.{name}"

    class SoftDTW(opsdk.Function):
        """soft-DTW of each pair of sequences x[b], y[b] (squared Euclidean costs): [B]."""

        _opsdk_qualname = qualname
        saved = None     # soft_dtw_bug_state_on_class keeps (D, R) here

        @staticmethod
        def forward(ctx, x, y, gamma=1.0, bandwidth=0.0):
            if x.ndim != 3 or y.ndim != 3 or x.shape[2] != y.shape[2] or y.shape[0] not in (1, x.shape[0]) \
                    or x.dtype != y.dtype or x.dtype not in (opsdk.float32, opsdk.float64) \
                    or min(x.shape[1], y.shape[1]) < 1:
                raise OpArgumentError(f"{qualname}: arguments 'x' and 'y' must be float32/float64 sequences "
                                      f"[B, N, F] and [B or 1, M, F] of one dtype; got: x {x.dtype} {x.shape}, "
                                      f"y {y.dtype} {y.shape}")
            if not gamma > 0:
                raise OpArgumentError(f"{qualname}: argument 'gamma' must be > 0; got: {gamma!r}")
            n, m = x.shape[1], y.shape[1]
            if 0 < bandwidth < abs(n - m):
                raise OpArgumentError(f"{qualname}: argument 'bandwidth' must be 0 (no pruning) or at least "
                                      f"|N - M| = {abs(n - m)}, or the last cell is out of the band; got: {bandwidth!r}")
            a, b = array_of(x), array_of(y)
            diff = a[:, :, None, :] - b[:, None, :, :]
            D = (diff * diff).sum(axis=-1)                              # [B, N, M]
            R = forward(D, gamma=float(gamma), bandwidth=float(bandwidth))
            if "state_on_class" in bugs:
                SoftDTW.saved = (D, R)          # BUG: on the class, shared by every call
            else:
                ctx.D, ctx.R = D, R
            ctx.save_for_backward(x, y)
            ctx.gamma, ctx.bandwidth = float(gamma), float(bandwidth)
            return tensor_of(R[:, n, m].copy())

        @staticmethod
        @once_differentiable
        def backward(ctx, dout):
            x, y = ctx.saved_tensor()
            D, R = SoftDTW.saved if "state_on_class" in bugs else (ctx.D, ctx.R)
            a, b = array_of(x), array_of(y)
            E = backward(D, R, gamma=ctx.gamma, bandwidth=ctx.bandwidth)
            g = array_of(dout).astype(a.dtype, copy=False)
            dD = E if "no_grad_scale" in bugs else g[:, None, None] * E
            diff = a[:, :, None, :] - b[:, None, :, :]                  # [B, N, M, F]
            dx = 2 * (dD[..., None] * diff).sum(axis=2)
            dy = -2 * (dD[..., None] * diff).sum(axis=1)
            if b.shape[0] != a.shape[0]:                                 # a template y [1, M, F]
                dy = dy.mean(axis=0, keepdims=True) if "template_mean" in bugs else dy.sum(axis=0, keepdims=True)
            return tensor_of(dx.astype(a.dtype, copy=False)), tensor_of(dy.astype(a.dtype, copy=False))

    return SoftDTW, (forward, backward)


def reference(x, y, gamma=1.0, bandwidth=0.0):
    """The forward recursion in core opsdk ops (a cell at a time, over the batch); its autograd
    is the backward recursion."""
    D = opsdk.sum((opsdk.unsqueeze(x, 2) - opsdk.unsqueeze(y, 1)) ** 2, axis=-1)     # [B, N, M]
    n, m = D.shape[1], D.shape[2]
    inf = opsdk.full([D.shape[0]], float("inf"), dtype=D.dtype)
    R = {(0, 0): opsdk.zeros([D.shape[0]], dtype=D.dtype)}
    for j in range(1, m + 1):
        for i in range(1, n + 1):
            if _pruned(i, j, bandwidth):
                continue
            r = opsdk.stack([R.get((i - 1, j - 1), inf), R.get((i - 1, j), inf), R.get((i, j - 1), inf)])
            R[i, j] = D[:, i - 1, j - 1] - gamma * opsdk.logsumexp(-r / gamma, axis=0)
    return R[n, m]


def register_op(register):
    """soft_dtw and its bug variants: batch 2, sequences of 6 and 7 steps of 3 features."""
    for name, bugs in VARIANTS.items():
        function, kernels = _function(name, bugs)
        register(function, name=name,
                 inputs=[TensorSpec(shape=(2, 6, 3), domain=(-1.0, 1.0)), TensorSpec(shape=(2, 7, 3), domain=(-1.0, 1.0))],
                 attrs={"gamma": 1.0, "bandwidth": 0.0}, attr_ranges={"gamma": (0.1, 2.0), "bandwidth": (0.0, 6.0)},
                 dtypes=("float32", "float64"), kernels=kernels, reference=reference)
