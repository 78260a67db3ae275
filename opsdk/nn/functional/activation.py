"""Activation functions, each one graph op with its gradient rule.

A rule is written once, with operators and ``opsdk.functional.maths``: it runs on arrays for a
first-order backward and on Tensors (differentiable again) for higher orders.
"""
import math

import numpy as np

from ...amp.state import keep_float32
from ...autograd.record import OUTPUT, needs_grad, output_read_by_backward, record
from ...errors import NoKernelDTypeError
from ...packs.builtin.erf import erf_array as erf
from ...functional import maths
from ...functional.casting import cast
from ...functional.elementwise import sigmoid, tanh
from ...functional.inplace import inplace_method
from ...functional.op_args import normalize_axis
from ...tensor import _wrap
from ._graph import float_arg, tensor_arg

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
    xd = x.array
    mask = xd > 0
    # where, not maximum: relu(nan) is 0 in Paddle (maximum would keep the nan)
    out = np.where(mask, xd, 0).astype(xd.dtype, copy=False)
    if not needs_grad(x):
        return _wrap(out)
    # Paddle's relu backward reads the output (a write into it makes backward refuse)
    return output_read_by_backward(
        record("relu", out, (x,), _TIMES_CONSTANT, (mask.astype(xd.dtype),)))


# g times a constant fixed at forward: a second derivative finds no path to x through it
_TIMES_CONSTANT = (lambda g, w: g * w,)


def leaky_relu(x, negative_slope=0.01, name=None):
    """x where x >= 0, negative_slope * x elsewhere (the gradient at 0 is 1, as Paddle)."""
    x = float_arg(x, "leaky_relu")
    xd = x.array
    slope = np.where(xd >= 0, 1, negative_slope).astype(xd.dtype)
    return record("leaky_relu", xd * slope, (x,), _TIMES_CONSTANT, (slope,))


def _normal_pdf(x):
    return maths.exp(x * x * -0.5) * _INV_SQRT_2PI


def _gelu_slope(x, cdf):
    """d gelu / dx = Phi(x) + x phi(x) (cdf = Phi(x), fixed at forward). On a Tensor one op
    whose own derivative is phi(x)(2 - x^2)."""
    if not maths.is_tensor(x):
        return (cdf + x * _normal_pdf(x)).astype(x.dtype, copy=False)
    out = _gelu_slope(x.array, cdf)
    return record("gelu_grad", out, (x,), _GELU_SLOPE, (x,))


_GELU_SLOPE = (lambda g, x: g * (_normal_pdf(x) * (2.0 - x * x)),)


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
    xd = x.array
    cdf = (0.5 * (1.0 + erf(xd * _INV_SQRT2))).astype(xd.dtype, copy=False)
    return record("gelu", xd * cdf, (x,), _GELU, (x, cdf))


_GELU = (lambda g, x, cdf: g * _gelu_slope(x, cdf),)


def _gelu_tanh(x):
    xd = x.array
    t = np.tanh(_TANH_K * (xd + _TANH_C * xd ** 3))
    out = (0.5 * xd * (1.0 + t)).astype(xd.dtype, copy=False)
    return record("gelu", out, (x,), _GELU_TANH, (x,))


def _gelu_tanh_grad(g, x):
    t = maths.tanh(_TANH_K * (x + _TANH_C * x ** 3))  # as in forward
    d = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * _TANH_K * (1.0 + 3 * _TANH_C * x * x)
    return g * d


_GELU_TANH = (_gelu_tanh_grad,)


def _silu(x, op):
    x = float_arg(x, op)
    xd = x.array
    s = 0.5 * (1.0 + np.tanh(0.5 * xd))   # sigmoid without overflow
    return record(op, xd * s, (x,), _SILU, (x,))


def silu(x, inplace=False, name=None):
    """x * sigmoid(x) (also called swish).

    Paddle's silu backward reads the output: a write into it makes backward refuse.

    Example:
        >>> F.silu(opsdk.to_tensor([0.0])).item()
        0.0
    """
    if inplace:  # x takes the result (Paddle refuses a leaf that needs a gradient)
        return _silu_(x)
    return output_read_by_backward(_silu(x, "silu"))


_silu_ = inplace_method(lambda x: _silu(x, "silu"), "silu_")


def swish(x, name=None):
    """x * sigmoid(x), silu's values; Paddle's swish backward reads x only, so a write into the
    output leaves backward working."""
    return _silu(x, "swish")


def _silu_grad(g, x):
    # sigmoid(x) as forward computed it (no overflow); on a Tensor the graph op
    s = sigmoid(x) if maths.is_tensor(x) else 0.5 * (1.0 + np.tanh(0.5 * x))
    return g * (s * (1.0 + x * (1.0 - s)))


_SILU = (_silu_grad,)



def _axis(x, axis, op):
    return normalize_axis(axis, x.array.ndim, op)[0] if x.array.ndim else None


def _prepare(x, dtype, op):
    """x as a float Tensor: cast to dtype when given (an integer x too, as Paddle casts first),
    else a NoKernelDTypeError for a non-float x (Paddle has no such kernel)."""
    if dtype is not None:
        return cast(keep_float32(tensor_arg(x, op, "x"), op), dtype)
    x = tensor_arg(x, op, "x")
    if x.array.dtype.kind != "f":
        raise NoKernelDTypeError(f"{op}: argument 'x' must be a float tensor (there is no "
                                    f"{x.array.dtype} kernel); expected: float16, float32 or "
                                    f"float64, or pass dtype='float32'; got: {x.array.dtype}")
    return keep_float32(x, op)


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
    xd = x.array
    ax = _axis(x, axis, "softmax")
    # initial=-inf: a size-0 axis has no max (the result is empty, as in Paddle)
    e = np.exp(xd - xd.max(axis=ax, keepdims=True, initial=-np.inf))
    e /= e.sum(axis=ax, keepdims=True)
    # the rule reads the output: writing it in place before backward is an error
    return record("softmax", e, (x,), _SOFTMAX, (OUTPUT, ax))


def _softmax_grad(g, y, ax):
    gy = g * y
    return gy - y * maths.sum(gy, axis=ax, keepdims=True)


_SOFTMAX = (_softmax_grad,)


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
    ax = _axis(x, axis, "log_softmax")
    out = log_softmax_array(x.array, ax)
    # the rule reads the output: writing it in place before backward is an error
    return record("log_softmax", out, (x,), _LOG_SOFTMAX, (OUTPUT, ax))


_LOG_SOFTMAX = (lambda g, y, ax: g - maths.exp(y) * maths.sum(g, axis=ax, keepdims=True),)


def log_softmax_array(xd, axis):
    """log_softmax on a raw array (shared with cross_entropy)."""
    shifted = xd - xd.max(axis=axis, keepdims=True, initial=-np.inf)
    shifted -= np.log(np.exp(shifted).sum(axis=axis, keepdims=True))
    return shifted


__all__ = ["relu", "leaky_relu", "gelu", "silu", "swish", "softmax", "log_softmax", "sigmoid",
           "tanh"]
