"""Arithmetic with broadcasting: the binary ops, with square and reciprocal.

add, subtract, multiply, divide, pow, square, reciprocal, maximum, minimum, fmax, fmin,
add_n, remainder,
floor_divide, scale.

Each op: forward, then its gradient rules, one per operand, functions of the output's gradient
g and the values they read (x, y, the output), with operators and ``maths`` so that they run on
arrays (first order) and on Tensors (create_graph) alike. The recorder sums each gradient back
to its operand's shape (broadcast=True). Result dtypes follow Paddle 3.x (operands.promoted).
"""
import numpy as np

from ..autograd.record import OUTPUT, needs_grad, record
from ..dtypes import default_float
from ..errors import ArgumentTypeError, OpArgumentError, ShapeError
from ..tensor import Tensor, _wrap, as_array, tensor_arg
from . import maths
from .casting import cast, float_arg
from .operands import binary_args, compute, with_number

def add(x, y, name=None):
    """x + y, with broadcasting."""
    ty = type(y)
    if (ty is float or ty is int) and isinstance(x, Tensor):
        # x can need a gradient only if it is a float tensor, and float op number stays float
        if x._req:
            return record("add", x._data + y, (x,), _ADD)
        return with_number(x, y, np.add, "add")
    xd, xt, yd, yt = binary_args(x, y, "add")
    return record("add", compute(np.add, xd, yd, "add"), (xt, yt), _ADD, broadcast=True)


_ADD = (lambda g: g, lambda g: g)


def subtract(x, y, name=None):
    """x - y, with broadcasting."""
    ty = type(y)
    if (ty is float or ty is int) and isinstance(x, Tensor):
        if x._req:
            return record("subtract", x._data - y, (x,), _SUBTRACT)
        return with_number(x, y, np.subtract, "subtract")
    xd, xt, yd, yt = binary_args(x, y, "subtract")
    return record("subtract", compute(np.subtract, xd, yd, "subtract"), (xt, yt), _SUBTRACT,
                  broadcast=True)


_SUBTRACT = (lambda g: g, lambda g: -g)


def multiply(x, y, name=None):
    """x * y, with broadcasting."""
    ty = type(y)
    if (ty is float or ty is int) and isinstance(x, Tensor):
        if x._req:
            return record("multiply", x._data * y, (x,), _MULTIPLY, (None, y))
        return with_number(x, y, np.multiply, "multiply")
    xd, xt, yd, yt = binary_args(x, y, "multiply")
    out = compute(np.multiply, xd, yd, "multiply")
    # each rule reads the other operand; a number is read as the number, never saved
    if xt is None or yt is None:
        args = (None, yd) if yt is None else (xd, None)
    else:
        args = (xt, yt)
    return record("multiply", out, (xt, yt), _MULTIPLY, args, broadcast=True)


_MULTIPLY = (lambda g, x, y: g * y, lambda g, x, y: g * x)


def divide(x, y, name=None):
    """x / y, with broadcasting; integers divide into the default float dtype, as in Paddle."""
    xd, xt, yd, yt = binary_args(x, y, "divide", true_div=True)
    if xt is None and yt is None:
        return _wrap(as_array(np.true_divide(xd, yd)).astype(default_float()))
    out = compute(np.true_divide, xd, yd, "divide")
    # the rule for y reads the quotient itself; Paddle's divide kernel reads it for either
    # gradient, so with a tensor divisor a write into the quotient makes backward refuse
    args = (xt if xt is not None else xd, yt if yt is not None else yd,
            OUTPUT if yt is not None else None)
    return record("divide", out, (xt, yt), _DIVIDE, args, broadcast=True)


# d(x/y)/dy = -(x/y)/y, written with the quotient: y**2 underflows for tiny y
_DIVIDE = (lambda g, x, y, q: g / y, lambda g, x, y, q: -g * q / y)


def _power_slope(x, a):
    """d(x**a)/dx = a * x**(a-1), 0 everywhere for a == 0 (also at x = 0 and nan, as Paddle).

    On Tensors one op whose own derivative is the plain a*(a-1)*x**(a-2)."""
    if not maths.is_tensor(x):
        if a == 0:
            return np.zeros_like(x)
        return a * _c_power(x, a - 1)
    return record("pow_grad", _power_slope(x._data, a), (x,), _POWER_SLOPE, (x, a))


def _power_slope_grad(g, x, a):
    if a == 1:
        # the slope of x**1 is the constant 1: zero everywhere, at 0, inf and nan too (Paddle)
        return maths.zeros_like(g)
    if maths.is_tensor(x):
        return g * (x ** (a - 2) * (a * (a - 1)))
    return g * (_c_power(x, a - 2) * (a * (a - 1)))


def _c_power(x, e):
    """x ** e on an array with C's pow at -inf: +inf for e > 0 and 0 for e < 0 where e is not an
    integer (NumPy's fast path for e = +-0.5 says nan there; Paddle's kernels are C's)."""
    with np.errstate(all="ignore"):
        out = x ** e
    if e != int(e) and x.dtype.kind == "f":
        out = np.where(x == -np.inf, np.inf if e > 0 else 0.0, out).astype(out.dtype)
    return out


_POWER_SLOPE = (_power_slope_grad,)


def _pow_by_number_grad(g, x, a):
    if a == 2:
        return g * (x * 2)
    if a == 1 and not maths.is_tensor(g):
        return g
    with np.errstate(all="ignore"):
        return g * _power_slope(x, a)


def _pow_grad_in_x(g, x, y):
    with np.errstate(all="ignore"):
        # y == 0: the derivative is 0, also where x**(y-1) is inf or nan (Paddle)
        return maths.where(_values(y) == 0, 0, g * y * x ** (y - 1))


def _pow_grad_in_y(g, x, y):
    with np.errstate(all="ignore"):
        # x == 0, y >= 0: x**y is flat in y there (log 0 would give nan or -inf). x ** y is
        # computed again rather than read from the output: Paddle's backward reads x and y
        # only, so a write into the output leaves backward working
        xv = _values(x)
        return maths.where((xv == 0) & (_values(y) >= 0), 0, g * x ** y * maths.log(x))


def _values(v):
    """The values of an operand a rule reads, as an array (or number): for masks."""
    return v._data if isinstance(v, Tensor) else v


def pow(x, y, name=None):
    """x ** y (y a number or a Tensor), with broadcasting."""
    xd, xt, yd, yt = binary_args(x, y, "pow")
    if yt is None and xt is not None and (yd == 0.5 or yd == -0.5) and xd.dtype.kind == "f":
        # x ** 0.5 is sqrt(x) (and ** -0.5 its reciprocal): nan at -inf too, as in Paddle's
        # float32 kernel and PyTorch (NumPy's C pow says +inf)
        xd = np.where(xd == -np.inf, np.nan, xd)
    if np.result_type(xd, yd).kind in "biu" and np.any(np.asarray(yd) < 0):
        raise OpArgumentError("pow: an integer tensor to a negative integer power is not an "
                              "integer; expected: exponents >= 0, or a float base (cast x with "
                              ".astype('float32')); got: a negative exponent")
    with np.errstate(all="ignore"):
        out = compute(np.power, xd, yd, "pow")
    if yt is None:
        return record("pow", out, (xt,), _POW_BY_NUMBER, (xt, yd))
    return record("pow", out, (xt, yt), _POW, (xt if xt is not None else xd, yt),
                  broadcast=True)


_POW_BY_NUMBER = (_pow_by_number_grad,)
_POW = (_pow_grad_in_x, _pow_grad_in_y)


def square(x, name=None):
    """x ** 2."""
    from .op_args import not_bool
    return pow(not_bool(tensor_arg(x, "square"), "square"), 2)


def reciprocal(x, name=None):
    """1 / x."""
    return divide(1.0, float_arg(x, "reciprocal"))


def _select_op(name, fn, weights, doc):
    """An op choosing, elementwise, x's or y's value; ``weights(xd, yd)`` gives each side's
    share of the gradient, fixed at forward."""
    def op(x, y, name=None):
        xd, xt, yd, yt = binary_args(x, y, name_, scalar_0d=False)
        out = compute(fn, xd, yd, name_)
        if not needs_grad(xt, yt):
            return _wrap(out)
        wx, wy = (as_array(w).astype(out.dtype) for w in weights(xd, yd))
        return record(name_, out, (xt, yt), _SELECT, (wx, wy), broadcast=True)
    name_ = name
    op.__name__, op.__doc__ = name, doc
    return op


def _tie_halves(greater):
    """maximum / minimum: NaN propagates (as Paddle); where x wins 1, where y wins 0, at a tie
    0.5 each; a NaN on either side gives 0 to both."""
    def weights(xd, yd):
        tie = np.equal(xd, yd)
        return np.where(tie, 0.5, greater(xd, yd)), np.where(tie, 0.5, greater(yd, xd))
    return weights


def _all_to_chosen(wins):
    """fmax / fmin: a NaN loses to a number; the whole gradient goes to the side that gives
    the output, x at a tie and when both are NaN (Paddle's rule)."""
    def weights(xd, yd):
        with np.errstate(invalid="ignore"):
            to_x = np.logical_or(wins(xd, yd), np.isnan(yd))
        return to_x, np.logical_not(to_x)
    return weights


# each side's share of the gradient, fixed at forward
_SELECT = (lambda g, wx, wy: g * wx, lambda g, wx, wy: g * wy)

_HALF = "at a tie each side gets half the gradient, as in Paddle."
_CHOSEN = "the gradient goes to the side chosen (x at a tie), as in Paddle."
maximum = _select_op("maximum", np.maximum, _tie_halves(np.greater),
                     "Elementwise maximum of x and y (NaN wins); " + _HALF)
minimum = _select_op("minimum", np.minimum, _tie_halves(np.less),
                     "Elementwise minimum of x and y (NaN wins); " + _HALF)
fmax = _select_op("fmax", np.fmax, _all_to_chosen(np.greater_equal),
                  "Elementwise maximum of x and y where a NaN loses to a number; " + _CHOSEN)
fmin = _select_op("fmin", np.fmin, _all_to_chosen(np.less_equal),
                  "Elementwise minimum of x and y where a NaN loses to a number; " + _CHOSEN)


def add_n(inputs, name=None):
    """The sum of a list of tensors of one shape (a lone tensor gives a copy of it)."""
    if isinstance(inputs, Tensor):
        inputs = [inputs]
    if not inputs:  # Paddle: a ValueError
        raise OpArgumentError("add_n: expected: a Tensor or a non-empty list of Tensors; "
                              "got: an empty list")
    if not all(isinstance(t, Tensor) for t in inputs):
        raise ArgumentTypeError("add_n: expected: a Tensor or a non-empty list of Tensors; "
                                f"got: {type(inputs).__name__}")
    shapes = {tuple(t.shape) for t in inputs}
    if len(shapes) > 1:
        raise ShapeError(f"add_n: expected: tensors of one shape; got: shapes "
                         f"{[list(t.shape) for t in inputs]}")
    out = multiply(inputs[0], 1)
    for t in inputs[1:]:
        out = add(out, t)
    return out


def _integer_zero_division(op, yd, dtype):
    """Integer % 0 and // 0 are errors, as in Paddle (NumPy would answer 0 with a warning)."""
    if dtype.kind in "biu" and not np.all(yd):
        raise OpArgumentError(f"{op}: integer division by zero; expected: a divisor 'y' with "
                              "no zero element; got: a zero")


def remainder(x, y, name=None):
    """x % y with the sign of y (Python's modulo); d/dx = 1, d/dy = -floor(x / y)."""
    xd, xt, yd, yt = binary_args(x, y, "remainder")
    _integer_zero_division("remainder", yd, np.result_type(xd, yd))
    with np.errstate(all="ignore"):
        out = compute(np.remainder, xd, yd, "remainder")
    if not needs_grad(xt, yt):
        return _wrap(out)
    with np.errstate(all="ignore"):
        q = as_array(-np.floor(np.true_divide(xd, yd))).astype(out.dtype, copy=False)
    return record("remainder", out, (xt, yt), _REMAINDER, (q,), broadcast=True)


_REMAINDER = (lambda g, q: g, lambda g, q: g * q)


def floor_divide(x, y, name=None):
    """floor(x / y); piecewise constant: not differentiable, stop_gradient=True (as Paddle)."""
    # (Paddle's floor_divide takes a 0-d operand as a number only beside another kind)
    xd, xt, yd, yt = binary_args(x, y, "floor_divide", scalar_0d="kinds")
    _integer_zero_division("floor_divide", yd, np.result_type(xd, yd))
    with np.errstate(all="ignore"):
        return _wrap(compute(np.floor_divide, xd, yd, "floor_divide"))


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    """scale * x + bias (or scale * (x + bias)), in x's dtype.

    Example:
        >>> opsdk.scale(opsdk.to_tensor([1.0, 2.0]), scale=2.0, bias=1.0).numpy()
        array([3., 5.], dtype=float32)
    """
    x = tensor_arg(x, "scale")
    if isinstance(scale, Tensor):
        out = multiply(x, scale) + bias if bias_after_scale else multiply(x + bias, scale)
    elif bias_after_scale:
        out = multiply(x, float(scale)) + float(bias) if bias else multiply(x, float(scale))
    else:
        out = multiply(add(x, float(bias)), float(scale))
    if out._data.dtype != x._data.dtype:
        out = cast(out, x._data.dtype)
    if act is not None:
        raise OpArgumentError(f"scale: argument 'act' is not supported; got: {act!r}")
    return out
