"""realcuda.matmul: cuda-samples' tiled shared-memory matrix product (cuda/gemm.cu).

    fwd(a[M, K], b[K, N]) -> a @ b; the backward runs the same kernel on transposed copies
"""
import numpy

import opsdk
import opsdk.errors
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.kernels import CudaSource, Kernel, array_module, array_of, tensor_of

from ._common import FLOATS, blocks, shipped, variant

TILES = (16, 32)
TYPES = {"float32": "float", "float64": "double"}
NAMES = tuple(f"matmul_tiled<{t},{tile}>" for t in TYPES.values() for tile in TILES)
DEFAULTS = {"tile": 16}


def _fwd_python(a, b):
    return (a.astype(numpy.float64) @ b.astype(numpy.float64)).astype(a.dtype)


def kernels(source=None, options=None, tag=""):
    """The op's Kernel, its CUDA from ``source`` (default: the shipped file)."""
    import types

    opts = {**DEFAULTS, **(options or {})}
    src = CudaSource(source or shipped("gemm.cu"), names=NAMES)
    fwd = Kernel(f"realcuda.matmul{tag}", dtypes=FLOATS)
    fwd.python(_fwd_python)

    @fwd.cuda(src)
    def _(module, a, b):
        import cupy

        (m, k), n = a.shape, b.shape[1]
        c = cupy.empty((m, n), a.dtype)
        if c.size:
            tile = opts["tile"]
            module.get_function(f"matmul_tiled<{TYPES[a.dtype.name]},{tile}>")(
                (blocks(n, tile), blocks(m, tile)), (tile, tile),
                (c, a, b, numpy.int32(m), numpy.int32(k), numpy.int32(n)))
        return c

    return types.SimpleNamespace(fwd=fwd)


K = kernels(*variant("gemm"))


class Matmul(opsdk.Function):
    """a @ b for 2-D a and b."""

    _opsdk_qualname = "realcuda.matmul"

    @staticmethod
    def forward(ctx, a, b):
        aa, ba = array_of(a), array_of(b)
        if aa.ndim != 2 or ba.ndim != 2 or aa.shape[1] != ba.shape[0]:
            raise opsdk.errors.ShapeError(f"realcuda.matmul: expected [M, K] and [K, N]; got: "
                                          f"{list(aa.shape)} and {list(ba.shape)}")
        ctx.save_for_backward(a, b)
        return tensor_of(K.fwd(aa, ba))

    @staticmethod
    @once_differentiable
    def backward(ctx, dc):
        a, b = ctx.saved_tensor()
        aa, ba = array_of(a), array_of(b)
        g = array_of(dc).astype(aa.dtype, copy=False)
        xp = array_module(aa)
        return (tensor_of(K.fwd(g, xp.ascontiguousarray(ba.T))),
                tensor_of(K.fwd(xp.ascontiguousarray(aa.T), g)))


def reference(a, b):
    return opsdk.matmul(a, b)


def calls(rng, dtype, m=37, k=45, n=21):
    """Kernel calls for the simulator matrix: 37 x 45 by 45 x 21 (partial tiles on every side)."""
    return [("fwd", (rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)), {})]


def register(register):
    register(Matmul, name="matmul", inputs=[TensorSpec(shape=(5, 7)), TensorSpec(shape=(7, 3))], dtypes=FLOATS,
             double_backward=False, kernels=(K.fwd,), reference=reference)
