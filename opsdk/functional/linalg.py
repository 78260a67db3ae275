"""Matrix products: matmul with batching and broadcasting, dot, outer."""

from ..errors import ShapeError
from ..tensor import Tensor, _wrap
from . import cast_policy
from .record import _state, as_array, record, to_tensor_arg, unbroadcast, unbroadcast_array


def _arg(x, op, name):
    return x if isinstance(x, Tensor) else to_tensor_arg(x, op, name)


def _swap(a):
    return a.swapaxes(-1, -2)


def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    """Matrix product of the last two axes, broadcasting the leading (batch) axes.

    1-D arguments act as a row (x) or a column (y) vector whose axis is then dropped. Inside
    ``opsdk.amp.auto_cast()`` it runs in float16 (float32 accumulation).
    """
    if cast_policy.state.enabled:
        # automatic casting (opsdk.amp.auto_cast), installed from above
        return cast_policy.matmul(x, y, transpose_x, transpose_y)
    return plain_matmul(x, y, transpose_x, transpose_y)


def plain_matmul(x, y, transpose_x=False, transpose_y=False):
    """matmul in the inputs' own dtype, whatever the auto_cast state."""
    x = _arg(x, "matmul", "x")
    y = _arg(y, "matmul", "y")
    x, y = _same_dtype(x, y)
    from .shape import squeeze, transpose, unsqueeze
    if transpose_x and x.ndim >= 2:
        x = transpose(x, list(range(x.ndim - 2)) + [x.ndim - 1, x.ndim - 2])
    if transpose_y and y.ndim >= 2:
        y = transpose(y, list(range(y.ndim - 2)) + [y.ndim - 1, y.ndim - 2])
    if x.ndim == 1 or y.ndim == 1:
        drop = []
        if x.ndim == 1:
            x = unsqueeze(x, 0)
            drop.append(-2)
        if y.ndim == 1:
            y = unsqueeze(y, -1)
            drop.append(-1)
        out = _matmul2(x, y)
        nd = out.ndim
        return squeeze(out, [d % nd for d in drop])
    return _matmul2(x, y)


def _same_dtype(x, y):
    """Paddle's matmul dtypes: an integer operand takes the other's float dtype; two different
    float (or integer) dtypes are an error."""
    dx, dy = x._data.dtype, y._data.dtype
    if dx == dy:
        return x, y
    from .unary import cast
    if dx.kind == "f" and dy.kind in "biu":
        return x, cast(y, dx)
    if dy.kind == "f" and dx.kind in "biu":
        return cast(x, dy), y
    from ..errors import DTypeError
    raise DTypeError(f"matmul: arguments 'x' and 'y' must share one dtype (as in Paddle); "
                     f"got: {dx} and {dy}. Cast one with .astype() first")


def _matmul2(x, y):
    xd, yd = x._data, y._data
    if xd.shape[-1] != yd.shape[-2]:
        raise ShapeError(f"matmul: inner dimensions differ; expected: x.shape[-1] == "
                         f"y.shape[-2]; got: x {list(xd.shape)}, y {list(yd.shape)}")
    try:
        out = as_array(xd @ yd)
    except ValueError:
        raise ShapeError(f"matmul: batch dimensions do not broadcast; got: x {list(xd.shape)}, "
                         f"y {list(yd.shape)}") from None
    if not (_state.enabled and (x._req or y._req)):
        return _wrap(out)
    rx, ry = x._req, y._req
    xs, ys = xd.shape, yd.shape

    def fast(g):
        return (unbroadcast_array(g @ _swap(yd), xs) if rx else None,
                unbroadcast_array(_swap(xd) @ g, ys) if ry else None)

    def vjp(g):
        return (unbroadcast(matmul(g, y, transpose_y=True), xs) if rx else None,
                unbroadcast(matmul(x, g, transpose_x=True), ys) if ry else None)
    return record("matmul", out, (x, y), vjp, fast, saved=(x, y))


def mm(x, y, name=None):
    return matmul(x, y)


def bmm(x, y, name=None):
    return matmul(x, y)


def dot(x, y, name=None):
    """Inner product of two 1-D tensors (row-wise for 2-D)."""
    from .reduction import sum as _sum
    x = _arg(x, "dot", "x")
    y = _arg(y, "dot", "y")
    if x.shape != y.shape:
        raise ShapeError(f"dot: expected: equal shapes; got: {x.shape} and {y.shape}")
    return _sum(x * y, axis=-1)


def outer(x, y, name=None):
    from .shape import reshape
    x = _arg(x, "outer", "x")
    y = _arg(y, "outer", "y")
    return matmul(reshape(x, [-1, 1]), reshape(y, [1, -1]))
