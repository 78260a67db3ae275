"""realcuda.embedding: llm.c's GPT-2 encoder, token plus position embedding (cuda/embedding.cu).

    fwd(inp[B, T] int32, wte[V, C], wpe[Tmax, C]) -> out[B, T, C]
    bwd(dout[B, T, C], inp, *, vocab, positions) -> (dwte[V, C], dwpe[Tmax, C])   atomicAdd scatter
"""
import numpy

import opsdk
import opsdk.errors
from opsdk.autograd import once_differentiable
from opsdk.kernels import CudaSource, Kernel, array_module, array_of, cuda_function, tensor_of

from ._common import FLOATS, blocks, shipped, variant

BLOCK = 256
INDEX = {"inp": ("int32",)}


def _fwd_python(inp, wte, wpe):
    t = inp.shape[1]
    return (wte[inp].astype(numpy.float64) + wpe[:t][None]).astype(wte.dtype)


def _bwd_python(dout, inp, *, vocab, positions):
    b, t, c = dout.shape
    dwte = numpy.zeros((vocab, c))
    numpy.add.at(dwte, _host(inp).reshape(-1), _host(dout).reshape(-1, c).astype(numpy.float64))
    dwpe = numpy.zeros((positions, c))
    dwpe[:t] = _host(dout).astype(numpy.float64).sum(axis=0)
    xp = array_module(dout)
    return xp.asarray(dwte.astype(dout.dtype)), xp.asarray(dwpe.astype(dout.dtype))


def _host(a):
    return a.get() if hasattr(a, "get") else a


def kernels(source=None, options=None, tag=""):
    """The op's two Kernels, their CUDA from ``source`` (default: the shipped file)."""
    import types

    src = CudaSource(source or shipped("embedding.cu"))
    fwd = Kernel(f"realcuda.embedding_fwd{tag}", dtypes=FLOATS, arg_dtypes=INDEX)
    bwd = Kernel(f"realcuda.embedding_bwd{tag}", dtypes=FLOATS, arg_dtypes=INDEX)
    fwd.python(_fwd_python)
    bwd.python(_bwd_python)

    @fwd.cuda(src)
    def _(module, inp, wte, wpe):
        import cupy

        (b, t), c = inp.shape, wte.shape[1]
        out = cupy.empty((b, t, c), wte.dtype)
        if out.size:  # llm.c's launch: ceil_div(N, block_size) blocks
            cuda_function(module, "encoder_fwd", wte.dtype)(
                (blocks(out.size, BLOCK),), (BLOCK,), (out, inp, wte, wpe, numpy.int32(b), numpy.int32(t), numpy.int32(c)))
        return out

    @bwd.cuda(src)
    def _(module, dout, inp, *, vocab, positions):
        import cupy

        b, t, c = dout.shape
        dwte, dwpe = cupy.zeros((vocab, c), dout.dtype), cupy.zeros((positions, c), dout.dtype)
        if dout.size:
            cuda_function(module, "encoder_bwd", dout.dtype)(
                (blocks(dout.size, BLOCK),), (BLOCK,), (dwte, dwpe, dout, inp, numpy.int32(b), numpy.int32(t), numpy.int32(c)))
        return dwte, dwpe

    return types.SimpleNamespace(fwd=fwd, bwd=bwd)


K = kernels(*variant("embedding"))


class Embedding(opsdk.Function):
    """wte[inp] + wpe[:T] for token ids inp[B, T]."""

    _opsdk_qualname = "realcuda.embedding"

    @staticmethod
    def forward(ctx, inp, wte, wpe):
        ia, wa, pa = array_of(inp), array_of(wte), array_of(wpe)
        if ia.ndim != 2 or wa.ndim != 2 or pa.ndim != 2 or wa.shape[1] != pa.shape[1] or ia.shape[1] > pa.shape[0] \
                or (ia.size and (int(ia.min()) < 0 or int(ia.max()) >= wa.shape[0])):
            raise opsdk.errors.ShapeError(f"realcuda.embedding: expected inp [B, T] in [0, V), wte [V, C], wpe [>= T, C]; "
                                          f"got: {list(ia.shape)}, {list(wa.shape)}, {list(pa.shape)}")
        ctx.inp, ctx.sizes = ia.astype(numpy.int32), (wa.shape[0], pa.shape[0])
        return tensor_of(K.fwd(ctx.inp, wa, pa))

    @staticmethod
    @once_differentiable
    def backward(ctx, dout):
        vocab, positions = ctx.sizes
        dwte, dwpe = K.bwd(array_of(dout), ctx.inp, vocab=vocab, positions=positions)
        return None, tensor_of(dwte), tensor_of(dwpe)


def calls(rng, dtype, b=3, t=7, c=13, vocab=5):
    """Kernel calls for the simulator matrix: 3 x 7 tokens of a 5-word vocabulary (many repeats), C = 13."""
    inp = rng.integers(0, vocab, (b, t)).astype(numpy.int32)
    wte, wpe = rng.standard_normal((vocab, c)).astype(dtype), rng.standard_normal((t + 2, c)).astype(dtype)
    dout = rng.standard_normal((b, t, c)).astype(dtype)
    return [("fwd", (inp, wte, wpe), {}), ("bwd", (dout, inp), {"vocab": vocab, "positions": t + 2})]


def _samples(rng, dtype):
    from opsdk.packs.registry import Sample

    (_, (inp, wte, wpe), _), _ = calls(rng, dtype, b=2, t=3, c=4, vocab=4)
    return [Sample((inp.astype(numpy.int64), wte, wpe), {})]


def register(register):
    register(Embedding, name="embedding", samples=_samples, dtypes=FLOATS, double_backward=False,
             kernels=(K.fwd, K.bwd))
