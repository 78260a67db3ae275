"""The operands of a binary op: numbers stay numbers, the rest become Tensors, and both take
Paddle 3.x's result dtype (dtypes.promote), cast as graph ops so every gradient comes back in
its input's dtype."""
import numpy as np

from ..dtypes import default_float, promote, promote_scalar
from ..errors import DTypeError, ShapeError
from ..tensor import _SCALARS, Tensor, _wrap, as_array, int_result, tensor_arg
from .casting import cast


def broadcast_error(op, xd, yd):
    return ShapeError(f"{op}: shapes of 'x' and 'y' do not broadcast; expected: equal sizes or 1 "
                      f"in each trailing dimension; got: x {list(np.shape(xd))}, "
                      f"y {list(np.shape(yd))}")


def check_broadcast(op, xd, yd):
    """The broadcast shape of two arrays (or numbers); shapes that do not broadcast are a
    ShapeError naming op (the ValueError Paddle raises), not NumPy's own ValueError."""
    try:
        return np.broadcast_shapes(np.shape(xd), np.shape(yd))
    except ValueError:
        raise broadcast_error(op, xd, yd) from None


def operand(v, op, arg):
    """(array-or-number, Tensor-or-None): Python numbers stay numbers, so dtypes stay put."""
    if isinstance(v, Tensor):
        return v._data, v
    if type(v) in _SCALARS:
        return v, None
    if isinstance(v, np.generic) and v.ndim == 0 and v.dtype.kind in "biuf":
        # NumPy scalars count as the Python numbers they hold (as in Paddle)
        return v.item(), None
    t = tensor_arg(v, op, arg)
    return t._data, t


def promoted(xd, xt, yd, yt, op, true_div=False, scalar_0d=True):
    """The operands of a binary op cast to Paddle's result dtype (tensors by graph casts).

    ``scalar_0d``: a 0-d tensor acts like a number beside one with dimensions (Paddle's rule
    for arithmetic; maximum, minimum and where promote 0-d tensors like any other; "kinds":
    only beside a tensor of another kind, as floor_divide).
    """
    if xt is not None and yt is not None:
        dx, dy = xd.dtype, yd.dtype
        zx, zy = (xd.ndim == 0, yd.ndim == 0) if scalar_0d else (False, False)
        if scalar_0d == "kinds" and (zx or zy) and dx.kind == dy.kind:
            zx = zy = True  # floor_divide: one kind beside a 0-d promotes to the wider dtype
        target = dx if dx == dy else promote(dx, dy, zx, zy, op)
    elif xt is not None:
        target = promote_scalar(xd.dtype, yd, op)
    elif yt is not None:
        target = promote_scalar(yd.dtype, xd, op)
    else:
        return xd, xt, yd, yt
    if true_div and target.kind in "biu":
        target = default_float()
    if xt is not None and xd.dtype != target:
        xt = cast(xt, target)
        xd = xt._data
    if yt is not None and yd.dtype != target:
        yt = cast(yt, target)
        yd = yt._data
    return xd, xt, yd, yt


def binary_args(x, y, op, true_div=False, scalar_0d=True):
    """(x's array or number, x's Tensor or None, the same for y), promoted (see promoted)."""
    xd, xt = operand(x, op, "x")
    yd, yt = operand(y, op, "y")
    return promoted(xd, xt, yd, yt, op, true_div, scalar_0d)


def compute(fn, xd, yd, op):
    """fn(xd, yd) with the errors NumPy raises turned into opsdk's."""
    try:
        return as_array(fn(xd, yd))
    except ValueError:
        raise broadcast_error(op, xd, yd) from None
    except TypeError:
        raise DTypeError(f"{op}: not defined for these dtypes; got: x "
                         f"{getattr(xd, 'dtype', type(xd).__name__)}, y "
                         f"{getattr(yd, 'dtype', type(yd).__name__)}") from None
    except OverflowError:
        # a Python int beyond a small integer dtype wraps around, as C casts do
        if type(xd) is int:
            xd = np.asarray(xd).astype(yd.dtype)
        else:
            yd = np.asarray(yd).astype(xd.dtype)
        return as_array(fn(xd, yd))


def with_number(x, y, fn, op):
    """Tensor x op number without a graph, in Paddle's dtype (an int tensor * 1.5 is float32);
    an integer result of an integer x that reports stop_gradient=False reports it too."""
    xd = x._data
    out = compute(fn, xd, y, op)
    if out.dtype != xd.dtype and xd.dtype.kind not in "fc":
        out = out.astype(promote_scalar(xd.dtype, y, op))
    if x._sg_off and out.dtype.kind in "biu":
        return int_result(out)
    return _wrap(out)

