"""realcuda.cumsum: cuda-samples' shuffle scan (cuda/scan.cu), an inclusive prefix sum of a 1-D array.

    fwd(x[n]) -> out[n]          float32, float64; float16 sums into float32, int32 into int64
    the backward is the same scan of the reversed gradient
"""
import numpy

import opsdk
import opsdk.errors
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.kernels import CudaSource, Kernel, array_module, array_of, tensor_of

from ._common import blocks, shipped, variant

DTYPES = ("float16", "float32", "float64", "int32", "int64")
ACC = {"float16": ("f16", numpy.float32), "float32": ("f32", numpy.float32), "float64": ("f64", numpy.float64),
       "int32": ("i32", numpy.int64), "int64": ("i64", numpy.int64)}
DEFAULTS = {"block": 256}


def _fwd_python(x):
    acc = ACC[x.dtype.name][1]
    return array_module(x).cumsum(x.astype(numpy.float64 if acc != numpy.int64 else numpy.int64)).astype(acc)


def kernels(source=None, options=None, tag=""):
    """The op's Kernel, its CUDA from ``source`` (default: the shipped file)."""
    import types

    opts = {**DEFAULTS, **(options or {})}
    src = CudaSource(source or shipped("scan.cu"))
    fwd = Kernel(f"realcuda.cumsum{tag}", dtypes=DTYPES)
    fwd.python(_fwd_python)

    @fwd.cuda(src)
    def _(module, x):
        return scan(module, x, opts["block"])

    return types.SimpleNamespace(fwd=fwd)


def scan(module, x, block):
    """Scan each block, scan the blocks' totals (recursively), add them to the blocks after."""
    import cupy

    n = x.size
    suffix, acc = ACC[x.dtype.name]
    out = cupy.empty(n, acc)
    if not n:
        return out
    grid = blocks(n, block)
    partial = cupy.empty(grid, acc)
    module.get_function(f"scan_block_{suffix}")((grid,), (block,), (x, out, partial, numpy.int32(n)),
                                                shared_mem=(block // 32) * out.itemsize)
    if grid > 1:
        offsets = scan(module, partial, block)
        add = {numpy.float32: "f32", numpy.float64: "f64", numpy.int64: "i64"}[acc]
        module.get_function(f"uniform_add_{add}")((grid - 1,), (block,), (out[block:], offsets, numpy.int32(n - block)))
    return out


K = kernels(*variant("scan"))


class Cumsum(opsdk.Function):
    """Inclusive prefix sum of a 1-D float tensor."""

    _opsdk_qualname = "realcuda.cumsum"

    @staticmethod
    def forward(ctx, x):
        xa = array_of(x)
        if xa.ndim != 1:
            raise opsdk.errors.ShapeError(f"realcuda.cumsum: expected a 1-D tensor; got: {list(xa.shape)}")
        return tensor_of(K.fwd(xa))

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        g = array_of(dy)
        return tensor_of(K.fwd(g[::-1])[::-1])


def reference(x):
    return opsdk.cumsum(x, axis=0)


def calls(rng, dtype, n=3000):
    """Kernel calls for the simulator matrix: 3000 elements (12 blocks, a partial last one)."""
    if dtype in ("float32", "float64"):
        return [("fwd", (rng.standard_normal(n).astype(dtype),), {})]
    # a block of 256 sums to about 77000 in float16 (beyond its largest value, 65504) and to
    # about 5e9 in int32 (beyond 2^31): only the wider accumulators hold them
    if dtype == "float16":
        return [("fwd", (rng.uniform(0, 600, n).astype(dtype),), {})]
    return [("fwd", (rng.integers(0, 40_000_000, n).astype(dtype),), {})]


def register(register):
    register(Cumsum, name="cumsum", inputs=[TensorSpec(shape=(37,))], dtypes=("float32", "float64"),
             double_backward=False, kernels=(K.fwd,), reference=reference)
