"""Correct ops with C kernels that are hard to verify without false alarms."""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel
from opsdk.packs.registry import Sample

from . import _c
from ._arrays import array_of, tensor_of
from ._maths import sigmoid, softmax, softmax_grad, softplus
from ._unary import unary_function

F = ("float32", "float64")


def _pair(name, fwd_py, bwd_py, source, cfwd, cbwd):
    fwd = Kernel(f"out.{name}_fwd", dtypes=F)
    bwd = Kernel(f"out.{name}_bwd", dtypes=F)
    fwd.python(fwd_py)
    bwd.python(bwd_py)
    _c.unary(fwd, source, cfwd)
    _c.unary_grad(bwd, source, cbwd)
    return fwd, bwd


relu = _pair("relu", lambda x: numpy.maximum(x, 0), lambda x, dy: numpy.where(x > 0, dy, 0),
             _c.EW, "rt_relu_fwd", "rt_relu_bwd")
sqrt = _pair("sqrt", numpy.sqrt, lambda y, dy: 0.5 * dy / y, _c.EW, "rt_sqrt_fwd", "rt_sqrt_bwd")
softplus = _pair("softplus_omp",
                 softplus, lambda x, dy: dy * sigmoid(x),
                 _c.PARALLEL, "rt_softplusp_fwd", "rt_softplusp_bwd")

# -- out.sincos_c: two outputs -----------------------------------------------------------------
sincos_fwd = Kernel("out.sincos_fwd", dtypes=F)
sincos_bwd = Kernel("out.sincos_bwd", dtypes=F)


@sincos_fwd.python
def _(x):
    return numpy.sin(x), numpy.cos(x)


@sincos_fwd.c(_c.EW)
def _(lib, ffi, x):
    s, c = numpy.empty_like(x), numpy.empty_like(x)
    _c.fn(lib, "rt_sincos_fwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, s, True), _c.ptr(ffi, c, True), x.size)
    return s, c


@sincos_bwd.python
def _(x, ds, dc):
    return ds * numpy.cos(x) - dc * numpy.sin(x)


@sincos_bwd.c(_c.EW)
def _(lib, ffi, x, ds, dc):
    dx = numpy.empty_like(x)
    _c.fn(lib, "rt_sincos_bwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, ds), _c.ptr(ffi, dc),
                                   _c.ptr(ffi, dx, True), x.size)
    return dx


class SinCos(opsdk.Function):
    """(sin(x), cos(x))."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        s, c = sincos_fwd(array_of(x))
        return tensor_of(s), tensor_of(c)

    @staticmethod
    def backward(ctx, ds, dc):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        return tensor_of(sincos_bwd(a, array_of(ds).astype(a.dtype, copy=False),
                                    array_of(dc).astype(a.dtype, copy=False)))


# -- row reductions: sum (float accumulator in f32, long rows), logsumexp ---------------------
def _row_kernel(name, py, cname):
    kernel = Kernel(f"out.{name}", dtypes=F)
    kernel.python(py)

    @kernel.c(_c.ROWS)
    def _(lib, ffi, x):
        cols = x.shape[-1]
        y = numpy.empty(x.shape[:-1], dtype=x.dtype)
        _c.fn(lib, cname, x)(_c.ptr(ffi, x), _c.ptr(ffi, y, True), x.size // cols, cols)
        return y

    return kernel


rowsum = _row_kernel("rowsum_fwd", lambda x: x.sum(axis=-1), "rt_rowsum_fwd")
lse = _row_kernel("lse_fwd", lambda x: x.max(axis=-1) + numpy.log(
    numpy.exp(x - x.max(axis=-1, keepdims=True)).sum(axis=-1)), "rt_lse_fwd")


class RowSum(opsdk.Function):
    """Sum over the last axis."""

    @staticmethod
    def forward(ctx, x):
        ctx.shape = x.shape
        return tensor_of(rowsum(array_of(x)))

    @staticmethod
    def backward(ctx, dy):
        return tensor_of(numpy.broadcast_to(array_of(dy)[..., None], ctx.shape).copy())


class LogSumExp(opsdk.Function):
    """log(sum(exp(x))) over the last axis."""

    @staticmethod
    def forward(ctx, x):
        y = tensor_of(lse(array_of(x)))
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, y = (array_of(t) for t in ctx.saved_tensor())
        return tensor_of(numpy.exp(x - y[..., None]) * array_of(dy)[..., None])


# -- out.softmax_c: softmax over rows, inputs spread wide (tiny probabilities) -----------------
sm_fwd = Kernel("out.softmax_fwd", dtypes=F)
sm_bwd = Kernel("out.softmax_bwd", dtypes=F)


sm_fwd.python(softmax)
sm_bwd.python(softmax_grad)


@sm_fwd.c(_c.ROWS)
def _(lib, ffi, x):
    cols, y = x.shape[-1], numpy.empty_like(x)
    _c.fn(lib, "rt_softmax_fwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, y, True), x.size // cols, cols)
    return y


@sm_bwd.c(_c.ROWS)
def _(lib, ffi, y, dy):
    cols, dx = y.shape[-1], numpy.empty_like(y)
    _c.fn(lib, "rt_softmax_bwd", y)(_c.ptr(ffi, y), _c.ptr(ffi, dy), _c.ptr(ffi, dx, True),
                                    y.size // cols, cols)
    return dx


Softmax = unary_function("Softmax", sm_fwd, sm_bwd, saves="y")


# -- out.rmsnorm_c: RMSNorm with weight, epsilon with a range ----------------------------------
rms_fwd = Kernel("out.rmsnorm_fwd", dtypes=F)
rms_bwd = Kernel("out.rmsnorm_bwd", dtypes=F)


@rms_fwd.python
def _(x, w, *, epsilon):
    rstd = 1 / numpy.sqrt((x * x).mean(axis=-1, keepdims=True) + epsilon)
    return x * rstd * w, rstd[..., 0]


@rms_fwd.c(_c.ROWS)
def _(lib, ffi, x, w, *, epsilon):
    cols = x.shape[-1]
    y, rstd = numpy.empty_like(x), numpy.empty(x.shape[:-1], dtype=x.dtype)
    _c.fn(lib, "rt_rmsnorm_fwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, w), _c.ptr(ffi, y, True),
                                    _c.ptr(ffi, rstd, True), x.size // cols, cols, epsilon)
    return y, rstd


@rms_bwd.python
def _(x, w, rstd, dy):
    r = rstd[..., None]
    gw = dy * w
    n = x.shape[-1]
    dx = r * (gw - x * r * r * (gw * x).sum(axis=-1, keepdims=True) / n)
    return dx, (dy * x * r).reshape(-1, n).sum(axis=0)


@rms_bwd.c(_c.ROWS)
def _(lib, ffi, x, w, rstd, dy):
    cols = x.shape[-1]
    dx, dw = numpy.empty_like(x), numpy.empty_like(w)
    _c.fn(lib, "rt_rmsnorm_bwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, w), _c.ptr(ffi, rstd),
                                    _c.ptr(ffi, dy), _c.ptr(ffi, dx, True), _c.ptr(ffi, dw, True),
                                    x.size // cols, cols)
    return dx, dw


class RMSNorm(opsdk.Function):
    """x / sqrt(mean(x^2) + epsilon) * w over the last axis."""

    @staticmethod
    def forward(ctx, x, w, epsilon=1e-5):
        if w.shape != [x.shape[-1]]:
            raise ValueError("out.rmsnorm_c: w must be a vector of x's last dimension")
        y, rstd = rms_fwd(array_of(x), array_of(w), epsilon=float(epsilon))
        ctx.save_for_backward(x, w)
        ctx.rstd = rstd
        return tensor_of(y)

    @staticmethod
    def backward(ctx, dy):
        x, w = ctx.saved_tensor()
        dx, dw = rms_bwd(array_of(x), array_of(w), ctx.rstd, array_of(dy).astype(x.dtype, copy=False))
        return tensor_of(dx), tensor_of(dw)


def _long_rows(rng, dtype):
    return [Sample((rng.uniform(0.0, 1.0, size=(2, 3000)).astype(dtype),))]


def register(register):
    x = [TensorSpec(shape=(3, 4))]
    register(unary_function("Relu", *relu), name="relu_c", inputs=x, dtypes=F, kernels=relu)
    register(unary_function("Sqrt", *sqrt, saves="y"), name="sqrt_c",
             inputs=[TensorSpec(shape=(3, 4), domain=(0.0, 4.0))], dtypes=F, kernels=sqrt)
    register(unary_function("SoftplusOmp", *softplus), name="softplus_omp_c",
             inputs=[TensorSpec(shape=(3, 4), domain=(-20.0, 20.0))], dtypes=F, kernels=softplus)
    register(SinCos, name="sincos_c", inputs=x, dtypes=F, kernels=(sincos_fwd, sincos_bwd))
    # its C kernel sums float32 rows in a float accumulator, on purpose: declared, so the
    # accumulation check notes it instead of failing (an undeclared one is a bug, issue 21)
    register(RowSum, name="rowsum_long_c", samples=_long_rows, dtypes=F, kernels=(rowsum,),
             accumulation="dtype")
    register(LogSumExp, name="logsumexp_c", inputs=[TensorSpec(shape=(3, 6), domain=(-30.0, 30.0))],
             dtypes=F, kernels=(lse,))
    register(Softmax, name="softmax_c", inputs=[TensorSpec(shape=(3, 6), domain=(-20.0, 20.0))],
             dtypes=F, kernels=(sm_fwd, sm_bwd))
    register(RMSNorm, name="rmsnorm_c",
             inputs=[TensorSpec(shape=(4, 6)), TensorSpec(shape=(6,), domain=(0.5, 1.5))],
             attrs={"epsilon": 1e-5}, attr_ranges={"epsilon": (1e-6, 1e-2)}, dtypes=F,
             kernels=(rms_fwd, rms_bwd))
