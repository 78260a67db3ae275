"""layer_norm, group_norm, instance_norm, rms_norm, local_response_norm and normalize,
composed of differentiable opsdk ops (so every order of gradient works)."""
import numpy as np

from ...autograd.record import output_read_by_backward
from ...errors import OpArgumentError, ShapeError
from ...functional.elementwise import clip, rsqrt
from ...functional.reduction import mean, norm
from ...functional.shape import moveaxis, reshape
from ._graph import float_arg


def _affine_arg(t, arg, shape):
    """layer_norm's weight or bias: 1-D with prod(normalized_shape) elements, as Paddle's
    kernel takes it, returned in normalized_shape to broadcast over x."""
    t = float_arg(t, "layer_norm", arg)
    n = 1
    for s in shape:
        n *= s
    if t.ndim != 1 or t.shape[0] != n:
        raise ShapeError(f"layer_norm: argument '{arg}' must be 1-D with prod(normalized_shape) "
                         f"elements; expected: shape [{n}]; got: {list(t.shape)}")
    return t if len(shape) == 1 else reshape(t, shape)


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-5, name=None):
    """Normalize over the trailing dims given by normalized_shape, then scale and shift.

    y = (x - mean) / sqrt(var + epsilon) * weight + bias, mean and (biased) variance taken over
    the last len(normalized_shape) dims; weight and bias are 1-D with prod(normalized_shape)
    elements (the layout of Paddle's kernel and of LayerNorm's parameters).

    Example:
        >>> y = F.layer_norm(opsdk.to_tensor([[1.0, 2.0, 3.0]]), [3])
        >>> [round(v, 4) for v in y.numpy()[0].tolist()]
        [-1.2247, 0.0, 1.2247]
    """
    x = float_arg(x, "layer_norm")
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    k = len(shape)
    if k == 0 or list(x.shape[x.ndim - k:]) != shape:
        raise ShapeError(f"layer_norm: the last dims of x must be normalized_shape; expected: "
                         f"[..., {', '.join(map(str, shape))}]; got: {list(x.shape)}")
    if k == x.ndim:
        raise OpArgumentError(f"layer_norm: normalized_shape must leave at least one leading "
                              f"axis of x (Paddle's begin_norm_axis > 0); expected: fewer than "
                              f"{x.ndim} dims; got: {shape} for x of shape {list(x.shape)}")
    y = _normalized(x, list(range(x.ndim - k, x.ndim)), epsilon)
    if weight is not None:
        y = y * _affine_arg(weight, "weight", shape)
    if bias is not None:
        y = y + _affine_arg(bias, "bias", shape)
    # Paddle's layer_norm backward reads its output: a write into it makes backward refuse
    return output_read_by_backward(y)


def normalize(x, p=2, axis=1, epsilon=1e-12, out=None, name=None):
    """x / max(||x||_p along axis, epsilon); out (positional in Paddle too) takes the result as
    op_args.write_out says, and is what normalize returns (Paddle assigns into it)."""
    from ...functional.op_args import vector_arg
    # of a 0-d tensor Paddle 3.3.1 returns garbage (normalize(0.5) is 5e11) or, with axis=-1,
    # ends the process (SIGSEGV): opsdk refuses it
    from ...functional.op_args import write_out
    x = vector_arg(float_arg(x, "normalize"), "normalize")
    r = x / clip(norm(x, p=p, axis=axis, keepdim=True), min=epsilon)
    if out is None:
        return r
    write_out(out, r, "normalize")
    return out


__all__ = ["layer_norm", "normalize"]


def cosine_similarity(x1, x2, axis=1, eps=1e-8, name=None):
    """sum(x1 * x2) / max(||x1|| ||x2||, eps) along axis."""
    from ...functional.reduction import sum as _sum
    a = float_arg(x1, "cosine_similarity", "x1")
    b = float_arg(x2, "cosine_similarity", "x2")
    denom = clip(norm(a, p=2, axis=axis) * norm(b, p=2, axis=axis), min=eps)
    return _sum(a * b, axis=axis) / denom


__all__ += ["cosine_similarity"]


_CHANNELS_FIRST = ("NC", "NCL", "NCHW", "NCDHW")
_CHANNELS_LAST = ("NLC", "NHWC", "NDHWC")


def _per_channel(t, op, arg, c, ndim):
    """A weight or bias of C elements, shaped [1, C, 1, ...] to broadcast over x [N, C, ...]."""
    t = float_arg(t, op, arg)
    if t.ndim != 1 or t.shape[0] != c:
        raise ShapeError(f"{op}: argument '{arg}' must have one element per channel; expected: "
                         f"shape [{c}]; got: {list(t.shape)}")
    return reshape(t, [1, c] + [1] * (ndim - 2))


def _normalized(x, axes, epsilon):
    """(x - mean) / sqrt(biased variance + epsilon) over axes."""
    centered = x - mean(x, axis=axes, keepdim=True)
    var = mean(centered * centered, axis=axes, keepdim=True)
    return centered * rsqrt(var + epsilon)


def group_norm(x, num_groups, epsilon=1e-5, weight=None, bias=None, data_format="NCHW",
               name=None):
    """Normalize each group of channels: the C channels of x [N, C, ...] split into
    num_groups groups, each normalized over its channels and the spatial axes (biased
    variance), then scaled and shifted per channel by weight and bias ([C]).

    ``data_format`` says where the channels are: NC, NCL, NCHW, NCDHW (axis 1, whatever x's
    rank, as in Paddle) or NLC, NHWC, NDHWC (the last axis).

    Example:
        >>> x = opsdk.to_tensor([[[1.0], [3.0], [2.0], [6.0]]])
        >>> [round(v, 3) for v in F.group_norm(x, 2).numpy().ravel().tolist()]
        [-1.0, 1.0, -1.0, 1.0]
    """
    op = "group_norm"
    x = float_arg(x, op)
    if data_format not in _CHANNELS_FIRST + _CHANNELS_LAST:
        raise OpArgumentError(f"{op}: argument 'data_format' must be one of "
                              f"{', '.join(_CHANNELS_FIRST + _CHANNELS_LAST)}; got: "
                              f"{data_format!r}")
    if x.ndim < 2:
        raise ShapeError(f"{op}: expected: x [N, C, ...] with at least 2 dims; got: shape "
                         f"{list(x.shape)}")
    last = data_format in _CHANNELS_LAST
    xc = moveaxis(x, -1, 1) if last else x
    n, c = xc.shape[0], xc.shape[1]
    if isinstance(num_groups, bool) or not isinstance(num_groups, int) or num_groups < 1 \
            or c % num_groups:
        raise ShapeError(f"{op}: the number of channels must be divisible by num_groups; got: "
                         f"{c} channels, num_groups={num_groups!r}")
    spatial = list(xc.shape[2:])
    per_group = c // num_groups
    for s in spatial:
        per_group *= s
    y = reshape(_normalized(reshape(xc, [n, num_groups, per_group]), [2], epsilon),
                [n, c] + spatial)
    if weight is not None:
        y = y * _per_channel(weight, op, "weight", c, y.ndim)
    if bias is not None:
        y = y + _per_channel(bias, op, "bias", c, y.ndim)
    # Paddle's group_norm backward reads its output: a write into it makes backward refuse
    return output_read_by_backward(moveaxis(y, 1, -1) if last else y)


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.9, eps=1e-5, data_format="NCHW", name=None):
    """Normalize each channel of each sample of x [N, C, ...] over its spatial axes (biased
    variance), then scale and shift per channel by weight and bias ([C]).

    As Paddle 3.3.1 (whose kernel is NCHW only): the statistics are always the input's, so
    running_mean, running_var, use_input_stats and momentum change nothing and the running
    statistics are not updated; the channels are axis 1 whatever data_format says. An x
    without spatial axes ([N, C]) normalizes to 0.

    Example:
        >>> x = opsdk.to_tensor([[[1.0, 3.0], [2.0, 6.0]]])
        >>> [round(v, 3) for v in F.instance_norm(x).numpy().ravel().tolist()]
        [-1.0, 1.0, -1.0, 1.0]
    """
    op = "instance_norm"
    x = float_arg(x, op)
    if x.ndim < 2:
        raise ShapeError(f"{op}: expected: x [N, C, ...] with at least 2 dims; got: shape "
                         f"{list(x.shape)}")
    axes = list(range(2, x.ndim))
    if axes:
        y = _normalized(x, axes, eps)
    else:  # one value per instance: (x - x) / sqrt(eps), as Paddle
        y = reshape(_normalized(reshape(x, list(x.shape) + [1]), [2], eps), list(x.shape))
    c = x.shape[1]
    if weight is not None:
        y = y * _per_channel(weight, op, "weight", c, x.ndim)
    if bias is not None:
        y = y + _per_channel(bias, op, "bias", c, x.ndim)
    return y


__all__ += ["group_norm", "instance_norm"]


def rms_norm(input, normalized_shape, weight=None, eps=1e-5, name=None):
    """Root-mean-square normalization over the trailing dims given by normalized_shape:
    out = input * invvar * weight, invvar = 1 / sqrt(mean(input^2) + eps) per row.

    Returns (out, invvar), invvar shaped like input without the normalized dims, as Paddle's
    rms_norm (whose kernel Paddle 3.3.1 registers for CUDA only). weight has normalized_shape's
    shape (or is 1-D with as many elements).

    Example:
        >>> out, invvar = F.rms_norm(opsdk.to_tensor([[3.0, 4.0]]), [2], eps=0.0)
        >>> [round(v, 4) for v in out.numpy()[0].tolist()], invvar.shape
        ([0.8485, 1.1314], paddle.Size([1]))
    """
    x = float_arg(input, "rms_norm", "input")
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    k = len(shape)
    if k == 0 or list(x.shape[x.ndim - k:]) != shape:
        raise ShapeError(f"rms_norm: the last dims of input must be normalized_shape; expected: "
                         f"[..., {', '.join(map(str, shape))}]; got: {list(x.shape)}")
    axes = list(range(x.ndim - k, x.ndim))
    inv = rsqrt(mean(x * x, axis=axes, keepdim=True) + eps)
    out = x * inv
    if weight is not None:
        w = float_arg(weight, "rms_norm", "weight")
        if w.size != int(np.prod(shape)) or (w.ndim != 1 and list(w.shape) != shape):
            raise ShapeError(f"rms_norm: weight must have normalized_shape {shape} (or be 1-D "
                             f"with as many elements); got: {list(w.shape)}")
        out = out * reshape(w, shape)
    return out, reshape(inv, list(x.shape[:x.ndim - k]))


__all__ += ["rms_norm"]


def local_response_norm(x, size, alpha=1e-4, beta=0.75, k=1.0, data_format="NCHW", name=None):
    """x / (k + alpha * mean of x^2 over `size` neighbouring channels)^beta (AlexNet's
    normalization, as Paddle: channels c - size // 2 .. c + (size - 1) // 2, missing ones
    counting as 0, the mean always over `size`).

    Example:
        >>> F.local_response_norm(opsdk.ones([1, 3, 2, 2]), size=3).shape
        paddle.Size([1, 3, 2, 2])
    """
    from ...functional.creation import zeros
    from ...functional.shape import concat
    op = "local_response_norm"
    formats = ("NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC")
    if data_format not in formats:
        raise OpArgumentError(f"{op}: data_format must be one of {list(formats)}; got: "
                              f"{data_format!r}")
    x = float_arg(x, op)
    if x.ndim < 3:
        raise ShapeError(f"{op}: expected an input of 3 or more dimensions; got: {x.ndim}-D")
    if any(s <= 0 for s in x.shape[1:]):
        raise ShapeError(f"{op}: every axis but the first must be non-empty; got: "
                         f"{list(x.shape)}")
    axis = x.ndim - 1 if data_format[-1] == "C" else 1
    sq = moveaxis(x * x, axis, -1)
    c = sq.shape[-1]
    before, after = size // 2, (size - 1) // 2
    parts = [zeros(list(sq.shape[:-1]) + [n], dtype=x.dtype) for n in (before, after)]
    padded = concat([p for p in (parts[0], sq, parts[1]) if p.shape[-1]], axis=-1)
    window = None
    for i in range(size):
        part = padded[..., i:i + c]
        window = part if window is None else window + part
    div = moveaxis(window / size * alpha + k, -1, axis) ** beta
    return x / div


__all__ += ["local_response_norm"]
