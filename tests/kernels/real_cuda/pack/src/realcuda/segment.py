"""realcuda.segment_sum and realcuda.scatter_max: pytorch_scatter's reductions (cuda/segment.cu).

    sum(src[E, K], indptr[N + 1] int64) -> out[N, K]        a warp per row (K == 1) or a thread per (row, k)
    gather(grad_out[N, K], indptr) -> grad_src[E, K]          the backward of the sum
    max(src[E], index[E] int64, *, dim_size) -> out[dim_size] atomicCAS float max; empty segments 0
    max_bwd(src, index, out, grad_out) -> grad_src            python only: the gradient goes to the argmax
"""
import numpy

import opsdk
import opsdk.errors
from opsdk.autograd import once_differentiable
from opsdk.kernels import CudaSource, Kernel, array_module, array_of, cuda_function, launch_1d, tensor_of

from ._common import FLOATS, blocks, shipped, variant

THREADS = 256
INDEX = {"indptr": ("int64",), "index": ("int64",)}
DEFAULTS = {"fill_lowest": True}


def _sum_python(src, indptr):
    xp = array_module(src)
    ptr = indptr.tolist() if hasattr(indptr, "tolist") else list(indptr)
    out = xp.zeros((len(ptr) - 1, src.shape[1]), numpy.float64)
    for row in range(len(ptr) - 1):
        out[row] = src[ptr[row]:ptr[row + 1]].astype(numpy.float64).sum(axis=0)
    return out.astype(src.dtype)


def _gather_python(grad_out, indptr):
    xp = array_module(grad_out)
    counts = xp.diff(indptr)
    return xp.repeat(grad_out, counts.tolist() if xp is not numpy else counts, axis=0)


def _max_python(src, index, *, dim_size):
    xp = array_module(src)
    lowest = numpy.finfo(src.dtype).min
    out = numpy.full(dim_size, lowest, src.dtype)
    numpy.maximum.at(out, _host(index), _host(src))
    out[out == lowest] = 0
    return xp.asarray(out)


def _max_bwd_python(src, index, out, grad_out):
    xp = array_module(src)
    s, i, o = _host(src), _host(index), _host(out)
    grad = numpy.zeros_like(s)
    taken = numpy.zeros(o.shape, bool)
    for e in range(s.size):  # the first entry equal to its segment's max takes the gradient
        if not taken[i[e]] and s[e] == o[i[e]]:
            grad[e], taken[i[e]] = _host(grad_out)[i[e]], True
    return xp.asarray(grad)


def _host(a):
    return a.get() if hasattr(a, "get") else a


def kernels(source=None, options=None, tag=""):
    """The ops' Kernels, their CUDA from ``source`` (default: the shipped file)."""
    import types

    opts = {**DEFAULTS, **(options or {})}
    src_code = CudaSource(source or shipped("segment.cu"), names=tuple(
        f"{k}_{s}" for s in ("f32", "f64")
        for k in ("segment_sum", "segment_sum_k", "gather_csr", "scatter_max", "fill", "zero_untouched")))
    ks = types.SimpleNamespace(
        sum=Kernel(f"realcuda.segment_sum{tag}", dtypes=FLOATS, arg_dtypes=INDEX),
        gather=Kernel(f"realcuda.segment_gather{tag}", dtypes=FLOATS, arg_dtypes=INDEX),
        max=Kernel(f"realcuda.scatter_max{tag}", dtypes=FLOATS, arg_dtypes=INDEX),
        max_bwd=Kernel(f"realcuda.scatter_max_bwd{tag}", dtypes=FLOATS, arg_dtypes=INDEX))
    ks.sum.python(_sum_python)
    ks.gather.python(_gather_python)
    ks.max.python(_max_python)
    ks.max_bwd.python(_max_bwd_python)

    @ks.sum.cuda(src_code)
    def _(module, src, indptr):
        import cupy

        n, k = indptr.size - 1, src.shape[1]
        out = cupy.empty((n, k), src.dtype)
        if out.size == 0:
            return out
        if k == 1:  # 32 lanes per row, as pytorch_scatter launches BLOCKS(32, N)
            cuda_function(module, "segment_sum", src.dtype)(
                (blocks(32 * n, THREADS),), (THREADS,), (src, indptr, out, numpy.int32(n)))
        else:
            cuda_function(module, "segment_sum_k", src.dtype)(
                (blocks(n * k, THREADS),), (THREADS,), (src, indptr, out, numpy.int32(n), numpy.int32(k)))
        return out

    @ks.gather.cuda(src_code)
    def _(module, grad_out, indptr):
        import cupy

        n, k = grad_out.shape
        grad = cupy.empty((int(indptr[-1].get()), k), grad_out.dtype)
        if grad_out.size:
            cuda_function(module, "gather_csr", grad_out.dtype)(
                (blocks(n * k, THREADS),), (THREADS,), (grad_out, indptr, grad, numpy.int32(n), numpy.int32(k)))
        return grad

    @ks.max.cuda(src_code)
    def _(module, src, index, *, dim_size):
        import cupy

        out = cupy.empty(dim_size, src.dtype)
        if not dim_size:
            return out
        lowest = src.dtype.type(numpy.finfo(src.dtype).min)
        if opts["fill_lowest"]:
            launch_1d(cuda_function(module, "fill", src.dtype), dim_size, (out, lowest, numpy.int32(dim_size)))
        if src.size:
            launch_1d(cuda_function(module, "scatter_max", src.dtype), src.size,
                      (src, index, out, numpy.int32(src.size)))
        launch_1d(cuda_function(module, "zero_untouched", src.dtype), dim_size, (out, lowest, numpy.int32(dim_size)))
        return out

    return ks


K = kernels(*variant("segment"))


def _index_tensor(t, name, op):
    a = array_of(t)
    if a.dtype.kind not in "iu":
        raise opsdk.errors.DTypeError(f"realcuda.{op}: '{name}' must hold integers; got: {a.dtype}")
    return a.astype(numpy.int64, copy=False)


class SegmentSum(opsdk.Function):
    """out[r] = sum of src[indptr[r]:indptr[r + 1]] along the first axis."""

    _opsdk_qualname = "realcuda.segment_sum"

    @staticmethod
    def forward(ctx, src, indptr):
        sa, ptr = array_of(src), _index_tensor(indptr, "indptr", "segment_sum")
        if sa.ndim != 2 or ptr.ndim != 1 or ptr.size < 1 or int(ptr[-1]) != sa.shape[0] or bool((ptr[1:] < ptr[:-1]).any()) \
                or int(ptr[0]) != 0:
            raise opsdk.errors.ShapeError("realcuda.segment_sum: expected src [E, K] and a non-decreasing indptr "
                                          f"from 0 to E; got: src {list(sa.shape)}, indptr {ptr.tolist()[:8]}")
        ctx.indptr = ptr
        return tensor_of(K.sum(sa, ptr))

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        return tensor_of(K.gather(array_of(dy), ctx.indptr)), None


class ScatterMax(opsdk.Function):
    """out[j] = max of src[e] over index[e] == j (0 for an empty segment)."""

    _opsdk_qualname = "realcuda.scatter_max"

    @staticmethod
    def forward(ctx, src, index, dim_size=4):
        sa, ia = array_of(src), _index_tensor(index, "index", "scatter_max")
        if sa.shape != ia.shape or sa.ndim != 1 or (ia.size and (int(ia.min()) < 0 or int(ia.max()) >= dim_size)):
            raise opsdk.errors.ShapeError(f"realcuda.scatter_max: expected src [E] and index [E] in [0, {dim_size}); "
                                          f"got: {list(sa.shape)}, {list(ia.shape)}")
        out = K.max(sa, ia, dim_size=int(dim_size))
        ctx.saved = (sa, ia, out)
        return tensor_of(out)

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        sa, ia, out = ctx.saved
        return tensor_of(K.max_bwd(sa, ia, out, array_of(dy).astype(sa.dtype, copy=False))), None


def calls(rng, dtype):
    """Kernel calls for the simulator matrix: 9 rows (one empty, one of 70 entries), K = 1 and 3."""
    lengths = numpy.array([3, 0, 70, 1, 5, 33, 2, 8, 4])
    indptr = numpy.concatenate([[0], numpy.cumsum(lengths)]).astype(numpy.int64)
    e = int(indptr[-1])
    src1, src3 = rng.standard_normal((e, 1)).astype(dtype), rng.standard_normal((e, 3)).astype(dtype)
    g = rng.standard_normal((len(lengths), 3)).astype(dtype)
    index = rng.integers(0, 6, 40).astype(numpy.int64)
    index[:6] = numpy.arange(6)   # every segment gets an entry
    return [("sum", (src1, indptr), {}), ("sum", (src3, indptr), {}), ("gather", (g, indptr), {}),
            ("max", (rng.standard_normal(40).astype(dtype), index), {"dim_size": 6})]


def _sum_samples(rng, dtype):
    from opsdk.packs.registry import Sample

    indptr = numpy.array([0, 2, 2, 5, 6], dtype=numpy.int64)
    return [Sample((rng.standard_normal((6, 3)).astype(dtype), indptr), {}),
            Sample((rng.standard_normal((6, 1)).astype(dtype), indptr), {})]


def _max_samples(rng, dtype):
    from opsdk.packs.registry import Sample

    index = numpy.array([0, 2, 2, 3, 0, 2, 1], dtype=numpy.int64)
    return [Sample((rng.permutation(7).astype(dtype) * 0.5 - 1.0, index), {"dim_size": 5})]


def register(register):
    register(SegmentSum, name="segment_sum", samples=_sum_samples, dtypes=FLOATS, double_backward=False,
             kernels=(K.sum, K.gather))
    register(ScatterMax, name="scatter_max", samples=_max_samples, dtypes=FLOATS, double_backward=False,
             kernels=(K.max, K.max_bwd))
