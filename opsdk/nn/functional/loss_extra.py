"""More losses, composed of differentiable opsdk ops: l1, smooth l1, binary cross entropy
(on probabilities and on logits), negative log-likelihood, KL divergence."""
import numpy as np

from ...errors import OpArgumentError, ShapeError
from ...functional.elementwise import abs as _abs, clip, exp, log, maximum, where
from ...functional.along_axis import take_along_axis
from ...functional.reduction import mean, sum as _sum
from ...functional.shape import reshape, unsqueeze
from ._graph import float_arg, tensor_arg

_REDUCTIONS = ("mean", "sum", "none")


def _reduce(loss, reduction, op):
    if reduction not in _REDUCTIONS:
        raise OpArgumentError(f"{op}: argument 'reduction' must be one of {_REDUCTIONS}; got: "
                              f"{reduction!r}")
    if reduction == "mean":
        return mean(loss)
    return _sum(loss) if reduction == "sum" else loss


def l1_loss(input, label, reduction="mean", name=None):
    """reduce(|input - label|).

    Example:
        >>> F.l1_loss(opsdk.to_tensor([1.0, -2.0]), opsdk.to_tensor([0.0, 0.0])).item()
        1.5
    """
    x = float_arg(input, "l1_loss", "input")
    y = float_arg(label, "l1_loss", "label")
    return _reduce(_abs(x - y), reduction, "l1_loss")


def smooth_l1_loss(input, label, reduction="mean", delta=1.0, is_huber=True, name=None):
    """reduce(0.5 z^2 where |z| < delta, else delta * (|z| - 0.5 delta)), z = input - label;
    is_huber=False divides that by delta (the smooth L1 form), as Paddle."""
    x = float_arg(input, "smooth_l1_loss", "input")
    y = float_arg(label, "smooth_l1_loss", "label")
    z = x - y
    az = _abs(z)
    loss = where(az < delta, z * z * 0.5, (az - 0.5 * delta) * delta)
    if not is_huber:
        loss = loss / delta
    return _reduce(loss, reduction, "smooth_l1_loss")


def _weighted(loss, weight, op):
    if weight is None:
        return loss
    return loss * float_arg(weight, op, "weight")


def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):
    """-(label log p + (1 - label) log(1 - p)) for probabilities p; each log is kept >= -100
    (as Paddle), so p = 0 or 1 gives a finite loss.
    """
    p = float_arg(input, "binary_cross_entropy", "input")
    y = float_arg(label, "binary_cross_entropy", "label")
    if p.shape != y.shape:
        raise ShapeError(f"binary_cross_entropy: input and label must have one shape; got: "
                         f"{list(p.shape)} and {list(y.shape)}")
    pa = p.array
    if not bool((pa >= 0).all()) or not bool((pa <= 1).all()):
        raise OpArgumentError("binary_cross_entropy: argument 'input' must hold probabilities "
                              "(as Paddle checks); expected: values in [0, 1]; got: values "
                              "outside it (or NaN); use binary_cross_entropy_with_logits for "
                              "logits")
    # log(q) kept >= -100 without ever taking log(0): q is floored just below e^-100 first
    tiny = float(np.exp(-101.0))

    def safe_log(q):
        return clip(log(clip(q, min=tiny)), min=-100.0)
    loss = -(y * safe_log(p) + (1.0 - y) * safe_log(1.0 - p))
    return _reduce(_weighted(loss, weight, "binary_cross_entropy"), reduction,
                   "binary_cross_entropy")


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean",
                                     pos_weight=None, name=None):
    """binary_cross_entropy(sigmoid(logit), label), computed stably from the logits.

    pos_weight multiplies the positive term (one weight per class, broadcast on the last axis).
    """
    x = float_arg(logit, "binary_cross_entropy_with_logits", "logit")
    y = float_arg(label, "binary_cross_entropy_with_logits", "label")
    # log(1 + exp(-|x|)) + max(-x, 0) = -log(sigmoid(x)), without overflow
    neg_log_sig = log(exp(-_abs(x)) + 1.0) + maximum(-x, x * 0.0)
    if pos_weight is None:
        loss = (1.0 - y) * x + neg_log_sig
    else:
        pw = float_arg(pos_weight, "binary_cross_entropy_with_logits", "pos_weight")
        loss = (1.0 - y) * x + ((pw - 1.0) * y + 1.0) * neg_log_sig
    return _reduce(_weighted(loss, weight, "binary_cross_entropy_with_logits"), reduction,
                   "binary_cross_entropy_with_logits")


def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean", name=None):
    """-input[n, label[n]] (times weight[label[n]]); 'mean' divides by the counted weights.

    Args:
        input: log-probabilities [N, C] (or [N, C, d1, ...]).
        label: int class ids [N] (or [N, d1, ...]); ignore_index counts for nothing.
    """
    x = float_arg(input, "nll_loss", "input")
    lab = tensor_arg(label, "nll_loss", "label")
    if lab.array.dtype.kind not in "iu":
        raise OpArgumentError(f"nll_loss: label must hold integer class ids; got: "
                              f"{lab.array.dtype}")
    if x.ndim < 2 or list(lab.shape) != [x.shape[0]] + list(x.shape[2:]):
        raise ShapeError(f"nll_loss: expected input [N, C, ...] and label [N, ...]; got: "
                         f"input {list(x.shape)}, label {list(lab.shape)}")
    ids = lab.array
    valid = ids != ignore_index
    c = x.shape[1]
    if np.any(valid & ((ids < 0) | (ids >= c))):
        raise OpArgumentError(f"nll_loss: labels must lie in [0, {c}) or equal ignore_index; "
                              f"got: {ids[valid & ((ids < 0) | (ids >= c))][:3].tolist()}")
    safe = np.where(valid, ids, 0)
    picked = reshape(take_along_axis(x, unsqueeze(tensor_arg(safe, "nll_loss"), 1), 1),
                     list(lab.shape))
    w = np.ones(c, dtype=x.array.dtype) if weight is None else float_arg(
        weight, "nll_loss", "weight").array
    row_w = (w[safe] * valid).astype(x.array.dtype)
    loss = -picked * tensor_arg(row_w, "nll_loss")
    if reduction == "mean":
        total = float(row_w.sum())
        return _sum(loss) / total if total else _sum(loss) * 0.0
    return _reduce(loss, reduction, "nll_loss")


def kl_div(input, label, reduction="mean", log_target=False, name=None):
    """label * (log(label) - input), with input holding log-probabilities; 0 where label <= 0.

    reduction: 'mean' (over all elements), 'batchmean' (sum / batch size), 'sum' or 'none'.
    """
    x = float_arg(input, "kl_div", "input")
    y = float_arg(label, "kl_div", "label")
    if log_target:
        loss = exp(y) * (y - x)
    else:
        pos = y > 0
        safe = where(pos, y, y * 0.0 + 1.0)
        loss = where(pos, y * (log(safe) - x), x * 0.0)
    if reduction == "batchmean":
        return _sum(loss) / float(x.shape[0] if x.ndim else 1)
    return _reduce(loss, reduction, "kl_div")


__all__ = ["l1_loss", "smooth_l1_loss", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "nll_loss", "kl_div"]


def square_error_cost(input, label):
    """(input - label) ** 2, elementwise (no reduction)."""
    x = float_arg(input, "square_error_cost", "input")
    y = float_arg(label, "square_error_cost", "label")
    d = x - y
    return d * d


def label_smooth(label, prior_dist=None, epsilon=0.1, name=None):
    """(1 - epsilon) * label + epsilon * prior (uniform over the last axis by default);
    epsilon must lie in [0, 1], as in Paddle."""
    if not 0.0 <= epsilon <= 1.0:
        raise OpArgumentError(f"label_smooth: argument 'epsilon' must be between 0 and 1; "
                              f"got: {epsilon}")
    y = float_arg(label, "label_smooth", "label")
    if prior_dist is None:
        return y * (1.0 - epsilon) + epsilon / y.shape[-1]
    return y * (1.0 - epsilon) + float_arg(prior_dist, "label_smooth", "prior_dist") * epsilon


__all__ += ["square_error_cost", "label_smooth"]


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    """Paddle's fused softmax + cross entropy: the per-sample loss with the class axis kept
    (size 1), and with ``return_softmax`` the softmax too.

    Args:
        logits: float logits with the classes on ``axis``.
        label: int64 indices shaped like logits with ``axis`` of size 1, or (soft_label)
            probabilities shaped like logits.
        ignore_index: a hard label whose sample's loss is 0.

    Example:
        >>> logits = opsdk.to_tensor([[2.0, 0.5, -1.0]])
        >>> F.softmax_with_cross_entropy(logits, opsdk.to_tensor([[0]])).shape
        paddle.Size([1, 1])
    """
    from .activation import log_softmax, softmax
    x = float_arg(logits, "softmax_with_cross_entropy", "logits")
    lab = tensor_arg(label, "softmax_with_cross_entropy", "label")
    ax = axis % x.ndim if x.ndim else 0
    logp = log_softmax(x, axis=ax)
    if soft_label:
        loss = -_sum(lab * logp, axis=ax, keepdim=True)
    else:
        idx = lab.array
        if idx.ndim == x.ndim - 1:
            idx = np.expand_dims(idx, ax)
        if idx.ndim != x.ndim or idx.shape[ax] != 1:
            raise ShapeError(f"softmax_with_cross_entropy: expected: a label shaped like logits "
                             f"{list(x.shape)} with axis {ax} of size 1; got: {list(lab.shape)}")
        ignored = idx == ignore_index
        safe = np.where(ignored, 0, idx).astype(np.int64)
        n = x.shape[ax]
        if safe.size and (safe.min() < 0 or safe.max() >= n):
            raise OpArgumentError(f"softmax_with_cross_entropy: labels must lie in [0, {n}) or "
                                  f"equal ignore_index ({ignore_index})")
        picked = take_along_axis(logp, safe, ax)
        loss = where(ignored, np.zeros((), picked.array.dtype), -picked)
    return (loss, softmax(x, axis=ax)) if return_softmax else loss
