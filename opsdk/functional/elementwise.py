"""Elementwise math with broadcasting. Each op: forward, then its gradient rule.

``vjp`` rules use Tensor ops (so backward can be differentiated again); ``fast`` rules do the
same on raw arrays for the usual first-order backward.
"""
import numpy as np

from ..errors import ShapeError
from ..tensor import Tensor, _wrap
from .record import (_SCALARS, _state, as_array, record, record1, save_output, to_tensor_arg,
                     unbroadcast, unbroadcast_array)

_nd = np.ndarray


def _pass(g):
    return (g,)


def _negate_fast(g):
    return (-g,)


def _negate_vjp(g):
    return (neg(g),)


def _broadcast_error(op, xd, yd):
    return ShapeError(f"{op}: shapes of 'x' and 'y' do not broadcast; expected: equal sizes or 1 "
                      f"in each trailing dimension; got: x {list(np.shape(xd))}, "
                      f"y {list(np.shape(yd))}")


def _record_from_output(name, x, out, rule):
    """Record an op whose gradient is ``rule(g, y)`` of its own output y.

    The same formula serves arrays (first order, y = the output array) and Tensors (create_graph,
    y = the output tensor, so second order flows through it). The output is saved with its
    version: modifying it in place before backward is an error.
    """
    res = record1(name, out, x, None, None)
    node = res._node
    node.fast = lambda g: (rule(g, out),)
    node.vjp = lambda g: (rule(g, res),)
    node.saved = ((res, 0),)
    return res


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
                None if ys is None else unbroadcast(neg(g), ys))
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
        gy = unbroadcast(neg(g) * (x if xt is not None else xd) / (yt * yt), ys) if ry else None
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
        gy = unbroadcast(g * pow(base, yt) * log(base), ys) if ry else None
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
def _unary_arg(x, op):
    return x if isinstance(x, Tensor) else to_tensor_arg(x, op, "x")


def neg(x, name=None):
    """-x."""
    x = _unary_arg(x, "neg")
    out = as_array(-x._data)
    if not (_state.enabled and x._req):
        return _wrap(out)
    return record1("neg", out, x, _negate_vjp, _negate_fast)


def abs(x, name=None):
    """|x|; the gradient at 0 is 0."""
    x = _unary_arg(x, "abs")
    xd = x._data
    out = as_array(np.abs(xd))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return record("abs", out, (x,), lambda g: (g * sign(x),), lambda g: (g * np.sign(xd),),
                  saved=(x,))


def exp(x, name=None):
    """e ** x."""
    x = _unary_arg(x, "exp")
    out = as_array(np.exp(x._data))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return _record_from_output("exp", x, out, lambda g, y: g * y)


def log(x, name=None):
    """Natural logarithm."""
    x = _unary_arg(x, "log")
    xd = x._data
    out = as_array(np.log(xd))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return record("log", out, (x,), lambda g: (g / x,), lambda g: (g / xd,), saved=(x,))


def sqrt(x, name=None):
    """Square root."""
    x = _unary_arg(x, "sqrt")
    out = as_array(np.sqrt(x._data))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return _record_from_output("sqrt", x, out, lambda g, y: g / (y + y))


def rsqrt(x, name=None):
    """1 / sqrt(x)."""
    return pow(_unary_arg(x, "rsqrt"), -0.5)


def square(x, name=None):
    """x ** 2."""
    return pow(_unary_arg(x, "square"), 2)


def reciprocal(x, name=None):
    """1 / x."""
    return divide(1.0, _unary_arg(x, "reciprocal"))


def sin(x, name=None):
    """Sine."""
    x = _unary_arg(x, "sin")
    xd = x._data
    out = as_array(np.sin(xd))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return record("sin", out, (x,), lambda g: (g * cos(x),), lambda g: (g * np.cos(xd),),
                  saved=(x,))


def cos(x, name=None):
    """Cosine."""
    x = _unary_arg(x, "cos")
    xd = x._data
    out = as_array(np.cos(xd))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return record("cos", out, (x,), lambda g: (neg(g * sin(x)),),
                  lambda g: (-(g * np.sin(xd)),), saved=(x,))


def tanh(x, name=None):
    """Hyperbolic tangent."""
    if not isinstance(x, Tensor):
        x = to_tensor_arg(x, "tanh", "x")
    out = np.tanh(x._data)
    if type(out) is not _nd:
        out = as_array(out)
    if not (x._req and _state.enabled):
        return _wrap(out)
    # 1 - y^2 written as g - g*y*y: no slow Python-scalar ufunc on the hot path
    return _record_from_output("tanh", x, out, lambda g, y: g - g * y * y)


def sigmoid(x, name=None):
    """1 / (1 + e ** -x), computed as (1 + tanh(x/2)) / 2 so it never overflows."""
    x = _unary_arg(x, "sigmoid")
    out = as_array(0.5 * (1 + np.tanh(0.5 * x._data)))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return _record_from_output("sigmoid", x, out, lambda g, y: g * (y - y * y))


def _no_grad_unary(name, fn, doc):
    def op(x, name=None):
        x = _unary_arg(x, name_)
        out = as_array(fn(x._data))
        if not (_state.enabled and x._req) or out.dtype.kind not in "fc":
            return _wrap(out)
        # piecewise-constant: zero gradient almost everywhere
        return record(name_, out, (x,), lambda g: (g * 0,), lambda g: (np.zeros_like(g),))
    name_ = name
    op.__name__ = name
    op.__doc__ = doc
    return op


sign = _no_grad_unary("sign", np.sign, "Sign of x (-1, 0, 1); gradient 0.")
floor = _no_grad_unary("floor", np.floor, "Round down; gradient 0.")
ceil = _no_grad_unary("ceil", np.ceil, "Round up; gradient 0.")
round = _no_grad_unary("round", np.round, "Round to nearest; gradient 0.")


def clip(x, min=None, max=None, name=None):
    """Clamp x into [min, max]; the gradient is 1 inside (bounds included), 0 outside."""
    x = _unary_arg(x, "clip")
    xd = x._data
    lo = -np.inf if min is None else (min.item() if isinstance(min, Tensor) else min)
    hi = np.inf if max is None else (max.item() if isinstance(max, Tensor) else max)
    out = as_array(np.clip(xd, lo, hi).astype(xd.dtype, copy=False))
    if not (_state.enabled and x._req):
        return _wrap(out)
    mask = as_array((xd >= lo) & (xd <= hi))

    def fast(g):
        return (g * mask,)

    def vjp(g):
        return (g * _wrap(mask.astype(g._data.dtype)),)
    return record("clip", out, (x,), vjp, fast)


def where(condition, x=None, y=None, name=None):
    """Pick x where condition is true, else y (broadcasting); gradients go to the picked side."""
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if x is None and y is None:
        from .indexing import nonzero
        return nonzero(condition, as_tuple=True)
    if cond.dtype != np.bool_:
        cond = cond.astype(bool)
    xd, xt = _operand(x, "where", "x")
    yd, yt = _operand(y, "where", "y")
    try:
        out = as_array(np.where(cond, xd, yd))
    except ValueError:
        raise ShapeError(f"where: shapes do not broadcast; expected: condition, x and y "
                         f"broadcastable to one shape; got: condition {list(cond.shape)}, "
                         f"x {list(np.shape(xd))}, y {list(np.shape(yd))}") from None
    if not _req(xt, yt):
        return _wrap(out)
    rx = xt is not None and xt._req
    ry = yt is not None and yt._req
    xs = xd.shape if xt is not None else None
    ys = yd.shape if yt is not None else None

    def fast(g):
        return (unbroadcast_array(np.where(cond, g, 0), xs) if rx else None,
                unbroadcast_array(np.where(cond, 0, g), ys) if ry else None)

    def vjp(g):
        zero = g * 0
        c = _wrap(cond)
        return (unbroadcast(where(c, g, zero), xs) if rx else None,
                unbroadcast(where(c, zero, g), ys) if ry else None)
    return record("where", out, (xt, yt), vjp, fast)


def cast(x, dtype):
    """x converted to dtype; the gradient is cast back to x's dtype."""
    from ..dtypes import convert_dtype
    x = _unary_arg(x, "cast")
    dt = convert_dtype(dtype, op="cast")
    src = x._data.dtype
    out = x._data.astype(dt)
    if not (_state.enabled and x._req) or dt.kind not in "fc":
        return _wrap(as_array(out))
    return record("cast", out, (x,), lambda g: (cast(g, src),), lambda g: (g.astype(src),))


# -- comparisons and logic (never differentiable) ---------------------------------------------
def _compare(name, fn):
    def op(x, y, name=None):
        xd = x._data if isinstance(x, Tensor) else (x if type(x) in _SCALARS else np.asarray(x))
        yd = y._data if isinstance(y, Tensor) else (y if type(y) in _SCALARS else np.asarray(y))
        return _wrap(as_array(fn(xd, yd)))
    op.__name__ = name
    op.__doc__ = f"Elementwise {name}; a bool tensor, no gradient."
    return op


equal = _compare("equal", np.equal)
not_equal = _compare("not_equal", np.not_equal)
less_than = _compare("less_than", np.less)
less_equal = _compare("less_equal", np.less_equal)
greater_than = _compare("greater_than", np.greater)
greater_equal = _compare("greater_equal", np.greater_equal)
logical_and = _compare("logical_and", np.logical_and)
logical_or = _compare("logical_or", np.logical_or)
logical_xor = _compare("logical_xor", np.logical_xor)
remainder = _compare("remainder", np.remainder)
floor_divide = _compare("floor_divide", np.floor_divide)


def logical_not(x, name=None):
    return _wrap(as_array(np.logical_not(_unary_arg(x, "logical_not")._data)))


def isnan(x, name=None):
    return _wrap(as_array(np.isnan(_unary_arg(x, "isnan")._data)))


def isinf(x, name=None):
    return _wrap(as_array(np.isinf(_unary_arg(x, "isinf")._data)))


def isfinite(x, name=None):
    return _wrap(as_array(np.isfinite(_unary_arg(x, "isfinite")._data)))


def allclose(x, y, rtol=1e-5, atol=1e-8, equal_nan=False, name=None):
    return _wrap(np.asarray(np.allclose(_unary_arg(x, "allclose").numpy(),
                                        _unary_arg(y, "allclose").numpy(), rtol, atol, equal_nan)))
