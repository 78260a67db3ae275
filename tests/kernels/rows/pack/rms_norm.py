"""rows.rms_norm: opsdk-nn's RMSNorm Rows op (plugins/opsdk-nn/opsdk_nn/kernels/norms.py) behind a
Function of ``Rows.forward`` and ``Rows.backward``: the SDK's glue (checks, the rows view, the
kernels, the second order from forward on Tensors), which opsdk-nn's own ops do not use."""
import opsdk
from opsdk_nn.kernels.norms import RMS_NORM as OP


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
