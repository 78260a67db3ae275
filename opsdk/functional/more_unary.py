"""log1p, expm1, log2, log10, frac, stanh: more elementwise functions of one tensor.

Integer inputs give the default float (frac keeps integers), as in Paddle; trunc lives in unary.
"""
import numpy as np

from ..autograd.record import OUTPUT, record
from ..errors import DTypeError
from ..tensor import _wrap, as_array, tensor_arg
from .casting import float_arg
from .unary import tanh, trunc

_LN2 = float(np.log(2.0))
_LN10 = float(np.log(10.0))


def _from_input(name, x, fn, rule):
    x = float_arg(x, name)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = fn(x._data)
    return record(name, out, (x,), (rule,), (x,))


def log1p(x, name=None):
    """log(1 + x), precise near 0; the gradient is 1 / (1 + x).

    Example:
        >>> round(float(opsdk.log1p(opsdk.to_tensor(1e-10, dtype="float64"))) * 1e10, 6)
        1.0
    """
    return _from_input("log1p", x, np.log1p, _log1p_grad)


def log2(x, name=None):
    """Base-2 logarithm; the gradient is 1 / (x ln 2).

    Example:
        >>> opsdk.log2(opsdk.to_tensor([1.0, 8.0])).numpy().tolist()
        [0.0, 3.0]
    """
    return _from_input("log2", x, np.log2, _log2_grad)


def log10(x, name=None):
    """Base-10 logarithm; the gradient is 1 / (x ln 10).

    Example:
        >>> opsdk.log10(opsdk.to_tensor([1.0, 100.0], dtype="float64")).numpy().tolist()
        [0.0, 2.0]
    """
    return _from_input("log10", x, np.log10, _log10_grad)


def expm1(x, name=None):
    """e ** x - 1, precise near 0; the gradient is e ** x (= y + 1).

    Example:
        >>> round(float(opsdk.expm1(opsdk.to_tensor(1e-10, dtype="float64"))) * 1e10, 6)
        1.0
    """
    x = float_arg(x, "expm1")
    with np.errstate(over="ignore"):
        out = np.expm1(x._data)
    return record("expm1", out, (x,), _EXPM1, (OUTPUT,))


def _log1p_grad(g, x):
    return g / (1 + x)


def _log2_grad(g, x):
    return g / (x * _LN2)


def _log10_grad(g, x):
    return g / (x * _LN10)


# the derivative e**x is y + 1
_EXPM1 = (lambda g, y: g * y + g,)


__all__ = ["log1p", "log2", "log10", "expm1", "trunc", "frac", "stanh"]


# Paddle's frac kernel takes these (int8, int16, uint8 and bool raise TypeError there)
_FRAC_DTYPES = ("int32", "int64", "float16", "float32", "float64")


def frac(x, name=None):
    """x - trunc(x), the fractional part with x's sign; the gradient is 1 (integers: 0).

    Example:
        >>> opsdk.frac(opsdk.to_tensor([1.5, -2.25])).numpy().tolist()
        [0.5, -0.25]
    """
    x = tensor_arg(x, "frac")
    if x._data.dtype.name not in _FRAC_DTYPES:
        raise DTypeError(f"frac: argument 'x' has an unsupported dtype; expected: one of "
                         f"{', '.join(_FRAC_DTYPES)}; got: {x._data.dtype}")
    if x._data.dtype.kind == "i":
        return _wrap(as_array(np.zeros_like(x._data)))
    return x - trunc(x)


def stanh(x, scale_a=0.67, scale_b=1.7159, name=None):
    """scale_b * tanh(scale_a * x), Paddle's scaled tanh.

    Example:
        >>> round(float(opsdk.stanh(opsdk.to_tensor(1.0), 1.0, 2.0)), 4)
        1.5232
    """
    return tanh(float_arg(x, "stanh") * scale_a) * scale_b
