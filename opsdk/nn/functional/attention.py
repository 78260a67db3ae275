"""F.scaled_dot_product_attention: softmax(Q K^T * scale + mask) V in Paddle's layout
[batch, seq_len, num_heads, head_dim] (or unbatched [seq_len, num_heads, head_dim]), written
with the engine's ops (the maths of Paddle's CPU 'math' backend), so gradients come from it."""
import numpy as np

from ...errors import AssertedShapeError, DTypeError, OpArgumentError, ShapeError
from ...functional.creation import full, to_tensor
from ...functional.linalg import matmul
from ...functional.logic import where
from ...functional.shape import expand, flatten, squeeze, transpose, unsqueeze
from ...functional.triangular import triu
from ._graph import float_arg
from .activation import softmax
from .common import dropout

_OP = "scaled_dot_product_attention"


def _heads(query, key, value, enable_gqa):
    """Check the head counts (axis 2) as Paddle asserts them; the key/value repeat factor."""
    q_heads, k_heads, v_heads = query.shape[2], key.shape[2], value.shape[2]
    if enable_gqa:
        if k_heads != 0 and q_heads % k_heads:
            raise AssertedShapeError(
                f"{_OP}: query's heads ({q_heads}) must be a multiple of key's ({k_heads}) "
                f"with enable_gqa")
        if k_heads != v_heads:
            raise AssertedShapeError(f"{_OP}: key and value must have as many heads; got: "
                                     f"key {k_heads}, value {v_heads}")
    elif not q_heads == k_heads == v_heads:
        raise AssertedShapeError(f"{_OP}: query, key and value must have as many heads without "
                                 f"enable_gqa; got: {q_heads}, {k_heads}, {v_heads}")
    return q_heads // k_heads if k_heads else 1


def _repeat_heads(t, repeats):
    """[b, s, h, d] -> [b, s, h * repeats, d], each head repeated in place (grouped query)."""
    if repeats == 1:
        return t
    b, s, h, d = t.shape
    return flatten(expand(unsqueeze(t, 3), [b, s, h, repeats, d]), 2, 3)


def _additive_mask(attn_mask, dtype):
    """A bool mask (True: attend) as 0 / -inf in the query's dtype; a float one as it is."""
    if attn_mask is None:
        return None
    kind = attn_mask.array.dtype
    if kind == np.bool_:
        return where(attn_mask, to_tensor(0.0, dtype=dtype), to_tensor(-np.inf, dtype=dtype))
    if kind.kind != "f":
        raise DTypeError(f"{_OP}: attn_mask must be bool or the query's dtype ({dtype}); "
                         f"got: {kind}")
    if kind != np.dtype(dtype):
        raise OpArgumentError(f"{_OP}: a float attn_mask must have the query's dtype "
                              f"({dtype}); got: {kind}")
    return attn_mask


def attention_weights(query, key, scale=None, mask=None, causal=False):
    """softmax(q k^T * scale + mask) for q [b, h, s_q, d], k [b, h, s_k, d]; causal masks the
    upper triangle with -1e4 instead (Paddle's CPU path, which then ignores ``mask``)."""
    head_dim = query.shape[-1]
    scale = scale or (head_dim ** -0.5 if head_dim else 1.0)
    product = matmul(query * scale, key, transpose_y=True)
    if causal:
        product = product + triu(full(product.shape, -1e4, product.dtype), 1)
    elif mask is not None:
        product = product + mask
    return softmax(product)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, training=True, backend=None, scale=None,
                                 enable_gqa=True, name=None):
    """Attention over [batch, seq_len, num_heads, head_dim] inputs (3-D: unbatched).

    Args:
        query: [batch, seq_q, heads_q, head_dim]; key, value: [batch, seq_k, heads_k, ...].
        attn_mask: broadcastable to [batch, heads_q, seq_q, seq_k]; bool (True: attend) or a
            float mask of the query's dtype added to the scores. Ignored when is_causal.
        dropout_p: dropout on the attention weights while ``training``.
        is_causal: mask the positions after each query's own (-1e4 added, as Paddle's CPU).
        scale: the scores' factor (1/sqrt(head_dim) when None or 0).
        enable_gqa: key/value may have fewer heads, each shared by a group of query heads.

    Returns:
        A Tensor shaped as query, but with value's head_dim.

    Example:
        >>> q = opsdk.rand([1, 4, 2, 8])
        >>> F.scaled_dot_product_attention(q, q, q, is_causal=True).shape
        paddle.Size([1, 4, 2, 8])
    """
    query = float_arg(query, _OP, "query")
    key = float_arg(key, _OP, "key")
    value = float_arg(value, _OP, "value")
    batched = query.ndim == 4
    if query.ndim not in (3, 4) or key.ndim != query.ndim or value.ndim != query.ndim:
        raise ShapeError(f"{_OP}: query, key and value must all be 4-D [batch, seq_len, "
                         f"num_heads, head_dim] or all 3-D; got: ranks {query.ndim}, "
                         f"{key.ndim}, {value.ndim}")
    if not batched:
        query, key, value = unsqueeze(query, 0), unsqueeze(key, 0), unsqueeze(value, 0)
    repeats = _heads(query, key, value, enable_gqa)
    key, value = _repeat_heads(key, repeats), _repeat_heads(value, repeats)
    mask = _additive_mask(attn_mask, query.dtype)
    q, k, v = (transpose(t, [0, 2, 1, 3]) for t in (query, key, value))
    weights = attention_weights(q, k, scale, mask, is_causal)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, training=training, mode="upscale_in_train")
    out = transpose(matmul(weights, v), [0, 2, 1, 3])
    return out if batched else squeeze(out, 0)
