"""Reductions that skip NaN (nansum, nanmean, nanmedian) and count_nonzero."""
import numpy as np

from ..tensor import _wrap, as_array
from .casting import as_dtype
from .logic import where
from .op_args import not_bool, tensor_arg
from .products import reduce_axes_arg
from .reduction import sum as _sum


def _without_nan(x):
    """x with NaN replaced by 0 (a differentiable select: NaN positions get gradient 0)."""
    d = x._data
    if d.dtype.kind not in "fc":
        return x, None
    nan = np.isnan(d)
    return where(_wrap(nan), 0, x), nan


def nansum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over axis treating NaN as 0; NaN positions get gradient 0.

    Integer inputs sum in int64 (as sum does); an empty reduction gives 0.

    Example:
        >>> float(opsdk.nansum(opsdk.to_tensor([1.0, float("nan"), 2.0])))
        3.0
    """
    x = not_bool(tensor_arg(x, "nansum"), "nansum")
    axes = reduce_axes_arg(axis, x._data.ndim, "nansum")
    return _sum(_without_nan(x)[0], axis=list(axes), dtype=dtype, keepdim=keepdim)


def nanmean(x, axis=None, keepdim=False, name=None):
    """Mean over axis of the non-NaN elements; NaN where a slice has none.

    Integer inputs give float32, as in Paddle.

    Example:
        >>> float(opsdk.nanmean(opsdk.to_tensor([1.0, float("nan"), 2.0])))
        1.5
    """
    x = not_bool(tensor_arg(x, "nanmean"), "nanmean")
    if x._data.dtype.kind not in "fc":
        x = as_dtype(x, "float32", "nanmean")
    axes = reduce_axes_arg(axis, x._data.ndim, "nanmean")
    kept, nan = _without_nan(x)
    count = (~nan).sum(axis=axes, keepdims=keepdim)
    with np.errstate(divide="ignore"):
        # multiplying by a reciprocal keeps 0/0 (an all-NaN slice) out of backward
        inv = np.where(count > 0, 1.0 / count, np.nan).astype(x._data.dtype)
    return _sum(kept, axis=list(axes), keepdim=keepdim) * _wrap(np.asarray(inv))


def count_nonzero(x, axis=None, keepdim=False, name=None):
    """How many elements along axis are not zero (NaN counts); an int64 tensor.

    Example:
        >>> int(opsdk.count_nonzero(opsdk.to_tensor([0.0, 2.0, 3.0])))
        2
    """
    x = tensor_arg(x, "count_nonzero")
    axes = reduce_axes_arg(axis, x._data.ndim, "count_nonzero")
    out = np.count_nonzero(x._data, axis=axes, keepdims=keepdim)
    return _wrap(np.asarray(out, dtype=np.int64))


def _nanmedian_row(row, lower_only):
    """(value, weights, index) of one row: the median of its non-NaN values (the lower middle
    with lower_only), the gradient's share of each element (Paddle: the elements equal to the
    value share it; else the two middles take half each; an all-NaN row: every element), and
    the first position holding the value."""
    valid = np.flatnonzero(~np.isnan(row)) if row.dtype.kind == "f" else np.arange(row.size)
    w = np.zeros(row.size)
    if valid.size == 0:
        w[:] = 1.0 / max(row.size, 1)
        return row.dtype.type(np.nan), w, 0
    order = valid[np.argsort(row[valid], kind="stable")]
    lo, hi = order[(valid.size - 1) // 2], order[valid.size // 2]
    if lower_only:
        value = row[lo]
    else:
        with np.errstate(all="ignore"):
            value = np.asarray((row[lo].astype(np.float64) + row[hi]) / 2).astype(row.dtype)
    eq = row == value
    if eq.any():
        w[eq] = 1.0 / eq.sum()
        return value, w, int(np.argmax(eq))
    w[lo] += 0.5
    w[hi] += 0.5
    return value, w, int(lo)


def nanmedian(x, axis=None, keepdim=False, mode="avg", name=None):
    """The median of x's non-NaN values over axis (all axes when None; a list of axes counts
    as one), in x's dtype; mode='min' takes the lower middle and, with one int axis, also
    returns its int64 index. An all-NaN slice gives NaN.

    Example:
        >>> opsdk.nanmedian(opsdk.to_tensor([1.0, float("nan"), 3.0, 2.0])).item()
        2.0
    """
    from ..autograd.record import output_read_by_backward, record
    from ..errors import OpArgumentError
    from . import maths
    from .op_args import axis_arg
    x = not_bool(tensor_arg(x, "nanmedian"), "nanmedian")
    if mode not in ("avg", "min"):
        raise OpArgumentError(f"nanmedian: mode {mode!r} is not supported; expected: 'avg' or "
                              f"'min'")
    if isinstance(axis, (list, tuple)) and len(axis) == 0:
        raise OpArgumentError("nanmedian: the list of axes should not be empty")
    need_index = axis is not None and not isinstance(axis, (list, tuple))
    a = x._data
    nd = a.ndim
    if axis is None:
        axes = list(range(nd))
    else:
        axes = [axis_arg(ax, max(nd, 1), "nanmedian") for ax in
                (axis if isinstance(axis, (list, tuple)) else [axis])]
        axes = sorted(set(axes)) if nd else []
    kept = [1 if d in axes else s for d, s in enumerate(a.shape)]
    dst = list(range(nd - len(axes), nd))
    moved = np.moveaxis(a, axes, dst)
    # the row count spelled out: -1 cannot be inferred when the reduced axes have size 0 (the
    # median of nothing is NaN, as in Paddle)
    n = int(np.prod(moved.shape[nd - len(axes):], dtype=np.int64))
    rows = moved.reshape(int(np.prod(moved.shape[:nd - len(axes)], dtype=np.int64)), n)
    picked = [_nanmedian_row(r, mode == "min") for r in rows]
    values = np.array([p[0] for p in picked], dtype=a.dtype).reshape(kept)
    w = np.reshape([p[1] for p in picked], moved.shape)
    w = np.moveaxis(w, dst, axes).astype(a.dtype if a.dtype.kind == "f" else np.float64)
    out_shape = kept if keepdim else [s for d, s in enumerate(a.shape) if d not in axes]
    if need_index and mode == "min":
        idx = np.array([p[2] for p in picked], dtype=np.int64).reshape(out_shape)
        # the gradient goes to the index alone
        w = np.ones_like(w)
        if nd:
            w = np.zeros_like(w)
            np.put_along_axis(w, idx.reshape(kept), 1, axes[0])
    rule = (lambda g, shape, weights: maths.reshape(g, shape) * weights,)
    out = output_read_by_backward(record("nanmedian", values.reshape(out_shape), (x,), rule,
                                         (tuple(kept), w)))
    if need_index and mode == "min":
        return out, _wrap(as_array(idx))
    return out
