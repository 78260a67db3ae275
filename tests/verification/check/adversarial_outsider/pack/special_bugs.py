"""Special points of the domain: 0, the domain's ends, the dtype's range."""
import numpy

import opsdk
from opsdk import TensorSpec

from ._arrays import array_of, tensor_of

F = ("float32", "float64")


# -- out.sinc_nan0: sin(x) / x, NaN at 0 ------------------------------------------------------
class SincNan0(opsdk.Function):
    """sin(x) / x."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = array_of(x)
        return tensor_of(numpy.sin(a) / a)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        return tensor_of(array_of(dy) * (a * numpy.cos(a) - numpy.sin(a)) / (a * a))


# -- out.softsign_bwd_nan0: backward "simplified" to y / (x (1 + |x|)) -------------------------
class SoftsignNan0(opsdk.Function):
    """x / (1 + |x|)."""

    @staticmethod
    def forward(ctx, x):
        a = array_of(x)
        y = tensor_of(a / (1 + numpy.abs(a)))
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, y = (array_of(t) for t in ctx.saved_tensor())
        return tensor_of(array_of(dy) * y / (x * (1 + numpy.abs(x))))


# -- out.logcosh_overflow: log(cosh(x)), cosh overflows float32 near the domain's ends ---------
class LogCosh(opsdk.Function):
    """log(cosh(x))."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return tensor_of(numpy.log(numpy.cosh(array_of(x))))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return tensor_of(array_of(dy) * numpy.tanh(array_of(x)))


# -- out.pow_log0: x ** p; the gradient of p is log(x) x^p, NaN at x = 0 ----------------------
class PowLog0(opsdk.Function):
    """x ** p, elementwise, for x >= 0."""

    @staticmethod
    def forward(ctx, x, p):
        y = tensor_of(array_of(x) ** array_of(p))
        ctx.save_for_backward(x, p, y)
        return y

    @staticmethod
    def backward(ctx, dz):
        x, p, y = (array_of(t) for t in ctx.saved_tensor())
        g = array_of(dz)
        return tensor_of(g * p * x ** (p - 1)), tensor_of(g * numpy.log(x) * y)


def register(register):
    register(SincNan0, name="sinc_nan0", inputs=[TensorSpec(shape=(3, 4), domain=(-4.0, 4.0))],
             dtypes=F)
    register(SoftsignNan0, name="softsign_bwd_nan0",
             inputs=[TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))], dtypes=F)
    register(LogCosh, name="logcosh_overflow",
             inputs=[TensorSpec(shape=(3, 4), domain=(-100.0, 100.0))], dtypes=F)
    register(PowLog0, name="pow_log0",
             inputs=[TensorSpec(shape=(3, 4), domain=(0.0, 2.0)),
                     TensorSpec(shape=(3, 4), domain=(1.5, 3.0))], dtypes=F)
