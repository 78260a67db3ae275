"""Bugs of a float32 accumulation over long rows (issue 21, class 3).

rowsum_acc_c   the C kernel sums float32 rows in a float accumulator (double for float64)
softmax_acc_c  the C softmax accumulates its denominator (and backward its dot product) in the
               input's type: float for float32
"""
from opsdk import TensorSpec

from ._kernels import row_kernel
from .correct import _rowsum, rowsum_op, softmax_grad_python, softmax_op, softmax_python

RowSumAcc = rowsum_op("RowSumAcc", row_kernel("reg.rowsum_acc", "rowsum_narrow", _rowsum,
                                              outputs=("row",)))
SoftmaxAcc = softmax_op("SoftmaxAcc",
                        row_kernel("reg.softmax_acc_fwd", "softmax_narrow_fwd", softmax_python),
                        row_kernel("reg.softmax_acc_bwd", "softmax_narrow_bwd",
                                        softmax_grad_python, inputs=2))


def register(register):
    x = [TensorSpec(shape=(3, 5))]
    register(RowSumAcc, name="rowsum_acc_c", inputs=x, kernels=RowSumAcc.kernels)
    register(SoftmaxAcc, name="softmax_acc_c", inputs=x, kernels=SoftmaxAcc.kernels)
