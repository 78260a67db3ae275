"""unique, histogram, bincount, numel, shape, increment: counting ops, without gradients.

increment is an in-place add on a one-element tensor."""
import numpy as np

from ..dtypes import convert_dtype
from ..errors import DTypeError, OpArgumentError, ShapeError
from ..tensor import _wrap
from .op_args import axis_arg, int_arg, tensor_arg


def _int_dtype(dtype, op):
    dt = convert_dtype(dtype, op=op)
    if dt not in (np.int32, np.int64):
        raise DTypeError(f"{op}: argument 'dtype' must be int32 or int64; got: {dt}")
    return dt


def unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None,
           dtype="int64", sorted=True, name=None):
    """The sorted distinct values of x (flattened), or its distinct slices along ``axis``.

    On request also where each first occurs, where each element went, and how often each
    occurs (indices in ``dtype``), as a tuple in that order.

    Example:
        >>> opsdk.unique(opsdk.to_tensor([3, 1, 3])).numpy().tolist()
        [1, 3]
    """
    x = tensor_arg(x, "unique")
    dt = _int_dtype(dtype, "unique")
    data = x._host()
    if axis is not None:
        axis = axis_arg(axis, data.ndim, "unique")
    values, index, inverse, counts = np.unique(data, return_index=True, return_inverse=True,
                                               return_counts=True, axis=axis)
    out = [_wrap(np.ascontiguousarray(values))]
    if return_index:
        out.append(_wrap(index.astype(dt)))
    if return_inverse:
        out.append(_wrap(inverse.reshape(-1).astype(dt)))
    if return_counts:
        out.append(_wrap(counts.astype(dt)))
    return out[0] if len(out) == 1 else tuple(out)


def histogram(input, bins=100, min=0.0, max=0.0, weight=None, density=False, name=None):
    """Counts of input's values in ``bins`` equal bins over [min, max] (both 0: the data's range).

    Values outside are left out. int64 counts; with ``weight`` or ``density``, input's float
    dtype.

    Example:
        >>> opsdk.histogram(opsdk.to_tensor([1.0, 2.0, 1.0]), bins=2, min=0, max=2).numpy().tolist()
        [0, 3]
    """
    x = tensor_arg(input, "histogram", "input")
    bins = int_arg(bins, "histogram", "bins")
    if bins < 1:
        raise OpArgumentError(f"histogram: argument 'bins' must be >= 1; got: {bins}")
    if max < min:
        raise OpArgumentError(f"histogram: argument 'max' must be >= 'min'; got: min={min}, "
                              f"max={max}")
    data = x._host().reshape(-1)
    lo, hi = float(min), float(max)
    if lo == 0 and hi == 0 and data.size:
        lo, hi = float(data.min()), float(data.max())
    w = None
    if weight is not None:
        w = tensor_arg(weight, "histogram", "weight")._host().reshape(-1)
        if w.size != data.size:
            raise ShapeError(f"histogram: argument 'weight' must have input's shape; expected: "
                             f"{list(x.shape)}; got: {list(np.shape(w))}")
    counts, _ = np.histogram(data, bins=bins, range=(lo, hi) if lo != hi else None, weights=w,
                             density=density)
    if w is None and not density:
        return _wrap(counts.astype(np.int64))
    kind = x._data.dtype if x._data.dtype.kind == "f" else np.dtype(np.float32)
    return _wrap(counts.astype(kind))


def bincount(x, weights=None, minlength=0, name=None):
    """How often each value 0, 1, ... occurs in the 1-D non-negative integer tensor x.

    With ``weights``, their sums instead of counts; at least ``minlength`` bins.

    Example:
        >>> opsdk.bincount(opsdk.to_tensor([1, 1, 3])).numpy().tolist()
        [0, 2, 0, 1]
    """
    x = tensor_arg(x, "bincount")
    data = x._host()
    if data.dtype.kind not in "iu":
        raise DTypeError(f"bincount: argument 'x' must be an integer tensor; got: {data.dtype}")
    if data.ndim != 1:
        raise ShapeError(f"bincount: argument 'x' must be 1-D; got: shape {list(x.shape)}")
    if data.size and data.min() < 0:
        raise OpArgumentError(f"bincount: argument 'x' must hold non-negative values; got: "
                              f"{int(data.min())}")
    minlength = int_arg(minlength, "bincount", "minlength")
    if weights is None:
        return _wrap(np.bincount(data, minlength=minlength).astype(np.int64))
    w = tensor_arg(weights, "bincount", "weights")._host()
    if w.shape != data.shape:
        raise ShapeError(f"bincount: argument 'weights' must have x's shape; expected: "
                         f"{list(x.shape)}; got: {list(w.shape)}")
    return _wrap(np.bincount(data, weights=w, minlength=minlength).astype(w.dtype))


def numel(x, name=None):
    """The number of elements of x, as a 0-d int64 tensor.

    Example:
        >>> int(opsdk.numel(opsdk.zeros([2, 3])))
        6
    """
    return _wrap(np.asarray(tensor_arg(x, "numel")._data.size, dtype=np.int64))


def rank(input):
    """The number of dimensions of input, as a 0-d int32 tensor (Paddle's type).

    Example:
        >>> int(opsdk.rank(opsdk.zeros([2, 3])))
        2
    """
    return _wrap(np.asarray(tensor_arg(input, "rank")._data.ndim, dtype=np.int32))


def shape(input):
    """The shape of input as a 1-D int64 tensor.

    Example:
        >>> opsdk.shape(opsdk.zeros([2, 3])).numpy().tolist()
        [2, 3]
    """
    return _wrap(np.asarray(tensor_arg(input, "shape", "input")._data.shape, dtype=np.int64))


def increment(x, value=1.0, name=None):
    """x += value in place, for a tensor of one element (as Paddle's); returns x.

    Example:
        >>> opsdk.increment(opsdk.to_tensor([1.0]), 2.0).numpy().tolist()
        [3.0]
    """
    x = tensor_arg(x, "increment")
    if x._data.size != 1:
        raise ShapeError(f"increment: argument 'x' must have exactly one element; got: shape "
                         f"{list(x.shape)}")
    return x.add_(value)


__all__ = ["unique", "histogram", "bincount", "numel", "shape", "increment"]
