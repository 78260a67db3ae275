"""Arithmetic with broadcasting: add, subtract, multiply, divide, pow, maximum, minimum.

Each op: forward, then its gradient rule. ``vjp`` rules use Tensor ops (so backward can be
differentiated again); ``fast`` rules do the same on raw arrays for first-order backward.
"""
import numpy as np

from ..errors import ShapeError
from ..tensor import Tensor, _wrap
from .record import (_SCALARS, _state, as_array, record, record1, to_tensor_arg, unbroadcast,
                     unbroadcast_array)

_nd = np.ndarray


def _pass(g):
    return (g,)


def _broadcast_error(op, xd, yd):
    return ShapeError(f"{op}: shapes of 'x' and 'y' do not broadcast; expected: equal sizes or 1 "
                      f"in each trailing dimension; got: x {list(np.shape(xd))}, "
                      f"y {list(np.shape(yd))}")


def _operand(v, op, arg):
    """(array-or-scalar, Tensor-or-None): Python numbers stay numbers, so dtypes stay put."""
    if isinstance(v, Tensor):
        return v._data, v
    if type(v) in _SCALARS:
        return v, None
    t = to_tensor_arg(v, op, arg)
    return t._data, t


def _req(xt, yt):
    return _state.enabled and ((xt is not None and xt._req) or (yt is not None and yt._req))


def _shape(t):
    return t._data.shape


# -- binary ops -----------------------------------------------------------------------------
def add(x, y, name=None):
    """x + y, with broadcasting."""
    ty = type(y)
    if (ty is float or ty is int) and isinstance(x, Tensor):
        out = x._data + y
        if type(out) is not _nd:
            out = as_array(out)
        # x needs grad only if it is a float tensor, and float op number stays float
        if x._req and _state.enabled:
            return record1("add", out, x, _pass, _pass)
        return _wrap(out)
    xd, xt = _operand(x, "add", "x")
    yd, yt = _operand(y, "add", "y")
    try:
        out = xd + yd
    except ValueError:
        raise _broadcast_error("add", xd, yd) from None
    if not _req(xt, yt):
        return _wrap(as_array(out))
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
        out = x._data - y
        if type(out) is not _nd:
            out = as_array(out)
        # x needs grad only if it is a float tensor, and float op number stays float
        if x._req and _state.enabled:
            return record1("subtract", out, x, _pass, _pass)
        return _wrap(out)
    xd, xt = _operand(x, "subtract", "x")
    yd, yt = _operand(y, "subtract", "y")
    try:
        out = xd - yd
    except ValueError:
        raise _broadcast_error("subtract", xd, yd) from None
    if not _req(xt, yt):
        return _wrap(as_array(out))
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
        out = x._data * y
        if type(out) is not _nd:
            out = as_array(out)
        # x needs grad only if it is a float tensor, and float op number stays float
        if x._req and _state.enabled:
            # the same rule serves arrays and Tensors
            def rule(g):
                return (g * y,)
            return record1("multiply", out, x, rule, rule)
        return _wrap(out)
    xd, xt = _operand(x, "multiply", "x")
    yd, yt = _operand(y, "multiply", "y")
    try:
        out = xd * yd
    except ValueError:
        raise _broadcast_error("multiply", xd, yd) from None
    if not _req(xt, yt):
        return _wrap(as_array(out))
    if yt is None or xt is None:
        t, s = (xt, yd) if yt is None else (yt, xd)
        first = yt is None

        def fast(g):
            return (g * s, None) if first else (None, g * s)

        def vjp(g):
            return (g * s, None) if first else (None, g * s)
        return record("multiply", out, (xt, yt), vjp, fast)
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
    """x / y, with broadcasting."""
    xd, xt = _operand(x, "divide", "x")
    yd, yt = _operand(y, "divide", "y")
    try:
        out = as_array(xd / yd)
    except ValueError:
        raise _broadcast_error("divide", xd, yd) from None
    if not _req(xt, yt):
        return _wrap(out)
    rx = xt is not None and xt._req
    ry = yt is not None and yt._req
    xs = xd.shape if xt is not None else None
    ys = yd.shape if yt is not None else None

    def fast(g):
        gx = unbroadcast_array(g / yd, xs) if rx else None
        gy = unbroadcast_array(-g * out / yd, ys) if ry else None
        return gx, gy

    def vjp(g):
        yv = yt if yt is not None else yd
        gx = unbroadcast(g / yv, xs) if rx else None
        gy = unbroadcast(-g * (x if xt is not None else xd) / (yt * yt), ys) if ry else None
        return gx, gy
    return record("divide", out, (xt, yt), vjp, fast,
                  saved=tuple(t for t in (xt, yt) if t is not None))


def pow(x, y, name=None):
    """x ** y (y a number or a Tensor), with broadcasting."""
    xd, xt = _operand(x, "pow", "x")
    yd, yt = _operand(y, "pow", "y")
    try:
        out = as_array(xd ** yd)
    except ValueError:
        raise _broadcast_error("pow", xd, yd) from None
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
            return (g * (a * xd ** (a - 1)),) if a != 1 else (g,)

        def vjp(g):
            if a == 2:
                return (g * (xt * 2),)
            if a == 0:
                return (g * 0,)
            return (g * (pow(xt, a - 1) * a),) if a != 1 else (g,)
        return record("pow", out, (xt,), vjp, fast, saved=(xt,))
    rx = xt is not None and xt._req
    ry = yt._req
    xs = xd.shape if xt is not None else None
    ys = yd.shape

    def fast(g):
        gx = unbroadcast_array(g * yd * xd ** (yd - 1), xs) if rx else None
        gy = unbroadcast_array(g * out * np.log(xd), ys) if ry else None
        return gx, gy

    def vjp(g):
        base = xt if xt is not None else _wrap(as_array(np.asarray(xd, dtype=yd.dtype)))
        gx = unbroadcast(g * yt * pow(xt, yt - 1), xs) if rx else None
        gy = unbroadcast(g * pow(base, yt) * base.log(), ys) if ry else None
        return gx, gy

    return record("pow", out, (xt, yt), vjp, fast,
                  saved=tuple(t for t in (xt, yt) if t is not None))


def _select_op(name, pick_x):
    def op(x, y, name=None):
        xd, xt = _operand(x, name_, "x")
        yd, yt = _operand(y, name_, "y")
        try:
            mask = as_array(pick_x(xd, yd))
        except ValueError:
            raise _broadcast_error(name_, xd, yd) from None
        out = as_array(np.where(mask, xd, yd))
        if not _req(xt, yt):
            return _wrap(out)
        rx = xt is not None and xt._req
        ry = yt is not None and yt._req
        xs = xd.shape if xt is not None else None
        ys = yd.shape if yt is not None else None

        def fast(g):
            # a Python 0 keeps g's dtype (NEP 50) and works for NumPy and CuPy alike
            return (unbroadcast_array(np.where(mask, g, 0), xs) if rx else None,
                    unbroadcast_array(np.where(mask, 0, g), ys) if ry else None)

        def vjp(g):
            from .logic import where
            m = _wrap(mask)
            zero = g * 0
            return (unbroadcast(where(m, g, zero), xs) if rx else None,
                    unbroadcast(where(m, zero, g), ys) if ry else None)
        return record(name_, out, (xt, yt), vjp, fast)
    name_ = name
    op.__name__ = name
    return op


# the tie goes to x, as in Paddle's maximum/minimum gradients
maximum = _select_op("maximum", lambda a, b: a >= b)
maximum.__doc__ = "Elementwise maximum of x and y; where equal, the gradient goes to x."
minimum = _select_op("minimum", lambda a, b: a <= b)
minimum.__doc__ = "Elementwise minimum of x and y; where equal, the gradient goes to x."


# -- unary ops ------------------------------------------------------------------------------
