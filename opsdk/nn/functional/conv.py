"""conv1d, conv2d, max_pool2d, avg_pool2d and batch_norm, written in opsdk's core ops.

They are references to check custom conv/pool/norm kernels against, so they are built from
ops whose gradients are known to any order: the input's windows are strided slices stacked
along a new axis (im2col), a convolution is one batched matmul over them, a pool a max or a
mean over them. Speed: a Python loop over the kernel's KH * KW offsets, each one NumPy slice
of the whole batch, then one matmul; fine for tests and small models, not for training big
convolutional networks (write a kernel for that: `opsdk new-op`).
"""
import math

import numpy as np

from ...autograd.grad_mode import no_grad
from ...errors import AssertedShapeError, OpArgumentError, ShapeError
from ...functional.creation import full
from ...functional.linalg import matmul
from ...functional.reduction import max as _max, mean, sum as _sum
from ...functional.shape import concat, reshape, stack, transpose, unsqueeze, squeeze
from ._graph import float_arg
from .pooling import _average, _max as _window_max, sliding_axis


def _pair(v, n, op, arg):
    if isinstance(v, int):
        return [v] * n
    v = list(v)
    if len(v) != n or not all(isinstance(i, int) for i in v):
        raise OpArgumentError(f"{op}: argument '{arg}' must be an int or {n} ints; got: {v}")
    return v


def _pairs_form(padding, n, channel_last, op):
    """Paddle's padding as one (before, after) pair per axis of x, batch and channel included
    ([[0, 0], [0, 0], [top, bottom], [left, right]] for NCHW; the channel pair last for NHWC):
    the spatial pairs flattened, or None for the other forms. The batch and channel pairs
    must be zero, as Paddle checks."""
    if isinstance(padding, (str, int)) or len(padding) != n + 2 or not all(
            isinstance(q, (list, tuple)) for q in padding):
        return None
    pairs = [list(q) for q in padding]
    if any(len(q) != 2 for q in pairs):
        raise OpArgumentError(f"{op}: argument 'padding' as pairs needs two entries per axis; "
                              f"got: {padding}")
    spatial = pairs[1:-1] if channel_last else pairs[2:]
    other = [pairs[0], pairs[-1] if channel_last else pairs[1]]
    if any(a or b for a, b in other):
        raise OpArgumentError(f"{op}: argument 'padding' must not pad the batch or channel axis; "
                              f"expected: [0, 0] there; got: {padding}")
    return [int(v) for q in spatial for v in q]


def _padding(padding, size, kernel, stride, dilation, op, channel_last=False):
    """[(before, after)] per spatial axis from Paddle's padding forms."""
    n = len(size)
    padding = _pairs_form(padding, n, channel_last, op) or padding
    if isinstance(padding, str):
        mode = padding.upper()
        if mode == "VALID":
            return [(0, 0)] * n
        if mode == "SAME":
            out = []
            for s, k, st, d in zip(size, kernel, stride, dilation):
                total = max((math.ceil(s / st) - 1) * st + (k - 1) * d + 1 - s, 0)
                out.append((total // 2, total - total // 2))
            return out
        raise OpArgumentError(f"{op}: argument 'padding' must be 'SAME', 'VALID', an int or a "
                              f"list; got: {padding!r}")
    if isinstance(padding, int):
        return [(padding, padding)] * n
    p = list(padding)
    if len(p) == n:
        return [(int(a), int(a)) for a in p]
    if len(p) == 2 * n:
        return [(int(p[2 * i]), int(p[2 * i + 1])) for i in range(n)]
    raise OpArgumentError(f"{op}: argument 'padding' must have {n} or {2 * n} entries; got: {p}")


def conv_operands(x, weight, data_format, op, weight_layout):
    """x (as NCHW) and weight of a 2-D convolution, both float and 4-D."""
    x = _nchw(float_arg(x, op, "x"), data_format, op)
    weight = float_arg(weight, op, "weight")
    if x.ndim != 4 or weight.ndim != 4:
        raise ShapeError(f"{op}: expected: x [N, C, H, W] and weight {weight_layout}; got: "
                         f"{list(x.shape)} and {list(weight.shape)}")
    return x, weight


def same_undilated(padding, dilation):
    """Paddle's convolutions ignore the dilation under padding='SAME' (they set it to 1)."""
    if isinstance(padding, str) and padding.upper() == "SAME":
        return [1] * len(dilation)
    return dilation


def _pad(x, pads, value):
    """x [N, C, H, W] with constant borders (concat, so gradients flow to x only)."""
    for axis, (before, after) in zip((2, 3), pads):
        parts = []
        for n in (before, after):
            shape = list(x.shape)
            shape[axis] = n
            parts.append(full(shape, value, dtype=x.dtype) if n else None)
        x = concat([p for p in (parts[0], x, parts[1]) if p is not None], axis=axis)
    return x


def _windows(x, kernel, stride, dilation, pads, value, op):
    """(windows [N, C, KH*KW, Ho, Wo], (Ho, Wo)) of x [N, C, H, W] after padding."""
    for arg, pair in (("kernel_size", kernel), ("stride", stride), ("dilation", dilation)):
        if any(v <= 0 for v in pair):
            # Paddle: "should be larger than 0" (a ValueError), not a division by zero
            raise OpArgumentError(f"{op}: argument '{arg}' must be positive; got: {list(pair)}")
    x = _pad(x, pads, value)
    h, w = x.shape[2], x.shape[3]
    (kh, kw), (sh, sw), (dh, dw) = kernel, stride, dilation
    ho = (h - (kh - 1) * dh - 1) // sh + 1
    wo = (w - (kw - 1) * dw - 1) // sw + 1
    if ho < 1 or wo < 1:
        raise ShapeError(f"{op}: the kernel {kernel} (dilation {dilation}) does not fit the "
                         f"padded input of spatial shape {[h, w]}")
    parts = [x[:, :, i * dh:i * dh + sh * (ho - 1) + 1:sh, j * dw:j * dw + sw * (wo - 1) + 1:sw]
             for i in range(kh) for j in range(kw)]
    return stack(parts, axis=2), (ho, wo)


def _nchw(x, data_format, op, ndim=4):
    if data_format in ("NCHW", "NCL"):
        return x
    if data_format in ("NHWC", "NLC"):
        return transpose(x, [0, ndim - 1] + list(range(1, ndim - 1)))
    raise OpArgumentError(f"{op}: argument 'data_format' must be NCHW or NHWC; got: "
                          f"{data_format!r}")


def _back(y, data_format, ndim=4):
    if data_format in ("NHWC", "NLC"):
        return transpose(y, [0] + list(range(2, ndim)) + [1])
    return y


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCHW", name=None):
    """2-D convolution (cross-correlation, as Paddle): x [N, C, H, W], weight
    [O, C / groups, KH, KW], bias [O]; padding an int, [ph, pw], [top, bottom, left, right],
    'SAME' or 'VALID'.

    Example:
        >>> x = opsdk.ones([1, 1, 3, 3])
        >>> F.conv2d(x, opsdk.ones([1, 1, 2, 2])).numpy().tolist()
        [[[[4.0, 4.0], [4.0, 4.0]]]]
    """
    op = "conv2d"
    x, weight = conv_operands(x, weight, data_format, op, "[O, C/groups, KH, KW]")
    n, c = x.shape[0], x.shape[1]
    o, cg, kh, kw = weight.shape
    if groups < 1 or c % groups or o % groups or cg != c // groups:
        raise ShapeError(f"{op}: x has {c} channels, weight {list(weight.shape)} with groups={groups};"
                         f" expected: weight.shape[1] == channels / groups, both divisible")
    stride, dilation = _pair(stride, 2, op, "stride"), _pair(dilation, 2, op, "dilation")
    dilation = same_undilated(padding, dilation)
    pads = _padding(padding, x.shape[2:], [kh, kw], stride, dilation, op,
                    channel_last=data_format == "NHWC")
    win, (ho, wo) = _windows(x, [kh, kw], stride, dilation, pads, 0.0, op)
    cols = reshape(win, [n, groups, cg * kh * kw, ho * wo])
    w = reshape(weight, [1, groups, o // groups, cg * kh * kw])
    y = reshape(matmul(w, cols), [n, o, ho, wo])
    if bias is not None:
        y = y + reshape(bias, [1, o, 1, 1])
    return _back(y, data_format)


def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCL", name=None):
    """1-D convolution: x [N, C, L], weight [O, C / groups, K] (conv2d over a height of 1)."""
    op = "conv1d"
    x = _nchw(float_arg(x, op, "x"), data_format, op, ndim=3)
    pairs = _pairs_form(padding, 1, data_format == "NLC", op)
    if isinstance(padding, str):
        pad = padding
    elif pairs is not None:
        pad = [0, 0] + pairs
    else:
        p = _pair(padding, 1, op, "padding") if isinstance(padding, int) else list(padding)
        pad = [0, 0] + ([p[0], p[0]] if len(p) == 1 else list(p))
    y = conv2d(unsqueeze(x, 2), unsqueeze(float_arg(weight, op, "weight"), 2), bias,
               [1, _pair(stride, 1, op, "stride")[0]], pad if isinstance(pad, str) else pad,
               [1, _pair(dilation, 1, op, "dilation")[0]], groups)
    return _back(squeeze(y, 2), data_format, ndim=3)


def _pool_args(x, kernel_size, stride, padding, data_format, op):
    x = _nchw(float_arg(x, op, "x"), data_format, op)
    if x.ndim != 4:
        raise ShapeError(f"{op}: expected: x [N, C, H, W]; got: {list(x.shape)}")
    kernel = _pair(kernel_size, 2, op, "kernel_size")
    stride = kernel if stride is None else _pair(stride, 2, op, "stride")
    pads = _padding(padding, x.shape[2:], kernel, stride, [1, 1], op,
                    channel_last=data_format == "NHWC")
    return x, kernel, stride, pads


def _clipped_windows(x, kernel, stride, pads, padding, ceil_mode, op, mask_kernel=False):
    """Per spatial axis of x [N, C, H, W], Paddle's windows clipped to the input (the 1-D
    pools' machinery, pooling.sliding_axis): [(start0, end0, start, end)] for H and W."""
    algorithm = padding.upper() if isinstance(padding, str) else "EXPLICIT"
    if algorithm == "VALID" and ceil_mode:
        raise OpArgumentError(f"{op}: padding='VALID' needs ceil_mode=False; got: "
                              f"ceil_mode=True")
    return [sliding_axis(x.shape[2 + k], kernel[k], stride[k], pads[k], algorithm, ceil_mode,
                         op, padding, mask_kernel) for k in range(2)]


def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCHW", name=None):
    """The maximum over each kernel window (padding counts as -inf). With ``ceil_mode`` or
    ``return_mask`` the windows are Paddle's clipped ones (a window with no input gives
    -FLT_MAX, mask -1) and the mask holds flat indices h * W + w (int32), as in Paddle."""
    op = "max_pool2d"
    if return_mask and data_format != "NCHW":
        raise OpArgumentError(f"{op}: return_mask=True needs data_format='NCHW', as in Paddle; "
                              f"got: {data_format!r}")
    x, kernel, stride, pads = _pool_args(x, kernel_size, stride, padding, data_format, op)
    if ceil_mode or return_mask:
        wins = _clipped_windows(x, kernel, stride, pads, padding, ceil_mode, op,
                                mask_kernel=bool(return_mask))
        out = _window_max(x, [(start, end) for _, _, start, end in wins], return_mask, op)
        return out if return_mask else _back(out, data_format)
    win, _ = _windows(x, kernel, stride, [1, 1], pads, -np.inf, op)
    return _back(_max(win, axis=2), data_format)


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCHW", name=None):
    """The mean over each kernel window; with ``exclusive`` (the default) padded places are
    not counted, as in Paddle. ``divisor_override`` rescales that mean as Paddle does:
    ``mean * kh * kw / divisor_override`` (the window's sum over the divisor where no padding
    is counted away). With ``ceil_mode`` the windows are Paddle's clipped ones."""
    op = "avg_pool2d"
    x, kernel, stride, pads = _pool_args(x, kernel_size, stride, padding, data_format, op)
    y = _avg_pool2d(x, kernel, stride, pads, padding, ceil_mode, exclusive, op)
    if divisor_override:
        y = y * (float(kernel[0] * kernel[1]) / float(divisor_override))
    return _back(y, data_format)


def _avg_pool2d(x, kernel, stride, pads, padding, ceil_mode, exclusive, op):
    if ceil_mode or (not exclusive and any(a != b for a, b in pads)):
        # Paddle's clipped windows; the divisor per axis: the window's places in the input
        # (exclusive) or in the input and its padding up to L + pad_before (so a trailing pad
        # larger than the leading one is not counted, as in Paddle)
        wins = _clipped_windows(x, kernel, stride, pads, padding, ceil_mode, op)
        return _average(x, [2, 3], [(start, end, (end - start) if exclusive else (end0 - start0))
                                    for start0, end0, start, end in wins])
    win, _ = _windows(x, kernel, stride, [1, 1], pads, 0.0, op)
    total = _sum(win, axis=2)
    if exclusive and any(p for pair in pads for p in pair):
        with no_grad():
            ones = full([1, 1] + x.shape[2:], 1.0, dtype=x.dtype)
            count, _ = _windows(ones, kernel, stride, [1, 1], pads, 0.0, op)
            count = _sum(count, axis=2)
        return total / count
    return total / float(kernel[0] * kernel[1])


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.9, epsilon=1e-5, data_format="NCHW", use_global_stats=None, name=None):
    """Normalize each channel (axis 1; the last for NHWC/NLC): by the batch's mean and
    (biased) variance in training, which also updates running_mean and running_var in place
    (``running = momentum * running + (1 - momentum) * batch``, the biased variance, as
    Paddle), by
    the running statistics otherwise; then scale by weight and shift by bias."""
    op = "batch_norm"
    x = float_arg(x, op, "x")
    channels_last = data_format in ("NHWC", "NLC", "NDHWC")
    axis = x.ndim - 1 if channels_last else 1
    if x.ndim < 2:
        # Paddle asserts "input dim must be larger than 1"
        raise AssertedShapeError(f"{op}: expected: x with a batch and a channel axis; got: "
                                 f"{list(x.shape)}")
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    others = [a for a in range(x.ndim) if a != axis]
    use_batch = training if use_global_stats is None else not use_global_stats
    if use_batch:
        mu = mean(x, axis=others, keepdim=True)
        var = mean((x - mu) ** 2, axis=others, keepdim=True)
        with no_grad():
            running_mean.set_value((running_mean * momentum + reshape(mu, [-1]) *
                                    (1 - momentum)).astype(running_mean.dtype))
            running_var.set_value((running_var * momentum + reshape(var, [-1]) *
                                   (1 - momentum)).astype(running_var.dtype))
    else:
        mu, var = reshape(running_mean, shape), reshape(running_var, shape)
    y = (x - mu) / (var + epsilon) ** 0.5
    if weight is not None:
        y = y * reshape(weight, shape)
    if bias is not None:
        y = y + reshape(bias, shape)
    return y
