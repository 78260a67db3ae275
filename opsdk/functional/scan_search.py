"""cummax, cummin, msort, searchsorted, bucketize, argwhere, histogram_bin_edges,
unique_consecutive: running extremes, sorted-sequence searches and their kin.

cummax and cummin take their values from x at the index they return (the last position of
an equal running extreme, as Paddle), so the gradient goes to those positions and adds up where
one is picked several times. The searches and argwhere return indices: no gradient.
"""
import numpy as np

from ..dtypes import convert_dtype, default_float
from ..errors import DTypeError, OpArgumentError, PreconditionShapeError, ShapeError
from ..autograd.record import index_result
from ..tensor import Tensor, _wrap, as_array
from .op_args import axis_arg, not_bool, scan_axis, tensor_arg
from .shape import flatten
from .sorting import take_along


def _index_dtype(dtype, op):
    dt = convert_dtype(dtype, op=op)
    if dt.name not in ("int32", "int64"):
        raise DTypeError(f"{op}: argument 'dtype' must be int32 or int64; got: {dt.name}")
    return dt


def _running(op, x, axis, dtype, better):
    # Paddle 3.3.1 has no bool kernel for cummax/cummin (RuntimeError NotFound)
    x = not_bool(tensor_arg(x, op), op)
    dt = _index_dtype(dtype, op)
    if axis is not None:
        scan_axis(axis, max(x._data.ndim, 1), op)
    if axis is None or x._data.ndim == 0:
        # Paddle: a 0-d x gives results of shape [1]
        x, axis = flatten(x), 0
    axis = axis_arg(axis, x._data.ndim, op)
    a = x._data
    acc = (np.maximum if better == "max" else np.minimum).accumulate(a, axis=axis)
    shape = [1] * a.ndim
    shape[axis] = a.shape[axis]
    pos = np.arange(a.shape[axis]).reshape(shape)
    # x[i] equal to the running extreme: it is one (the last such position wins, as Paddle)
    idx = np.maximum.accumulate(np.where(a == acc, pos, 0), axis=axis)
    values = take_along(op, x, idx, axis, unique=False)
    return values, index_result(x, idx.astype(dt))


def cummax(x, axis=None, dtype="int64", name=None):
    """(running maximum along axis, its int index); x flattened when axis is None.

    Example:
        >>> v, i = opsdk.cummax(opsdk.to_tensor([1.0, 3.0, 2.0, 3.0]))
        >>> v.tolist(), i.tolist()
        ([1.0, 3.0, 3.0, 3.0], [0, 1, 1, 3])
    """
    return _running("cummax", x, axis, dtype, "max")


def cummin(x, axis=None, dtype="int64", name=None):
    """(running minimum along axis, its int index); x flattened when axis is None.

    Example:
        >>> v, i = opsdk.cummin(opsdk.to_tensor([2.0, 1.0, 3.0]))
        >>> v.tolist(), i.tolist()
        ([2.0, 1.0, 1.0], [0, 1, 1])
    """
    return _running("cummin", x, axis, dtype, "min")


def msort(input, name=None):
    """input sorted along its first axis (paddle.sort(input, axis=0))."""
    from .sorting import sort
    return sort(tensor_arg(input, "msort"), axis=0)


def searchsorted(sorted_sequence, values, out_int32=False, right=False, name=None, *,
                 side=None, sorter=None):
    """Where each of values would go in sorted_sequence (its last axis; the leading axes
    pair up with values'), int64 (int32 with out_int32); right=True (side='right') puts an
    equal value after its equals.

    Example:
        >>> opsdk.searchsorted(opsdk.to_tensor([1, 3, 5]), opsdk.to_tensor([0, 3, 6])).tolist()
        [0, 1, 3]
    """
    seq = tensor_arg(sorted_sequence, "searchsorted", "sorted_sequence")
    vals = tensor_arg(values, "searchsorted", "values")
    if side is not None:
        if side not in ("left", "right"):
            raise OpArgumentError(f"searchsorted: side must be 'left' or 'right'; got: {side!r}")
        right = side == "right"
    s, v = seq._data, vals._data
    if sorter is not None:
        s = np.take_along_axis(s, tensor_arg(sorter, "searchsorted", "sorter")._data, -1)
    which = "right" if right else "left"
    if s.ndim == 0:
        raise ShapeError("searchsorted: sorted_sequence must have at least one axis; got: 0-d")
    if s.ndim == 1:
        out = np.searchsorted(s, v, side=which)
    else:
        if v.ndim != s.ndim or v.shape[:-1] != s.shape[:-1]:
            # a RuntimeError in Paddle (Unavailable)
            raise PreconditionShapeError(f"searchsorted: the leading axes of sorted_sequence and values "
                             f"must agree; got: {list(s.shape)} and {list(v.shape)}")
        rows_s, rows_v = s.reshape(-1, s.shape[-1]), v.reshape(-1, v.shape[-1])
        out = np.stack([np.searchsorted(a, b, side=which) for a, b in zip(rows_s, rows_v)])
        out = out.reshape(v.shape)
    return _wrap(as_array(np.asarray(out, dtype=np.int32 if out_int32 else np.int64)))


def bucketize(x, sorted_sequence, out_int32=False, right=False, name=None):
    """The bucket of each of x in the 1-D sorted_sequence (searchsorted with the roles
    swapped)."""
    seq = tensor_arg(sorted_sequence, "bucketize", "sorted_sequence")
    if seq._data.ndim != 1:
        raise ShapeError(f"bucketize: sorted_sequence must be 1-D; got: {seq._data.ndim}-D")
    return searchsorted(seq, x, out_int32=out_int32, right=right)


def argwhere(input, name=None):
    """The positions of input's non-zero elements, one row each ([count, ndim], int64)."""
    from .indexing import nonzero
    x = tensor_arg(input, "argwhere", "input")
    if x._data.ndim == 0:
        raise ShapeError("argwhere: input must have at least one axis; got: a 0-d tensor")
    return nonzero(x)


def histogram_bin_edges(input, bins=100, min=0.0, max=0.0, name=None):
    """bins + 1 evenly spaced edges from min to max (both 0: the data's range; an empty
    range widened by 1/2 each way), in the default float, as Paddle."""
    x = tensor_arg(input, "histogram_bin_edges", "input")
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 1:
        raise OpArgumentError(f"histogram_bin_edges: bins must be a positive int; got: {bins!r}")
    a = x._data
    if a.dtype.name not in ("float32", "float64", "int32", "int64"):
        raise DTypeError(f"histogram_bin_edges: argument 'input' has an unsupported dtype; "
                         f"expected: one of float32, float64, int32, int64; got: {a.dtype}")
    lo, hi = float(min), float(max)
    if lo == hi == 0:
        lo, hi = float(a.min()), float(a.max())
    elif hi < lo:
        raise OpArgumentError(f"histogram_bin_edges: max must be larger than min; "
                              f"got: min={lo}, max={hi}")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    # Paddle's linspace between the two numbers: the default float
    return _wrap(as_array(np.linspace(lo, hi, bins + 1).astype(default_float())))


def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None,
                       dtype="int64", name=None):
    """x with each run of equal consecutive elements (slices along axis) kept once; with
    return_inverse, each element's run; with return_counts, each run's length.

    Example:
        >>> opsdk.unique_consecutive(opsdk.to_tensor([1, 1, 2, 2, 3, 1])).tolist()
        [1, 2, 3, 1]
    """
    x = tensor_arg(x, "unique_consecutive")
    dt = _index_dtype(dtype, "unique_consecutive")
    a = x._data
    if axis is None:
        a, ax = a.reshape(-1), 0
    else:
        ax = axis_arg(axis, a.ndim, "unique_consecutive")
    moved = np.moveaxis(a, ax, 0)
    n = moved.shape[0]
    if n:
        flat = moved.reshape(n, -1)
        new = np.concatenate([[True], (flat[1:] != flat[:-1]).any(axis=1)])
    else:
        new = np.zeros(0, bool)
    starts = np.flatnonzero(new)
    out = [_wrap(as_array(np.moveaxis(moved[starts], 0, ax)))]
    if return_inverse:
        out.append(_wrap(as_array((np.cumsum(new) - 1).astype(dt))))
    if return_counts:
        out.append(_wrap(as_array(np.diff(np.append(starts, n)).astype(dt))))
    return out[0] if len(out) == 1 else tuple(out)


__all__ = ["cummax", "cummin", "msort", "searchsorted", "bucketize", "argwhere",
           "histogram_bin_edges", "unique_consecutive"]
