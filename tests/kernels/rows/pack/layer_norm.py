"""rows.layer_norm: y = (x - mean) / sqrt(var + eps) * weight + bias over the last axis."""
import opsdk
from opsdk.kernels.rows import Rows


def forward(m, x, weight, bias, *, eps):
    mean = m.row_mean(x)
    rstd = 1 / m.sqrt(m.row_mean((x - mean) * (x - mean)) + eps)
    return (x - mean) * rstd * weight + bias, mean, rstd


def backward(m, x, weight, mean, rstd, dy):
    xhat, g = (x - mean) * rstd, dy * weight
    dx = rstd * (g - m.row_mean(g) - xhat * m.row_mean(g * xhat))
    return dx, m.col_sum(dy * xhat), m.col_sum(dy)


OP = Rows("rows.layer_norm", forward, backward, features=("weight", "bias"), saved=("mean", "rstd")).c_bodies(
    forward="""
        sum s = x
        mean = s / K
        sum v = (x - mean) * (x - mean)
        rstd = 1 / sqrt(v / K + eps)
        y = (x - mean) * rstd * weight + bias
    """,
    backward="""
        each xhat = (x - mean) * rstd
        sum a = dy * weight
        sum b = dy * weight * xhat
        dx = rstd * (dy * weight - (a + xhat * b) / K)
        dweight = dy * xhat
        dbias = dy
    """)


class LayerNorm(opsdk.Function):
    """LayerNorm over the last axis, with a per-feature weight and bias."""

    @staticmethod
    def forward(ctx, x, weight, bias, eps=1e-5):
        return OP.forward(ctx, x, weight, bias, eps=eps)

    @staticmethod
    def backward(ctx, dy):
        return OP.backward(ctx, dy)


def register_op(register):
    register(LayerNorm, name="layer_norm", attrs={"eps": 1e-5}, dtypes=("float32", "float64"),
             inputs=[opsdk.TensorSpec(shape=(4, 6), domain=(-2.0, 2.0)),
                     opsdk.TensorSpec(shape=(6,), domain=(0.5, 1.5)),
                     opsdk.TensorSpec(shape=(6,), domain=(-1.0, 1.0))],
             double_backward=True, kernels=OP.kernels, reference=OP.reference)
