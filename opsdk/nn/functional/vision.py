"""pixel_shuffle, pixel_unshuffle, channel_shuffle and temporal_shift: rearrangements of a 4-D
input's channels, pixels and frames (reshape, transpose, slices and concat, so gradients are
the inverse rearrangement)."""
from ...errors import ArgumentTypeError, OpArgumentError, ShapeError
from ...functional.shape import reshape, transpose
from ._graph import float_arg


def _nchw_arg(x, op, data_format):
    x = float_arg(x, op)  # Paddle's kernels take float32 and float64 only
    if x.ndim != 4:
        raise ShapeError(f"{op}: x must be a 4-D tensor [N, C, H, W] or [N, H, W, C]; got: "
                         f"{x.ndim}-D")
    if data_format not in ("NCHW", "NHWC"):
        raise OpArgumentError(f"{op}: data_format must be 'NCHW' or 'NHWC'; got: "
                              f"{data_format!r}")
    return x if data_format == "NCHW" else transpose(x, [0, 3, 1, 2])


def _back(y, data_format):
    return y if data_format == "NCHW" else transpose(y, [0, 2, 3, 1])


def _factor(v, op, arg):
    if not isinstance(v, int) or isinstance(v, bool):
        raise ArgumentTypeError(f"{op}: {arg} must be an int; got: {type(v).__name__}")
    if v <= 0:
        raise OpArgumentError(f"{op}: {arg} must be positive; got: {v}")
    return v


def pixel_shuffle(x, upscale_factor, data_format="NCHW", name=None):
    """[N, C r^2, H, W] -> [N, C, H r, W r]: out[n, c, h r + i, w r + j] =
    x[n, c r^2 + i r + j, h, w].

    Example:
        >>> F.pixel_shuffle(opsdk.ones([1, 8, 2, 3]), 2).shape
        paddle.Size([1, 2, 4, 6])
    """
    r = _factor(upscale_factor, "pixel_shuffle", "upscale_factor")
    x = _nchw_arg(x, "pixel_shuffle", data_format)
    n, c, h, w = x.shape
    if c % (r * r):
        raise ShapeError(f"pixel_shuffle: the channel count ({c}) must be divisible by "
                         f"upscale_factor^2 ({r * r})")
    y = transpose(reshape(x, [n, c // (r * r), r, r, h, w]), [0, 1, 4, 2, 5, 3])
    return _back(reshape(y, [n, c // (r * r), h * r, w * r]), data_format)


def pixel_unshuffle(x, downscale_factor, data_format="NCHW", name=None):
    """The inverse of pixel_shuffle: [N, C, H r, W r] -> [N, C r^2, H, W]."""
    r = _factor(downscale_factor, "pixel_unshuffle", "downscale_factor")
    x = _nchw_arg(x, "pixel_unshuffle", data_format)
    n, c, h, w = x.shape
    if h % r or w % r:
        raise ShapeError(f"pixel_unshuffle: downscale_factor ({r}) must divide both height "
                         f"({h}) and width ({w})")
    y = transpose(reshape(x, [n, c, h // r, r, w // r, r]), [0, 1, 3, 5, 2, 4])
    return _back(reshape(y, [n, c * r * r, h // r, w // r]), data_format)


def channel_shuffle(x, groups, data_format="NCHW", name=None):
    """Split the C channels into `groups` runs and interleave them: channel g (C / groups) + k
    moves to k groups + g."""
    g = _factor(groups, "channel_shuffle", "groups")
    x = _nchw_arg(x, "channel_shuffle", data_format)
    n, c, h, w = x.shape
    if c % g:
        raise ShapeError(f"channel_shuffle: groups ({g}) must divide the channel count ({c})")
    y = transpose(reshape(x, [n, g, c // g, h, w]), [0, 2, 1, 3, 4])
    return _back(reshape(y, [n, c, h, w]), data_format)


__all__ = ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle"]


def temporal_shift(x, seg_num, shift_ratio=0.25, name=None, data_format="NCHW"):
    """The temporal shift module (Lin et al., 2019): x [N T, C, H, W] holds N clips of seg_num
    frames; the first C shift_ratio channels take the previous frame's values, the next
    C shift_ratio the next frame's (zeros at the clip's ends), the rest stay.

    Example:
        >>> F.temporal_shift(opsdk.ones([6, 4, 2, 2]), seg_num=3).shape
        paddle.Size([6, 4, 2, 2])
    """
    from ...functional.creation import zeros
    from ...functional.shape import concat
    op = "temporal_shift"
    if not 0 < shift_ratio < 0.5:
        raise OpArgumentError(f"{op}: shift_ratio must lie in (0, 0.5); got: {shift_ratio}")
    if not isinstance(seg_num, int) or seg_num <= 0:
        raise OpArgumentError(f"{op}: seg_num must be a positive int; got: {seg_num!r}")
    x = _nchw_arg(x, op, data_format)
    nt, c, h, w = x.shape
    if nt % seg_num:
        raise ShapeError(f"{op}: the batch ({nt}) must be a multiple of seg_num ({seg_num})")
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    xr = reshape(x, [nt // seg_num, seg_num, c, h, w])
    pad = zeros([nt // seg_num, 1, c, h, w], dtype=x.dtype)
    back = concat([pad[:, :, :c1], xr[:, :-1, :c1]], axis=1)
    ahead = concat([xr[:, 1:, c1:c2], pad[:, :, c1:c2]], axis=1)
    out = concat([back, ahead, xr[:, :, c2:]], axis=2)
    return _back(reshape(out, [nt, c, h, w]), data_format)


__all__ += ["temporal_shift"]
