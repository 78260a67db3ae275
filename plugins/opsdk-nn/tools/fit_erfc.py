"""Fit the polynomial Q behind erfc(z) = t * Q(t) * exp(-z*z) = t * Q(t) / exp(z*z), t = 2 / (2 + z).

Q = erfcx(z) / t is smooth on t in (0, 1] (it tends to 1 / (2 sqrt(pi)) as z grows), so a
least-squares fit at Chebyshev nodes converges fast, over every z >= 0 (t down to 1e-6) or up
to a zmax past which exp(-z*z) has underflowed. The float32 fit over every z is
opsdk/maths.h's opsdk_erfcx_pos_f32, which its erfc and erfcx use (the pack's gelu calls erfcx
through Elementwise.c_bodies). Run it to regenerate the coefficients:

    python tools/fit_erfc.py
"""
import math
from fractions import Fraction

import numpy
from numpy.polynomial import chebyshev

# (name, highest z fitted (None: every z, t down to 1e-6), polynomial degree). opsdk/maths.h's
# opsdk_erfcx_pos_f32 is the float32 fit over every z: erfcx(z) = t Q(t) needs no exp.
FITS = (("float32", None, 10), ("float64", 27.5, 20))


def q_exact(t):
    """Q(t) = erfc(z) exp(z^2) / t to about 1e-16, z = 2/t - 2 (exp of z^2 split into hi + lo)."""
    z = 2.0 / t - 2.0
    if z < 25.0:
        square = Fraction(z) ** 2
        hi = float(square)
        lo = float(square - Fraction(hi))
        return math.erfc(z) * math.exp(hi) * (1.0 + lo) / t
    # asymptotic series: erfc(z) exp(z^2) z sqrt(pi) = sum (-1)^k (2k-1)!! / (2 z^2)^k
    term, total = 1.0, 1.0
    for k in range(1, 30):
        term *= -(2 * k - 1) / (2.0 * z * z)
        total += term
    return total / (z * math.sqrt(math.pi) * t)


def fit(zmax, degree, nodes=400):
    """Monomial coefficients (lowest first) of Q on [2/(2+zmax), 1] (zmax None: [1e-6, 1]), and the
    worst relative error."""
    t0 = 1e-6 if zmax is None else 2.0 / (2.0 + zmax)
    x = numpy.cos(numpy.pi * (numpy.arange(nodes) + 0.5) / nodes)
    t = t0 + (1.0 - t0) * (x + 1.0) / 2.0
    series = chebyshev.Chebyshev.fit(t, [q_exact(v) for v in t], degree, domain=[t0, 1.0])
    coef = series.convert(kind=numpy.polynomial.Polynomial, domain=[0.0, 1.0], window=[0.0, 1.0]).coef
    check = numpy.linspace(t0, 1.0, 4001)
    truth = numpy.array([q_exact(v) for v in check])
    worst = numpy.max(numpy.abs(numpy.polynomial.polynomial.polyval(check, coef) / truth - 1.0))
    return coef, worst


def main():
    for name, zmax, degree in FITS:
        coef, worst = fit(zmax, degree)
        print(f"# {name}: degree {degree} on z in [0, {zmax or 'inf'}], worst relative error {worst:.2e}")
        print(f"ERFC_Q_{name.upper()} = (")
        for c in coef:
            print(f"    {float(c)!r},")
        print(")")


if __name__ == "__main__":
    main()
