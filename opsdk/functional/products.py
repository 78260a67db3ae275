"""Products: prod (a reduction), kron, cross."""
import numpy as np

from ..autograd.record import output_read_by_backward, record
from ..errors import DTypeError, OpArgumentError, ShapeError
from ..tensor import Tensor, _wrap
from . import maths
from .arithmetic import multiply
from .casting import as_dtype as _cast
from .cumulative import cumprod
from .op_args import aliases, axis_arg, check_same_dtype, not_bool, tensor_arg
from .shape import as_shape, concat, flip, transpose


def reduce_axes_arg(axis, ndim, op):
    """None or [] -> every axis; an int or a list -> sorted axes (repeats are an error)."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (list, tuple)):
        if not axis:
            return tuple(range(ndim))
        axes = [axis_arg(a, ndim, op) for a in axis]
    else:
        axes = [axis_arg(axis, ndim, op)]
    if len(set(axes)) != len(axes):
        raise OpArgumentError(f"{op}: argument 'axis' repeats an axis; expected: distinct axes; "
                              f"got: {list(axis)}")
    return tuple(sorted(axes)) if ndim else ()


def _others_array(a):
    """Along the last axis: each entry's product of all the other entries (no division)."""
    left = np.ones_like(a)
    right = np.ones_like(a)
    left[..., 1:] = np.cumprod(a[..., :-1], axis=-1)
    right[..., :-1] = np.flip(np.cumprod(np.flip(a[..., 1:], -1), axis=-1), -1)
    return left * right


def _others(t):
    """_others_array with Tensor ops (differentiable through cumprod's exact gradient)."""
    n = t._data.shape[-1]
    ones = np.ones(t._data.shape[:-1] + (1,), dtype=t._data.dtype)
    if n <= 1:
        return _wrap(ones[..., :n])
    head = (Ellipsis, slice(0, n - 1))
    left = concat([_wrap(ones), cumprod(t[head], dim=-1)], axis=-1)
    right = flip(concat([_wrap(ones), cumprod(flip(t, [-1])[head], dim=-1)], axis=-1), [-1])
    return left * right


def _grouped(xs, axes):
    """Permutation putting the reduced axes last, its inverse, and the grouped shape."""
    keep = [i for i in range(len(xs)) if i not in axes]
    perm = keep + list(axes)
    n = int(np.prod([xs[a] for a in axes], dtype=np.int64))
    return perm, list(np.argsort(perm)), [xs[i] for i in keep] + [n]


@aliases(input="x", dim="axis")
def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    """Product over axis (all axes when None or []).

    The gradient of each element is the product of the others, computed without dividing by
    the element, so it is exact at zeros (Paddle's divides and gives NaN there).

    Args:
        x: the tensor.
        axis: an int, a list of distinct ints, or None.
        keepdim: keep the reduced axes with size 1.
        dtype: cast x to this dtype first.

    Returns:
        The product, in x's dtype (or ``dtype``).

    Example:
        >>> float(opsdk.prod(opsdk.to_tensor([2.0, 3.0, 4.0])))
        24.0
    """
    x = not_bool(tensor_arg(x, "prod"), "prod")
    if dtype is not None:
        x = _cast(x, dtype, "prod")
    xd = x._data
    axes = reduce_axes_arg(axis, xd.ndim, "prod")
    out = np.asarray(np.prod(xd, axis=axes, keepdims=keepdim, dtype=xd.dtype))
    return output_read_by_backward(record("prod", out, (x,), _PROD, (x, axes)))


def _prod_grad(g, x, axes):
    """g times each element's product of the others (no division by the element)."""
    shape = maths.shape(x)
    kept = tuple(1 if i in axes else s for i, s in enumerate(shape))
    return maths.reshape(g, kept) * _others_product(x, axes)


def _others_product(x, axes):
    """For each element of x, the product of the others along axes: on arrays out / x where that
    is exact (no zero, no overflow), else prefix and suffix products; on Tensors the latter,
    as graph ops (exact at zeros, differentiable again)."""
    shape = maths.shape(x)
    perm, inv, grouped = _grouped(shape, axes)
    if maths.is_tensor(x):
        t = as_shape(transpose(x, perm), grouped)
        return transpose(as_shape(_others(t), [shape[p] for p in perm]), inv)
    with np.errstate(all="ignore"):
        # recomputed from x (saved, version-checked): the output may have been written to
        o = np.prod(x, axis=axes, keepdims=True, dtype=x.dtype)
        if (np.isfinite(o) & (o != 0)).all() and np.isfinite(x).all():
            return o / x
    others = _others_array(x.transpose(perm).reshape(grouped))
    return others.reshape([shape[p] for p in perm]).transpose(inv)


_PROD = (_prod_grad,)


def kron(x, y, name=None):
    """Kronecker product: block (i, j) of the result is x[i, j] * y (any number of axes).

    Args:
        x, y: tensors of one dtype; the shorter shape is padded with leading 1s.

    Returns:
        A tensor of shape x.shape * y.shape (elementwise).

    Example:
        >>> opsdk.kron(opsdk.to_tensor([1.0, 2.0]), opsdk.to_tensor([1.0, 10.0])).numpy()
        array([ 1., 10.,  2., 20.], dtype=float32)
    """
    x = tensor_arg(x, "kron", "x")
    y = tensor_arg(y, "kron", "y")
    check_same_dtype("kron", x, y, "x", "y")
    nd = max(x._data.ndim, y._data.ndim)
    xs = [1] * (nd - x._data.ndim) + list(x._data.shape)
    ys = [1] * (nd - y._data.ndim) + list(y._data.shape)
    # x[i] * y[j] laid out as (i0, j0, i1, j1, ...) is the Kronecker product once flattened
    xr = as_shape(x, [v for s in xs for v in (s, 1)])
    yr = as_shape(y, [v for s in ys for v in (1, s)])
    return as_shape(multiply(xr, yr), [a * b for a, b in zip(xs, ys)])


def _cross_axis(axis, shape):
    if axis is None or (not isinstance(axis, Tensor) and axis == 9):
        for i, s in enumerate(shape):
            if s == 3:
                return i
        raise ShapeError(f"cross: no axis of size 3 in shape {list(shape)}; expected: at least "
                         f"one axis of size 3 (or pass axis=)")
    a = axis_arg(axis, len(shape), "cross")
    if shape[a] != 3:
        raise ShapeError(f"cross: axis {a} must have size 3; got: shape {list(shape)}")
    return a


def _cross_operands(x, y):
    """Equal shapes; two float dtypes promote to the wider one (as Paddle), others must match."""
    if x._data.shape != y._data.shape:
        raise ShapeError(f"cross: 'x' and 'y' must have the same shape (no broadcasting); got: "
                         f"x {list(x.shape)}, y {list(y.shape)}")
    dx, dy = x._data.dtype, y._data.dtype
    if dx.kind == "b" or dy.kind == "b":
        raise DTypeError(f"cross: expected: numeric tensors; got: x {dx}, y {dy}")
    if dx != dy:
        if dx.kind != "f" or dy.kind != "f":
            raise DTypeError(f"cross: 'x' and 'y' must have one dtype; got: x {dx}, y {dy}")
        wide = np.promote_types(dx, dy)
        x, y = _cast(x, wide, "cross"), _cast(y, wide, "cross")
    return x, y


@aliases(dim="axis")
def cross(x, y, axis=9, name=None):
    """Cross product of 3-vectors along axis (by default the first axis of size 3).

    Args:
        x, y: tensors of one shape.
        axis: the axis of size 3; 9 (Paddle's default) or None picks the first one.

    Returns:
        A tensor of that shape.

    Example:
        >>> opsdk.cross(opsdk.to_tensor([1.0, 0, 0]), opsdk.to_tensor([0.0, 1, 0])).numpy()
        array([0., 0., 1.], dtype=float32)
    """
    x = tensor_arg(x, "cross", "x")
    y = tensor_arg(y, "cross", "y")
    x, y = _cross_operands(x, y)
    a = _cross_axis(axis, x._data.shape)
    xd, yd = x._data, y._data
    out = np.cross(xd, yd, axisa=a, axisb=a, axisc=a)
    return record("cross", out, (x, y), _CROSS, (x, y, a))


def _crossed(u, v, a):
    """The cross product of arrays or (a graph op) Tensors along axis a."""
    if maths.is_tensor(u) or maths.is_tensor(v):
        return cross(u, v, a)
    return np.cross(u, v, axisa=a, axisb=a, axisc=a)


_CROSS = (lambda g, x, y, a: _crossed(y, g, a), lambda g, x, y, a: _crossed(g, x, a))
