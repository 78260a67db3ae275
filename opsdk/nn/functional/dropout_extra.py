"""The rest of Paddle's random regularizers: channel dropout (dropout1d/2d/3d), alpha dropout
(SELU-preserving, per element or per channel), rrelu (random leaky slopes) and gumbel_softmax.
The noise comes from the generator ``opsdk.seed`` sets; the gradients are those of the draw
(a constant mask or slope), as Paddle's."""
import numpy as np

from ...autograd.record import record
from ...errors import ArgumentTypeError, OpArgumentError, ShapeError
from ...functional.creation import get_rng
from ...functional.op_args import axis_arg
from ...tensor import _wrap
from ._graph import float_arg
from .activation import softmax
from .activation_extra import SELU_ALPHA, SELU_SCALE
from .common import dropout


def _check_p(p, op):
    if not isinstance(p, (int, float)) or isinstance(p, bool):
        raise ArgumentTypeError(f"{op}: p must be a float or an int; got: {type(p).__name__}")
    if not 0 <= p <= 1:
        raise OpArgumentError(f"{op}: p must lie in [0, 1]; got: {p}")


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of [C, L] or [N, C, L] with probability p (kept ones scaled by
    1 / (1 - p)); inplace is accepted and ignored, as in Paddle."""
    _check_p(p, "dropout1d")
    x = float_arg(input, "dropout1d", "input")
    if x.ndim not in (2, 3):
        raise ShapeError(f"dropout1d: expected a 2-D or 3-D input; got: {x.ndim}-D")
    if x.ndim == 2:
        return dropout(x.unsqueeze(0), p=p, axis=1, training=training).squeeze(0)
    return dropout(x, p=p, axis=1, training=training)


def _channel_dropout(op, x, p, training, data_format, formats):
    _check_p(p, op)
    x = float_arg(x, op)
    if x.ndim != len(formats[0]):
        raise ShapeError(f"{op}: x must be {len(formats[0])}-D; got: {x.ndim}-D")
    if data_format not in formats:
        raise OpArgumentError(f"{op}: data_format must be one of {formats}; got: "
                              f"{data_format!r}")
    channel = 1 if data_format == formats[0] else x.ndim - 1
    return dropout(x, p=p, axis=[0, channel], training=training)


def dropout2d(x, p=0.5, training=True, data_format="NCHW", name=None):
    """Zero whole channels of an [N, C, H, W] (or NHWC) input with probability p."""
    return _channel_dropout("dropout2d", x, p, training, data_format, ("NCHW", "NHWC"))


def dropout3d(x, p=0.5, training=True, data_format="NCDHW", name=None):
    """Zero whole channels of an [N, C, D, H, W] (or NDHWC) input with probability p."""
    return _channel_dropout("dropout3d", x, p, training, data_format, ("NCDHW", "NDHWC"))


def _alpha_dropout(op, x, p, training, feature):
    _check_p(p, op)
    x = float_arg(x, op)
    if not training:
        return x
    if p == 1:
        return x * 0.0
    alpha_p = -SELU_ALPHA * SELU_SCALE
    a = ((1 - p) * (1 + p * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * p
    shape = x.shape
    if feature:
        if x.ndim < 2:
            raise ShapeError(f"{op}: needs an input of at least 2 dimensions; got: {x.ndim}-D")
        shape = list(x.shape[:2]) + [1] * (x.ndim - 2)
    keep = (get_rng().random(shape) >= p).astype(x.array.dtype)
    # y = a (x keep + alpha_p (1 - keep)) + b: an affine map of x with a constant slope
    return x * _wrap(keep * a) + _wrap(((1 - keep) * alpha_p * a + b).astype(x.array.dtype))


def alpha_dropout(x, p=0.5, training=True, name=None):
    """Dropout that keeps a SELU network's mean and variance: dropped elements take SELU's
    negative saturation value, then everything is scaled and shifted back."""
    return _alpha_dropout("alpha_dropout", x, p, training, False)


def feature_alpha_dropout(x, p=0.5, training=True, name=None):
    """alpha_dropout with one draw per channel (axes 0 and 1) of a >= 2-D input."""
    return _alpha_dropout("feature_alpha_dropout", x, p, training, True)


def rrelu(x, lower=1.0 / 8.0, upper=1.0 / 3.0, training=True, name=None):
    """Leaky ReLU whose negative slope is drawn uniformly from [lower, upper] per element while
    training, and is (lower + upper) / 2 otherwise."""
    if not isinstance(lower, float) or not isinstance(upper, float):
        raise ArgumentTypeError(f"rrelu: lower and upper must be floats; got: lower {lower!r}, "
                                f"upper {upper!r}")
    if not 0 <= lower <= 1:
        raise OpArgumentError(f"rrelu: lower must lie in [0, 1]; got: {lower}")
    if upper < lower:
        raise OpArgumentError(f"rrelu: upper must be >= lower; got: lower {lower}, upper {upper}")
    if upper > 1:
        raise OpArgumentError(f"rrelu: upper must be <= 1; got: {upper}")
    x = float_arg(x, "rrelu")
    xd = x.array
    if training:
        slope = get_rng().uniform(lower, upper, xd.shape)
    else:
        slope = np.full(xd.shape, (lower + upper) / 2)
    slope = np.where(xd >= 0, 1.0, slope).astype(xd.dtype)
    return record("rrelu", xd * slope, (x,), _SCALED, (slope,))


_SCALED = (lambda g, slope: g * slope,)


def gumbel_softmax(x, temperature=1.0, hard=False, axis=-1, name=None):
    """softmax((x + G) / temperature) along axis, G drawn from the standard Gumbel distribution.

    hard=True returns the one-hot of the largest entry instead. As Paddle's kernel, its
    gradient is the softmax gradient taken at that one-hot output: zero.
    """
    x = float_arg(x, "gumbel_softmax")
    if temperature <= 0:
        raise OpArgumentError(f"gumbel_softmax: temperature must be > 0; got: {temperature}")
    xd = x.array
    ax = axis_arg(axis, xd.ndim, "gumbel_softmax")  # out of range: an error, as in Paddle
    u = get_rng().random(xd.shape)
    noise = (-np.log(-np.log(u + 1e-20) + 1e-20)).astype(xd.dtype)
    y = softmax((x + _wrap(noise)) / temperature, axis=ax)
    if not hard:
        return y
    hot = np.zeros_like(xd)
    np.put_along_axis(hot, np.expand_dims(y.array.argmax(axis=ax), ax), 1, axis=ax)
    return y * 0.0 + _wrap(hot)


__all__ = ["dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout",
           "rrelu", "gumbel_softmax"]
