"""ctc_loss: the connectionist temporal classification loss (Graves et al., 2006), as Paddle's
warpctc computes it: a softmax over the unscaled scores, then -log of the summed probability
of every alignment of the labels, by the forward recursion in log space.

The recursion is composed of opsdk ops (log_softmax, gathers, logsumexp, where) over the whole
batch one time step at a time, so its gradient (softmax minus the alignment posterior) and
gradients of gradients come from those ops. Impossible alignments (an input too short for its
labels) give a loss near 1e30 where Paddle's is inf (zero_infinity treats both alike).
"""
import numpy as np

from ...errors import DTypeError, OpArgumentError, ShapeError
from ...functional.along_axis import take_along_axis
from ...functional.elementwise import where
from ...functional.reduction import logsumexp, mean, sum as _sum
from ...functional.shape import concat, reshape, stack
from ...tensor import _wrap
from ._graph import float_arg, tensor_arg
from .activation import log_softmax

_NEG = -1e30  # "log 0" that keeps every gradient finite


def _int_arg(t, op, arg):
    t = tensor_arg(t, op, arg)
    if t.array.dtype.kind not in "iu":
        raise DTypeError(f"{op}: {arg} must hold integers; got: {t.array.dtype}")
    return t.array.astype(np.int64)


def _operands(op, reduction, scores, labels, input_lengths, label_lengths, names):
    """The checked reduction, the float scores and the int64 labels and lengths (flat)."""
    if reduction not in ("mean", "sum", "none"):
        raise OpArgumentError(f"{op}: argument 'reduction' must be 'mean', 'sum' or 'none'; got: "
                              f"{reduction!r}")
    return (float_arg(scores, op, names[0]), _int_arg(labels, op, names[1]),
            _int_arg(input_lengths, op, "input_lengths").reshape(-1),
            _int_arg(label_lengths, op, "label_lengths").reshape(-1))


def ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean",
             norm_by_times=False, zero_infinity=False):
    """The CTC loss of unscaled scores log_probs [T, B, C] (Paddle applies the softmax itself)
    against padded labels [B, L] (int32), with input_lengths and label_lengths [B] (int64).

    reduction: 'mean' (each loss divided by its label length, then averaged), 'sum' or 'none'
    ([B]). norm_by_times divides the gradient (not the loss) by each input length, as Paddle's
    warpctc. zero_infinity zeroes the loss of impossible alignments.

    Example:
        >>> x = opsdk.randn([5, 2, 4])
        >>> F.ctc_loss(x, opsdk.to_tensor([[1, 2], [3, 3]], dtype="int32"),
        ...            opsdk.to_tensor([5, 4]), opsdk.to_tensor([2, 2])).shape
        paddle.Size([])
    """
    op = "ctc_loss"
    x, lab, tl, ll = _operands(op, reduction, log_probs, labels, input_lengths, label_lengths,
                               ("log_probs", "labels"))
    if x.ndim != 3 or lab.ndim != 2 or lab.shape[0] != x.shape[1] or \
            tl.shape[0] != x.shape[1] or ll.shape[0] != x.shape[1]:
        raise ShapeError(f"{op}: expected log_probs [T, B, C], labels [B, L], input_lengths and "
                         f"label_lengths [B]; got: {list(x.shape)}, {list(lab.shape)}, "
                         f"{list(tl.shape)}, {list(ll.shape)}")
    t_max, b, c = x.shape
    if not 0 <= blank < c:
        raise OpArgumentError(f"{op}: blank must lie in [0, {c}); got: {blank}")
    if (tl < 1).any() or (tl > t_max).any() or (ll < 0).any() or (ll > lab.shape[1]).any():
        raise OpArgumentError(f"{op}: input_lengths must lie in [1, {t_max}] and label_lengths in "
                              f"[0, {lab.shape[1]}]; got: {tl.tolist()}, {ll.tolist()}")
    dt = x.array.dtype
    # the labels with blanks around and between them: [B, S], S = 2 L + 1
    s_max = 2 * lab.shape[1] + 1
    ext = np.full((b, s_max), blank, dtype=np.int64)
    ext[:, 1::2] = np.where(np.arange(lab.shape[1]) < ll[:, None], lab, blank)
    s_len = 2 * ll + 1
    valid = np.arange(s_max) < s_len[:, None]
    # s may come from s - 2 when it is a label different from the one two back
    skip = np.zeros((b, s_max), dtype=bool)
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    logp = log_softmax(x, axis=-1)
    index = _wrap(ext)
    neg = _wrap(np.full((b, 1), _NEG, dtype=dt))
    neg2 = _wrap(np.full((b, 2), _NEG, dtype=dt))
    start = np.full((b, s_max), _NEG, dtype=dt)
    start[:, 0] = 0
    start[:, 1] = np.where(s_len > 1, 0, _NEG)
    alpha = take_along_axis(logp[0], index, 1) + _wrap(start)
    mask_valid, mask_skip = _wrap(valid), _wrap(skip)
    for t in range(1, t_max):
        one_back = concat([neg, alpha[:, :-1]], axis=1)
        two_back = where(mask_skip, concat([neg2, alpha[:, :-2]], axis=1),
                         _wrap(np.full((b, s_max), _NEG, dtype=dt)))
        step = logsumexp(stack([alpha, one_back, two_back]), axis=0) + \
            take_along_axis(logp[t], index, 1)
        step = where(mask_valid, step, _wrap(np.full((b, s_max), _NEG, dtype=dt)))
        alpha = where(_wrap((t < tl)[:, None]), step, alpha)
    ends = _wrap(np.stack([s_len - 1, np.maximum(s_len - 2, 0)], axis=1))
    last = take_along_axis(alpha, ends, 1)
    last = where(_wrap(np.stack([np.ones(b, bool), s_len > 1], axis=1)), last,
                 _wrap(np.full((b, 2), _NEG, dtype=dt)))
    loss = -logsumexp(last, axis=1)
    if norm_by_times:
        # the value stays; the gradient is divided by each input length
        scale = _wrap((1.0 / tl).astype(dt))
        loss = loss * scale + (loss * (1 - scale)).detach()
    if zero_infinity:
        loss = where(_wrap(loss.array >= -_NEG / 2), loss * 0.0, loss)
    if reduction == "mean":
        return mean(loss / _wrap(ll.astype(dt)))
    return _sum(loss) if reduction == "sum" else reshape(loss, [b])


__all__ = ["ctc_loss"]


def _logaddexp(a, b):
    """log(e^a + e^b) of two Tensors, through logsumexp (stable, differentiable)."""
    return logsumexp(stack([a, b]), axis=0)


def rnnt_loss(input, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.001,
              reduction="mean", name=None):
    """The RNN-transducer loss (Graves, 2012) of log-probabilities input [B, T, U + 1, V]
    against labels [B, U] (int32), with input_lengths and label_lengths [B] (int32): -log of
    the summed probability of every alignment, by the forward recursion over (t, u) in log
    space. The input is used as given, as Paddle's CPU kernel does (its GPU kernel applies a
    log-softmax first, which changes nothing on log-probabilities: pass log_softmax(logits)).

    reduction: 'mean' (the sum over the batch divided by B, as Paddle), 'sum' or 'none' ([B]).
    fastemit_lambda (FastEmit, Yu et al., 2021) changes the gradient only: the gradient of
    -log P is that of the loss plus lambda times the gradient through the label emissions.
    """
    op = "rnnt_loss"
    x, lab, tl, ll = _operands(op, reduction, input, label, input_lengths, label_lengths,
                               ("input", "label"))
    if x.ndim != 4 or lab.ndim != 2 or lab.shape[0] != x.shape[0] or \
            x.shape[2] != lab.shape[1] + 1 or tl.shape[0] != x.shape[0] or \
            ll.shape[0] != x.shape[0]:
        raise ShapeError(f"{op}: expected input [B, T, U + 1, V], label [B, U], input_lengths and "
                         f"label_lengths [B]; got: {list(x.shape)}, {list(lab.shape)}, "
                         f"{list(tl.shape)}, {list(ll.shape)}")
    b, t_max, u1, v = x.shape
    if not 0 <= blank < v:
        raise OpArgumentError(f"{op}: blank must lie in [0, {v}); got: {blank}")
    if (tl < 1).any() or (tl > t_max).any() or (ll < 0).any() or (ll > u1 - 1).any():
        raise OpArgumentError(f"{op}: input_lengths must lie in [1, {t_max}] and label_lengths in "
                              f"[0, {u1 - 1}]; got: {tl.tolist()}, {ll.tolist()}")
    logp = x
    blank_lp = logp[:, :, :, blank]                                     # [B, T, U + 1]
    safe = np.where(lab >= 0, lab, 0)
    idx = np.broadcast_to(safe[:, None, :, None], (b, t_max, u1 - 1, 1))
    emit_lp = reshape(take_along_axis(logp[:, :, :u1 - 1], _wrap(np.ascontiguousarray(idx)), 3),
                      [b, t_max, u1 - 1])                               # [B, T, U]
    if fastemit_lambda:
        # the value stays; the emissions' gradient grows by the factor (1 + lambda)
        emit_lp = emit_lp * (1 + fastemit_lambda) - (emit_lp * fastemit_lambda).detach()
    alpha = [[None] * u1 for _ in range(t_max)]
    for t in range(t_max):
        for u in range(u1):
            terms = []
            if t > 0:
                terms.append(alpha[t - 1][u] + blank_lp[:, t - 1, u])
            if u > 0:
                terms.append(alpha[t][u - 1] + emit_lp[:, t, u - 1])
            if not terms:
                alpha[t][u] = blank_lp[:, 0, 0] * 0.0
            else:
                alpha[t][u] = terms[0] if len(terms) == 1 else _logaddexp(*terms)
    table = stack([stack(row, axis=1) for row in alpha], axis=1)       # [B, T, U + 1]
    rows = np.arange(b)
    loss = -(table[rows, tl - 1, ll] + blank_lp[rows, tl - 1, ll])
    if reduction == "mean":
        return _sum(loss) / b
    return _sum(loss) if reduction == "sum" else loss


__all__ += ["rnnt_loss"]
