"""Order statistics along an axis: kthvalue, mode, median, quantile, nanquantile.

An output that comes with an index takes its value from x at that index, so its gradient goes
there. Among equal values the index is the one Paddle returns (stl_order replays its
selection). median's value-only outputs follow Paddle's gradient rule: equal middle values share
it with every element equal to them, two different ones take half each.
"""
import functools

import numpy as np

from ..autograd.record import index_result, output_read_by_backward, record
from ..errors import OpArgumentError
from ..tensor import _wrap
from . import maths
from .casting import cast
from .op_args import axis_arg, not_bool, tensor_arg
from .shape import as_shape
from .sorting import _k_arg, sort_order, take_along
from .stl_order import kthvalue_row, median_row, mode_row, replay_rows, same


def _keep_or_drop(t, axis, keepdim):
    if keepdim:
        return t
    shape = list(t._data.shape)
    del shape[axis]
    return as_shape(t, shape)


def _drop(a, axis, keepdim):
    return a if keepdim else np.squeeze(a, axis)


def _reduced_axis(x, axis, op):
    """(data viewed with at least one axis, axis, was_0d)."""
    xd = x._data
    axis = axis_arg(axis, xd.ndim, op)
    if xd.ndim == 0:
        return as_shape(x, [1]), 0, True
    return x, axis, False


def _empty_axis_error(op, axis):
    return OpArgumentError(f"{op}: axis {axis} is empty; expected: at least one element "
                           f"along the axis")


def _finish(op, x, idx, axis, keepdim, zero_d):
    """(values, int64 indices) for idx (keepdim shape) picked along axis."""
    values = take_along(op, x, idx, axis)
    if zero_d:
        return as_shape(values, []), index_result(x, idx.reshape(()))
    return _keep_or_drop(values, axis, keepdim), index_result(x, _drop(idx, axis, keepdim))


def kthvalue(x, k, axis=None, keepdim=False, name=None):
    """The k-th smallest value along axis (the last when None) and its int64 index.

    Args:
        x: the tensor.
        k: the rank, 1 <= k <= size of axis (ties keep their input order).
        axis: the axis to reduce.
        keepdim: keep the reduced axis with size 1.

    Returns:
        (values, indices).

    Example:
        >>> v, i = opsdk.kthvalue(opsdk.to_tensor([3.0, 1.0, 2.0]), 2)
        >>> float(v), int(i)
        (2.0, 2)
    """
    x = not_bool(tensor_arg(x, "kthvalue"), "kthvalue")
    x, axis, zero_d = _reduced_axis(x, -1 if axis is None else axis, "kthvalue")
    n = x._data.shape[axis]
    if n == 0:
        raise _empty_axis_error("kthvalue", axis)
    k = _k_arg(k, n, "kthvalue", axis)
    a = x._data
    order = sort_order(a, axis)
    idx = np.ascontiguousarray(order[(slice(None),) * axis + (slice(k - 1, k),)])
    if n > 3:  # among equal values, the one Paddle's selection leaves at k
        tied = same(a, np.take_along_axis(a, idx, axis)).sum(axis=axis) > 1
        idx = replay_rows(a, axis, idx, tied, lambda row: [kthvalue_row(row, k)])
    return _finish("kthvalue", x, idx, axis, keepdim, zero_d)


def _mode_index(a, axis):
    """Index (keepdim shape) of the most frequent value; ties go to the smallest value, and
    the index is its last occurrence (in Paddle's sort order past 16 elements). NaN never
    equals NaN, so each counts once."""
    moved = np.moveaxis(a, axis, -1)
    n = moved.shape[-1]
    rows = moved.reshape(-1, n)
    order = np.argsort(rows, axis=1, kind="stable")
    s = np.take_along_axis(rows, order, axis=1)
    change = s[:, 1:] != s[:, :-1]
    start = np.concatenate([np.ones((len(s), 1), bool), change], axis=1)
    end = np.concatenate([change, np.ones((len(s), 1), bool)], axis=1)
    pos = np.arange(n)
    run_start = np.maximum.accumulate(np.where(start, pos, 0), axis=1)
    length = np.where(end, pos - run_start + 1, 0)
    best = np.argmax(length, axis=1)  # the first (smallest) value with the largest count
    idx = np.moveaxis(order[np.arange(len(s)), best].reshape(moved.shape[:-1] + (1,)), -1, axis)
    if n > 16:  # past 16, Paddle's std::sort leaves equal values in its own order
        tied = (length.max(axis=1) > 1).reshape(moved.shape[:-1])
        idx = replay_rows(a, axis, idx, tied, lambda row: [mode_row(row)])
    return idx


def mode(x, axis=-1, keepdim=False, name=None):
    """The most frequent value along axis and the int64 index of its last occurrence.

    Among equally frequent values the smallest wins, as in Paddle.

    Example:
        >>> v, i = opsdk.mode(opsdk.to_tensor([2.0, 1.0, 2.0]))
        >>> float(v), int(i)
        (2.0, 2)
    """
    x = not_bool(tensor_arg(x, "mode"), "mode")
    x, axis, zero_d = _reduced_axis(x, axis, "mode")
    if x._data.shape[axis] == 0:
        raise _empty_axis_error("mode", axis)
    if x._data.size == 0:
        shape = list(x._data.shape)
        shape[axis] = 1
        return _finish("mode", x, np.zeros(shape, np.int64), axis, keepdim, zero_d)
    return _finish("mode", x, _mode_index(x._data, axis), axis, keepdim, zero_d)


# -- median -----------------------------------------------------------------------------------
def _middle(a, axis):
    """(lower, upper) middle indices along axis (keepdim shape), as Paddle picks them among
    equal values (stl_order.median_row); a row with NaN points at its first NaN."""
    n = a.shape[axis]
    order = sort_order(a, axis)
    lo = np.take(order, [(n - 1) // 2], axis=axis)
    hi = np.take(order, [n // 2], axis=axis)
    if n > 3:
        pair = np.concatenate([lo, hi], axis=axis)
        vals = np.take_along_axis(a, pair, axis)
        head = (slice(None),) * axis
        tied = (same(a, vals[head + (slice(0, 1),)]).sum(axis=axis) > 1) | \
            (same(a, vals[head + (slice(1, 2),)]).sum(axis=axis) > 1)
        pair = replay_rows(a, axis, pair, tied, lambda row: list(median_row(row)))
        lo, hi = pair[head + (slice(0, 1),)], pair[head + (slice(1, 2),)]
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        first = np.expand_dims(np.argmax(nan, axis=axis), axis)
        has = nan.any(axis=axis, keepdims=True)
        lo, hi = np.where(has, first, lo), np.where(has, first, hi)
    return np.ascontiguousarray(lo), np.ascontiguousarray(hi)


def _median_weights(a, axis, lower_only):
    """(middle values, weights): out = the middle value (or the mean of the two), gradient =
    g * weights. As Paddle: equal middle values share it with every element equal to them, two
    different ones take half each at Paddle's indices, NaN shares it among the NaNs."""
    lo_i, hi_i = _middle(a, axis)
    lo = np.take_along_axis(a, lo_i, axis)
    hi = lo if lower_only else np.take_along_axis(a, hi_i, axis)
    with np.errstate(all="ignore"):
        value = (lo if lower_only else (lo + hi) / 2).astype(a.dtype, copy=False)
        # the elements equal to the result share the gradient (the rounded mean too, as in
        # Paddle: (1 + -inf) / 2 goes to the -inf); if none is, the two middles take half each
        eq = same(a, value)
        count = eq.sum(axis=axis, keepdims=True)
        w = eq / count
        if not lower_only:
            halves = np.zeros(a.shape)
            np.put_along_axis(halves, lo_i, 0.5, axis)
            np.add.at(halves, _full_index(hi_i, axis), 0.5)
            w = np.where(count > 0, w, halves)
    return value, w.astype(a.dtype, copy=False)


def _full_index(idx, axis):
    """idx (one position along axis per row) as a NumPy advanced index."""
    grids = list(np.indices(idx.shape, sparse=True))
    grids[axis] = idx
    return tuple(grids)


def _median_values(x, axis, keepdim, lower_only):
    xd = x._data
    if xd.shape[axis] == 0:
        if xd.dtype.kind != "f":
            raise _empty_axis_error("median", axis)
        shape = list(xd.shape)
        shape[axis] = 1
        out = np.full(shape, np.nan, dtype=xd.dtype)
        return _wrap(_drop(out, axis, keepdim))
    value, w = _median_weights(xd, axis, lower_only)
    return output_read_by_backward(
        record("median", _drop(value, axis, keepdim), (x,), _MEDIAN, (value.shape, w)))


# g shared out with weights fixed at forward
_MEDIAN = (lambda g, kept, w: maths.reshape(g, kept) * w,)


def _median(x, axis=None, keepdim=False, mode="avg", name=None):
    x = tensor_arg(x, "median")
    if mode not in ("avg", "min"):
        raise OpArgumentError(f"median: argument 'mode' must be 'avg' or 'min'; got: {mode!r}")
    if isinstance(axis, (list, tuple)):
        raise OpArgumentError(f"median: argument 'axis' must be None or an int; got: {axis!r}")
    if mode == "avg" and x._data.dtype != np.float64:
        x = cast(x, "float32")
    xd = x._data
    if axis is None:
        flat = as_shape(x, [xd.size])
        out = _median_values(flat, 0, True, mode == "min")
        return as_shape(out, [1] * xd.ndim if keepdim else [])
    x, ax, zero_d = _reduced_axis(x, axis, "median")
    if mode == "avg":
        out = _median_values(x, ax, keepdim, False)
        return as_shape(out, []) if zero_d else out
    n = x._data.shape[ax]
    if n == 0:
        raise _empty_axis_error("median", ax)
    # the lower middle value with its index (Paddle's pick among equal values; the first NaN)
    return _finish("median", x, _middle(x._data, ax)[0], ax, keepdim, zero_d)


def _torch_style_defaults(fn):
    """Paddle's median: called with ``input=``/``dim=``, mode defaults to 'min'."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        torch_style = False
        for alias, real in (("input", "x"), ("dim", "axis")):
            if alias in kwargs and real not in kwargs:
                kwargs[real] = kwargs.pop(alias)
                torch_style = True
        if torch_style:
            kwargs.setdefault("mode", "min")
        return fn(*args, **kwargs)
    return wrapper


@_torch_style_defaults
def median(x, axis=None, keepdim=False, mode="avg", name=None):
    """The median along axis (of all elements when axis is None).

    mode='avg' averages the two middle values of an even count and returns only values (float32
    unless x is float64); mode='min' takes the lower one, keeps x's dtype and, with an axis,
    returns (values, int64 indices). NaN in a slice makes its median NaN. Called with Paddle's
    aliases ``input=``/``dim=``, mode defaults to 'min', as in Paddle.

    Args:
        x: the tensor.
        axis: None or one int.
        keepdim: keep the reduced axis (axes) with size 1.
        mode: 'avg' or 'min'.

    Returns:
        A tensor, or (values, indices) for mode='min' with an axis.

    Example:
        >>> float(opsdk.median(opsdk.to_tensor([3.0, 1.0, 2.0, 4.0])))
        2.5
    """
    return _median(x, axis, keepdim, mode)


# -- quantiles (Paddle composes them of sort, take_along_axis and lerp; so does opsdk) ------
_INTERPOLATIONS = ("linear", "lower", "higher", "nearest", "midpoint")


def _q_list(q, op):
    from ..errors import ArgumentTypeError
    from ..tensor import Tensor
    if isinstance(q, Tensor):
        if q._data.ndim > 1:
            raise OpArgumentError(f"{op}: q should be a 0-D tensor or a 1-D tensor; got: "
                                  f"shape {list(q.shape)}")
        q = q._data.reshape(-1).tolist()
    elif isinstance(q, (int, float)) and not isinstance(q, bool):
        q = [q]
    elif isinstance(q, (list, tuple)):
        if not q:
            raise OpArgumentError(f"{op}: q should not be empty")
        q = [float(v) for v in q]
    else:
        raise ArgumentTypeError(f"{op}: type of q should be int, float, list or tuple, or "
                                f"tensor; got: {type(q).__name__}")
    for v in q:
        if v < 0 or v > 1:
            raise OpArgumentError(f"{op}: q should be in range [0, 1]; got: {v}")
    return q


def _quantile_axis(x, axis, op):
    """(x with the reduced axes made one, that axis, the keepdim shape)."""
    from .shape import flatten, moveaxis
    dims = x._data.ndim
    out_shape = list(x._data.shape)
    if axis is None:
        return flatten(x), 0, [1] * dims
    axes = axis if isinstance(axis, (list, tuple)) else [axis]
    src = []
    for a in axes:
        if isinstance(a, bool) or not isinstance(a, int) or not -dims <= a < dims:
            raise OpArgumentError(f"{op}: axis should be None, int, or a list, element should "
                                  f"in range [-rank(x), rank(x)); got: {axis!r}")
        src.append(a % dims)
        out_shape[a % dims] = 1
    if not isinstance(axis, (list, tuple)):
        return x, src[0], out_shape
    dst = list(range(-len(src), 0))
    if not dst:
        return flatten(x), 0, out_shape
    x = moveaxis(x, src, dst)
    return flatten(x, dst[0], dst[-1]), x._data.ndim - len(src), out_shape


def _quantile(op, x, q, axis, keepdim, interpolation, ignore_nan):
    from .along_axis import take_along_axis
    from .combined import lerp
    from .shape import reshape, squeeze, stack
    from .sorting import sort
    x = tensor_arg(x, op)
    qs = _q_list(q, op)
    if interpolation not in _INTERPOLATIONS:
        raise OpArgumentError(f"{op}: interpolation must be one of "
                              f"{', '.join(_INTERPOLATIONS)}; got: {interpolation!r}")
    x, axis, out_shape = _quantile_axis(x, axis, op)
    a = x._data
    dt = a.dtype if a.dtype.kind == "f" else np.dtype(np.float64)
    mask = np.isnan(a)
    counts = (~mask).sum(axis=axis, keepdims=True).astype(dt)
    n = a.shape[axis]
    sorted_x = sort(x, axis)
    outputs = []
    for qv in qs:
        index = dt.type(qv) * (counts - 1)
        if not ignore_nan:
            index = np.where(mask.any(axis=axis, keepdims=True), dt.type(n - 1), index)

        def at(i):
            pos = np.clip(i, 0, max(n - 1, 0)).astype(np.int64)
            return take_along_axis(sorted_x, _wrap(pos), axis)
        if interpolation == "nearest":
            ret = at(np.round(index))
        else:
            below, upper = np.floor(index), np.ceil(index)
            if interpolation == "lower":
                ret = at(below)
            elif interpolation == "higher":
                ret = at(upper)
            elif interpolation == "midpoint":
                ret = (at(upper) + at(below)) / 2
            else:
                ret = lerp(at(below), at(upper), _wrap((index - below).astype(a.dtype)))
        outputs.append(reshape(ret, out_shape) if keepdim else squeeze(ret, axis))
    return stack(outputs, 0) if len(outputs) > 1 else outputs[0]


def quantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None):
    """The q-th quantiles of x over axis (all of x when None; a list of axes counts as one):
    the sorted values interpolated (linear, lower, higher, nearest, midpoint); a list of q
    stacks its results first. A NaN in a slice gives NaN.

    Example:
        >>> opsdk.quantile(opsdk.to_tensor([1.0, 3.0, 2.0, 4.0]), 0.5).item()
        2.5
    """
    return _quantile("quantile", x, q, axis, keepdim, interpolation, False)


def nanquantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None):
    """quantile ignoring the NaNs of each slice (all NaN: NaN).

    Example:
        >>> opsdk.nanquantile(opsdk.to_tensor([1.0, float("nan"), 3.0]), 0.5).item()
        2.0
    """
    return _quantile("nanquantile", x, q, axis, keepdim, interpolation, True)
