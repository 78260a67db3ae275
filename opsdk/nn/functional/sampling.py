"""affine_grid and grid_sample (4-D and 5-D), with Paddle 3.3.1's coordinates, padding modes
and gradients, written in opsdk's core ops.

grid_sample maps each grid coordinate g in [-1, 1] to the input's pixel space,
``(g + 1) (L - 1) / 2`` with ``align_corners``, ``((g + 1) L - 1) / 2`` without, then applies
the padding mode: 'border' clips to [0, L - 1], 'reflection' mirrors at the borders (at the
pixel centres 0 and L - 1 with align_corners, at the edges -0.5 and L - 0.5 without) and clips,
'zeros' leaves the coordinate and counts a place outside the input as 0. 'bilinear' (trilinear
on 5-D input) weighs the 2 (8) neighbours by their distances; 'nearest' takes the neighbour
at the coordinate rounded half to even, as Paddle's CPU kernel does.

The neighbours' positions are found in NumPy (constants of the graph); the values are gathers
(``take``, whose gradient is a scatter-add) and the weights are core-op expressions of the grid,
so gradients flow to the input and the grid and differentiate again (Paddle has no second order
for grid_sample). Where the clip or the reflection is at a border Paddle's gradient through the
coordinate is 0, and so is this one. 'nearest' gives the grid a zero gradient, as Paddle.
"""
import itertools

import numpy as np

from ...errors import DTypeError, OpArgumentError, PreconditionShapeError, ShapeError
from ...functional.creation import to_tensor
from ...functional.flat_index import take
from ...functional.linalg import matmul
from ...functional.logic import where
from ...functional.shape import reshape, unsqueeze
from ...functional.unary import abs as _abs
from ._graph import float_arg, same_dtype

_MODES = ("bilinear", "nearest")
_PADDINGS = ("zeros", "reflection", "border")


def _const(a, like):
    return to_tensor(np.asarray(a), dtype=like.dtype)


def _clip(c, high):
    """c clipped to [0, high], the gradient passing only strictly inside (Paddle's mask)."""
    a = c.numpy()
    with np.errstate(invalid="ignore"):
        inside = (a > 0) & (a < high)
    return where(to_tensor(inside), c, _const(np.clip(a, 0, high), c))


def _reflect(c, twice_low, twice_high):
    """c mirrored into [twice_low / 2, twice_high / 2] (the flips counted in NumPy)."""
    if twice_low == twice_high:
        return c * 0.0
    low, span = twice_low / 2.0, (twice_high - twice_low) / 2.0
    d = _abs(c - low)
    with np.errstate(invalid="ignore"):
        flips = np.floor(d.numpy() / span)
        even = np.fmod(flips, 2) == 0
    extra = d - _const(flips * span, c)
    return where(to_tensor(even), extra + low, (span + low) - extra)


def _pixel_coords(g, length, align_corners, padding_mode):
    """Grid coordinates g [N, *out] in [-1, 1] as (padded) positions along an axis of length."""
    if align_corners:
        c = (g + 1.0) * ((length - 1) / 2.0)
    else:
        c = ((g + 1.0) * float(length) - 1.0) / 2.0
    if padding_mode == "border":
        return _clip(c, length - 1)
    if padding_mode == "reflection":
        c = (_reflect(c, 0, 2 * (length - 1)) if align_corners
             else _reflect(c, -1, 2 * length - 1))
        return _clip(c, length - 1)
    return c


def _gather(x, index, valid, op):
    """x [N, C, *S] at the spatial positions index [N, *out] (per axis), 0 where not valid."""
    n, c, sizes = x.shape[0], x.shape[1], x.shape[2:]
    flat = np.zeros(index[0].shape, dtype=np.int64)
    for idx, length in zip(index, sizes):
        flat = flat * length + np.where(valid, idx, 0).astype(np.int64)
    plane = int(np.prod(sizes, dtype=np.int64))
    base = (np.arange(n * c, dtype=np.int64) * plane).reshape([n, c] + [1] * (flat.ndim - 1))
    return take(op, x, base + flat[:, None], unique=False)


def _check_sample_args(x, grid, mode, padding_mode, op):
    if mode not in _MODES:
        raise OpArgumentError(f"{op}: argument 'mode' must be one of {list(_MODES)}; got: "
                              f"{mode!r}")
    if padding_mode not in _PADDINGS:
        raise OpArgumentError(f"{op}: argument 'padding_mode' must be one of {list(_PADDINGS)}"
                              f"; got: {padding_mode!r}")
    x, grid = float_arg(x, op, "x"), float_arg(grid, op, "grid")
    if x.ndim not in (4, 5) or grid.ndim != x.ndim:
        raise ShapeError(f"{op}: expected: x [N, C, H, W] with grid [N, H_out, W_out, 2], or x "
                         f"[N, C, D, H, W] with grid [N, D_out, H_out, W_out, 3]; got: x "
                         f"{list(x.shape)} and grid {list(grid.shape)}")
    nd = x.ndim - 2
    if grid.shape[-1] != nd or grid.shape[0] != x.shape[0]:
        raise ShapeError(f"{op}: grid must be [N, *out, {nd}] with x's batch {x.shape[0]}; got: "
                         f"grid {list(grid.shape)}")
    same_dtype(op, x=x, grid=grid)
    return x, grid


def grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True, name=None):
    """x [N, C, H, W] (or [N, C, D, H, W]) sampled at grid [N, H_out, W_out, 2] (or
    [N, D_out, H_out, W_out, 3]) of (x, y[, z]) coordinates in [-1, 1] -> [N, C, *out].

    mode: 'bilinear' (trilinear on 5-D input) or 'nearest'; padding_mode: 'zeros', 'border'
    or 'reflection'; align_corners: -1 and 1 are the corner pixels' centres (True) or edges.

    Example:
        >>> x = opsdk.to_tensor([[[[0.0, 1.0], [2.0, 3.0]]]])
        >>> F.grid_sample(x, opsdk.zeros([1, 1, 1, 2])).numpy().ravel().tolist()
        [1.5]
    """
    op = "grid_sample"
    x, grid = _check_sample_args(x, grid, mode, padding_mode, op)
    nd = x.ndim - 2
    sizes = x.shape[2:]
    # spatial axis a (D, H, W order) takes grid component nd - 1 - a (x is the width)
    coords = [_pixel_coords(grid[..., nd - 1 - a], sizes[a], align_corners, padding_mode)
              for a in range(nd)]
    arrays = [c.numpy() for c in coords]
    if mode == "nearest":
        with np.errstate(invalid="ignore"):
            index = [np.rint(a) for a in arrays]
            valid = np.logical_and.reduce([(i >= 0) & (i <= s - 1) for i, s in zip(index, sizes)])
        # times a zero function of the grid: the grid's gradient is 0 (not missing), as Paddle
        keep = _const(valid, x) + sum(coords[1:], coords[0]) * 0.0
        return _gather(x, index, valid, op) * unsqueeze(keep, 1)
    with np.errstate(invalid="ignore"):
        low = [np.floor(a) for a in arrays]
    upper = [c - _const(f, c) for c, f in zip(coords, low)]  # weight of the upper neighbour
    out = None
    for corner in itertools.product((0, 1), repeat=nd):
        index = [f + b for f, b in zip(low, corner)]
        with np.errstate(invalid="ignore"):
            valid = np.logical_and.reduce([(i >= 0) & (i <= s - 1)
                                           for i, s in zip(index, sizes)])
        weight = None
        for w, b in zip(upper, corner):
            w = w if b else 1.0 - w
            weight = w if weight is None else weight * w
        term = _gather(x, index, valid, op) * unsqueeze(weight * _const(valid, x), 1)
        out = term if out is None else out + term
    return out


def _base_axis(n, align_corners):
    """The normalized coordinates of n places: Paddle's linspace(-1, 1, n) (NaN for one place,
    as there), scaled by (n - 1) / n without align_corners."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if align_corners:
            return -1.0 + np.arange(n) * (2.0 / (n - 1) if n > 1 else np.inf)
        return (np.arange(n) * 2.0 + 1.0) / n - 1.0


def affine_grid(theta, out_shape, align_corners=True, name=None):
    """The sampling grid of the affine maps theta [N, 2, 3] (or [N, 3, 4]) over an output of
    shape out_shape [N, C, H, W] (or [N, C, D, H, W]): [N, H, W, 2] (or [N, D, H, W, 3]),
    theta applied to each place's normalized (x, y[, z], 1); grid_sample's input.

    Example:
        >>> theta = opsdk.to_tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> F.affine_grid(theta, [1, 1, 2, 2]).numpy()[0, 0].tolist()
        [[-1.0, -1.0], [1.0, -1.0]]
    """
    op = "affine_grid"
    theta = float_arg(theta, op, "theta")
    if hasattr(out_shape, "numpy"):
        out_shape = out_shape.numpy().tolist()
    if not isinstance(out_shape, (list, tuple, int, np.integer)):
        raise DTypeError(f"{op}: argument 'out_shape' must be a list, tuple, int or Tensor; "
                         f"got: {type(out_shape).__name__}")
    if not isinstance(out_shape, (list, tuple)) or len(out_shape) not in (4, 5):
        raise ShapeError(f"{op}: argument 'out_shape' must be [N, C, H, W] or [N, C, D, H, W]; "
                         f"got: {out_shape!r}")
    nd = len(out_shape) - 2
    if theta.ndim != 3:
        raise ShapeError(f"{op}: argument 'theta' must be [N, {nd}, {nd + 1}]; got: "
                         f"{list(theta.shape)}")
    if list(theta.shape[1:]) != [nd, nd + 1]:
        # Paddle reads past theta's memory there (a RuntimeError for 5-D out_shape)
        raise PreconditionShapeError(f"{op}: argument 'theta' must be [N, {nd}, {nd + 1}] for "
                                     f"out_shape {list(out_shape)}; got: {list(theta.shape)}")
    spatial = [int(s) for s in out_shape[2:]]
    axes = np.meshgrid(*[_base_axis(s, align_corners) for s in spatial], indexing="ij")
    # columns (x, y[, z], 1): x runs along the last axis
    base = np.stack([a.reshape(-1) for a in reversed(axes)] + [np.ones(axes[0].size)], axis=1)
    grid = matmul(_const(base[None], theta), theta, transpose_y=True)
    return reshape(grid, [theta.shape[0]] + spatial + [nd])


__all__ = ["affine_grid", "grid_sample"]
