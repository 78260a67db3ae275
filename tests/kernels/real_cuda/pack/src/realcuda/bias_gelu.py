"""realcuda.bias_gelu: FasterTransformer's fused bias + GELU (tanh form) (cuda/bias_gelu.cu).

    fwd(x[m, n], bias[n]) -> gelu(x + bias)
    bwd(x, bias, dy) -> dx                   python only; the op sums dx over rows for dbias

float32 runs the float4 kernel, float16 the half2 one when n is even (the bias pairs are then
4-byte aligned) and the scalar one otherwise, float64 the scalar one.
"""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.kernels import CudaSource, Kernel, array_module, array_of, launch_1d, tensor_of

from ._common import as_rows, check_per_feature, shipped, variant

DTYPES = ("float16", "float32", "float64")
SQRT_2_OVER_PI = 0.7978845608028654
DEFAULTS = {"half2_any_n": False}


def _gelu(v):
    xp = array_module(v)
    return 0.5 * v * (1.0 + xp.tanh(SQRT_2_OVER_PI * (v + 0.044715 * v ** 3)))


def _fwd_python(x, bias):
    return _gelu(x.astype(numpy.float64) + bias).astype(x.dtype)


def _bwd_python(x, bias, dy):
    xp = array_module(x)
    v = x.astype(numpy.float64) + bias
    t = xp.tanh(SQRT_2_OVER_PI * (v + 0.044715 * v ** 3))
    grad = 0.5 * (1.0 + t) + 0.5 * v * (1.0 - t * t) * SQRT_2_OVER_PI * (1.0 + 3 * 0.044715 * v * v)
    return (dy * grad).astype(x.dtype)


def kernels(source=None, options=None, tag=""):
    """The op's Kernels, the forward's CUDA from ``source`` (default: the shipped file)."""
    import types

    opts = {**DEFAULTS, **(options or {})}
    src = CudaSource(source or shipped("bias_gelu.cu"))
    fwd = Kernel(f"realcuda.bias_gelu_fwd{tag}", dtypes=DTYPES)
    bwd = Kernel(f"realcuda.bias_gelu_bwd{tag}", dtypes=DTYPES)
    fwd.python(_fwd_python)
    bwd.python(_bwd_python)

    @fwd.cuda(src)
    def _(module, x, bias):
        import cupy

        m, n = x.shape
        y = cupy.empty_like(x)
        if not x.size:
            return y
        args = (x, bias, y, numpy.int32(m), numpy.int32(n))
        if x.dtype == numpy.float32:
            launch_1d(module.get_function("bias_gelu_f32"), max(1, x.size // 4), args)
        elif x.dtype == numpy.float64:
            launch_1d(module.get_function("bias_gelu_f64"), x.size, args)
        elif n % 2 == 0 or opts["half2_any_n"]:
            launch_1d(module.get_function("bias_gelu_f16x2"), max(1, x.size // 2), args)
        else:
            launch_1d(module.get_function("bias_gelu_f16"), x.size, args)
        return y

    return types.SimpleNamespace(fwd=fwd, bwd=bwd)


K = kernels(*variant("bias_gelu"))


class BiasGelu(opsdk.Function):
    """gelu(x + bias), tanh form, bias over the last axis."""

    _opsdk_qualname = "realcuda.bias_gelu"

    @staticmethod
    def forward(ctx, x, bias):
        check_per_feature("bias_gelu", x.shape[-1], bias=bias)
        ctx.save_for_backward(x, bias)
        return tensor_of(K.fwd(as_rows(x), array_of(bias)).reshape(tuple(x.shape)))

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        x, bias = ctx.saved_tensor()
        xs = as_rows(x)
        dx = K.bwd(xs, array_of(bias), as_rows(dy, xs.dtype))
        return tensor_of(dx.reshape(tuple(x.shape))), tensor_of(dx.sum(axis=0))


def reference(x, bias):
    v = x + bias
    return 0.5 * v * (1.0 + opsdk.tanh(SQRT_2_OVER_PI * (v + 0.044715 * v * v * v)))


def calls(rng, dtype, m=5, n=7):
    """Kernel calls for the simulator matrix: 5 x 7 (35 elements: 8 quads and a tail of 3)."""
    x = rng.uniform(-4, 4, (m, n)).astype(dtype)
    bias = rng.uniform(-1, 1, n).astype(dtype)
    return [("fwd", (x, bias), {})]


def register(register):
    register(BiasGelu, name="bias_gelu", inputs=[TensorSpec(shape=(3, 5), domain=(-3, 3)), TensorSpec(shape=(5,))],
             dtypes=("float32", "float64"), double_backward=False, kernels=(K.fwd, K.bwd), reference=reference)
