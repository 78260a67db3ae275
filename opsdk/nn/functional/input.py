"""embedding: look up rows of a weight matrix by integer ids."""
import numpy as np

from ...autograd.record import record
from ...errors import ArgumentCombinationError, DTypeError, NoKernelDTypeError, OpArgumentError
from ...functional import maths
from ...functional.indexing import getitem, index_add_into, one_hot
from ...functional.creation import to_tensor as opsdk_tensor
from ...functional.shape import reshape
from ..sparse_grad import SparseRowGrad, coalesce_rows
from ._graph import float_arg, tensor_arg


def _padding(padding_idx, n):
    if padding_idx is None:
        return None
    p = int(padding_idx)
    if not -n <= p < n:
        raise OpArgumentError(f"embedding: padding_idx must lie in [-{n}, {n}); got: {p}")
    return p + n if p < 0 else p


def embedding(x, weight, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False,
              scale_grad_by_freq=False, name=None):
    """Rows of ``weight`` picked by the integer ids in ``x``: out[..., :] = weight[x[...], :].

    The gradient of weight is zero outside the looked-up rows; rows looked up several times
    add their gradients. Ids equal to padding_idx give zero vectors and no gradient.

    Args:
        x: int32/int64 Tensor of ids in [0, num_embeddings).
        weight: float Tensor [num_embeddings, embedding_dim].
        padding_idx: an id (negative counts from the end) whose output is zero and whose row
            gets no gradient.
        max_norm: rescale, in place and outside the graph, the looked-up rows of weight whose
            ``norm_type``-norm exceeds it (``embedding_renorm_``) before the lookup.
        norm_type: the p of that norm.
        sparse: leave a row-sparse gradient (``opsdk.nn.SparseRowGrad``) in weight.grad
            instead of a dense one; the optimizers apply it row by row.
        scale_grad_by_freq: divide each looked-up row's gradient by how often its id occurs
            in x (not with sparse, as in Paddle).

    Returns:
        A Tensor of shape x.shape + [embedding_dim].

    Example:
        >>> w = opsdk.create_parameter([10, 4], "float32")
        >>> F.embedding(opsdk.to_tensor([[1, 3]]), w).shape
        paddle.Size([1, 2, 4])
    """
    ids_t = tensor_arg(x, "embedding", "x")
    w = float_arg(weight, "embedding", "weight")
    ids = ids_t.array
    if ids.dtype not in (np.int32, np.int64):
        raise NoKernelDTypeError(f"embedding: argument 'x' must hold integer ids of Paddle's "
                                    f"kernel dtypes; expected: int32 or int64; got: {ids.dtype}")
    wd = w.array
    if wd.ndim < 2:
        raise OpArgumentError(f"embedding: argument 'weight' must be [num_embeddings, dim]; "
                              f"got: shape {list(wd.shape)}")
    n = wd.shape[0]
    pad = _padding(padding_idx, n)
    flat = ids.reshape(-1)
    if flat.size and (flat.min() < 0 or flat.max() >= n):
        raise OpArgumentError(f"embedding: ids must lie in [0, {n}); got: min {int(flat.min())}, "
                              f"max {int(flat.max())}")
    if scale_grad_by_freq and sparse:
        raise ArgumentCombinationError("embedding: scale_grad_by_freq=True is not supported "
                                       "with sparse=True (as in Paddle); pass one of them")
    if max_norm and wd.size:
        embedding_renorm_(ids_t, w, max_norm, norm_type)
        wd = w.array
    row_shape = wd.shape[1:]
    out = wd[flat]
    keep = None
    if pad is not None:
        keep = flat != pad
        out[~keep] = 0
    out = out.reshape(ids.shape + row_shape)
    freq = None
    if scale_grad_by_freq and flat.size:
        _, where_, counts = np.unique(flat, return_inverse=True, return_counts=True)
        freq = (1.0 / counts[where_.reshape(-1)]).astype(wd.dtype)
    # a row-sparse gradient only for a leaf weight (what an optimizer applies row by row)
    sparse = bool(sparse) and w._node is None
    return record("embedding", out, (w,), _EMBEDDING, (flat, keep, wd.shape, sparse, freq))


def embedding_renorm_(x, weight, max_norm, norm_type=2.0):
    """The rows of ``weight`` that the ids in ``x`` look up, each whose ``norm_type``-norm
    exceeds ``max_norm`` scaled in place by max_norm / (norm + 1e-7), as Paddle's helper of
    the same name (behind ``max_norm``); no graph is recorded. Returns weight.

    Example:
        >>> w = opsdk.to_tensor([[3.0, 4.0], [0.3, 0.4]])
        >>> F.embedding_renorm_(opsdk.to_tensor([0, 1]), w, 1.0).numpy().round(4).tolist()
        [[0.6, 0.8], [0.3, 0.4]]
    """
    from ...autograd.grad_mode import no_grad
    ids = tensor_arg(x, "embedding_renorm_", "x").array
    w = float_arg(weight, "embedding_renorm_", "weight")
    if ids.dtype.kind not in "iu":
        raise DTypeError(f"embedding_renorm_: argument 'x' must hold integer ids; got: "
                         f"{ids.dtype}")
    rows = np.unique(ids)
    picked = w.array[rows]
    p = float(norm_type)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if p == 2.0:
            norm = np.sqrt(np.sum(picked * picked, axis=1, keepdims=True))
        else:
            norm = np.sum(np.abs(picked) ** p, axis=1, keepdims=True) ** (1.0 / p)
        scale = np.where(norm > max_norm, max_norm / (norm + 1e-7), 1.0).astype(picked.dtype)
    with no_grad():
        w[opsdk_tensor(rows)] = opsdk_tensor(picked * scale)
    return w


def _embedding_grad(g, flat, keep, shape, sparse, freq):
    """The looked-up rows of g (each divided by its id's count with scale_grad_by_freq) added
    into zeros of the weight's shape (padding rows left out).

    On arrays by sorting the ids (faster than adding one row at a time), or, with sparse, as a
    SparseRowGrad (one row per looked-up id, padding ids with zeros, as Paddle's SelectedRows)
    that the engine adds into weight.grad without densifying; on Tensors with graph ops."""
    k, row_shape = flat.size, shape[1:]
    rows = flat if keep is None else flat[keep]
    if freq is not None:
        freq = freq.reshape((k,) + (1,) * len(row_shape))
    if maths.is_tensor(g):
        g2 = reshape(g, [k] + list(row_shape))
        if freq is not None:
            g2 = g2 * freq
        return index_add_into(g2 if keep is None else getitem(g2, keep), (rows,), shape, False)
    values = g.reshape((k,) + row_shape)
    if freq is not None:
        values = values * freq
    if sparse:
        if keep is not None:
            values = values * keep.reshape((k,) + (1,) * len(row_shape)).astype(values.dtype)
        return SparseRowGrad(flat, values, shape)
    dense = np.zeros(shape, dtype=g.dtype)
    r, v = coalesce_rows(rows, values if keep is None else values[keep])
    dense[r] = v
    return dense


_EMBEDDING = (_embedding_grad,)


__all__ = ["embedding", "one_hot"]
