"""Elementwise functions of one tensor: exp and log, roots, trig, tanh, sigmoid, rounding, clip.

neg, abs, exp, log, sqrt, rsqrt, sin, cos, tanh, sigmoid, sign, floor, ceil, round, trunc, clip.
Each op: forward, then its gradient rule, one function of the output's gradient g and the input
x or the output y, written with operators and ``maths`` so that it runs on arrays (first order)
and on Tensors (create_graph) alike.
"""
import numpy as np

from ..autograd.record import OUTPUT, needs_grad, record
from ..errors import DTypeError, NoKernelDTypeError
from ..tensor import Tensor, _wrap, as_array, tensor_arg
from . import maths
from .casting import float_arg
from .op_args import not_bool


def neg(x, name=None):
    """-x (of a bool tensor: itself, as in Paddle)."""
    x = tensor_arg(x, "neg")
    out = -x._data if x._data.dtype.kind != "b" else x._data.copy()
    return record("neg", out, (x,), _NEG)


_NEG = (lambda g: -g,)


def abs(x, name=None):
    """|x|; the gradient is x / |x|: 0 at 0, and nan at +-inf, as in Paddle."""
    x = not_bool(tensor_arg(x, "abs"), "abs")
    xd = x._data
    out = as_array(np.abs(xd))
    if not needs_grad(x):
        return _wrap(out)
    with np.errstate(all="ignore"):
        weight = as_array(np.where(xd == 0, 0, xd / out)).astype(xd.dtype, copy=False)
    # a constant weight: a second derivative finds no path to x through it (as Paddle's)
    return record("abs", out, (x,), _TIMES_CONSTANT, (weight,))


# g times a constant fixed at forward (abs, clip, ...)
_TIMES_CONSTANT = (lambda g, w: g * w,)


def exp(x, name=None):
    """e ** x."""
    x = float_arg(x, "exp")
    return record("exp", np.exp(x._data), (x,), _EXP, (OUTPUT,))


_EXP = (lambda g, y: g * y,)


def log(x, name=None):
    """Natural logarithm."""
    x = float_arg(x, "log")
    return record("log", np.log(x._data), (x,), _LOG, (x,))


_LOG = (lambda g, x: g / x,)


def sqrt(x, name=None):
    """Square root."""
    x = float_arg(x, "sqrt")
    return record("sqrt", np.sqrt(x._data), (x,), _SQRT, (OUTPUT,))


_SQRT = (lambda g, y: g / (y + y),)


def rsqrt(x, name=None):
    """1 / sqrt(x) (so rsqrt(-0.0) is -inf, as in Paddle); the gradient is -y**3 / 2."""
    x = float_arg(x, "rsqrt")
    with np.errstate(divide="ignore", invalid="ignore"):
        out = 1 / np.sqrt(x._data)
    return record("rsqrt", out, (x,), _RSQRT, (OUTPUT,))


def _rsqrt_grad(g, y):
    """-g y**3 / 2. On Tensors one op whose own derivative in y is written (3 / y) times its
    value, as Paddle's double grad is (nan at x = 0 and inf, where y is inf or 0)."""
    if not maths.is_tensor(g):
        return g * (y * y * y) * -0.5
    out = g._data * (y._data * y._data * y._data) * -0.5
    return record("rsqrt_grad", out, (y, g), _RSQRT_GRAD, (y, g))


def _rsqrt_grad_in_y(gg, y, g):
    with np.errstate(all="ignore"):
        return gg * (3 / y) * _rsqrt_grad(g, y)


def _rsqrt_grad_in_g(gg, y, g):
    with np.errstate(all="ignore"):
        return gg * (y * y * y) * -0.5


_RSQRT = (_rsqrt_grad,)
_RSQRT_GRAD = (_rsqrt_grad_in_y, _rsqrt_grad_in_g)


def sin(x, name=None):
    """Sine."""
    x = float_arg(x, "sin")
    return record("sin", np.sin(x._data), (x,), _SIN, (x,))


_SIN = (lambda g, x: g * maths.cos(x),)


def cos(x, name=None):
    """Cosine."""
    x = float_arg(x, "cos")
    return record("cos", np.cos(x._data), (x,), _COS, (x,))


_COS = (lambda g, x: -(g * maths.sin(x)),)


def tanh(x, name=None):
    """Hyperbolic tangent."""
    if not isinstance(x, Tensor) or x._data.dtype.kind not in "fc":  # (the hot path: no call)
        x = float_arg(x, "tanh")
    return record("tanh", np.tanh(x._data), (x,), _TANH, (OUTPUT,))


# 1 - y^2 written as g - g*y*y: no slow Python-scalar ufunc on the hot path
_TANH = (lambda g, y: g - g * y * y,)


def sigmoid(x, name=None):
    """1 / (1 + e ** -x), computed from e ** -|x| so it never overflows and keeps its relative
    precision far out on the negative side (log(sigmoid(-20)) is -20 in float32)."""
    x = float_arg(x, "sigmoid")
    xd = x._data
    e = np.exp(-np.abs(xd))
    out = as_array(np.where(xd >= 0, 1 / (1 + e), e / (1 + e)))
    if out.dtype != xd.dtype:
        out = out.astype(xd.dtype)
    return record("sigmoid", out, (x,), _SIGMOID, (OUTPUT,))


_SIGMOID = (lambda g, y: g * (y - y * y),)


def _no_grad_unary(name, fn, doc):
    def op(x, name=None):
        x = not_bool(tensor_arg(x, name_), name_)
        xd = x._data
        # integers are their own floor, ceil and round (NumPy would make floats of them)
        try:
            out = fn(xd) if xd.dtype.kind in "fc" or name_ == "sign" else xd.copy()
        except TypeError:
            raise DTypeError(f"{name_}: not defined for {xd.dtype} tensors") from None
        return record(name_, out, (x,), _ZERO)
    name_ = name
    op.__name__ = name
    op.__doc__ = doc
    return op


# piecewise-constant: zero gradient almost everywhere, not connected to x (a second derivative
# finds no path, as in Paddle)
_ZERO = (lambda g: maths.zeros_like(g),)

sign = _no_grad_unary("sign", np.sign, "Sign of x (-1, 0, 1); gradient 0.")
floor = _no_grad_unary("floor", np.floor, "Round down; gradient 0.")
ceil = _no_grad_unary("ceil", np.ceil, "Round up; gradient 0.")
round = _no_grad_unary("round", np.round, "Round to nearest, halves to even (as Paddle); "
                       "gradient 0.")
trunc = _no_grad_unary("trunc", np.trunc, "Round toward zero (integers stay); gradient 0.")


def clip(x, min=None, max=None, name=None):
    """Clamp x into [min, max]; the gradient is 1 inside (bounds included), 0 outside."""
    x = tensor_arg(x, "clip")
    lo = None if min is None else (min.item() if isinstance(min, Tensor) else min)
    hi = None if max is None else (max.item() if isinstance(max, Tensor) else max)
    if lo is not None and hi is not None and lo > hi:
        from ..errors import OpArgumentError
        raise OpArgumentError(f"clip: max should be greater than or equal to min (as in Paddle); "
                              f"got: min {lo}, max {hi}")
    if x._data.dtype.kind not in "fc" and (type(lo) is float or type(hi) is float):
        x = float_arg(x, "clip")  # float bounds make an integer tensor float, as in Paddle
    xd = x._data
    # a missing bound is the dtype's finite extreme, as in Paddle (so clip(-inf) is finite)
    if xd.dtype.kind not in "fiu":
        # Paddle has no bool (or complex) clip kernel: a RuntimeError there
        raise NoKernelDTypeError(f"clip: argument 'x' must be a float or integer tensor; got: "
                                 f"{xd.dtype}")
    info = np.finfo(xd.dtype) if xd.dtype.kind == "f" else np.iinfo(xd.dtype)
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    out = as_array(np.clip(xd, lo, hi).astype(xd.dtype, copy=False))
    if not needs_grad(x):
        return _wrap(out)
    inside = as_array((xd >= lo) & (xd <= hi)).astype(xd.dtype)
    return record("clip", out, (x,), _TIMES_CONSTANT, (inside,))


maths.provide(exp=exp, log=log, sin=sin, cos=cos, tanh=tanh, abs=abs)
