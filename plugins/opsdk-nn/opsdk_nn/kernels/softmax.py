"""Kernels of softmax and log_softmax along one axis: ``nn.softmax_fwd``, ``nn.softmax_bwd``.

``softmax_fwd(x, axis=, log=) -> y`` and ``softmax_bwd(y, dy, axis=, log=) -> dx`` (backward
reads the forward's output, never x). The C and CUDA adapters view the array as
[outer, n, inner] around the axis, so no axis is ever moved or copied.
"""
import math

import numpy

from opsdk.kernels import Kernel, c_function, cuda_function, outputs

from ..maths import array_module, compute_dtype
from .launch import device_blocks, out_ptr, ptr, row_launch
from .sources import SOFTMAX_C, SOFTMAX_CUDA


softmax_fwd = Kernel("nn.softmax_fwd", dtypes=("float32", "float64"))
softmax_bwd = Kernel("nn.softmax_bwd", dtypes=("float32", "float64"))


def split_shape(shape, axis):
    """(outer, n, inner): the sizes before, along and after ``axis``."""
    return math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1:])


@softmax_fwd.python
def _(x, *, axis=-1, log=False):
    xp, dt = array_module(x), compute_dtype(x)
    xc = x.astype(dt, copy=False)
    shifted = xc - xc.max(axis=axis, keepdims=True)
    if log:
        y = shifted - xp.log(xp.exp(shifted).sum(axis=axis, keepdims=True))
    else:
        y = xp.exp(shifted)
        y /= y.sum(axis=axis, keepdims=True)
    return y.astype(x.dtype, copy=False)


@softmax_bwd.python
def _(y, dy, *, axis=-1, log=False):
    xp, dt = array_module(y), compute_dtype(y)
    yc = y.astype(dt, copy=False)
    if log:
        dx = dy - xp.exp(yc) * dy.sum(axis=axis, keepdims=True)
    else:
        dx = yc * (dy - (dy * yc).sum(axis=axis, keepdims=True))
    return dx.astype(y.dtype, copy=False)


@softmax_fwd.c(SOFTMAX_C)
def _(lib, ffi, x, *, axis=-1, log=False):
    y = outputs.empty_like(x)
    if x.size:
        outer, n, inner = split_shape(x.shape, axis % x.ndim)
        c_function(lib, "nn_softmax_fwd", x.dtype)(ptr(ffi, x), out_ptr(ffi, y), outer, n, inner, int(log))
    return y


@softmax_bwd.c(SOFTMAX_C)
def _(lib, ffi, y, dy, *, axis=-1, log=False):
    dx = outputs.empty_like(y)
    if y.size:
        outer, n, inner = split_shape(y.shape, axis % y.ndim)
        c_function(lib, "nn_softmax_bwd", y.dtype)(ptr(ffi, y), ptr(ffi, dy), out_ptr(ffi, dx),
                                              outer, n, inner, int(log))
    return dx


def _cuda_launch(module, stage, arrays, out, axis, log):
    """Row kernels (warp or block per row) for the last axis, column kernels otherwise."""
    first = arrays[0]
    if not first.size:
        return out
    outer, n, inner = split_shape(first.shape, axis % first.ndim)
    scalars = (numpy.int64(n), numpy.int32(bool(log)))
    if inner == 1:
        mode, grid, block = row_launch(n, outer, device_blocks())
        fn = cuda_function(module, f"nn_softmax_{mode}_{stage}", first.dtype)
        fn((grid,), (block,), (*arrays, out, numpy.int64(outer), *scalars))
    else:
        columns = outer * inner
        grid = max(1, min((columns + 255) // 256, device_blocks()))
        fn = cuda_function(module, f"nn_softmax_cols_{stage}", first.dtype)
        fn((grid,), (256,), (*arrays, out, numpy.int64(outer), *scalars, numpy.int64(inner)))
    return out


@softmax_fwd.cuda(SOFTMAX_CUDA)
def _(module, x, *, axis=-1, log=False):
    return _cuda_launch(module, "fwd", (x,), array_module(x).empty_like(x), axis, log)


@softmax_bwd.cuda(SOFTMAX_CUDA)
def _(module, y, dy, *, axis=-1, log=False):
    return _cuda_launch(module, "bwd", (y, dy), array_module(y).empty_like(y), axis, log)


KERNELS = (softmax_fwd, softmax_bwd)
