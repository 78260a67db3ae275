"""nn.TransformerEncoderLayer and nn.TransformerDecoderLayer: attention and a feed-forward
block, each with a residual connection and LayerNorm (before or after, normalize_before),
sublayers and state_dict keys as Paddle's."""
import copy

from ..errors import LayerArgumentError, OpNotFoundError
from . import functional as F
from .attention import MultiHeadAttention, convert_attention_mask, positive
from .dropout import Dropout
from .layer import Layer
from .linear import Linear
from .norm import LayerNorm
from .param_attr import ParamAttr


def param_attrs(attr, n, layer):
    """weight_attr/bias_attr for n blocks: a list/tuple of n (a bool meaning default or none),
    or one attr copied n times (a named one gets suffixes _0, _1, ...), as Paddle does."""
    if isinstance(attr, (list, tuple)):
        if len(attr) != n:
            raise LayerArgumentError(f"{layer}: a list of param attrs must have {n} entries; "
                                     f"got: {len(attr)}")
        return [(ParamAttr._to_attr(None) if a else False) if isinstance(a, bool)
                else ParamAttr._to_attr(a) for a in attr]
    if isinstance(attr, bool):
        return [ParamAttr._to_attr(None) if attr else False for _ in range(n)]
    attr = ParamAttr._to_attr(attr)
    attrs = []
    for i in range(n):
        one = copy.deepcopy(attr)
        if attr.name:
            one.name = f"{attr.name}_{i}"
        attrs.append(one)
    return attrs


def activation_fn(name, layer):
    """nn.functional's activation of that name (Paddle's getattr(F, activation))."""
    fn = getattr(F, name, None) if isinstance(name, str) else None
    if fn is None:
        raise OpNotFoundError(f"{layer}: activation must name a function of "
                              f"opsdk.nn.functional such as 'relu' or 'gelu'; got: {name!r}")
    return fn


class _Block(Layer):
    """What both layers share: Paddle's constructor (the attentions named in ``_attentions``,
    then linear1, dropout, linear2, one norm and one dropout per block), the config that
    rebuilds them, the residual wrapping and the feed-forward."""

    _attentions = ()

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False, weight_attr=None,
                 bias_attr=None, layer_norm_eps=1e-5):
        config = dict(locals())
        config.pop("self")
        config.pop("__class__", None)
        super().__init__()
        name = type(self).__name__
        self._config = config
        positive(name, d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward)
        self.normalize_before = normalize_before
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        blocks = len(self._attentions) + 1
        weights = param_attrs(weight_attr, blocks, name)
        biases = param_attrs(bias_attr, blocks, name)
        for i, attn in enumerate(self._attentions):
            setattr(self, attn, MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                                   weight_attr=weights[i], bias_attr=biases[i]))
        self.linear1 = Linear(d_model, dim_feedforward, weights[-1], bias_attr=biases[-1])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weights[-1], bias_attr=biases[-1])
        for i in range(1, blocks + 1):
            setattr(self, f"norm{i}", LayerNorm(d_model, layer_norm_eps))
        for i in range(1, blocks + 1):
            setattr(self, f"dropout{i}", Dropout(dropout, mode="upscale_in_train"))
        self.activation = activation_fn(activation, name)

    def _residual(self, x, norm, drop, block):
        """norm(x + drop(block(x))), or x + drop(block(norm(x))) with normalize_before."""
        out = block(norm(x) if self.normalize_before else x)
        out = x + drop(out)
        return out if self.normalize_before else norm(out)

    def _feed_forward(self, x):
        return self.linear2(self.dropout(self.activation(self.linear1(x))))


class TransformerEncoderLayer(_Block):
    """Self-attention then a feed-forward block (linear1, activation, dropout, linear2), each
    wrapped as norm(x + dropout(block(x))) (or x + dropout(block(norm(x))) with
    normalize_before).

    Args:
        d_model, nhead, dim_feedforward: the feature size, heads and hidden size.
        dropout: on both residual branches; attn_dropout and act_dropout default to it.
        activation: a name in nn.functional ('relu', 'gelu').
        weight_attr, bias_attr: one for all, or a list of 2 (attention, feed-forward).
        layer_norm_eps: LayerNorm's epsilon.

    Example:
        >>> layer = opsdk.nn.TransformerEncoderLayer(8, 2, 16)
        >>> layer(opsdk.rand([2, 4, 8])).shape
        paddle.Size([2, 4, 8])
    """

    _attentions = ("self_attn",)

    def forward(self, src, src_mask=None, cache=None):
        """src [batch, length, d_model]; with a MultiHeadAttention.Cache: (out, new cache)."""
        src_mask = convert_attention_mask(src_mask, src.dtype)
        caches = []

        def attend(x):
            if cache is None:
                return self.self_attn(x, x, x, src_mask)
            out, new = self.self_attn(x, x, x, src_mask, cache)
            caches.append(new)
            return out

        src = self._residual(src, self.norm1, self.dropout1, attend)
        src = self._residual(src, self.norm2, self.dropout2, self._feed_forward)
        return src if cache is None else (src, caches[0])

    def gen_cache(self, src):
        """An empty self-attention Cache for incremental decoding (src: batch and dtype)."""
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


class TransformerDecoderLayer(_Block):
    """Self-attention, cross-attention on the encoder's memory, then a feed-forward block,
    each with its residual and LayerNorm (norm1, norm2, norm3) as the encoder layer's.

    Args: as TransformerEncoderLayer's; weight_attr and bias_attr may be lists of 3
    (self-attention, cross-attention, feed-forward).

    Example:
        >>> layer = opsdk.nn.TransformerDecoderLayer(8, 2, 16)
        >>> layer(opsdk.rand([2, 3, 8]), opsdk.rand([2, 5, 8])).shape
        paddle.Size([2, 3, 8])
    """

    _attentions = ("self_attn", "cross_attn")

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        """tgt [batch, len_t, d_model], memory [batch, len_s, d_model]; with cache, a
        (Cache, StaticCache) pair: (out, (new Cache, StaticCache))."""
        tgt_mask = convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = convert_attention_mask(memory_mask, memory.dtype)
        caches = []

        def attend(attn, k, mask, slot):
            def run(x):
                kv = x if k is None else k
                if cache is None:
                    return attn(x, kv, kv, mask, None)
                out, new = attn(x, kv, kv, mask, cache[slot])
                caches.append(new)
                return out
            return run

        tgt = self._residual(tgt, self.norm1, self.dropout1,
                             attend(self.self_attn, None, tgt_mask, 0))
        tgt = self._residual(tgt, self.norm2, self.dropout2,
                             attend(self.cross_attn, memory, memory_mask, 1))
        tgt = self._residual(tgt, self.norm3, self.dropout3, self._feed_forward)
        return tgt if cache is None else (tgt, tuple(caches))

    def gen_cache(self, memory):
        """(an empty self-attention Cache, the cross-attention StaticCache of memory)."""
        return (self.self_attn.gen_cache(memory, type=self.self_attn.Cache),
                self.cross_attn.gen_cache(memory, memory, type=self.cross_attn.StaticCache))
