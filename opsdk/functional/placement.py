"""Paddle's ops that place values into a copy of a tensor, composed of the core ones:
scatter_add, scatter_reduce (put_along_axis without broadcasting), index_sample
(take_along_axis), index_put, select_scatter, slice_scatter (setitem), diagonal_scatter and
multiplex (flat positions: take and put)."""
import builtins

import numpy as np

from ..device import array_module
from ..errors import IndexOutOfRangeError, OpArgumentError, ShapeError, WrittenShapeError
from . import flat_index, maths
from .along_axis import put_along_axis, take_along_axis
from .indexing import _plain_index, setitem
from .inplace import inplace_method
from .logic import where
from .op_args import check_axis, int_arg, tensor_arg as _arg
from .shape import _ints, broadcast_to, stack

_S = builtins.slice


def scatter_add(input, dim, index, src):
    """input with src added at index along dim (put_along_axis 'add', no broadcasting)."""
    return put_along_axis(input, index, src, dim, "add", True, broadcast=False)


scatter_add_ = inplace_method(scatter_add, "scatter_add_")

_SCATTER_REDUCES = {"sum": "add", "prod": "multiply", "mean": "mean", "amin": "amin",
                    "amax": "amax"}


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """input with src reduced into it at index along dim ('sum', 'prod', 'mean', 'amin',
    'amax'; include_self=False leaves input's own value out)."""
    if reduce not in _SCATTER_REDUCES:
        raise OpArgumentError(f"scatter_reduce: argument 'reduce' must be one of "
                              f"{sorted(_SCATTER_REDUCES)}; got: {reduce!r}")
    return put_along_axis(input, index, src, dim, _SCATTER_REDUCES[reduce], include_self,
                          broadcast=False)


def index_sample(x, index):
    """out[i, j] = x[i, index[i, j]] for a 2-D x and a 2-D index of as many rows."""
    x = _arg(x, "index_sample")
    index = _arg(index, "index_sample", "index")
    if x.ndim != 2 or index.ndim != 2 or x._data.shape[0] != index._data.shape[0]:
        raise ShapeError(f"index_sample: expected: a 2-D x and a 2-D index with as many rows; "
                         f"got: x {x.shape}, index {index.shape}")
    if index._data.dtype not in (np.int32, np.int64):
        raise OpArgumentError(f"index_sample: argument 'index' must be int32 or int64; "
                              f"got: {index._data.dtype}")
    return take_along_axis(x, index, 1, broadcast=False)


def index_put(x, indices, value, accumulate=False, name=None):
    """x with value written (accumulate: added, repeats summing) at x[indices], the tuple of
    index tensors (int, or bool masks)."""
    x = _arg(x, "index_put")
    if not isinstance(indices, (list, tuple)):
        raise OpArgumentError(f"index_put: argument 'indices' must be a list of Tensors; got: "
                              f"{type(indices).__name__}")
    idx = tuple(_arg(t, "index_put", f"indices[{i}]") for i, t in enumerate(indices))
    if len(idx) > x.ndim:
        raise IndexOutOfRangeError(f"index_put: too many indices ({len(idx)}) for a tensor of "
                                   f"{x.ndim} dimensions")
    value = _arg(value, "index_put", "value")
    if not accumulate:
        return setitem(x, idx, value)
    try:
        pos = flat_index.positions(x._data.shape)[_plain_index(idx)]
    except IndexError as e:
        raise IndexOutOfRangeError(f"index_put: an index is out of range for shape {x.shape}; "
                                   f"got: {e}") from None
    if list(value._data.shape) != list(pos.shape):
        value = broadcast_to(value, list(pos.shape))
    return x + flat_index.put("index_put", value, pos, x._data.shape, unique=False)


index_put_ = inplace_method(index_put, "index_put_")


def _check_value_shape(op, value, want):
    if list(value._data.shape) != list(want):
        raise WrittenShapeError(f"{op}: expected: a value of the slice's shape {list(want)}; "
                                f"got: {value.shape}")


def select_scatter(x, values, axis, index, name=None):
    """x with its slice ``index`` along ``axis`` replaced by values (of that slice's shape)."""
    x = _arg(x, "select_scatter")
    values = _arg(values, "select_scatter", "values")
    axis = check_axis(axis, x.ndim, "select_scatter")
    index = int_arg(index, "select_scatter", "index")
    n = x._data.shape[axis]
    if not -n <= index < n:
        raise IndexOutOfRangeError(f"select_scatter: argument 'index' out of range; expected: "
                                   f"in [{-n}, {n}); got: {index}")
    _check_value_shape("select_scatter", values, x.shape[:axis] + x.shape[axis + 1:])
    return setitem(x, (_S(None),) * axis + (index,), maths.cast(values, x._data.dtype))


def slice_scatter(x, value, axes, starts, ends, strides, name=None):
    """x with x[starts:ends:strides] (along each of axes) replaced by value."""
    x = _arg(x, "slice_scatter")
    value = _arg(value, "slice_scatter", "value")
    lists = [_ints(v, "slice_scatter", a) for v, a in
             ((axes, "axes"), (starts, "starts"), (ends, "ends"), (strides, "strides"))]
    if len({len(v) for v in lists}) > 1:
        raise OpArgumentError(f"slice_scatter: arguments axes, starts, ends, strides must have "
                              f"equal lengths; got: {[len(v) for v in lists]}")
    idx = [_S(None)] * x.ndim
    for a, s, e, st in zip(*lists):
        if st == 0:
            raise OpArgumentError("slice_scatter: argument 'strides' must not hold 0")
        idx[check_axis(a, x.ndim, "slice_scatter", "axes")] = _S(s, e, st)
    idx = tuple(idx)
    # value broadcasts to the slice as in x[idx] = value (Paddle's rule, checked by setitem)
    try:
        return setitem(x, idx, maths.cast(value, x._data.dtype))
    except OpArgumentError as e:
        raise WrittenShapeError(str(e).replace("setitem:", "slice_scatter:", 1)) from None


def diagonal_scatter(x, y, offset=0, axis1=0, axis2=1, name=None):
    """x with its diagonal (as paddle.diagonal(x, offset, axis1, axis2) picks it) replaced
    by y. As in Paddle 3.3.1, only x gets a gradient (y's is None)."""
    x = _arg(x, "diagonal_scatter")
    y = _arg(y, "diagonal_scatter", "y")
    if x.ndim < 2:
        raise ShapeError(f"diagonal_scatter: expected: x with at least 2 dimensions; got: "
                         f"{x.ndim}")
    a1 = check_axis(axis1, x.ndim, "diagonal_scatter", "axis1")
    a2 = check_axis(axis2, x.ndim, "diagonal_scatter", "axis2")
    if a1 == a2:
        raise OpArgumentError(f"diagonal_scatter: 'axis1' and 'axis2' must be different; got: "
                              f"{axis1} and {axis2}")
    pos = np.diagonal(flat_index.positions(x._data.shape), offset, a1, a2)
    _check_value_shape("diagonal_scatter", y, pos.shape)
    outside = np.ones(x._data.shape, dtype=bool)
    outside.reshape(-1)[pos.reshape(-1)] = False
    xp = array_module(x._data)  # a GPU x: the positions and the mask on its device
    placed = flat_index.put("diagonal_scatter", maths.cast(y.detach(), x._data.dtype),
                            xp.asarray(pos), x._data.shape)
    outside = xp.asarray(outside)
    return where(outside, x, placed)


def multiplex(inputs, index, name=None):
    """out[i] = inputs[index[i]][i]: row i from the input that index names (index: [N, 1])."""
    if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
        raise OpArgumentError(f"multiplex: argument 'inputs' must be a list of at least 2 "
                              f"Tensors; got: {inputs!r}")
    index = _arg(index, "multiplex", "index")
    if index._data.dtype not in (np.int32, np.int64):
        raise OpArgumentError(f"multiplex: argument 'index' must be int32 or int64; got: "
                              f"{index._data.dtype}")
    stacked = stack(inputs, 0)
    k, n = stacked._data.shape[:2]
    rows = np.asarray(index._data).reshape(-1).astype(np.int64)
    if rows.size != n or (rows.size and (rows.min() < 0 or rows.max() >= k)):
        raise IndexOutOfRangeError(f"multiplex: expected: an index of {n} values in [0, {k}); "
                                   f"got: shape {index.shape}, values {rows.tolist()}")
    pos = flat_index.positions(stacked._data.shape)[rows, np.arange(n)]
    return flat_index.take("multiplex", stacked, pos)

