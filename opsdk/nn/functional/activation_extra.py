"""More activations, composed of differentiable opsdk ops (so every order of gradient works).

At the kinks each follows Paddle's choice; the branch a ``where`` does not take never sees
an input that could overflow (its gradient would be 0 * inf = nan otherwise). Where Paddle's
backward reads the activation's output (elu, selu, relu6, hardsigmoid), a write into the output
makes backward refuse, as in Paddle (output_read_by_backward).
"""
from ...functional.elementwise import abs as _abs, clip, exp, log, tanh, where
from ...autograd.record import output_read_by_backward
from ...errors import OpArgumentError
from ...functional.shape import reshape
from ._graph import float_arg

SELU_SCALE = 1.0507009873554804934193349852946
SELU_ALPHA = 1.6732632423543772848170429916717


def _negative_part(x):
    """x where x <= 0, else 0: the input of a branch that only applies to x <= 0."""
    return where(x > 0, 0.0, x)


def elu(x, alpha=1.0, name=None):
    """x for x > 0, alpha * (exp(x) - 1) otherwise (the gradient at 0 is alpha, as Paddle).

    Example:
        >>> F.elu(opsdk.to_tensor([-1.0, 2.0])).numpy()
        array([-0.63212055,  2.        ], dtype=float32)
    """
    x = float_arg(x, "elu")
    return output_read_by_backward(where(x > 0, x, (exp(_negative_part(x)) - 1.0) * alpha))


def selu(x, scale=SELU_SCALE, alpha=SELU_ALPHA, name=None):
    """scale * (x for x > 0, alpha * (exp(x) - 1) otherwise); as Paddle, scale > 1, alpha >= 0."""
    if not scale > 1.0:
        raise OpArgumentError(f"selu: argument 'scale' must be greater than 1.0; got: {scale}")
    if not alpha >= 0.0:
        raise OpArgumentError(f"selu: argument 'alpha' must be no less than 0; got: {alpha}")
    x = float_arg(x, "selu")
    return output_read_by_backward(
        where(x > 0, x, (exp(_negative_part(x)) - 1.0) * alpha) * scale)


def celu(x, alpha=1.0, name=None):
    """x for x > 0, alpha * (exp(x / alpha) - 1) otherwise."""
    x = float_arg(x, "celu")
    return where(x > 0, x, (exp(_negative_part(x) / alpha) - 1.0) * alpha)


def relu6(x, name=None):
    """min(max(x, 0), 6); the gradient is 1 strictly inside (0, 6), as Paddle."""
    return output_read_by_backward(hardtanh(float_arg(x, "relu6"), 0.0, 6.0))


def hardtanh(x, min=-1.0, max=1.0, name=None):
    """x clamped into [min, max]; the gradient is 1 strictly inside, 0 at and past the ends."""
    x = float_arg(x, "hardtanh")
    return where(x >= max, float(max), where(x <= min, float(min), x))


def hardsigmoid(x, slope=0.1666667, offset=0.5, name=None):
    """clamp(slope * x + offset, 0, 1)."""
    x = float_arg(x, "hardsigmoid")
    return output_read_by_backward(hardtanh(x * slope + offset, 0.0, 1.0))


def hardswish(x, name=None):
    """x * relu6(x + 3) / 6; the gradient is 0 at -3 and 1 at 3, as Paddle."""
    x = float_arg(x, "hardswish")
    return x * relu6(x + 3.0) / 6.0


def softplus(x, beta=1.0, threshold=20.0, name=None):
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold."""
    x = float_arg(x, "softplus")
    bx = x * beta
    safe = clip(bx, max=float(threshold))
    return where(bx > threshold, x, log(exp(safe) + 1.0) / beta)


def softsign(x, name=None):
    """x / (1 + |x|)."""
    x = float_arg(x, "softsign")
    # a product last, not a quotient: Paddle's softsign backward reads x only, so a write into
    # the output leaves backward working (a quotient's backward reads the output)
    return x * (1.0 / (_abs(x) + 1.0))


def tanhshrink(x, name=None):
    """x - tanh(x)."""
    x = float_arg(x, "tanhshrink")
    return x - tanh(x)


def log_sigmoid(x, name=None):
    """log(sigmoid(x)) = -softplus(-x), computed without overflow."""
    x = float_arg(x, "log_sigmoid")
    return -softplus(-x)


def mish(x, name=None):
    """x * tanh(softplus(x))."""
    x = float_arg(x, "mish")
    return x * tanh(softplus(x))


def prelu(x, weight, data_format="NCHW", name=None):
    """x for x > 0, weight * x otherwise; weight has 1 element or one per channel.

    Args:
        x: a float Tensor (channels on axis 1 for 'NC...', on the last axis for 'N...C').
        weight: a Tensor of 1 or C learned slopes.
        data_format: where the channels are ('NCHW', 'NCL', 'NCDHW' or channels-last forms).
    """
    x = float_arg(x, "prelu")
    w = float_arg(weight, "prelu", "weight")
    if w.size > 1 and x.ndim > 1:
        shape = [1] * x.ndim
        axis = 1 if data_format[1] == "C" else x.ndim - 1
        if w.size != x.shape[axis]:
            from ...errors import AssertedShapeError
            # Paddle asserts the weight has 1 element or one per channel
            raise AssertedShapeError(f"prelu: argument 'weight' must have 1 element or one per "
                                     f"channel; expected: {x.shape[axis]}; got: {w.size}")
        shape[axis] = w.size
        w = reshape(w, shape)
    return where(x > 0, x, x * w)

__all__ = ["elu", "selu", "celu", "relu6", "hardtanh", "hardsigmoid", "hardswish", "softplus",
           "softsign", "tanhshrink", "log_sigmoid", "mish", "prelu"]


def hardshrink(x, threshold=0.5, name=None):
    """x where |x| >= threshold, else 0 (Paddle keeps x at |x| == threshold)."""
    x = float_arg(x, "hardshrink")
    return where(_abs(x) >= threshold, x, 0.0)


def softshrink(x, threshold=0.5, name=None):
    """x - threshold above threshold, x + threshold below -threshold, else 0."""
    x = float_arg(x, "softshrink")
    return where(x > threshold, x - threshold, where(x < -threshold, x + threshold, 0.0))


def thresholded_relu(x, threshold=1.0, value=0.0, name=None):
    """x where x > threshold, else value."""
    x = float_arg(x, "thresholded_relu")
    return where(x > threshold, x, float(value))


def glu(x, axis=-1, name=None):
    """a * sigmoid(b), with x split in two halves a, b along axis."""
    from ...functional.elementwise import sigmoid
    from ...functional.shape import split
    x = float_arg(x, "glu")
    a, b = split(x, 2, axis=axis)
    return a * sigmoid(b)


def swiglu(x, y=None, name=None):
    """silu(x) * y; with y None, x's last axis is split in halves a, b and silu(a) * b."""
    from ...errors import ShapeError
    from ...functional.shape import split
    from ._graph import same_dtype
    from .activation import silu
    x = float_arg(x, "swiglu")
    if y is None:
        if x.ndim == 0 or x.shape[-1] % 2:
            raise ShapeError(f"swiglu: without y, x's last axis must have an even size; got: "
                             f"shape {list(x.shape)}")
        x, y = split(x, 2, axis=-1)
    else:
        y = float_arg(y, "swiglu", "y")
        same_dtype("swiglu", x=x, y=y)
        if list(x.shape) != list(y.shape):
            raise ShapeError(f"swiglu: x and y must have the same shape; got: {list(x.shape)} "
                             f"and {list(y.shape)}")
    return silu(x) * y


logsigmoid = log_sigmoid
__all__ += ["hardshrink", "softshrink", "thresholded_relu", "glu", "swiglu", "logsigmoid"]
