"""Linear algebra with gradients to any order: matrix products, square-matrix ops, norms.

matmul (batching and broadcasting), mm, bmm, dot, inner, outer; inv, det, solve (Paddle's
paddle.linalg.inv, det, solve and paddle.inverse), batched over leading axes; the rest of
paddle.linalg built on them: vector_norm, matrix_power, multi_dot, matrix_transpose (norm and
matrix_norm, which need an SVD for some p, are in decompositions.py). ``opsdk.linalg``
(opsdk/linalg.py) is the public namespace over this module.
"""
import math

import numpy as np

from ..autograd.record import OUTPUT, record
from ..errors import (ArgumentTypeError, DTypeError, OpArgumentError, PreconditionShapeError,
                      ShapeError)
from ..tensor import Tensor, tensor_arg
from . import cast_policy, maths
from .casting import cast
from .creation import eye
from .op_args import not_bool
from .reduction import norm as _p_norm, sum as _sum
from .shape import broadcast_to, reshape, squeeze, transpose, unsqueeze


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
    x = tensor_arg(x, "matmul", "x")
    y = tensor_arg(y, "matmul", "y")
    x, y = _same_dtype(x, y)
    not_bool(x, "matmul"), not_bool(y, "matmul", "y")  # Paddle has no bool matmul kernel
    if x.ndim == 0 or y.ndim == 0:
        raise ShapeError(f"matmul: arguments 'x' and 'y' must have at least 1 dimension (as in "
                         f"Paddle); got: shapes {list(x.shape)} and {list(y.shape)}")
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
    if dx.kind == "f" and dy.kind in "biu":
        return x, cast(y, dx)
    if dy.kind == "f" and dx.kind in "biu":
        return cast(x, dy), y
    raise DTypeError(f"matmul: arguments 'x' and 'y' must share one dtype (as in Paddle); "
                     f"got: {dx} and {dy}. Cast one with .astype() first")


def _matmul2(x, y):
    xd, yd = x._data, y._data
    if xd.shape[-1] != yd.shape[-2]:
        raise ShapeError(f"matmul: inner dimensions differ; expected: x.shape[-1] == "
                         f"y.shape[-2]; got: x {list(xd.shape)}, y {list(yd.shape)}")
    try:
        out = xd @ yd
    except ValueError:
        raise ShapeError(f"matmul: batch dimensions do not broadcast; got: x {list(xd.shape)}, "
                         f"y {list(yd.shape)}") from None
    # the recorder sums broadcast batch axes back to each operand's shape
    return record("matmul", out, (x, y), _MATMUL, (x, y), broadcast=True)


_MATMUL = (lambda g, x, y: maths.matmul(g, y, transpose_b=True),
           lambda g, x, y: maths.matmul(x, g, transpose_a=True))


def mm(x, y, name=None):
    return matmul(x, y)


def bmm(x, y, name=None):
    for arg, t in (("x", x), ("y", y)):
        t = tensor_arg(t, "bmm", arg)
        if t.ndim != 3:
            raise ShapeError(f"bmm: argument '{arg}' must be 3-D; got: shape {list(t.shape)}")
    return matmul(x, y)


def dot(x, y, name=None):
    """Inner product of two 1-D tensors (row-wise for 2-D)."""
    x = tensor_arg(x, "dot", "x")
    y = tensor_arg(y, "dot", "y")
    # Paddle checks both as a precondition (PreconditionNotMet, a RuntimeError)
    if x.ndim not in (1, 2):
        raise PreconditionShapeError(f"dot: argument 'x' must be 1-D or 2-D; got: shape "
                                     f"{list(x.shape)}")
    if x.shape != y.shape:
        raise PreconditionShapeError(f"dot: expected: equal shapes; got: {list(x.shape)} and "
                                     f"{list(y.shape)}")
    return _sum(x * y, axis=-1)


def inner(x, y, name=None):
    """Inner products over the last axis, ``x[i..., k] * y[j..., k]`` summed over k, of shape
    ``x.shape[:-1] + y.shape[:-1]`` (NumPy's inner: complex values are not conjugated); a 0-d
    argument multiplies. Both must be Tensors (Paddle refuses arrays)."""
    for arg, value in (("x", x), ("y", y)):
        if not isinstance(value, Tensor):
            raise ArgumentTypeError(f"inner: argument '{arg}' must be a Tensor; got: "
                                    f"{type(value).__name__}")
    if x.ndim == 0 or y.ndim == 0:
        return x * y
    if x.shape[-1] != y.shape[-1]:
        raise ShapeError(f"inner: x and y must have the same last axis; got: shapes {list(x.shape)} "
                         f"and {list(y.shape)}")
    k = x.shape[-1]
    # explicit row counts: [-1, 0] cannot be inferred when k is 0 (Paddle takes empty sizes)
    xs, ys = (reshape(t, [math.prod(t.shape[:-1]), k]) for t in (x, y))
    rows = matmul(xs, ys, transpose_y=True)
    return reshape(rows, x.shape[:-1] + y.shape[:-1])


def mv(x, vec, name=None):
    """The matrix x [M, N] times the vector vec [N]: a vector [M]."""
    x = tensor_arg(x, "mv", "x")
    vec = tensor_arg(vec, "mv", "vec")
    if x._data.ndim != 2 or vec._data.ndim != 1:
        raise ShapeError(f"mv: expected: a matrix 'x' and a vector 'vec'; got: shapes "
                         f"{list(x.shape)} and {list(vec.shape)}")
    if x._data.shape[1] != vec._data.shape[0]:
        raise ShapeError(f"mv: x's second dimension must equal vec's length; got: shapes "
                         f"{list(x.shape)} and {list(vec.shape)}")
    return matmul(x, vec)


def outer(x, y, name=None):
    x = tensor_arg(x, "outer", "x")
    y = tensor_arg(y, "outer", "y")
    return matmul(reshape(x, [-1, 1]), reshape(y, [1, -1]))


# -- square matrices: inverse, determinant, solve ---------------------------------------------
def square_matrix_arg(x, op, arg="x"):
    """x as a float Tensor of shape [..., n, n], or an error naming op and arg."""
    x = tensor_arg(x, op, arg)
    shape = x._data.shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ShapeError(f"{op}: argument '{arg}' must be a square matrix or a batch of them "
                         f"(shape [..., n, n]); got: shape {list(shape)}")
    if x._data.dtype.kind != "f":
        raise DTypeError(f"{op}: argument '{arg}' must be float32 or float64; got: {x._data.dtype}")
    return x


def matrix_transposed(t):
    """t with its last two axes swapped."""
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
    x = square_matrix_arg(x, "inv")
    try:
        out = np.linalg.inv(x._data)
    except np.linalg.LinAlgError:
        raise _singular("inv", x._data.shape) from None
    return record("inv", out, (x,), _INV, (x, OUTPUT))


_INV = (lambda g, x, y: -maths.matmul(maths.matmul(y, g, transpose_a=True), y,
                                       transpose_b=True),)


def _inverse(x, op):
    """inv on an array (a singular matrix named as ``op``'s) or a Tensor (the graph op)."""
    if maths.is_tensor(x):
        return inv(x)
    try:
        return np.linalg.inv(x)
    except np.linalg.LinAlgError:
        raise _singular(op, x.shape) from None


def det(x, name=None):
    """The determinant of a square matrix (batched). Gradient: g det(x) inv(x)^T (x invertible).

    Example:
        >>> import opsdk
        >>> float(opsdk.linalg.det(opsdk.to_tensor([[2.0, 1.0], [1.0, 3.0]])))
        5.0
    """
    x = square_matrix_arg(x, "det")
    return record("det", np.linalg.det(x._data), (x,), _DET, (x, OUTPUT))


def _det_grad(g, x, d):
    scale = g * d
    scale = maths.reshape(scale, maths.shape(scale) + (1, 1))
    return scale * maths.mT(_inverse(x, "det (its gradient)"))


_DET = (_det_grad,)


def solve(x, y, name=None):
    """The solution z of x @ z = y (batched; y a matrix [..., n, k] or, with x 2-D, a vector [n]).

    Gradients: gy = solve(x^T, g), gx = -gy z^T.

    Example:
        >>> import opsdk
        >>> opsdk.linalg.solve(opsdk.to_tensor([[2.0, 0.0], [0.0, 4.0]]), opsdk.to_tensor([2.0, 2.0])).tolist()
        [1.0, 0.5]
    """
    x = square_matrix_arg(x, "solve")
    y = tensor_arg(y, "solve", "y")
    n = x._data.shape[-1]
    vector = y._data.ndim == 1
    if (vector and y._data.shape[0] != n) or (not vector and y._data.shape[-2] != n):
        raise ShapeError(f"solve: argument 'y' must have {n} rows, as 'x' is {n}x{n}; got: shape "
                         f"{list(y._data.shape)}")
    if y._data.dtype != x._data.dtype:
        raise DTypeError(f"solve: arguments 'x' and 'y' must share one dtype; got: "
                         f"{x._data.dtype} and {y._data.dtype}")
    try:
        out = np.linalg.solve(x._data, y._data[:, None] if vector else y._data)
    except np.linalg.LinAlgError:
        raise _singular("solve", x._data.shape) from None
    except ValueError:
        raise ShapeError(f"solve: batch dimensions do not broadcast; got: x "
                         f"{list(x._data.shape)}, y {list(y._data.shape)}") from None
    if vector:
        out = out[:, 0]
    # (y is not read by the rules, but modifying it in place before backward is refused too)
    return record("solve", out, (x, y), _SOLVE, (x, OUTPUT), broadcast=True, saved=(y,))


def _solved(a, b):
    """solve on arrays or Tensors (a vector b stays a vector)."""
    if maths.is_tensor(a) or maths.is_tensor(b):
        return solve(a, b)
    if b.ndim == 1:
        return np.linalg.solve(a, b[:, None])[:, 0]
    return np.linalg.solve(a, b)


def _solve_grad_in_y(g, x, z):
    return _solved(maths.mT(x), g)


def _solve_grad_in_x(g, x, z):
    gy = _solve_grad_in_y(g, x, z)
    if len(maths.shape(z)) == 1:  # a vector: -(gy z^T) as an outer product
        return -maths.matmul(maths.reshape(gy, (-1, 1)), maths.reshape(z, (1, -1)))
    return -maths.matmul(gy, z, transpose_b=True)


_SOLVE = (_solve_grad_in_x, _solve_grad_in_y)


# -- the rest of paddle.linalg: norms, powers, chains of products -----------------------------
def vector_norm(x, p=2.0, axis=None, keepdim=False, name=None):
    """The p-norm of x's elements over axis (all of them when None)."""
    return _p_norm(x, p=p, axis=axis, keepdim=keepdim)


def matrix_transpose(x, name=None):
    """x with its last two axes swapped."""
    x = tensor_arg(x, "matrix_transpose", "x")
    if x.ndim < 2:
        raise OpArgumentError(f"matrix_transpose: argument 'x' needs at least 2 dimensions; "
                              f"got: shape {list(x.shape)}")
    return matrix_transposed(x)


def matrix_power(x, n, name=None):
    """x multiplied by itself n times (the identity for 0, powers of inv(x) for n < 0)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise OpArgumentError(f"matrix_power: argument 'n' must be an int; got: {type(n).__name__}")
    x = square_matrix_arg(x, "matrix_power")
    if n == 0:  # connected to x, as in Paddle: a zero gradient, not none
        return x * 0 + broadcast_to(eye(x.shape[-1], dtype=x.dtype), x.shape)
    base = inv(x) if n < 0 else x
    result, power, n = None, base, abs(n)
    while n:  # square and multiply: log2(n) products
        if n & 1:
            result = power if result is None else matmul(result, power)
        n >>= 1
        if n:
            power = matmul(power, power)
    # n == 1: a new tensor in the graph, as Paddle's (x itself would be a leaf, aliasing x)
    return result.clone() if result is x else result


def multi_dot(x, name=None):
    """The product of a list of matrices (the first may be a vector, as may the last)."""
    if not isinstance(x, (list, tuple)) or len(x) < 2:
        raise OpArgumentError(f"multi_dot: argument 'x' must be a list of at least 2 tensors; got: {x!r}")
    out = x[0]
    for t in x[1:]:
        out = matmul(out, t)
    return out


maths.provide(matmul=matmul, mT=matrix_transposed)
