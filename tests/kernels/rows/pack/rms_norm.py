"""rows.rms_norm: y = x / sqrt(mean(x**2) + eps) * weight over the last axis, x [..., K], weight [K].

The maths once per language: in Python with ``m`` (the python kernels, and on Tensors the
reference and the second order), in C as the statements of one row (the C and CUDA kernels).
"""
import opsdk
from opsdk.kernels.rows import Rows


def forward(m, x, weight, *, eps):
    rstd = 1 / m.sqrt(m.row_mean(x * x) + eps)
    return x * rstd * weight, rstd


def backward(m, x, weight, rstd, dy):
    xhat, g = x * rstd, dy * weight
    return rstd * (g - xhat * m.row_mean(g * xhat)), m.col_sum(dy * xhat)


OP = Rows("rows.rms_norm", forward, backward, features=("weight",), saved=("rstd",)).c_bodies(
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


class RMSNorm(opsdk.Function):
    """RMSNorm over the last axis: x / sqrt(mean(x**2) + eps) * weight."""

    @staticmethod
    def forward(ctx, x, weight, eps=1e-6):
        return OP.forward(ctx, x, weight, eps=eps)

    @staticmethod
    def backward(ctx, dy):
        return OP.backward(ctx, dy)


def register_op(register):
    register(RMSNorm, name="rms_norm", attrs={"eps": 1e-6}, dtypes=("float32", "float64"),
             inputs=[opsdk.TensorSpec(shape=(4, 6), domain=(-2.0, 2.0)),
                     opsdk.TensorSpec(shape=(6,), domain=(0.5, 1.5))],
             double_backward=True, kernels=OP.kernels, reference=OP.reference)
