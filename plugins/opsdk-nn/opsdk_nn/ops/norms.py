"""layer_norm and rms_norm over the trailing ``normalized_shape`` dimensions.

The kernels are ``Rows`` ops (kernels/norms.py). Forward saves the per-row mean and 1/std;
backward produces dx, dweight and dbias in one kernel.
When the backward is itself recorded (create_graph=True) its rule is written with opsdk ops,
so higher orders work too.
"""
import math

import numpy

import opsdk as P
from opsdk.autograd import PyLayer
from opsdk.errors import OpArgumentError, ShapeError

from ..kernels.norms import LAYER_NORM, RMS_NORM
from ..maths import array_module
from ._common import array_of, creating_graph, float_input, grad_like, run, same_dtype, tensor


def _trailing(op, xa, normalized_shape):
    """(rows, n, axes): the row count, row length and the normalized axes of x."""
    shape = (normalized_shape,) if isinstance(normalized_shape, (int, numpy.integer)) \
        else tuple(normalized_shape)
    k = len(shape)
    if not shape or k > xa.ndim or xa.shape[xa.ndim - k:] != shape:
        raise ShapeError(f"{op}: 'normalized_shape' must match the trailing dimensions of x; "
                         f"expected: a suffix of {list(xa.shape)}; got: {list(shape)}")
    n = math.prod(shape)
    return xa.size // n if n else 0, n, list(range(xa.ndim - k, xa.ndim))


def _param(op, arg, t, xa, n, fill):
    """A weight or bias as a flat [n] array (``fill`` when the caller gave none)."""
    if t is None:
        return array_module(xa).full(n, fill, xa.dtype)
    a = same_dtype(float_input(t, op, arg), xa, op, arg)
    if a.size != n:
        raise ShapeError(f"{op}: argument '{arg}' must hold one value per normalized element; "
                         f"expected: {n} values (normalized_shape); got: shape {list(a.shape)}")
    return a.reshape(n)


def _epsilon(op, epsilon):
    """epsilon as a float, or an error naming the op when it is negative or nan."""
    if not epsilon >= 0:
        raise OpArgumentError(f"{op}: argument 'epsilon' must be >= 0; got: {epsilon!r}")
    return float(epsilon)


class LayerNorm(PyLayer):
    """layer_norm(x) = (x - mean) / sqrt(var + epsilon) * weight + bias over the trailing dims.

    Fused kernels (python, c, cuda: written from the row's statements), float32 and float64;
    weight and bias are optional
    (Paddle's signature: ``x, normalized_shape, weight=None, bias=None, epsilon=1e-5``).
    """

    _opsdk_qualname = "nn.layer_norm"

    @staticmethod
    def forward(ctx, x, normalized_shape, weight=None, bias=None, epsilon=1e-05):
        op = "nn.layer_norm"
        xa = float_input(x, op, "x")
        rows, n, axes = _trailing(op, xa, normalized_shape)
        w, b = _param(op, "weight", weight, xa, n, 1), _param(op, "bias", bias, xa, n, 0)
        eps = _epsilon(op, epsilon)
        y, mean, rstd = run(LAYER_NORM.forward_kernel, xa.reshape(rows, n), w, b, eps=eps)
        ctx.save_for_backward(x, *(t for t in (weight, bias) if t is not None))
        ctx.x, ctx.weight, ctx.bias = x, weight, bias
        ctx.w, ctx.mean, ctx.rstd, ctx.rows, ctx.n, ctx.axes, ctx.eps = w, mean, rstd, rows, n, axes, eps
        return tensor(y.reshape(xa.shape))

    @staticmethod
    def backward(ctx, dy):
        x, weight, bias = ctx.x, ctx.weight, ctx.bias
        if creating_graph():
            return _layer_norm_rule(ctx, x, weight, bias, dy)
        xa = array_of(x)
        g = grad_like(dy, xa).reshape(ctx.rows, ctx.n)
        dx, dw, db = run(LAYER_NORM.backward_kernel, xa.reshape(ctx.rows, ctx.n), ctx.w, ctx.mean, ctx.rstd, g)
        out = [tensor(dx.reshape(xa.shape))]
        if weight is not None:
            out.append(tensor(dw.reshape(weight.shape)))
        if bias is not None:
            out.append(tensor(db.reshape(bias.shape)))
        return tuple(out)


def _layer_norm_rule(ctx, x, weight, bias, dy):
    """The backward rule in opsdk ops (differentiable), for create_graph=True."""
    axes = ctx.axes
    lead = list(range(x.ndim - len(axes)))
    shape = [x.shape[a] for a in axes]
    xc = x - P.mean(x, axis=axes, keepdim=True)
    rstd = P.rsqrt(P.mean(xc * xc, axis=axes, keepdim=True) + ctx.eps)
    xhat = xc * rstd
    g = dy if weight is None else dy * P.reshape(weight, shape)
    dx = rstd * (g - P.mean(g, axis=axes, keepdim=True) - xhat * P.mean(g * xhat, axis=axes, keepdim=True))
    out = [dx]
    if weight is not None:
        dw = P.sum(dy * xhat, axis=lead) if lead else dy * xhat
        out.append(P.reshape(dw, weight.shape))
    if bias is not None:
        db = P.sum(dy, axis=lead) if lead else dy
        out.append(P.reshape(db, bias.shape))
    return tuple(out)


class RMSNorm(PyLayer):
    """rms_norm(x) = x / sqrt(mean(x^2) + epsilon) * weight over the trailing dims.

    Fused kernels (python, c, cuda: written from the row's statements), float32 and float64;
    weight is optional
    (``x, normalized_shape, weight=None, epsilon=1e-6``).
    """

    _opsdk_qualname = "nn.rms_norm"

    @staticmethod
    def forward(ctx, x, normalized_shape, weight=None, epsilon=1e-06):
        op = "nn.rms_norm"
        xa = float_input(x, op, "x")
        rows, n, axes = _trailing(op, xa, normalized_shape)
        w = _param(op, "weight", weight, xa, n, 1)
        eps = _epsilon(op, epsilon)
        y, rstd = run(RMS_NORM.forward_kernel, xa.reshape(rows, n), w, eps=eps)
        ctx.save_for_backward(x, *(t for t in (weight,) if t is not None))
        ctx.x, ctx.weight = x, weight
        ctx.w, ctx.rstd, ctx.rows, ctx.n, ctx.axes, ctx.eps = w, rstd, rows, n, axes, eps
        return tensor(y.reshape(xa.shape))

    @staticmethod
    def backward(ctx, dy):
        x, weight = ctx.x, ctx.weight
        if creating_graph():
            return _rms_norm_rule(ctx, x, weight, dy)
        xa = array_of(x)
        g = grad_like(dy, xa).reshape(ctx.rows, ctx.n)
        dx, dw = run(RMS_NORM.backward_kernel, xa.reshape(ctx.rows, ctx.n), ctx.w, ctx.rstd, g)
        if weight is None:
            return tensor(dx.reshape(xa.shape))
        return tensor(dx.reshape(xa.shape)), tensor(dw.reshape(weight.shape))


def _rms_norm_rule(ctx, x, weight, dy):
    """The backward rule in opsdk ops (differentiable), for create_graph=True."""
    axes = ctx.axes
    lead = list(range(x.ndim - len(axes)))
    shape = [x.shape[a] for a in axes]
    rstd = P.rsqrt(P.mean(x * x, axis=axes, keepdim=True) + ctx.eps)
    xhat = x * rstd
    g = dy if weight is None else dy * P.reshape(weight, shape)
    dx = rstd * (g - xhat * P.mean(g * xhat, axis=axes, keepdim=True))
    if weight is None:
        return dx
    dw = P.sum(dy * xhat, axis=lead) if lead else dy * xhat
    return dx, P.reshape(dw, weight.shape)
