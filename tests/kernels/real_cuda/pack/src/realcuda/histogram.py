"""realcuda.bincount and realcuda.histogram64: cuda-samples' shared-memory histograms (cuda/histogram.cu).

    bincount(index[n] int64, weight[n], *, bins) -> hist[bins]    per-warp shared sub-histograms
    bincount_bwd(index, grad_hist) -> grad_weight                  python only: a gather
    histogram64(data[n] uint8) -> counts[64] uint32                 byte counters per thread and bin
"""
import numpy

import opsdk
import opsdk.errors
from opsdk.autograd import once_differentiable
from opsdk.kernels import CudaSource, Kernel, array_module, array_of, cuda_function, tensor_of

from ._common import FLOATS, blocks, shipped, variant

THREADS = 256
MAX_PARTIALS = 16     # blocks of the partial kernel (histogram256 uses a fixed 240)
MERGE_THREADS = 128
H64_THREADS, H64_BINS, H64_PER_THREAD = 64, 64, 255
DEFAULTS = {"merge": True, "h64_grid": None}


def _bincount_python(index, weight, *, bins):
    xp = array_module(weight)
    out = numpy.zeros(bins, numpy.float64)
    numpy.add.at(out, _host(index), _host(weight).astype(numpy.float64))
    return xp.asarray(out.astype(weight.dtype))


def _bincount_bwd_python(index, grad_hist):
    return grad_hist[index]


def _h64_python(data):
    return array_module(data).asarray(numpy.bincount(_host(data) & 63, minlength=H64_BINS).astype(numpy.uint32))


def _host(a):
    return a.get() if hasattr(a, "get") else a


def kernels(source=None, options=None, tag=""):
    """The ops' Kernels, their CUDA from ``source`` (default: the shipped file)."""
    import types

    opts = {**DEFAULTS, **(options or {})}
    src = CudaSource(source or shipped("histogram.cu"))
    ks = types.SimpleNamespace(
        bincount=Kernel(f"realcuda.bincount{tag}", dtypes=FLOATS, arg_dtypes={"index": ("int64",)}),
        bincount_bwd=Kernel(f"realcuda.bincount_bwd{tag}", dtypes=FLOATS, arg_dtypes={"index": ("int64",)}),
        h64=Kernel(f"realcuda.histogram64{tag}", dtypes=("uint8",)))
    ks.bincount.python(_bincount_python)
    ks.bincount_bwd.python(_bincount_bwd_python)
    ks.h64.python(_h64_python)

    @ks.bincount.cuda(src)
    def _(module, index, weight, *, bins):
        import cupy

        n = weight.size
        if not (n and bins):
            return cupy.zeros(bins, weight.dtype)
        grid = min(blocks(n, THREADS), MAX_PARTIALS)
        smem = (THREADS // 32) * bins * weight.itemsize
        args = (numpy.int32(n), numpy.int32(bins))
        if opts["merge"]:
            partial = cupy.empty((grid, bins), weight.dtype)
            cuda_function(module, "bincount_partial", weight.dtype)(
                (grid,), (THREADS,), (index, weight, partial) + args, shared_mem=smem)
            hist = cupy.empty(bins, weight.dtype)
            cuda_function(module, "bincount_merge", weight.dtype)(
                (bins,), (MERGE_THREADS,), (hist, partial, numpy.int32(grid), numpy.int32(bins)))
            return hist
        hist = cupy.zeros(bins, weight.dtype)   # every block adds its counts into the result itself
        cuda_function(module, "bincount_partial", weight.dtype)((grid,), (THREADS,), (index, weight, hist) + args,
                                                                shared_mem=smem)
        return hist

    @ks.h64.cuda(src)
    def _(module, data):
        import cupy

        n = data.size
        if not n:
            return cupy.zeros(H64_BINS, numpy.uint32)
        # at most 255 values per thread: a byte counter never wraps
        grid = opts["h64_grid"] or blocks(n, H64_THREADS * H64_PER_THREAD)
        partial = cupy.empty((grid, H64_BINS), numpy.uint32)
        module.get_function("histogram64")((grid,), (H64_THREADS,), (partial, data, numpy.int32(n)))
        hist = cupy.empty(H64_BINS, numpy.uint32)
        module.get_function("histogram64_merge")((1,), (H64_BINS,), (hist, partial, numpy.int32(grid)))
        return hist

    return ks


K = kernels(*variant("histogram"))


class Bincount(opsdk.Function):
    """hist[b] = sum of weight[i] over index[i] == b."""

    _opsdk_qualname = "realcuda.bincount"

    @staticmethod
    def forward(ctx, index, weight, bins=8):
        ia, wa = array_of(index).astype(numpy.int64, copy=False), array_of(weight)
        if ia.shape != wa.shape or ia.ndim != 1 or (ia.size and (int(ia.min()) < 0 or int(ia.max()) >= bins)):
            raise opsdk.errors.ShapeError(f"realcuda.bincount: expected index and weight [n], index in [0, {bins}); "
                                          f"got: {list(ia.shape)}, {list(wa.shape)}")
        ctx.index = ia
        return tensor_of(K.bincount(ia, wa, bins=int(bins)))

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        return None, tensor_of(K.bincount_bwd(ctx.index, array_of(dy)))


def calls(rng, dtype, n=3000, bins=37):
    """Kernel calls for the simulator matrix: 3000 weights in 37 bins (12 blocks of partial sums)."""
    index = rng.integers(0, bins, n).astype(numpy.int64)
    data = numpy.where(rng.random(70000) < 0.6, 0, rng.integers(0, 256, 70000)).astype(numpy.uint8)
    return [("bincount", (index, rng.standard_normal(n).astype(dtype)), {"bins": bins}), ("h64", (data,), {})]


def _samples(rng, dtype):
    from opsdk.packs.registry import Sample

    index = numpy.array([0, 3, 3, 1, 7, 0, 3, 5, 2, 2, 6], dtype=numpy.int64)
    return [Sample((index, rng.uniform(-2, 2, index.size).astype(dtype)), {"bins": 8})]


def register(register):
    register(Bincount, name="bincount", samples=_samples, dtypes=FLOATS, double_backward=False,
             kernels=(K.bincount, K.bincount_bwd))
