"""Correct ops that are hard to verify without false alarms (python kernels)."""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.packs.registry import Sample

from ._arrays import array_of, tensor_of
from ._maths import row_max, scatter_rows, to_row_max
from ._unary import SavedTanh, TakeRows

F = ("float32", "float64")


def _reduce_to(g, shape):
    """Sum a broadcast gradient back to `shape` (every axis)."""
    shape = tuple(shape)
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for axis, n in enumerate(shape):
        if n == 1 and g.shape[axis] != 1:
            g = g.sum(axis=axis, keepdims=True)
    return numpy.asarray(g)


# -- out.clamp: kinks at both bounds, bounds are attributes with ranges ------------------------
class Clamp(opsdk.Function):
    """min(max(x, low), high)."""

    @staticmethod
    def forward(ctx, x, low=-0.5, high=0.75):
        ctx.save_for_backward(x)
        ctx.low, ctx.high = low, high
        return tensor_of(numpy.clip(array_of(x), low, high))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        inside = ((a >= ctx.low) & (a <= ctx.high)).astype(a.dtype)
        return dy * tensor_of(inside)


# -- out.maximum_ties: elementwise maximum; ties go to y (as Paddle) ---------------------------
class MaximumTies(opsdk.Function):
    """maximum(x, y); at ties the gradient goes to y."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return tensor_of(numpy.maximum(array_of(x), array_of(y)))

    @staticmethod
    def backward(ctx, dz):
        x, y = (array_of(t) for t in ctx.saved_tensor())
        g = array_of(dz)
        first = (x > y).astype(g.dtype)
        return tensor_of(_reduce_to(g * first, x.shape)), tensor_of(_reduce_to(g * (1 - first), y.shape))


def _ties(rng, dtype):
    x = rng.uniform(-1, 1, size=(3, 4)).astype(dtype)
    y = rng.uniform(-1, 1, size=(3, 4)).astype(dtype)
    y[:, ::2] = x[:, ::2]                 # half the elements tie
    return [Sample((x, y))]


# -- out.rowmax_ties: max over rows of quantised values (ties in every row) --------------------
class RowMaxTies(opsdk.Function):
    """Max over the last axis; the gradient goes to the first maximum."""

    @staticmethod
    def forward(ctx, x):
        values, ctx.arg = row_max(array_of(x))
        ctx.shape = x.shape
        return tensor_of(values)

    @staticmethod
    def backward(ctx, dy):
        return tensor_of(to_row_max(ctx.shape, ctx.arg, array_of(dy)))


def _quantised(rng, dtype):
    x = numpy.round(rng.uniform(-1, 1, size=(4, 6)) * 2) / 2
    x[:, 1] = x.max(axis=1)               # a tie for the maximum in every row
    return [Sample((x.astype(dtype),))]


# -- out.l1_rows: sum of |x| over rows, inputs with exact zeros (relu outputs) -----------------
class L1Rows(opsdk.Function):
    """sum(|x|) over the last axis."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return tensor_of(numpy.abs(array_of(x)).sum(axis=-1))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return tensor_of(numpy.sign(array_of(x)) * array_of(dy)[..., None])


def _relu_outputs(rng, dtype):
    return [Sample((numpy.maximum(rng.uniform(-1, 1, size=(3, 5)), 0).astype(dtype),))]


# -- out.recip_pole: 1 / (x - 2.05), a pole just outside the domain ----------------------------
class RecipPole(opsdk.Function):
    """1 / (x - 2.05), differentiable twice."""

    @staticmethod
    def forward(ctx, x):
        y = tensor_of(1 / (array_of(x) - 2.05))
        ctx.save_for_backward(x)
        return y

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        d = x - 2.05
        return -dy / (d * d)


# -- out.topk1: (max, argmax) over rows: a float and an integer output -------------------------
class TopK1(opsdk.Function):
    """(max, argmax) over the last axis; argmax is int64."""

    @staticmethod
    def forward(ctx, x):
        values, ctx.arg = row_max(array_of(x))
        ctx.shape = x.shape
        idx = tensor_of(ctx.arg.astype(numpy.int64))
        ctx.mark_non_differentiable(idx)
        return tensor_of(values), idx

    @staticmethod
    def backward(ctx, dv, didx):
        return tensor_of(to_row_max(ctx.shape, ctx.arg, array_of(dv)))


# -- out.embed_bag: rows of w picked by idx (repeats summed in backward) -----------------------
class EmbedBag(TakeRows):
    """Rows of w picked by idx: w[idx]."""

    @staticmethod
    def backward(ctx, dy):
        (idx,) = ctx.saved_tensor()
        return tensor_of(scatter_rows(array_of(idx), array_of(dy), ctx.rows)), None


# -- out.fma_bcast: x * y + z, three shapes broadcast together ---------------------------------
class FmaBcast(opsdk.Function):
    """x * y + z, broadcasting."""

    @staticmethod
    def forward(ctx, x, y, z):
        ctx.save_for_backward(x, y, z)
        return tensor_of(array_of(x) * array_of(y) + array_of(z))

    @staticmethod
    def backward(ctx, dw):
        x, y, z = (array_of(t) for t in ctx.saved_tensor())
        g = array_of(dw)
        return (tensor_of(_reduce_to(g * y, x.shape)), tensor_of(_reduce_to(g * x, y.shape)),
                tensor_of(_reduce_to(g, z.shape)))


# -- out.standardize_rows: (x - mean) / std of nearly constant rows (ill-conditioned) ----------
class Standardize(opsdk.Function):
    """(x - mean) / sqrt(var + 1e-12) over the last axis."""

    @staticmethod
    def forward(ctx, x):
        a = array_of(x)
        c = a - a.mean(axis=-1, keepdims=True)
        rstd = 1 / numpy.sqrt((c * c).mean(axis=-1, keepdims=True) + 1e-12)
        y = c * rstd
        ctx.saved = (y, rstd)
        return tensor_of(y)

    @staticmethod
    def backward(ctx, dy):
        y, rstd = ctx.saved
        g = array_of(dy)
        return tensor_of(rstd * (g - g.mean(axis=-1, keepdims=True)
                                 - y * (g * y).mean(axis=-1, keepdims=True)))


def _nearly_constant(rng, dtype):
    return [Sample(((3.0 + 0.01 * rng.uniform(-1, 1, size=(3, 8))).astype(dtype),))]


# -- out.acos: restricted domain [-1, 1], infinite slope at both ends --------------------------
class Acos(opsdk.Function):
    """arccos(x) on [-1, 1]."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return tensor_of(numpy.arccos(array_of(x)))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        return tensor_of(-array_of(dy) / numpy.sqrt(1 - a * a))


# -- out.xlogx: x log x with the limit 0 at 0 --------------------------------------------------
class XLogX(opsdk.Function):
    """x * log(x), 0 at x = 0."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = array_of(x)
        safe = numpy.where(a > 0, a, 1)
        return tensor_of(numpy.where(a > 0, a * numpy.log(safe), 0).astype(a.dtype))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = array_of(x)
        with numpy.errstate(divide="ignore"):
            return tensor_of(array_of(dy) * (numpy.log(a) + 1))


# -- out.huber: piecewise (quadratic inside delta, linear outside), delta with a range ---------
class Huber(opsdk.Function):
    """0.5 x^2 where |x| <= delta, delta (|x| - delta / 2) elsewhere; differentiable twice."""

    @staticmethod
    def forward(ctx, x, delta=1.0):
        ctx.save_for_backward(x)
        ctx.delta = delta
        a = array_of(x)
        return tensor_of(numpy.where(numpy.abs(a) <= delta, 0.5 * a * a,
                                     delta * (numpy.abs(a) - 0.5 * delta)).astype(a.dtype))

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return dy * opsdk.clip(x, -ctx.delta, ctx.delta)


# -- out.tanh_sat: tanh on (3, 6): the output is nearly constant, the gradient tiny ------------
class TanhSat(SavedTanh):
    """tanh(x)."""

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        a = array_of(y)
        return tensor_of(array_of(dy) * (1 - a * a))


# -- out.int_pow: x ** n for an integer attribute n --------------------------------------------
class IntPow(opsdk.Function):
    """x ** n, n an integer attribute."""

    @staticmethod
    def forward(ctx, x, n=3):
        ctx.save_for_backward(x)
        ctx.n = int(n)
        return tensor_of(array_of(x) ** ctx.n)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return tensor_of(ctx.n * array_of(x) ** (ctx.n - 1) * array_of(dy))


# -- out.count_above: how many entries of a row exceed t (int) and the mean of those -----------
class CountAbove(opsdk.Function):
    """(mean of x where x > t, count of x > t) over the last axis; the count is int64."""

    @staticmethod
    def forward(ctx, x, t=0.0):
        a = array_of(x)
        mask = a > t
        count = mask.sum(axis=-1)
        ctx.mask, ctx.count = mask, numpy.maximum(count, 1)
        mean = (a * mask).sum(axis=-1) / ctx.count
        c = tensor_of(count.astype(numpy.int64))
        ctx.mark_non_differentiable(c)
        return tensor_of(mean.astype(a.dtype)), c

    @staticmethod
    def backward(ctx, dm, dc):
        g = array_of(dm)
        return tensor_of((ctx.mask * (g / ctx.count)[..., None]).astype(g.dtype))


def register(register):
    x = [TensorSpec(shape=(3, 4))]
    register(Clamp, name="clamp", inputs=x, attrs={"low": -0.5, "high": 0.75},
             attr_ranges={"low": (-1.5, -0.1), "high": (0.1, 1.5)}, dtypes=F, double_backward=True)
    register(MaximumTies, name="maximum_ties", samples=_ties, dtypes=F)
    register(RowMaxTies, name="rowmax_ties", samples=_quantised, dtypes=F)
    register(L1Rows, name="l1_rows", samples=_relu_outputs, dtypes=F)
    register(RecipPole, name="recip_pole", inputs=[TensorSpec(shape=(3, 4), domain=(-2.0, 2.0))],
             dtypes=F, double_backward=True)
    register(TopK1, name="topk1", inputs=[TensorSpec(shape=(3, 5))], dtypes=F)
    register(EmbedBag, name="embed_bag",
             inputs=[TensorSpec(shape=(5, 3)), TensorSpec(shape=(8,), integer=True, high=5)],
             dtypes=F)
    register(FmaBcast, name="fma_bcast",
             inputs=[TensorSpec(shape=(2, 3, 4)), TensorSpec(shape=(3, 1)), TensorSpec(shape=(4,))],
             dtypes=F)
    register(Standardize, name="standardize_rows", samples=_nearly_constant, dtypes=F)
    register(Acos, name="acos", inputs=[TensorSpec(shape=(3, 4), domain=(-1.0, 1.0))], dtypes=F)
    register(XLogX, name="xlogx", inputs=[TensorSpec(shape=(3, 4), domain=(0.0, 3.0))], dtypes=F)
    register(Huber, name="huber", inputs=[TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))],
             attrs={"delta": 1.0}, attr_ranges={"delta": (0.2, 2.0)}, dtypes=F,
             double_backward=True)
    register(TanhSat, name="tanh_sat", inputs=[TensorSpec(shape=(3, 4), domain=(3.0, 6.0))],
             dtypes=F)
    register(IntPow, name="int_pow", inputs=[TensorSpec(shape=(3, 4))], attrs={"n": 3}, dtypes=F)
    register(CountAbove, name="count_above", inputs=[TensorSpec(shape=(3, 6))], attrs={"t": 0.25},
             attr_ranges={"t": (-0.5, 0.5)}, dtypes=F)
