"""Special functions with their gradients to any order: lgamma, digamma, erfinv, i0, ...

lgamma (gammaln), digamma, polygamma, multigammaln, erfinv, i0, gammainc, gammaincc, logit.

The values come from special_arrays (NumPy; SciPy is not a dependency). Each derivative
is again one of these ops (lgamma' = digamma, digamma' = polygamma(1), i0' = i1, ...), so
create_graph differentiates as far as asked; Paddle itself stops at the first order for most.
"""
import math

import numpy as np

from ..autograd.record import OUTPUT, record
from ..errors import OpArgumentError
from ..tensor import Tensor
from . import maths
from . import special_arrays as K
from .casting import float_arg
from .op_args import int_arg




def _unary(name, x, array_fn, rule, args=None):
    x = float_arg(x, name)
    out = array_fn(x._data)
    return record(name, out, (x,), (rule,), (x,) if args is None else args)


def _on(v, op, array_fn):
    """op(v) on a Tensor (create_graph), array_fn(v) on an array."""
    return op(v) if isinstance(v, Tensor) else array_fn(v)


def lgamma(x, name=None):
    """log |Gamma(x)|; the gradient is digamma(x).

    Example:
        >>> round(float(opsdk.lgamma(opsdk.to_tensor(5.0))), 4)   # log 24
        3.1781
    """
    return _unary("lgamma", x, K.lgamma, _lgamma_grad)


def gammaln(x, name=None):
    """log |Gamma(x)| (the same as lgamma)."""
    return _unary("gammaln", x, K.lgamma, _lgamma_grad)


def _lgamma_grad(g, x):
    return g * _on(x, digamma, K.digamma)


def digamma(x, name=None):
    """psi(x), the derivative of lgamma; the gradient is polygamma(x, 1).

    Example:
        >>> round(float(opsdk.digamma(opsdk.to_tensor(1.0))), 6)   # -Euler's gamma
        -0.577216
    """
    x = float_arg(x, "digamma")
    return record("digamma", K.digamma(x._data), (x,), (_polygamma_grad,), (x, 0))


def polygamma(x, n, name=None):
    """The n-th derivative of digamma (n = 0 is digamma); the gradient is polygamma(x, n + 1)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise OpArgumentError(f"polygamma: argument 'n' must be an int; got: {type(n).__name__}")
    if n < 0:
        raise OpArgumentError(f"polygamma: argument 'n' must be >= 0; got: {n}")
    x = float_arg(x, "polygamma")
    return record("polygamma", K.polygamma(n, x._data), (x,), (_polygamma_grad,), (x, n))


def _polygamma_grad(g, x, n):
    if isinstance(x, Tensor):
        return g * polygamma(x, n + 1)
    return g * K.polygamma(n + 1, x)


def multigammaln(x, p, name=None):
    """log of the multivariate gamma function of dimension p: sum over j < p of
    lgamma(x - j / 2), plus p (p - 1) / 4 log(pi)."""
    p = int_arg(p, "multigammaln", "p")
    if p < 1:
        raise OpArgumentError(f"multigammaln: argument 'p' must be >= 1; got: {p}")
    from .reduction import sum as _sum
    from .shape import unsqueeze
    x = float_arg(x, "multigammaln")
    shifts = 0.5 * np.arange(1 - p, 1, dtype=x._data.dtype)
    return _sum(lgamma(unsqueeze(x, -1) + shifts), axis=-1) + 0.25 * p * (p - 1) * math.log(math.pi)


def erfinv(x, name=None):
    """The inverse error function on [-1, 1]; the gradient is sqrt(pi) / 2 * exp(y^2).

    Example:
        >>> round(float(opsdk.erfinv(opsdk.to_tensor(0.5))), 4)
        0.4769
    """
    x = float_arg(x, "erfinv")
    return record("erfinv", K.erfinv(x._data), (x,), _ERFINV, (OUTPUT,))


_HALF_SQRT_PI = math.sqrt(math.pi) / 2
_ERFINV = (lambda g, y: g * (maths.exp(y * y) * _HALF_SQRT_PI),)


def i0(x, name=None):
    """The modified Bessel function of the first kind of order 0; the gradient is I1(x).

    Example:
        >>> round(float(opsdk.i0(opsdk.to_tensor(1.0))), 4)
        1.2661
    """
    x = float_arg(x, "i0")
    out = np.i0(x._data).astype(x._data.dtype, copy=False)
    return record("i0", out, (x,), _I0, (x,))


def _i1(x):
    """I1 as an op (the gradient of i0); its own gradient is I0(x) - I1(x) / x (1/2 at 0)."""
    return record("i1", K.i1(x._data), (x,), _I1, (x,))


_I0 = (lambda g, x: g * _on(x, _i1, K.i1),)


def _i1_grad(g, x):
    xv = x._data if isinstance(x, Tensor) else x
    zero = xv == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        safe = maths.where(zero, 1.0, x) if isinstance(x, Tensor) else np.where(zero, 1.0, x)
        slope = _on(x, i0, np.i0) - _on(safe, _i1, K.i1) / safe
    return g * maths.where(zero, 0.5, slope)


_I1 = (_i1_grad,)


def gammaincc(x, y, name=None):
    """The regularized upper incomplete gamma function Q(x, y) (x the shape, y the point, both
    >= 0). Only y gets a gradient, -y^(x-1) e^-y / Gamma(x), as in Paddle."""
    x = float_arg(x, "gammaincc", "x")
    y = float_arg(y, "gammaincc", "y")
    for arg, t in (("x", x), ("y", y)):
        if np.any(t._data < 0):
            raise OpArgumentError(f"gammaincc: argument '{arg}' must be >= 0 everywhere; got: "
                                  f"a negative value")
    out = K.gammaincc(x._data, y._data)
    if out.dtype != y._data.dtype and y._data.dtype.kind == "f":
        out = out.astype(np.result_type(x._data, y._data))
    return record("gammaincc", out, (None, y), (None, _gammaincc_grad), (x._data, y),
                  broadcast=True)


def _gammaincc_grad(g, a, y):
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        log_front = (a - 1) * maths.log(y) - y - K.lgamma(a)
        return -g * maths.exp(log_front)


def gammainc(x, y, name=None):
    """The regularized lower incomplete gamma function P(x, y) = 1 - gammaincc(x, y)."""
    return 1 - gammaincc(x, y)


def logit(x, eps=None, name=None):
    """log(x / (1 - x)), with x first clipped to [eps, 1 - eps] when eps is given (the gradient
    is 0 outside that range, as in Paddle); the gradient is 1 / (x (1 - x))."""
    from .more_unary import log1p
    from .unary import clip, log
    x = float_arg(x, "logit")
    if eps:
        x = clip(x, eps, 1 - eps)
    return log(x) - log1p(-x)
