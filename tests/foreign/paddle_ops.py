"""Paddle ops declared with opsdk.foreign_op: a correct PyLayer, and the same op whose backward
drops the mean's own term (dy passed through, as if the row mean were a constant).

(The in-place bug classes do not hide in Paddle: it refuses an in-place write to a leaf that
needs a gradient, and copies the gradients paddle.grad is seeded with.)"""
import paddle
from paddle.autograd import PyLayer

import opsdk
from opsdk import TensorSpec


class CenterRows(PyLayer):
    """x minus its row mean."""

    @staticmethod
    def forward(ctx, x):
        return x - x.mean(axis=-1, keepdim=True)

    @staticmethod
    def backward(ctx, dy):
        return dy - dy.mean(axis=-1, keepdim=True)


class CenterRowsMeanAsConstant(CenterRows):
    @staticmethod
    def backward(ctx, dy):
        return dy                                      # BUG: the mean's term dropped


def _declare(function, name):
    return opsdk.foreign_op(function.apply, framework="paddle", name=f"paddlepack.{name}",
                            inputs=[TensorSpec(shape=(3, 4))], double_backward=True,
                            reference=lambda x: x - x.mean(axis=-1, keepdim=True))


CORRECT = [_declare(CenterRows, "center_rows")]
BUGS = [(_declare(CenterRowsMeanAsConstant, "center_rows_mean_as_constant"), "gradcheck",
         "output (shape [3, 4], float64) w.r.t. x")]

# every op of the pack: opsdk check --op foreign.paddle_ops:OPS (from tests/)
OPS = CORRECT + [op for op, _, _ in BUGS]
