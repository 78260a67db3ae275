"""unfold (im2col), fold (col2im), the transposed convolutions conv1d_transpose and
conv2d_transpose, the power-average pools lp_pool1d/2d and the 3-D max and average pools
(over the 1-D pools' windows, pooling.py), written in opsdk's core ops as
nn.functional.conv is (see its docstring for the cost: a Python loop over the kernel's offsets,
each a whole-batch slice or placement).

fold places each kernel offset's block values on a zero canvas (interleaving zeros for the
stride, concatenating zeros for the offset) and sums the offsets, so it is linear with
gradients of every order; a transposed convolution is a matmul of the weight with x followed
by fold, cropped by the padding.
"""

import itertools
import math

from ...errors import OpArgumentError, ShapeError
from ...functional.creation import full
from ...functional.linalg import matmul
from ...functional.shape import concat, reshape, squeeze, stack, transpose, unsqueeze
from ._graph import float_arg
from .conv import _back, _nchw, _pair, _padding, _windows, conv_operands, same_undilated


def _unfold_pads(paddings, op, symmetric=False):
    """Paddle's unfold/fold paddings (an int, [ph, pw] or [top, left, bottom, right]) as
    [(top, bottom), (left, right)]; fold's must be symmetric (Paddle's fold refuses others)."""
    if isinstance(paddings, int):
        p = [paddings] * 4
    else:
        p = list(paddings)
        if len(p) == 2:
            p = p * 2
        if len(p) != 4 or not all(isinstance(v, int) for v in p):
            raise OpArgumentError(f"{op}: argument 'paddings' must be an int or a list of 2 or 4 "
                                  f"ints; got: {paddings!r}")
        if symmetric and (p[0] != p[2] or p[1] != p[3]):
            raise OpArgumentError(f"{op}: paddings [top, left, bottom, right] must have top == "
                                  f"bottom and left == right, as Paddle's fold takes them; got: "
                                  f"{paddings!r}")
    return [(p[0], p[2]), (p[1], p[3])]


def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """The sliding blocks of x [N, C, H, W] as columns: [N, C * kh * kw, L], L the number of
    block positions, each column ordered (channel, kernel row, kernel column).

    paddings: an int, [ph, pw] or [top, left, bottom, right] (Paddle's order).

    Example:
        >>> F.unfold(opsdk.ones([1, 2, 4, 4]), 2).shape
        paddle.Size([1, 8, 9])
    """
    op = "unfold"
    x = float_arg(x, op, "x")
    if x.ndim != 4:
        raise ShapeError(f"{op}: x must be [N, C, H, W]; got: {list(x.shape)}")
    kernel = _pair(kernel_sizes, 2, op, "kernel_sizes")
    stride, dilation = _pair(strides, 2, op, "strides"), _pair(dilations, 2, op, "dilations")
    win, (ho, wo) = _windows(x, kernel, stride, dilation, _unfold_pads(paddings, op), 0.0, op)
    n, c = x.shape[0], x.shape[1]
    return reshape(win, [n, c * kernel[0] * kernel[1], ho * wo])


def _place(t, axis, offset, stride, total):
    """t along axis put at offset, offset + stride, ... of a zero axis of length total."""
    length = t.shape[axis]
    if stride > 1 and length > 1:
        zeros = full(list(t.shape), 0.0, dtype=t.dtype)
        t = stack([t] + [zeros] * (stride - 1), axis=axis + 1)
        shape = list(t.shape[:axis]) + [length * stride] + list(t.shape[axis + 2:])
        index = (slice(None),) * axis + (slice(0, (length - 1) * stride + 1),)
        t = reshape(t, shape)[index]
    span = t.shape[axis]
    parts = []
    for n in (offset, total - offset - span):
        if n:
            shape = list(t.shape)
            shape[axis] = n
            parts.append(full(shape, 0.0, dtype=t.dtype))
        else:
            parts.append(None)
    return concat([p for p in (parts[0], t, parts[1]) if p is not None], axis=axis)


def _col2im(cols, kernel, blocks, canvas, stride, dilation):
    """cols [N, C, prod(kernel), *blocks] summed onto a zero canvas [N, C, *canvas]: the block
    value of kernel offset (i, j, ...) at block position (r, s, ...) lands on
    (r stride_0 + i dilation_0, s stride_1 + j dilation_1, ...)."""
    out = None
    for k, offset in enumerate(itertools.product(*[range(n) for n in kernel])):
        t = cols[:, :, k]
        for a, i in enumerate(offset):
            t = _place(t, 2 + a, i * dilation[a], stride[a], canvas[a])
        out = t if out is None else out + t
    return out


def _blocks(size, kernel, stride, dilation):
    return [(s - (k - 1) * d - 1) // st + 1 for s, k, st, d in zip(size, kernel, stride, dilation)]


def fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """The adjoint of unfold: columns [N, C * kh * kw, L] summed back into [N, C, H, W]
    (overlapping blocks add up), H, W = output_sizes.

    Example:
        >>> F.fold(opsdk.ones([1, 4, 9]), [4, 4], 2).numpy()[0, 0, 1].tolist()
        [2.0, 4.0, 4.0, 2.0]
    """
    op = "fold"
    x = float_arg(x, op, "x")
    if x.ndim != 3:
        raise ShapeError(f"{op}: x must be [N, C * kh * kw, L]; got: {list(x.shape)}")
    size = _pair(output_sizes, 2, op, "output_sizes")
    kernel = _pair(kernel_sizes, 2, op, "kernel_sizes")
    stride, dilation = _pair(strides, 2, op, "strides"), _pair(dilations, 2, op, "dilations")
    (pt, pb), (pl, pr) = _unfold_pads(paddings, op, symmetric=True)
    canvas = [size[0] + pt + pb, size[1] + pl + pr]
    bh, bw = _blocks(canvas, kernel, stride, dilation)
    n, ck, length = x.shape
    kk = kernel[0] * kernel[1]
    if bh < 1 or bw < 1 or bh * bw != length or ck % kk:
        raise ShapeError(f"{op}: output_sizes {size}, kernel_sizes {kernel}, strides {stride}, "
                         f"paddings and dilations {dilation} give {max(bh, 0)} x {max(bw, 0)} "
                         f"blocks of {kk} values per channel; got: x {list(x.shape)}")
    cols = reshape(x, [n, ck // kk, kk, bh, bw])
    out = _col2im(cols, kernel, (bh, bw), canvas, stride, dilation)
    return out[:, :, pt:pt + size[0], pl:pl + size[1]]


def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, dilation=1,
                     groups=1, output_size=None, data_format="NCHW", name=None):
    """The transposed 2-D convolution (the gradient of conv2d with respect to its input):
    x [N, C, H, W], weight [C, O / groups, kh, kw], bias [O] -> [N, O, Ho, Wo] with
    Ho = (H - 1) stride - pad_top - pad_bottom + dilation (kh - 1) + 1 + output_padding.

    padding: an int, [ph, pw], [top, bottom, left, right], 'SAME' (which ignores dilation, as
    Paddle) or 'VALID'; output_size picks output_padding (it must then lie below
    max(stride, dilation)).

    Example:
        >>> F.conv2d_transpose(opsdk.ones([1, 2, 3, 3]), opsdk.ones([2, 4, 2, 2]), stride=2).shape
        paddle.Size([1, 4, 6, 6])
    """
    op = "conv2d_transpose"
    x, weight = conv_operands(x, weight, data_format, op, "[C, O/groups, KH, KW]")
    y = _conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups,
                        output_size, op, data_format == "NHWC")
    return _back(y, data_format)


def _conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups,
                    output_size, op, channel_last):
    """The transposed convolution of x [N, C, *S] (channels first) by weight
    [C, O / groups, *kernel], any number of spatial axes: per group weight^T @ x gives the
    columns, fold (_col2im) sums them onto the canvas, the padding crops it."""
    nd = x.ndim - 2
    n, c, size = x.shape[0], x.shape[1], list(x.shape[2:])
    cin, og, kernel = weight.shape[0], weight.shape[1], list(weight.shape[2:])
    if groups < 1 or c % groups or cin != c:
        raise ShapeError(f"{op}: x has {c} channels, weight {list(weight.shape)} with "
                         f"groups={groups}; expected: weight.shape[0] == channels, divisible "
                         f"by groups")
    stride, dilation = _pair(stride, nd, op, "stride"), _pair(dilation, nd, op, "dilation")
    dilation = same_undilated(padding, dilation)
    pads = _padding(padding, size, kernel, stride, dilation, op, channel_last=channel_last)
    full_size = [(s - 1) * st + d * (k - 1) + 1
                 for s, st, d, k in zip(size, stride, dilation, kernel)]
    base = [f - p[0] - p[1] for f, p in zip(full_size, pads)]
    if output_size is not None:
        if output_padding not in (0, [0] * nd, (0,) * nd):
            raise OpArgumentError(f"{op}: output_padding and output_size exclude each other; "
                                  f"got: output_padding={output_padding!r}, output_size="
                                  f"{output_size!r}")
        extra = [o - b for o, b in zip(_pair(output_size, nd, op, "output_size"), base)]
    else:
        extra = _pair(output_padding, nd, op, "output_padding")
    for e, st, d in zip(extra, stride, dilation):
        if not 0 <= e < max(st, d):
            raise OpArgumentError(f"{op}: output_padding must lie in [0, max(stride, dilation))"
                                  f"; got: {extra} (stride {stride}, dilation {dilation})")
    out_size = [b + e for b, e in zip(base, extra)]
    canvas = [max(f, p[0] + o) for f, p, o in zip(full_size, pads, out_size)]
    cg, cells, taps = c // groups, math.prod(size), math.prod(kernel)
    xg = reshape(x, [n, groups, cg, cells])
    wg = reshape(weight, [1, groups, cg, og * taps])
    cols = reshape(matmul(wg, xg, transpose_x=True), [n, groups * og, taps] + size)
    y = _col2im(cols, kernel, size, canvas, stride, dilation)
    y = y[(slice(None), slice(None)) + tuple(slice(p[0], p[0] + o) for p, o in zip(pads, out_size))]
    if bias is not None:
        y = y + reshape(float_arg(bias, op, "bias"), [1, groups * og] + [1] * nd)
    return y


def conv1d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCL", name=None):
    """The transposed 1-D convolution: x [N, C, L], weight [C, O / groups, K] (conv2d_transpose
    over a height of 1)."""
    op = "conv1d_transpose"
    x = _nchw(float_arg(x, op, "x"), data_format, op, ndim=3)
    weight = float_arg(weight, op, "weight")
    if x.ndim != 3 or weight.ndim != 3:
        raise ShapeError(f"{op}: expected: x [N, C, L] and weight [C, O/groups, K]; got: "
                         f"{list(x.shape)} and {list(weight.shape)}")
    if isinstance(padding, str):
        pad = padding
    else:
        p = [padding] if isinstance(padding, int) else list(padding)
        if len(p) not in (1, 2):
            raise OpArgumentError(f"{op}: argument 'padding' must be an int or 1 or 2 ints; "
                                  f"got: {padding!r}")
        pad = [0, 0] + (p * 2 if len(p) == 1 else p)
    def one(v, arg, first=1):
        return [first, _pair(v, 1, op, arg)[0]]
    y = conv2d_transpose(unsqueeze(x, 2), unsqueeze(weight, 2), bias, one(stride, "stride"),
                         pad, one(output_padding, "output_padding", 0),
                         one(dilation, "dilation"), groups,
                         None if output_size is None else one(output_size, "output_size"))
    return _back(squeeze(y, 2), data_format, ndim=3)


__all__ = ["unfold", "fold", "conv1d_transpose", "conv2d_transpose"]  # and, below, lp_pool1d/2d


def lp_pool2d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
              data_format="NCHW", name=None):
    """(sum of x^p over each window)^(1/p), p = norm_type (padding adds nothing; a negative sum
    under a fractional power is NaN, as in Paddle). Windows as avg_pool2d's (stride defaults to
    the kernel; ceil_mode keeps the partial last window).

    Example:
        >>> F.lp_pool2d(opsdk.full([1, 1, 2, 2], 2.0), 2, 2).numpy().ravel().tolist()
        [4.0]
    """
    from .conv import _clipped_windows, _pool_args
    from .pooling import _along, _window_matrix
    op = "lp_pool2d"
    if norm_type == 0:
        raise OpArgumentError(f"{op}: norm_type must not be 0")
    p = float(norm_type)
    x, kernel, stride, pads = _pool_args(x, kernel_size, stride, padding, data_format, op)
    wins = _clipped_windows(x, kernel, stride, pads, padding, ceil_mode, op)
    y = x ** p
    for k, (_, _, start, end) in enumerate(wins):
        y = _along(y, 2 + k, _window_matrix(start, end, x.shape[2 + k]))
    return _back(y ** (1.0 / p), data_format)


def lp_pool1d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
              data_format="NCL", name=None):
    """lp_pool2d over [N, C, L] (or NLC): a height of 1."""
    op = "lp_pool1d"
    if data_format not in ("NCL", "NLC"):
        raise OpArgumentError(f"{op}: data_format must be 'NCL' or 'NLC'; got: {data_format!r}")
    x = float_arg(x, op, "x")
    if x.ndim != 3:
        raise ShapeError(f"{op}: expected: x [N, C, L]; got: {list(x.shape)}")
    axis = 2 if data_format == "NCL" else 1
    k = _pair(kernel_size, 1, op, "kernel_size")[0]
    s = k if stride is None else _pair(stride, 1, op, "stride")[0]
    if isinstance(padding, str):
        pad = padding
    else:
        pd = [padding] if isinstance(padding, int) else list(padding)
        pad = [0, 0] + (pd * 2 if len(pd) == 1 else pd)
    y = lp_pool2d(unsqueeze(x, axis), norm_type, [1, k], [1, s], pad, ceil_mode,
                  "NCHW" if data_format == "NCL" else "NHWC")
    return squeeze(y, axis)


__all__ += ["lp_pool1d", "lp_pool2d"]


def _pool3d_args(x, kernel_size, stride, padding, ceil_mode, data_format, op, mask=False):
    """x as NCDHW and Paddle's clipped windows per spatial axis [(start0, end0, start, end)]."""
    from .pooling import sliding_axis
    if data_format not in ("NCDHW", "NDHWC"):
        raise OpArgumentError(f"{op}: data_format must be 'NCDHW' or 'NDHWC'; got: "
                              f"{data_format!r}")
    x = float_arg(x, op, "x")
    if x.ndim != 5:
        raise ShapeError(f"{op}: expected: x [N, C, D, H, W]; got: {list(x.shape)}")
    if data_format == "NDHWC":
        x = transpose(x, [0, 4, 1, 2, 3])
    kernel = _pair(kernel_size, 3, op, "kernel_size")
    stride = kernel if stride is None else _pair(stride, 3, op, "stride")
    pads = _padding(padding, x.shape[2:], kernel, stride, [1, 1, 1], op)
    algorithm = padding.upper() if isinstance(padding, str) else "EXPLICIT"
    if algorithm == "VALID" and ceil_mode:
        raise OpArgumentError(f"{op}: padding='VALID' needs ceil_mode=False; got: "
                              f"ceil_mode=True")
    wins = [sliding_axis(x.shape[2 + k], kernel[k], stride[k], pads[k], algorithm, ceil_mode, op,
                         padding, mask) for k in range(3)]
    return x, kernel, wins


def _channels_last_3d(y, data_format):
    return transpose(y, [0, 2, 3, 4, 1]) if data_format == "NDHWC" else y


def max_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, return_mask=False,
               data_format="NCDHW", name=None):
    """The maximum over each window of x [N, C, D, H, W] (padding never wins); with
    return_mask also the int32 flat index d * H * W + h * W + w of each maximum (NCDHW only).
    """
    from .pooling import _max
    op = "max_pool3d"
    if return_mask and data_format != "NCDHW":
        raise OpArgumentError(f"{op}: return_mask=True needs data_format='NCDHW', as in Paddle; "
                              f"got: {data_format!r}")
    x, _, wins = _pool3d_args(x, kernel_size, stride, padding, ceil_mode, data_format, op,
                              bool(return_mask))
    out = _max(x, [(start, end) for _, _, start, end in wins], return_mask, op)
    return out if return_mask else _channels_last_3d(out, data_format)


def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCDHW", name=None):
    """The mean over each window of x [N, C, D, H, W]; exclusive (the default) leaves padded
    places out of the count; divisor_override rescales as avg_pool2d does."""
    from .pooling import _average
    op = "avg_pool3d"
    x, kernel, wins = _pool3d_args(x, kernel_size, stride, padding, ceil_mode, data_format, op)
    y = _average(x, [2, 3, 4], [(start, end, (end - start) if exclusive else (end0 - start0))
                                for start0, end0, start, end in wins])
    if divisor_override:
        y = y * (float(kernel[0] * kernel[1] * kernel[2]) / float(divisor_override))
    return _channels_last_3d(y, data_format)


__all__ += ["max_pool3d", "avg_pool3d"]


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_format="NCDHW", name=None):
    """3-D convolution (cross-correlation): x [N, C, D, H, W], weight [O, C / groups, KD, KH,
    KW], bias [O]; padding an int, 3 ints, 6 ints (front, back, top, bottom, left, right),
    'SAME' (which ignores dilation, as Paddle) or 'VALID'. The windows are strided slices
    stacked along a new axis, then one batched matmul, as conv2d.

    Example:
        >>> F.conv3d(opsdk.ones([1, 2, 3, 3, 3]), opsdk.ones([4, 2, 2, 2, 2])).shape
        paddle.Size([1, 4, 2, 2, 2])
    """
    op = "conv3d"
    if data_format not in ("NCDHW", "NDHWC"):
        raise OpArgumentError(f"{op}: data_format must be 'NCDHW' or 'NDHWC'; got: "
                              f"{data_format!r}")
    x = float_arg(x, op, "x")
    weight = float_arg(weight, op, "weight")
    if x.ndim != 5 or weight.ndim != 5:
        raise ShapeError(f"{op}: expected: x [N, C, D, H, W] and weight [O, C/groups, KD, KH, "
                         f"KW]; got: {list(x.shape)} and {list(weight.shape)}")
    if data_format == "NDHWC":
        x = transpose(x, [0, 4, 1, 2, 3])
    n, c = x.shape[0], x.shape[1]
    o, cg = weight.shape[0], weight.shape[1]
    kernel = list(weight.shape[2:])
    if groups < 1 or c % groups or o % groups or cg != c // groups:
        raise ShapeError(f"{op}: x has {c} channels, weight {list(weight.shape)} with "
                         f"groups={groups}; expected: weight.shape[1] == channels / groups, "
                         f"both divisible")
    stride, dilation = _pair(stride, 3, op, "stride"), _pair(dilation, 3, op, "dilation")
    dilation = same_undilated(padding, dilation)
    pads = _padding(padding, x.shape[2:], kernel, stride, dilation, op)
    for axis, (before, after) in zip((2, 3, 4), pads):
        parts = []
        for k in (before, after):
            shape = list(x.shape)
            shape[axis] = k
            parts.append(full(shape, 0.0, dtype=x.dtype) if k else None)
        x = concat([p for p in (parts[0], x, parts[1]) if p is not None], axis=axis)
    outs = [(s - (k - 1) * d - 1) // st + 1
            for s, k, st, d in zip(x.shape[2:], kernel, stride, dilation)]
    if min(outs) < 1:
        raise ShapeError(f"{op}: the kernel {kernel} (dilation {dilation}) does not fit the "
                         f"padded input of spatial shape {list(x.shape[2:])}")
    (kd, kh, kw), (sd, sh, sw), (dd, dh, dw), (od, oh, ow) = kernel, stride, dilation, outs
    windows = [x[:, :, i * dd:i * dd + sd * (od - 1) + 1:sd,
                 j * dh:j * dh + sh * (oh - 1) + 1:sh, k * dw:k * dw + sw * (ow - 1) + 1:sw]
               for i in range(kd) for j in range(kh) for k in range(kw)]
    cols = reshape(stack(windows, axis=2), [n, groups, cg * kd * kh * kw, od * oh * ow])
    w = reshape(weight, [1, groups, o // groups, cg * kd * kh * kw])
    y = reshape(matmul(w, cols), [n, o, od, oh, ow])
    if bias is not None:
        y = y + reshape(float_arg(bias, op, "bias"), [1, o, 1, 1, 1])
    return _channels_last_3d(y, data_format)


__all__ += ["conv3d"]


def conv3d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCDHW", name=None):
    """The transposed 3-D convolution (the gradient of conv3d with respect to its input):
    x [N, C, D, H, W], weight [C, O / groups, kd, kh, kw], bias [O] -> [N, O, Do, Ho, Wo],
    each size (S - 1) stride - pad_before - pad_after + dilation (k - 1) + 1 + output_padding.
    Paddle's argument order: groups before dilation (conv2d_transpose has them the other way).

    padding: an int, 3 ints, 6 ints (front, back, top, bottom, left, right), pairs per axis,
    'SAME' (which ignores dilation) or 'VALID'; output_size picks output_padding.

    Example:
        >>> w = opsdk.ones([2, 4, 2, 2, 2])
        >>> F.conv3d_transpose(opsdk.ones([1, 2, 3, 3, 3]), w, stride=2).shape
        paddle.Size([1, 4, 6, 6, 6])
    """
    op = "conv3d_transpose"
    if data_format not in ("NCDHW", "NDHWC"):
        raise OpArgumentError(f"{op}: data_format must be 'NCDHW' or 'NDHWC'; got: "
                              f"{data_format!r}")
    x, weight = float_arg(x, op, "x"), float_arg(weight, op, "weight")
    if x.ndim != 5 or weight.ndim != 5:
        raise ShapeError(f"{op}: expected: x [N, C, D, H, W] and weight [C, O/groups, KD, KH, "
                         f"KW]; got: {list(x.shape)} and {list(weight.shape)}")
    if data_format == "NDHWC":
        x = transpose(x, [0, 4, 1, 2, 3])
    y = _conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups,
                        output_size, op, data_format == "NDHWC")
    return _channels_last_3d(y, data_format)


__all__ += ["conv3d_transpose"]
