"""Trigonometric and hyperbolic functions, hypot, copysign, ldexp, nan_to_num.

tan and the inverse and hyperbolic functions (asin acos atan sinh cosh asinh acosh atanh),
hypot, copysign, ldexp, nan_to_num.

Each gradient rule is written with operators and ``maths`` (and these ops themselves), so it
runs on arrays for a first-order backward and on Tensors under create_graph: any order.
Integer inputs give the default float, as in Paddle.
"""
import numpy as np

from ..autograd.record import record
from ..errors import ArgumentTypeError
from ..tensor import Tensor
from . import maths
from .casting import float_arg


def _unary(name, x, fn, rule):
    x = float_arg(x, name)
    with np.errstate(all="ignore"):
        out = fn(x._data)
    return record(name, out, (x,), (rule,), (x,))


def _on(v, op, array_fn):
    return op(v) if isinstance(v, Tensor) else array_fn(v)


def _rsqrt(v):
    with np.errstate(all="ignore"):
        return v ** -0.5


def tan(x, name=None):
    """Tangent; the gradient is 1 / cos(x)^2."""
    return _unary("tan", x, np.tan, lambda g, x: g / maths.cos(x) ** 2)


def asin(x, name=None):
    """Arcsine; the gradient is 1 / sqrt(1 - x^2)."""
    return _unary("asin", x, np.arcsin, lambda g, x: g * _rsqrt(1 - x * x))


def acos(x, name=None):
    """Arccosine; the gradient is -1 / sqrt(1 - x^2)."""
    return _unary("acos", x, np.arccos, lambda g, x: -g * _rsqrt(1 - x * x))


def atan(x, name=None):
    """Arctangent; the gradient is 1 / (1 + x^2)."""
    return _unary("atan", x, np.arctan, lambda g, x: g / (1 + x * x))


def sinh(x, name=None):
    """Hyperbolic sine; the gradient is cosh(x)."""
    return _unary("sinh", x, np.sinh, lambda g, x: g * _on(x, cosh, np.cosh))


def cosh(x, name=None):
    """Hyperbolic cosine; the gradient is sinh(x)."""
    return _unary("cosh", x, np.cosh, lambda g, x: g * _on(x, sinh, np.sinh))


def asinh(x, name=None):
    """Inverse hyperbolic sine; the gradient is 1 / sqrt(x^2 + 1)."""
    return _unary("asinh", x, np.arcsinh, lambda g, x: g * _rsqrt(x * x + 1))


def acosh(x, name=None):
    """Inverse hyperbolic cosine; the gradient is 1 / sqrt(x^2 - 1)."""
    return _unary("acosh", x, np.arccosh, lambda g, x: g * _rsqrt(x * x - 1))


def atanh(x, name=None):
    """Inverse hyperbolic tangent; the gradient is 1 / (1 - x^2)."""
    return _unary("atanh", x, np.arctanh, lambda g, x: g / (1 - x * x))


def hypot(x, y, name=None):
    """sqrt(x^2 + y^2), with broadcasting (as Paddle computes it, so the gradients are those of
    that formula: nan at x = y = 0)."""
    from .arithmetic import pow as _pow
    from .unary import sqrt
    from .op_args import not_bool
    tensors_only("hypot", x=x, y=y)
    # Paddle squares each with pow, which has no bool kernel (a RuntimeError)
    not_bool(x, "hypot"), not_bool(y, "hypot", "y")
    return sqrt(_pow(x, 2) + _pow(y, 2))


def tensors_only(op, **args):
    """Paddle takes only tensors in these places (hypot, ldexp and their in-place forms): a
    number is a TypeError."""
    for arg, value in args.items():
        if not isinstance(value, Tensor):
            raise ArgumentTypeError(f"{op}: {arg} must be tensor type, but got {type(value)} "
                                    f"(expected: a Tensor)")


def copysign(x, y, name=None):
    """|x| with the sign of y (a Tensor or a number); the gradient to x is +-1 (0 where x is
    0), y gets none."""
    from .operands import binary_args, compute
    xd, xt, yd, yt = binary_args(x, y, "copysign")
    out = compute(np.copysign, xd, yd, "copysign")
    out = out.astype(np.result_type(xd, yd)) if out.dtype.kind != "f" else out
    if xt is None:
        from ..tensor import _wrap
        return _wrap(out)
    return record("copysign", out, (xt, None), (_copysign_grad, None), (xd, yd), broadcast=True)


def _copysign_grad(g, x, y):
    # d|x| sign(y) / dx = sign(x) * sign(y), 0 at x == 0 (Paddle)
    s = np.where(x == 0, 0.0, np.sign(x) * np.copysign(1.0, y))
    return g * s.astype(np.asarray(x).dtype)


def ldexp(x, y, name=None):
    """x * 2^y, in float64 if either is float64, else in the default float (Paddle); both
    must be tensors, as in Paddle."""
    from .arithmetic import multiply, pow as _pow
    from .casting import cast
    from .creation import to_tensor
    from ..dtypes import default_float
    tensors_only("ldexp", x=x, y=y)
    xt, yt = x, y
    dtype = "float64" if np.float64 in (xt._data.dtype, yt._data.dtype) else default_float()
    xt, yt = cast(xt, dtype), cast(yt, dtype)
    return multiply(xt, _pow(to_tensor(2.0, dtype=dtype), yt))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None, name=None):
    """nan, +inf and -inf replaced by the given numbers (inf by the dtype's largest finite,
    -inf by its smallest); the gradient is 1 where x is finite, 0 where it was replaced."""
    x = float_arg(x, "nan_to_num")
    xd = x._data
    info = np.finfo(xd.dtype)
    out = np.nan_to_num(xd, nan=nan, posinf=info.max if posinf is None else posinf,
                        neginf=info.min if neginf is None else neginf)
    kept = np.isfinite(xd).astype(xd.dtype)
    return record("nan_to_num", out, (x,), (lambda g, k: g * k,), (kept,))
