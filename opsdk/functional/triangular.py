"""Triangular parts of the last two axes: tril, triu, and the in-place tril_, triu_."""
import numpy as np

from ..autograd.record import record
from ..errors import ShapeError
from . import maths
from .inplace import inplace_method
from .op_args import int_arg, tensor_arg


def _keep(name, x, mask):
    """x where mask is true, 0 elsewhere (a select, so NaN and inf outside become 0)."""
    xd = x._data
    out = np.where(mask, xd, np.zeros((), dtype=xd.dtype))
    return record(name, out, (x,), _KEEP, (name, mask))


def _kept(g, name, mask):
    """_keep on an array or (a graph op, its own adjoint) a Tensor."""
    if maths.is_tensor(g):
        return _keep(name, g, mask)
    return np.where(mask, g, np.zeros((), dtype=g.dtype))


_KEEP = (_kept,)


def _triangle(name, x, diagonal, lower):
    x = tensor_arg(x, name)
    if x._data.ndim < 2:
        raise ShapeError(f"{name}: expected: a tensor with at least 2 dims; got: shape {list(x.shape)}")
    k = int_arg(diagonal, name, "diagonal")
    n, m = x._data.shape[-2:]
    mask = np.tri(n, m, k, dtype=bool) if lower else ~np.tri(n, m, k - 1, dtype=bool)
    return _keep(name, x, mask)


def tril(x, diagonal=0, name=None):
    """The lower triangle of the last two axes: entries (i, j) with j - i <= diagonal; 0 above.

    Example:
        >>> opsdk.tril(opsdk.to_tensor([[1.0, 2.0], [3.0, 4.0]])).numpy()
        array([[1., 0.],
               [3., 4.]], dtype=float32)
    """
    return _triangle("tril", x, diagonal, True)


def triu(x, diagonal=0, name=None):
    """The upper triangle of the last two axes: entries (i, j) with j - i >= diagonal; 0 below.

    Example:
        >>> opsdk.triu(opsdk.to_tensor([[1.0, 2.0], [3.0, 4.0]])).numpy()
        array([[1., 2.],
               [0., 4.]], dtype=float32)
    """
    return _triangle("triu", x, diagonal, False)


tril_ = inplace_method(tril, "tril_")
triu_ = inplace_method(triu, "triu_")
