"""erf for NumPy arrays in float64, without SciPy.

W. J. Cody's rational Chebyshev approximations ("Rational Chebyshev approximations for the
error function", Math. Comp. 23 (1969) 631-638): erf on |x| <= 0.46875, erfc on
0.46875 < |x| <= 4 and on |x| > 4; relative error below 1e-16 in double precision.
The coefficients are the published ones; the evaluation below is vectorized over masks.
"""
import numpy as np

_A = (3.16112374387056560e00, 1.13864154151050156e02, 3.77485237685302021e02,
      3.20937758913846947e03, 1.85777706184603153e-1)
_B = (2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03,
      2.84423683343917062e03)
_C = (5.64188496988670089e-1, 8.88314979438837594e00, 6.61191906371416295e01,
      2.98635138197400131e02, 8.81952221241769090e02, 1.71204761263407058e03,
      2.05107837782607147e03, 1.23033935479799725e03, 2.15311535474403846e-8)
_D = (1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02,
      1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03,
      3.43936767414372164e03, 1.23033935480374942e03)
_P = (3.05326634961232344e-1, 3.60344899949804439e-1, 1.25781726111229246e-1,
      1.60837851487422766e-2, 6.58749161529837803e-4, 1.63153871373020978e-2)
_Q = (2.56852019228982242e00, 1.87295284992346047e00, 5.27905102951428412e-1,
      6.05183413124413191e-2, 2.33520497626869185e-3)
_SQRPI = 5.6418958354775628695e-1   # 1 / sqrt(pi)
_THRESH = 0.46875
_XBIG = 26.543                      # erfc underflows to 0 beyond this


def _small(y):
    """erf(y) for |y| <= 0.46875: y * P4(y^2) / Q4(y^2)."""
    ysq = y * y
    num = _A[4] * ysq
    den = ysq
    for i in range(3):
        num = (num + _A[i]) * ysq
        den = (den + _B[i]) * ysq
    return y * (num + _A[3]) / (den + _B[3])


def _exp_neg_sq(y):
    """exp(-y*y), split as Cody does so the rounding of y*y does not cost accuracy."""
    ysq = np.trunc(y * 16.0) / 16.0
    return np.exp(-ysq * ysq) * np.exp(-(y - ysq) * (y + ysq))


def _medium(y):
    """erfc(y) for 0.46875 < y <= 4."""
    num = _C[8] * y
    den = y
    for i in range(7):
        num = (num + _C[i]) * y
        den = (den + _D[i]) * y
    return _exp_neg_sq(y) * (num + _C[7]) / (den + _D[7])


def _large(y):
    """erfc(y) for y > 4 (0 beyond the underflow point)."""
    ysq = 1.0 / (y * y)
    num = _P[5] * ysq
    den = ysq
    for i in range(4):
        num = (num + _P[i]) * ysq
        den = (den + _Q[i]) * ysq
    r = ysq * (num + _P[4]) / (den + _Q[4])
    out = _exp_neg_sq(y) * (_SQRPI - r) / y
    return np.where(y >= _XBIG, 0.0, out)


def erf(x):
    """The error function of an array, in float64 (NaN stays NaN, +-inf gives +-1).

    Args:
        x: array-like of real numbers.

    Returns:
        float64 ndarray of erf(x).

    Example:
        >>> erf(np.array([0.0, 1.0]))
        array([0.        , 0.84270079])
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.abs(x)
    out = np.empty_like(x)
    small = y <= _THRESH
    if small.any():
        out[small] = _small(x[small])
    medium = (y > _THRESH) & (y <= 4.0)
    if medium.any():
        out[medium] = 1.0 - _medium(y[medium])
    large = y > 4.0
    if large.any():
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            out[large] = 1.0 - _large(y[large])
    big = ~(small | medium | large)   # NaN
    if big.any():
        out[big] = np.nan
    neg = (x < 0) & ~small
    np.negative(out, where=neg, out=out)
    return out
