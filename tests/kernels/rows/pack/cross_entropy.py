"""rows.cross_entropy: each row's loss for an integer class label, logsumexp(x) - x[label], 0 where
the label is ignore_index: a per-row output, an integer per-row input and an integer attribute."""
import opsdk
from opsdk.kernels.rows import Rows


def _kept(m, x, label, ignore_index):
    return (label != ignore_index) & (label >= 0) & (label < x.shape[-1])


def forward(m, x, label, *, ignore_index):
    top = m.row_max(x)
    logsum = m.log(m.row_sum(m.exp(x - top)))
    kept = _kept(m, x, label, ignore_index)
    picked = m.row_take(x, m.where(kept, label, 0))
    return m.where(kept, (top - picked) + logsum, 0.0), top, logsum


def backward(m, x, label, rowmax, logsum, dloss, *, ignore_index):
    scale = m.where(_kept(m, x, label, ignore_index), dloss, 0.0)
    return scale * m.exp((x - rowmax) - logsum) - m.where(m.row_index(x) == label, scale, 0.0)


OP = Rows("rows.cross_entropy", forward, backward, per_row=("label", "loss"), integers=("label", "ignore_index"),
          outputs=("loss",), saved=("rowmax", "logsum")).c_bodies(
    forward="""
        max top = x
        sum s = exp(x - top)
        rowmax = top
        logsum = log(s)
        loss = label != ignore_index && label >= 0 && label < K ? (top - x[label]) + logsum : 0
    """,
    backward="""
        T scale = label != ignore_index && label >= 0 && label < K ? dloss : 0
        dx = scale * exp((x - rowmax) - logsum) - (j == label ? scale : 0)
    """)


class CrossEntropy(opsdk.Function):
    """Per-row cross entropy of logits x [..., K] and integer labels [...]."""

    @staticmethod
    def forward(ctx, x, label, ignore_index=-100):
        return OP.forward(ctx, x, label, ignore_index=ignore_index)

    @staticmethod
    def backward(ctx, dloss):
        return OP.backward(ctx, dloss)


def register_op(register):
    register(CrossEntropy, name="cross_entropy", attrs={"ignore_index": -100}, dtypes=("float32", "float64"),
             inputs=[opsdk.TensorSpec(shape=(4, 6), domain=(-3.0, 3.0)),
                     opsdk.TensorSpec(shape=(4,), integer=True, high=6, dtype="int64")],
             double_backward=True, kernels=OP.kernels, reference=OP.reference)
