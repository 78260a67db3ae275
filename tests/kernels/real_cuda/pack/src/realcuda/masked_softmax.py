"""realcuda.masked_softmax: Megatron-LM's scaled masked softmax (cuda/masked_softmax.cu).

    fwd(x[rows, n], mask[rows, n] uint8, *, scale) -> y     softmax(where(mask == 1, -10000, scale * x))
    bwd(dy, y, *, scale) -> dx                                scale * y * (dy - sum(dy * y))

The warp kernels take rows of at most 1024 elements, and rows above 64 elements (from 128
padded elements on, each lane loads 4 at a time) only when their length is a multiple of 4, as
Megatron's ``is_kernel_available`` says; other rows run the python kernel, as Megatron falls
back to torch's softmax.
"""
import numpy

import opsdk
import opsdk.errors
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.kernels import CudaSource, Kernel, array_module, array_of, tensor_of

from ._common import acc_dtype, blocks, shipped, variant

DTYPES = ("float16", "float32", "float64")
MAX_LOG2 = 10
TYPES = {"float16": ("__half", "float"), "float32": ("float", "float"), "float64": ("double", "double")}
NAMES = tuple(f"masked_softmax_{stage}<{t},{a},{log2}>" for stage in ("fwd", "bwd")
              for t, a in TYPES.values() for log2 in range(MAX_LOG2 + 1))
THREADS_PER_BLOCK = 128
DEFAULTS = {"vector_any_n": False, "scalar_max_n": 64}


def _fwd_python(x, mask, *, scale):
    xp = array_module(x)
    z = xp.where(mask == 1, -10000.0, x.astype(numpy.float64) * scale)
    e = xp.exp(z - z.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(x.dtype)


def _bwd_python(dy, y, *, scale):
    gy = dy.astype(numpy.float64) * y
    return (scale * (gy - y * gy.sum(axis=-1, keepdims=True))).astype(dy.dtype)


def _log2_ceil(n):
    return max(0, int(n - 1).bit_length())


def _launch(n, rows):
    log2 = _log2_ceil(n)
    warp_size = min(1 << log2, 32)
    batches_per_warp = 2 if (1 << log2) <= 128 else 1
    warps_per_block = THREADS_PER_BLOCK // warp_size
    return log2, blocks(rows, warps_per_block * batches_per_warp), (warp_size, warps_per_block)


def kernels(source=None, options=None, tag=""):
    """The op's two Kernels, their CUDA from ``source`` (default: the shipped file)."""
    import types

    opts = {**DEFAULTS, **(options or {})}
    src = CudaSource(source or shipped("masked_softmax.cu"), names=NAMES)
    fwd = Kernel(f"realcuda.masked_softmax_fwd{tag}", dtypes=DTYPES, arg_dtypes={"mask": ("uint8",)})
    bwd = Kernel(f"realcuda.masked_softmax_bwd{tag}", dtypes=DTYPES)
    fwd.python(_fwd_python)
    bwd.python(_bwd_python)

    def usable(n):
        return 0 < n <= 1 << MAX_LOG2 and (n <= opts["scalar_max_n"] or n % 4 == 0 or opts["vector_any_n"])

    def launch(module, stage, out_like, args, scale, python, python_args):
        import cupy

        rows, n = out_like.shape
        if not (rows and usable(n)):
            return python(*python_args, scale=scale)
        t, a = TYPES[out_like.dtype.name]
        log2, grid, block = _launch(n, rows)
        out = cupy.empty_like(out_like)
        module.get_function(f"masked_softmax_{stage}<{t},{a},{log2}>")(
            (grid,), block, (out,) + args + (acc_dtype(out.dtype)(scale), numpy.int32(rows), numpy.int32(n)))
        return out

    @fwd.cuda(src)
    def _(module, x, mask, *, scale):
        return launch(module, "fwd", x, (x, mask), scale, _fwd_python, (x, mask))

    @bwd.cuda(src)
    def _(module, dy, y, *, scale):
        return launch(module, "bwd", dy, (dy, y), scale, _bwd_python, (dy, y))

    return types.SimpleNamespace(fwd=fwd, bwd=bwd)


K = kernels(*variant("masked_softmax"))


class MaskedSoftmax(opsdk.Function):
    """softmax over the last axis of scale * x, with -10000 where mask == 1."""

    _opsdk_qualname = "realcuda.masked_softmax"

    @staticmethod
    def forward(ctx, x, mask, scale=1.0):
        xa, ma = array_of(x), array_of(mask)
        if ma.shape != xa.shape:
            raise opsdk.errors.ShapeError(f"realcuda.masked_softmax: mask must have x's shape "
                                          f"{list(xa.shape)}; got: {list(ma.shape)}")
        n = xa.shape[-1]
        y = K.fwd(xa.reshape(-1, n), (ma != 0).astype(numpy.uint8).reshape(-1, n), scale=float(scale))
        ctx.y, ctx.scale = y, float(scale)
        return tensor_of(y.reshape(xa.shape))

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        y = ctx.y
        dya = array_of(dy).astype(y.dtype, copy=False).reshape(y.shape)
        dx = K.bwd(dya, y, scale=ctx.scale)
        return tensor_of(dx.reshape(array_of(dy).shape)), None


def reference(x, mask, scale=1.0):
    z = opsdk.where(mask != 0, opsdk.full_like(x, -10000.0), x * scale)
    return opsdk.nn.functional.softmax(z, axis=-1)


def calls(rng, dtype, n=45, rows=37):
    """Kernel calls for the simulator matrix: 37 rows (an odd last warp) of 45 elements, one row masked."""
    x = (rng.standard_normal((rows, n)) * 3).astype(dtype)
    mask = (rng.random((rows, n)) < 0.3).astype(numpy.uint8)
    mask[1] = 1
    y = _fwd_python(x, mask, scale=0.7)
    dy = rng.standard_normal(x.shape).astype(dtype)
    return [("fwd", (x, mask), {"scale": 0.7}), ("bwd", (dy, y), {"scale": 0.7})]


def register(register):
    register(MaskedSoftmax, name="masked_softmax",
             inputs=[TensorSpec(shape=(5, 6)), TensorSpec(shape=(5, 6), integer=True, high=2, dtype="int64")],
             attrs={"scale": 0.7}, dtypes=("float32", "float64"), double_backward=False,
             kernels=(K.fwd, K.bwd), reference=reference)
