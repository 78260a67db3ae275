"""logaddexp, heaviside, sgn, signbit, sinc, deg2rad, rad2deg, isneginf, isposinf, isin,
nextafter, frexp, i0e, i1, i1e, positive: the smaller maths of Paddle 3.3.1.

Where Paddle composes a function of other ops (logaddexp, sinc, frexp, isneginf, ...) opsdk
composes it of the same ops in the same order, so values at edge points and the gradients
(sinc's 0 at x = 0, logaddexp's split at x = y) are Paddle's. heaviside, i0e, i1 and i1e are
ops of their own, with Paddle's gradients (heaviside: none to x, y's where x = 0; i0e at 0: -1;
i1 and i1e at 0: 1/2), to any order.
"""
import math

import numpy as np

from ..autograd.record import record
from ..errors import ArgumentTypeError, DTypeError
from ..tensor import Tensor, _wrap, as_array
from . import maths
from . import special_arrays as K
from .casting import cast, float_arg
from .special import _i1


def _tensor(x, op, arg="x"):
    """x, which must be a Tensor (Paddle: a TypeError else)."""
    if not isinstance(x, Tensor):
        raise ArgumentTypeError(f"{op}: {arg} must be tensor type, but got {type(x)} "
                                f"(expected: a Tensor)")
    return x


def _dtype_in(x, op, allowed, arg="x"):
    if x._data.dtype.name not in allowed:
        raise DTypeError(f"{op}: argument '{arg}' has an unsupported dtype; expected: one of "
                         f"{', '.join(allowed)}; got: {x._data.dtype}")
    return x


_FLOATS = ("float16", "float32", "float64")
_REALS = _FLOATS + ("uint8", "int8", "int16", "int32", "int64")


def logaddexp(x, y, name=None):
    """log(e^x + e^y), as Paddle computes it: log1p(exp(-|x - y|)) + maximum(x, y).

    Example:
        >>> round(float(opsdk.logaddexp(opsdk.to_tensor(1.0), opsdk.to_tensor(2.0))), 4)
        2.3133
    """
    from .arithmetic import maximum
    from .more_unary import log1p
    from .unary import abs as _abs, exp
    log_1p = log1p(exp(-_abs(x - y)))
    top = maximum(x, y)
    if top._data.dtype.kind in "iu":
        top = cast(top, log_1p._data.dtype)
    return log_1p + top


def heaviside(x, y, name=None):
    """0 where x < 0, y where x == 0, 1 where x > 0 (broadcast); x gets no gradient, y gets
    the output's where x == 0 (Paddle).

    Example:
        >>> opsdk.heaviside(opsdk.to_tensor([-1.0, 0.0, 2.0]), opsdk.to_tensor(0.5)).tolist()
        [0.0, 0.5, 1.0]
    """
    from .operands import binary_args
    _tensor(x, "heaviside"), _tensor(y, "heaviside", "y")
    from .op_args import not_bool
    from .operands import check_broadcast
    # Paddle has no bool heaviside kernel (a RuntimeError), for either argument
    not_bool(x, "heaviside"), not_bool(y, "heaviside", "y")
    xd, xt, yd, yt = binary_args(x, y, "heaviside")
    check_broadcast("heaviside", xd, yd)
    out = as_array(np.where(xd == 0, yd, (xd > 0)).astype(np.result_type(xd, yd)))
    return record("heaviside", out, (xt, yt), (_heaviside_grad_x, _heaviside_grad_y), (xd,),
                  broadcast=True)


def _heaviside_grad_x(g, x):
    return maths.zeros_like(g)


def _heaviside_grad_y(g, x):
    dtype = g._data.dtype if isinstance(g, Tensor) else g.dtype
    return g * (np.asarray(x) == 0).astype(dtype)


def sgn(x, name=None):
    """The sign of each element (-1, 0, 1) for real x, as Paddle's sgn (floats only).

    Example:
        >>> opsdk.sgn(opsdk.to_tensor([-2.0, 0.0, 3.0])).tolist()
        [-1.0, 0.0, 1.0]
    """
    from .unary import sign
    _dtype_in(_tensor(x, "sgn"), "sgn", _FLOATS)
    return sign(x)


def signbit(x, name=None):
    """True where the sign bit is set (-0.0 included); a bool tensor, no gradient.

    Example:
        >>> opsdk.signbit(opsdk.to_tensor([-0.0, 1.0, -2.0])).tolist()
        [True, False, True]
    """
    _dtype_in(_tensor(x, "signbit"), "signbit", _REALS)
    return _wrap(as_array(np.signbit(x._data)))


def sinc(x, name=None):
    """sin(pi x) / (pi x), 1 at x = 0 (where the gradient is 0), as Paddle composes it.

    Example:
        >>> [round(v, 4) for v in opsdk.sinc(opsdk.to_tensor([0.0, 0.5])).tolist()]
        [1.0, 0.6366]
    """
    from .creation import full_like
    from .logic import isnan, where
    from .unary import sin
    _dtype_in(_tensor(x, "sinc"), "sinc", _FLOATS)
    tmp = where(x != 0, x, full_like(x, 1.0e-20)) * math.pi
    tmp = sin(tmp) / tmp
    return where(~isnan(tmp), tmp, full_like(x, 1.0))


def _scaled(x, factor, op):
    from .arithmetic import scale
    x = _tensor(x, op)
    if x._data.dtype.name in ("int32", "int64"):
        x = cast(x, "float32")
    return scale(x, factor)


def deg2rad(x, name=None):
    """Degrees to radians (int32 and int64 give float32, as in Paddle).

    Example:
        >>> round(float(opsdk.deg2rad(opsdk.to_tensor(180.0))), 5)
        3.14159
    """
    return _scaled(x, np.pi / 180.0, "deg2rad")


def rad2deg(x, name=None):
    """Radians to degrees (int32 and int64 give float32, as in Paddle).

    Example:
        >>> round(float(opsdk.rad2deg(opsdk.to_tensor(opsdk.pi))), 3)
        180.0
    """
    return _scaled(x, 180 / np.pi, "rad2deg")


def isneginf(x, name=None):
    """True where x is -inf (a bool tensor)."""
    _dtype_in(_tensor(x, "isneginf"), "isneginf", _REALS)
    return _wrap(as_array(np.isneginf(x._data)))


def isposinf(x, name=None):
    """True where x is +inf (a bool tensor)."""
    _dtype_in(_tensor(x, "isposinf"), "isposinf", _REALS)
    return _wrap(as_array(np.isposinf(x._data)))


_ISIN = ("float16", "float32", "float64", "int32", "int64")


def isin(x, test_x, assume_unique=False, invert=False, name=None):
    """True where an element of x is in test_x (False with invert=True); x's shape, bool.

    Example:
        >>> opsdk.isin(opsdk.to_tensor([1, 2, 3]), opsdk.to_tensor([2, 5])).tolist()
        [False, True, False]
    """
    _dtype_in(_tensor(x, "isin"), "isin", _ISIN)
    _dtype_in(_tensor(test_x, "isin", "test_x"), "isin", _ISIN, "test_x")
    xd, td = x._data, test_x._data
    if assume_unique and xd.ndim and td.size >= xd.size ** 0.145 * 10:
        # Paddle's path for unique inputs (where Paddle too would not search element by element):
        # an element is in test_x when its stable-sorted successor in x ++ test_x equals it.
        # With repeats in x that is not membership; Paddle's docs say so, and opsdk gives the
        # same answer as Paddle rather than another one
        both = np.concatenate([xd.reshape(-1), td.reshape(-1)])
        order = np.argsort(both, kind="stable")
        ordered = both[order]
        repeat = np.zeros(both.size, dtype=bool)
        repeat[:-1] = ordered[1:] == ordered[:-1]
        mask = np.empty_like(repeat)
        mask[order] = ~repeat if invert else repeat
        return _wrap(mask[:xd.size].reshape(xd.shape))
    return _wrap(as_array(np.isin(xd, td, invert=bool(invert))))


def nextafter(x, y, name=None):
    """The next float after x towards y (float32 and float64, as in Paddle); no gradient.

    Example:
        >>> one, two = opsdk.to_tensor(1.0, "float64"), opsdk.to_tensor(2.0, "float64")
        >>> opsdk.nextafter(one, two).item() > 1
        True
    """
    _dtype_in(_tensor(x, "nextafter"), "nextafter", ("float32", "float64"))
    _dtype_in(_tensor(y, "nextafter", "y"), "nextafter", ("float32", "float64"), "y")
    if x._data.dtype != y._data.dtype:
        raise DTypeError(f"nextafter: x and y must have the same dtype; got: {x._data.dtype} "
                         f"and {y._data.dtype}")
    return _wrap(as_array(np.nextafter(x._data, y._data)))


def frexp(x, name=None):
    """(mantissa, exponent): x = mantissa * 2 ** exponent, 0.5 <= |mantissa| < 1, both in x's
    dtype; composed as Paddle does (the mantissa's gradient is 1 / 2 ** exponent).

    Example:
        >>> [t.tolist() for t in opsdk.frexp(opsdk.to_tensor([3.0, -5.0]))]
        [[0.75, -0.625], [2.0, 3.0]]
    """
    from .creation import ones_like
    from .logic import where
    from .unary import abs as _abs
    _dtype_in(_tensor(x, "frexp"), "frexp", ("float32", "float64"))
    input_x = _abs(x)
    # floor(log2 |x|) (0 where that is infinite), a step function: its gradient is 0 (Paddle's
    # floor stops it; through log2 it would be nan at x = 0)
    with np.errstate(divide="ignore"):
        steps = as_array(np.floor(np.log2(input_x._data)))
    steps[np.isinf(steps)] = 0
    exponent = record("frexp", steps, (x,), (_no_gradient,), ())
    mantissa = input_x / 2 ** exponent
    exponent = where(mantissa >= 1, exponent + ones_like(exponent), exponent)
    mantissa = where(mantissa >= 1, mantissa / 2 ** ones_like(exponent), mantissa)
    mantissa = where(x < 0, mantissa * -1, mantissa)
    return mantissa, exponent


def _no_gradient(g):
    return maths.zeros_like(g)


def positive(x, name=None):
    """x itself (unary plus); a bool tensor is a TypeError, as in Paddle."""
    if isinstance(x, Tensor) and x._data.dtype == np.bool_:
        raise DTypeError("positive: the `+` operator on a bool tensor is not supported "
                         "(expected: a number tensor; got: bool)")
    return x


# -- exponentially scaled Bessel functions ---------------------------------------------------
_BIG = 500.0  # past this, e^-|x| I(x) comes from its asymptotic series (e^x would overflow)


def _scaled_bessel(x, order):
    """e^-|x| I_order(x) as an array in x's dtype."""
    x64 = np.asarray(x, dtype=np.float64)
    ax = np.abs(x64)
    with np.errstate(all="ignore"):
        small = np.where(ax <= _BIG, x64, 0.0)
        direct = np.exp(-np.abs(small)) * (np.i0(small) if order == 0 else K.i1(small))
        big = np.where(ax > _BIG, ax, _BIG + 1)
        mu = 4.0 * order * order
        asym, coef = np.ones_like(big), 1.0
        for k in range(1, 12):
            coef *= -(mu - (2 * k - 1) ** 2) / (k * 8.0)
            asym = asym + coef / big ** k
        large = asym / np.sqrt(2 * np.pi * big)
        if order == 1:
            large = large * np.sign(x64)
        out = np.where(ax <= _BIG, direct, large)
    return out.astype(np.asarray(x).dtype, copy=False)


def _on(v, op, order):
    return op(v) if isinstance(v, Tensor) else _scaled_bessel(v, order)


def _sign_at_0_plus(x):
    """-1 where x < 0, else 1 (the sign Paddle's i0e and i1e gradients use, 0 counting +)."""
    xv = x._data if isinstance(x, Tensor) else x
    return np.where(xv < 0, -1.0, 1.0).astype(xv.dtype)


def _scaled_op(name, x, order, rule):
    x = float_arg(x, name)
    return record(name, _scaled_bessel(x._data, order), (x,), (rule,), (x,))


def i0e(x, name=None):
    """e^-|x| I0(x); the gradient is i1e(x) - sign(x) i0e(x) (-1 at 0, as in Paddle).

    Example:
        >>> round(float(opsdk.i0e(opsdk.to_tensor(1.0))), 4)
        0.4658
    """
    return _scaled_op("i0e", x, 0, _i0e_grad)


def _i0e_grad(g, x):
    return g * (_on(x, i1e, 1) - _sign_at_0_plus(x) * _on(x, i0e, 0))


def i1(x, name=None):
    """The modified Bessel function of the first kind of order 1; the gradient is
    I0(x) - I1(x) / x (1/2 at 0).

    Example:
        >>> round(float(opsdk.i1(opsdk.to_tensor(1.0))), 4)
        0.5652
    """
    return _i1(float_arg(x, "i1"))


def i1e(x, name=None):
    """e^-|x| I1(x); the gradient is i0e(x) - i1e(x) (sign(x) + 1 / x) (1/2 at 0). Finite
    for any x: far out it is sign(x) / sqrt(2 pi |x|) to leading order.

    Example:
        >>> round(float(opsdk.i1e(opsdk.to_tensor(1.0))), 4)
        0.2079
    """
    return _scaled_op("i1e", x, 1, _i1e_grad)


def _i1e_grad(g, x):
    xv = x._data if isinstance(x, Tensor) else x
    zero = xv == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        safe = maths.where(zero, 1.0, x)
        slope = _on(x, i0e, 0) - _on(safe, i1e, 1) * (_sign_at_0_plus(x) + 1 / safe)
    return g * maths.where(zero, 0.5, slope)


__all__ = ["logaddexp", "heaviside", "sgn", "signbit", "sinc", "deg2rad", "rad2deg",
           "isneginf", "isposinf", "isin", "nextafter", "frexp", "positive", "i0e", "i1",
           "i1e"]
