"""linear (x @ W + b as one op, float16 under auto_cast) and dropout."""
import numpy as np

from ...amp.state import casts_to_low
from ...errors import OpArgumentError, ShapeError
from ...functional.creation import get_rng
from ...autograd.record import record
from ...functional import maths
from ...functional.inplace import inplace_method
from ._graph import float_arg, same_dtype


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
        paddle.Size([2, 4])
    """
    x = float_arg(x, "linear", "x")
    w = float_arg(weight, "linear", "weight")
    b = None if bias is None else float_arg(bias, "linear", "bias")
    if casts_to_low("linear"):
        from ...amp.matmul import autocast_linear
        return autocast_linear(x, w, b)
    same_dtype("linear", x=x, weight=w, bias=b)
    xd, wd = x.array, w.array
    if wd.ndim == 1 and xd.ndim and xd.shape[-1] == wd.shape[0]:
        # a 1-D weight is one output feature dropped, as Paddle's matmul makes it
        from ...functional.linalg import matmul
        out = matmul(x, w)
        return out if b is None else out + b
    if wd.ndim != 2 or xd.ndim == 0 or xd.shape[-1] != wd.shape[0]:
        raise ShapeError(f"linear: expected: x [..., {wd.shape[0] if wd.ndim == 2 else 'in'}] "
                         f"and weight [in, out]; got: x {list(xd.shape)}, weight "
                         f"{list(wd.shape)}")
    out = xd @ wd
    if b is not None:
        if b.array.shape not in ((wd.shape[1],), (1,), ()):
            # Paddle: "Broadcast dimension mismatch", a ValueError
            raise ShapeError(f"linear: argument 'bias' must have shape [{wd.shape[1]}] (one per "
                             f"output feature); got: {list(b.array.shape)}")
        out += b.array
    # the row count spelled out: -1 cannot be inferred when a size is 0 (Linear(3, 0))
    rows = int(np.prod(xd.shape[:-1], dtype=np.int64))
    return record("linear", out, (x, w, b), _LINEAR, (x, w, rows))


def _rows_of(g, rows):
    return maths.reshape(g, (rows, maths.shape(g)[-1]))


_LINEAR = (lambda g, x, w, rows: maths.matmul(g, w, transpose_b=True),
           lambda g, x, w, rows: maths.matmul(_rows_of(x, rows), _rows_of(g, rows),
                                              transpose_a=True),
           lambda g, x, w, rows: maths.sum(_rows_of(g, rows), axis=0))


def _mask_shape(shape, axis):
    if axis is None:
        return shape
    axes = [axis] if isinstance(axis, int) else list(axis)
    axes = [a % len(shape) for a in axes]
    return tuple(s if i in axes else 1 for i, s in enumerate(shape))


def dropout(x, p=0.5, axis=None, training=True, inplace=False, mode="upscale_in_train",
            name=None):
    """Zero each element with probability p (random, from the generator ``opsdk.seed`` sets).

    Args:
        x: float Tensor.
        p: drop probability in [0, 1].
        axis: drop whole slices: the mask varies only along these axes.
        training: False makes dropout the identity ('upscale_in_train') or a scaling by 1 - p
            ('downscale_in_infer').
        inplace: write the result into x and return x (Paddle refuses it for a leaf that
            needs a gradient).
        mode: 'upscale_in_train' (kept values scaled by 1/(1-p) in training) or
            'downscale_in_infer'.

    Returns:
        A Tensor like x.

    Example:
        >>> y = F.dropout(opsdk.ones([4]), p=0.5)   # entries are 0 or 2
    """
    if inplace:
        return _dropout_(x, p, axis, training, False, mode)
    x = float_arg(x, "dropout")
    if not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise OpArgumentError(f"dropout: p must be a number in [0, 1]; got: {p!r}")
    if mode not in ("upscale_in_train", "downscale_in_infer"):
        raise OpArgumentError(f"dropout: mode must be 'upscale_in_train' or "
                              f"'downscale_in_infer'; got: {mode!r}")
    if p == 0:
        return x  # Paddle returns the input itself here, in training and in eval
    if not training:
        # a new tensor either way (Paddle's eval dropout is an op, not the input: not a leaf)
        return record("dropout", x.array.copy(), (x,), _IDENTITY, ()) \
            if mode == "upscale_in_train" else x * (1.0 - p)
    xd = x.array
    keep = get_rng().random(_mask_shape(xd.shape, axis)) >= p
    scale = 1.0 / (1.0 - p) if (mode == "upscale_in_train" and p < 1) else 1.0
    mask = (keep * scale).astype(xd.dtype)
    return record("dropout", xd * mask, (x,), _DROPOUT, (mask,))


_dropout_ = inplace_method(dropout, "dropout_", reads_input=False)

# g through the kept elements, scaled as forward scaled them (a constant mask)
_DROPOUT = (lambda g, mask: g * mask,)
_IDENTITY = (lambda g: g,)


__all__ = ["linear", "dropout"]
