"""Gradients wrong in one place: the second order, the second output, the second input."""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel

from . import _c
from ._arrays import array_of, tensor_of
from ._maths import sigmoid
from ._unary import SavedSoftplus

F = ("float32", "float64")


# -- out.softplus_dd: first order right, hand-derived second order s (1 + s) -------------------
class SoftplusDD(SavedSoftplus):
    """softplus(x) = log(1 + exp(x)), differentiable twice."""

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return _SoftplusGrad.apply(x, dy)


class _SoftplusGrad(opsdk.Function):
    @staticmethod
    def forward(ctx, x, dy):
        ctx.save_for_backward(x, dy)
        return tensor_of(array_of(dy) * sigmoid(array_of(x)))

    @staticmethod
    def backward(ctx, ddx):
        x, dy = ctx.saved_tensor()
        s = opsdk.sigmoid(x)
        return ddx * dy * s * (1 + s), ddx * s


# -- out.tanh_dd_detach: backward in opsdk ops, but on a detached tanh -------------------------
class TanhDetach(opsdk.Function):
    """tanh(x), differentiable twice."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return tensor_of(numpy.tanh(array_of(x)))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        t = opsdk.tanh(x.detach())            # no need to track this
        return dy * (1 - t * t)


# -- out.sincos_sign: (sin x, cos x); the cos term has the wrong sign --------------------------
class SinCosSign(opsdk.Function):
    """(sin(x), cos(x))."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = array_of(x)
        return tensor_of(numpy.sin(a)), tensor_of(numpy.cos(a))

    @staticmethod
    def backward(ctx, ds, dc):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        return tensor_of(array_of(ds) * numpy.cos(a) + array_of(dc) * numpy.sin(a))


# -- out.meanvar_rows: (mean, unbiased var) per row; var's gradient divides by n ---------------
class MeanVar(opsdk.Function):
    """(mean, var) over the last axis; var is unbiased (divides by n - 1)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = array_of(x)
        return tensor_of(a.mean(axis=-1)), tensor_of(a.var(axis=-1, ddof=1))

    @staticmethod
    def backward(ctx, dm, dv):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        n = a.shape[-1]
        m = a.mean(axis=-1, keepdims=True)
        return tensor_of(array_of(dm)[..., None] / n + array_of(dv)[..., None] * 2 * (a - m) / n)


# -- out.hypot_copy: the gradient of y copies x's ----------------------------------------------
class HypotCopy(opsdk.Function):
    """sqrt(x^2 + y^2)."""

    @staticmethod
    def forward(ctx, x, y):
        r = tensor_of(numpy.hypot(array_of(x), array_of(y)))
        ctx.save_for_backward(x, y, r)
        return r

    @staticmethod
    def backward(ctx, dr):
        x, y, r = (array_of(t) for t in ctx.saved_tensor())
        g = array_of(dr)
        return tensor_of(g * x / r), tensor_of(g * x / r)


# -- out.div_c: x / y; the C backward's dy forgets the factor x --------------------------------
div_fwd = Kernel("out.div_fwd", dtypes=F)
div_bwd = Kernel("out.div_bwd", dtypes=F)


@div_fwd.python
def _(x, y):
    return x / y


@div_fwd.c(_c.EW)
def _(lib, ffi, x, y):
    z = numpy.empty_like(x)
    _c.fn(lib, "rt_div_fwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, y), _c.ptr(ffi, z, True), x.size)
    return z


@div_bwd.python
def _(x, y, dz):
    return dz / y, -dz * x / (y * y)


@div_bwd.c(_c.EW)
def _(lib, ffi, x, y, dz):
    dx, dy = numpy.empty_like(x), numpy.empty_like(x)
    _c.fn(lib, "rt_div_bwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, y), _c.ptr(ffi, dz),
                                _c.ptr(ffi, dx, True), _c.ptr(ffi, dy, True), x.size)
    return dx, dy


class Div(opsdk.Function):
    """x / y, same shapes."""

    @staticmethod
    def forward(ctx, x, y):
        if x.shape != y.shape:
            raise ValueError("out.div_c: x and y must have one shape")
        ctx.save_for_backward(x, y)
        return tensor_of(div_fwd(array_of(x), array_of(y)))

    @staticmethod
    def backward(ctx, dz):
        x, y = ctx.saved_tensor()
        dx, dy = div_bwd(array_of(x), array_of(y), array_of(dz).astype(x.dtype, copy=False))
        return tensor_of(dx), tensor_of(dy)


def register(register):
    x = [TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))]
    register(SoftplusDD, name="softplus_dd", inputs=x, dtypes=F, double_backward=True)
    register(TanhDetach, name="tanh_dd_detach", inputs=x, dtypes=F, double_backward=True)
    register(SinCosSign, name="sincos_sign", inputs=x, dtypes=F)
    register(MeanVar, name="meanvar_rows", inputs=[TensorSpec(shape=(3, 5))], dtypes=F)
    register(HypotCopy, name="hypot_copy",
             inputs=[TensorSpec(shape=(3, 4), domain=(0.5, 2.0)),
                     TensorSpec(shape=(3, 4), domain=(-2.0, -0.5))], dtypes=F)
    register(Div, name="div_c", inputs=[TensorSpec(shape=(3, 4), domain=(0.5, 2.0)),
                                        TensorSpec(shape=(3, 4), domain=(0.5, 2.0))],
             dtypes=F, kernels=(div_fwd, div_bwd))
