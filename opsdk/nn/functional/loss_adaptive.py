"""The tree-structured softmax losses, composed of opsdk ops: adaptive_log_softmax_with_loss
(Grave et al., 2017: a head softmax over the frequent classes and one entry per tail cluster,
each cluster its own two-layer projection and softmax), as Paddle 3.3.1 composes it; and
hsigmoid_loss (the hierarchical sigmoid over a binary tree of classes), as Paddle's kernel
computes it."""
import numpy as np

from ...errors import OpArgumentError, ShapeError
from ...functional.along_axis import take_along_axis
from ...functional.elementwise import clip, exp, log, where
from ...functional.linalg import matmul
from ...functional.reduction import mean, sum as _sum
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


def _default_paths(ids, num_classes):
    """Paddle's default tree: class c's code is c + num_classes; step j goes through node
    (code >> (j + 1)) - 1 with bit (code >> j) & 1, for the code's bit length - 1 steps; the
    table is as wide as the bit length of num_classes - 1."""
    width = int(num_classes - 1).bit_length()
    code = ids + num_classes
    j = np.arange(width)
    length = np.array([int(c).bit_length() - 1 for c in code])
    mask = j[None, :] < length[:, None]
    nodes = np.where(mask, (code[:, None] >> (j + 1)) - 1, 0)
    bits = np.where(mask, (code[:, None] >> j) & 1, 0)
    return nodes, bits, mask


def hsigmoid_loss(input, label, num_classes, weight, bias=None, path_table=None,
                  path_code=None, is_sparse=False, name=None):
    """The hierarchical sigmoid loss [N, 1]: along each label's path of tree nodes, with
    p = clip(x . weight[node] + bias[node], -40, 40), the sum of log(1 + e^p) - bit p (the
    clip, as in Paddle, bounds the value and leaves the gradient alone).

    The default tree is Paddle's complete binary one over num_classes (weight [C - 1, D]); a
    custom one gives path_table (node ids, -1 after the path's end) and path_code (bits). As in
    Paddle, each unused place of the table (shorter paths) adds log 2. is_sparse is accepted
    and unused (gradients are dense).
    """
    op = "hsigmoid_loss"
    x = float_arg(input, op, "input")
    w = float_arg(weight, op, "weight")
    ids = tensor_arg(label, op, "label").array.reshape(-1).astype(np.int64)
    if x.ndim != 2 or ids.shape[0] != x.shape[0] or w.ndim != 2 or w.shape[1] != x.shape[1]:
        raise ShapeError(f"{op}: expected input [N, D], label [N] (or [N, 1]) and weight "
                         f"[nodes, D]; got: {list(x.shape)}, {list(tensor_arg(label, op).shape)}"
                         f", {list(w.shape)}")
    if (path_table is None) != (path_code is None):
        raise OpArgumentError(f"{op}: path_table and path_code go together; got only one")
    if path_table is None:
        if ids.size and (ids.min() < 0 or ids.max() >= num_classes):
            raise OpArgumentError(f"{op}: labels must lie in [0, {num_classes}); got: values in "
                                  f"[{ids.min()}, {ids.max()}]")
        nodes, bits, mask = _default_paths(ids, num_classes)
    else:
        table = tensor_arg(path_table, op, "path_table").array.astype(np.int64)
        codes = tensor_arg(path_code, op, "path_code").array.astype(np.int64)
        mask = np.cumprod(table >= 0, axis=1).astype(bool)
        nodes, bits = np.where(mask, table, 0), np.where(mask, codes, 0)
    if nodes.size and nodes[mask].size and nodes[mask].max() >= w.shape[0]:
        raise OpArgumentError(f"{op}: the paths reach node {nodes[mask].max()}, weight has "
                              f"{w.shape[0]} rows")
    n, width = nodes.shape
    flat = nodes.reshape(-1)
    rows = reshape(w[flat], [n, width, x.shape[1]])
    pre = _sum(rows * x.unsqueeze(1), axis=-1)
    if bias is not None:
        pre = pre + reshape(float_arg(bias, op, "bias").reshape([-1])[flat], [n, width])
    # clipped to [-40, 40] in value only: Paddle's gradient passes the clip unchanged
    pre = pre + (clip(pre, -40.0, 40.0) - pre).detach()
    pre = where(_wrap(mask), pre, pre * 0.0)
    loss = log(1 + exp(pre)) - pre * _wrap(bits.astype(x.array.dtype))
    return _sum(loss, axis=1, keepdim=True)


__all__ += ["hsigmoid_loss"]
