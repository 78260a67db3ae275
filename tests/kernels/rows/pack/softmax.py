"""rows.softmax: y = exp(x - max(x)) / sum(exp(x - max(x))) over the last axis."""
import opsdk
from opsdk.kernels.rows import Rows


def forward(m, x):
    e = m.exp(x - m.row_max(x))
    return e / m.row_sum(e)


def backward(m, y, dy):
    return y * (dy - m.row_sum(dy * y))


OP = Rows("rows.softmax", forward, backward).c_bodies(
    forward="""
        max top = x
        each e = exp(x - top)         # computed once: the sum's pass keeps it in y
        sum s = e
        y = e / s
    """,
    backward="""
        sum dot = dy * y
        dx = y * (dy - dot)
    """)


class Softmax(opsdk.Function):
    """Softmax over the last axis."""

    @staticmethod
    def forward(ctx, x):
        return OP.forward(ctx, x)

    @staticmethod
    def backward(ctx, dy):
        return OP.backward(ctx, dy)


def register_op(register):
    register(Softmax, name="softmax", dtypes=("float32", "float64"),
             inputs=[opsdk.TensorSpec(shape=(4, 6), domain=(-3.0, 3.0))],
             double_backward=True, kernels=OP.kernels, reference=OP.reference)
