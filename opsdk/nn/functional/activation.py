"""Activation functions, each one graph op with an array rule (fast) and a Tensor rule (vjp).

The Tensor rules are built from differentiable ops, so higher-order gradients work.
"""
import math

import numpy as np

from ...amp.state import keep_float32
from ...functional.elementwise import exp, sigmoid, tanh
from ...functional.record import OutputOf, record, save_output
from ...functional.reduction import normalize_axis, sum as _sum
from ...tensor import _wrap
from ._graph import float_arg, wants_grad
from ...builtin_ops.erf import erf_array as erf

_INV_SQRT2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_TANH_K = math.sqrt(2.0 / math.pi)
_TANH_C = 0.044715


def relu(x, name=None):
    """max(x, 0); the gradient at 0 is 0, as in Paddle.

    Args:
        x: a float Tensor.

    Returns:
        A Tensor like x.

    Example:
        >>> F.relu(opsdk.to_tensor([-1.0, 2.0])).numpy()
        array([0., 2.], dtype=float32)
    """
    x = float_arg(x, "relu")
    xd = x._data
    mask = xd > 0
    # where, not maximum: relu(nan) is 0 in Paddle (maximum would keep the nan)
    out = np.where(mask, xd, 0).astype(xd.dtype, copy=False)
    if not wants_grad(x):
        return _wrap(out)

    def fast(g):
        return (g * mask,)

    def vjp(g):
        return (g * _wrap(mask.astype(g._data.dtype)),)
    return record("relu", out, (x,), vjp, fast)


def leaky_relu(x, negative_slope=0.01, name=None):
    """x where x >= 0, negative_slope * x elsewhere (the gradient at 0 is 1, as Paddle)."""
    x = float_arg(x, "leaky_relu")
    xd = x._data
    mask = xd >= 0
    slope = np.where(mask, 1, negative_slope).astype(xd.dtype)
    out = xd * slope
    if not wants_grad(x):
        return _wrap(out)
    return record("leaky_relu", out, (x,), lambda g: (g * _wrap(slope),),
                  lambda g: (g * slope,))


def _normal_pdf(xd):
    return np.exp(-0.5 * xd * xd) * _INV_SQRT_2PI


def _gelu_grad_op(x, cdf):
    """d gelu / dx = Phi(x) + x phi(x), as a graph op (its own derivative is phi(x)(2 - x^2))."""
    xd = x._data
    out = (cdf + xd * _normal_pdf(xd)).astype(xd.dtype, copy=False)
    if not wants_grad(x):
        return _wrap(out)

    def vjp(g):
        pdf = exp(x * x * -0.5) * _INV_SQRT_2PI
        return (g * pdf * (2.0 - x * x),)

    def fast(g):
        return (g * (_normal_pdf(xd) * (2.0 - xd * xd)).astype(xd.dtype, copy=False),)
    return record("gelu_grad", out, (x,), vjp, fast, saved=(x,))


def gelu(x, approximate=False, name=None):
    """Gaussian Error Linear Unit: x * Phi(x) (exact, with erf) or its tanh approximation.

    Args:
        x: a float Tensor.
        approximate: use 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).

    Returns:
        A Tensor like x.

    Example:
        >>> F.gelu(opsdk.to_tensor([1.0])).item()   # 0.8413447...
    """
    x = float_arg(x, "gelu")
    if approximate:
        return _gelu_tanh(x)
    xd = x._data
    cdf = (0.5 * (1.0 + erf(xd * _INV_SQRT2))).astype(xd.dtype, copy=False)
    out = xd * cdf
    if not wants_grad(x):
        return _wrap(out)

    def fast(g):
        return (g * (cdf + xd * _normal_pdf(xd)).astype(xd.dtype, copy=False),)

    def vjp(g):
        return (g * _gelu_grad_op(x, cdf),)
    return record("gelu", out, (x,), vjp, fast, saved=(x,))


def _gelu_tanh(x):
    xd = x._data
    t = np.tanh(_TANH_K * (xd + _TANH_C * xd ** 3))
    out = (0.5 * xd * (1.0 + t)).astype(xd.dtype, copy=False)
    if not wants_grad(x):
        return _wrap(out)

    def fast(g):
        d = 0.5 * (1.0 + t) + 0.5 * xd * (1.0 - t * t) * _TANH_K * (1.0 + 3 * _TANH_C * xd * xd)
        return (g * d.astype(xd.dtype, copy=False),)

    def vjp(g):
        tt = tanh((x + x * x * x * _TANH_C) * _TANH_K)
        d = (1.0 + tt) * 0.5 + x * (1.0 - tt * tt) * (0.5 * _TANH_K) * (1.0 + x * x * (3 * _TANH_C))
        return (g * d,)
    return record("gelu", out, (x,), vjp, fast, saved=(x,))


def silu(x, name=None):
    """x * sigmoid(x) (also called swish).

    Example:
        >>> F.silu(opsdk.to_tensor([0.0])).item()
        0.0
    """
    x = float_arg(x, "silu")
    xd = x._data
    s = 0.5 * (1.0 + np.tanh(0.5 * xd))   # sigmoid without overflow
    out = xd * s
    if not wants_grad(x):
        return _wrap(out)

    def fast(g):
        return (g * (s * (1.0 + xd * (1.0 - s))),)

    def vjp(g):
        st = sigmoid(x)
        return (g * (st * (x * (1.0 - st) + 1.0)),)
    return record("silu", out, (x,), vjp, fast, saved=(x,))


swish = silu


def _axis(x, axis, op):
    return normalize_axis(axis, x._data.ndim, op)[0] if x._data.ndim else None


def _prepare(x, dtype, op):
    x = keep_float32(float_arg(x, op), op)
    if dtype is not None:
        from ...functional.elementwise import cast
        x = cast(x, dtype)
    return x


def softmax(x, axis=-1, dtype=None, name=None):
    """exp(x) / sum(exp(x)) along axis, computed after subtracting the max (no overflow).

    Args:
        x: a float Tensor.
        axis: the axis to normalize over.
        dtype: cast x to this dtype first.

    Returns:
        A Tensor like x whose entries along axis sum to 1.

    Example:
        >>> F.softmax(opsdk.to_tensor([1000.0, 1000.0])).numpy()
        array([0.5, 0.5], dtype=float32)
    """
    x = _prepare(x, dtype, "softmax")
    xd = x._data
    ax = _axis(x, axis, "softmax")
    # initial=-inf: a size-0 axis has no max (the result is empty, as in Paddle)
    e = np.exp(xd - xd.max(axis=ax, keepdims=True, initial=-np.inf))
    e /= e.sum(axis=ax, keepdims=True)
    out = e
    if not wants_grad(x):
        return _wrap(out)

    def fast(g):
        gy = g * out
        gy -= out * gy.sum(axis=ax, keepdims=True)
        return (gy,)
    res = record("softmax", out, (x,), None, fast)

    def vjp(g, r=OutputOf(res)):
        y = r.get()
        return (y * (g - _sum(g * y, axis=ax, keepdim=True)),)
    res._node.rule.vjp = vjp
    return save_output(res)  # both rules read the output: writing it in place is an error


def log_softmax(x, axis=-1, dtype=None, name=None):
    """x - logsumexp(x) along axis, computed stably (log-sum-exp after subtracting the max).

    Args:
        x: a float Tensor.
        axis: the axis to normalize over.
        dtype: cast x to this dtype first.

    Returns:
        A Tensor like x.

    Example:
        >>> F.log_softmax(opsdk.to_tensor([0.0, 0.0])).numpy()
        array([-0.6931472, -0.6931472], dtype=float32)
    """
    x = _prepare(x, dtype, "log_softmax")
    out = log_softmax_array(x._data, _axis(x, axis, "log_softmax"))
    if not wants_grad(x):
        return _wrap(out)
    ax = _axis(x, axis, "log_softmax")

    def fast(g):
        return (g - np.exp(out) * g.sum(axis=ax, keepdims=True),)
    res = record("log_softmax", out, (x,), None, fast)

    def vjp(g, r=OutputOf(res)):
        return (g - exp(r.get()) * _sum(g, axis=ax, keepdim=True),)
    res._node.rule.vjp = vjp
    return save_output(res)  # both rules read the output: writing it in place is an error


def log_softmax_array(xd, axis):
    """log_softmax on a raw array (shared with cross_entropy)."""
    shifted = xd - xd.max(axis=axis, keepdims=True, initial=-np.inf)
    shifted -= np.log(np.exp(shifted).sum(axis=axis, keepdims=True))
    return shifted


__all__ = ["relu", "leaky_relu", "gelu", "silu", "swish", "softmax", "log_softmax", "sigmoid",
           "tanh"]
