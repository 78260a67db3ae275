"""Elementwise functions of one tensor: neg, abs, exp, log, sqrt, trig, tanh, sigmoid, clip, cast.

Each op: forward, then its gradient rule (``vjp`` with Tensor ops, ``fast`` on raw arrays).
"""
import numpy as np

from ..dtypes import default_float
from ..tensor import Tensor, _wrap, int_result
from .arithmetic import _nd, divide, pow
from .record import _state, as_array, record, record1, record_from_output, to_tensor_arg


def _negate_fast(g):
    return (-g,)


def _negate_vjp(g):
    return (neg(g),)


def _record_from_input(name, x, out, fast_rule, vjp_rule):
    """Record an op whose gradient is a rule of its input v: ``fast_rule(g, v)`` on arrays,
    ``vjp_rule(g, v)`` with Tensor ops (differentiable). The input is saved with its version.
    """
    xd = x._data
    return record1(name, out, x, lambda g: (vjp_rule(g, x),), lambda g: (fast_rule(g, xd),),
                   save_input=True)


_record_from_output = record_from_output


def _record_constant_weight(name, x, out, weight):
    """Record an op whose gradient is g * weight, weight an array fixed at forward (abs, sign):
    the gradient does not depend on x differentiably, so a second derivative through it gets
    no path to x (as Paddle's)."""
    return record1(name, out, x, lambda g: (g * _wrap(weight),), lambda g: (g * weight,))


def _unary_arg(x, op):
    return x if isinstance(x, Tensor) else to_tensor_arg(x, op, "x")


def _float_arg(x, op):
    """x as a float tensor: integer and bool tensors become the default float, as in Paddle."""
    x = x if isinstance(x, Tensor) else to_tensor_arg(x, op, "x")
    if x._data.dtype.kind not in "fc":
        return _wrap(x._data.astype(default_float()))
    return x


def neg(x, name=None):
    """-x (of a bool tensor: itself, as in Paddle)."""
    x = _unary_arg(x, "neg")
    out = as_array(-x._data if x._data.dtype.kind != "b" else x._data.copy())
    if not (_state.enabled and x._req):
        return _wrap(out)
    return record1("neg", out, x, _negate_vjp, _negate_fast)


def abs(x, name=None):
    """|x|; the gradient is x / |x|: 0 at 0, and nan at +-inf, as in Paddle."""
    x = _unary_arg(x, "abs")
    xd = x._data
    out = as_array(np.abs(xd))
    if not (_state.enabled and x._req):
        return _wrap(out)
    with np.errstate(all="ignore"):
        weight = as_array(np.where(xd == 0, 0, xd / out)).astype(xd.dtype, copy=False)
    return _record_constant_weight("abs", x, out, weight)


def exp(x, name=None):
    """e ** x."""
    x = _float_arg(x, "exp")
    out = as_array(np.exp(x._data))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return _record_from_output("exp", x, out, lambda g, y: g * y)


def log(x, name=None):
    """Natural logarithm."""
    x = _float_arg(x, "log")
    xd = x._data
    out = as_array(np.log(xd))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return _record_from_input("log", x, out, lambda g, v: g / v, lambda g, v: g / v)


def sqrt(x, name=None):
    """Square root."""
    x = _float_arg(x, "sqrt")
    out = as_array(np.sqrt(x._data))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return _record_from_output("sqrt", x, out, lambda g, y: g / (y + y))


def rsqrt(x, name=None):
    """1 / sqrt(x) (so rsqrt(-0.0) is -inf, as in Paddle); the gradient is -y**3 / 2."""
    x = _float_arg(x, "rsqrt")
    with np.errstate(divide="ignore", invalid="ignore"):
        out = as_array(1 / np.sqrt(x._data))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return _record_from_output("rsqrt", x, out, _rsqrt_rule)


def _rsqrt_rule(g, y):
    """-g y**3 / 2: on arrays directly; on Tensors as one op whose own derivative in y is written
    (3 / y) * its value, as Paddle's double grad is (nan at x = 0 and inf, where y is inf or 0)."""
    if not isinstance(g, Tensor):
        return g * (y * y * y) * -0.5
    yd, gd = y._data, g._data
    out = as_array(gd * (yd * yd * yd) * -0.5)
    if not (_state.enabled and (g._req or y._req)):
        return _wrap(out)

    def fast(gg):
        with np.errstate(all="ignore"):
            return gg * (3 / yd) * out, gg * (yd * yd * yd) * -0.5

    def vjp(gg):
        with np.errstate(all="ignore"):
            return gg * (3 / y) * _rsqrt_rule(g, y), gg * (y * y * y) * -0.5
    return record("rsqrt_grad", out, (y, g), vjp, fast, saved=(y, g))


def square(x, name=None):
    """x ** 2."""
    return pow(_unary_arg(x, "square"), 2)


def reciprocal(x, name=None):
    """1 / x."""
    return divide(1.0, _float_arg(x, "reciprocal"))


def sin(x, name=None):
    """Sine."""
    x = _float_arg(x, "sin")
    xd = x._data
    out = as_array(np.sin(xd))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return _record_from_input("sin", x, out, lambda g, v: g * np.cos(v),
                              lambda g, v: g * cos(v))


def cos(x, name=None):
    """Cosine."""
    x = _float_arg(x, "cos")
    xd = x._data
    out = as_array(np.cos(xd))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return _record_from_input("cos", x, out, lambda g, v: -(g * np.sin(v)),
                              lambda g, v: -(g * sin(v)))


def tanh(x, name=None):
    """Hyperbolic tangent."""
    if not isinstance(x, Tensor):
        x = _float_arg(x, "tanh")
    out = np.tanh(x._data)
    if type(out) is not _nd:
        out = as_array(out)
    if not (x._req and _state.enabled):
        if x._data.dtype.kind not in "fc":
            out = as_array(np.tanh(_float_arg(x, "tanh")._data))
        return _wrap(out)
    # 1 - y^2 written as g - g*y*y: no slow Python-scalar ufunc on the hot path
    return _record_from_output("tanh", x, out, lambda g, y: g - g * y * y)


def sigmoid(x, name=None):
    """1 / (1 + e ** -x), computed from e ** -|x| so it never overflows and keeps its relative
    precision far out on the negative side (log(sigmoid(-20)) is -20 in float32)."""
    x = _float_arg(x, "sigmoid")
    xd = x._data
    e = np.exp(-np.abs(xd))
    out = as_array(np.where(xd >= 0, 1 / (1 + e), e / (1 + e)))
    if out.dtype != xd.dtype:
        out = out.astype(xd.dtype)
    if not (_state.enabled and x._req):
        return _wrap(out)
    return _record_from_output("sigmoid", x, out, lambda g, y: g * (y - y * y))


def _zeros_of(g):
    return (_wrap(np.zeros_like(g._data)),)


def _no_grad_unary(name, fn, doc):
    def op(x, name=None):
        x = _unary_arg(x, name_)
        xd = x._data
        # integers are their own floor, ceil and round (NumPy would make floats of them)
        try:
            out = as_array(fn(xd) if xd.dtype.kind in "fc" or name_ == "sign" else xd.copy())
        except TypeError:
            from ..errors import DTypeError
            raise DTypeError(f"{name_}: not defined for {xd.dtype} tensors") from None
        if not (_state.enabled and x._req) or out.dtype.kind not in "fc":
            return _wrap(out)
        # piecewise-constant: zero gradient almost everywhere (not connected to x: a second
        # derivative finds no path, as in Paddle)
        return record(name_, out, (x,), _zeros_of, lambda g: (np.zeros_like(g),))
    name_ = name
    op.__name__ = name
    op.__doc__ = doc
    return op


sign = _no_grad_unary("sign", np.sign, "Sign of x (-1, 0, 1); gradient 0.")
floor = _no_grad_unary("floor", np.floor, "Round down; gradient 0.")
ceil = _no_grad_unary("ceil", np.ceil, "Round up; gradient 0.")
round = _no_grad_unary("round", np.round, "Round to nearest, halves to even (as Paddle); "
                       "gradient 0.")
trunc = _no_grad_unary("trunc", np.trunc, "Round toward zero (integers stay); gradient 0.")


def clip(x, min=None, max=None, name=None):
    """Clamp x into [min, max]; the gradient is 1 inside (bounds included), 0 outside."""
    x = _unary_arg(x, "clip")
    lo = None if min is None else (min.item() if isinstance(min, Tensor) else min)
    hi = None if max is None else (max.item() if isinstance(max, Tensor) else max)
    if x._data.dtype.kind not in "fc" and (type(lo) is float or type(hi) is float):
        x = _float_arg(x, "clip")  # float bounds make an integer tensor float, as in Paddle
    xd = x._data
    # a missing bound is the dtype's finite extreme, as in Paddle (so clip(-inf) is finite)
    if xd.dtype.kind not in "fiu":
        from ..errors import DTypeError
        raise DTypeError(f"clip: argument 'x' must be a float or integer tensor; got: {xd.dtype}")
    info = np.finfo(xd.dtype) if xd.dtype.kind == "f" else np.iinfo(xd.dtype)
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    out = as_array(np.clip(xd, lo, hi).astype(xd.dtype, copy=False))
    if not (_state.enabled and x._req):
        return _wrap(out)
    mask = as_array((xd >= lo) & (xd <= hi))

    def fast(g):
        return (g * mask,)

    def vjp(g):
        return (g * _wrap(mask.astype(g._data.dtype)),)
    return record("clip", out, (x,), vjp, fast)


def cast(x, dtype):
    """x converted to dtype; the gradient is cast back to x's dtype."""
    from ..dtypes import convert_dtype
    x = _unary_arg(x, "cast")
    dt = convert_dtype(dtype, op="cast")
    src = x._data.dtype
    out = x._data.astype(dt)
    if not (_state.enabled and x._req):
        return _wrap(as_array(out))
    if dt.kind not in "fc":
        return int_result(as_array(out))  # no gradient through it; the flag still says False
    return record("cast", out, (x,), lambda g: (cast(g, src),), lambda g: (g.astype(src),))


# -- comparisons and logic (never differentiable) ---------------------------------------------
