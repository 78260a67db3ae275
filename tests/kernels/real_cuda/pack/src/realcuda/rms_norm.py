"""realcuda.rms_norm: FasterTransformer's block-reduce RMSNorm (cuda/rms_norm.cu).

    fwd(x[rows, n], w[n], *, eps) -> (y, rstd[rows])
    bwd(x, w, rstd, dy) -> (dx, dw)            python only (FasterTransformer has no backward)
"""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.kernels import CudaSource, Kernel, array_module, array_of, cuda_function, tensor_of

from ._common import acc_dtype, as_rows, check_per_feature, shipped, variant

DTYPES = ("float16", "float32", "float64")


def _fwd_python(x, w, *, eps):
    xp = array_module(x)
    x64 = x.astype(numpy.float64)
    rstd = 1.0 / xp.sqrt((x64 * x64).mean(axis=1) + eps)
    return (x64 * rstd[:, None] * w).astype(x.dtype), rstd.astype(x.dtype)


def _bwd_python(x, w, rstd, dy):
    x64, dy64 = x.astype(numpy.float64), dy.astype(numpy.float64)
    xhat = x64 * rstd[:, None]
    g = dy64 * w
    dx = rstd[:, None] * (g - xhat * (g * xhat).mean(axis=1, keepdims=True))
    return dx.astype(x.dtype), (dy64 * xhat).sum(axis=0).astype(x.dtype)


def block_size(n):
    """FasterTransformer's rule: min(n, 1024) threads, rounded up to a multiple of 32."""
    return 32 * ((min(n, 1024) + 31) // 32)


def kernels(source=None, options=None, tag=""):
    """The op's Kernels, the forward's CUDA from ``source`` (default: the shipped file)."""
    import types

    src = CudaSource(source or shipped("rms_norm.cu"))
    fwd = Kernel(f"realcuda.rms_norm_fwd{tag}", dtypes=DTYPES)
    bwd = Kernel(f"realcuda.rms_norm_bwd{tag}", dtypes=DTYPES)
    fwd.python(_fwd_python)
    bwd.python(_bwd_python)

    @fwd.cuda(src)
    def _(module, x, w, *, eps):
        import cupy

        rows, n = x.shape
        y, rstd = cupy.empty_like(x), cupy.empty(rows, x.dtype)
        if x.size:
            cuda_function(module, "rms_norm_fwd", x.dtype)(
                (rows,), (block_size(n),),
                (x, w, y, rstd, acc_dtype(x.dtype)(eps), numpy.int32(rows), numpy.int32(n)))
        return y, rstd

    return types.SimpleNamespace(fwd=fwd, bwd=bwd)


K = kernels(*variant("rms_norm"))


class RMSNorm(opsdk.Function):
    """x / sqrt(mean(x^2) + eps) * weight over the last axis."""

    _opsdk_qualname = "realcuda.rms_norm"

    @staticmethod
    def forward(ctx, x, weight, eps=1e-6):
        xa = array_of(x)
        check_per_feature("rms_norm", xa.shape[-1], weight=weight)
        y, rstd = K.fwd(as_rows(x), array_of(weight), eps=float(eps))
        ctx.save_for_backward(x, weight)
        ctx.rstd = rstd
        return tensor_of(y.reshape(xa.shape))

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        x, weight = ctx.saved_tensor()
        xs = as_rows(x)
        dx, dw = K.bwd(xs, array_of(weight), ctx.rstd, as_rows(dy, xs.dtype))
        return tensor_of(dx.reshape(tuple(x.shape))), tensor_of(dw)


def reference(x, weight, eps=1e-6):
    return x / opsdk.sqrt(opsdk.mean(x * x, axis=-1, keepdim=True) + eps) * weight


def calls(rng, dtype, rows=6, n=70, spread=2.0):
    """Kernel calls for the simulator matrix: rows of 70 (a 96-thread block, 26 idle threads)."""
    x = (rng.standard_normal((rows, n)) * spread).astype(dtype)
    w = rng.uniform(0.5, 1.5, n).astype(dtype)
    return [("fwd", (x, w), {"eps": 1e-6})]


def register(register):
    register(RMSNorm, name="rms_norm", inputs=[TensorSpec(shape=(4, 37)), TensorSpec(shape=(37,), domain=(0.5, 1.5))],
             attrs={"eps": 1e-6}, dtypes=("float32", "float64"), double_backward=False,
             kernels=(K.fwd, K.bwd), reference=reference)
