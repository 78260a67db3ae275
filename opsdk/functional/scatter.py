"""Writing by index: scatter, index_add, masked_fill and their in-place variants.

With scatter's overwrite=True a repeated index keeps its last update, and only that update
gets a gradient (the others never reach the output).
"""
import inspect

import numpy as np

from ..autograd.record import record
from ..errors import DTypeError, OpArgumentError, ShapeError
from ..tensor import _wrap
from . import maths
from .along_axis import _values_arg, put_along_axis
from .arithmetic import add, multiply
from .flat_index import positions, put
from .inplace import inplace_method
from .logic import where
from .op_args import (axis_arg, check_same_dtype, index_array, nd_index, tensor_arg,
                      wrap_index)
from .put_reduce import last_writers
from .shape import as_shape


# -- scatter ----------------------------------------------------------------------------------
def _rows_index(index, x, updates):
    ind = index_array(index, "scatter")
    if ind.ndim == 2 and ind.shape[1] == 1:
        ind = ind[:, 0]
    elif ind.ndim == 0:
        ind = ind.reshape(1)
        updates = as_shape(updates, [1] + list(updates._data.shape))
    elif ind.ndim != 1:
        raise ShapeError(f"scatter: argument 'index' must be 1-D (or [N, 1]); got: shape "
                         f"{list(ind.shape)}")
    return wrap_index(ind, x._data.shape[0], "scatter", "index", 0), updates


def _scatter_rows(x, index, updates, overwrite=True, name=None):
    x = tensor_arg(x, "scatter")
    u = tensor_arg(updates, "scatter", "updates")
    if x._data.ndim == 0:
        raise ShapeError("scatter: expected: 'x' with at least 1 dim; got: a 0-d tensor")
    rows, u = _rows_index(index, x, u)
    check_same_dtype("scatter", x, u, "x", "updates")
    n, rest = len(rows), list(x._data.shape[1:])
    us = list(u._data.shape)
    if len(us) != len(rest) + 1 or us[1:] != rest or us[0] < n:
        raise ShapeError(f"scatter: 'updates' must have shape [{n}] + x.shape[1:] = "
                         f"{[n] + rest}; got: {us}")
    if us[0] > n:  # Paddle reads the first len(index) rows
        u = u[:n]
    xd, ud = x._data, u._data
    hit = np.zeros(xd.shape[0], dtype=bool)
    hit[rows] = True
    out = xd.copy()
    if overwrite:
        win = last_writers(rows)
        out[rows[win]] = ud[win]
    else:
        win = None
        out[hit] = 0
        np.add.at(out, rows, ud)
    lay = (-1,) + (1,) * len(rest)
    # an update that a later one overwrote never reaches the output: its gradient is 0
    lost = None if win is None else ~win.reshape(lay)
    return record("scatter", out, (x, u), _SCATTER, (hit.reshape(lay), rows, lost))


def _scatter_grad_in_updates(g, hit, rows, lost):
    gu = maths.getitem(g, rows)
    return gu if lost is None else maths.where(lost, 0, gu)


# a select, not a product: NaN and inf in g at the replaced rows become 0 too
_SCATTER = (lambda g, hit, rows, lost: maths.where(hit, 0, g), _scatter_grad_in_updates)


def _scatter_by_dim(input, dim, index, src=None, reduce=None, value=None, name=None):
    """Paddle's torch-style scatter(input, dim, index, src): put_along_axis, no broadcasting."""
    if src is None:
        src = value
    elif value is not None:
        raise OpArgumentError("scatter: pass 'src' or 'value', not both")
    if src is None:
        raise OpArgumentError("scatter: the (input, dim, index, src) form needs 'src'")
    return put_along_axis(input, index, src, dim, reduce or "assign", broadcast=False)


def _is_dim_call(args, kwargs):
    return "dim" in kwargs or (len(args) >= 2 and isinstance(args[1], (int, np.integer))
                               and not isinstance(args[1], bool))


def scatter(*args, **kwargs):
    """scatter(x, index, updates, overwrite=True): rows of x at index replaced by updates.

    With overwrite=True a repeated index keeps its last update (the earlier ones get gradient
    0); with overwrite=False the updates of an index are summed, replacing x's row. x's
    scattered rows get gradient 0. ``scatter(input, dim, index, src, reduce=None)`` is
    put_along_axis without broadcasting, as in Paddle.

    Example:
        >>> x = opsdk.zeros([3, 2])
        >>> opsdk.scatter(x, opsdk.to_tensor([1]), opsdk.ones([1, 2])).numpy()
        array([[0., 0.],
               [1., 1.],
               [0., 0.]], dtype=float32)
    """
    if _is_dim_call(args, kwargs):
        return _scatter_by_dim(*args, **kwargs)
    return _scatter_rows(*args, **kwargs)


scatter.__signature__ = inspect.signature(_scatter_rows)
scatter_ = inplace_method(scatter, "scatter_")


# -- index_add ---------------------------------------------------------------------------------
def _index_add(x, index, axis, value, alpha=1, name=None):
    op = "index_add"
    x = tensor_arg(x, op)
    v = tensor_arg(value, op, "value")
    ind = index_array(index, op)
    if ind.ndim != 1:
        raise ShapeError(f"{op}: argument 'index' must be 1-D; got: shape {list(ind.shape)}")
    nd = x._data.ndim
    if nd == 0:
        raise ShapeError(f"{op}: expected: 'x' with at least 1 dim; got: a 0-d tensor")
    axis = axis_arg(axis, nd, op)
    ind = wrap_index(ind, x._data.shape[axis], op, "index", axis)
    want = list(x._data.shape)
    want[axis] = ind.size
    if list(v._data.shape) != want:
        raise ShapeError(f"{op}: 'value' must have x's shape with axis {axis} of len(index); "
                         f"expected: {want}; got: {list(v.shape)}")
    check_same_dtype(op, x, v, "x", "value")
    if alpha != 1:
        if x._data.dtype.kind in "iu" and alpha != int(alpha):
            raise DTypeError(f"{op}: a fractional 'alpha' needs a float tensor; got: alpha "
                             f"{alpha!r} for {x._data.dtype}")
        v = multiply(v, alpha if x._data.dtype.kind in "fc" else int(alpha))
    p = np.take(positions(x._data.shape), ind, axis=axis)
    return add(x, put(op, v, p, x._data.shape, unique=False))


def _index_add_args(args, kwargs):
    """Paddle accepts (x, index, axis, value) and the torch order (x, axis, index, value)."""
    for alias, real in (("input", "x"), ("dim", "axis"), ("source", "value")):
        if alias in kwargs:
            kwargs[real] = kwargs.pop(alias)
    if len(args) >= 2 and isinstance(args[1], (int, np.integer)):
        names = ("x", "axis", "index", "value", "alpha")
        kwargs.update(zip(names, args))
        args = ()
    return args, kwargs


def index_add(*args, **kwargs):
    """index_add(x, index, axis, value, alpha=1): x with alpha * value added at index along
    axis (repeated indices add up). The torch order (x, axis, index, value) works too.

    Example:
        >>> x = opsdk.zeros([3])
        >>> opsdk.index_add(x, opsdk.to_tensor([0, 0]), 0, opsdk.ones([2])).numpy()
        array([2., 0., 0.], dtype=float32)
    """
    args, kwargs = _index_add_args(args, kwargs)
    return _index_add(*args, **kwargs)


index_add.__signature__ = inspect.signature(_index_add)
index_add_ = inplace_method(index_add, "index_add_")


# -- scatter_nd_add ----------------------------------------------------------------------------
def scatter_nd_add(x, index, updates, name=None):
    """x with updates added at the coordinates held in index's last axis.

    index is [..., k] and updates has shape index.shape[:-1] + x.shape[k:]; repeated
    coordinates add up.

    Example:
        >>> x = opsdk.zeros([3])
        >>> opsdk.scatter_nd_add(x, opsdk.to_tensor([[1], [1]]), opsdk.ones([2])).numpy()
        array([0., 2., 0.], dtype=float32)
    """
    x = tensor_arg(x, "scatter_nd_add")
    u = tensor_arg(updates, "scatter_nd_add", "updates")
    check_same_dtype("scatter_nd_add", x, u, "x", "updates")
    key = nd_index(index, x._data.shape, "scatter_nd_add")
    if not key:
        raise ShapeError("scatter_nd_add: argument 'index' must have a last axis of at least 1 "
                         "coordinate; got: 0")
    want = list(key[0].shape) + list(x._data.shape[len(key):])
    if list(u._data.shape) != want:
        raise ShapeError(f"scatter_nd_add: 'updates' must have shape index.shape[:-1] + "
                         f"x.shape[k:] = {want}; got: {list(u._data.shape)}")
    out = x._data.copy()
    np.add.at(out, key, u._data)
    return record("scatter_nd_add", out, (x, u), _SCATTER_ND_ADD, (key,))


# x's gradient passes through; each update gets the gradient at its coordinates
_SCATTER_ND_ADD = (lambda g, key: g, lambda g, key: maths.getitem(g, key))


def scatter_nd(index, updates, shape, name=None):
    """zeros(shape) with updates added at index, as scatter_nd_add (repeats add up)."""
    u = tensor_arg(updates, "scatter_nd", "updates")
    zeros = _wrap(np.zeros_like(u._data, shape=tuple(int(n) for n in shape)))
    return scatter_nd_add(zeros, index, u)


# -- masked_fill -------------------------------------------------------------------------------
def masked_fill(x, mask, value, name=None):
    """x with value where mask is true (x, mask and value broadcast together).

    A number is cast to x's dtype; a tensor value must have x's dtype and gets the gradient
    of the filled positions (Paddle returns 0 there when x and mask have one shape).

    Example:
        >>> x = opsdk.to_tensor([1.0, 2.0])
        >>> opsdk.masked_fill(x, opsdk.to_tensor([True, False]), 0.0).numpy()
        array([0., 2.], dtype=float32)
    """
    x = tensor_arg(x, "masked_fill")
    m = tensor_arg(mask, "masked_fill", "mask")._data
    if m.dtype != np.bool_:
        m = m.astype(bool)
    v = _values_arg(value, x, "masked_fill", "value")
    try:
        np.broadcast_shapes(m.shape, x._data.shape, v._data.shape)
    except ValueError:
        raise ShapeError(f"masked_fill: 'x' {list(x.shape)}, 'mask' {list(m.shape)} and 'value' "
                         f"{list(v.shape)} do not broadcast together") from None
    return where(_wrap(m), v, x)


masked_fill_ = inplace_method(masked_fill, "masked_fill_")
