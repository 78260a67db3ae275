"""Losses: cross_entropy (hard/soft labels, ignore_index, weights, label smoothing), mse_loss.

Each is one graph op. cross_entropy works on log-softmax computed with the log-sum-exp shift,
so large logits never overflow; its gradient is softmax - target, scaled per sample.
"""
import numpy as np

from types import SimpleNamespace

from ...amp.state import keep_float32
from ...autograd.record import record
from ...errors import DTypeError, IndexOutOfRangeError, OpArgumentError, ShapeError
from ...functional import maths
from ...functional.operands import check_broadcast
from ...functional.reduction import sum as _sum
from ...functional.shape import moveaxis, reshape
from ...tensor import _wrap
from ._graph import float_arg, tensor_arg
from .activation import log_softmax_array, softmax

_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(reduction, op):
    if reduction not in _REDUCTIONS:
        raise OpArgumentError(f"{op}: argument 'reduction' must be one of {_REDUCTIONS}; "
                              f"got: {reduction!r}")


class _Targets:
    """What cross_entropy needs about the labels, in the (M, C) classes-last layout."""

    def __init__(self, lab, xshape, ax, soft_label, ignore_index, label_smoothing, dtype):
        nd = len(xshape)
        c = xshape[ax]
        lead = xshape[:ax] + xshape[ax + 1:]
        m = int(np.prod(lead, dtype=np.int64))
        ld = lab.array
        self.valid = None      # per-row mask of rows that count (hard labels only)
        self.index = None      # per-row class index (hard labels without smoothing)
        self.matrix = None     # (M, C) target probabilities (soft labels or smoothing)
        if label_smoothing and not soft_label and ld.ndim == nd and ld.shape[ax] == c != 1:
            # Paddle: with smoothing, a label with the class axis is a distribution (one-hot)
            soft_label, ld = True, ld.astype(dtype)
        if soft_label:
            if ld.dtype.kind != "f":
                raise DTypeError(f"cross_entropy: soft_label=True needs float labels (class "
                                 f"probabilities); got: {ld.dtype}")
            if tuple(ld.shape) != tuple(xshape):
                raise ShapeError(f"cross_entropy: soft labels must have the input's shape; "
                                 f"expected: {list(xshape)}; got: {list(ld.shape)}")
            self.matrix = np.moveaxis(ld, ax, -1).reshape(m, c).astype(dtype, copy=False)
            self.squeeze = False
        else:
            if ld.dtype.kind == "f":
                # Paddle 3.3.1 takes float hard labels, truncated to class indices (1.7 is 1)
                ld = ld.astype(np.int64)
            if ld.dtype.kind not in "iu":
                raise DTypeError(f"cross_entropy: hard labels must be integer class indices; "
                                 f"got: {ld.dtype} (pass soft_label=True for probabilities)")
            self.squeeze = ld.ndim == nd - 1
            if self.squeeze:
                ok = tuple(ld.shape) == tuple(lead)
            else:
                ok = ld.ndim == nd and ld.shape[ax] == 1 and (
                    tuple(ld.shape[:ax] + ld.shape[ax + 1:]) == tuple(lead))
            if not ok:
                raise ShapeError(f"cross_entropy: labels must have the input's shape without the "
                                 f"class axis (or with it of size 1); expected: {list(lead)}; "
                                 f"got: {list(ld.shape)}")
            y = (ld if self.squeeze else np.moveaxis(ld, ax, -1)).reshape(-1).astype(np.int64)
            valid = y != ignore_index
            bad = valid & ((y < 0) | (y >= c))
            if bad.any():
                # Paddle: "(OutOfRange) label value should less than ...", an IndexError
                raise IndexOutOfRangeError(f"cross_entropy: labels must lie in [0, {c}) or "
                                           f"equal ignore_index={ignore_index}; got: "
                                           f"{int(y[bad][0])}")
            self.valid = valid
            self.index = np.where(valid, y, 0)
        if label_smoothing:
            if not 0.0 <= label_smoothing <= 1.0:
                raise OpArgumentError(f"cross_entropy: label_smoothing must lie in [0, 1]; got: "
                                      f"{label_smoothing}")
            if self.matrix is None:
                self.matrix = np.zeros((m, c), dtype=dtype)
                self.matrix[np.arange(m), self.index] = 1.0
                self.index = None
            self.matrix = (self.matrix * (1.0 - label_smoothing) + label_smoothing / c).astype(
                dtype, copy=False)
        self.m, self.c, self.lead = m, c, list(lead)

    def row_weights(self, weight, dtype):
        """Per-row weight: weight[label] (hard) or label . weight (soft); 0 for ignored rows."""
        if weight is None:
            w = np.ones(self.m, dtype=dtype)
        elif self.index is not None:
            w = weight[self.index].astype(dtype, copy=False)
        else:
            w = (self.matrix @ weight).astype(dtype, copy=False)
        if self.valid is not None:
            w = w * self.valid
        return w

    def dense(self):
        """The (M, C) target matrix (one-hot for hard labels)."""
        if self.matrix is not None:
            return self.matrix if self.valid is None else self.matrix * self.valid[:, None]
        t = np.zeros((self.m, self.c), dtype=np.float64)
        t[np.arange(self.m), self.index] = self.valid
        return t


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean",
                  soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
    """Cross entropy between logits (or probabilities) and class labels, as Paddle computes it.

    Args:
        input: float logits [..., C, ...] with the classes on ``axis`` (probabilities when
            use_softmax=False).
        label: int64 class indices shaped like input without the class axis (or with it of
            size 1), or float probabilities shaped like input when soft_label=True.
        weight: optional float Tensor [C] of per-class weights.
        ignore_index: hard-label value whose samples count for nothing.
        reduction: 'mean' (divided by the summed weights of counted samples), 'sum' or 'none'.
        soft_label: labels are probability distributions.
        axis: the class axis.
        use_softmax: apply log-softmax to input (False: input already holds probabilities).
        label_smoothing: mix the targets with the uniform distribution by this amount.

    Returns:
        A 0-d Tensor ('mean'/'sum') or per-sample losses ('none'). Only input gets a
        gradient; labels (soft ones included) never do, as in Paddle.

    Example:
        >>> logits = opsdk.to_tensor([[2.0, 0.5, -1.0]], stop_gradient=False)
        >>> F.cross_entropy(logits, opsdk.to_tensor([0])).backward()
    """
    _check_reduction(reduction, "cross_entropy")
    x = keep_float32(float_arg(input, "cross_entropy", "input"), "cross_entropy")
    lab = tensor_arg(label, "cross_entropy", "label")
    xd = x.array
    if xd.ndim == 0:
        raise ShapeError("cross_entropy: input must have a class axis; got: a 0-d tensor")
    ax = axis % xd.ndim
    dtype = xd.dtype
    tg = _Targets(lab, xd.shape, ax, soft_label, ignore_index, label_smoothing, dtype)
    wd = None
    if weight is not None:
        wd = tensor_arg(weight, "cross_entropy", "weight").array
        if wd.shape != (tg.c,):
            raise ShapeError(f"cross_entropy: weight must have one entry per class; expected: "
                             f"[{tg.c}]; got: {list(wd.shape)}")
    moved = np.moveaxis(xd, ax, -1)
    xm = moved.reshape(tg.m, tg.c)
    if use_softmax:
        logp = log_softmax_array(xm, -1)
    else:
        with np.errstate(divide="ignore"):
            logp = np.log(xm)
    rows = np.arange(tg.m)
    if tg.index is not None:
        nll = -logp[rows, tg.index]
    else:
        nll = -(tg.dense() * logp).sum(axis=-1)
    w = tg.row_weights(wd, dtype)
    per = (nll * w).astype(dtype, copy=False)
    if reduction == "none":
        out_shape = tg.lead if tg.squeeze else list(xd.shape[:ax]) + [1] + list(xd.shape[ax + 1:])
        out = per.reshape(out_shape)
        scale = None
    else:
        if reduction == "sum":
            scale = 1.0
        else:
            # Paddle 3.3.1's mean: over the weights of the counted rows; without weights, over
            # the rows not ignored, except that a negative ignore_index (the default -100)
            # leaves the ignored rows in the count
            counted = wd is not None or (tg.valid is not None and ignore_index >= 0)
            denom = float(w.sum()) if counted else float(tg.m)
            scale = 1.0 / denom if denom != 0 else 0.0
        out = np.asarray(per.sum() * scale, dtype=dtype)
    plan = SimpleNamespace(tg=tg, w=w, scale=scale, logp=logp, xm=xm, rows=rows, ax=ax,
                           moved=moved.shape, dtype=dtype, use_softmax=use_softmax)
    return record("cross_entropy", out, (x,), _CROSS_ENTROPY, (x, plan))


def _cross_entropy_grad(g, x, p):
    """Per sample, c (g times the sample's weight) times softmax(x) * sum(t) - t (use_softmax)
    or -t / x. On arrays from the forward's log-probabilities, hard labels as indices; on
    Tensors from x with graph ops (differentiable again)."""
    tg, dtype = p.tg, p.dtype
    if maths.is_tensor(g):
        c = reshape(g, [tg.m]) * _wrap(p.w) if p.scale is None else g * _wrap(p.w * p.scale)
        c = reshape(c, [tg.m, 1])
        t = _wrap(tg.dense().astype(dtype, copy=False))
        x2 = reshape(moveaxis(x, p.ax, -1), [tg.m, tg.c])
        if p.use_softmax:
            gx2 = softmax(x2, axis=-1) * (c * _sum(t, axis=-1, keepdim=True)) - t * c
        else:
            gx2 = -(t * c) / x2
        return moveaxis(reshape(gx2, list(p.moved)), -1, p.ax)
    c = g.reshape(tg.m) * p.w if p.scale is None else p.w * (g * p.scale)
    c = c.astype(dtype, copy=False)
    if p.use_softmax:
        gx = np.exp(p.logp)
        if tg.index is not None:
            gx *= c[:, None]
            gx[p.rows, tg.index] -= c
        else:
            t = tg.dense()
            gx *= (c * t.sum(axis=-1))[:, None]
            gx -= t * c[:, None]
    elif tg.index is not None:
        gx = np.zeros_like(p.xm)
        gx[p.rows, tg.index] = -c / p.xm[p.rows, tg.index]
    else:
        gx = -(tg.dense() * c[:, None]) / p.xm
    return np.moveaxis(gx.astype(dtype, copy=False).reshape(p.moved), -1, p.ax)


_CROSS_ENTROPY = (_cross_entropy_grad,)


def mse_loss(input, label, reduction="mean", name=None):
    """Mean squared error: reduce((input - label) ** 2).

    Args:
        input: float Tensor.
        label: float Tensor of the same (or a broadcastable) shape.
        reduction: 'mean', 'sum' or 'none'.

    Returns:
        A 0-d Tensor ('mean'/'sum') or the elementwise squared errors ('none').

    Example:
        >>> F.mse_loss(opsdk.to_tensor([1.0, 3.0]), opsdk.to_tensor([0.0, 0.0])).item()
        5.0
    """
    _check_reduction(reduction, "mse_loss")
    xi, yi = tensor_arg(input, "mse_loss", "input"), tensor_arg(label, "mse_loss", "label")
    if xi.array.dtype.kind in "iu" and xi.array.dtype == yi.array.dtype:
        # Paddle 3.3.1 computes an integer mse_loss in the integers (its mean truncates)
        from ...functional.reduction import mean as _mean
        check_broadcast("mse_loss", xi.array, yi.array)
        d = xi - yi
        sq = d * d
        return sq if reduction == "none" else _sum(sq) if reduction == "sum" else _mean(sq)
    x = keep_float32(float_arg(input, "mse_loss", "input"), "mse_loss")
    y = keep_float32(float_arg(label, "mse_loss", "label"), "mse_loss")
    xd, yd = x.array, y.array
    check_broadcast("mse_loss", xd, yd)
    diff = xd - yd
    sq = diff * diff
    if reduction == "none":
        out, scale = sq, None
    elif reduction == "sum":
        out, scale = np.asarray(sq.sum()), 1.0
    else:
        out, scale = np.asarray(sq.mean(), dtype=sq.dtype), 1.0 / max(sq.size, 1)
    # gradients of the broadcast shape: the recorder sums them back to each operand's
    factor = 2.0 if scale is None else 2.0 * scale
    return record("mse_loss", out, (x, y), _MSE, (x, y, factor), broadcast=True)


_MSE = (lambda g, x, y, factor: (x - y) * (g * factor),
        lambda g, x, y, factor: -((x - y) * (g * factor)))


__all__ = ["cross_entropy", "mse_loss"]
