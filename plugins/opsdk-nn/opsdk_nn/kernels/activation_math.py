"""f, f' and f'' of each activation as composed array code: the python kernels (NumPy, CuPy).

Each formula mirrors csrc/act_math.h: every exp takes a non-positive argument, so no branch
overflows, and each function computes only what its kernel returns (the python kernel is the
composed baseline the C kernels are measured against).
"""
from ..maths import GELU_TANH_A, GELU_TANH_C, INV_SQRT_2PI, SQRT1_2, erfc_q, logistic


def _gelu_cdf_pdf(xp, x, want_cdf=True):
    e = xp.exp(-0.5 * x * x)
    pdf = e * INV_SQRT_2PI
    if not want_cdf:
        return None, pdf
    t = 2 / (2 + xp.abs(x) * SQRT1_2)
    half = 0.5 * t * erfc_q(xp, t) * e
    return xp.where(x < 0, half, 1 - half), pdf


def gelu_value(xp, x, p0, p1):
    cdf, _ = _gelu_cdf_pdf(xp, x)
    return x * cdf


def gelu_first(xp, x, p0, p1):
    cdf, pdf = _gelu_cdf_pdf(xp, x)
    return cdf + x * pdf


def gelu_second(xp, x, p0, p1):
    _, pdf = _gelu_cdf_pdf(xp, x, want_cdf=False)
    return pdf * (2 - x * x)


def _gelu_tanh_parts(xp, x):
    x2 = x * x
    u = (2 * GELU_TANH_C) * x * (1 + GELU_TANH_A * x2)
    s, s1, _ = logistic(xp, u)
    du = (2 * GELU_TANH_C) * (1 + (3 * GELU_TANH_A) * x2)
    return s, s1, du


def gelu_tanh_value(xp, x, p0, p1):
    u = (2 * GELU_TANH_C) * x * (1 + GELU_TANH_A * x * x)
    s, _, _ = logistic(xp, u)
    return x * s


def gelu_tanh_first(xp, x, p0, p1):
    s, s1, du = _gelu_tanh_parts(xp, x)
    return s + x * du * s1


def gelu_tanh_second(xp, x, p0, p1):
    s, s1, du = _gelu_tanh_parts(xp, x)
    ds = du * s1
    dds = (12 * GELU_TANH_C * GELU_TANH_A) * x * s1 + du * ds * (1 - 2 * s)
    return 2 * ds + x * dds


def silu_value(xp, x, p0, p1):
    s, _, _ = logistic(xp, x)
    return x * s


def silu_first(xp, x, p0, p1):
    s, s1, _ = logistic(xp, x)
    return s + x * s1


def silu_second(xp, x, p0, p1):
    s, s1, _ = logistic(xp, x)
    return s1 * (2 + x * (1 - 2 * s))


def softplus_value(xp, x, beta, threshold):
    u = beta * x
    soft = (xp.maximum(u, 0) + xp.log1p(xp.exp(-xp.abs(u)))) / beta
    return xp.where(u > threshold, x, soft)


def softplus_first(xp, x, beta, threshold):
    u = beta * x
    s, _, _ = logistic(xp, u)
    return xp.where(u > threshold, 1, s).astype(x.dtype, copy=False)


def softplus_second(xp, x, beta, threshold):
    u = beta * x
    _, s1, _ = logistic(xp, u)
    return xp.where(u > threshold, 0, beta * s1).astype(x.dtype, copy=False)


def _mish_parts(xp, x):
    """(T, 1 - T^2, sigmoid, sigmoid') with T = tanh(softplus(x)), as in act_math.h."""
    s, s1, e = logistic(xp, x)
    pos = x >= 0
    num = xp.where(pos, 1 + 2 * e, e * (e + 2))
    gap = xp.where(pos, 2 * e * e, 2)
    inv = 1 / (num + gap)
    tn = num * inv
    return tn, gap * inv * (1 + tn), s, s1


def mish_value(xp, x, p0, p1):
    e = xp.exp(-xp.abs(x))
    pos = x >= 0
    num = xp.where(pos, 1 + 2 * e, e * (e + 2))
    return x * num / (num + xp.where(pos, 2 * e * e, 2))


def mish_first(xp, x, p0, p1):
    tn, sech2, s, _ = _mish_parts(xp, x)
    return tn + x * sech2 * s


def mish_second(xp, x, p0, p1):
    tn, sech2, s, s1 = _mish_parts(xp, x)
    dt = sech2 * s
    return 2 * dt + x * (-2 * tn * dt * s + sech2 * s1)
