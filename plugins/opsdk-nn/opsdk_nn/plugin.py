"""The pack's plugin: registers every op under pack ``nn`` (entry point ``nn`` in group ``opsdk``)."""
from opsdk.hookspecs import hookimpl

from . import samples
from .kernels import activations, cross_entropy, norms, softmax
from .ops.activations import Gelu, Mish, Silu, Softplus
from .ops.cross_entropy import CrossEntropy
from .ops.norms import LayerNorm, RMSNorm
from .ops.softmax import LogSoftmax, Softmax
from .references import REFERENCES

DTYPES = ("float32", "float64")


# (Function, op name, samples, kernels)
OPS = (
    (Gelu, "gelu", samples.gelu, activations.GELU.kernels + activations.GELU_TANH.kernels),
    (Silu, "silu", samples.silu, activations.SILU.kernels),
    (Softplus, "softplus", samples.softplus, activations.SOFTPLUS.kernels),
    (Mish, "mish", samples.mish, activations.MISH.kernels),
    (Softmax, "softmax", samples.softmax, softmax.SOFTMAX.kernels),
    (LogSoftmax, "log_softmax", samples.log_softmax, softmax.LOG_SOFTMAX.kernels),
    (LayerNorm, "layer_norm", samples.layer_norm, norms.LAYER_NORM.kernels),
    (RMSNorm, "rms_norm", samples.rms_norm, norms.RMS_NORM.kernels),
    (CrossEntropy, "cross_entropy", samples.cross_entropy, cross_entropy.CROSS_ENTROPY.kernels),
)


@hookimpl
def register_ops(register):
    """Register the pack's fused ops: activations, softmax, norms and cross_entropy."""
    for function, name, sample_fn, kernels in OPS:
        register(function, name=name, samples=sample_fn, dtypes=DTYPES, double_backward=True,
                 kernels=kernels, reference=REFERENCES[name])
