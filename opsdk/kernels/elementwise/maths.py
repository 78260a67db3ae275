"""``m``, the maths an elementwise op's formulas are written with: one namespace per kind of value.

The same formula, ``def value(m, x): return x * m.tanh(m.softplus(x))``, runs on NumPy arrays
(the python kernel), CuPy arrays (the python kernel on a GPU) and opsdk Tensors (where a
gradient must stay differentiable: third and higher orders). ``maths_of(value)`` picks the
namespace; each offers the same functions, written so they never overflow where the result is
finite (``sigmoid``, ``softplus``) and keep their precision near 0 (``log1p``, ``expm1``).

Functions: exp expm1 log log1p sqrt cbrt sin cos tan asin acos atan sinh cosh tanh asinh acosh
atanh erf erfc sigmoid softplus abs, tanh_softplus (tanh(softplus(u)), mish's core) and
sech2_softplus (1 - tanh_softplus(u)**2), and maximum minimum where (not differentiable at ties).
"""

import math

import numpy

from opsdk.kernels.tensors import array_of, tensor_of

FUNCTIONS = ("exp", "expm1", "log", "log1p", "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos",
             "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "erfcx", "sigmoid",
             "softplus", "abs", "tanh_softplus", "sech2_softplus")
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class ArrayMaths:
    """The functions on NumPy or CuPy arrays (``xp`` is the array module)."""

    def __init__(self, xp):
        self.xp = xp
        names = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
                 "acosh": "arccosh", "atanh": "arctanh", "abs": "abs"}
        for name in ("exp", "expm1", "log", "log1p", "sqrt", "cbrt", "sin", "cos", "tan", "sinh", "cosh",
                     "tanh", *names):
            setattr(self, name, getattr(xp, names.get(name, name)))
        self.maximum, self.minimum, self.where = xp.maximum, xp.minimum, xp.where

    def sigmoid(self, u):
        """1 / (1 + exp(-u)), from exp(-|u|) <= 1: no overflow, both tails precise."""
        xp = self.xp
        e = xp.exp(-xp.abs(u))
        inv = 1 / (1 + e)
        return xp.where(u >= 0, inv, e * inv)

    def softplus(self, u):
        """log(1 + exp(u)) = max(u, 0) + log1p(exp(-|u|)): no overflow."""
        xp = self.xp
        return xp.maximum(u, 0) + xp.log1p(xp.exp(-xp.abs(u)))

    def _tanh_softplus_parts(self, u):
        """(n, gap) with tanh(softplus(u)) = n / (n + gap) exactly, from e = exp(-|u|)."""
        xp = self.xp
        e = xp.exp(-xp.abs(u))
        pos = u >= 0
        return xp.where(pos, 1 + 2 * e, e * (e + 2)), xp.where(pos, 2 * e * e, 2)

    def tanh_softplus(self, u):
        """tanh(log(1 + exp(u))): no overflow, no cancellation."""
        u = _array_or_float64(u)
        n, gap = self._tanh_softplus_parts(u)
        return (n / (n + gap)).astype(u.dtype, copy=False)

    def sech2_softplus(self, u):
        """1 - tanh_softplus(u)**2, precise where tanh_softplus(u) is near 1."""
        u = _array_or_float64(u)
        n, gap = self._tanh_softplus_parts(u)
        inv = 1 / (n + gap)
        return (gap * inv * (1 + n * inv)).astype(u.dtype, copy=False)

    def erf(self, u):
        """The error function, in u's dtype."""
        return _erf(u)

    def erfc(self, u):
        """1 - erf(u), precise in the upper tail (no cancellation)."""
        from ..cody_erf import erfc

        u = _array_or_float64(u)
        return erfc(u).astype(u.dtype, copy=False)

    def erfcx(self, u):
        """exp(u^2) erfc(u), the scaled complementary error function (no underflow for large u)."""
        from ..cody_erf import erfcx

        u = _array_or_float64(u)
        return erfcx(u).astype(u.dtype, copy=False)


def _erf(u):
    # NumPy has no erf and SciPy is not a dependency: Cody's approximation runs on NumPy and CuPy
    from ..cody_erf import erf

    u = _array_or_float64(u)
    return erf(u).astype(u.dtype, copy=False)


def _array_or_float64(u):
    """``u``, with a plain number (``erf(alpha)`` of an attribute) as a 0-d NumPy float64 array."""
    return numpy.asarray(u, dtype=numpy.float64) if type(u) in (int, float) else u


def _derivatives():
    """d/du of the functions opsdk has no core op for, written with the namespace ``m``."""
    return {
        "expm1": lambda m, u: m.exp(u),
        "log1p": lambda m, u: 1 / (1 + u),
        "cbrt": lambda m, u: 1 / (3 * m.cbrt(u) ** 2),
        "tan": lambda m, u: 1 + m.tan(u) ** 2,
        "asin": lambda m, u: 1 / m.sqrt(1 - u * u),
        "acos": lambda m, u: -1 / m.sqrt(1 - u * u),
        "atan": lambda m, u: 1 / (1 + u * u),
        "sinh": lambda m, u: m.cosh(u),
        "cosh": lambda m, u: m.sinh(u),
        "asinh": lambda m, u: 1 / m.sqrt(u * u + 1),
        "acosh": lambda m, u: 1 / m.sqrt(u * u - 1),
        "atanh": lambda m, u: 1 / (1 - u * u),
        "erf": lambda m, u: _TWO_OVER_SQRT_PI * m.exp(-(u * u)),
        "erfc": lambda m, u: -_TWO_OVER_SQRT_PI * m.exp(-(u * u)),
        "erfcx": lambda m, u: 2 * u * m.erfcx(u) - _TWO_OVER_SQRT_PI,
        "softplus": lambda m, u: m.sigmoid(u),
        "tanh_softplus": lambda m, u: m.sech2_softplus(u) * m.sigmoid(u),
        "sech2_softplus": lambda m, u: -2 * m.tanh_softplus(u) * m.sech2_softplus(u) * m.sigmoid(u),
    }


class TensorMaths:
    """The functions on opsdk Tensors, differentiable to any order.

    Core ops serve where opsdk has them (exp, log, sqrt, sin, cos, tanh, sigmoid, abs); the rest
    are small Functions whose backward is written with this namespace again.
    """

    def __init__(self):
        from ...functional import arithmetic, logic, unary

        for name in ("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "abs"):
            setattr(self, name, getattr(unary, name))
        self.maximum, self.minimum, self.where = arithmetic.maximum, arithmetic.minimum, logic.where
        self._rules = _derivatives()
        for name in self._rules:
            setattr(self, name, _primitive(name, self))
        for name in FUNCTIONS:
            setattr(self, name, _numbers_in_float64(name, getattr(self, name)))


def _numbers_in_float64(name, function):
    """``function`` on Tensors, and on a plain number (a function of attributes only) the
    NumPy one in float64, as a float: opsdk.exp(0.5) would make a float32 Tensor of it."""
    def call(u):
        if type(u) in (int, float):
            return float(getattr(_NUMPY, name)(float(u)))
        return function(u)

    call.__name__ = call.__qualname__ = name
    return call


def _primitive(name, maths):
    """``name`` on Tensors: the array function forward, ``g * d name / du`` backward."""
    from opsdk.autograd import PyLayer

    rule = maths._rules[name]

    class Primitive(PyLayer):
        _opsdk_qualname = f"opsdk.kernels.elementwise.maths.{name}"

        @staticmethod
        def forward(ctx, u):
            ctx.save_for_backward(u)
            array = array_of(u)
            return tensor_of(getattr(maths_of(array), name)(array))

        @staticmethod
        def backward(ctx, g):
            (u,) = ctx.saved_tensor()
            return g * rule(maths, u)

    Primitive.__name__ = Primitive.__qualname__ = name
    return Primitive.apply


_NUMPY = ArrayMaths(numpy)
_others = {}  # "cupy" / "tensor" -> namespace, made on first use


def maths_of(value):
    """The namespace for ``value``: NumPy arrays, CuPy arrays or opsdk Tensors.

    Example:
        >>> maths_of(numpy.ones(2)).softplus(numpy.array([0.0, 800.0]))
        array([  0.69314718, 800.        ])
    """
    if type(value) is numpy.ndarray or isinstance(value, (numpy.generic, float, int)):
        return _NUMPY
    kind = "cupy" if type(value).__module__.startswith("cupy") else "tensor"
    found = _others.get(kind)
    if found is None:
        if kind == "cupy":
            import cupy

            found = ArrayMaths(cupy)
        else:
            found = TensorMaths()
        _others[kind] = found
    return found
