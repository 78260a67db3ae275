"""Sorting: sort, argsort, topk.

NaN sorts as the largest value, as in Paddle. Among equal values the order is Paddle's: the one
its std::sort / std::nth_element leave (stl_order replays them on the rows with ties), and the
input order with stable=True.
"""
from collections import namedtuple

import numpy as np

from ..autograd.record import index_result, needs_grad
from ..errors import OpArgumentError
from ..tensor import _wrap
from .flat_index import positions, take
from .op_args import aliases, axis_arg, int_arg, tensor_arg
from .stl_order import replay_rows, same, sort_row, topk_row

# what topk returns, as Paddle's TopKRetType: a tuple whose parts also have names
TopKRetType = namedtuple("TopKRetType", ["values", "indices"])

# std::sort insertion-sorts ranges of up to 16: shorter rows come out stable anyway
_STABLE_UP_TO = 16


def sort_order(a, axis, descending=False):
    """Stable argsort along axis; NaN counts as the largest value (last up, first down)."""
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    # sorting the reversed array up and reversing back keeps equal values in input order
    n = a.shape[axis]
    up = np.argsort(np.flip(a, axis), axis=axis, kind="stable")
    return np.ascontiguousarray(np.flip(n - 1 - up, axis))


def paddle_order(a, axis, descending=False):
    """sort_order, with the rows longer than 16 that hold equal values in std::sort's order."""
    order = sort_order(a, axis, descending)
    n = a.shape[axis]
    if n <= _STABLE_UP_TO or a.size == 0:
        return order
    s = np.take_along_axis(a, order, axis)
    head = (slice(None),) * axis
    tied = same(s[head + (slice(1, None),)], s[head + (slice(0, -1),)]).any(axis=axis)
    return replay_rows(a, axis, order, tied, lambda row: sort_row(row, descending))


def take_along(name, x, idx, axis, unique=True):
    """x's values at idx along axis (idx has x's ndim), recorded as op ``name``.

    On the other axes idx may be shorter than x: it reads x's leading part there.
    unique=False when idx may repeat a position (the gradients then add up).
    """
    xd = x._data
    region = tuple(slice(0, s) if d != axis else slice(None) for d, s in enumerate(idx.shape))
    if not needs_grad(x):
        return _wrap(np.take_along_axis(xd[region], idx, axis))
    return take(name, x, np.take_along_axis(positions(xd.shape, like=idx)[region], idx, axis), unique)


def _as_1d(x):
    """A 0-d tensor's data as one element along axis 0 (sorting ops treat it as length 1)."""
    return x._data.reshape(1) if x._data.ndim == 0 else x._data


def sort(x, axis=-1, descending=False, stable=False, name=None):
    """Sort along axis; the gradient goes back to each value's input position.

    Args:
        x: the tensor.
        axis: the axis to sort along (-1, the last, by default).
        descending: sort from the largest down.
        stable: keep equal values in input order (else they come in Paddle's order).

    Returns:
        The sorted tensor (a copy).

    Example:
        >>> opsdk.sort(opsdk.to_tensor([3.0, 1.0, 2.0])).numpy()
        array([1., 2., 3.], dtype=float32)
    """
    x = tensor_arg(x, "sort")
    xd = x._data
    axis = axis_arg(axis, xd.ndim, "sort")
    if xd.ndim == 0:
        return take("sort", x, np.zeros((), dtype=np.int64))
    order = sort_order(xd, axis, descending) if stable else paddle_order(xd, axis, descending)
    return take_along("sort", x, order, axis)


@aliases(input="x", dim="axis")
def argsort(x, axis=-1, descending=False, stable=False, name=None):
    """The int64 indices that sort x along axis (ties as in sort).

    Example:
        >>> opsdk.argsort(opsdk.to_tensor([3.0, 1.0, 2.0])).numpy()
        array([1, 2, 0])
    """
    x = tensor_arg(x, "argsort")
    xd = x._data
    axis = axis_arg(axis, xd.ndim, "argsort")
    if xd.ndim == 0:
        return index_result(x, np.zeros((), dtype=np.int64))
    return index_result(x, sort_order(xd, axis, descending) if stable
                        else paddle_order(xd, axis, descending))


def _k_arg(k, n, op, axis):
    k = int_arg(k, op, "k")
    if k < 1:
        raise OpArgumentError(f"{op}: argument 'k' must be at least 1; got: {k}")
    if k > n:
        raise OpArgumentError(f"{op}: argument 'k' exceeds the size of axis {axis}; expected: "
                              f"k <= {n}; got: {k}")
    return k


@aliases(input="x", dim="axis")
def topk(x, k, axis=None, largest=True, sorted=True, name=None):
    """The k largest (or smallest) values along axis and their int64 indices.

    Among equal values the indices are Paddle's; with sorted=False the k values come in the
    order Paddle's selection leaves them (sorted past a size budget).

    Args:
        x: the tensor.
        k: how many values (1 <= k <= size of axis).
        axis: the axis (the last when None).
        largest: the largest values (True) or the smallest.
        sorted: sort the k values (else Paddle's selection order).

    Returns:
        TopKRetType(values, indices) (a named tuple, as Paddle's), each of x's shape with axis
        cut to k.

    Example:
        >>> v, i = opsdk.topk(opsdk.to_tensor([1.0, 3.0, 2.0]), 2)
        >>> v.numpy(), i.numpy()
        (array([3., 2.], dtype=float32), array([1, 2]))
    """
    x = tensor_arg(x, "topk")
    xd = x._data
    axis = axis_arg(-1 if axis is None else axis, xd.ndim, "topk")
    k = _k_arg(k, _as_1d(x).shape[axis], "topk", axis)
    if xd.ndim == 0:
        return TopKRetType(take("topk", x, np.zeros((), dtype=np.int64)),
                           index_result(x, np.zeros((), np.int64)))
    n = xd.shape[axis]
    if 8 * k < n and xd.size:
        idx = _top_order(xd, axis, k, largest)
    else:
        order = sort_order(xd, axis, descending=largest)
        idx = np.ascontiguousarray(order[(slice(None),) * axis + (slice(0, k),)])
    if n > 3 and xd.size:
        # unsorted, Paddle returns the selection as std::nth_element leaves it: every row
        # replays; sorted, only rows whose equal values make the pick ambiguous
        need = _ties_matter(xd, idx, axis) if sorted or 64 * k < n else \
            np.ones(idx.shape[:axis] + idx.shape[axis + 1:], dtype=bool)
        idx = replay_rows(xd, axis, idx, need, lambda row: topk_row(row, k, largest, sorted))
    return TopKRetType(take_along("topk", x, idx, axis), index_result(x, idx))


def _ties_matter(a, idx, axis):
    """Rows where equal values make the pick ambiguous: two of the picked values are equal,
    or the last picked one also occurs among the others."""
    sel = np.take_along_axis(a, idx, axis)
    k = idx.shape[axis]
    head = (slice(None),) * axis
    dup = same(sel[head + (slice(1, None),)], sel[head + (slice(0, -1),)]).any(axis=axis)
    last = sel[head + (slice(k - 1, k),)]
    outside = same(a, last).sum(axis=axis) > same(sel, last).sum(axis=axis)
    return dup | outside


def _top_order(a, axis, k, largest):
    """The first k of sort_order(a, axis, largest) in O(n): a partition finds the k-th value,
    then everything before it plus the first equal ones in index order, sorted (stable)."""
    rows = np.moveaxis(a, axis, -1)
    n = rows.shape[-1]
    kth = np.partition(rows, n - k if largest else k - 1, axis=-1)[..., [n - k if largest
                                                                         else k - 1]]
    with np.errstate(invalid="ignore"):
        if rows.dtype.kind == "f":
            nan, kth_nan = np.isnan(rows), np.isnan(kth)
            before = ((rows > kth) | (nan & ~kth_nan)) if largest else \
                np.where(kth_nan, ~nan, rows < kth)
            equal = (rows == kth) | (nan & kth_nan)
        else:
            before = rows > kth if largest else rows < kth
            equal = rows == kth
    need = k - before.sum(axis=-1, keepdims=True)
    pick = before | (equal & (np.cumsum(equal, axis=-1) <= need))
    cols = np.nonzero(pick.reshape(-1, n))[1].reshape(rows.shape[:-1] + (k,))
    vals = np.take_along_axis(rows, cols, -1)
    order = np.take_along_axis(cols, sort_order(vals, -1, descending=largest), -1)
    return np.ascontiguousarray(np.moveaxis(order, -1, axis))
