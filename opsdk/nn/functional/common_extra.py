"""bilinear (x1^T W x2 + b per output feature) and maxout (the max over groups of channels),
as Paddle 3.3.1 computes them."""
import numpy as np

from ...autograd.record import record
from ...errors import OpArgumentError, ShapeError
from ...functional import maths
from ...functional.linalg import matmul
from ...functional.reduction import sum as _sum
from ...functional.shape import reshape, transpose
from ._graph import float_arg, same_dtype


def bilinear(x1, x2, weight, bias=None, name=None):
    """out[n, o] = sum_ij x1[n, i] weight[o, i, j] x2[n, j] + bias[0, o].

    Args:
        x1: [N, in1]; x2: [N, in2]; weight: [out, in1, in2]; bias: [1, out] or None.

    Example:
        >>> F.bilinear(opsdk.ones([2, 3]), opsdk.ones([2, 4]), opsdk.ones([5, 3, 4])).shape
        paddle.Size([2, 5])
    """
    a = float_arg(x1, "bilinear", "x1")
    b = float_arg(x2, "bilinear", "x2")
    w = float_arg(weight, "bilinear", "weight")
    bias = None if bias is None else float_arg(bias, "bilinear", "bias")
    same_dtype("bilinear", x1=a, x2=b, weight=w, bias=bias)
    if a.ndim != 2 or b.ndim != 2 or w.ndim != 3 or a.shape[0] != b.shape[0] or \
            w.shape[1] != a.shape[1] or w.shape[2] != b.shape[1]:
        raise ShapeError(f"bilinear: expected x1 [N, in1], x2 [N, in2] and weight "
                         f"[out, in1, in2]; got: x1 {list(a.shape)}, x2 {list(b.shape)}, "
                         f"weight {list(w.shape)}")
    out_f, in1, in2 = w.shape
    if bias is not None and (bias.ndim != 2 or list(bias.shape) != [1, out_f]):
        raise ShapeError(f"bilinear: bias must be a row vector [1, {out_f}]; got: "
                         f"{list(bias.shape)}")
    # x1 @ W as [N, out * in2], then the products with x2 summed over in2
    wm = reshape(transpose(w, [1, 0, 2]), [in1, out_f * in2])
    t = reshape(matmul(a, wm), [a.shape[0], out_f, in2])
    out = _sum(t * b.unsqueeze(1), axis=-1)
    return out if bias is None else out + bias


def maxout(x, groups, axis=1, name=None):
    """The max over each run of `groups` consecutive channels of a 4-D input (channels on axis
    1, or on axis 3 / -1 for NHWC): C channels become C / groups. Every element equal to its
    group's max gets the gradient, as in Paddle.

    Example:
        >>> F.maxout(opsdk.ones([1, 4, 2, 2]), groups=2).shape
        paddle.Size([1, 2, 2, 2])
    """
    x = float_arg(x, "maxout")
    if axis not in (1, -1, 3):
        raise OpArgumentError(f"maxout: axis must be 1, -1 or 3; got: {axis}")
    if x.ndim != 4:
        raise ShapeError(f"maxout: x must be 4-D; got: {x.ndim}-D")
    ax = axis % 4
    c = x.shape[ax]
    if not isinstance(groups, int) or groups <= 1:
        raise OpArgumentError(f"maxout: groups must be an int > 1; got: {groups!r}")
    if c % groups:
        raise OpArgumentError(f"maxout: the channel count ({c}) must be divisible by groups; "
                              f"got: groups={groups}")
    xd = x.array
    split = xd.shape[:ax] + (c // groups, groups) + xd.shape[ax + 1:]
    grouped = xd.reshape(split)
    out = grouped.max(axis=ax + 1)
    mask = (grouped == np.expand_dims(out, ax + 1)).astype(xd.dtype)
    return record("maxout", out, (x,), _MAXOUT, (mask, ax, xd.shape))


def _maxout_grad(g, mask, ax, shape):
    """g spread over each group's channels, kept where the element is the group's max."""
    gs = tuple(maths.shape(g))
    return maths.reshape(maths.reshape(g, gs[:ax + 1] + (1,) + gs[ax + 1:]) * mask, shape)


_MAXOUT = (_maxout_grad,)


__all__ = ["bilinear", "maxout"]
