"""The ranking, margin, embedding and likelihood losses of paddle.nn.functional, composed of
differentiable opsdk ops the way Paddle 3.3.1 composes them (so gradients, and gradients of
gradients, come from those ops): margin ranking, hinge and cosine embedding, soft margin,
triplet margin, multi-class and multi-label margin, Poisson and Gaussian NLL, log loss, dice,
sigmoid focal, npair."""
import math

import numpy as np

from ...errors import DTypeError, OpArgumentError, ShapeError
from ...functional.along_axis import take_along_axis
from ...functional.elementwise import (clip, exp, log, minimum, pow as _pow, sigmoid, sqrt,
                                       square, where)
from ...functional.linalg import matmul
from ...functional.reduction import mean, norm, sum as _sum
from ...functional.shape import reshape, unsqueeze
from ...tensor import _wrap, as_array
from ._graph import float_arg, tensor_arg
from .activation import relu
from .activation_extra import log_sigmoid
from .loss_extra import binary_cross_entropy_with_logits

_REDUCTIONS = ("sum", "mean", "none")


def _check(reduction, op):
    if reduction not in _REDUCTIONS:
        raise OpArgumentError(f"{op}: argument 'reduction' must be 'sum', 'mean' or 'none'; "
                              f"got: {reduction!r}")


def _reduce(loss, reduction):
    if reduction == "mean":
        return mean(loss)
    return _sum(loss) if reduction == "sum" else loss


def _const(value, like):
    return _wrap(np.asarray(value, dtype=like.array.dtype))


def _same_shape(op, **tensors):
    items = list(tensors.items())
    if any(list(t.shape) != list(items[0][1].shape) for _, t in items[1:]):
        got = ", ".join(f"{k} {list(t.shape)}" for k, t in items)
        raise ShapeError(f"{op}: the inputs must share one shape; got: {got}")


def pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    """||x - y + epsilon||_p over the last axis (Paddle adds epsilon before the norm).

    Example:
        >>> F.pairwise_distance(opsdk.ones([2, 3]), opsdk.zeros([2, 3])).shape
        paddle.Size([2])
    """
    a = float_arg(x, "pairwise_distance", "x")
    b = float_arg(y, "pairwise_distance", "y")
    sub = a - b
    if epsilon != 0.0:
        sub = sub + _const(epsilon, sub)
    return norm(sub, p=p, axis=-1, keepdim=keepdim)


def margin_ranking_loss(input, other, label, margin=0.0, reduction="mean", name=None):
    """reduce(relu(label * (other - input) + margin)).

    Example:
        >>> F.margin_ranking_loss(opsdk.to_tensor([1.0]), opsdk.to_tensor([2.0]),
        ...                       opsdk.to_tensor([1.0])).item()
        1.0
    """
    _check(reduction, "margin_ranking_loss")
    x = float_arg(input, "margin_ranking_loss", "input")
    o = float_arg(other, "margin_ranking_loss", "other")
    lab = float_arg(label, "margin_ranking_loss", "label")
    out = (o - x) * lab
    if margin != 0.0:
        out = out + _const([margin], out)
    return _reduce(relu(out), reduction)


def hinge_embedding_loss(input, label, margin=1.0, reduction="mean", name=None):
    """input where label is 1, relu(margin - input) where label is -1, 0 elsewhere; reduced."""
    _check(reduction, "hinge_embedding_loss")
    x = float_arg(input, "hinge_embedding_loss", "input")
    lab = tensor_arg(label, "hinge_embedding_loss", "label")
    zero = _const([0.0], x)
    loss = where(lab == 1.0, x, zero) + where(lab == -1.0, relu(margin - x), zero)
    return _reduce(loss, reduction)


def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean", name=None):
    """1 - cos(input1, input2) where label is 1, max(cos - margin, 0) where it is -1 (cos over
    the last axis, each squared magnitude plus 1e-11 as Paddle)."""
    _check(reduction, "cosine_embedding_loss")
    lab = tensor_arg(label, "cosine_embedding_loss", "label")
    if lab.ndim != 1:
        raise ShapeError(f"cosine_embedding_loss: label must be 1-D (one target per pair); got: "
                         f"{list(lab.shape)}")
    a = tensor_arg(input1, "cosine_embedding_loss", "input1")
    b = tensor_arg(input2, "cosine_embedding_loss", "input2")
    _same_shape("cosine_embedding_loss", input1=a, input2=b)
    if a.ndim > 2:
        raise ShapeError(f"cosine_embedding_loss: input1 and input2 must be 1-D or 2-D; got: "
                         f"{list(a.shape)}")
    a = float_arg(a, "cosine_embedding_loss", "input1")
    b = float_arg(b, "cosine_embedding_loss", "input2")
    prod = _sum(a * b, axis=-1)
    m1 = _sum(square(a), axis=-1) + 10e-12
    m2 = _sum(square(b), axis=-1) + 10e-12
    cos = prod / sqrt(m1 * m2)
    zeros = cos * 0.0
    out = where(lab == 1, 1 - cos, zeros) + where(lab == -1, clip(cos - margin, min=0), zeros)
    return _reduce(out, reduction)


def soft_margin_loss(input, label, reduction="mean", name=None):
    """reduce(log(1 + exp(-label * input))), label cast to input's dtype."""
    _check(reduction, "soft_margin_loss")
    x = float_arg(input, "soft_margin_loss", "input")
    lab = tensor_arg(label, "soft_margin_loss", "label")
    _same_shape("soft_margin_loss", input=x, label=lab)
    lab = lab.astype(x.dtype)
    return _reduce(log(1 + exp(-lab * x)), reduction)


def _triplet(op, input, positive, negative, distance, margin, swap, reduction, check_sign):
    _check(reduction, op)
    if margin < 0:
        raise OpArgumentError(f"{op}: argument 'margin' must be >= 0; got: {margin}")
    a = tensor_arg(input, op, "input")
    pos = tensor_arg(positive, op, "positive")
    neg = tensor_arg(negative, op, "negative")
    _same_shape(op, input=a, positive=pos, negative=neg)
    d_pos = distance(a, pos)
    d_neg = distance(a, neg)
    if swap:
        d_neg = minimum(d_neg, distance(pos, neg))
    if check_sign and (np.any(d_pos.array < 0) or np.any(d_neg.array < 0)):
        raise OpArgumentError(f"{op}: the distance function gave a negative distance; expected: "
                              f"distances >= 0")
    return _reduce(clip(d_pos - d_neg + margin, min=0.0), reduction)


def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-6, swap=False,
                        reduction="mean", name=None):
    """reduce(max(d(input, positive) - d(input, negative) + margin, 0)), d the pairwise
    p-distance (with epsilon); swap takes d(positive, negative) when smaller."""
    def distance(u, v):
        return pairwise_distance(u, v, p, epsilon)
    return _triplet("triplet_margin_loss", input, positive, negative, distance, margin, swap,
                    reduction, False)


def triplet_margin_with_distance_loss(input, positive, negative, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean", name=None):
    """triplet_margin_loss with any distance function (the pairwise 2-distance by default)."""
    distance = distance_function or pairwise_distance
    return _triplet("triplet_margin_with_distance_loss", input, positive, negative, distance,
                    margin, swap, reduction, True)


def _class_ids(label, op, n):
    lab = tensor_arg(label, op, "label")
    if lab.array.dtype.kind not in "iu":
        raise DTypeError(f"{op}: label must hold int32 or int64 class ids; got: "
                         f"{lab.array.dtype}")
    if lab.shape[0] != n:
        raise ShapeError(f"{op}: label's shape[0] must equal input's shape[0] ({n}); got: "
                         f"{list(lab.shape)}")
    return lab


def multi_margin_loss(input, label, p=1, margin=1.0, weight=None, reduction="mean", name=None):
    """Per sample: mean over classes i of w[y] max(margin - x[y] + x[i], 0)^p, less the i = y
    term (w[y] margin^p / C); input [N, C], label [N]."""
    _check(reduction, "multi_margin_loss")
    x = float_arg(input, "multi_margin_loss", "input")
    lab = _class_ids(label, "multi_margin_loss", x.shape[0])
    idx = reshape(lab, [-1, 1])
    picked = take_along_axis(x, idx, 1)
    c = x.shape[1]
    hinge = _pow(clip(margin - picked + x, min=0.0), p)
    if weight is None:
        loss = mean(hinge, axis=1) - margin ** p / c
    else:
        w = float_arg(weight, "multi_margin_loss", "weight")
        if w.shape[0] != c:
            raise ShapeError(f"multi_margin_loss: weight's shape[0] must equal input's shape[1] "
                             f"({c}); got: {list(w.shape)}")
        wy = reshape(w[idx.array.reshape(-1)], [-1, 1])
        loss = mean(wy * hinge, axis=1) - (wy * (margin ** p / c)).squeeze()
    return _reduce(loss, reduction)


def multi_label_margin_loss(input, label, reduction="mean", name=None):
    """Per sample: sum over its targets j (label's leading entries up to the first -1) and the
    classes i that are no target of max(1 - x[j] + x[i], 0), divided by C."""
    _check(reduction, "multi_label_margin_loss")
    x = float_arg(input, "multi_label_margin_loss", "input")
    lab = tensor_arg(label, "multi_label_margin_loss", "label")
    if x.ndim != 2 or lab.ndim != 2:
        raise ShapeError(f"multi_label_margin_loss: input and label must be 2-D; got: input "
                         f"{list(x.shape)}, label {list(lab.shape)}")
    if lab.array.dtype.kind not in "iu":
        raise DTypeError(f"multi_label_margin_loss: label must hold int32 or int64 class ids; "
                         f"got: {lab.array.dtype}")
    n, c = x.shape
    ld = lab.array.astype(np.int64)
    if ld.size and ld.min() < -1:
        raise OpArgumentError("multi_label_margin_loss: label values must be >= -1")
    if ld.size and ld.max() >= c:
        raise OpArgumentError(f"multi_label_margin_loss: label values must be < {c}")
    valid = np.cumprod(ld != -1, axis=1).astype(bool)
    rows, cols = np.nonzero(valid)
    targets = ld[rows, cols]
    others = np.ones((n, c), dtype=bool)
    others[rows, targets] = False
    dt = x.array.dtype
    if rows.size == 0:
        losses = _sum(x, axis=1) * 0.0
    else:
        xr = x[rows]                                            # [P, C]
        xt = take_along_axis(xr, _wrap(targets.reshape(-1, 1)), 1)
        hinge = relu(where(_wrap(others[rows]), 1 - xt + xr, _const(0.0, x)))
        scatter = np.zeros((n, rows.size), dtype=dt)            # sums the pairs into their rows
        scatter[rows, np.arange(rows.size)] = 1
        losses = reshape(matmul(_wrap(scatter), unsqueeze(_sum(hinge, axis=1), 1)), [n])
    return _reduce(losses / c, reduction)


def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean", name=None):
    """Per sample: the mean over classes of -(y log sigmoid(x) + (1 - y) log sigmoid(-x)),
    times weight."""
    _check(reduction, "multi_label_soft_margin_loss")
    x = float_arg(input, "multi_label_soft_margin_loss", "input")
    y = tensor_arg(label, "multi_label_soft_margin_loss", "label")
    _same_shape("multi_label_soft_margin_loss", input=x, label=y)
    loss = -(y * log_sigmoid(x) + (1 - y) * log_sigmoid(-x))
    if weight is not None:
        loss = loss * float_arg(weight, "multi_label_soft_margin_loss", "weight")
    return _reduce(mean(loss, axis=-1), reduction)


def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-8, reduction="mean",
                     name=None):
    """exp(input) - label * input (log_input), else input - label * log(input + epsilon); full
    adds the Stirling term label log(label) - label + log(2 pi label) / 2 where label > 1."""
    if epsilon <= 0:
        raise OpArgumentError(f"poisson_nll_loss: argument 'epsilon' must be positive; got: "
                              f"{epsilon}")
    _check(reduction, "poisson_nll_loss")
    x = float_arg(input, "poisson_nll_loss", "input")
    y = float_arg(label, "poisson_nll_loss", "label")
    _same_shape("poisson_nll_loss", input=x, label=y)
    loss = exp(x) - y * x if log_input else x - y * log(x + epsilon)
    if full:
        with np.errstate(divide="ignore", invalid="ignore"):
            stirling = y * log(y) - y + 0.5 * log(2 * math.pi * y)
        loss = loss + where(y > 1, stirling, stirling * 0.0)
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-6, reduction="mean",
                      name=None):
    """(log(v) + (input - label)^2 / v) / 2 with v = max(variance, epsilon); full adds
    log(2 pi) / 2. variance gets no gradient: Paddle clips it under no_grad.

    variance has input's shape, or it without the last axis, or with that axis of size 1.
    """
    x = float_arg(input, "gaussian_nll_loss", "input")
    y = float_arg(label, "gaussian_nll_loss", "label")
    v = float_arg(variance, "gaussian_nll_loss", "variance")
    if list(v.shape) != list(x.shape):
        if list(x.shape[:-1]) == list(v.shape):
            v = unsqueeze(v, -1)
        elif not (list(x.shape[:-1]) == list(v.shape[:-1]) and v.shape[-1] == 1):
            raise ShapeError(f"gaussian_nll_loss: variance must have input's shape {list(x.shape)}"
                             f" (or without its last axis, or with it of size 1); got: "
                             f"{list(variance.shape)}")
    _check(reduction, "gaussian_nll_loss")
    if np.any(v.array < 0):
        raise OpArgumentError("gaussian_nll_loss: variance has negative entries")
    v = _wrap(as_array(np.maximum(v.array, epsilon).astype(v.array.dtype)))
    loss = 0.5 * (log(v) + square(x - y) / v)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def log_loss(input, label, epsilon=1e-4, name=None):
    """-label log(input + epsilon) - (1 - label) log(1 - input + epsilon), elementwise over
    [N, 1] (float32 only, as Paddle's kernel); label gets no gradient."""
    x = float_arg(input, "log_loss", "input")
    y = float_arg(label, "log_loss", "label")
    for arg, t in (("input", x), ("label", y)):
        if t.array.dtype != np.float32:
            raise DTypeError(f"log_loss: argument '{arg}' must be float32 (Paddle's kernel "
                             f"has no other); got: {t.array.dtype}")
    if x.ndim != 2 or x.shape[1] != 1 or list(y.shape) != list(x.shape):
        raise ShapeError(f"log_loss: expected input and label of shape [N, 1]; got: input "
                         f"{list(x.shape)}, label {list(y.shape)}")
    y = y.detach()  # Paddle's kernel gives label no gradient
    return -y * log(x + epsilon) - (1 - y) * log(1 - x + epsilon)


def dice_loss(input, label, epsilon=1e-5, name=None):
    """mean over the batch of 1 - 2 |input . onehot(label)| / (|input| + |onehot| + epsilon),
    the sums over every axis but the first; label [..., 1] holds class ids of input's last axis.
    """
    from ...functional.indexing import one_hot
    x = float_arg(input, "dice_loss", "input")
    lab = tensor_arg(label, "dice_loss", "label")
    if lab.array.dtype.kind not in "iu":
        raise DTypeError(f"dice_loss: label must hold int32 or int64 class ids; got: "
                         f"{lab.array.dtype}")
    if x.ndim < 2 or lab.ndim != x.ndim or lab.shape[-1] != 1 or \
            list(x.shape[:-1]) != list(lab.shape[:-1]):
        raise ShapeError(f"dice_loss: expected input [N, ..., C] (rank >= 2) and label "
                         f"[N, ..., 1]; got: input {list(x.shape)}, label {list(lab.shape)}")
    hot = one_hot(lab.squeeze(-1), x.shape[-1]).astype(x.dtype)
    axes = list(range(1, x.ndim))
    inse = _sum(x * hot, axis=axes)
    denom = _sum(x, axis=axes) + _sum(hot, axis=axes)
    return mean(1 - inse * 2 / (denom + epsilon))


def sigmoid_focal_loss(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum",
                       name=None):
    """alpha_t (1 - p_t)^gamma bce_with_logits(logit, label) / normalizer, reduced ('sum' by
    default); p = sigmoid(logit), p_t = p y + (1 - p)(1 - y),
    alpha_t = alpha y + (1 - alpha)(1 - y).
    """
    _check(reduction, "sigmoid_focal_loss")
    x = float_arg(logit, "sigmoid_focal_loss", "logit")
    y = float_arg(label, "sigmoid_focal_loss", "label")
    if normalizer is not None:
        normalizer = float_arg(normalizer, "sigmoid_focal_loss", "normalizer")
        if normalizer.ndim > 1:
            raise ShapeError(f"sigmoid_focal_loss: normalizer must have zero or one dimension; "
                             f"got: {list(normalizer.shape)}")
    loss = binary_cross_entropy_with_logits(x, y, reduction="none")
    pred = sigmoid(x)
    p_t = pred * y + (1 - pred) * (1 - y)
    alpha_t = alpha * y + (1 - alpha) * (1 - y)
    loss = _pow(1 - p_t, _const(gamma, x)) * (alpha_t * loss)
    if normalizer is not None:
        loss = loss / normalizer
    return _reduce(loss, reduction)


def npair_loss(anchor, positive, labels, l2_reg=0.002):
    """Softmax cross entropy of anchor . positive^T against the same-label distribution, plus
    l2_reg / 4 times the mean squared norms of anchor and positive (Paddle's npair_loss)."""
    from .loss_extra import softmax_with_cross_entropy
    a = float_arg(anchor, "npair_loss", "anchor")
    p = float_arg(positive, "npair_loss", "positive")
    if a.size == 0 or p.size == 0:
        raise ShapeError("npair_loss: anchor and positive must not be empty")
    lab = tensor_arg(labels, "npair_loss", "labels").array.reshape(-1, 1)
    same = (lab == lab.T).astype(np.float32)
    same = _wrap((same / same.sum(axis=1, keepdims=True)).astype(a.array.dtype))
    l2 = mean(_sum(square(a), 1)) + mean(_sum(square(p), 1))
    l2 = l2 * 0.25 * l2_reg
    sim = matmul(a, p, transpose_y=True)
    ce = softmax_with_cross_entropy(sim, same, soft_label=True)
    return l2 + mean(_sum(same * ce, 0))


__all__ = ["pairwise_distance", "margin_ranking_loss", "hinge_embedding_loss",
           "cosine_embedding_loss", "soft_margin_loss", "triplet_margin_loss",
           "triplet_margin_with_distance_loss", "multi_margin_loss", "multi_label_margin_loss",
           "multi_label_soft_margin_loss", "poisson_nll_loss", "gaussian_nll_loss", "log_loss",
           "dice_loss", "sigmoid_focal_loss", "npair_loss"]
