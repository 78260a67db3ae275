"""Array maths the python kernels share, written once for NumPy and CuPy arrays."""
import numpy

from opsdk.kernels import array_module  # noqa: F401 - the python kernels' array module, from the SDK

SQRT1_2 = 0.70710678118654752440
INV_SQRT_2PI = 0.39894228040143267794
GELU_TANH_C = 0.79788456080286535588  # sqrt(2 / pi)
GELU_TANH_A = 0.044715

# erfc(z) = t Q(t) exp(-z^2), t = 2 / (2 + z), z >= 0; Q fitted by tools/fit_erfc.py (lowest
# power first). The float32 fit covers every z (relative error 1.2e-8): opsdk/maths.h's erfcx
# uses the same polynomial. The python kernels evaluate it on whole arrays: an 11-term
# polynomial and one exp, where Cody's erfc (the SDK's m.erfc) costs three rational functions
# and two exps per element.
ERFC_Q_FLOAT32 = (
    0.2820947950652939, 0.28209377672626995, 0.2468838811966801, 0.17532406188137248,
    0.0934148220072928, -0.059051150580654646, 0.1318505336794598, -0.4545643573852622,
    0.4933862494783569, -0.23460571624040893, 0.0431731089015644,
)
ERFC_Q_FLOAT64 = (
    0.2820947916292562, 0.28209480331868847, 0.2468325282575353, 0.17631814656795833,
    0.08361866361629569, -0.0030903285056159972, -0.06676519410532901, 0.004205364129310059,
    -0.2583442654756012, 0.9162264987930562, -2.211638284863111, 4.4689518321360335,
    -6.527239095427195, 6.1243189303614445, -2.9001687549349757, -0.6677695715292907,
    2.1756845750698552, -1.6918719818043455, 0.7185211877274248, -0.1695181703950855,
    0.017538325433694178,
)


def compute_dtype(array):
    """The dtype the python kernels compute in: the array's own, float32 for float16."""
    return numpy.float32 if array.dtype == numpy.float16 else array.dtype


def polyval(xp, coefficients, t):
    """Horner's rule, lowest power first."""
    result = xp.full_like(t, coefficients[-1])
    for c in coefficients[-2::-1]:
        result *= t
        result += c
    return result


def erfc_q(xp, t):
    """Q(t) of the erfc fit, in t's precision."""
    table = ERFC_Q_FLOAT32 if t.dtype == numpy.float32 else ERFC_Q_FLOAT64
    return polyval(xp, table, t)
