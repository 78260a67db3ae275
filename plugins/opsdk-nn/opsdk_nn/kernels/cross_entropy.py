"""cross_entropy with integer labels over the last axis of [rows, n], as a ``Rows`` op: log_softmax and
the negative log-likelihood in one kernel, written once in Python (the python kernels) and once as
the statements of one row (the SDK writes the C and CUDA kernels).

``CROSS_ENTROPY``: ``nn.cross_entropy_forward(x, label, ignore_index=) -> (loss, rowmax, logsum)``:
label [rows] int64; loss[r] = (max - x[r, label]) + log(sum(exp(x[r] - max))), 0 for ignored
rows (and labels outside [0, n), which the op refuses before). Each row's max and log-sum are
kept apart for backward (added into one logsumexp, a logit of 1e4 would lose the small log-sum
to rounding). ``nn.cross_entropy_backward(x, label, rowmax, logsum, dloss, ignore_index=) -> dx``:
dloss is each row's loss gradient, [rows]; the softmax is rebuilt from the max and log-sum:
exp((x - rowmax) - logsum), whose argument is <= 0 for forward's rowmax and logsum, written
exp(-abs(...)) in both languages (the cheaper exp in C, and the python kernel computes the same
on any input, as opsdk check feeds it others too).
"""
from opsdk.kernels.rows import Rows


def _kept(x, label, ignore_index):
    return (label != ignore_index) & (label >= 0) & (label < x.shape[-1])


def _cross_entropy(m, x, label, *, ignore_index):
    top = m.row_max(x)
    logsum = m.log(m.row_sum(m.exp(x - top)))
    kept = _kept(x, label, ignore_index)
    picked = m.row_take(x, m.where(kept, label, 0))
    return m.where(kept, (top - picked) + logsum, 0.0), top, logsum


def _cross_entropy_grad(m, x, label, rowmax, logsum, dloss, *, ignore_index):
    scale = m.where(_kept(x, label, ignore_index), dloss, 0.0)
    return scale * m.exp(-m.abs((x - rowmax) - logsum)) - m.where(m.row_index(x) == label, scale, 0.0)


CROSS_ENTROPY = Rows("nn.cross_entropy", _cross_entropy, _cross_entropy_grad, per_row=("label", "loss"),
                     integers=("label", "ignore_index"), outputs=("loss",), saved=("rowmax", "logsum")).c_bodies(
    forward="""
        max top = x
        sum s = exp(-abs(x - top))            # x <= top: -abs says so to the SDK (a cheaper exp)
        rowmax = top
        logsum = log(s)
        loss = label != ignore_index && label >= 0 && label < K ? (top - x[label]) + logsum : 0
    """,
    backward="""
        T scale = label != ignore_index && label >= 0 && label < K ? dloss : 0
        dx = scale * exp(-abs((x - rowmax) - logsum))
        dx[label] -= scale                    # the label's element (none where the label is outside)
    """)
