"""linear (x @ W + b as one op, float16 under auto_cast) and dropout."""
import numpy as np

from ...amp.state import casts_to_low
from ...errors import OpArgumentError, ShapeError
from ...functional.creation import get_rng
from ...functional.linalg import matmul
from ...functional.record import record
from ...functional.reduction import sum as _sum
from ...functional.shape import reshape_exact
from ...tensor import _wrap
from ._graph import float_arg, same_dtype, wants_grad


def linear(x, weight, bias=None, name=None):
    """x @ weight + bias, with weight [in_features, out_features] as in Paddle.

    Under ``opsdk.amp.auto_cast()`` the product runs in float16 (see ``opsdk.amp``).

    Args:
        x: float Tensor [..., in_features].
        weight: float Tensor [in_features, out_features].
        bias: optional float Tensor [out_features].

    Returns:
        A Tensor [..., out_features].

    Example:
        >>> F.linear(opsdk.ones([2, 3]), opsdk.ones([3, 4])).shape
        [2, 4]
    """
    x = float_arg(x, "linear", "x")
    w = float_arg(weight, "linear", "weight")
    b = None if bias is None else float_arg(bias, "linear", "bias")
    if casts_to_low("linear"):
        from ...amp.matmul import autocast_linear
        return autocast_linear(x, w, b)
    same_dtype("linear", x=x, weight=w, bias=b)
    xd, wd = x._data, w._data
    if wd.ndim != 2 or xd.ndim == 0 or xd.shape[-1] != wd.shape[0]:
        raise ShapeError(f"linear: expected: x [..., {wd.shape[0] if wd.ndim == 2 else 'in'}] "
                         f"and weight [in, out]; got: x {list(xd.shape)}, weight "
                         f"{list(wd.shape)}")
    out = xd @ wd
    if b is not None:
        out += b._data
    if not wants_grad(x, w, b):
        return _wrap(out)
    rx, rw, rb = x._req, w._req, b is not None and b._req
    n_in, n_out = wd.shape
    # the row count spelled out: -1 cannot be inferred when a size is 0 (Linear(3, 0))
    rows = int(np.prod(xd.shape[:-1], dtype=np.int64))

    def fast(g):
        g2 = g.reshape(rows, n_out)
        return (g @ wd.T if rx else None,
                xd.reshape(rows, n_in).T @ g2 if rw else None,
                g2.sum(axis=0) if rb else None)

    def vjp(g):
        g2 = reshape_exact(g, [rows, n_out])
        return (matmul(g, w, transpose_y=True) if rx else None,
                matmul(reshape_exact(x, [rows, n_in]), g2, transpose_x=True) if rw else None,
                _sum(g2, axis=0) if rb else None)
    return record("linear", out, (x, w, b), vjp, fast, saved=(x, w))


def _mask_shape(shape, axis):
    if axis is None:
        return shape
    axes = [axis] if isinstance(axis, int) else list(axis)
    axes = [a % len(shape) for a in axes]
    return tuple(s if i in axes else 1 for i, s in enumerate(shape))


def dropout(x, p=0.5, axis=None, training=True, mode="upscale_in_train", name=None):
    """Zero each element with probability p (random, from the generator ``opsdk.seed`` sets).

    Args:
        x: float Tensor.
        p: drop probability in [0, 1].
        axis: drop whole slices: the mask varies only along these axes.
        training: False makes dropout the identity ('upscale_in_train') or a scaling by 1 - p
            ('downscale_in_infer').
        mode: 'upscale_in_train' (kept values scaled by 1/(1-p) in training) or
            'downscale_in_infer'.

    Returns:
        A Tensor like x.

    Example:
        >>> y = F.dropout(opsdk.ones([4]), p=0.5)   # entries are 0 or 2
    """
    x = float_arg(x, "dropout")
    if not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise OpArgumentError(f"dropout: p must be a number in [0, 1]; got: {p!r}")
    if mode not in ("upscale_in_train", "downscale_in_infer"):
        raise OpArgumentError(f"dropout: mode must be 'upscale_in_train' or "
                              f"'downscale_in_infer'; got: {mode!r}")
    if not training:
        return x if mode == "upscale_in_train" else x * (1.0 - p)
    if p == 0:
        return x
    xd = x._data
    keep = get_rng().random(_mask_shape(xd.shape, axis)) >= p
    scale = 1.0 / (1.0 - p) if (mode == "upscale_in_train" and p < 1) else 1.0
    mask = (keep * scale).astype(xd.dtype)
    out = xd * mask
    if not wants_grad(x):
        return _wrap(out)

    def fast(g):
        return (g * mask,)

    def vjp(g):
        return (g * _wrap(mask),)
    return record("dropout", out, (x,), vjp, fast)


__all__ = ["linear", "dropout"]
