"""lerp, addmm, dist, diff: compositions of differentiable core ops (and their gradients).

Paddle has each as one op; here they are built from the core ops, so their gradients, to any
order, are those of the composition."""
import numpy as np

from ..errors import OpArgumentError
from ..tensor import Tensor, _wrap
from .linalg import matmul
from .logic import not_equal
from .op_args import axis_arg, int_arg, tensor_arg, vector_arg
from .reduction import norm, sum
from .shape import concat


def lerp(x, y, weight, name=None):
    """x + weight * (y - x); a Tensor weight gets no gradient, as in Paddle.

    x and y get theirs; the weight is a constant of the interpolation.

    Example:
        >>> opsdk.lerp(opsdk.to_tensor([0.0, 2.0]), opsdk.to_tensor([1.0, 4.0]), 0.5).numpy().tolist()
        [0.5, 3.0]
    """
    x, y = tensor_arg(x, "lerp"), tensor_arg(y, "lerp", "y")
    if isinstance(weight, Tensor):
        weight = _wrap(weight._data)
    return x + (y - x) * weight


def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """beta * input + alpha * (x @ y); input broadcasts to the product's shape.

    Example:
        >>> opsdk.addmm(opsdk.ones([2, 2]), opsdk.eye(2), opsdk.eye(2), 2.0, 3.0).numpy().tolist()
        [[5.0, 2.0], [2.0, 5.0]]
    """
    input, x, y = (tensor_arg(input, "addmm", "input"), tensor_arg(x, "addmm"),
                   tensor_arg(y, "addmm", "y"))
    for arg, t in (("x", x), ("y", y)):
        if t._data.ndim != 2:
            raise OpArgumentError(f"addmm: argument '{arg}' must be a matrix; expected: 2 "
                                  f"dimensions; got: shape {list(t.shape)}")
    return input * beta + matmul(x, y) * alpha


def dist(x, y, p=2, name=None):
    """The p-norm of x - y (broadcast), a 0-d tensor.

    As in Paddle, p = 0 counts the nonzero differences (gradient 0) and inf / -inf take the
    largest / smallest |x - y|.

    Example:
        >>> float(opsdk.dist(opsdk.to_tensor([3.0, 0.0]), opsdk.to_tensor([0.0, 4.0])))
        5.0
    """
    x, y = tensor_arg(x, "dist"), tensor_arg(y, "dist", "y")
    d = x - y
    try:
        p = float(p)
    except (TypeError, ValueError):
        raise OpArgumentError(f"dist: argument 'p' must be a number; got: {p!r}") from None
    if p == 0:
        count = np.count_nonzero(d._host()) if d._data.size else 0
        return sum(d * 0.0) + _wrap(np.asarray(count, dtype=d._data.dtype))
    return norm(d, p)


def diff(x, n=1, axis=-1, prepend=None, append=None, name=None):
    """The n-th forward difference along axis (out[i] = x[i+1] - x[i], n times).

    ``prepend`` and ``append`` are joined to x along axis first.

    Example:
        >>> opsdk.diff(opsdk.to_tensor([1.0, 4.0, 9.0])).numpy().tolist()
        [3.0, 5.0]
    """
    x = vector_arg(tensor_arg(x, "diff"), "diff")
    n = int_arg(n, "diff", "n")
    if n < 0:
        raise OpArgumentError(f"diff: argument 'n' must be >= 0; got: {n}")
    axis = axis_arg(axis, x._data.ndim, "diff")
    parts = [tensor_arg(t, "diff", arg) for t, arg in ((prepend, "prepend"), (x, "x"),
                                                       (append, "append")) if t is not None]
    if len(parts) > 1:
        x = concat(parts, axis=axis)
    lead = (slice(None),) * axis
    for _ in range(n):
        length = x._data.shape[axis]
        if length == 0:
            break
        later, earlier = x[lead + (slice(1, length),)], x[lead + (slice(0, length - 1),)]
        # booleans have no subtraction: Paddle's difference of two booleans is "they differ"
        x = not_equal(later, earlier) if x._data.dtype.kind == "b" else later - earlier
    return x


__all__ = ["lerp", "addmm", "dist", "diff"]
