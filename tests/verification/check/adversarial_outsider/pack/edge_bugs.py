"""More realistic bugs: domain ends, in-place index fixes, caches in closures and objects, caches
keyed by identity, integer and flag attributes ignored in backward, square samples."""
import math

import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel

from . import _c
from ._arrays import array_of, tensor_of
from ._maths import scatter_rows
from ._unary import SavedSoftplus, unary_function

F = ("float32", "float64")


# -- out.xlogx_nan0: x log x, NaN at x = 0 (the domain's lower end) ----------------------------
class XLogXNan(opsdk.Function):
    """x * log(x) on [0, 3]."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = array_of(x)
        return tensor_of(a * numpy.log(a))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return tensor_of(array_of(dy) * (numpy.log(array_of(x)) + 1))


# -- out.softplus_bwd_overflow: backward exp(x) / (1 + exp(x)): inf / inf in float32 -----------
class SoftplusBwdOverflow(SavedSoftplus):
    """softplus(x) = log(1 + exp(x)), stable forward."""

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        e = numpy.exp(array_of(x))
        return tensor_of(array_of(dy) * e / (1 + e))


# -- out.take_negidx: negative indices made positive in place, on the caller's index tensor ----
class TakeNegIdx(opsdk.Function):
    """Rows of w by idx; negative idx count from the end."""

    @staticmethod
    def forward(ctx, w, idx):
        i = array_of(idx)
        i[i < 0] += w.shape[0]
        ctx.save_for_backward(idx)
        ctx.rows = w.shape[0]
        return tensor_of(array_of(w)[i])

    @staticmethod
    def backward(ctx, dy):
        (idx,) = ctx.saved_tensor()
        return tensor_of(scatter_rows(array_of(idx), array_of(dy), ctx.rows)), None


# -- out.leaky_mask_closure: the x > 0 mask cached per shape, in a closure ---------------------
def _leaky_mask():
    masks = {}

    class LeakyMask(opsdk.Function):
        """x where x > 0, 0.1 x elsewhere."""

        @staticmethod
        def forward(ctx, x):
            a = array_of(x)
            if a.shape not in masks:          # the mask only depends on the shape (it does not)
                masks[a.shape] = a > 0
            mask = masks[a.shape]
            ctx.mask = mask
            return tensor_of(numpy.where(mask, a, 0.1 * a).astype(a.dtype))

        @staticmethod
        def backward(ctx, dy):
            g = array_of(dy)
            return tensor_of(numpy.where(ctx.mask, g, 0.1 * g).astype(g.dtype))

    return LeakyMask


LeakyMaskClosure = _leaky_mask()


# -- out.silu_workspace: a workspace object at module level keeps sigmoid(x) per shape ---------
class _Workspace:
    def __init__(self):
        self.sigmoid = {}


_WORKSPACE = _Workspace()


class SiluWorkspace(opsdk.Function):
    """x * sigmoid(x)."""

    @staticmethod
    def forward(ctx, x):
        a = array_of(x)
        key = (a.shape, a.dtype.str)
        if key not in _WORKSPACE.sigmoid:
            _WORKSPACE.sigmoid[key] = 1 / (1 + numpy.exp(-a))
        s = _WORKSPACE.sigmoid[key]
        ctx.save_for_backward(x)
        ctx.s = s
        return tensor_of(a * s)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        s = ctx.s
        return tensor_of(array_of(dy) * s * (1 + array_of(x) * (1 - s)))


# -- out.weightnorm_id: w / ||w|| cached by the weight tensor's identity -----------------------
_NORM_BY_ID = {}


class WeightNormId(opsdk.Function):
    """x * w / ||w|| (w a vector of x's last dimension)."""

    @staticmethod
    def forward(ctx, x, w):
        if id(w) not in _NORM_BY_ID:      # weights are reused from step to step: norm them once
            _NORM_BY_ID[id(w)] = float(numpy.sqrt((array_of(w) ** 2).sum()))
        n = _NORM_BY_ID[id(w)]
        ctx.save_for_backward(x, w)
        ctx.n = n
        return tensor_of(array_of(x) * array_of(w) / n)

    @staticmethod
    def backward(ctx, dy):
        x, w = (array_of(t) for t in ctx.saved_tensor())
        g, n = array_of(dy), ctx.n
        v = w / n
        gv = (g * x).reshape(-1, w.size).sum(axis=0)
        return tensor_of(g * v), tensor_of((gv - v * (gv * v).sum()) / n)


# -- out.cumsum_axis: backward reverses the cumsum along the last axis, whatever axis is -------
class CumsumAxis(opsdk.Function):
    """Cumulative sum along axis."""

    @staticmethod
    def forward(ctx, x, axis=-1):
        ctx.axis = axis
        return tensor_of(numpy.cumsum(array_of(x), axis=axis))

    @staticmethod
    def backward(ctx, dy):
        g = array_of(dy)
        return tensor_of(numpy.flip(numpy.cumsum(numpy.flip(g, -1), axis=-1), -1).copy())


# -- out.gelu_flag: approximate=True/False; backward always differentiates the tanh form -------
_erf = numpy.vectorize(math.erf, otypes=[float])
_K = math.sqrt(2 / math.pi)


def _tanh_gelu_slope(a):
    u = _K * (a + 0.044715 * a ** 3)
    t = numpy.tanh(u)
    return 0.5 * (1 + t) + 0.5 * a * (1 - t * t) * _K * (1 + 3 * 0.044715 * a * a)


def gelu(a, approximate):
    """GELU of an array: the tanh form, or the erf form."""
    if approximate:
        y = 0.5 * a * (1 + numpy.tanh(_K * (a + 0.044715 * a ** 3)))
    else:
        y = 0.5 * a * (1 + _erf(a / math.sqrt(2)))
    return y.astype(a.dtype)


class GeluFlag(opsdk.Function):
    """GELU, erf form or (approximate=True) tanh form."""

    @staticmethod
    def forward(ctx, x, approximate=True):
        ctx.save_for_backward(x)
        return tensor_of(gelu(array_of(x), approximate))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        return tensor_of((array_of(dy) * _tanh_gelu_slope(a)).astype(a.dtype))


# -- out.meansq_square_c: mean of squares per row; the C forward divides by rows ---------------
meansq_fwd = Kernel("out.meansq_square_fwd", dtypes=F)
meansq_bwd = Kernel("out.meansq_square_bwd", dtypes=F)


@meansq_fwd.python
def _(x):
    return (x * x).mean(axis=-1)


@meansq_fwd.c(_c.EXTRA)
def _(lib, ffi, x):
    cols = x.shape[-1]
    y = numpy.empty(x.shape[:-1], dtype=x.dtype)
    _c.fn(lib, "rt_meansq_fwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, y, True), x.size // cols, cols)
    return y


@meansq_bwd.python
def _(x, dy):
    return 2 * x * dy[..., None] / x.shape[-1]


@meansq_bwd.c(_c.EXTRA)
def _(lib, ffi, x, dy):
    cols = x.shape[-1]
    dx = numpy.empty_like(x)
    _c.fn(lib, "rt_meansq_bwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, dy), _c.ptr(ffi, dx, True),
                                   x.size // cols, cols)
    return dx


MeanSq = unary_function("MeanSq", meansq_fwd, meansq_bwd)


# -- out.leaky_omp_macro_c: parallel above a -D macro; the parallel loop stops one short -------
leaky = (Kernel("out.leaky_omp_macro_fwd", dtypes=F), Kernel("out.leaky_omp_macro_bwd", dtypes=F))
leaky[0].python(lambda x: numpy.where(x > 0, x, 0.1 * x).astype(x.dtype))
leaky[1].python(lambda x, dy: numpy.where(x > 0, dy, 0.1 * dy).astype(dy.dtype))
_c.unary(leaky[0], _c.EXTRA, "rt_leakyp_fwd")
_c.unary_grad(leaky[1], _c.EXTRA, "rt_leakyp_bwd")


def register(register):
    register(XLogXNan, name="xlogx_nan0", inputs=[TensorSpec(shape=(3, 4), domain=(0.0, 3.0))],
             dtypes=F)
    register(SoftplusBwdOverflow, name="softplus_bwd_overflow",
             inputs=[TensorSpec(shape=(3, 4), domain=(-100.0, 100.0))], dtypes=F)
    register(TakeNegIdx, name="take_negidx",
             inputs=[TensorSpec(shape=(5, 3)), TensorSpec(shape=(6,), integer=True, low=-5, high=5)],
             dtypes=F)
    register(LeakyMaskClosure, name="leaky_mask_closure",
             inputs=[TensorSpec(shape=(3, 4), avoid=(0.0,))], dtypes=F)
    register(SiluWorkspace, name="silu_workspace", inputs=[TensorSpec(shape=(3, 4))], dtypes=F)
    register(WeightNormId, name="weightnorm_id",
             inputs=[TensorSpec(shape=(3, 4)), TensorSpec(shape=(4,), domain=(0.5, 2.0))], dtypes=F)
    register(CumsumAxis, name="cumsum_axis", inputs=[TensorSpec(shape=(3, 4))], attrs={"axis": -1},
             dtypes=F)
    register(GeluFlag, name="gelu_flag", inputs=[TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))],
             attrs={"approximate": True}, dtypes=F)
    register(MeanSq, name="meansq_square_c", inputs=[TensorSpec(shape=(4, 4))], dtypes=F,
             kernels=(meansq_fwd, meansq_bwd))
    register(unary_function("LeakyOmpMacro", *leaky), name="leaky_omp_macro_c",
             inputs=[TensorSpec(shape=(3, 4), avoid=(0.0,))], dtypes=F, kernels=leaky)
