"""realcuda.layer_norm: Apex's Welford LayerNorm over the last axis (cuda/layer_norm.cu).

    fwd(x[rows, n], w[n], b[n], *, eps) -> (y, mean[rows], rstd[rows])
    bwd(x, w, mean, rstd, dy) -> (dx, dw, db)
"""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.kernels import CudaSource, Kernel, array_of, cuda_function, tensor_of

from ._common import FLOATS, as_rows, blocks, check_per_feature, shipped, variant

BLOCK = (32, 4)
MAX_GRID_Y = 64   # more rows loop over gridDim.y, as Apex caps the grid at maxGridSize[1]
MAX_PARTS = 16    # row slabs of the gamma/beta partial sums
# dynamic shared memory, in values of the accumulation type: forward (mu, m2) of blockDim.y
# warps and blockDim.y / 2 counts; dx two sums of 32 lanes for blockDim.y / 2 warps
DEFAULTS = {"fwd_smem_values": BLOCK[1] + BLOCK[1] // 2, "dx_smem_values": 2 * 32 * (BLOCK[1] // 2)}


def _fwd_python(x, w, b, *, eps):
    x64 = x.astype(numpy.float64)
    mean = x64.mean(axis=1)
    centred = x64 - mean[:, None]
    rstd = 1.0 / numpy.sqrt((centred * centred).mean(axis=1) + eps)
    y = centred * rstd[:, None] * w + b
    return y.astype(x.dtype), mean.astype(x.dtype), rstd.astype(x.dtype)


def _bwd_python(x, w, mean, rstd, dy):
    x64, dy64 = x.astype(numpy.float64), dy.astype(numpy.float64)
    xhat = (x64 - mean[:, None]) * rstd[:, None]
    g = dy64 * w
    dx = rstd[:, None] * (g - g.mean(axis=1, keepdims=True) - xhat * (g * xhat).mean(axis=1, keepdims=True))
    return dx.astype(x.dtype), (dy64 * xhat).sum(axis=0).astype(x.dtype), dy64.sum(axis=0).astype(x.dtype)


def kernels(source=None, options=None, tag=""):
    """The op's two Kernels, their CUDA from ``source`` (default: the shipped file)."""
    import types

    opts = {**DEFAULTS, **(options or {})}
    src = CudaSource(source or shipped("layer_norm.cu"))
    fwd = Kernel(f"realcuda.layer_norm_fwd{tag}", dtypes=FLOATS)
    bwd = Kernel(f"realcuda.layer_norm_bwd{tag}", dtypes=FLOATS)
    fwd.python(_fwd_python)
    bwd.python(_bwd_python)

    @fwd.cuda(src)
    def _(module, x, w, b, *, eps):
        import cupy

        rows, n = x.shape
        y, mean, rstd = cupy.empty_like(x), cupy.empty(rows, x.dtype), cupy.empty(rows, x.dtype)
        if x.size:
            cuda_function(module, "ln_fwd", x.dtype)(
                (1, min(rows, MAX_GRID_Y)), BLOCK,
                (x, w, b, y, mean, rstd, numpy.int32(rows), numpy.int32(n), x.dtype.type(eps)),
                shared_mem=opts["fwd_smem_values"] * x.itemsize)
        return y, mean, rstd

    @bwd.cuda(src)
    def _(module, x, w, mean, rstd, dy):
        import cupy

        rows, n = x.shape
        dx = cupy.empty_like(x)
        if not x.size:
            return dx, cupy.zeros(n, x.dtype), cupy.zeros(n, x.dtype)
        cuda_function(module, "ln_bwd_dx", x.dtype)(
            (1, min(rows, MAX_GRID_Y)), BLOCK, (x, w, mean, rstd, dy, dx, numpy.int32(rows), numpy.int32(n)),
            shared_mem=opts["dx_smem_values"] * x.itemsize)
        parts = min(blocks(rows, 8), MAX_PARTS)
        part = cupy.empty((2, parts, n), x.dtype)
        cuda_function(module, "ln_bwd_part", x.dtype)(
            (blocks(n, 32), parts), (32, 8), (x, mean, rstd, dy, part, numpy.int32(rows), numpy.int32(n)))
        dw, db = cupy.empty(n, x.dtype), cupy.empty(n, x.dtype)
        cuda_function(module, "ln_bwd_final", x.dtype)(
            (blocks(n, 128),), (128,), (part, dw, db, numpy.int32(parts), numpy.int32(n)))
        return dx, dw, db

    return types.SimpleNamespace(fwd=fwd, bwd=bwd)


K = kernels(*variant("layer_norm"))


class LayerNorm(opsdk.Function):
    """(x - mean) / sqrt(var + eps) * weight + bias over the last axis."""

    _opsdk_qualname = "realcuda.layer_norm"

    @staticmethod
    def forward(ctx, x, weight, bias, eps=1e-5):
        xa = array_of(x)
        check_per_feature("layer_norm", xa.shape[-1], weight=weight, bias=bias)
        y, mean, rstd = K.fwd(as_rows(x), array_of(weight), array_of(bias), eps=float(eps))
        ctx.save_for_backward(x, weight)
        ctx.mean, ctx.rstd = mean, rstd
        return tensor_of(y.reshape(xa.shape))

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        x, weight = ctx.saved_tensor()
        xs = as_rows(x)
        dx, dw, db = K.bwd(xs, array_of(weight), ctx.mean, ctx.rstd, as_rows(dy, xs.dtype))
        return tensor_of(dx.reshape(tuple(x.shape))), tensor_of(dw), tensor_of(db)


def reference(x, weight, bias, eps=1e-5):
    mean = opsdk.mean(x, axis=-1, keepdim=True)
    var = opsdk.mean((x - mean) ** 2, axis=-1, keepdim=True)
    return (x - mean) / opsdk.sqrt(var + eps) * weight + bias


def calls(rng, dtype):
    """Kernel calls for the simulator matrix: 70 rows (more than the 64-row grid), 45 columns."""
    x = (rng.standard_normal((70, 45)) * 2 + 0.5).astype(dtype)
    w, b = rng.uniform(0.5, 1.5, 45).astype(dtype), rng.uniform(-1, 1, 45).astype(dtype)
    _, mean, rstd = _fwd_python(x, w, b, eps=1e-5)
    dy = rng.standard_normal(x.shape).astype(dtype)
    return [("fwd", (x, w, b), {"eps": 1e-5}), ("bwd", (x, w, mean, rstd, dy), {})]


def register(register):
    register(LayerNorm, name="layer_norm",
             inputs=[TensorSpec(shape=(4, 37)), TensorSpec(shape=(37,), domain=(0.5, 1.5)), TensorSpec(shape=(37,))],
             attrs={"eps": 1e-5}, dtypes=FLOATS, double_backward=False, kernels=(K.fwd, K.bwd),
             reference=reference)
