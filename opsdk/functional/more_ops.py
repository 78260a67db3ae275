"""crop and histogramdd: names of Paddle 3.3.1's top level that compose of opsdk's ops
(gradients from those; paddle.softmax, which needs nn, is in compat/torch_style.py)."""
import numpy as np

from ..errors import ArgumentTypeError, DTypeError, OpArgumentError, ShapeError
from ..tensor import Tensor, _wrap


def _int_list(v, op, arg):
    if isinstance(v, Tensor):
        v = v.tolist()
    return [int(i.item()) if isinstance(i, Tensor) else int(i) for i in v]


def crop(x, shape=None, offsets=None, name=None):
    """The block of x of shape (-1: to the end) starting at offsets (0s by default)."""
    if not isinstance(x, Tensor):
        raise ArgumentTypeError(f"crop: x must be a Tensor; got: {type(x).__name__}")
    dims = list(x._data.shape)
    size = dims if shape is None else _int_list(shape, "crop", "shape")
    start = [0] * len(dims) if offsets is None else _int_list(offsets, "crop", "offsets")
    if len(size) != len(dims) or len(start) != len(dims):
        raise ShapeError(f"crop: shape and offsets need one entry per dimension of x "
                         f"({len(dims)}); got: {len(size)} and {len(start)}")
    index = []
    for i, (s, o, d) in enumerate(zip(size, start, dims)):
        s = d - o if s == -1 else s
        if o < 0 or s < 0 or o + s > d:
            raise ShapeError(f"crop: offsets[{i}] + shape[{i}] ({o} + {s}) must be within "
                             f"dimension {i} of x (size {d})")
        index.append(slice(o, o + s))
    return x[tuple(index)]


def histogramdd(x, bins=10, ranges=None, density=False, weights=None, name=None):
    """(hist, edges): the D-dimensional histogram of the N points in x ([..., D]), as NumPy's
    histogramdd; bins an int, a list of ints or of edge tensors; ranges [min0, max0, min1,
    ...]; hist and edges in x's dtype. No gradient."""
    if not isinstance(x, Tensor):
        raise ArgumentTypeError(f"histogramdd: x must be a Tensor; got: {type(x).__name__}")
    if x._data.dtype.kind != "f":
        raise DTypeError(f"histogramdd: x must be float32 or float64; got: {x._data.dtype}")
    if x.ndim < 2:
        raise ShapeError(f"histogramdd: x must have at least 2 dimensions ([N, D]); got: "
                         f"{x.ndim}")
    pts = np.asarray(x._data).reshape(-1, x._data.shape[-1])
    d = pts.shape[1]
    if isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], Tensor):
        bins = [np.asarray(b._data) for b in bins]
    elif isinstance(bins, Tensor):
        bins = bins.tolist()
    rng = None
    if ranges is not None:
        ranges = [float(r) for r in ranges]
        if len(ranges) != 2 * d:
            raise OpArgumentError(f"histogramdd: ranges needs 2 entries per dimension "
                                  f"({2 * d}); got: {len(ranges)}")
        rng = list(zip(ranges[::2], ranges[1::2]))
    w = None if weights is None else np.asarray(weights._data).reshape(-1)
    hist, edges = np.histogramdd(pts, bins=bins, range=rng, density=density, weights=w)
    dt = x._data.dtype
    return _wrap(hist.astype(dt)), [_wrap(e.astype(dt)) for e in edges]
