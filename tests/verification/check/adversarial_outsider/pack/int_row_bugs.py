"""Integer arguments mishandled, and row ops (RMSNorm, softmax) with bugs."""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel

from . import _c
from ._arrays import array_of, tensor_of
from ._maths import scatter_rows, softmax, softmax_grad
from ._unary import TakeRows, unary_function

F = ("float32", "float64")


# -- out.embed_dup: dw[idx] += dy loses repeated indices ---------------------------------------
class EmbedDup(TakeRows):
    """Rows of w picked by idx: w[idx]."""

    @staticmethod
    def backward(ctx, dy):
        (idx,) = ctx.saved_tensor()
        g = array_of(dy)
        dw = numpy.zeros((ctx.rows,) + g.shape[1:], dtype=g.dtype)
        dw[array_of(idx)] += g
        return tensor_of(dw), None


# -- out.gather_int32_c: the C kernel reads the int64 indices through an int32_t * -------------
gather = Kernel("out.gather_int32_fwd", dtypes=F, arg_dtypes={"idx": ("int64",)})


@gather.python
def _(w, idx):
    return w[idx]


@gather.c(_c.ROWS)
def _(lib, ffi, w, idx):
    cols = w.shape[1]
    out = numpy.empty((idx.size, cols), dtype=w.dtype)
    _c.fn(lib, "rt_gather_fwd", w)(_c.ptr(ffi, w), ffi.cast("int32_t *", idx.ctypes.data),
                                   _c.ptr(ffi, out, True), idx.size, cols)
    return out


class GatherInt32(opsdk.Function):
    """Rows of w picked by idx (a vector of row numbers)."""

    @staticmethod
    def forward(ctx, w, idx):
        ctx.save_for_backward(idx)
        ctx.rows = w.shape[0]
        return tensor_of(gather(array_of(w), array_of(idx)))

    @staticmethod
    def backward(ctx, dy):
        (idx,) = ctx.saved_tensor()
        return tensor_of(scatter_rows(array_of(idx), array_of(dy), ctx.rows)), None


# -- out.rmsnorm_eps_bwd: backward puts epsilon outside the square root ------------------------
class RMSNormEps(opsdk.Function):
    """x / sqrt(mean(x^2) + epsilon) * w over the last axis."""

    @staticmethod
    def forward(ctx, x, w, epsilon=1e-6):
        a, wa = array_of(x), array_of(w)
        rstd = 1 / numpy.sqrt((a * a).mean(axis=-1, keepdims=True) + epsilon)
        ctx.save_for_backward(x, w)
        ctx.epsilon = epsilon
        return tensor_of(a * rstd * wa)

    @staticmethod
    def backward(ctx, dy):
        x, w = (array_of(t) for t in ctx.saved_tensor())
        g = array_of(dy)
        n = x.shape[-1]
        rstd = 1 / (numpy.sqrt((x * x).mean(axis=-1, keepdims=True)) + ctx.epsilon)
        gw = g * w
        dx = rstd * (gw - x * rstd * rstd * (gw * x).sum(axis=-1, keepdims=True) / n)
        dw = (g * x * rstd).reshape(-1, n).sum(axis=0)
        return tensor_of(dx), tensor_of(dw)


# -- out.softmax_stale_c: the C backward never resets its dot product between rows -------------
sm_fwd = Kernel("out.softmax_stale_fwd", dtypes=F)
sm_bwd = Kernel("out.softmax_stale_bwd", dtypes=F)


sm_fwd.python(softmax)
sm_bwd.python(softmax_grad)


def _rows_c(kernel, name, n_in):
    @kernel.c(_c.ROWS)
    def _(lib, ffi, *arrays):
        cols = arrays[0].shape[-1]
        out = numpy.empty_like(arrays[0])
        _c.fn(lib, name, arrays[0])(*[_c.ptr(ffi, a) for a in arrays[:n_in]],
                                    _c.ptr(ffi, out, True), arrays[0].size // cols, cols)
        return out


_rows_c(sm_fwd, "rt_softmax_fwd", 1)
_rows_c(sm_bwd, "rt_softmax_bwd_stale", 2)


SoftmaxStale = unary_function("SoftmaxStale", sm_fwd, sm_bwd, saves="y")


def register(register):
    register(EmbedDup, name="embed_dup",
             inputs=[TensorSpec(shape=(5, 3)), TensorSpec(shape=(8,), integer=True, high=5)],
             dtypes=F)
    register(GatherInt32, name="gather_int32_c",
             inputs=[TensorSpec(shape=(5, 3)), TensorSpec(shape=(4,), integer=True, high=5)],
             dtypes=F, kernels=(gather,))
    register(RMSNormEps, name="rmsnorm_eps_bwd",
             inputs=[TensorSpec(shape=(3, 6)), TensorSpec(shape=(6,), domain=(0.5, 1.5))],
             attrs={"epsilon": 1e-6}, dtypes=F)
    register(SoftmaxStale, name="softmax_stale_c", inputs=[TensorSpec(shape=(3, 5))], dtypes=F,
             kernels=(sm_fwd, sm_bwd))
