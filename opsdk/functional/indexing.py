"""Indexing with gradients: x[idx], x[idx] = v, gather, index_select, take_along_axis."""
import numpy as np

from ..errors import OpArgumentError
from ..tensor import Tensor, _wrap
from .record import _state, as_array, mark_view, record, to_tensor_arg, unbroadcast
from .reduction import check_axis


def _arg(x, op, name="x"):
    return x if isinstance(x, Tensor) else to_tensor_arg(x, op, name)


def _plain_index(idx):
    """Tensors inside an index become arrays; lists become int arrays."""
    if isinstance(idx, Tensor):
        return idx._data
    if isinstance(idx, tuple):
        return tuple(_plain_index(i) for i in idx)
    if isinstance(idx, list):
        return np.asarray([i.item() if isinstance(i, Tensor) else i for i in idx])
    return idx


def _is_basic(idx):
    items = idx if isinstance(idx, tuple) else (idx,)
    return all(i is None or i is Ellipsis or isinstance(i, (int, np.integer, slice))
               for i in items)


def getitem(x, idx):
    """x[idx] for slices, ints, None, Ellipsis, bool masks and integer arrays."""
    x = _arg(x, "getitem")
    idx = _plain_index(idx)
    xd = x._data
    try:
        out = xd[idx]
    except IndexError as e:
        raise OpArgumentError(f"getitem: index {idx!r} does not fit a tensor of shape "
                              f"{list(xd.shape)}; got: {e}") from None
    out = as_array(out)
    if not (_state.enabled and x._req):
        return mark_view(_wrap(out), x, out)
    basic = _is_basic(idx)
    xs = xd.shape

    def fast(g):
        z = np.zeros_like(g, shape=xs)  # zeros_like keeps NumPy vs CuPy
        if basic:
            z[idx] = g
        else:
            np.add.at(z, idx, g)
        return (z,)

    def vjp(g):
        return (index_add_into(g, idx, xs, basic),)
    return mark_view(record("getitem", out, (x,), vjp, fast), x, out)


def index_add_into(g, idx, shape, basic):
    """zeros(shape) with g added at idx; the adjoint of getitem (differentiable)."""
    gd = g._data
    z = np.zeros_like(gd, shape=shape)
    if basic:
        z[idx] = gd
    else:
        np.add.at(z, idx, gd)
    if not (_state.enabled and g._req):
        return _wrap(z)
    return record("index_add", z, (g,), lambda gg: (getitem(gg, idx),),
                  lambda gg: (as_array(gg[idx]),))


def setitem(x, idx, value):
    """x[idx] = value as a graph op: returns the new tensor (x itself is rebound by Tensor)."""
    x = _arg(x, "setitem")
    idx = _plain_index(idx)
    vt = value if isinstance(value, Tensor) else None
    vd = value._data if vt is not None else value
    out = x._data.copy()
    out[idx] = vd
    if not (_state.enabled and (x._req or (vt is not None and vt._req))):
        return _wrap(out)
    vs = vt._data.shape if vt is not None else None
    rx = x._req
    rv = vt is not None and vt._req

    def fast(g):
        gx = None
        if rx:
            gx = g.copy()
            gx[idx] = 0
        gv = None
        if rv:
            from .record import unbroadcast_array
            gv = unbroadcast_array(np.broadcast_to(as_array(g[idx]), np.shape(out[idx])), vs)
        return gx, gv

    def vjp(g):
        gx = getitem_zeroed(g, idx) if rx else None
        gv = unbroadcast(getitem(g, idx), vs) if rv else None
        return gx, gv
    return record("setitem", out, (x, vt), vjp, fast)


def getitem_zeroed(g, idx):
    """g with the positions at idx set to 0 (differentiable in g)."""
    mask = np.ones_like(g._data)
    mask[idx] = 0
    return g * _wrap(mask)


def index_select(x, index, axis=0, name=None):
    """Rows (along axis) of x picked by a 1-D integer index; repeated rows add gradients."""
    x = _arg(x, "index_select")
    ind = _arg(index, "index_select", "index")._data
    if ind.dtype.kind not in "iu":
        raise OpArgumentError(f"index_select: argument 'index' must be an integer tensor; "
                              f"got: {ind.dtype}")
    axis = check_axis(axis, x.ndim, "index_select")
    n = x._data.shape[axis]
    if ind.size and (ind.min() < -n or ind.max() >= n):
        raise OpArgumentError(f"index_select: index out of range for axis {axis} of size {n}; "
                              f"got: min {ind.min()}, max {ind.max()}")
    key = (slice(None),) * axis + (ind.reshape(-1),)
    return getitem(x, key)


def gather(x, index, axis=None, name=None):
    """Paddle's gather: index_select along axis (0 by default)."""
    return index_select(x, index, 0 if axis is None else axis)


def take_along_axis(arr, indices, axis, broadcast=True):
    """Pick values along axis at the given indices (same ndim as arr); see along_axis.py."""
    from .along_axis import take_along_axis as _take_along_axis
    return _take_along_axis(arr, indices, axis, broadcast)


def masked_select(x, mask, name=None):
    x = _arg(x, "masked_select")
    m = _arg(mask, "masked_select", "mask")._data.astype(bool)
    return getitem(x, np.broadcast_to(m, x._data.shape))


def nonzero(x, as_tuple=False):
    x = _arg(x, "nonzero")
    nz = np.nonzero(x._data)
    if as_tuple:
        return tuple(_wrap(as_array(a.astype(np.int64))) for a in nz)
    return _wrap(as_array(np.stack(nz, axis=1).astype(np.int64)))


def one_hot(x, num_classes, name=None):
    x = _arg(x, "one_hot")
    d = x._data
    if d.size and (d.min() < 0 or d.max() >= num_classes):
        raise OpArgumentError(f"one_hot: labels must lie in [0, {num_classes}); got: "
                              f"min {d.min()}, max {d.max()}")
    return _wrap(as_array(np.eye(num_classes, dtype=np.float32)[d]))
