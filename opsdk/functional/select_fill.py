"""index_fill, masked_scatter and renorm, built from the core ops.

Their gradients, to any order, are those ops' gradients."""
import numpy as np

from ..errors import DTypeError, OpArgumentError, ShapeError
from ..tensor import Tensor
from .casting import cast
from .logic import where
from .op_args import axis_arg, tensor_arg
from .shape import broadcast_to, reshape


def index_fill(x, index, axis, value, name=None):
    """x with the slices at ``index`` along ``axis`` set to ``value`` (a number or a 0-d
    Tensor); the filled places get no gradient from x.

    Example:
        >>> x = opsdk.zeros([2, 3])
        >>> opsdk.index_fill(x, opsdk.to_tensor([0, 2]), 1, 5.0).numpy().tolist()
        [[5.0, 0.0, 5.0], [5.0, 0.0, 5.0]]
    """
    x = tensor_arg(x, "index_fill")
    axis = axis_arg(axis, x.ndim, "index_fill")
    idx = index._data if isinstance(index, Tensor) else np.asarray(index)
    if idx.dtype.kind not in "iu":
        raise DTypeError(f"index_fill: argument 'index' must hold integers; got: {idx.dtype}")
    n = x.shape[axis]
    flat = idx.reshape(-1)
    if flat.size and (flat.max() >= n or flat.min() < -n):
        raise OpArgumentError(f"index_fill: argument 'index' holds {int(flat.max())} or "
                              f"{int(flat.min())}, out of range for axis {axis} of size {n}")
    hit = np.zeros(n, dtype=bool)
    hit[flat] = True
    mask = hit.reshape([n if a == axis else 1 for a in range(x.ndim)])
    if isinstance(value, Tensor):
        value = cast(value, x._data.dtype) if value._data.dtype != x._data.dtype else value
    else:
        value = np.asarray(value, dtype=x._data.dtype)
    return where(np.broadcast_to(mask, x._data.shape), value, x)


def masked_scatter(x, mask, value, name=None):
    """x with the places where ``mask`` (bool, broadcast to x) is True filled, in order, by the
    first elements of ``value``; value gets the gradient of the places it filled."""
    x = tensor_arg(x, "masked_scatter")
    value = tensor_arg(value, "masked_scatter", "value")
    m = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if m.dtype != bool:
        raise DTypeError(f"masked_scatter: argument 'mask' must be a bool tensor; got: {m.dtype}")
    if value._data.dtype != x._data.dtype:
        raise DTypeError(f"masked_scatter: 'x' and 'value' must have one dtype; got: "
                         f"{x._data.dtype} and {value._data.dtype}")
    try:
        m = np.broadcast_to(m, x._data.shape)
    except ValueError:
        raise ShapeError(f"masked_scatter: 'mask' of shape {list(m.shape)} does not broadcast "
                         f"to x's shape {list(x.shape)}") from None
    count = int(m.sum())
    if count > value.size:
        raise OpArgumentError(f"masked_scatter: 'mask' selects {count} places; 'value' has "
                              f"only {value.size} elements")
    # the place k-th True reads value's k-th element; the other places read element 0, unused
    pos = np.clip(np.cumsum(m.reshape(-1)) - 1, 0, None).reshape(m.shape)
    if value.size == 0:
        return where(m, x, x)
    taken = reshape(value, [-1])[pos.reshape(-1)]
    return where(m, reshape(taken, x.shape), x)


def renorm(x, p, axis, max_norm, name=None):
    """Each slice of x along ``axis`` whose p-norm exceeds ``max_norm`` scaled down to it.

    Example:
        >>> x = opsdk.to_tensor([[3.0, 4.0], [0.3, 0.4]], dtype="float64")
        >>> opsdk.renorm(x, 2, 0, 1.0).numpy().round(4).tolist()
        [[0.6, 0.8], [0.3, 0.4]]
    """
    from .reduction import sum as _sum
    from .unary import abs as _abs
    x = tensor_arg(x, "renorm")
    axis = axis_arg(axis, x.ndim, "renorm")
    if not isinstance(p, (int, float)) or isinstance(p, bool) or not p > 0:
        raise OpArgumentError(f"renorm: argument 'p' must be a number > 0; got: {p!r}")
    others = [a for a in range(x.ndim) if a != axis]
    s = _sum(_abs(x) ** p, axis=others, keepdim=True) if others else _abs(x) ** p
    # an all-zero slice: its norm is 0 and its factor 1 (the root's slope at 0 never read)
    filled = s > 0
    norms = where(filled, where(filled, s, np.ones((), x._data.dtype)) ** (1.0 / p),
                  np.zeros((), x._data.dtype))
    # Paddle's factor: max_norm / (norm + 1e-7) where the norm is above max_norm
    factor = where(norms > max_norm, max_norm / (norms + 1e-7), np.ones((), x._data.dtype))
    return x * factor
