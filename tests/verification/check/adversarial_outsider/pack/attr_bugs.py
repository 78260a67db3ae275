"""Attributes verified at one value: hard-coded, or ignored, in backward."""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel

from . import _c
from ._arrays import array_of, tensor_of

F = ("float32", "float64")


# -- out.elu_hardcoded: backward uses the registered alpha = 1.3 -------------------------------
class EluHardcoded(opsdk.Function):
    """ELU: x if x > 0 else alpha * (exp(x) - 1)."""

    @staticmethod
    def forward(ctx, x, alpha=1.3):
        a = array_of(x)
        y = tensor_of(numpy.where(a > 0, a, alpha * numpy.expm1(numpy.minimum(a, 0))))
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, y = (array_of(t) for t in ctx.saved_tensor())
        return tensor_of(array_of(dy) * numpy.where(x > 0, 1.0, y + 1.3).astype(x.dtype))


# -- out.scaled_softsign_c: the C backward has no scale parameter ------------------------------
ss_fwd = Kernel("out.scaled_softsign_fwd", dtypes=F)
ss_bwd = Kernel("out.scaled_softsign_bwd", dtypes=F)


@ss_fwd.python
def _(x, *, scale):
    return scale * x / (1 + numpy.abs(x))


@ss_fwd.c(_c.EW)
def _(lib, ffi, x, *, scale):
    y = numpy.empty_like(x)
    _c.fn(lib, "rt_ssoftsign_fwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, y, True), x.size, scale)
    return y


@ss_bwd.python
def _(x, dy, *, scale):
    return scale * dy / (1 + numpy.abs(x)) ** 2


@ss_bwd.c(_c.EW)
def _(lib, ffi, x, dy, *, scale):
    dx = numpy.empty_like(x)
    _c.fn(lib, "rt_ssoftsign_bwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, dy), _c.ptr(ffi, dx, True), x.size)
    return dx


class ScaledSoftsign(opsdk.Function):
    """scale * x / (1 + |x|)."""

    @staticmethod
    def forward(ctx, x, scale=1.0):
        scale = float(scale)
        ctx.save_for_backward(x)
        ctx.scale = scale
        return tensor_of(ss_fwd(array_of(x), scale=scale))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return tensor_of(ss_bwd(array_of(x), array_of(dy).astype(x.dtype, copy=False),
                                scale=ctx.scale))


# -- out.softplus_beta_bwd: backward takes sigmoid(x), not sigmoid(beta x) ---------------------
class SoftplusBeta(opsdk.Function):
    """log(1 + exp(beta x)) / beta."""

    @staticmethod
    def forward(ctx, x, beta=1.0):
        ctx.save_for_backward(x)
        ctx.beta = beta
        z = beta * array_of(x)
        return tensor_of((numpy.maximum(z, 0) + numpy.log1p(numpy.exp(-numpy.abs(z)))) / beta)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        return tensor_of(array_of(dy) / (1 + numpy.exp(-a)))


def register(register):
    register(EluHardcoded, name="elu_hardcoded", inputs=[TensorSpec(shape=(3, 4), avoid=(0.0,))],
             attrs={"alpha": 1.3}, dtypes=F)
    register(ScaledSoftsign, name="scaled_softsign_c", inputs=[TensorSpec(shape=(3, 4))],
             attrs={"scale": 1.0}, dtypes=F, kernels=(ss_fwd, ss_bwd))
    register(SoftplusBeta, name="softplus_beta_bwd", inputs=[TensorSpec(shape=(3, 4))],
             attrs={"beta": 1.0}, dtypes=F)
