"""embedding: look up rows of a weight matrix by integer ids."""
import numpy as np

from ...errors import DTypeError, OpArgumentError
from ...functional.indexing import getitem, index_add_into, one_hot
from ...functional.record import record
from ...functional.shape import reshape
from ...tensor import _wrap
from ..sparse_grad import SparseRowGrad, coalesce_rows
from ._graph import float_arg, tensor_arg, wants_grad


def _padding(padding_idx, n):
    if padding_idx is None:
        return None
    p = int(padding_idx)
    if not -n <= p < n:
        raise OpArgumentError(f"embedding: padding_idx must lie in [-{n}, {n}); got: {p}")
    return p + n if p < 0 else p


def embedding(x, weight, padding_idx=None, sparse=False, name=None):
    """Rows of ``weight`` picked by the integer ids in ``x``: out[..., :] = weight[x[...], :].

    The gradient of weight is zero outside the looked-up rows; rows looked up several times
    add their gradients. Ids equal to padding_idx give zero vectors and no gradient.

    Args:
        x: int32/int64 Tensor of ids in [0, num_embeddings).
        weight: float Tensor [num_embeddings, embedding_dim].
        padding_idx: an id (negative counts from the end) whose output is zero and whose row
            gets no gradient.
        sparse: leave a row-sparse gradient (``opsdk.nn.SparseRowGrad``) in weight.grad
            instead of a dense one; the optimizers apply it row by row.

    Returns:
        A Tensor of shape x.shape + [embedding_dim].

    Example:
        >>> w = opsdk.create_parameter([10, 4], "float32")
        >>> F.embedding(opsdk.to_tensor([[1, 3]]), w).shape
        [1, 2, 4]
    """
    ids_t = tensor_arg(x, "embedding", "x")
    w = float_arg(weight, "embedding", "weight")
    ids = ids_t._data
    if ids.dtype.kind not in "iu":
        raise DTypeError(f"embedding: argument 'x' must hold integer ids; expected: int32 or "
                         f"int64; got: {ids.dtype}")
    wd = w._data
    if wd.ndim < 2:
        raise OpArgumentError(f"embedding: argument 'weight' must be [num_embeddings, dim]; "
                              f"got: shape {list(wd.shape)}")
    n = wd.shape[0]
    pad = _padding(padding_idx, n)
    flat = ids.reshape(-1)
    if flat.size and (flat.min() < 0 or flat.max() >= n):
        raise OpArgumentError(f"embedding: ids must lie in [0, {n}); got: min {int(flat.min())}, "
                              f"max {int(flat.max())}")
    row_shape = wd.shape[1:]
    out = wd[flat]
    keep = None
    if pad is not None:
        keep = flat != pad
        out[~keep] = 0
    out = out.reshape(ids.shape + row_shape)
    if not wants_grad(w):
        return _wrap(out)
    k = flat.size
    rows = flat if keep is None else flat[keep]

    def values(g):
        g2 = g.reshape((k,) + row_shape)
        return g2 if keep is None else g2[keep]

    def values_t(g):
        g2 = reshape(g, [k] + list(row_shape))
        return g2 if keep is None else getitem(g2, keep)

    def vjp(g):
        return (index_add_into(values_t(g), (rows,), wd.shape, False),)

    if sparse and w._node is None:
        # first-order backward hands the engine the looked-up rows only; it adds them into
        # weight.grad without densifying (create_graph gets the dense, differentiable vjp).
        # One row per looked-up id, as Paddle's SelectedRows: padding ids stay, with zeros.
        def sparse_rows(g):
            vals = g.reshape((k,) + row_shape)
            if keep is not None:
                vals = vals * keep.reshape((k,) + (1,) * len(row_shape)).astype(vals.dtype)
            return (SparseRowGrad(flat, vals, wd.shape),)
        return record("embedding", out, (w,), vjp, sparse_rows)

    def fast(g):
        dense = np.zeros(wd.shape, dtype=g.dtype)
        r, v = coalesce_rows(rows, values(g))
        dense[r] = v
        return (dense,)
    return record("embedding", out, (w,), vjp, fast)


__all__ = ["embedding", "one_hot"]
