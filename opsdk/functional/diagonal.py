"""Diagonals: diagonal (a view, as in Paddle), diag (builds or extracts, a copy), trace."""
import numpy as np

from ..autograd.record import record
from ..errors import MissingAxesError, OpArgumentError, ShapeError
from ..device import array_module
from ..tensor import Tensor, _wrap
from .flat_index import positions, put, put_into, take
from .op_args import aliases, axis_arg, int_arg, tensor_arg
from .reduction import sum as _sum
from .shape import as_shape
from .views import mark_view


def _diagonal_view(a, offset, a1, a2):
    """np.diagonal(a, offset, a1, a2) as a writable view (NumPy's own is read-only)."""
    n1, n2 = a.shape[a1], a.shape[a2]
    s1, s2 = (0, offset) if offset >= 0 else (-offset, 0)
    length = max(0, min(n1 - s1, n2 - s2))
    if length == 0 or a.size == 0:
        return np.diagonal(a, offset, a1, a2).copy()
    other = [d for d in range(a.ndim) if d not in (a1, a2)]
    shape = [a.shape[d] for d in other] + [length]
    strides = [a.strides[d] for d in other] + [a.strides[a1] + a.strides[a2]]
    start = s1 * a.strides[a1] + s2 * a.strides[a2]
    owner = a if a.base is None else a.base
    if type(owner) is np.ndarray and owner.base is None and owner.flags.c_contiguous:
        # built on the memory's owner, so the result's .base says whose memory it views
        offset_bytes = a.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
        return np.ndarray(shape, a.dtype, buffer=owner, offset=offset_bytes + start,
                          strides=strides)
    sub = a[tuple(slice(s1, None) if d == a1 else slice(s2, None) if d == a2 else slice(None)
                  for d in range(a.ndim))]
    return np.lib.stride_tricks.as_strided(sub, shape, strides, writeable=True)


def _diagonal_axes(x, axis1, axis2, op):
    nd = x._data.ndim
    if nd < 2:
        # Paddle: "(OutOfRange) Input's dim is out of range", an IndexError
        raise MissingAxesError(f"{op}: expected: a tensor with at least 2 dims; got: shape "
                               f"{list(x.shape)}")
    a1 = axis_arg(axis1, nd, op, "axis1")
    a2 = axis_arg(axis2, nd, op, "axis2")
    if a1 == a2:
        raise OpArgumentError(f"{op}: 'axis1' and 'axis2' must be different axes; got: "
                              f"{axis1} and {axis2} (both axis {a1})")
    return a1, a2


def diagonal(x, offset=0, axis1=0, axis2=1, name=None):
    """The diagonal of the (axis1, axis2) planes, as a view of x (writes show through).

    offset > 0 takes a diagonal above the main one, < 0 below. The diagonal becomes the last
    axis of the result.

    Example:
        >>> opsdk.diagonal(opsdk.to_tensor([[1.0, 2.0], [3.0, 4.0]])).numpy()
        array([1., 4.], dtype=float32)
    """
    return _diagonal(x, offset, axis1, axis2, "diagonal")


def _diagonal(x, offset, axis1, axis2, op):
    x = tensor_arg(x, op)
    a1, a2 = _diagonal_axes(x, axis1, axis2, op)
    k = int_arg(offset, op, "offset")
    xd = x._data
    xp = array_module(xd)
    if xp is not np:
        # on a GPU: a gather of the diagonal's flat positions (a copy, not a view: writes to
        # it do not reach x); its gradient puts g back with the same positions
        flat = np.ascontiguousarray(_diagonal_view(positions(xd.shape), k, a1, a2))
        return take(op, x, xp.asarray(flat))
    out = _diagonal_view(xd, k, a1, a2)
    def again(b):  # the view recomputed from a new value of x (writes through it in grad mode)
        return _diagonal(b, k, a1, a2, op)
    return mark_view(record("diagonal", out, (x,), _DIAGONAL, (xd.shape, k, a1, a2)), x, out,
                     again)


def _diagonal_grad(g, shape, k, a1, a2):
    """g put back on the diagonal of zeros of x's shape."""
    where_from = np.ascontiguousarray(_diagonal_view(positions(shape), k, a1, a2))
    return put_into(g, where_from, shape, True, "diagonal")


_DIAGONAL = (_diagonal_grad,)


def diag(x, offset=0, padding_value=0, name=None):
    """A 1-D x becomes a square matrix with x on diagonal ``offset`` (``padding_value``
    elsewhere); a 2-D x gives its diagonal ``offset`` (a copy).

    Example:
        >>> opsdk.diag(opsdk.to_tensor([1.0, 2.0])).numpy()
        array([[1., 0.],
               [0., 2.]], dtype=float32)
    """
    x = tensor_arg(x, "diag")
    k = int_arg(offset, "diag", "offset")
    nd = x._data.ndim
    if nd == 2:
        flat = np.ascontiguousarray(_diagonal_view(positions(x._data.shape), k, 0, 1))
        return take("diag", x, flat)
    if nd > 2:
        raise ShapeError(f"diag: expected: a 0-d, 1-D or 2-D tensor; got: shape {list(x.shape)}")
    pad = padding_value.item() if isinstance(padding_value, Tensor) and \
        padding_value.size == 1 else padding_value
    if isinstance(pad, (bool, np.bool_)) or not isinstance(pad, (int, float, np.number)):
        raise OpArgumentError(f"diag: argument 'padding_value' must be a number; got: "
                              f"{type(padding_value).__name__}")
    m = x._data.size
    n = m + abs(k)
    i = np.arange(m, dtype=np.int64)
    rows, cols = (i, i + k) if k >= 0 else (i - k, i)
    return put("diag", x if nd == 1 else as_shape(x, [1]), rows * n + cols, (n, n),
               fill=pad)


def diagflat(x, offset=0, name=None):
    """x flattened, as a square matrix with x on diagonal ``offset`` (zeros elsewhere)."""
    x = tensor_arg(x, "diagflat")
    return diag(x if x._data.ndim == 1 else as_shape(x, [x._data.size]), offset)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """The last axis of input put on diagonal ``offset`` of the (dim1, dim2) planes of a new
    tensor (one axis more; zeros elsewhere). No gradient: Paddle 3.3.1's diag_embed records
    none either (its result has stop_gradient=True)."""
    x = tensor_arg(input, "diag_embed")
    k = int_arg(offset, "diag_embed", "offset")
    a = x._data
    xp = array_module(a)
    nd = a.ndim + 1
    d1, d2 = (axis_arg(d, nd, "diag_embed") for d in (dim1, dim2))
    if d1 == d2:
        raise OpArgumentError(f"diag_embed: dim1 and dim2 must name different axes; got: "
                              f"{dim1} and {dim2}")
    m = a.shape[-1]
    n = m + abs(k)
    out = xp.zeros(a.shape[:-1] + (n, n), a.dtype)
    i = xp.arange(m)
    rows, cols = (i, i + k) if k >= 0 else (i - k, i)
    out[..., rows, cols] = a
    return _wrap(xp.ascontiguousarray(xp.moveaxis(out, [-2, -1], [d1, d2])))


@aliases(input="x")
def trace(x, offset=0, axis1=0, axis2=1, name=None):
    """Sum of the diagonal of the (axis1, axis2) planes; integers keep their dtype.

    Example:
        >>> float(opsdk.trace(opsdk.to_tensor([[1.0, 2.0], [3.0, 4.0]])))
        5.0
    """
    d = _diagonal(x, offset, axis1, axis2, "trace")
    dt = d._data.dtype
    return _sum(d, axis=-1, dtype=np.int64 if dt.kind == "b" else dt)
