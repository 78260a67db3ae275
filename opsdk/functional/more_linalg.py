"""tensordot, baddbmm, ger, vecdot, cdist, pdist, trapezoid, cumulative_trapezoid: products,
distances and integrals built of the core ops (so their gradients come to any order).

Each is composed as Paddle 3.3.1 composes it (cdist's matrix-product form for p = 2 past 25
rows, pdist's norm of all pairs, the trapezoid rule's pairs of neighbours), so the values and
the gradients at Paddle's edge points (equal rows, zero distances) are Paddle's.
"""
import numpy as np

from ..errors import AssertedShapeError, DTypeError, OpArgumentError, ShapeError
from ..tensor import Tensor
from .linalg import matmul, outer
from .op_args import axis_arg, tensor_arg
from .reduction import sum as _sum
from .shape import reshape, transpose

_FLOATS = ("float16", "float32", "float64")


def _floats(op, allowed=_FLOATS, **tensors):
    for arg, t in tensors.items():
        tensor_arg(t, op, arg)
        if t._data.dtype.name not in allowed:
            raise DTypeError(f"{op}: argument '{arg}' has an unsupported dtype; expected: one "
                             f"of {', '.join(allowed)}; got: {t._data.dtype}")


def _axes_lists(axes, xn):
    """(x's contracted axes, y's), read as Paddle reads ``axes``."""
    if isinstance(axes, Tensor):
        axes = axes.tolist()
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        if axes < 0:
            raise OpArgumentError(f"tensordot: axes must not be negative; got: {axes}")
        return list(range(xn - axes, xn)), list(range(axes))
    if not isinstance(axes, (list, tuple)):
        raise OpArgumentError(f"tensordot: axes must be an int, a list or a Tensor; got: "
                              f"{type(axes).__name__}")
    if not axes or isinstance(axes[0], (int, np.integer)):
        ax, ay = list(axes), []
    else:
        ax = list(axes[0])
        ay = list(axes[1]) if len(axes) > 1 else []
    if len(ax) < len(ay):
        ax += ay[len(ax):]
    elif len(ay) < len(ax):
        ay += ax[len(ay):]
    return ax, ay


def tensordot(x, y, axes=2, name=None):
    """The sum of x * y over the axes paired by ``axes`` (an int n: x's last n with y's first
    n; or [x's axes, y's axes]); the free axes of x, then y's.

    Example:
        >>> list(opsdk.tensordot(opsdk.ones([2, 3]), opsdk.ones([3, 4]), axes=1).shape)
        [2, 4]
    """
    _floats("tensordot", x=x, y=y)
    ax, ay = _axes_lists(axes, x._data.ndim)
    ax = [axis_arg(a, x._data.ndim, "tensordot") for a in ax]
    ay = [axis_arg(a, y._data.ndim, "tensordot") for a in ay]
    sx, sy = list(x._data.shape), list(y._data.shape)
    for a, b in zip(ax, ay):
        if sx[a] == 1 and sy[b] != 1:
            # Paddle sums the other side's axis first (a size-1 axis broadcasts)
            y, sy[b] = reshape(_sum(y, axis=b, keepdim=True), sy[:b] + [1] + sy[b + 1:]), 1
        elif sy[b] == 1 and sx[a] != 1:
            x, sx[a] = reshape(_sum(x, axis=a, keepdim=True), sx[:a] + [1] + sx[a + 1:]), 1
        elif sx[a] != sy[b]:
            raise ShapeError(f"tensordot: axis {a} of x (size {sx[a]}) and axis {b} of y "
                             f"(size {sy[b]}) must have the same size")
    free_x = [d for d in range(len(sx)) if d not in ax]
    free_y = [d for d in range(len(sy)) if d not in ay]
    k = int(np.prod([sx[a] for a in ax], dtype=np.int64))
    xm = reshape(transpose(x, free_x + ax), [int(np.prod([sx[d] for d in free_x])), k])
    ym = reshape(transpose(y, ay + free_y), [k, int(np.prod([sy[d] for d in free_y]))])
    return reshape(matmul(xm, ym), [sx[d] for d in free_x] + [sy[d] for d in free_y])


def baddbmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """beta * input + alpha * (x @ y) for batches of matrices (x, y 3-D; input broadcasts).

    Example:
        >>> opsdk.baddbmm(opsdk.ones([1, 2, 2]), opsdk.ones([1, 2, 3]), opsdk.ones([1, 3, 2]),
        ...               beta=2.0).tolist()
        [[[5.0, 5.0], [5.0, 5.0]]]
    """
    input, x, y = (tensor_arg(input, "baddbmm", "input"), tensor_arg(x, "baddbmm"),
                   tensor_arg(y, "baddbmm", "y"))
    if not x._data.ndim == y._data.ndim == 3:
        raise ShapeError(f"baddbmm: x and y must be 3-D; got: shapes {list(x.shape)} and "
                         f"{list(y.shape)}")
    if x._data.shape[2] != y._data.shape[1]:
        raise ShapeError(f"baddbmm: x's width must equal y's height; got: shapes "
                         f"{list(x.shape)} and {list(y.shape)}")
    return input * beta + matmul(x, y) * alpha


def ger(x, y, name=None):
    """The outer product of two vectors (paddle.ger is paddle.outer)."""
    return outer(x, y)


def vecdot(x, y, axis=-1, name=None):
    """The dot products of x's and y's vectors along axis (broadcast): (x * y).sum(axis)."""
    return _sum(tensor_arg(x, "vecdot") * tensor_arg(y, "vecdot", "y"), axis=axis)


_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
          "donot_use_mm_for_euclid_dist")


def cdist(x, y, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary", name=None):
    """The p-norm distances between the rows of x ([..., R1, C]) and of y ([..., R2, C]):
    [..., R1, R2]. For p = 2 with more than 25 rows (or compute_mode
    'use_mm_for_euclid_dist') through matrix products, as Paddle.

    Example:
        >>> opsdk.cdist(opsdk.to_tensor([[0.0, 0.0]]), opsdk.to_tensor([[3.0, 4.0]])).tolist()
        [[5.0]]
    """
    from .creation import empty, zeros
    from .unary import clip, sqrt
    _floats("cdist", _FLOATS[1:], x=x, y=y)
    if isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0:
        raise OpArgumentError(f"cdist: p must be a number >= 0; got: {p!r}")
    if compute_mode not in _MODES:
        raise OpArgumentError(f"cdist: compute_mode must be one of {', '.join(_MODES)}; got: "
                              f"{compute_mode!r}")
    xs, ys = x._data.shape, y._data.shape
    if len(xs) < 2 or len(ys) < 2 or xs[-1] != ys[-1]:
        # Paddle asserts the last axes agree
        raise AssertedShapeError(f"cdist: x and y must be at least 2-D with the same last axis; got: "
                         f"shapes {list(xs)} and {list(ys)}")
    r1, r2, c1 = xs[-2], ys[-2], xs[-1]
    if r1 == 0 or r2 == 0:
        return empty([r1, r2], dtype=x._data.dtype.name)
    if c1 == 0:
        return zeros([r1, r2], dtype=x._data.dtype.name)
    mode = _MODES.index(compute_mode)
    if float(p) == 2.0 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        x_norm = _sum(x ** 2, axis=-1, keepdim=True)
        y_norm = _sum(y ** 2, axis=-1, keepdim=True)
        swap = list(range(y._data.ndim - 2)) + [y._data.ndim - 1, y._data.ndim - 2]
        res = matmul(x, transpose(y, swap)) * -2 + transpose(y_norm, swap) + x_norm
        return sqrt(clip(res, min=0.0))
    return _pair_norms(x, y, float(p))


def _pair_norms(x, y, p):
    from .linalg import vector_norm
    from .shape import unsqueeze
    return vector_norm(unsqueeze(x, -2) - unsqueeze(y, -3), p=p, axis=-1)


def pdist(x, p=2.0, name=None):
    """The p-norm distances between each pair of x's rows (i < j, row by row): N (N - 1) / 2.

    Example:
        >>> opsdk.pdist(opsdk.to_tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])).tolist()
        [5.0, 1.0, 4.242640495300293]
    """
    from .creation import ones
    from .indexing import masked_select
    from .triangular import tril
    x = tensor_arg(x, "pdist")
    if x._data.ndim != 2:
        raise ShapeError(f"pdist: x must be 2-D; got: shape {list(x.shape)}")
    d = _pair_norms(x, x, p)
    mask = ~tril(ones(d.shape, dtype="bool"))
    return masked_select(d, mask)


def _trapezoid(op, y, x, dx, axis, cumulative):
    from .arithmetic import multiply
    from .combined import diff
    from .creation import arange, to_tensor
    from .cumulative import cumsum
    from .indexing import index_select
    if x is not None and dx is not None:
        raise OpArgumentError(f"{op}: not permitted to give both x and dx")
    _floats(op, y=y)
    axis = axis_arg(axis, y._data.ndim, op)
    length = y._data.shape[axis]
    if x is None:
        dx = to_tensor(1.0 if dx is None else dx)
        if dx._data.ndim > 1:
            raise ShapeError(f"{op}: dx must be a number; got: shape {list(dx.shape)}")
    else:
        _floats(op, x=x)
        if x._data.ndim == 1:
            shape = [1] * y._data.ndim
            shape[axis] = max(length - 1, 0)
            dx = reshape(diff(x), shape)
        else:
            dx = diff(x, axis=axis)
    pairs = (index_select(y, arange(1, length), axis=axis)
             + index_select(y, arange(0, length - 1), axis=axis))
    summed = (cumsum if cumulative else _sum)(multiply(pairs, dx), axis=axis)
    return summed * 0.5


def trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The integral of y along axis by the trapezoid rule (sample points x, or spacing dx,
    1 by default).

    Example:
        >>> opsdk.trapezoid(opsdk.to_tensor([1.0, 2.0, 3.0])).item()
        4.0
    """
    return _trapezoid("trapezoid", y, x, dx, axis, False)


def cumulative_trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """The running trapezoid-rule integral of y along axis (one fewer element there).

    Example:
        >>> opsdk.cumulative_trapezoid(opsdk.to_tensor([1.0, 2.0, 3.0])).tolist()
        [1.5, 4.0]
    """
    return _trapezoid("cumulative_trapezoid", y, x, dx, axis, True)


__all__ = ["tensordot", "baddbmm", "ger", "vecdot", "cdist", "pdist", "trapezoid",
           "cumulative_trapezoid"]
