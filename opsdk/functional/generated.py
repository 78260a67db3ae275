"""Tensors Paddle generates from sizes or from the elements of others: range, tril_indices,
triu_indices, cartesian_prod, combinations, vander, and the Tensor's new_zeros/new_ones/
new_full/new_empty. Those built from a tensor's elements are composed of core ops (their
gradients come with them)."""
import itertools

import numpy as np

from ..dtypes import convert_dtype, default_float
from ..errors import ArgumentTypeError, OpArgumentError, ShapeError
from ..tensor import Tensor, _wrap
from . import creation, flat_index
from .cumulative import cumprod
from .op_args import tensor_arg as _arg
from .rearrange import meshgrid
from .shape import broadcast_to, concat, flip, reshape_exact, stack, unsqueeze


def range(start=0, end=None, step=1, dtype=None, *, out=None, device=None,
          requires_grad=False, name=None):
    """Values from start to end, both included, in steps (Paddle's deprecated range);
    the default float dtype unless dtype says otherwise."""
    if end is None:
        start, end = 0, start
    start, end, step = (v.item() if isinstance(v, Tensor) else v for v in (start, end, step))
    if step == 0:
        raise OpArgumentError("range: argument 'step' must not be 0")
    n = max(int(np.floor((end - start) / step)) + 1, 0)
    dt = convert_dtype(dtype, op="range") if dtype is not None else default_float()
    t = _wrap((start + np.arange(n) * step).astype(dt))  # np.arange: this module's range is Paddle's
    t.stop_gradient = not requires_grad
    return t


def _indices(fn, row, col, offset, dtype, op):
    if col is None:
        col = row
    if row < 0 or col < 0:
        # Paddle: "row should be a non-negative int", a TypeError
        raise ArgumentTypeError(f"{op}: arguments 'row' and 'col' must not be negative; got: "
                              f"{row}, {col}")
    r, c = fn(row, offset, col)
    return _wrap(np.stack([r, c]).astype(convert_dtype(dtype, op=op)).reshape(2, -1))


def tril_indices(row, col, offset=0, dtype="int64"):
    """The [2, k] row and column indices of the lower triangle (to diagonal ``offset``) of a
    row x col matrix, row by row."""
    return _indices(np.tril_indices, row, col, offset, dtype, "tril_indices")


def triu_indices(row, col=None, offset=0, dtype="int64"):
    """The [2, k] indices of the upper triangle (from diagonal ``offset``), row by row."""
    return _indices(np.triu_indices, row, col, offset, dtype, "triu_indices")


def _vector(x, op, i=None, error=ShapeError):
    x = _arg(x, op, "x" if i is None else f"x[{i}]")
    if x.ndim != 1:
        raise error(f"{op}: expected: a 1-D tensor; got: shape {x.shape}")
    return x


def cartesian_prod(x, name=None):
    """Every combination of one element from each 1-D tensor of x, as rows ([n1*n2*.., k]);
    one tensor is returned as it is."""
    if not isinstance(x, (list, tuple)) or not x:
        raise OpArgumentError(f"cartesian_prod: argument 'x' must be a non-empty list of 1-D "
                              f"Tensors; got: {x!r}")
    ts = [_vector(t, "cartesian_prod", i) for i, t in enumerate(x)]
    if len(ts) == 1:
        return ts[0]
    grids = meshgrid(ts)
    return stack([reshape_exact(g, [g.size], "cartesian_prod") for g in grids], 1)


def combinations(x, r=2, with_replacement=False, name=None):
    """The r-element combinations of the elements of 1-D x, in order, as rows ([k, r])."""
    x = _vector(x, "combinations", error=ArgumentTypeError)  # Paddle: a TypeError here
    if r < 0:
        raise OpArgumentError(f"combinations: argument 'r' must not be negative; got: {r}")
    if r == 0:
        return creation.to_tensor(np.zeros(0, dtype=x._data.dtype))
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    pos = np.array(list(pick(np.arange(x.size), r)), dtype=np.int64).reshape(-1, r)
    return flat_index.take("combinations", x, pos, unique=False)


def vander(x, n=None, increasing=False, name=None):
    """The Vandermonde matrix of 1-D x: columns x**(n-1), ..., x**0 (increasing: reversed);
    built with cumprod, as Paddle's (so x = 0 has finite gradients)."""
    x = _vector(x, "vander")
    m = x.size
    n = m if n is None else n
    if n < 0:
        raise OpArgumentError(f"vander: argument 'n' must not be negative; got: {n}")
    if n == 0:
        return creation.to_tensor(np.zeros((m, 0), dtype=x._data.dtype))
    ones = creation.to_tensor(np.ones((m, 1), dtype=x._data.dtype))
    cols = [ones]
    if n > 1:
        cols.append(cumprod(broadcast_to(unsqueeze(x, 1), [m, n - 1]), dim=1))
    res = concat(cols, 1) if len(cols) > 1 else ones
    return res if increasing else flip(res, [1])


def _new(self, size, fill, dtype, requires_grad, op, device=None, pin_memory=False):
    if isinstance(size, tuple):
        # new_zeros/new_ones/new_empty take the sizes one by one too (x.new_ones(2, 3))
        if not size:
            raise ArgumentTypeError(f"{op}: missing the size (a list of ints, or ints)")
        size = size[0] if len(size) == 1 else list(size)
    if isinstance(size, (int, np.integer)):
        size = [int(size)]
    dt = convert_dtype(dtype, op=op) if dtype is not None else self._data.dtype
    t = _wrap(np.full(creation._shape_list(size, op), fill, dtype=dt))
    return creation.placed(t, device, requires_grad, pin_memory, op)


def new_zeros(self, *size, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A tensor of zeros of size, in this tensor's dtype unless dtype says otherwise."""
    return _new(self, size, 0, dtype, requires_grad, "new_zeros", device, pin_memory)


def new_ones(self, *size, dtype=None, device=None, requires_grad=False, pin_memory=False):
    return _new(self, size, 1, dtype, requires_grad, "new_ones", device, pin_memory)


def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False,
             pin_memory=False):
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    return _new(self, size, fill_value, dtype, requires_grad, "new_full", device,
                pin_memory)


def new_empty(self, *size, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """Zeros (opsdk's empty tensors are zero-filled)."""
    return _new(self, size, 0, dtype, requires_grad, "new_empty", device, pin_memory)
