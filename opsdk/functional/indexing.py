"""Indexing with gradients: x[idx], x[idx] = v, gather, index_select, masked_select."""
import numpy as np

from ..autograd.record import needs_grad, record
from ..errors import (DTypeError, IndexOutOfRangeError, OpArgumentError, PreconditionShapeError,
                      ShapeError)
from ..tensor import Tensor, _wrap, as_array, bump_version
from . import maths
from .op_args import check_axis, nd_index, tensor_arg as _arg, vector_arg
from .views import adopt, alias, mark_view


def _plain_index(idx):
    """Tensors inside an index become arrays; lists become int arrays."""
    if isinstance(idx, Tensor):
        return idx._data
    if isinstance(idx, tuple):
        return tuple(_plain_index(i) for i in idx)
    if isinstance(idx, list):
        if not idx:
            return np.zeros(0, dtype=np.int64)  # x[[]] picks nothing (NumPy would say float)
        return np.asarray([i.item() if isinstance(i, Tensor) else i for i in idx])
    return idx


def _is_basic(idx):
    items = idx if isinstance(idx, tuple) else (idx,)
    return all(i is None or i is Ellipsis or isinstance(i, (int, np.integer, slice))
               for i in items)


def _ints_first(idx, ndim):
    """(ints-only index, the rest) when idx mixes ints with arrays, else None.

    Paddle and PyTorch apply the ints first, as basic indexing; NumPy counts them as advanced
    indices, so x[0, :, [0, 1]] would put the list's axis in front.
    """
    items = idx if isinstance(idx, tuple) else (idx,)
    is_int = [isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in items]
    if not any(is_int) or not any(isinstance(i, np.ndarray) for i in items):
        return None
    consumed = sum(1 if not isinstance(i, np.ndarray) or i.dtype != bool else i.ndim
                   for i in items if i is not None and i is not Ellipsis)
    first, rest = [], []
    for i, whole in zip(items, is_int):
        if whole:
            first.append(i)
        elif i is Ellipsis:
            first.extend([slice(None)] * (ndim - consumed))
            rest.append(i)
        elif i is not None:
            n = i.ndim if isinstance(i, np.ndarray) and i.dtype == bool else 1
            first.extend([slice(None)] * n)
            rest.append(i)
        else:
            rest.append(i)
    return tuple(first), tuple(rest)


def getitem(x, idx):
    """x[idx] for slices, ints, None, Ellipsis, bool masks and integer arrays (ints are applied
    first, as basic indexing, as Paddle and PyTorch do)."""
    x = _arg(x, "getitem")
    idx = _plain_index(idx)
    xd = x._data
    split = _ints_first(idx, xd.ndim)
    if split is not None:
        return getitem(getitem(x, split[0]), split[1])
    shown = idx
    basic = _is_basic(idx)
    if basic:
        items = idx if isinstance(idx, tuple) else (idx,)
        if not any(i is Ellipsis for i in items):
            # a trailing ... makes NumPy return a 0-d view, not a scalar copy, for x[1]
            idx = items + (Ellipsis,)
    try:
        out = xd[idx]
    except IndexError as e:  # an IndexError too, as Paddle raises
        raise IndexOutOfRangeError(f"getitem: index {shown!r} does not fit a tensor of shape "
                                   f"{list(xd.shape)}; got: {e}") from None
    except ValueError as e:  # a slice step of 0
        raise OpArgumentError(f"getitem: index {shown!r} cannot index a tensor; got: {e}") from None
    out = as_array(out)
    fn = (lambda b: getitem(b, idx)) if basic else None
    return mark_view(record("getitem", out, (x,), _GETITEM, (idx, xd.shape, basic)), x, out, fn)


def subscript(x, idx):
    """Tensor.__getitem__: getitem, except that an index of slices and ... that keeps every
    element in place (x[:], x[...], x[0:n], x[-100:100, ::1]) gives x itself, as Paddle 3.3.1
    gives a tensor sharing x's data and place in the graph (a leaf's is a leaf, with its grad)."""
    if isinstance(x, Tensor) and _keeps_all(idx, x._data.shape):
        return x
    return getitem(x, idx)


def _keeps_all(idx, shape):
    items = idx if isinstance(idx, tuple) else (idx,)
    if not all(i is Ellipsis or isinstance(i, slice) for i in items):
        return False
    ells = [k for k, i in enumerate(items) if i is Ellipsis]
    slices = [i for i in items if i is not Ellipsis]
    if len(ells) > 1 or len(slices) > len(shape):
        return False
    cut = ells[0] if ells else len(items)
    dims = list(shape[:cut]) + list(shape[len(shape) - (len(slices) - cut):])
    try:
        return all(s.indices(n) == (0, n, 1) for s, n in zip(slices, dims))
    except (TypeError, ValueError):  # a step of 0, or bounds that are not ints: getitem says
        return False


def index_add_into(g, idx, shape, basic):
    """zeros(shape) with g added at idx: the adjoint of getitem, on an array or a Tensor (a
    graph op, whose own adjoint is getitem again)."""
    gd = g._data if maths.is_tensor(g) else g
    z = np.zeros_like(gd, shape=shape)  # zeros_like keeps NumPy vs CuPy
    if basic:
        z[idx] = gd
    else:
        np.add.at(z, idx, gd)
    if not maths.is_tensor(g):
        return z
    return record("index_add", z, (g,), _INDEX_ADD, (idx,))


_GETITEM = (lambda g, idx, shape, basic: index_add_into(g, idx, shape, basic),)
_INDEX_ADD = (lambda g, idx: maths.getitem(g, idx),)


def setitem(x, idx, value):
    """x[idx] = value as a graph op: returns the new tensor (x itself is left as it was)."""
    x = _arg(x, "setitem")
    out = x._data.copy()
    return _assign(x, idx, value, out, "setitem")


def setitem_into(x, idx, value):
    """x[idx] = value written into x's memory, x moved onto the setitem node (grad mode)."""
    old = alias(x)  # x's place in the graph; setitem's rule never reads x's values
    bump_version(x)
    adopt(x, _assign(old, idx, value, x._data, "__setitem__"))


def _assign(x, idx, value, out, op):
    """Write value at idx into the array out (x's values) and record setitem's rule."""
    idx = _plain_index(idx)
    vt = value if isinstance(value, Tensor) else None
    vd = value._data if vt is not None else value
    try:
        out[idx] = vd
    except (ValueError, IndexError) as e:
        # an index past the end is an IndexError too, as Paddle raises
        kind = IndexOutOfRangeError if isinstance(e, IndexError) else OpArgumentError
        raise kind(f"{op}: cannot assign a value of shape {list(np.shape(vd))} at "
                   f"index {idx!r} of a tensor of shape {list(out.shape)}; got: {e}") from None
    if not needs_grad(x, vt):
        return _wrap(out)
    outside = np.ones_like(out, dtype=bool)
    outside[idx] = False
    # the recorder sums value's gradient (the region's shape) back to value's shape
    return record("setitem", out, (x, vt), _SETITEM, (idx, outside), broadcast=True)


# x keeps the gradient outside idx (a select: 0 at idx, whatever g holds there); the value
# gets g's entries at idx
_SETITEM = (lambda g, idx, outside: maths.where(outside, g, 0),
            lambda g, idx, outside: maths.getitem(g, idx))


def index_select(x, index, axis=0, name=None):
    """Rows (along axis) of x picked by a 1-D integer index; repeated rows add gradients."""
    return _select(x, index, axis, "index_select", True)


def _select(x, index, axis, op, keep_axis):
    """x's slices along axis at index. The index is 1-D or [n, 1], as Paddle takes it; gather
    (keep_axis False) also takes a 0-d index, which drops the axis, and [n, 0]."""
    x = _arg(x, op)
    vector_arg(x, op)
    ind = _arg(index, op, "index")._data
    if ind.dtype.kind not in "iu":
        raise OpArgumentError(f"{op}: argument 'index' must be an integer tensor; "
                              f"got: {ind.dtype}")
    if not (ind.ndim == 1 or ind.ndim == 2 and ind.shape[1] in ((1,) if keep_axis else (0, 1))
            or ind.ndim == 0 and not keep_axis):
        want = "1-D or of shape [n, 1]" if keep_axis else "0-D, 1-D or of shape [n, 1]"
        raise ShapeError(f"{op}: argument 'index' must be {want}, as in Paddle; got: shape "
                         f"{list(ind.shape)}")
    axis = check_axis(axis, x.ndim, op)
    n = x._data.shape[axis]
    if ind.size and (ind.min() < -n or ind.max() >= n):
        raise IndexOutOfRangeError(f"{op}: index out of range for axis {axis} of size {n}; "
                                   f"got: min {ind.min()}, max {ind.max()}")
    key = (slice(None),) * axis + (ind.reshape(-1) if keep_axis or ind.ndim else ind,)
    return getitem(x, key)


def gather(x, index, axis=None, name=None):
    """Paddle's gather: index_select along axis (0 by default); a 0-d index picks one slice
    and drops the axis, as in Paddle (index_select itself keeps it)."""
    return _select(x, index, 0 if axis is None else axis, "gather", False)


def gather_nd(x, index, name=None):
    """The slices of x at the coordinates held in index's last axis.

    index [..., k] gives a result of shape index.shape[:-1] + x.shape[k:]; repeated
    coordinates add their gradients.

    Example:
        >>> x = opsdk.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> opsdk.gather_nd(x, opsdk.to_tensor([[1, 0], [0, 1]])).numpy()
        array([3., 2.], dtype=float32)
    """
    x = _arg(x, "gather_nd")
    key = nd_index(index, x._data.shape, "gather_nd")
    if key:
        return getitem(x, key)
    # k = 0: the whole of x for every coordinate row
    rows = np.zeros(np.shape(_arg(index, "gather_nd", "index")._data)[:-1], dtype=np.int64)
    return getitem(getitem(x, (None,)), rows)


def masked_select(x, mask, name=None):
    x = _arg(x, "masked_select")
    m = _arg(mask, "masked_select", "mask")._data
    if m.dtype != np.bool_:
        raise DTypeError(f"masked_select: argument 'mask' must be a bool tensor (as in Paddle); "
                         f"got: {m.dtype}")
    try:
        m = np.broadcast_to(m, x._data.shape)
    except ValueError:
        # Paddle: PreconditionNotMet, a RuntimeError
        raise PreconditionShapeError(f"masked_select: argument 'mask' of shape {list(m.shape)} "
                                     f"does not broadcast to x's shape {list(x.shape)}") from None
    return getitem(x, m)


def nonzero(x, as_tuple=False):
    """The indices of the non-zero elements (one row per element, or one array per axis)."""
    x = _arg(x, "nonzero")
    if x._data.ndim == 0:
        raise OpArgumentError("nonzero: argument 'x' must have at least one dimension (as in "
                              "Paddle); got: a 0-d tensor. Reshape it to [1] first")
    nz = np.nonzero(x._data)
    if as_tuple:
        return tuple(_wrap(as_array(a.astype(np.int64))) for a in nz)
    return _wrap(as_array(np.stack(nz, axis=1).astype(np.int64)))


def one_hot(x, num_classes=-1, name=None):
    """float32 rows of eye(num_classes) picked by the integer labels x; num_classes=-1 (the
    default, as Paddle's) is the largest label plus one."""
    x = _arg(x, "one_hot")
    d = x._data
    if d.dtype.kind not in "iu":
        from ..errors import NoKernelDTypeError
        # Paddle has no one_hot kernel but for integer labels (a RuntimeError, NotFound)
        raise NoKernelDTypeError(f"one_hot: argument 'x' must be an integer tensor; got: "
                                 f"{d.dtype}")
    if isinstance(num_classes, int) and num_classes == -1:
        num_classes = int(d.max()) + 1 if d.size else 0
    if d.size and (d.min() < 0 or d.max() >= num_classes):
        raise OpArgumentError(f"one_hot: labels must lie in [0, {num_classes}); got: "
                              f"min {d.min()}, max {d.max()}")
    return _wrap(as_array(np.eye(num_classes, dtype=np.float32)[d]))


maths.provide(getitem=getitem)
