"""F.interpolate and F.upsample: Paddle 3.3.1's resampling (nearest, linear, bilinear,
trilinear, bicubic, area) in core ops.

Each spatial axis is resampled in turn: an output place reads one input row (nearest), two
(the linear modes) or four (bicubic) with fixed weights, each read an index_select, so the
gradient of an input element sums over the places that read it, to any order. The source rows
and weights are Paddle's kernels', per axis of input length ``n`` and output length ``m``:

- ``ratio``: 0 for m == 1 (except in the modes 'linear' and 'trilinear' without
  align_corners: Paddle's 1-D and 3-D kernels keep the ratio there); ``(n - 1) / (m - 1)`` with align_corners; else ``1 / scale`` when a
  scale_factor was given, ``n / m`` otherwise (in float32, as the kernels keep it);
- nearest: row ``int(ratio * k)`` (``int(ratio * k + 0.5)`` with align_corners);
- linear: ``src = ratio * (k + 0.5) - 0.5`` (clipped at 0) when align_mode == 0 and not
  align_corners, else ``ratio * k``; rows ``int(src)`` and the next (the last row repeats),
  weights ``1 - f`` and ``f`` for the fraction f;
- bicubic: ``src = ratio * k`` with align_corners, else ``ratio * (k + 0.5) - 0.5``; rows
  ``floor(src) - 1 .. + 2`` clamped into the axis, Keys' cubic weights with A = -0.75;
- area: the adaptive average pools.
"""
import inspect

import numpy as np

from ...errors import ArgumentTypeError, LayerArgumentError, OpArgumentError, UnsupportedError
from ...functional.indexing import index_select
from ...functional.shape import transpose
from ...tensor import Tensor, _wrap
from ._graph import float_arg
from .pooling import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d

_MODES = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}
_LAYOUTS = {3: ("NCW", "NWC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}
_CUBIC_A = -0.75


def _ratio(n, m, scale, align_corners, one_output_ratio):
    if m <= 1 and (align_corners or not one_output_ratio):
        return np.float32(0.0)
    if align_corners:
        return np.float32(n - 1) / np.float32(m - 1)
    return np.float32(1.0 / scale) if scale else np.float32(n) / np.float32(m)


def _nearest_rows(n, m, ratio, align_corners):
    k = np.arange(m, dtype=np.float64)
    src = float(ratio) * k + (0.5 if align_corners else 0.0)
    return np.minimum(src.astype(np.int64), n - 1)


def _linear_taps(n, m, ratio, align_corners, align_mode):
    k = np.arange(m, dtype=np.float64)
    r = float(ratio)
    if align_mode == 0 and not align_corners:
        src = np.maximum(r * (k + 0.5) - 0.5, 0.0)
    else:
        src = r * k
    lo = np.minimum(src.astype(np.int64), n - 1)
    hi = np.where(lo < n - 1, lo + 1, lo)
    frac = src - lo
    return [(lo, 1.0 - frac), (hi, frac)]


def _cubic_weights(t):
    a = _CUBIC_A

    def near(x):  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return [far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)]


def _cubic_taps(n, m, ratio, align_corners):
    k = np.arange(m, dtype=np.float64)
    r = float(ratio)
    src = r * k if align_corners else r * (k + 0.5) - 0.5
    base = np.floor(src).astype(np.int64)
    t = src - base
    return [(np.clip(base - 1 + i, 0, n - 1), w) for i, w in enumerate(_cubic_weights(t))]


def _along(x, axis, taps):
    """sum over taps of x's rows (along axis) times the weights."""
    shape = [1] * x.ndim
    out = None
    for rows, weight in taps:
        picked = index_select(x, _wrap(rows.astype(np.int64)), axis)
        if weight is not None:
            shape[axis] = len(rows)
            picked = picked * _wrap(np.asarray(weight, dtype=x.array.dtype).reshape(shape))
        out = picked if out is None else out + picked
    return out


def _sizes(x, spatial, size, scale_factor, recompute_scale_factor, op):
    """(output sizes, scales for the kernels' ratio or None) per spatial axis."""
    if size is not None and scale_factor is not None:
        raise OpArgumentError(f"{op}: only one of size or scale_factor should be given")
    if size is None and scale_factor is None:
        raise OpArgumentError(f"{op}: one of size and scale_factor must be given")
    lengths = [x.shape[a] for a in spatial]
    if size is not None:
        if recompute_scale_factor:
            raise OpArgumentError(f"{op}: recompute_scale_factor is not meaningful with an "
                                  f"explicit size")
        if isinstance(size, Tensor):
            size = size.tolist()
        if not isinstance(size, (list, tuple)):
            raise ArgumentTypeError(f"{op}: argument 'size' must be a list, tuple or Tensor; "
                                    f"got: {type(size).__name__}")
        sizes = [int(s.item() if isinstance(s, Tensor) else s) for s in size]
        if len(sizes) != len(spatial):
            raise OpArgumentError(f"{op}: size must have {len(spatial)} entries for a "
                                  f"{x.ndim}-D x; got: {list(size)}")
        if any(s <= 0 for s in sizes):
            # Paddle asserts "Each dimension size given in out_shape must be greater than 0"
            raise LayerArgumentError(f"{op}: every output size must be > 0; got: {sizes}")
        return sizes, [None] * len(spatial)
    if isinstance(scale_factor, Tensor):
        scale_factor = scale_factor.tolist()
    if isinstance(scale_factor, (list, tuple)):
        scales = [float(s) for s in scale_factor]
        if len(scales) != len(spatial):
            raise OpArgumentError(f"{op}: scale_factor must have {len(spatial)} entries for a "
                                  f"{x.ndim}-D x; got: {list(scale_factor)}")
    elif isinstance(scale_factor, (int, float, np.number)) and not isinstance(scale_factor,
                                                                            bool):
        scales = [float(scale_factor)] * len(spatial)
    else:
        raise ArgumentTypeError(f"{op}: argument 'scale_factor' must be a number, list, tuple "
                                f"or Tensor; got: {type(scale_factor).__name__}")
    if any(s <= 0 for s in scales):
        raise OpArgumentError(f"{op}: scale_factor must be > 0; got: {scales}")
    if recompute_scale_factor:
        # Paddle reads the lengths at axes 2.. here, whatever the layout
        return [int(np.floor(x.shape[i + 2] * s)) for i, s in enumerate(scales)], \
            [None] * len(spatial)
    sizes = [int(n * np.float32(s)) for n, s in zip(lengths, scales)]
    if any(m < 1 for m in sizes):
        raise OpArgumentError(f"{op}: scale_factor {scales} gives an empty output (input sizes "
                              f"{lengths}, output sizes {sizes})")
    return sizes, scales


def _interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
                 align_mode=0, data_format=None, recompute_scale_factor=None, name=None,
                 antialias=False):
    """Resize the spatial axes of x (3-D to 5-D) to ``size`` or by ``scale_factor``.

    Args:
        x: [N, C, W], [N, C, H, W] or [N, C, D, H, W] (or channels last by data_format).
        size: the output sizes of the spatial axes (a list, tuple or Tensor).
        scale_factor: a number or one per spatial axis (exclusive with size).
        mode: 'nearest' (4-D, 5-D), 'linear' (3-D), 'bilinear', 'bicubic' (4-D), 'trilinear'
            (5-D) or 'area' (the adaptive average pools).
        align_corners: map the corner samples onto each other (not with 'nearest').
        align_mode: 0 (half-pixel sources) or 1 (``ratio * k``) for the linear modes.
        data_format: NCW, NCHW, NCDHW (the default for the rank) or NWC, NHWC, NDHWC.
        recompute_scale_factor: take the output size from scale_factor, then the ratio from the
            sizes.

    Returns:
        The resized tensor, in x's layout.

    Example:
        >>> x = opsdk.to_tensor([[[1.0, 3.0]]])
        >>> F.interpolate(x, size=[3], mode="linear", align_corners=True).numpy().tolist()
        [[[1.0, 2.0, 3.0]]]
    """
    op = "interpolate"
    x = float_arg(x, op)
    ndim = x.ndim
    if ndim not in _LAYOUTS:
        raise OpArgumentError(f"{op}: x must be 3-D, 4-D or 5-D; got: {ndim}-D")
    mode_name = str(mode).lower()
    if mode_name not in ("nearest", "area") and mode_name not in _MODES:
        raise OpArgumentError(f"{op}: argument 'mode' must be one of 'area', 'linear', "
                              f"'bilinear', 'trilinear', 'bicubic' or 'nearest'; got: {mode!r}")
    if mode_name == "nearest" and ndim not in (4, 5):
        raise OpArgumentError(f"{op}: 'nearest' takes only a 4-D or 5-D x; got: {ndim}-D")
    if mode_name in _MODES and _MODES[mode_name] != ndim:
        raise OpArgumentError(f"{op}: '{mode_name}' takes only a {_MODES[mode_name]}-D x; got: "
                              f"{ndim}-D")
    if not isinstance(align_corners, bool):
        raise ArgumentTypeError(f"{op}: argument 'align_corners' must be a bool; got: "
                                f"{align_corners!r}")
    if align_mode not in (0, 1):
        raise OpArgumentError(f"{op}: align_mode must be 0 or 1; got: {align_mode!r}")
    if align_corners and mode_name == "nearest":
        raise OpArgumentError(f"{op}: align_corners goes only with the modes linear, bilinear, "
                              f"bicubic and trilinear")
    if antialias:
        raise UnsupportedError(f"{op}: antialias=True is not supported")
    if mode_name == "area":
        if size is None or (isinstance(size, (list, tuple)) and not size):
            raise OpArgumentError(f"{op}: mode 'area' needs an output size")
        pool = {3: adaptive_avg_pool1d, 4: adaptive_avg_pool2d, 5: adaptive_avg_pool3d}[ndim]
        return pool(x, size)
    first, last = _LAYOUTS[ndim]
    data_format = first if data_format is None else str(data_format).upper()
    if data_format not in (first, last):
        raise OpArgumentError(f"{op}: data_format for a {ndim}-D x must be {first} or {last}; "
                              f"got: {data_format!r}")
    channels_last = data_format == last
    if channels_last:
        x = transpose(x, [0, ndim - 1] + list(range(1, ndim - 1)))
    spatial = list(range(2, ndim))
    sizes, scales = _sizes(x, spatial, size, scale_factor, recompute_scale_factor, op)
    for axis, m, scale in zip(spatial, sizes, scales):
        n = x.shape[axis]
        ratio = _ratio(n, m, scale, align_corners, mode_name in ("linear", "trilinear"))
        if mode_name == "nearest":
            taps = [(_nearest_rows(n, m, ratio, align_corners), None)]
        elif mode_name == "bicubic":
            taps = _cubic_taps(n, m, ratio, align_corners)
        else:
            taps = _linear_taps(n, m, ratio, align_corners, align_mode)
        x = _along(x, axis, taps)
    if channels_last:
        x = transpose(x, [0] + list(range(2, ndim)) + [1])
    return x


def interpolate(*args, **kwargs):
    if "input" in kwargs:
        kwargs["x"] = kwargs.pop("input")
    if len(args) >= 6 and type(args[5]) is not int:
        # PyTorch's order: (input, size, scale_factor, mode, align_corners,
        # recompute_scale_factor, antialias), as Paddle tells them apart
        kwargs.update(zip(("recompute_scale_factor", "antialias"), args[5:7]))
        args = args[:5]
    return _interpolate(*args, **kwargs)


interpolate.__doc__ = _interpolate.__doc__
interpolate.__signature__ = inspect.signature(_interpolate)


def upsample(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
             align_mode=0, data_format=None, name=None):
    """interpolate (Paddle's other name for it)."""
    return _interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format)


__all__ = ["interpolate", "upsample"]
