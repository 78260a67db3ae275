"""Errors a loose tolerance lets through: truncated constants, cheap float paths, narrow accumulators."""
import math

import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel

from . import _c
from ._arrays import array_of, tensor_of
from ._unary import SavedTanh, unary_function

F = ("float32", "float64")
_erf = numpy.vectorize(math.erf, otypes=[float])


# -- out.erf_bwd_const: 2/sqrt(pi) typed as 1.1284 in backward ---------------------------------
class ErfConst(opsdk.Function):
    """erf(x)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = array_of(x)
        return tensor_of(_erf(a).astype(a.dtype))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        return tensor_of((1.1284 * numpy.exp(-a * a) * array_of(dy)).astype(a.dtype))


# -- out.selu_bwd_trunc: SELU whose backward uses the constants to 4 decimals ------------------
SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805


class SeluTrunc(opsdk.Function):
    """SELU: scale * (x if x > 0 else alpha * (exp(x) - 1))."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = array_of(x)
        y = SELU_SCALE * numpy.where(a > 0, a, SELU_ALPHA * numpy.expm1(numpy.minimum(a, 0)))
        return tensor_of(y.astype(a.dtype))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a, g = array_of(x), array_of(dy)
        d = numpy.where(a > 0, 1.0507, 1.0507 * 1.6733 * numpy.exp(numpy.minimum(a, 0)))
        return tensor_of((g * d).astype(a.dtype))


# -- out.gelu_f32_tanh_c: exact GELU; the C float32 forward uses the tanh approximation --------
gelu_fwd = Kernel("out.gelu_f32_tanh_fwd", dtypes=F)
gelu_bwd = Kernel("out.gelu_f32_tanh_bwd", dtypes=F)


@gelu_fwd.python
def _(x):
    return (0.5 * x * (1 + _erf(x / math.sqrt(2)))).astype(x.dtype)


@gelu_bwd.python
def _(x, dy):
    cdf = 0.5 * (1 + _erf(x / math.sqrt(2)))
    pdf = numpy.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
    return (dy * (cdf + x * pdf)).astype(x.dtype)


_c.unary(gelu_fwd, _c.EW, "rt_gelu_fwd")
_c.unary_grad(gelu_bwd, _c.EW, "rt_gelu_bwd")
GeluTanhF32 = unary_function("GeluTanhF32", gelu_fwd, gelu_bwd)


# -- out.rowmean_acc32_c: the float64 C kernel accumulates in float ----------------------------
rowmean = Kernel("out.rowmean_fwd", dtypes=F)


@rowmean.python
def _(x):
    return x.mean(axis=-1)


@rowmean.c(_c.ROWS)
def _(lib, ffi, x):
    cols = x.shape[-1]
    y = numpy.empty(x.shape[:-1], dtype=x.dtype)
    _c.fn(lib, "rt_rowmean_fwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, y, True), x.size // cols, cols)
    return y


class RowMeanAcc32(opsdk.Function):
    """Mean over the last axis."""

    @staticmethod
    def forward(ctx, x):
        ctx.shape = x.shape
        return tensor_of(rowmean(array_of(x)))

    @staticmethod
    def backward(ctx, dy):
        g = array_of(dy)[..., None]
        return tensor_of(numpy.broadcast_to(g / ctx.shape[-1], ctx.shape).copy())


# -- out.tanh_f16_bwd: backward squares y in float16 "to save bandwidth" (float32 only) --------
class TanhF16(SavedTanh):
    """tanh(x)."""

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        a = array_of(y)
        if a.dtype == numpy.float32:
            a = a.astype(numpy.float16)
        return tensor_of((array_of(dy) * (1 - a * a)).astype(array_of(dy).dtype))


# -- out.softsign_abs_c: the float32 C kernel calls abs() (int) instead of fabsf ---------------
softsign_fwd = Kernel("out.softsign_abs_fwd", dtypes=F)
softsign_bwd = Kernel("out.softsign_abs_bwd", dtypes=F)


@softsign_fwd.python
def _(x):
    return x / (1 + numpy.abs(x))


@softsign_bwd.python
def _(x, dy):
    return dy / (1 + numpy.abs(x)) ** 2


_c.unary(softsign_fwd, _c.EW, "rt_softsign_fwd")
_c.unary_grad(softsign_bwd, _c.EW, "rt_softsign_bwd")
SoftsignAbs = unary_function("SoftsignAbs", softsign_fwd, softsign_bwd)


def register(register):
    x = [TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))]
    register(ErfConst, name="erf_bwd_const", inputs=x, dtypes=F)
    register(SeluTrunc, name="selu_bwd_trunc", inputs=[TensorSpec(shape=(3, 4), avoid=(0.0,))],
             dtypes=F)
    register(GeluTanhF32, name="gelu_f32_tanh_c", inputs=x, dtypes=F, kernels=(gelu_fwd, gelu_bwd))
    register(RowMeanAcc32, name="rowmean_acc32_c", inputs=[TensorSpec(shape=(3, 200))], dtypes=F,
             kernels=(rowmean,))
    register(TanhF16, name="tanh_f16_bwd", inputs=x, dtypes=F)
    register(SoftsignAbs, name="softsign_abs_c", inputs=x, dtypes=F,
             kernels=(softsign_fwd, softsign_bwd))
