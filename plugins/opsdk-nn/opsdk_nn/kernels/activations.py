"""The elementwise activations as ``Elementwise`` ops: the maths once per language.

In Python, f, f' and f'' of each activation with ``m`` (NumPy, CuPy or opsdk Tensors): the python
kernels, and on Tensors the differentiable f'' third and higher orders need. In C, the same three
as scalar bodies, from which the SDK writes the float32/float64 C loops and the CUDA kernels
(``Elementwise.c_bodies``). Each op has three kernels, ``nn.<act>_value(x)``,
``nn.<act>_grad(x, grad_out)`` and ``nn.<act>_grad2(x, grad_out, gg_x)``; softplus takes
``beta`` and ``threshold``.

Every exp takes a non-positive argument (sigmoid, softplus, tanh_softplus and erfc are built from
exp(-|u|)), so nothing overflows; 1 - sigmoid(u) is written sigmoid(-u), which keeps its digits
where sigmoid(u) is close to 1 (the compiled code computes exp(-|u|) once for both).
"""
from opsdk.kernels.elementwise import Elementwise

from ..maths import GELU_TANH_A, GELU_TANH_C, INV_SQRT_2PI, SQRT1_2, compute_dtype, erfc_q


def _gelu_cdf_pdf(m, x):
    """Phi(x) and phi(x). On arrays from the pack's erfc fit, one exp for both (float16 computed
    in float32); on Tensors (third order and up) with m's differentiable erfc and exp."""
    xp = getattr(m, "xp", None)
    if xp is None:
        return 0.5 * m.erfc(-SQRT1_2 * x), INV_SQRT_2PI * m.exp(-0.5 * x * x)
    xc = x.astype(compute_dtype(x), copy=False)
    e = xp.exp(-0.5 * xc * xc)
    t = 2 / (2 + xp.abs(xc) * SQRT1_2)
    half = 0.5 * t * erfc_q(xp, t) * e
    return xp.where(xc < 0, half, 1 - half), INV_SQRT_2PI * e


def _gelu_value(m, x):
    return x * _gelu_cdf_pdf(m, x)[0]


def _gelu_grad(m, x):
    cdf, pdf = _gelu_cdf_pdf(m, x)
    return (cdf + x * pdf,)


def _gelu_grad2(m, x):
    cdf, pdf = _gelu_cdf_pdf(m, x)
    return (cdf + x * pdf,), ((pdf * (2 - x * x),),)


# C: Phi(x) = erfc(-x / sqrt 2) / 2 as erfcx(|x| / sqrt 2) exp(-x^2 / 2) / 2 (or 1 - that for
# x >= 0), so the one exp(-x^2 / 2) serves the cdf and the pdf; erfcx of an abs() has no exp,
# and exp(-abs(...)) tells the SDK its argument is never positive (a cheaper exp)
_GELU_C = (f"T e = exp(-abs(0.5 * x * x)); T h = 0.5 * erfcx({SQRT1_2!r} * abs(x)) * e; "
           "T cdf = x < 0 ? h : 1 - h; ")
GELU = Elementwise("nn.gelu", _gelu_value, _gelu_grad, _gelu_grad2).c_bodies(
    value=_GELU_C + "return x * cdf;",
    grad=_GELU_C + f"return cdf + x * ({INV_SQRT_2PI!r} * e);",
    grad2=f"return {INV_SQRT_2PI!r} * exp(-abs(0.5 * x * x)) * (2 - x * x);")


def _gelu_tanh_parts(m, x):
    """s = sigmoid(u), 1 - s, du/dx for u = 2 sqrt(2/pi) (x + 0.044715 x^3)."""
    u = (2 * GELU_TANH_C) * x * (1 + GELU_TANH_A * x * x)
    return m.sigmoid(u), m.sigmoid(-u), (2 * GELU_TANH_C) * (1 + (3 * GELU_TANH_A) * x * x)


def _gelu_tanh_grad(m, x):
    s, r, du = _gelu_tanh_parts(m, x)
    return (s + x * du * s * r,)


def _gelu_tanh_grad2(m, x):
    s, r, du = _gelu_tanh_parts(m, x)
    ds = du * s * r
    return _gelu_tanh_grad(m, x), ((2 * ds + x * ((12 * GELU_TANH_C * GELU_TANH_A) * x * s * r + du * ds * (r - s)),),)


_GELU_TANH_C = (f"T u = {2 * GELU_TANH_C!r} * x * (1 + {GELU_TANH_A!r} * x * x); T s = sigmoid(u); "
                f"T r = sigmoid(-u); T du = {2 * GELU_TANH_C!r} * (1 + {3 * GELU_TANH_A!r} * x * x); ")
GELU_TANH = Elementwise(
    "nn.gelu_tanh", lambda m, x: x * _gelu_tanh_parts(m, x)[0], _gelu_tanh_grad, _gelu_tanh_grad2,
).c_bodies(
    value=f"x * sigmoid({2 * GELU_TANH_C!r} * x * (1 + {GELU_TANH_A!r} * x * x))",
    grad=_GELU_TANH_C + "return s * (1 + x * du * r);",
    grad2=_GELU_TANH_C + f"T ds = du * s * r; return 2 * ds + x * ({12 * GELU_TANH_C * GELU_TANH_A!r} * x * s * r "
    "+ du * ds * (r - s));")


def _silu_grad(m, x):
    s = m.sigmoid(x)
    return (s * (1 + x * m.sigmoid(-x)),)


def _silu_grad2(m, x):
    s, r = m.sigmoid(x), m.sigmoid(-x)
    return _silu_grad(m, x), ((s * r * (2 + x * (r - s)),),)


SILU = Elementwise("nn.silu", lambda m, x: x * m.sigmoid(x), _silu_grad, _silu_grad2).c_bodies(
    value="x * sigmoid(x)",
    grad="T s = sigmoid(x); return s * (1 + x * sigmoid(-x));",
    grad2="T s = sigmoid(x); T r = sigmoid(-x); return s * r * (2 + x * (r - s));")


# softplus(x) = log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (Paddle's rule)
def _softplus_value(m, x, *, beta, threshold):
    u = beta * x
    return m.where(u > threshold, x, m.softplus(u) / beta)


def _softplus_grad(m, x, *, beta, threshold):
    u = beta * x
    return (m.where(u > threshold, 1.0, m.sigmoid(u)),)


def _softplus_grad2(m, x, *, beta, threshold):
    u = beta * x
    return (_softplus_grad(m, x, beta=beta, threshold=threshold),
            ((m.where(u > threshold, 0.0, beta * m.sigmoid(u) * m.sigmoid(-u)),),))


SOFTPLUS = Elementwise("nn.softplus", _softplus_value, _softplus_grad, _softplus_grad2).c_bodies(
    # 1 / beta is loop-invariant: the compiler divides once per call, not once per element
    value="T u = beta * x; T inv = 1 / beta; return u > threshold ? x : softplus(u) * inv;",
    grad="T u = beta * x; return u > threshold ? (T)1 : sigmoid(u);",
    grad2="T u = beta * x; return u > threshold ? (T)0 : beta * sigmoid(u) * sigmoid(-u);")


# mish(x) = x tanh(softplus(x)) = x T; T' = sigmoid(x) sech2, sech2 = 1 - T^2; sech2' = -2 T T'
def _mish_grad(m, x):
    return (m.tanh_softplus(x) + x * m.sigmoid(x) * m.sech2_softplus(x),)


def _mish_grad2(m, x):
    t, s, r, sech2 = m.tanh_softplus(x), m.sigmoid(x), m.sigmoid(-x), m.sech2_softplus(x)
    return _mish_grad(m, x), ((s * sech2 * (2 + x * (r - 2 * t * s)),),)


MISH = Elementwise("nn.mish", lambda m, x: x * m.tanh_softplus(x), _mish_grad, _mish_grad2).c_bodies(
    value="x * tanh_softplus(x)",
    grad="return tanh_softplus(x) + x * sigmoid(x) * sech2_softplus(x);",
    grad2="T t = tanh_softplus(x); T s = sigmoid(x); T r = sigmoid(-x); "
    "return s * sech2_softplus(x) * (2 + x * (r - 2 * t * s));")

OPS = {"gelu": GELU, "gelu_tanh": GELU_TANH, "silu": SILU, "softplus": SOFTPLUS, "mish": MISH}
