"""nn.MultiHeadAttention: q/k/v projections, scaled dot-product attention per head and an
output projection, with Paddle's sublayers, state_dict keys, masks and decoding caches."""
import collections

from ..errors import LayerArgumentError, ShapeError
from ..functional.casting import cast
from ..functional.creation import full
from ..functional.shape import concat, reshape, transpose
from ..functional.linalg import matmul
from .functional.attention import attention_weights
from .functional.common import dropout
from .layer import Layer
from .linear import Linear


def convert_attention_mask(attn_mask, dtype):
    """Paddle's mask conversion: a bool or integer mask (1/True: attend) becomes
    (mask - 1) * 1e9 in dtype, a float mask of another dtype is cast; None stays None."""
    if attn_mask is None or attn_mask.dtype == dtype:
        return attn_mask
    if attn_mask.array.dtype.kind in "biu":
        return (cast(attn_mask, dtype) - 1.0) * 1e9
    return cast(attn_mask, dtype)


def positive(layer, **sizes):
    """Paddle's asserts that each size is > 0, as a LayerArgumentError (an AssertionError)."""
    for arg, value in sizes.items():
        if not value > 0:
            raise LayerArgumentError(f"{layer}: {arg} must be greater than 0; got: {value}")


class MultiHeadAttention(Layer):
    """Multi-head attention (Vaswani et al.), as Paddle's ``nn.MultiHeadAttention``.

    Args:
        embed_dim: the query's (and output's) feature size; a multiple of num_heads.
        num_heads: the number of heads.
        dropout: dropout on the attention weights while training.
        kdim, vdim: the key's and value's feature sizes (embed_dim when None).
        need_weights: also return the attention weights [batch, heads, len_q, len_k].
        weight_attr, bias_attr: for the four Linear projections (bias_attr False: no biases).

    Call: ``forward(query, key=None, value=None, attn_mask=None, cache=None)`` on
    [batch, length, features] tensors (key and value default to query); attn_mask broadcasts
    to [batch, heads, len_q, len_k]: bool/int (True/1: attend) or float (added). With a
    ``Cache``/``StaticCache`` the updated cache is returned too: (out[, weights][, cache]).

    Example:
        >>> mha = opsdk.nn.MultiHeadAttention(8, 2)
        >>> mha(opsdk.rand([2, 4, 8])).shape
        paddle.Size([2, 4, 8])
    """

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(self, embed_dim, num_heads, dropout=0.0, kdim=None, vdim=None,
                 need_weights=False, weight_attr=None, bias_attr=None):
        super().__init__()
        positive("MultiHeadAttention", embed_dim=embed_dim, num_heads=num_heads)
        self.embed_dim = embed_dim
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self.num_heads = num_heads
        self.dropout = dropout
        self.need_weights = need_weights
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise LayerArgumentError(f"MultiHeadAttention: embed_dim must be divisible by "
                                     f"num_heads; got: embed_dim {embed_dim}, num_heads "
                                     f"{num_heads}")
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _split_heads(self, t, arg, features):
        """[batch, length, features] projected and split: [batch, heads, length, head_dim]."""
        if t.ndim != 3 or t.shape[-1] != features:
            raise ShapeError(f"MultiHeadAttention: {arg} must be [batch_size, length, "
                             f"{features}]; got: shape {list(t.shape)}")
        proj = getattr(self, f"{arg[0]}_proj")(t)
        return transpose(reshape(proj, [0, 0, self.num_heads, self.head_dim]), [0, 2, 1, 3])

    def compute_kv(self, key, value):
        """key and value projected and split into heads: two [batch, heads, length, head_dim]."""
        return (self._split_heads(key, "key", self.kdim),
                self._split_heads(value, "value", self.vdim))

    def gen_cache(self, key, value=None, type=Cache):
        """A StaticCache of compute_kv(key, value); with type Cache, Cache(key, value), or
        empty [batch, heads, 0, head_dim] tensors (key's batch and dtype) when value is None."""
        if type == MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, value))
        if value is None:
            shape = [key.shape[0], self.num_heads, 0, self.head_dim]
            return self.Cache(full(shape, 0, key.dtype), full(shape, 0, key.dtype))
        return self.Cache(key, value)

    def _prepare_qkv(self, query, key, value, cache):
        q = self._split_heads(query, "query", self.embed_dim)
        if isinstance(cache, self.StaticCache):
            k, v = cache.k, cache.v
        else:
            k, v = self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k, v = concat([cache.k, k], axis=2), concat([cache.v, v], axis=2)
            cache = self.Cache(k, v)
        return q, k, v, cache

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        key = query if key is None else key
        value = query if value is None else value
        q, k, v, cache = self._prepare_qkv(query, key, value, cache)
        mask = convert_attention_mask(attn_mask, q.dtype)
        weights = attention_weights(q, k, self.head_dim ** -0.5, mask)
        if self.dropout:
            weights = dropout(weights, self.dropout, training=self.training,
                              mode="upscale_in_train")
        out = transpose(matmul(weights, v), [0, 2, 1, 3])
        out = self.out_proj(reshape(out, [0, 0, out.shape[2] * out.shape[3]]))
        outs = [out] + [weights] * bool(self.need_weights) + [cache] * (cache is not None)
        return out if len(outs) == 1 else tuple(outs)
