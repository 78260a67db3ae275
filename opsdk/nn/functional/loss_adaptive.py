"""adaptive_log_softmax_with_loss (Grave et al., 2017): a head softmax over the frequent
classes and one entry per tail cluster, each cluster its own two-layer projection and softmax;
as Paddle 3.3.1 composes it, from opsdk ops."""
import numpy as np

from ...errors import OpArgumentError, ShapeError
from ...functional.along_axis import take_along_axis
from ...functional.linalg import matmul
from ...functional.reduction import mean
from ...functional.shape import reshape
from ...tensor import _wrap
from ._graph import float_arg, tensor_arg
from .activation import log_softmax
from .common import linear


def adaptive_log_softmax_with_loss(input, label, head_weight, tail_weights, cutoffs,
                                   head_bias=None, name=None):
    """(the log-probability of each sample's label, the mean negative of them).

    Args:
        input: [N, in_features] (or [in_features] with a 0-d label).
        label: [N] int class ids in [0, n_classes).
        head_weight: [in_features, cutoffs[0] + number of clusters]; head_bias its bias.
        tail_weights: per cluster [projection [in_features, h], output [h, cluster size]].
        cutoffs: the class boundaries, ending with n_classes (as the layer keeps them).
    """
    op = "adaptive_log_softmax_with_loss"
    x = float_arg(input, op, "input")
    lab = tensor_arg(label, op, "label")
    if lab.ndim == 1:
        if x.ndim != 2 or (x.shape[0] != lab.shape[0] and lab.shape[0] != 0):
            raise ShapeError(f"{op}: expected input [N, in_features] and label [N]; got: "
                             f"{list(x.shape)} and {list(lab.shape)}")
    elif lab.ndim == 0:
        if x.ndim != 1:
            raise ShapeError(f"{op}: a 0-d label needs a 1-D input; got: {list(x.shape)}")
    else:
        raise ShapeError(f"{op}: label must be 0-D or 1-D; got: {list(lab.shape)}")
    batched = lab.ndim > 0
    if not batched:
        x = x.unsqueeze(0)
    ids = lab.array.reshape(-1).astype(np.int64)
    n = ids.shape[0]
    bounds = [0, *[int(c) for c in cutoffs]]
    gather = ids.copy()
    output = None
    used = 0
    for i in range(len(bounds) - 1):
        rows = np.nonzero((ids >= bounds[i]) & (ids < bounds[i + 1]))[0]
        used += rows.size
        if i == 0 or rows.size == 0:
            continue
        gather[rows] = bounds[1] + i - 1
        proj, out_w = tail_weights[i - 1]
        logp = log_softmax(linear(linear(x[rows], proj), out_w), axis=1)
        local = take_along_axis(logp, _wrap((ids[rows] - bounds[i]).reshape(-1, 1)), 1)
        place = np.zeros((n, rows.size), dtype=x.array.dtype)  # each row's value to its sample
        place[rows, np.arange(rows.size)] = 1
        part = reshape(matmul(_wrap(place), local), [n])
        output = part if output is None else output + part
    if used != n:
        raise OpArgumentError(f"{op}: label values must lie in [0, {bounds[-1] - 1}]; got: "
                              f"values in [{ids.min()}, {ids.max()}]")
    head = log_softmax(linear(x, head_weight, head_bias), axis=1)
    picked = reshape(take_along_axis(head, _wrap(gather.reshape(-1, 1)), 1), [n])
    output = picked if output is None else output + picked
    loss = mean(-output)
    return (output if batched else reshape(output, [])), loss


__all__ = ["adaptive_log_softmax_with_loss"]
