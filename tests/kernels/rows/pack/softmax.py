"""rows.softmax: opsdk-nn's softmax Rows op (a max, a shorthand kept in the output for the last pass)
behind a Function of ``Rows.forward`` and ``Rows.backward``."""
import opsdk
from opsdk_nn.kernels.softmax import SOFTMAX as OP


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
