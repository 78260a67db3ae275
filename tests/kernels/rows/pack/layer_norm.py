"""rows.layer_norm: opsdk-nn's LayerNorm Rows op (two per-feature inputs, two saved values) behind a
Function of ``Rows.forward`` and ``Rows.backward``."""
import opsdk
from opsdk_nn.kernels.norms import LAYER_NORM as OP


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
