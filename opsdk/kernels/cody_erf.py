"""erf of a NumPy or CuPy array in float64, from W. J. Cody's rational Chebyshev approximations.

Method: W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp. 23
(1969) 631-637, with the coefficients of his SPECFUN routine CALERF. |x| is split in three
ranges, each with its own rational function: erf itself on [0, 0.46875] (so small arguments keep
full relative accuracy), erfc on (0.46875, 4] and, in 1/x^2, on (4, inf); erf = 1 - erfc there.
Relative error is about 1e-16 in double precision. NumPy has no erf and SciPy is not a
dependency, hence this module.

The three ranges are evaluated on whole arrays (arguments clipped into each range) and merged
with ``where``: branch-free code that runs unchanged on NumPy and CuPy.
"""
import numpy

from ..device import array_module

# Coefficients highest degree first, for Horner's rule (Cody's tables A-B, C-D and P-Q).
# erf(x) = x * R1(x^2) on |x| <= 0.46875
_R1_NUM = (1.85777706184603153e-1, 3.16112374387056560e00, 1.13864154151050156e02,
           3.77485237685302021e02, 3.20937758913846947e03)
_R1_DEN = (1.0, 2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03,
           2.84423683343917062e03)
# erfc(y) = exp(-y^2) * R2(y) on 0.46875 < y <= 4
_R2_NUM = (2.15311535474403846e-8, 5.64188496988670089e-1, 8.88314979438837594e00,
           6.61191906371416295e01, 2.98635138197400131e02, 8.81952221241769090e02,
           1.71204761263407058e03, 2.05107837782607147e03, 1.23033935479799725e03)
_R2_DEN = (1.0, 1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02,
           1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03,
           3.43936767414372164e03, 1.23033935480374942e03)
# erfc(y) = exp(-y^2) / y * (1/sqrt(pi) - z * R3(z)), z = 1 / y^2, on y > 4
_R3_NUM = (1.63153871373020978e-2, 3.05326634961232344e-1, 3.60344899949804439e-1,
           1.25781726111229246e-1, 1.60837851487422766e-2, 6.58749161529837803e-4)
_R3_DEN = (1.0, 2.56852019228982242e00, 1.87295284992346047e00, 5.27905102951428412e-1,
           6.05183413124413191e-2, 2.33520497626869185e-3)

_INV_SQRT_PI = 0.56418958354775628695
_SMALL = 0.46875
_MEDIUM = 4.0
# erfc(y) is below the smallest double beyond ~26.6: clipping there keeps inf out of exp(-y^2)
_HUGE = 27.0


def _horner(coefficients, t):
    """The polynomial with these coefficients (highest degree first) at t."""
    value = coefficients[0]
    for c in coefficients[1:]:
        value = value * t + c
    return value


def _exp_neg_square(xp, y):
    """exp(-y*y) for y >= 0, with y split as Cody does: y*y rounded whole loses ~y^2 ulps."""
    head = xp.trunc(y * 16.0) / 16.0
    return xp.exp(-head * head) * xp.exp(-(y - head) * (y + head))


def erf(x):
    """The error function of a float array, computed in float64.

    Args:
        x: a NumPy or CuPy array of floats (any float dtype; evaluated in float64).

    Returns:
        float64 array of the same shape and device: NaN stays NaN, +-inf gives +-1, -0.0 gives -0.0.

    Example:
        >>> erf(numpy.array([0.0, 0.5, -3.0]))
        array([ 0.        ,  0.52049988, -0.99997791])
    """
    xp = array_module(x)
    x = x.astype(xp.float64, copy=False)
    y = xp.abs(x)

    xs = xp.clip(x, -_SMALL, _SMALL)
    t = xs * xs
    small = xs * _horner(_R1_NUM, t) / _horner(_R1_DEN, t)

    ym = xp.clip(y, _SMALL, _MEDIUM)
    erfc_medium = _exp_neg_square(xp, ym) * _horner(_R2_NUM, ym) / _horner(_R2_DEN, ym)

    yl = xp.clip(y, _MEDIUM, _HUGE)
    z = 1.0 / (yl * yl)
    erfc_large = _exp_neg_square(xp, yl) * (_INV_SQRT_PI - z * _horner(_R3_NUM, z) / _horner(_R3_DEN, z)) / yl

    tail = xp.copysign(1.0 - xp.where(y <= _MEDIUM, erfc_medium, erfc_large), x)
    # NaN fails y <= _SMALL and reaches `tail`, which is NaN too
    return xp.where(y <= _SMALL, small, tail)


def erfc(x):
    """1 - erf(x) of a float array in float64, without the cancellation of ``1 - erf(x)``: the
    tail is Cody's erfc itself (erfc(10) = 2.1e-45 keeps its digits), erfc(-y) = 2 - erfc(y).

    Example:
        >>> erfc(numpy.array([0.0, 5.0, -numpy.inf]))
        array([1.00000000e+00, 1.53745979e-12, 2.00000000e+00])
    """
    xp = array_module(x)
    x = x.astype(xp.float64, copy=False)
    y = xp.abs(x)
    xs = xp.clip(x, -_SMALL, _SMALL)
    t = xs * xs
    small = 1.0 - xs * _horner(_R1_NUM, t) / _horner(_R1_DEN, t)
    ym = xp.clip(y, _SMALL, _MEDIUM)
    medium = _exp_neg_square(xp, ym) * _horner(_R2_NUM, ym) / _horner(_R2_DEN, ym)
    yl = xp.clip(y, _MEDIUM, _HUGE)
    z = 1.0 / (yl * yl)
    large = _exp_neg_square(xp, yl) * (_INV_SQRT_PI - z * _horner(_R3_NUM, z) / _horner(_R3_DEN, z)) / yl
    upper = xp.where(y <= _MEDIUM, medium, xp.where(y >= _HUGE, 0.0, large))  # NaN: large, NaN
    tail = xp.where(x < 0, 2.0 - upper, upper)
    return xp.where(y <= _SMALL, small, tail)


def erfcx(x):
    """exp(x^2) erfc(x) of a float array in float64: Cody's rational functions without their
    exp(-y^2) factor for y = |x| above 0.46875 (so no underflow: erfcx(1e10) = 5.6e-11), the
    product below; 2 exp(x^2) - erfcx(-x) for x < 0 (inf past -26.64).

    Example:
        >>> erfcx(numpy.array([0.0, 30.0]))
        array([1.        , 0.01879201])
    """
    xp = array_module(x)
    x = x.astype(xp.float64, copy=False)
    y = xp.abs(x)
    xs = xp.clip(x, -_SMALL, _SMALL)
    t = xs * xs
    small = xp.exp(t) * (1.0 - xs * _horner(_R1_NUM, t) / _horner(_R1_DEN, t))
    ym = xp.clip(y, _SMALL, _MEDIUM)
    medium = _horner(_R2_NUM, ym) / _horner(_R2_DEN, ym)
    yl = xp.maximum(y, _MEDIUM)
    z = 1.0 / (yl * yl)
    large = (_INV_SQRT_PI - z * _horner(_R3_NUM, z) / _horner(_R3_DEN, z)) / yl
    upper = xp.where(y <= _MEDIUM, medium, large)
    with numpy.errstate(over="ignore"):  # exp(y^2) is inf past 26.64, and so is erfcx(-y)
        twice = 2.0 * xp.exp(y * y)
    tail = xp.where(x < 0, twice - upper, upper)
    return xp.where(y <= _SMALL, small, tail)
