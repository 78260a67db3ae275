"""realcuda.cross_entropy: llm.c's fused classifier (cuda/cross_entropy.cu), per-row losses.

    fwd(logits[rows, V], targets[rows] int32) -> losses[rows]
    bwd(logits, targets, dlosses) -> dlogits          (softmax - onehot) * dloss, the same kernel

float32 rows are read as float4 when V is a multiple of 4 (llm.c pads the vocabulary so that
they always are); other rows are read one element at a time.
"""
import numpy

import opsdk
import opsdk.errors
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.kernels import CudaSource, Kernel, array_module, array_of, cuda_function, tensor_of

from ._common import FLOATS, shipped, variant

THREADS = 128
INDEX = {"targets": ("int32",)}
DEFAULTS = {"vec4_any_v": False}


def _log_softmax(logits):
    xp = array_module(logits)
    x = logits.astype(numpy.float64)
    z = x - x.max(axis=1, keepdims=True)
    return z - xp.log(xp.exp(z).sum(axis=1, keepdims=True))


def _fwd_python(logits, targets):
    xp = array_module(logits)
    rows = xp.arange(logits.shape[0])
    return (-_log_softmax(logits)[rows, targets]).astype(logits.dtype)


def _bwd_python(logits, targets, dlosses):
    xp = array_module(logits)
    p = xp.exp(_log_softmax(logits))
    p[xp.arange(logits.shape[0]), targets] -= 1.0
    return (p * dlosses[:, None]).astype(logits.dtype)


def kernels(source=None, options=None, tag=""):
    """The op's two Kernels, their CUDA from ``source`` (default: the shipped file)."""
    import types

    opts = {**DEFAULTS, **(options or {})}
    src = CudaSource(source or shipped("cross_entropy.cu"))
    fwd = Kernel(f"realcuda.cross_entropy_fwd{tag}", dtypes=FLOATS, arg_dtypes=INDEX)
    bwd = Kernel(f"realcuda.cross_entropy_bwd{tag}", dtypes=FLOATS, arg_dtypes=INDEX)
    fwd.python(_fwd_python)
    bwd.python(_bwd_python)

    def launch(module, logits, targets, dlosses, write):
        import cupy

        rows, v = logits.shape
        losses = cupy.empty(rows, logits.dtype)
        dlogits = cupy.empty_like(logits) if write else cupy.zeros(1, logits.dtype)
        if dlosses is None:
            dlosses = cupy.zeros(1, logits.dtype)
        if rows and v:
            vec4 = logits.dtype == numpy.float32 and (v % 4 == 0 or opts["vec4_any_v"])
            name = "classifier_vec4_f32" if vec4 else cuda_function(module, "classifier", logits.dtype)
            fn = module.get_function(name) if vec4 else name
            fn((rows,), (THREADS,), (dlogits, losses, logits, dlosses, targets, numpy.int32(v), numpy.int32(v),
                                     numpy.int32(write)))
        return losses, dlogits

    @fwd.cuda(src)
    def _(module, logits, targets):
        return launch(module, logits, targets, None, 0)[0]

    @bwd.cuda(src)
    def _(module, logits, targets, dlosses):
        return launch(module, logits, targets, dlosses, 1)[1]

    return types.SimpleNamespace(fwd=fwd, bwd=bwd)


K = kernels(*variant("cross_entropy"))


class CrossEntropy(opsdk.Function):
    """Per-row -log softmax(logits)[target]."""

    _opsdk_qualname = "realcuda.cross_entropy"

    @staticmethod
    def forward(ctx, logits, targets):
        la, ta = array_of(logits), array_of(targets)
        if la.ndim != 2 or ta.shape != la.shape[:1] or (ta.size and (int(ta.min()) < 0 or int(ta.max()) >= la.shape[1])):
            raise opsdk.errors.ShapeError(f"realcuda.cross_entropy: expected logits [rows, V] and targets [rows] in "
                                          f"[0, V); got: {list(la.shape)}, {list(ta.shape)}")
        ctx.save_for_backward(logits)
        ctx.targets = ta.astype(numpy.int32)
        return tensor_of(K.fwd(la, ctx.targets))

    @staticmethod
    @once_differentiable
    def backward(ctx, dlosses):
        (logits,) = ctx.saved_tensor()
        la = array_of(logits)
        return tensor_of(K.bwd(la, ctx.targets, array_of(dlosses).astype(la.dtype, copy=False))), None


def reference(logits, targets):
    logp = opsdk.nn.functional.log_softmax(logits, axis=-1)
    onehot = opsdk.nn.functional.one_hot(targets, logits.shape[1]).astype(logits.dtype)
    return -(logp * onehot).sum(axis=-1)


def calls(rng, dtype, rows=6, v=300):
    """Kernel calls for the simulator matrix: 6 rows of 300 classes (3 passes of 128 threads, a partial one)."""
    logits = (rng.standard_normal((rows, v)) * 3).astype(dtype)
    targets = rng.integers(0, v, rows).astype(numpy.int32)
    dlosses = rng.uniform(0.1, 1.0, rows).astype(dtype)
    return [("fwd", (logits, targets), {}), ("bwd", (logits, targets, dlosses), {})]


def register(register):
    register(CrossEntropy, name="cross_entropy",
             inputs=[TensorSpec(shape=(4, 9)), TensorSpec(shape=(4,), integer=True, high=9, dtype="int64")],
             dtypes=FLOATS, double_backward=False, kernels=(K.fwd, K.bwd))
