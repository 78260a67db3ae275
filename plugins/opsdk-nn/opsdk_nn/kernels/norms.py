"""Kernels of layer_norm and rms_norm over the last n elements of each row of a 2-D array.

``layer_norm_fwd(x, w, b, eps=) -> (y, mean, rstd)``,
``layer_norm_bwd(x, w, mean, rstd, dy) -> (dx, dw, db)``,
``rms_norm_fwd(x, w, eps=) -> (y, rstd)``, ``rms_norm_bwd(x, w, rstd, dy) -> (dx, dw)``.
x and dy are [rows, n]; w, b are [n] (the op passes ones/zeros when the user gives none);
mean and rstd are [rows], saved by forward for backward.
"""
import numpy

from opsdk.kernels import Kernel, c_function, cuda_function, outputs

from ..maths import array_module, compute_dtype
from .launch import device_blocks, out_ptr, ptr, row_launch
from .sources import NORMS_C, NORMS_CUDA

_FLOATS = ("float32", "float64")

layer_norm_fwd = Kernel("nn.layer_norm_fwd", dtypes=_FLOATS)
layer_norm_bwd = Kernel("nn.layer_norm_bwd", dtypes=_FLOATS)
rms_norm_fwd = Kernel("nn.rms_norm_fwd", dtypes=_FLOATS)
rms_norm_bwd = Kernel("nn.rms_norm_bwd", dtypes=_FLOATS)


# -- python ------------------------------------------------------------------------------------

def _up(*arrays):
    dt = compute_dtype(arrays[0])
    return [a.astype(dt, copy=False) for a in arrays]


@layer_norm_fwd.python
def _(x, w, b, *, eps=1e-5):
    xp = array_module(x)
    xc, wc, bc = _up(x, w, b)
    mean = xc.mean(axis=1)
    centred = xc - mean[:, None]
    rstd = 1 / xp.sqrt((centred * centred).mean(axis=1) + eps)
    y = centred * rstd[:, None] * wc + bc
    return y.astype(x.dtype, copy=False), mean, rstd


@layer_norm_bwd.python
def _(x, w, mean, rstd, dy):
    xc, wc, dyc = _up(x, w, dy)
    xhat = (xc - mean[:, None]) * rstd[:, None]
    g = dyc * wc
    dx = rstd[:, None] * (g - g.mean(axis=1, keepdims=True)
                          - xhat * (g * xhat).mean(axis=1, keepdims=True))
    dw = (dyc * xhat).sum(axis=0)
    db = dyc.sum(axis=0)
    return tuple(a.astype(x.dtype, copy=False) for a in (dx, dw, db))


@rms_norm_fwd.python
def _(x, w, *, eps=1e-6):
    xp = array_module(x)
    xc, wc = _up(x, w)
    rstd = 1 / xp.sqrt((xc * xc).mean(axis=1) + eps)
    return (xc * rstd[:, None] * wc).astype(x.dtype, copy=False), rstd


@rms_norm_bwd.python
def _(x, w, rstd, dy):
    xc, wc, dyc = _up(x, w, dy)
    xhat = xc * rstd[:, None]
    g = dyc * wc
    dx = rstd[:, None] * (g - xhat * (g * xhat).mean(axis=1, keepdims=True))
    dw = (dyc * xhat).sum(axis=0)
    return dx.astype(x.dtype, copy=False), dw.astype(x.dtype, copy=False)


# -- C -----------------------------------------------------------------------------------------

def _check_status(status, kernel):
    if status != 0:
        raise MemoryError(f"kernel {kernel!r}: could not allocate the per-thread partial sums")


@layer_norm_fwd.c(NORMS_C)
def _(lib, ffi, x, w, b, *, eps=1e-5):
    rows, n = x.shape
    y = outputs.empty_like(x)
    mean, rstd = numpy.empty(rows, x.dtype), numpy.empty(rows, x.dtype)
    c_function(lib, "nn_layer_norm_fwd", x.dtype)(ptr(ffi, x), ptr(ffi, w), ptr(ffi, b), out_ptr(ffi, y),
                                             out_ptr(ffi, mean), out_ptr(ffi, rstd), rows, n, eps)
    return y, mean, rstd


@layer_norm_bwd.c(NORMS_C)
def _(lib, ffi, x, w, mean, rstd, dy):
    rows, n = x.shape
    dx, dw, db = outputs.empty_like(x), numpy.empty(n, x.dtype), numpy.empty(n, x.dtype)
    status = c_function(lib, "nn_layer_norm_bwd", x.dtype)(
        ptr(ffi, x), ptr(ffi, w), ptr(ffi, mean), ptr(ffi, rstd), ptr(ffi, dy), out_ptr(ffi, dx),
        out_ptr(ffi, dw), out_ptr(ffi, db), rows, n)
    _check_status(status, "nn.layer_norm_bwd")
    return dx, dw, db


@rms_norm_fwd.c(NORMS_C)
def _(lib, ffi, x, w, *, eps=1e-6):
    rows, n = x.shape
    y, rstd = outputs.empty_like(x), numpy.empty(rows, x.dtype)
    c_function(lib, "nn_rms_norm_fwd", x.dtype)(ptr(ffi, x), ptr(ffi, w), out_ptr(ffi, y),
                                           out_ptr(ffi, rstd), rows, n, eps)
    return y, rstd


@rms_norm_bwd.c(NORMS_C)
def _(lib, ffi, x, w, rstd, dy):
    rows, n = x.shape
    dx, dw = outputs.empty_like(x), numpy.empty(n, x.dtype)
    status = c_function(lib, "nn_rms_norm_bwd", x.dtype)(
        ptr(ffi, x), ptr(ffi, w), ptr(ffi, rstd), ptr(ffi, dy), out_ptr(ffi, dx), out_ptr(ffi, dw),
        rows, n)
    _check_status(status, "nn.rms_norm_bwd")
    return dx, dw


# -- CUDA --------------------------------------------------------------------------------------
# forward and dx: one warp or block per row; dw/db: a [chunks, n] table of partial column sums
# (32 columns x 8 row lanes per block), added up by CuPy

_WEIGHT_ROWS_PER_CHUNK = 256


def _row_kernel(module, family, stage, x):
    rows, n = x.shape
    mode, grid, block = row_launch(n, rows, device_blocks())
    return cuda_function(module, f"nn_{family}_{mode}_{stage}", x.dtype), grid, block


def _weight_grads(module, family, x, dy, mean, rstd):
    """Column sums of dy * xhat (and of dy for layer_norm), over all rows."""
    xp = array_module(x)
    rows, n = x.shape
    chunks = max(1, min((rows + _WEIGHT_ROWS_PER_CHUNK - 1) // _WEIGHT_ROWS_PER_CHUNK, 1024))
    part = xp.zeros((2, chunks, n), x.dtype)
    fn = cuda_function(module, f"nn_{family}_bwd_weight", x.dtype)
    fn(((n + 31) // 32, chunks), (32, 8), (x, dy, mean, rstd, part, numpy.int64(rows), numpy.int64(n)))
    sums = part.sum(axis=1)
    return sums[0], sums[1]


@layer_norm_fwd.cuda(NORMS_CUDA)
def _(module, x, w, b, *, eps=1e-5):
    xp = array_module(x)
    rows, n = x.shape
    y, mean, rstd = xp.empty_like(x), xp.empty(rows, x.dtype), xp.empty(rows, x.dtype)
    if x.size:
        fn, grid, block = _row_kernel(module, "layer_norm", "fwd", x)
        fn((grid,), (block,), (x, w, b, y, mean, rstd, numpy.int64(rows), numpy.int64(n), numpy.float64(eps)))
    return y, mean, rstd


@layer_norm_bwd.cuda(NORMS_CUDA)
def _(module, x, w, mean, rstd, dy):
    xp = array_module(x)
    rows, n = x.shape
    dx = xp.empty_like(x)
    if not x.size:
        return dx, xp.zeros(n, x.dtype), xp.zeros(n, x.dtype)
    fn, grid, block = _row_kernel(module, "layer_norm", "bwd", x)
    fn((grid,), (block,), (x, w, mean, rstd, dy, dx, numpy.int64(rows), numpy.int64(n)))
    dw, db = _weight_grads(module, "layer_norm", x, dy, mean, rstd)
    return dx, dw, db


@rms_norm_fwd.cuda(NORMS_CUDA)
def _(module, x, w, *, eps=1e-6):
    xp = array_module(x)
    rows, n = x.shape
    y, rstd = xp.empty_like(x), xp.empty(rows, x.dtype)
    if x.size:
        fn, grid, block = _row_kernel(module, "rms_norm", "fwd", x)
        fn((grid,), (block,), (x, w, y, rstd, numpy.int64(rows), numpy.int64(n), numpy.float64(eps)))
    return y, rstd


@rms_norm_bwd.cuda(NORMS_CUDA)
def _(module, x, w, rstd, dy):
    xp = array_module(x)
    rows, n = x.shape
    dx = xp.empty_like(x)
    if not x.size:
        return dx, xp.zeros(n, x.dtype)
    fn, grid, block = _row_kernel(module, "rms_norm", "bwd", x)
    fn((grid,), (block,), (x, w, rstd, dy, dx, numpy.int64(rows), numpy.int64(n)))
    dw, _ = _weight_grads(module, "rms_norm", x, dy, rstd, rstd)
    return dx, dw


LAYER_NORM_KERNELS = (layer_norm_fwd, layer_norm_bwd)
RMS_NORM_KERNELS = (rms_norm_fwd, rms_norm_bwd)
