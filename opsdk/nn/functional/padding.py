"""F.pad: Paddle's four modes (constant, reflect, replicate, circular) in core ops.

Constant padding concatenates blocks of the value (a negative amount, where Paddle allows it,
crops); the other modes pick the input's rows along each padded axis with one index_select
(reflect mirrors about the edge without repeating it, replicate repeats the edge, circular
wraps around). So the gradient of each input element is the sum over the places it was copied
to, to any order.

Paddle's two readings of ``pad``:

- constant mode with a list whose length is not ``2 * (ndim - 2)``: pairs (before, after) from
  the last axis backward, missing pairs 0; a list of exactly ``2 * ndim`` goes from the first
  axis forward when ``pad_from_left_axis`` (the default). Amounts must be >= 0.
- otherwise (the other modes, a Tensor ``pad``, or ``2 * (ndim - 2)`` entries): x is 3-D, 4-D
  or 5-D and pad is (left, right[, top, bottom[, front, back]]) over its spatial axes (W, H, D
  from the last spatial axis backward), placed by ``data_format``.
"""
import numpy as np

from ...errors import ArgumentTypeError, LayerArgumentError, OpArgumentError, ShapeError
from ...functional.creation import full
from ...functional.indexing import index_select
from ...functional.op_args import aliases
from ...functional.shape import _ints, concat
from ...tensor import Tensor, _wrap, tensor_arg

_MODES = ("constant", "reflect", "replicate", "circular")
_LAYOUTS = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def _amounts(pad, op):
    if not isinstance(pad, (Tensor, list, tuple)):  # Paddle: a TypeError for an int
        raise ArgumentTypeError(f"{op}: argument 'pad' must be a list, tuple or Tensor of ints; "
                                f"got: {type(pad).__name__}")
    return _ints(pad, op, "pad")


def _constant_axis(x, axis, before, after, value):
    """x padded along axis with value (negative amounts crop)."""
    if before < 0 or after < 0:
        n = x.shape[axis]
        idx = [slice(None)] * x.ndim
        idx[axis] = slice(max(-before, 0), n - max(-after, 0))
        x = x[tuple(idx)]
        before, after = max(before, 0), max(after, 0)
    parts = []
    for amount in (before, after):
        if amount:
            shape = list(x.shape)
            shape[axis] = amount
            parts.append(full(shape, value, dtype=x.dtype))
        else:
            parts.append(None)
    pieces = [p for p in (parts[0], x, parts[1]) if p is not None]
    return x if len(pieces) == 1 else concat(pieces, axis=axis)


def _source_rows(n, before, after, mode, side, op):
    """The input row each output row of a padded axis copies (reflect, replicate, circular)."""
    rows = np.arange(-before, n + after)
    if mode == "reflect":
        if max(before, after) >= n:
            raise OpArgumentError(f"{op}: in reflect mode each pad must be smaller than the "
                                  f"padded axis; got: pad {[before, after]} for the {side} of "
                                  f"size {n}")
        rows = np.where(rows < 0, -rows, rows)
        return np.where(rows >= n, 2 * (n - 1) - rows, rows)
    if n == 0:
        raise ShapeError(f"{op}: cannot pad an empty {side} in {mode} mode")
    if mode == "replicate":
        return np.clip(rows, 0, n - 1)
    return np.mod(rows, n)  # circular


def _pad_axis(x, axis, before, after, mode, value, side, op):
    if mode == "constant":
        return _constant_axis(x, axis, before, after, value)
    rows = _source_rows(x.shape[axis], before, after, mode, side, op)
    return index_select(x, _wrap(rows.astype(np.int64)), axis)


@aliases(input="x")
def pad(x, pad, mode="constant", value=0.0, data_format=None, pad_from_left_axis=True,
        name=None):
    """x padded by the amounts in ``pad`` (see the module docstring for Paddle's two readings).

    Args:
        x: the tensor.
        pad: a list or tuple of ints, or an int Tensor.
        mode: 'constant' (value), 'reflect', 'replicate' or 'circular'.
        value: the constant for mode 'constant' (cast to x's dtype).
        data_format: NCL, NCHW, NCDHW (the default for 3-, 4-, 5-D x) or NLC, NHWC, NDHWC.
        pad_from_left_axis: with 2 * ndim amounts in constant mode, pair i pads axis i.

    Returns:
        The padded tensor.

    Example:
        >>> x = opsdk.to_tensor([[[1.0, 2.0, 3.0]]])
        >>> F.pad(x, [2, 1], mode="reflect").numpy().tolist()
        [[[3.0, 2.0, 1.0, 2.0, 3.0, 2.0]]]
    """
    op = "pad"
    x = tensor_arg(x, op)
    if mode not in _MODES:
        raise LayerArgumentError(f"{op}: argument 'mode' must be one of {', '.join(_MODES)}; "
                                 f"got: {mode!r}")
    ndim = x.ndim
    by_layout = isinstance(pad, Tensor)
    amounts = _amounts(pad, op)
    if by_layout and not amounts:
        return x.clone()
    if mode == "constant" and not by_layout and len(amounts) != 2 * (ndim - 2):
        return _pad_all_axes(x, amounts, value, pad_from_left_axis, op)
    if ndim not in _LAYOUTS:
        raise LayerArgumentError(f"{op}: x must be 3-D, 4-D or 5-D in {mode} mode (or with a "
                                 f"Tensor pad, or {2 * (ndim - 2)} amounts); got: {ndim}-D")
    first, last = _LAYOUTS[ndim]
    data_format = first if data_format is None else str(data_format).upper()
    if data_format not in (first, last):
        raise LayerArgumentError(f"{op}: data_format for a {ndim}-D x must be {first} or "
                                 f"{last}; got: {data_format!r}")
    spatial = ndim - 2
    if len(amounts) != 2 * spatial:
        raise OpArgumentError(f"{op}: expected {2 * spatial} amounts (before and after each "
                              f"spatial axis) for a {ndim}-D x; got: {len(amounts)}")
    axes = list(range(2, ndim)) if data_format == first else list(range(1, ndim - 1))
    sides = ("width", "height", "depth")
    # pad lists W first, then H, then D: the spatial axes from the last backward
    for k, axis in enumerate(reversed(axes)):
        x = _pad_axis(x, axis, amounts[2 * k], amounts[2 * k + 1], mode, value, sides[k], op)
    return x


def _pad_all_axes(x, amounts, value, pad_from_left_axis, op):
    """Constant padding with any number of amounts (Paddle's general pad op)."""
    ndim = x.ndim
    if any(a < 0 for a in amounts):
        raise OpArgumentError(f"{op}: every amount of constant padding must be >= 0 here; got: "
                              f"{amounts}")
    if len(amounts) == 2 * ndim and pad_from_left_axis:
        pairs = [(k, amounts[2 * k], amounts[2 * k + 1]) for k in range(ndim)]
    else:
        amounts = (amounts + [0] * (2 * ndim))[:2 * ndim]
        pairs = [(ndim - 1 - k, amounts[2 * k], amounts[2 * k + 1]) for k in range(ndim)]
    for axis, before, after in pairs:
        x = _constant_axis(x, axis, before, after, value)
    return x if any(b or a for _, b, a in pairs) else x.clone()


def zeropad2d(x, padding, data_format="NCHW", name=None):
    """pad(x, padding, 'constant', 0) of a 4-D x: padding is [left, right, top, bottom]."""
    return pad(x, padding, "constant", 0.0, data_format)


__all__ = ["pad", "zeropad2d"]
