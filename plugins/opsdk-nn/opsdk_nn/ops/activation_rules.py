"""f'' of each activation written with opsdk ops: the differentiable rule used when a second
derivative is itself being recorded (create_graph=True at second order), so any order works.

Each takes the input Tensor x and the activation's parameters (p0, p1) and mirrors
csrc/act_math.h. First-order and plain second-order backward never come here: they run kernels.
"""
import opsdk as P

from ..maths import GELU_TANH_A, GELU_TANH_C, INV_SQRT_2PI


def gelu_second(x, p0, p1):
    return P.exp(-0.5 * x * x) * INV_SQRT_2PI * (2.0 - x * x)


def gelu_tanh_second(x, p0, p1):
    x2 = x * x
    s = P.sigmoid((2 * GELU_TANH_C) * x * (1.0 + GELU_TANH_A * x2))
    s1 = s * (1.0 - s)
    du = (2 * GELU_TANH_C) * (1.0 + (3 * GELU_TANH_A) * x2)
    ds = du * s1
    dds = (12 * GELU_TANH_C * GELU_TANH_A) * x * s1 + du * ds * (1.0 - 2.0 * s)
    return 2.0 * ds + x * dds


def silu_second(x, p0, p1):
    s = P.sigmoid(x)
    return s * (1.0 - s) * (2.0 + x * (1.0 - 2.0 * s))


def softplus_second(x, beta, threshold):
    u = beta * x
    s = P.sigmoid(u)
    return P.where(u > threshold, P.zeros_like(x), beta * s * (1.0 - s))


def mish_second(x, p0, p1):
    # past 20, tanh(softplus(x)) is 1 to double precision; the clip keeps exp finite
    t = P.tanh(P.log(1.0 + P.exp(P.clip(x, max=20.0))))
    s = P.sigmoid(x)
    sech2 = 1.0 - t * t
    dt = sech2 * s
    return 2.0 * dt + x * (-2.0 * t * dt * s + sech2 * s * (1.0 - s))
