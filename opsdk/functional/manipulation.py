"""Paddle's tensor-manipulation helpers, composed of the core shape and indexing ops (so their
gradients, views and higher orders come from those ops): the h/v/d/column stacks and splits,
tensor_split, atleast_Nd, ravel, narrow, swapaxes, matrix_transpose, view_as, unflatten, take,
take_along_dim, slice, strided_slice, reverse, block_diag, unfold."""
import builtins

import numpy as np

from ..autograd.record import clone, record
from ..errors import (ArgumentTypeError, AssertedArgumentError, AxisOutOfRangeError,
                      DTypeError, IndexOutOfRangeError, OpArgumentError, ShapeError)
from ..tensor import Tensor
from . import creation, flat_index
from .along_axis import take_along_axis
from .indexing import getitem
from .op_args import aliases, check_axis, int_arg, tensor_arg as _arg
from .shape import _ints, concat, flip, reshape_exact, transpose

_S = builtins.slice  # this module defines Paddle's slice


def _atleast(inputs, nd, op):
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = inputs[0]
    out = []
    for t in inputs:
        t = _arg(t, op)
        if t.ndim >= nd:
            out.append(t)  # the tensor itself, as in Paddle
            continue
        shp = t.shape
        if nd == 3 and len(shp) == 2:
            shp = shp + [1]
        elif nd == 3 and len(shp) == 1:
            shp = [1] + shp + [1]
        else:
            shp = [1] * (nd - len(shp)) + shp
        out.append(reshape_exact(t, shp, op))
    return out[0] if len(out) == 1 else out


def atleast_1d(*inputs, name=None):
    """Each input with at least 1 dimension (a view; the tensor itself when it has one)."""
    return _atleast(inputs, 1, "atleast_1d")


def atleast_2d(*inputs, name=None):
    """Each input with at least 2 dimensions ([n] becomes [1, n])."""
    return _atleast(inputs, 2, "atleast_2d")


def atleast_3d(*inputs, name=None):
    """Each input with at least 3 dimensions ([n] becomes [1, n, 1], [m, n] [m, n, 1])."""
    return _atleast(inputs, 3, "atleast_3d")


def _tensors(x, op):
    if not isinstance(x, (list, tuple)) or not x:
        raise OpArgumentError(f"{op}: argument 'x' must be a non-empty list of Tensors; "
                              f"got: {x!r}")
    return [_arg(t, op, f"x[{i}]") for i, t in enumerate(x)]


def hstack(x, name=None):
    """Join along axis 1 (axis 0 when every tensor is at most 1-D)."""
    ts = [atleast_1d(t) for t in _tensors(x, "hstack")]
    return concat(ts, 0 if ts[0].ndim == 1 else 1)


def vstack(x, name=None):
    """Join along axis 0, each tensor made at least 2-D."""
    return concat([atleast_2d(t) for t in _tensors(x, "vstack")], 0)


row_stack = vstack


def dstack(x, name=None):
    """Join along axis 2, each tensor made at least 3-D."""
    return concat([atleast_3d(t) for t in _tensors(x, "dstack")], 2)


def column_stack(x, name=None):
    """Join as columns: 0-D and 1-D tensors become [n, 1] columns, then concat along axis 1."""
    ts = [reshape_exact(t, [t.size, 1], "column_stack") if t.ndim < 2 else t
          for t in _tensors(x, "column_stack")]
    return concat(ts, 1)


def tensor_split(x, num_or_indices, axis=0, name=None):
    """Split x along axis into n near-equal parts (the first n % size one longer) or at the
    given indices; copies, as Paddle's."""
    x = _arg(x, "tensor_split")
    if x.ndim == 0:
        raise ShapeError("tensor_split: expected: a tensor with at least 1 dimension; "
                         "got: a 0-d tensor")
    axis = check_axis(axis, x.ndim, "tensor_split")
    n = x._data.shape[axis]
    if isinstance(num_or_indices, Tensor):
        num_or_indices = num_or_indices.tolist()
    if isinstance(num_or_indices, (int, np.integer)) and not isinstance(num_or_indices, bool):
        k = int(num_or_indices)
        if k < 1:
            raise OpArgumentError(f"tensor_split: argument 'num_or_indices' must be at least 1 "
                                  f"as an int; got: {k}")
        sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
        bounds = np.cumsum([0] + sizes).tolist()
    elif isinstance(num_or_indices, (list, tuple)):
        idx = [int_arg(i, "tensor_split", "num_or_indices") for i in num_or_indices]
        bounds = [0] + idx + [n]
    else:
        raise OpArgumentError(f"tensor_split: argument 'num_or_indices' must be an int or a "
                              f"list of ints; got: {num_or_indices!r}")
    lead = (_S(None),) * axis
    return [clone(getitem(x, lead + (_S(lo, hi),))) for lo, hi in zip(bounds[:-1], bounds[1:])]


def _split_along(x, num_or_indices, axis, least, op):
    x = _arg(x, op)
    if x.ndim < least:
        raise ShapeError(f"{op}: expected: a tensor with at least {least} dimensions; "
                         f"got: {x.ndim}")
    return tensor_split(x, num_or_indices, axis)


def hsplit(x, num_or_indices, name=None):
    """tensor_split along axis 1 (axis 0 for a 1-D tensor)."""
    x = _arg(x, "hsplit")
    return _split_along(x, num_or_indices, 1 if x.ndim > 1 else 0, 1, "hsplit")


def vsplit(x, num_or_indices, name=None):
    """tensor_split along axis 0 of a tensor with at least 2 dimensions."""
    return _split_along(x, num_or_indices, 0, 2, "vsplit")


def dsplit(x, num_or_indices, name=None):
    """tensor_split along axis 2 of a tensor with at least 3 dimensions."""
    return _split_along(x, num_or_indices, 2, 3, "dsplit")


def ravel(input):
    """x flattened to 1-D (a view)."""
    x = _arg(input, "ravel")
    return reshape_exact(x, [x.size], "ravel")


def _axis_in_range(axis, ndim, op, arg):
    """check_axis, with an axis out of range an IndexError too (as Paddle's there)."""
    a = int_arg(axis, op, arg)
    if not -ndim <= a < ndim:
        raise AxisOutOfRangeError(f"{op}: argument '{arg}' out of range; expected: in "
                                  f"[{-ndim}, {ndim - 1}] for a {ndim}-d tensor; got: {a}")
    return a % ndim


def narrow(input, dim, start, length):
    """The elements start .. start + length - 1 along dim (a view of input)."""
    x = _arg(input, "narrow")
    if x.ndim == 0:
        raise AssertedArgumentError("narrow: expected: a tensor with at least 1 dimension; "
                                    "got: a 0-d tensor")
    dim = _axis_in_range(dim, x.ndim, "narrow", "dim")
    start = int_arg(start, "narrow", "start")
    n = x._data.shape[dim]
    if length < 0 or not -n <= start <= n or (start % n if n and start < 0 else start) + length > n:
        raise AssertedArgumentError(f"narrow: start {start} and length {length} do not fit in "
                                    f"dimension {dim} of size {n}; expected: -{n} <= start <= "
                                    f"{n}, 0 <= length, start + length <= {n}")
    start = start + n if start < 0 else start
    return getitem(x, (_S(None),) * dim + (_S(start, start + length),))


def swapaxes(x, perm=None, *dims, name=None, dim0=None, dim1=None):
    """Paddle's swapaxes (its transpose): a permutation, or two axes to swap
    (``swapaxes(x, 0, 1)``)."""
    x = _arg(x, "swapaxes")
    if dim0 is not None or dims or (isinstance(perm, (int, np.integer)) and dim1 is not None):
        a = perm if dim0 is None else dim0
        b = dims[0] if dims else dim1
        a, b = (_axis_in_range(a, x.ndim, "swapaxes", "dim0"),
                _axis_in_range(b, x.ndim, "swapaxes", "dim1"))
        perm = list(range(x.ndim))
        perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, perm)


swapdims = swapaxes


def matrix_transpose(x, name=None):
    """The last two axes of x swapped (a view)."""
    x = _arg(x, "matrix_transpose")
    if x.ndim < 2:
        raise ShapeError(f"matrix_transpose: expected: a tensor with at least 2 dimensions; "
                         f"got: {x.ndim}")
    perm = list(range(x.ndim))
    perm[-2], perm[-1] = perm[-1], perm[-2]
    return transpose(x, perm)


def view_as(x, other, name=None):
    """x with other's shape (a view)."""
    return reshape_exact(_arg(x, "view_as"), _arg(other, "view_as", "other").shape, "view_as")


def unflatten(x, axis, shape, name=None):
    """Axis ``axis`` of x split into the dimensions ``shape`` (one may be -1); a view."""
    x = _arg(x, "unflatten")
    a = int_arg(axis, "unflatten", "axis")
    if not -x.ndim <= a < x.ndim:
        raise AssertedArgumentError(f"unflatten: argument 'axis' out of range; expected: in "
                                    f"[{-x.ndim}, {x.ndim - 1}]; got: {a}")
    axis = a % x.ndim
    shape = _ints(shape, "unflatten", "shape")
    if not shape:
        raise ShapeError("unflatten: argument 'shape' must not be empty")
    n = x._data.shape[axis]
    known = int(np.prod([s for s in shape if s != -1]))
    if shape.count(-1) > 1 or (-1 not in shape and known != n) or \
            (-1 in shape and (known == 0 or n % known)):
        raise ShapeError(f"unflatten: shape {shape} does not fit dimension {axis} of size {n}; "
                         f"expected: sizes whose product is {n} (at most one -1)")
    return reshape_exact(x, x.shape[:axis] + shape + x.shape[axis + 1:], "unflatten")


def take(x, index, mode="raise", name=None):
    """x's elements at the flat positions ``index`` (as if x were 1-D); index's shape.

    mode 'raise': an index out of [-n, n) is an error (negative ones count from the end);
    'wrap': indices wrap modulo n; 'clip': clipped to [0, n - 1]."""
    x = _arg(x, "take")
    index = _arg(index, "take", "index")
    if mode not in ("raise", "wrap", "clip"):
        raise OpArgumentError(f"take: argument 'mode' must be 'raise', 'wrap' or 'clip'; "
                              f"got: {mode!r}")
    if index._data.dtype.kind not in "iu":
        raise DTypeError(f"take: argument 'index' must be an int32 or int64 tensor; "
                         f"got: {index._data.dtype}")
    n = x.size
    idx = np.asarray(index._data).astype(np.int64)
    if mode == "raise":
        if idx.size and (idx.min() < -n or idx.max() >= n):
            raise IndexOutOfRangeError(f"take: index out of range; expected: in [{-n}, {n}) for "
                                       f"a tensor of {n} elements; got: values in "
                                       f"[{idx.min()}, {idx.max()}]")
        idx = np.where(idx < 0, idx + n, idx)
    elif mode == "wrap":
        idx = np.mod(idx, n)
    else:
        idx = np.clip(idx, 0, n - 1)
    return flat_index.take("take", x, idx, unique=False)


def take_along_dim(arr, indices, axis=None, broadcast=True, *, out=None):
    """take_along_axis under its NumPy-style name (axis None: of arr flattened)."""
    arr = _arg(arr, "take_along_dim")
    if axis is None:
        return take_along_axis(ravel(arr), ravel(indices), 0, broadcast)
    return take_along_axis(arr, indices, axis, broadcast)


def _slice_lists(x, op, axes, starts, ends, strides=None):
    lists = [axes, starts, ends] + ([strides] if strides is not None else [])
    names = ["axes", "starts", "ends", "strides"]
    vals = [_ints(v, op, names[i]) for i, v in enumerate(lists)]
    if len({len(v) for v in vals}) > 1:
        raise OpArgumentError(f"{op}: arguments {', '.join(names[:len(vals)])} must have equal "
                              f"lengths; got: {[len(v) for v in vals]}")
    idx = [_S(None)] * x.ndim
    for k, a in enumerate(vals[0]):
        a = check_axis(a, x.ndim, op, "axes")
        step = vals[3][k] if strides is not None else 1
        if step == 0:
            raise OpArgumentError(f"{op}: argument 'strides' must not hold 0; got: {vals[3]}")
        idx[a] = _S(vals[1][k], vals[2][k], step)
    return getitem(x, tuple(idx))


def slice(input, axes, starts, ends):
    """input[starts:ends] along each of axes (a view); bounds are clamped as in Python."""
    x = _arg(input, "slice")
    return _slice_lists(x, "slice", axes, starts, ends)


def strided_slice(x, axes, starts, ends, strides, name=None):
    """x[starts:ends:strides] along each of axes (a view)."""
    x = _arg(x, "strided_slice")
    return _slice_lists(x, "strided_slice", axes, starts, ends, strides)


def reverse(x, axis, name=None):
    """Paddle's older name for flip (a copy)."""
    return flip(x, axis)


def block_diag(inputs, name=None):
    """The tensors (0-D, 1-D or 2-D, each taken as a matrix) on the diagonal of one matrix."""
    if not isinstance(inputs, (list, tuple)):
        raise OpArgumentError(f"block_diag: argument 'inputs' must be a list of Tensors; "
                              f"got: {type(inputs).__name__}")
    ts = []
    for i, t in enumerate(inputs):
        t = _arg(t, "block_diag", f"inputs[{i}]")
        if t.ndim > 2:
            raise ShapeError(f"block_diag: expected: tensors of at most 2 dimensions; got: "
                             f"inputs[{i}] with {t.ndim}")
        ts.append(atleast_2d(t))
    dtypes = [str(t._data.dtype) for t in ts]
    if len(set(dtypes)) > 1:
        raise DTypeError(f"block_diag: the tensors must share one dtype; got: {dtypes}")
    width = sum(t._data.shape[1] for t in ts)
    rows, left = [], 0
    for t in ts:
        r, c = t._data.shape
        parts = [creation.zeros([r, left], dtype=t._data.dtype), t,
                 creation.zeros([r, width - left - c], dtype=t._data.dtype)]
        rows.append(concat(parts, 1))
        left += c
    return concat(rows, 0)


@aliases(dimension="axis")
def unfold(x, axis, size, step, name=None):
    """The sliding windows of ``size`` elements every ``step`` along axis, in a new last axis.

    That axis becomes the (L - size) // step + 1 windows and a last axis of length size holds
    each one (``x.unfold(0, 2, 1)`` of [0, 1, 2] is [[0, 1], [1, 2]]). A copy here (Paddle
    returns a view).

    Gradient: where windows overlap, an element takes the gradient of its place in the last
    window holding it, not the sum over the windows (Paddle 3.3.1's rule, which this follows);
    without overlap (step >= size) that is the derivative.

    Example:
        >>> opsdk.unfold(opsdk.arange(5.0), 0, 2, 2).tolist()
        [[0.0, 1.0], [2.0, 3.0]]
    """
    op = "unfold"
    x = _arg(x, op)
    for v, a in ((axis, "axis"), (size, "size"), (step, "step")):
        if isinstance(v, (float, np.floating)):  # Paddle takes ints only (a TypeError)
            raise ArgumentTypeError(f"{op}: argument '{a}' must be an int; got: {v!r} (float)")
    axis, size, step = (int_arg(v, op, a) for v, a in ((axis, "axis"), (size, "size"),
                                                       (step, "step")))
    shape = list(x._data.shape) or [1]  # a 0-d x unfolds as one element, as in Paddle
    axis = _axis_in_range(axis, len(shape), op, "axis")
    if step <= 0 or not 0 <= size <= shape[axis]:
        raise OpArgumentError(f"{op}: expected: step > 0 and 0 <= size <= {shape[axis]} (the "
                              f"axis' length); got: size={size}, step={step}")
    count = (shape[axis] - size) // step + 1
    starts = np.arange(count) * step
    pos = np.moveaxis(flat_index.positions(shape), axis, -1)
    # [..., count, size] (the other axes in place), then the windows at axis, each one last
    pos = np.moveaxis(pos[..., starts[:, None] + np.arange(size)], -2, axis)
    out = x._data.reshape(-1)[pos]
    if not x._data.ndim:
        out = out.reshape([size])
    # each element's gradient from the last place (in the output's order) that holds it
    order = pos.reshape(-1)[::-1]
    _, first = np.unique(order, return_index=True)
    last = order.size - 1 - first
    return record(op, out, (x,), _UNFOLD, (last, pos.reshape(-1)[last], x._data.shape))


_UNFOLD = (lambda g, last, at, shape: flat_index.put_into(
    flat_index.taken(g, last, name="unfold"), at, shape, name="unfold"),)
