"""cross_entropy with integer labels: log_softmax and the negative log-likelihood in one kernel
(a ``Rows`` op with a per-row loss and integer labels: kernels/cross_entropy.py).

Forward keeps only each row's max and log-sum; backward rebuilds the softmax from them in
one pass.
Rows whose label equals ``ignore_index`` add nothing; the mean counts them only when
ignore_index is negative (the default -100), as Paddle 3.3.1 does. When the
backward is itself recorded (create_graph=True) its rule is written with opsdk ops.
"""
import numpy

import opsdk as P
from opsdk.autograd import PyLayer
from opsdk.errors import DTypeError, OpArgumentError, ShapeError

from ..kernels.cross_entropy import CROSS_ENTROPY
from ..maths import array_module
from ._common import array_of, check_axis, creating_graph, float_input, run, tensor
from .softmax import Softmax

_OP = "nn.cross_entropy"
_REDUCTIONS = ("mean", "sum", "none")


def _labels(label, xa, axis):
    """The labels as a flat int64 array aligned with the rows of x (axis moved last)."""
    if not isinstance(label, P.Tensor):
        raise OpArgumentError(f"{_OP}: argument 'label' must be a Tensor; got: {type(label).__name__}")
    la = label._data
    if la.dtype.kind not in "iu":
        raise DTypeError(f"{_OP}: argument 'label' must hold integer class indices; expected: "
                         f"int64 or int32 (soft labels are not supported); got: {la.dtype}")
    rows_shape = xa.shape[:axis] + xa.shape[axis + 1:]
    if la.ndim == xa.ndim and la.shape[axis] == 1:
        la = la.reshape(rows_shape)
    if la.shape != rows_shape:
        raise ShapeError(f"{_OP}: 'label' must have one class index per row; expected: shape "
                         f"{list(rows_shape)} (or with a 1 at axis {axis}); got: {list(label.shape)}")
    return la.reshape(-1).astype(numpy.int64, copy=False)


def _check_range(flat, n, ignore_index):
    """Every label lies in [0, n) or equals ignore_index."""
    bad = (flat != ignore_index) & ((flat < 0) | (flat >= n))
    if bool(bad.any()):
        value = int(flat[bad][0])
        raise OpArgumentError(f"{_OP}: 'label' holds a class index out of range; expected: values "
                              f"in [0, {n}) or ignore_index ({ignore_index}); got: {value}")


class CrossEntropy(PyLayer):
    """cross_entropy(input, label): mean (or sum, or per-row) of logsumexp(input) - input[label].

    ``input`` holds logits with the classes along ``axis``; ``label`` holds int class indices
    (shape of input without that axis, or with a 1 there). Rows labelled ``ignore_index`` add
    nothing; the mean counts them when ignore_index is negative, as Paddle. Fused kernels
    (python, c, cuda: written from the row's statements), float32 and float64.
    """

    _opsdk_qualname = "nn.cross_entropy"

    @staticmethod
    def forward(ctx, input, label, ignore_index=-100, reduction="mean", axis=-1):
        xa = float_input(input, _OP, "input")
        if reduction not in _REDUCTIONS:
            raise OpArgumentError(f"{_OP}: argument 'reduction' must be one of {', '.join(_REDUCTIONS)}; "
                                  f"got: {reduction!r}")
        if xa.ndim == 0:
            raise ShapeError(f"{_OP}: 'input' must have a class axis; expected: at least 1-D; got: 0-D")
        axis = check_axis(axis, xa.ndim, _OP)
        flat = _labels(label, xa, axis)
        n = xa.shape[axis]
        _check_range(flat, n, ignore_index)
        moved = xa if axis == xa.ndim - 1 else array_module(xa).moveaxis(xa, axis, -1)
        x2 = moved.reshape(-1, n)
        loss, rowmax, logsum = run(CROSS_ENTROPY.forward_kernel, x2, flat, ignore_index=int(ignore_index))
        keep = flat != ignore_index
        # the mean's count, as Paddle 3.3.1's: the rows kept, except that a negative ignore_index
        # (the default -100) leaves the ignored rows in it
        count = int(keep.sum()) if ignore_index >= 0 else int(keep.size)
        ctx.save_for_backward(input)  # backward rereads the logits: in-place changes are caught
        ctx.x2, ctx.flat, ctx.keep, ctx.count = x2, flat, keep, count
        ctx.rowmax, ctx.logsum = rowmax, logsum
        ctx.moved_shape, ctx.axis, ctx.ignore, ctx.reduction = moved.shape, axis, int(ignore_index), reduction
        ctx.label_shape = tuple(label.shape)
        if reduction == "none":
            return tensor(loss.reshape(ctx.label_shape))
        total = loss.sum(dtype=loss.dtype)
        # a mean over no counted row is 0, as Paddle divides by max(count, 1)
        value = total / loss.dtype.type(max(count, 1)) if reduction == "mean" else total
        return tensor(array_module(xa).asarray(value, dtype=xa.dtype))

    @staticmethod
    def backward(ctx, dloss):
        if creating_graph():
            return _differentiable_grad(ctx, dloss), None
        x2 = ctx.x2
        g = array_of(dloss).astype(x2.dtype, copy=False).reshape(-1)
        if ctx.reduction == "mean":
            g = g / x2.dtype.type(ctx.count) if ctx.count else g * 0
        xp = array_module(x2)
        g = xp.ascontiguousarray(xp.broadcast_to(g, x2.shape[:1]))  # one gradient per row
        dx = run(CROSS_ENTROPY.backward_kernel, x2, ctx.flat, ctx.rowmax, ctx.logsum, g, ignore_index=ctx.ignore)
        return tensor(_unmove(dx.reshape(ctx.moved_shape), ctx.axis)), None


def _unmove(array, axis):
    """Put the class axis back where the caller had it."""
    if axis == array.ndim - 1:
        return array
    return array_module(array).ascontiguousarray(array_module(array).moveaxis(array, -1, axis))


def _differentiable_grad(ctx, dloss):
    """The backward rule in opsdk ops, for create_graph=True: (softmax - onehot) * row grads."""
    x2 = ctx.x2
    rows, n = x2.shape
    xp = array_module(x2)
    (logits,) = ctx.saved_tensor()
    last = ctx.axis == len(ctx.moved_shape) - 1
    moved = logits if last else P.moveaxis(logits, ctx.axis, -1)
    p = Softmax.apply(P.reshape(moved, [rows, n]), -1)
    onehot = xp.zeros((rows, n), x2.dtype)
    safe = xp.where(ctx.keep, ctx.flat, 0)
    if rows and n:
        onehot[xp.arange(rows), safe] = 1
    mask = ctx.keep.astype(x2.dtype)
    if ctx.reduction == "none":
        scale = P.reshape(dloss, [rows, 1]) * tensor(mask.reshape(rows, 1))
    else:
        per_row = mask / x2.dtype.type(ctx.count) if ctx.reduction == "mean" and ctx.count else mask
        scale = P.reshape(dloss, [1, 1]) * tensor(per_row.reshape(rows, 1))
    dx = (p - tensor(onehot)) * scale
    dx = P.reshape(dx, list(ctx.moved_shape))
    return dx if last else P.moveaxis(dx, -1, ctx.axis)
