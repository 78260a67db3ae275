"""More correct ops that a verifier must not flag: integer and flag attributes, a legitimate
per-shape cache, square samples, removable points handled, an op that takes one value only."""
import math

import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.kernels import Kernel

from . import _c
from ._arrays import array_of, tensor_of
from ._maths import sigmoid
from ._unary import SavedSoftplus
from .edge_bugs import _erf, _tanh_gelu_slope, gelu

F = ("float32", "float64")


class Cumsum(opsdk.Function):
    """Cumulative sum along axis."""

    @staticmethod
    def forward(ctx, x, axis=-1):
        ctx.axis = axis
        return tensor_of(numpy.cumsum(array_of(x), axis=axis))

    @staticmethod
    def backward(ctx, dy):
        g, ax = array_of(dy), ctx.axis
        return tensor_of(numpy.flip(numpy.cumsum(numpy.flip(g, ax), axis=ax), ax).copy())


class Gelu(opsdk.Function):
    """GELU, erf form or (approximate=True) tanh form."""

    @staticmethod
    def forward(ctx, x, approximate=False):
        ctx.save_for_backward(x)
        ctx.approximate = approximate
        return tensor_of(gelu(array_of(x), approximate))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        if ctx.approximate:
            d = _tanh_gelu_slope(a)
        else:
            d = 0.5 * (1 + _erf(a / math.sqrt(2))) + a * numpy.exp(-0.5 * a * a) / math.sqrt(2 * math.pi)
        return tensor_of((array_of(dy) * d).astype(a.dtype))


_TRIL = {}


class CausalMask(opsdk.Function):
    """x with the strict upper triangle of its last two axes zeroed (the mask cached per shape)."""

    @staticmethod
    def forward(ctx, x):
        a = array_of(x)
        key = a.shape[-2:]
        if key not in _TRIL:                  # depends on the shape only: a fair cache
            _TRIL[key] = numpy.tril(numpy.ones(key, dtype=bool))
        ctx.mask = _TRIL[key]
        return tensor_of(numpy.where(ctx.mask, a, 0).astype(a.dtype))

    @staticmethod
    def backward(ctx, dy):
        g = array_of(dy)
        return tensor_of(numpy.where(ctx.mask, g, 0).astype(g.dtype))


sqrowsum = Kernel("out.sqrowsum_fwd", dtypes=F)
sqrowsum.python(lambda x: x.sum(axis=-1) ** 2)


@sqrowsum.c(_c.EXTRA)
def _(lib, ffi, x):
    cols = x.shape[-1]
    y = numpy.empty(x.shape[:-1], dtype=x.dtype)
    _c.fn(lib, "rt_sqrowsum_fwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, y, True), x.size // cols, cols)
    return y


class SqRowSum(opsdk.Function):
    """sum(x)^2 over the last axis."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return tensor_of(sqrowsum(array_of(x)))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        return tensor_of(numpy.broadcast_to((2 * a.sum(axis=-1) * array_of(dy))[..., None],
                                            a.shape).copy())


class Sinc(opsdk.Function):
    """sin(x) / x, 1 at 0."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = array_of(x)
        safe = numpy.where(a == 0, 1, a)
        return tensor_of(numpy.where(a == 0, 1, numpy.sin(safe) / safe).astype(a.dtype))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        small = numpy.abs(a) < 1e-3            # x cos x - sin x cancels: its series, -x / 3
        safe = numpy.where(small, 1, a)
        d = numpy.where(small, -a / 3, (safe * numpy.cos(safe) - numpy.sin(safe)) / (safe * safe))
        return tensor_of((array_of(dy) * d).astype(a.dtype))


class SoftplusWide(SavedSoftplus):
    """log(1 + exp(x)), stable on a wide domain."""

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return tensor_of(array_of(dy) * sigmoid(array_of(x)))


class TopKSum(opsdk.Function):
    """Sum of the k largest entries over the last axis (k at most the axis length)."""

    @staticmethod
    def forward(ctx, x, k=2):
        a = array_of(x)
        if not 1 <= k <= a.shape[-1]:
            raise ValueError(f"out.topk_sum: k must be in [1, {a.shape[-1]}]; got {k}")
        idx = numpy.argsort(-a, axis=-1, kind="stable")[..., :k]
        ctx.idx, ctx.shape = idx, a.shape
        return tensor_of(numpy.take_along_axis(a, idx, -1).sum(axis=-1))

    @staticmethod
    def backward(ctx, dy):
        g = array_of(dy)
        dx = numpy.zeros(ctx.shape, dtype=g.dtype)
        numpy.put_along_axis(dx, ctx.idx, numpy.repeat(g[..., None], ctx.idx.shape[-1], -1), -1)
        return tensor_of(dx)


class L2Only(opsdk.Function):
    """The p-norm over the last axis, for p = 2 only."""

    @staticmethod
    def forward(ctx, x, p=2.0):
        if p != 2.0:
            raise ValueError("out.l2_only: only p = 2 is implemented")
        a = array_of(x)
        n = numpy.sqrt((a * a).sum(axis=-1))
        ctx.save_for_backward(x)
        ctx.n = n
        return tensor_of(n)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return tensor_of(array_of(x) * (array_of(dy) / ctx.n)[..., None])


class SigmoidFlat(opsdk.Function):
    """sigmoid(x); backward recomputes sigmoid from x (used where x is large: nearly constant)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return tensor_of(1 / (1 + numpy.exp(-array_of(x))))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        s = 1 / (1 + numpy.exp(-array_of(x)))
        return tensor_of(array_of(dy) * s * (1 - s))


def register(register):
    register(SigmoidFlat, name="sigmoid_flat", inputs=[TensorSpec(shape=(3, 4), domain=(6.0, 12.0))],
             dtypes=F)
    register(Cumsum, name="cumsum", inputs=[TensorSpec(shape=(3, 4))], attrs={"axis": -1}, dtypes=F)
    register(Gelu, name="gelu", inputs=[TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))],
             attrs={"approximate": False}, dtypes=F)
    register(CausalMask, name="causal_mask", inputs=[TensorSpec(shape=(2, 4, 4))], dtypes=F)
    register(SqRowSum, name="sqrowsum_c", inputs=[TensorSpec(shape=(4, 4))], dtypes=F,
             kernels=(sqrowsum,))
    register(Sinc, name="sinc", inputs=[TensorSpec(shape=(3, 4), domain=(-4.0, 4.0))], dtypes=F)
    register(SoftplusWide, name="softplus_wide",
             inputs=[TensorSpec(shape=(3, 4), domain=(-100.0, 100.0))], dtypes=F)
    register(TopKSum, name="topk_sum", inputs=[TensorSpec(shape=(3, 5))], attrs={"k": 2}, dtypes=F)
    register(L2Only, name="l2_only", inputs=[TensorSpec(shape=(3, 4), domain=(0.5, 2.0))],
             attrs={"p": 2.0}, dtypes=F)
