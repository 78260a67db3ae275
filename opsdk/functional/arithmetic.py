"""Arithmetic with broadcasting: add, subtract, multiply, divide, pow, maximum, minimum,
remainder, floor_divide, scale.

Each op: forward, then its gradient rule. ``vjp`` rules use Tensor ops (so backward can be
differentiated again); ``fast`` rules do the same on raw arrays for first-order backward.
Result dtypes follow Paddle 3.x (dtypes.promote): operands of another dtype are cast first,
as graph ops, so every gradient comes back in its input's dtype.
"""
import numpy as np

from ..dtypes import default_float, promote, promote_scalar
from ..errors import ShapeError
from ..tensor import Tensor, _wrap
from .record import (_SCALARS, _state, as_array, record, record1, save_output, to_tensor_arg,
                     unbroadcast, unbroadcast_array)

_nd = np.ndarray


def _pass(g):
    return (g,)


def _broadcast_error(op, xd, yd):
    return ShapeError(f"{op}: shapes of 'x' and 'y' do not broadcast; expected: equal sizes or 1 "
                      f"in each trailing dimension; got: x {list(np.shape(xd))}, "
                      f"y {list(np.shape(yd))}")


def _operand(v, op, arg):
    """(array-or-number, Tensor-or-None): Python numbers stay numbers, so dtypes stay put."""
    if isinstance(v, Tensor):
        return v._data, v
    if type(v) in _SCALARS:
        return v, None
    if isinstance(v, np.generic) and v.ndim == 0 and v.dtype.kind in "biuf":
        # NumPy scalars count as the Python numbers they hold (as in Paddle)
        return v.item(), None
    t = to_tensor_arg(v, op, arg)
    return t._data, t


def _req(xt, yt):
    return _state.enabled and ((xt is not None and xt._req) or (yt is not None and yt._req))


def _shape(t):
    return t._data.shape


def sides(xd, xt, yd, yt):
    """(x needs grad, y needs grad, x's shape, y's shape) of a binary op's operands."""
    return (xt is not None and xt._req, yt is not None and yt._req,
            xd.shape if xt is not None else None, yd.shape if yt is not None else None)


def promoted(xd, xt, yd, yt, op, true_div=False, scalar_0d=True):
    """The operands of a binary op cast to Paddle's result dtype (tensors by graph casts).

    ``scalar_0d``: a 0-d tensor acts like a number beside one with dimensions (Paddle's rule
    for arithmetic; maximum, minimum and where promote 0-d tensors like any other; "kinds":
    only beside a tensor of another kind, as floor_divide).
    """
    from .unary import cast
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


def _compute(fn, xd, yd, op):
    """fn(xd, yd) with the errors NumPy raises turned into opsdk's."""
    try:
        return as_array(fn(xd, yd))
    except ValueError:
        raise _broadcast_error(op, xd, yd) from None
    except TypeError:
        from ..errors import DTypeError
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


def _plain_scalar(xd, y, fn, op):
    """x op number without a graph, in Paddle's dtype (an int tensor * 1.5 is float32)."""
    out = _compute(fn, xd, y, op)
    if out.dtype != xd.dtype and xd.dtype.kind not in "fc":
        out = out.astype(promote_scalar(xd.dtype, y, op))
    return _wrap(out)


def _binary_args(x, y, op, true_div=False, scalar_0d=True):
    xd, xt = _operand(x, op, "x")
    yd, yt = _operand(y, op, "y")
    return promoted(xd, xt, yd, yt, op, true_div, scalar_0d)


# -- binary ops -----------------------------------------------------------------------------
def add(x, y, name=None):
    """x + y, with broadcasting."""
    ty = type(y)
    if (ty is float or ty is int) and isinstance(x, Tensor):
        # x needs grad only if it is a float tensor, and float op number stays float
        if x._req and _state.enabled:
            out = x._data + y
            if type(out) is not _nd:
                out = as_array(out)
            return record1("add", out, x, _pass, _pass)
        return _plain_scalar(x._data, y, np.add, "add")
    xd, xt, yd, yt = _binary_args(x, y, "add")
    out = _compute(np.add, xd, yd, "add")
    if not _req(xt, yt):
        return _wrap(out)
    xs = _shape(xt) if xt is not None else None
    ys = _shape(yt) if yt is not None else None

    def fast(g):
        return (None if xs is None else unbroadcast_array(g, xs),
                None if ys is None else unbroadcast_array(g, ys))

    def vjp(g):
        return (None if xs is None else unbroadcast(g, xs),
                None if ys is None else unbroadcast(g, ys))
    return record("add", out, (xt, yt), vjp, fast)


def subtract(x, y, name=None):
    """x - y, with broadcasting."""
    ty = type(y)
    if (ty is float or ty is int) and isinstance(x, Tensor):
        if x._req and _state.enabled:
            out = x._data - y
            if type(out) is not _nd:
                out = as_array(out)
            return record1("subtract", out, x, _pass, _pass)
        return _plain_scalar(x._data, y, np.subtract, "subtract")
    xd, xt, yd, yt = _binary_args(x, y, "subtract")
    out = _compute(np.subtract, xd, yd, "subtract")
    if not _req(xt, yt):
        return _wrap(out)
    xs = _shape(xt) if xt is not None else None
    ys = _shape(yt) if yt is not None else None

    def fast(g):
        return (None if xs is None else unbroadcast_array(g, xs),
                None if ys is None else unbroadcast_array(-g, ys))

    def vjp(g):
        return (None if xs is None else unbroadcast(g, xs),
                None if ys is None else unbroadcast(-g, ys))
    return record("subtract", out, (xt, yt), vjp, fast)


def multiply(x, y, name=None):
    """x * y, with broadcasting."""
    ty = type(y)
    if (ty is float or ty is int) and isinstance(x, Tensor):
        if x._req and _state.enabled:
            out = x._data * y
            if type(out) is not _nd:
                out = as_array(out)

            # the same rule serves arrays and Tensors
            def rule(g):
                return (g * y,)
            return record1("multiply", out, x, rule, rule)
        return _plain_scalar(x._data, y, np.multiply, "multiply")
    xd, xt, yd, yt = _binary_args(x, y, "multiply")
    out = _compute(np.multiply, xd, yd, "multiply")
    if not _req(xt, yt):
        return _wrap(out)
    if yt is None or xt is None:
        s = yd if yt is None else xd
        first = yt is None

        def fast(g):
            return (g * s, None) if first else (None, g * s)
        return record("multiply", out, (xt, yt), fast, fast)
    rx, ry = xt._req, yt._req
    xs, ys = xd.shape, yd.shape

    def fast(g):
        return (unbroadcast_array(g * yd, xs) if rx else None,
                unbroadcast_array(g * xd, ys) if ry else None)

    def vjp(g):
        return (unbroadcast(g * yt, xs) if rx else None,
                unbroadcast(g * xt, ys) if ry else None)
    return record("multiply", out, (xt, yt), vjp, fast, saved=(xt, yt))


def divide(x, y, name=None):
    """x / y, with broadcasting; integers divide into the default float dtype, as in Paddle."""
    xd, xt, yd, yt = _binary_args(x, y, "divide", true_div=True)
    if xt is None and yt is None:
        return _wrap(as_array(np.true_divide(xd, yd)).astype(default_float()))
    out = _compute(np.true_divide, xd, yd, "divide")
    if not _req(xt, yt):
        return _wrap(out)
    rx, ry, xs, ys = sides(xd, xt, yd, yt)

    def fast(g):
        gx = unbroadcast_array(g / yd, xs) if rx else None
        gy = unbroadcast_array(-g * out / yd, ys) if ry else None
        return gx, gy

    def vjp(g):
        yv = yt if yt is not None else yd
        gx = unbroadcast(g / yv, xs) if rx else None
        # -(g * (x / y)) / y, not -g * x / y**2: y**2 underflows for tiny y (as the fast rule)
        xv = xt if xt is not None else xd
        gy = unbroadcast(-(g * (xv / yt)) / yt, ys) if ry else None
        return gx, gy
    res = record("divide", out, (xt, yt), vjp, fast,
                 saved=tuple(t for t in (xt, yt) if t is not None))
    # the fast rule for y reads the quotient itself
    return save_output(res) if ry else res


def _power_rule(x, a):
    """d(x**a)/dx = a * x**(a-1) as a graph op; 0 everywhere for a == 0 (also at x = 0 and
    nan, as Paddle). Its own derivative is the plain formula a*(a-1)*x**(a-2)."""
    xd = x._data
    if a == 0:
        out = np.zeros_like(xd)
    else:
        with np.errstate(all="ignore"):
            out = as_array(a * xd ** (a - 1))
    if not (_state.enabled and x._req):
        return _wrap(out)
    c = a * (a - 1)

    def fast(g):
        with np.errstate(all="ignore"):
            return (g * (c * xd ** (a - 2)),)

    def vjp(g):
        return (g * (pow(x, a - 2) * c),)
    return record("pow_grad", out, (x,), vjp, fast, saved=(x,))


def pow(x, y, name=None):
    """x ** y (y a number or a Tensor), with broadcasting."""
    xd, xt, yd, yt = _binary_args(x, y, "pow")
    if yt is None and xt is not None and (yd == 0.5 or yd == -0.5) and xd.dtype.kind == "f":
        # x ** 0.5 is sqrt(x) (and ** -0.5 its reciprocal): nan at -inf too, as in Paddle's
        # float32 kernel and PyTorch (NumPy's C pow says +inf)
        xd = np.where(xd == -np.inf, np.nan, xd)
    if np.result_type(xd, yd).kind in "biu" and np.any(np.asarray(yd) < 0):
        from ..errors import OpArgumentError
        raise OpArgumentError("pow: an integer tensor to a negative integer power is not an "
                              "integer; expected: exponents >= 0, or a float base (cast x with "
                              ".astype('float32')); got: a negative exponent")
    with np.errstate(all="ignore"):
        out = _compute(np.power, xd, yd, "pow")
    if not _req(xt, yt):
        return _wrap(out)
    if yt is None:
        a = yd

        def fast(g):
            if a == 2:
                return (g * (2 * xd),)
            if a == 0:
                # d(x**0)/dx is 0 everywhere, also at x = 0 (0 * inf would give nan)
                return (np.zeros_like(g),)
            if a == 1:
                return (g,)
            with np.errstate(all="ignore"):
                return (g * (a * xd ** (a - 1)),)

        def vjp(g):
            if a == 2:
                return (g * (xt * 2),)
            if a == 1:
                return (g,)
            return (g * _power_rule(xt, a),)
        return record("pow", out, (xt,), vjp, fast, saved=(xt,))
    rx, ry, xs, ys = sides(xd, xt, yd, yt)

    def fast(g):
        with np.errstate(all="ignore"):
            gx = None
            if rx:
                # y == 0: the derivative is 0, also where x**(y-1) is inf or nan (Paddle)
                gx = unbroadcast_array(np.where(yd == 0, 0, g * yd * xd ** (yd - 1)), xs)
            gy = None
            if ry:
                # x == 0, y >= 0: x**y is flat in y there (log 0 would give nan or -inf)
                gy = unbroadcast_array(
                    np.where((xd == 0) & (yd >= 0), 0, g * out * np.log(xd)), ys)
        return gx, gy

    def vjp(g):
        from .logic import where
        base = xt if xt is not None else _wrap(as_array(np.asarray(xd, dtype=yd.dtype)))
        gx = None
        if rx:
            gx = unbroadcast(g * where(_wrap(as_array(yd == 0)), 0.0, yt * pow(xt, yt - 1)), xs)
        gy = None
        if ry:
            flat = _wrap(as_array((np.asarray(xd) == 0) & (yd >= 0)))
            gy = unbroadcast(g * where(flat, 0.0, pow(base, yt) * base.log()), ys)
        return gx, gy

    res = record("pow", out, (xt, yt), vjp, fast,
                 saved=tuple(t for t in (xt, yt) if t is not None))
    # the fast rule for the exponent reads x ** y itself
    return save_output(res) if ry else res


def _select_op(name, fn, greater):
    """maximum / minimum: NaN propagates (as Paddle); a tie gives each side half the gradient."""
    def op(x, y, name=None):
        xd, xt, yd, yt = _binary_args(x, y, name_, scalar_0d=False)
        out = _compute(fn, xd, yd, name_)
        if not _req(xt, yt):
            return _wrap(out)
        rx, ry, xs, ys = sides(xd, xt, yd, yt)
        dtype = out.dtype
        # where x wins 1, where y wins 0, at a tie 0.5; a NaN on either side gives 0 to both
        wins = greater(xd, yd)
        tie = np.equal(xd, yd)
        wx = as_array(np.where(tie, 0.5, wins)).astype(dtype)
        wy = as_array(np.where(tie, 0.5, greater(yd, xd))).astype(dtype)

        def fast(g):
            return (unbroadcast_array(g * wx, xs) if rx else None,
                    unbroadcast_array(g * wy, ys) if ry else None)

        def vjp(g):
            return (unbroadcast(g * _wrap(wx), xs) if rx else None,
                    unbroadcast(g * _wrap(wy), ys) if ry else None)
        return record(name_, out, (xt, yt), vjp, fast)
    name_ = name
    op.__name__ = name
    return op


maximum = _select_op("maximum", np.maximum, np.greater)
maximum.__doc__ = ("Elementwise maximum of x and y (NaN wins); at a tie each side gets half "
                   "the gradient, as in Paddle.")
minimum = _select_op("minimum", np.minimum, np.less)
minimum.__doc__ = ("Elementwise minimum of x and y (NaN wins); at a tie each side gets half "
                   "the gradient, as in Paddle.")


def _integer_zero_division(op, yd, dtype):
    """Integer % 0 and // 0 are errors, as in Paddle (NumPy would answer 0 with a warning)."""
    if dtype.kind in "biu" and not np.all(yd):
        from ..errors import OpArgumentError
        raise OpArgumentError(f"{op}: integer division by zero; expected: a divisor 'y' with "
                              "no zero element; got: a zero")


def remainder(x, y, name=None):
    """x % y with the sign of y (Python's modulo); d/dx = 1, d/dy = -floor(x / y)."""
    xd, xt, yd, yt = _binary_args(x, y, "remainder")
    _integer_zero_division("remainder", yd, np.result_type(xd, yd))
    with np.errstate(all="ignore"):
        out = _compute(np.remainder, xd, yd, "remainder")
    if not _req(xt, yt):
        return _wrap(out)
    rx, ry, xs, ys = sides(xd, xt, yd, yt)
    with np.errstate(all="ignore"):
        q = as_array(-np.floor(np.true_divide(xd, yd))).astype(out.dtype, copy=False)

    def fast(g):
        return (unbroadcast_array(g, xs) if rx else None,
                unbroadcast_array(g * q, ys) if ry else None)

    def vjp(g):
        return (unbroadcast(g, xs) if rx else None,
                unbroadcast(g * _wrap(q), ys) if ry else None)
    return record("remainder", out, (xt, yt), vjp, fast)


def floor_divide(x, y, name=None):
    """floor(x / y); piecewise constant: not differentiable, stop_gradient=True (as Paddle)."""
    # (Paddle's floor_divide takes a 0-d operand as a number only beside another kind)
    xd, xt, yd, yt = _binary_args(x, y, "floor_divide", scalar_0d="kinds")
    _integer_zero_division("floor_divide", yd, np.result_type(xd, yd))
    with np.errstate(all="ignore"):
        return _wrap(_compute(np.floor_divide, xd, yd, "floor_divide"))


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    """scale * x + bias (or scale * (x + bias)), in x's dtype.

    Example:
        >>> opsdk.scale(opsdk.to_tensor([1.0, 2.0]), scale=2.0, bias=1.0).numpy()
        array([3., 5.], dtype=float32)
    """
    if not isinstance(x, Tensor):
        x = to_tensor_arg(x, "scale", "x")
    if isinstance(scale, Tensor):
        out = multiply(x, scale) + bias if bias_after_scale else multiply(x + bias, scale)
    elif bias_after_scale:
        out = multiply(x, float(scale)) + float(bias) if bias else multiply(x, float(scale))
    else:
        out = multiply(add(x, float(bias)), float(scale))
    if out._data.dtype != x._data.dtype:
        from .unary import cast
        out = cast(out, x._data.dtype)
    if act is not None:
        from ..errors import OpArgumentError
        raise OpArgumentError(f"scale: argument 'act' is not supported; got: {act!r}")
    return out
