"""Kernels of cross_entropy with integer labels: ``nn.cross_entropy_fwd``, ``nn.cross_entropy_bwd``.

``cross_entropy_fwd(x, label, ignore_index=) -> (loss, rowmax, logsum)``: x is [rows, n]
logits, label [rows] int64; loss[r] = (max - x[r, label]) + log(sum(exp(x[r] - max))), 0 for
ignored rows. Each row's max and log-sum are kept apart for backward (added into one
logsumexp, a logit of 1e4 would lose the small log-sum to rounding).
``cross_entropy_bwd(x, label, rowmax, logsum, g, ignore_index=) -> dx``: g is the gradient of
each row's loss, [rows], or [1] when one value serves every row (mean and sum reductions).
"""
import numpy

from opsdk.kernels import Kernel, c_function, cuda_function, outputs

from ..maths import array_module, compute_dtype
from .launch import device_blocks, out_ptr, ptr, row_launch
from .sources import CROSS_ENTROPY_C, CROSS_ENTROPY_CUDA

_LABELS = {"label": ("int64",)}

cross_entropy_fwd = Kernel("nn.cross_entropy_fwd", dtypes=("float32", "float64"), arg_dtypes=_LABELS)
cross_entropy_bwd = Kernel("nn.cross_entropy_bwd", dtypes=("float32", "float64"), arg_dtypes=_LABELS)


def _kept(xp, label, n, ignore_index):
    """Rows whose label counts (not ignore_index), and their labels made safe to index with."""
    keep = (label != ignore_index) & (label >= 0) & (label < n)
    return keep, xp.where(keep, label, 0)


@cross_entropy_fwd.python
def _(x, label, *, ignore_index=-100):
    xp = array_module(x)
    xc = x.astype(compute_dtype(x), copy=False)
    rows, n = xc.shape
    if not n:
        zeros = xp.zeros(rows, x.dtype)
        return zeros, xp.full(rows, -xp.inf, x.dtype), xp.full(rows, -xp.inf, x.dtype)
    rowmax = xc.max(axis=1)
    logsum = xp.log(xp.exp(xc - rowmax[:, None]).sum(axis=1))
    keep, safe = _kept(xp, label, n, ignore_index)
    picked = xp.take_along_axis(xc, safe[:, None], axis=1)[:, 0]
    loss = xp.where(keep, (rowmax - picked) + logsum, 0)
    return tuple(a.astype(x.dtype, copy=False) for a in (loss, rowmax, logsum))


@cross_entropy_bwd.python
def _(x, label, rowmax, logsum, g, *, ignore_index=-100):
    xp = array_module(x)
    xc = x.astype(compute_dtype(x), copy=False)
    rows, n = xc.shape
    keep, safe = _kept(xp, label, n, ignore_index)
    scale = xp.where(keep, xp.broadcast_to(g, (rows,)), 0).astype(xc.dtype, copy=False)
    dx = xp.exp((xc - rowmax[:, None]) - logsum[:, None]) * scale[:, None]
    if n:
        dx[xp.arange(rows), safe] -= scale
    return dx.astype(x.dtype, copy=False)


@cross_entropy_fwd.c(CROSS_ENTROPY_C)
def _(lib, ffi, x, label, *, ignore_index=-100):
    rows, n = x.shape
    loss, rowmax, logsum = (numpy.empty(rows, x.dtype) for _ in range(3))
    c_function(lib, "nn_cross_entropy_fwd", x.dtype)(ptr(ffi, x), ptr(ffi, label), out_ptr(ffi, loss),
                                                out_ptr(ffi, rowmax), out_ptr(ffi, logsum), rows, n,
                                                ignore_index)
    return loss, rowmax, logsum


@cross_entropy_bwd.c(CROSS_ENTROPY_C)
def _(lib, ffi, x, label, rowmax, logsum, g, *, ignore_index=-100):
    rows, n = x.shape
    dx = outputs.empty_like(x)
    c_function(lib, "nn_cross_entropy_bwd", x.dtype)(ptr(ffi, x), ptr(ffi, label), ptr(ffi, rowmax),
                                                ptr(ffi, logsum), ptr(ffi, g), 0 if g.size == 1 else 1,
                                                out_ptr(ffi, dx), rows, n, ignore_index)
    return dx


@cross_entropy_fwd.cuda(CROSS_ENTROPY_CUDA)
def _(module, x, label, *, ignore_index=-100):
    xp = array_module(x)
    rows, n = x.shape
    loss, rowmax, logsum = (xp.empty(rows, x.dtype) for _ in range(3))
    if rows:
        mode, grid, block = row_launch(n, rows, device_blocks())
        fn = cuda_function(module, f"nn_cross_entropy_{mode}_fwd", x.dtype)
        fn((grid,), (block,), (x, label, loss, rowmax, logsum, numpy.int64(rows), numpy.int64(n),
                               numpy.int64(ignore_index)))
    return loss, rowmax, logsum


@cross_entropy_bwd.cuda(CROSS_ENTROPY_CUDA)
def _(module, x, label, rowmax, logsum, g, *, ignore_index=-100):
    rows, n = x.shape
    dx = array_module(x).empty_like(x)
    if x.size:
        mode, grid, block = row_launch(n, rows, device_blocks())
        fn = cuda_function(module, f"nn_cross_entropy_{mode}_bwd", x.dtype)
        fn((grid,), (block,), (x, label, rowmax, logsum, g, numpy.int64(0 if g.size == 1 else 1), dx,
                               numpy.int64(rows), numpy.int64(n), numpy.int64(ignore_index)))
    return dx


KERNELS = (cross_entropy_fwd, cross_entropy_bwd)
