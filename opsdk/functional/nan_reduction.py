"""Reductions that skip NaN (nansum, nanmean) and count_nonzero."""
import numpy as np

from ..tensor import _wrap
from .casting import as_dtype
from .logic import where
from .op_args import tensor_arg
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
    x = tensor_arg(x, "nansum")
    axes = reduce_axes_arg(axis, x._data.ndim, "nansum")
    return _sum(_without_nan(x)[0], axis=list(axes), dtype=dtype, keepdim=keepdim)


def nanmean(x, axis=None, keepdim=False, name=None):
    """Mean over axis of the non-NaN elements; NaN where a slice has none.

    Integer inputs give float32, as in Paddle.

    Example:
        >>> float(opsdk.nanmean(opsdk.to_tensor([1.0, float("nan"), 2.0])))
        1.5
    """
    x = tensor_arg(x, "nanmean")
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
