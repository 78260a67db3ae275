"""Special functions of float arrays that NumPy lacks (SciPy is not a dependency).

lgamma, digamma, polygamma, erfinv, the modified Bessel function I1 and the regularized upper
incomplete gamma function.

Methods (textbook maths, written for whole arrays, float64 inside, the input's dtype out):

- lgamma: the C library's ``lgamma`` per element (``math.lgamma``); the poles give +inf.
- digamma: the reflection psi(x) = psi(1 - x) - pi / tan(pi x) for x < 0.5, the recurrence
  psi(x) = psi(x + 1) - 1 / x up to x >= 10, then the asymptotic series in 1 / x^2 with
  Bernoulli numbers. -inf at +0, +inf at -0, nan at -1, -2, ...
- polygamma(n, x), n >= 1: (-1)^(n+1) n! zeta(n + 1, x), the Hurwitz zeta function from the
  Euler-Maclaurin formula after the recurrence moved x past 10.
- erfinv: a first guess refined by Newton steps on the C library's erf (erfc near +-1).
- I1: its power series for |x| <= 20, the asymptotic expansion beyond.
- gammaincc(a, x) = Q(a, x): the series of P for x < a + 1, else a continued fraction
  (modified Lentz), each run on the whole array until every element converged (at most
  500 steps).
"""
import math

import numpy as np


# the Bernoulli numbers B_2, B_4, ..., B_16 (the digamma and Euler-Maclaurin series)
_B2K = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)
_SHIFT = 10.0  # the recurrences move x past this before a series is summed
_SHIFT_LIMIT = 1e5
_MAX_STEPS = 500  # the incomplete gamma's series and continued fraction stop by then
_EPS = 1e-16  # polygamma of x below -this: nan (the recurrence would take too long)


def _f64(x):
    # 1-d inside (0-d arrays turn into NumPy scalars along the way); _back restores the shape
    return np.asarray(x, dtype=np.float64).reshape(-1)


def _back(out, like):
    like = np.asarray(like)
    dtype = like.dtype if like.dtype.kind == "f" else np.float64
    return np.asarray(out, dtype=dtype).reshape(like.shape)


def _lgamma1(v):
    try:
        return math.lgamma(v)
    except ValueError:  # a pole: 0, -1, -2, ...
        return math.inf
    except OverflowError:
        return math.inf


_LGAMMA = np.frompyfunc(_lgamma1, 1, 1)
# the C library's erf and erfc per element (erfc keeps its accuracy where erf is near 1)
_ERF, _ERFC = np.frompyfunc(math.erf, 1, 1), np.frompyfunc(math.erfc, 1, 1)


def erf(x):
    return _ERF(x).astype(np.float64)


def erfc(x):
    return _ERFC(x).astype(np.float64)


def lgamma(x):
    """log |Gamma(x)|."""
    x64 = _f64(x)
    return _back(_LGAMMA(x64).astype(np.float64), x)


def digamma(x):
    """psi(x) = d lgamma(x) / dx."""
    x64 = _f64(x)
    with np.errstate(all="ignore"):
        pole = (x64 <= 0) & (x64 == np.floor(x64))
        reflect = x64 < 0.5
        z = np.where(reflect, 1.0 - x64, x64)
        acc = np.zeros_like(z)
        # recurrence: z < 10 moves up one step at a time (at most 10 steps for z >= 0.5)
        for _ in range(int(_SHIFT) + 1):
            low = z < _SHIFT
            if not low.any():
                break
            acc = acc - np.where(low, 1.0 / z, 0.0)
            z = np.where(low, z + 1.0, z)
        inv2 = 1.0 / (z * z)
        # sum_k B_2k / (2k z^2k)
        series = sum(b / (2 * (k + 1)) * inv2 ** (k + 1) for k, b in enumerate(_B2K))
        psi = np.log(z) - 0.5 / z - series + acc
        psi = np.where(reflect, psi - np.pi / np.tan(np.pi * x64), psi)
        psi = np.where(pole, np.nan, psi)
        # at +-0 the pole has a side: -inf at +0, +inf at -0 (C's and Paddle's answer)
        psi = np.where(x64 == 0, np.copysign(np.inf, -np.copysign(1.0, x64)), psi)
        psi = np.where(x64 == np.inf, np.inf, psi)
    return _back(psi, x)


def _hurwitz_zeta(s, x):
    """zeta(s, x) = sum_k (x + k)^-s for an integer s >= 2, x an array (x > -limit)."""
    with np.errstate(all="ignore"):
        acc = np.zeros_like(x)
        z = x.copy()
        steps = int(min(max(_SHIFT - np.nanmin(x), 0.0), _SHIFT_LIMIT + _SHIFT)) + 1 \
            if x.size else 0
        for _ in range(steps):
            low = z < _SHIFT
            if not low.any():
                break
            acc = acc + np.where(low, z ** -s, 0.0)
            z = np.where(low, z + 1.0, z)
        tail = z ** (1 - s) / (s - 1) + 0.5 * z ** -s
        # Euler-Maclaurin: sum_j B_2j / (2j)! * s (s+1) ... (s+2j-2) * z^(-s-2j+1)
        rising = float(s)
        fact = 2.0
        for j, b in enumerate(_B2K, start=1):
            tail = tail + b / fact * rising * z ** (-s - 2 * j + 1)
            rising *= (s + 2 * j - 1) * (s + 2 * j)
            fact *= (2 * j + 1) * (2 * j + 2)
        return acc + tail


def polygamma(n, x):
    """The n-th derivative of digamma (n >= 0)."""
    if n == 0:
        return digamma(x)
    x64 = _f64(x)
    with np.errstate(all="ignore"):
        pole = (x64 <= 0) & (x64 == np.floor(x64))
        far = x64 < -_SHIFT_LIMIT
        safe = np.where(pole | far | np.isnan(x64), 1.0, x64)
        out = (-1.0) ** (n + 1) * math.factorial(n) * _hurwitz_zeta(n + 1, safe)
        out = np.where(far | np.isnan(x64), np.nan, out)
        # at a pole the term (x + k)^-(n+1) is +inf: the sign is (-1)^(n+1), as in Paddle
        out = np.where(pole, (-1.0) ** (n + 1) * np.inf, out)
        out = np.where(x64 == np.inf, 0.0, out)
    return _back(out, x)


def erfinv(y):
    """The inverse of erf on [-1, 1] (+-inf at +-1, nan outside)."""
    y64 = _f64(y)
    with np.errstate(all="ignore"):
        inside = np.abs(y64) < 1
        t = np.where(inside, y64, 0.0)
        # a first guess good to about 2e-3 (Winitzki's approximation), then Newton on erf
        a = 0.147
        ln = np.log1p(-t * t)
        first = 2 / (np.pi * a) + ln / 2
        x = np.sign(t) * np.sqrt(np.sqrt(first * first - ln / a) - first)
        near_one = np.abs(t) > 0.5
        rest = 1 - np.abs(t)  # exact for |t| > 0.5
        for _ in range(4):
            # Newton on erf(x) = t, or on erfc(|x|) = 1 - |t| where erf is close to +-1
            slope = 2 / np.sqrt(np.pi) * np.exp(-x * x)
            err = np.where(near_one, np.sign(t) * (rest - erfc(np.abs(x))), erf(x) - t)
            x = x - err / slope
        out = np.where(inside, x, np.nan)
        out = np.where(y64 == 1, np.inf, np.where(y64 == -1, -np.inf, out))
    return _back(out, y)


def i1(x):
    """The modified Bessel function of the first kind of order 1."""
    x64 = _f64(x)
    ax = np.abs(x64)
    with np.errstate(all="ignore"):
        small = np.where(ax <= 20, x64, 0.0)
        # sum_k (x/2)^(2k+1) / (k! (k+1)!): 60 terms reach float64 precision for |x| <= 20
        term = small / 2
        series = term.copy()
        q = small * small / 4
        for k in range(1, 60):
            term = term * q / (k * (k + 1))
            series = series + term
        big = np.where(ax > 20, ax, 21.0)
        # e^x / sqrt(2 pi x) * sum_k (-1)^k a_k / x^k, a_k = prod (4 - (2j-1)^2) / (k! 8^k)
        asym = np.ones_like(big)
        coef = 1.0
        for k in range(1, 16):
            coef *= -(4.0 - (2 * k - 1) ** 2) / (k * 8.0)
            asym = asym + coef / big ** k
        large = np.exp(big) / np.sqrt(2 * np.pi * big) * asym * np.sign(x64)
        out = np.where(ax <= 20, series, large)
        out = np.where(np.isnan(x64), np.nan, out)
    return _back(out, x)


def gammaincc(a, x):
    """Q(a, x) = Gamma(a, x) / Gamma(a), the regularized upper incomplete gamma (a, x >= 0)."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(x))
    a64, x64 = (np.broadcast_to(np.asarray(v, dtype=np.float64), shape).reshape(-1)
                for v in (a, x))
    with np.errstate(all="ignore"):
        use_series = x64 < a64 + 1
        # log of x^a e^-x / Gamma(a), shared by both branches
        front = np.exp(a64 * np.log(x64) - x64 - _LGAMMA(a64).astype(np.float64))
        # P(a, x) = front * sum_n x^n / (a (a+1) ... (a+n))
        ap = a64.copy()
        term = np.where(a64 > 0, 1.0 / a64, np.inf)
        total = term.copy()
        for _ in range(_MAX_STEPS):
            ap = ap + 1
            term = term * x64 / ap
            total = total + term
            if not np.any(np.abs(term) > _EPS * np.abs(total)):
                break
        p = front * total
        # Q(a, x) = front * 1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - ...)): Lentz's method
        tiny = 1e-300
        b = x64 + 1 - a64
        c = np.full_like(b, 1 / tiny)
        d = 1 / np.where(b == 0, tiny, b)
        h = d.copy()
        for i in range(1, _MAX_STEPS):
            an = -i * (i - a64)
            b = b + 2
            d = an * d + b
            d = np.where(np.abs(d) < tiny, tiny, d)
            c = b + an / c
            c = np.where(np.abs(c) < tiny, tiny, c)
            d = 1 / d
            h = h * d * c
            if not np.any(np.abs(d * c - 1) > _EPS):
                break
        q = np.where(use_series, 1 - p, front * h)
        q = np.where(x64 == 0, 1.0, q)
        q = np.where((a64 == 0) & (x64 > 0), 0.0, q)
        q = np.where(x64 == np.inf, 0.0, q)
    dtype = np.result_type(np.asarray(a), np.asarray(x))
    return q.astype(dtype if dtype.kind == "f" else np.float64).reshape(shape)
