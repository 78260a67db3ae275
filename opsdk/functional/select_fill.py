"""index_fill, masked_scatter and renorm.

index_fill and masked_scatter are built from the core ops (their gradients, to any order, are
those ops'); renorm is an op of its own with Paddle's gradient formula."""
import numpy as np

from ..autograd.record import record
from ..errors import DTypeError, OpArgumentError, ShapeError
from ..tensor import Tensor
from . import maths
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
    """Each slice of x along ``axis`` whose p-norm exceeds ``max_norm`` scaled down to it (by
    max_norm / norm, as Paddle 3.3.1); the gradient is Paddle's formula, to any order.

    Example:
        >>> x = opsdk.to_tensor([[3.0, 4.0], [0.3, 0.4]], dtype="float64")
        >>> opsdk.renorm(x, 2, 0, 1.0).numpy().round(4).tolist()
        [[0.6, 0.8], [0.3, 0.4]]
    """
    x = tensor_arg(x, "renorm")
    axis = axis_arg(axis, x.ndim, "renorm")
    if not isinstance(p, (int, float)) or isinstance(p, bool) or not p > 0:
        raise OpArgumentError(f"renorm: argument 'p' must be a number > 0; got: {p!r}")
    others = tuple(a for a in range(x.ndim) if a != axis)
    # Paddle's attributes p and max_norm are float32
    p, max_norm = float(np.float32(p)), float(np.float32(max_norm))
    xd = x._data
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        norm = _slice_sums(xd, p, others).astype(np.float64) ** (1.0 / p)
        norm = norm.astype(xd.dtype)  # Paddle keeps the norm in x's dtype here
        over = norm > max_norm
        factor = np.where(over, xd.dtype.type(max_norm) / norm, 1).astype(xd.dtype)
        out = np.where(over, factor * xd, xd).astype(xd.dtype, copy=False)
    return record("renorm", out, (x,), (_renorm_grad,), (x, p, others, max_norm))


def _slice_sums(x, p, others):
    """S = sum of |x|^p over ``others``, per slice (arrays or Tensors)."""
    return _per_slice(maths.abs(x) ** _typed(x, p), others)


def _typed(x, p):
    """p as a number of x's dtype (Paddle computes powers in x's precision)."""
    return (x._data if maths.is_tensor(x) else x).dtype.type(p)


def _per_slice(v, others):
    """v summed over ``others`` (keeping them as size-1 dims); on arrays one element after
    another in memory order, as Paddle's CPU kernel adds them."""
    if not others:
        return v
    if maths.is_tensor(v):
        return maths.sum(v, axis=others, keepdims=True)
    axis = next(a for a in range(v.ndim) if a not in others)
    rows = np.moveaxis(v, axis, 0).reshape(v.shape[axis], -1)
    sums = np.cumsum(rows, axis=1)[:, -1] if rows.shape[1] else rows.sum(axis=1)
    return sums.reshape([v.shape[axis] if a == axis else 1 for a in range(v.ndim)])


def _renorm_grad(g, x, p, others, max_norm):
    """Paddle's kernel: factor * g + sum(x * g) * d factor/dS * |x|^(p-1) * sign(x) per slice,
    with factor = max_norm / S^(1/p) and d factor/dS = -max_norm S^(-1-1/p) where the norm
    exceeds max_norm (else 1 and 0). On arrays in Paddle's precisions and order (a slice whose
    sum of x the loss does not see gets an exact zero, as in Paddle); on Tensors (create_graph)
    the same terms as graph ops, so the gradient is differentiable again."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        tensors = maths.is_tensor(x) or maths.is_tensor(g)
        xd = x._data if maths.is_tensor(x) else x
        dt = xd.dtype.type
        s = _slice_sums(x, p, others)
        sd = s._data if maths.is_tensor(s) else s
        norm = sd.astype(np.float64) ** (1.0 / p)
        over = norm > max_norm
        if tensors:
            safe = maths.where(over, s, np.ones((), xd.dtype))  # untouched slices: never read
            factor = maths.where(over, max_norm / safe ** (1.0 / p), np.ones((), xd.dtype))
            slope = maths.where(over, safe ** (-1.0 - 1.0 / p) * -max_norm,
                                np.zeros((), xd.dtype))
        else:
            factor = np.where(over, max_norm / norm, 1).astype(xd.dtype)
            slope = np.where(over, sd ** dt(-1.0 - 1.0 / p) * dt(-1) * dt(max_norm),
                             0).astype(xd.dtype)
        sign = np.where(xd >= 0, 1, -1).astype(xd.dtype)
        weight = _per_slice(x * g, others)
        if tensors:
            return factor * g + weight * slope * maths.abs(x) ** (p - 1.0) * sign
        # Paddle adds the second term in double: |x|^(p-1) is a double power there
        second = (weight * slope).astype(np.float64) * np.abs(xd).astype(np.float64) ** (p - 1.0)
        return ((factor * g).astype(np.float64) + second * sign).astype(xd.dtype)
