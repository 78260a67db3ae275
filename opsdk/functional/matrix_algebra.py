"""Square-matrix ops with gradients to any order: inverse, determinant, solve.

Paddle's paddle.linalg.inv, det, solve (and ``paddle.inverse``), batched over leading axes. Every
gradient is written with these ops and matmul, so it is differentiable again.
"""
import numpy as np

from ..errors import DTypeError, OpArgumentError, ShapeError
from .record import _state, as_array, record, to_tensor_arg, unbroadcast, unbroadcast_array


def _square(x, op, arg="x"):
    x = to_tensor_arg(x, op, arg)
    shape = x._data.shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ShapeError(f"{op}: argument '{arg}' must be a square matrix or a batch of them "
                         f"(shape [..., n, n]); got: shape {list(shape)}")
    if x._data.dtype.kind != "f":
        raise DTypeError(f"{op}: argument '{arg}' must be float32 or float64; got: {x._data.dtype}")
    return x


def _mT(t):
    from .shape import transpose
    n = t.ndim
    return transpose(t, [*range(n - 2), n - 1, n - 2])


def _singular(op, shape):
    return OpArgumentError(f"{op}: the matrix is singular (shape {list(shape)}); expected: an "
                           f"invertible matrix")


def inv(x, name=None):
    """The inverse of a square matrix (batched). Gradient: -inv(x)^T g inv(x)^T.

    Example:
        >>> import opsdk
        >>> opsdk.linalg.inv(opsdk.to_tensor([[2.0, 0.0], [0.0, 4.0]])).tolist()
        [[0.5, 0.0], [0.0, 0.25]]
    """
    x = _square(x, "inv")
    try:
        out = as_array(np.linalg.inv(x._data))
    except np.linalg.LinAlgError:
        raise _singular("inv", x._data.shape) from None
    if not (_state.enabled and x._req):
        return to_tensor_arg(out, "inv", "x")

    def fast(g):
        yt = np.swapaxes(out, -1, -2)
        return (-(yt @ g @ yt),)

    def vjp(g):
        from .linalg import matmul
        yt = _mT(inv(x))
        return (-matmul(matmul(yt, g), yt),)
    return record("inv", out, (x,), vjp, fast, saved=(x,))


def det(x, name=None):
    """The determinant of a square matrix (batched). Gradient: g det(x) inv(x)^T (x invertible).

    Example:
        >>> import opsdk
        >>> float(opsdk.linalg.det(opsdk.to_tensor([[2.0, 1.0], [1.0, 3.0]])))
        5.0
    """
    x = _square(x, "det")
    out = as_array(np.linalg.det(x._data))
    if not (_state.enabled and x._req):
        return to_tensor_arg(out, "det", "x")

    def fast(g):
        try:
            it = np.swapaxes(np.linalg.inv(x._data), -1, -2)
        except np.linalg.LinAlgError:
            raise _singular("det (its gradient)", x._data.shape) from None
        return ((np.asarray(g) * out)[..., None, None] * it,)

    def vjp(g):
        from .shape import reshape
        scale = g * det(x)
        return (reshape(scale, [*scale.shape, 1, 1]) * _mT(inv(x)),)
    return record("det", out, (x,), vjp, fast, saved=(x,))


def solve(x, y, name=None):
    """The solution z of x @ z = y (batched; y a matrix [..., n, k] or, with x 2-D, a vector [n]).

    Gradients: gy = solve(x^T, g), gx = -gy z^T.

    Example:
        >>> import opsdk
        >>> opsdk.linalg.solve(opsdk.to_tensor([[2.0, 0.0], [0.0, 4.0]]), opsdk.to_tensor([2.0, 2.0])).tolist()
        [1.0, 0.5]
    """
    x = _square(x, "solve")
    y = to_tensor_arg(y, "solve", "y")
    n = x._data.shape[-1]
    vector = y._data.ndim == 1
    if (vector and y._data.shape[0] != n) or (not vector and y._data.shape[-2] != n):
        raise ShapeError(f"solve: argument 'y' must have {n} rows, as 'x' is {n}x{n}; got: shape "
                         f"{list(y._data.shape)}")
    if y._data.dtype != x._data.dtype:
        raise DTypeError(f"solve: arguments 'x' and 'y' must share one dtype; got: "
                         f"{x._data.dtype} and {y._data.dtype}")
    try:
        out = as_array(np.linalg.solve(x._data, y._data[:, None] if vector else y._data))
    except np.linalg.LinAlgError:
        raise _singular("solve", x._data.shape) from None
    except ValueError:
        raise ShapeError(f"solve: batch dimensions do not broadcast; got: x "
                         f"{list(x._data.shape)}, y {list(y._data.shape)}") from None
    if vector:
        out = out[:, 0]
    if not (_state.enabled and (x._req or y._req)):
        return to_tensor_arg(out, "solve", "x")
    rx, ry = x._req, y._req

    def fast(g):
        g2 = g[:, None] if vector else g
        gy = np.linalg.solve(np.swapaxes(x._data, -1, -2), g2)
        z = out[:, None] if vector else out
        gx = -(gy @ np.swapaxes(z, -1, -2))
        return (unbroadcast_array(gx, x._data.shape) if rx else None,
                (gy[:, 0] if vector else unbroadcast_array(gy, y._data.shape)) if ry else None)

    def vjp(g):
        from .linalg import matmul
        from .shape import unsqueeze
        gy = solve(_mT(x), g)
        z = solve(x, y)
        if vector:
            gx = -matmul(unsqueeze(gy, [-1]), unsqueeze(z, [0]))
        else:
            gx = -matmul(gy, _mT(z))
        return (unbroadcast(gx, x._data.shape) if rx else None,
                (gy if vector else unbroadcast(gy, y._data.shape)) if ry else None)
    return record("solve", out, (x, y), vjp, fast, saved=(x, y))

