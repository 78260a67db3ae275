"""layer_norm and rms_norm over the last axis of [rows, n], as ``Rows`` ops: the maths once in Python
(the python kernels) and once as the statements of one row (the SDK writes the C and CUDA kernels).

``LAYER_NORM``: ``nn.layer_norm_forward(x, weight, bias, eps=) -> (y, mean, rstd)`` and
``nn.layer_norm_backward(x, weight, mean, rstd, dy) -> (dx, dweight, dbias)``;
``RMS_NORM``: ``nn.rms_norm_forward(x, weight, eps=) -> (y, rstd)`` and
``nn.rms_norm_backward(x, weight, rstd, dy) -> (dx, dweight)``. weight and bias are [n] (the op
passes ones and zeros where the user gives none); mean and rstd [rows], saved for backward. Sums
run in double, also for float32; the weight's and bias's gradients are summed over row parts.
"""
from opsdk.kernels.rows import Rows


def _layer_norm(m, x, weight, bias, *, eps):
    mean = m.row_mean(x)
    rstd = 1 / m.sqrt(m.row_mean((x - mean) * (x - mean)) + eps)
    return (x - mean) * rstd * weight + bias, mean, rstd


def _layer_norm_grads(m, x, weight, mean, rstd, dy):
    xhat, g = (x - mean) * rstd, dy * weight
    return rstd * (g - m.row_mean(g) - xhat * m.row_mean(g * xhat)), m.col_sum(dy * xhat), m.col_sum(dy)


LAYER_NORM = Rows("nn.layer_norm", _layer_norm, _layer_norm_grads, features=("weight", "bias"),
                  saved=("mean", "rstd")).c_bodies(
    forward="""
        sum s = x
        mean = s / K
        sum v = (x - mean) * (x - mean)
        rstd = 1 / sqrt(v / K + eps)
        y = (x - mean) * rstd * weight + bias
    """,
    backward="""
        each xhat = (x - mean) * rstd
        sum a = dy * weight                   # one pass with the next sum, and the features' partials
        sum b = dy * weight * xhat
        T c1 = a / K
        T c2 = b / K
        dx = rstd * (dy * weight - c1 - xhat * c2)
        dweight = dy * xhat
        dbias = dy
    """)


def _rms_norm(m, x, weight, *, eps):
    rstd = 1 / m.sqrt(m.row_mean(x * x) + eps)
    return x * rstd * weight, rstd


def _rms_norm_grads(m, x, weight, rstd, dy):
    xhat, g = x * rstd, dy * weight
    return rstd * (g - xhat * m.row_mean(g * xhat)), m.col_sum(dy * xhat)


RMS_NORM = Rows("nn.rms_norm", _rms_norm, _rms_norm_grads, features=("weight",), saved=("rstd",)).c_bodies(
    forward="""
        sum ss = x * x
        rstd = 1 / sqrt(ss / K + eps)
        y = x * rstd * weight
    """,
    backward="""
        sum dot = dy * weight * x
        T c = dot / K * rstd * rstd
        dx = rstd * (dy * weight - x * c)
        dweight = dy * x * rstd
    """)
