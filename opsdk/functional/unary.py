"""Elementwise functions of one tensor: neg, abs, exp, log, sqrt, trig, tanh, sigmoid, clip, cast.

Each op: forward, then its gradient rule (``vjp`` with Tensor ops, ``fast`` on raw arrays).
"""
import numpy as np

from ..tensor import Tensor, _wrap
from .arithmetic import _nd, divide, pow
from .record import _state, as_array, record, record1, to_tensor_arg


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
    return _record_from_input("abs", x, out, lambda g, v: g * np.sign(v),
                              lambda g, v: g * sign(v))


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
    return _record_from_input("log", x, out, lambda g, v: g / v, lambda g, v: g / v)


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
    return _record_from_input("sin", x, out, lambda g, v: g * np.cos(v),
                              lambda g, v: g * cos(v))


def cos(x, name=None):
    """Cosine."""
    x = _unary_arg(x, "cos")
    xd = x._data
    out = as_array(np.cos(xd))
    if not (_state.enabled and x._req):
        return _wrap(out)
    return _record_from_input("cos", x, out, lambda g, v: -(g * np.sin(v)),
                              lambda g, v: -(g * sin(v)))


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
