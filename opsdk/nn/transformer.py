"""nn.TransformerEncoder, nn.TransformerDecoder (stacks of layers, an optional final norm)
and nn.Transformer (encoder + decoder), as Paddle's."""
import numpy as np

from ..dtypes import get_default_dtype
from ..errors import LayerArgumentError
from ..functional.creation import full
from ..functional.triangular import triu
from ..tensor import Tensor
from .attention import convert_attention_mask, positive
from .container import LayerList
from .layer import Layer
from .norm import LayerNorm
from .transformer_layers import TransformerDecoderLayer, TransformerEncoderLayer


def _stack(stack, layer, num_layers, norm):
    """Give stack its layers: the given one, then num_layers - 1 new ones built from its
    constructor arguments (fresh parameters: Paddle rebuilds them from ``_config`` rather than
    copying), and the final norm (None: none)."""
    stack.layers = LayerList([layer if i == 0 else type(layer)(**layer._config)
                              for i in range(num_layers)])
    stack.num_layers = num_layers
    stack.norm = norm


class TransformerEncoder(Layer):
    """num_layers encoder layers applied in turn, then ``norm`` when given.

    Example:
        >>> layer = opsdk.nn.TransformerEncoderLayer(8, 2, 16)
        >>> opsdk.nn.TransformerEncoder(layer, 2)(opsdk.rand([2, 4, 8])).shape
        paddle.Size([2, 4, 8])
    """

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        _stack(self, encoder_layer, num_layers, norm)

    def forward(self, src, src_mask=None, cache=None):
        """With cache (a list, one Cache per layer): (out, the list of new caches)."""
        src_mask = convert_attention_mask(src_mask, src.dtype)
        output, new_caches = src, []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, src_mask=src_mask)
            else:
                output, new = layer(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(new)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src):
        """One empty Cache per layer."""
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoder(Layer):
    """num_layers decoder layers applied in turn on (tgt, memory), then ``norm`` when given.

    Example:
        >>> layer = opsdk.nn.TransformerDecoderLayer(8, 2, 16)
        >>> dec = opsdk.nn.TransformerDecoder(layer, 2)
        >>> dec(opsdk.rand([2, 3, 8]), opsdk.rand([2, 5, 8])).shape
        paddle.Size([2, 3, 8])
    """

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        _stack(self, decoder_layer, num_layers, norm)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        """With cache (one (Cache, StaticCache) per layer): (out, the list of new caches)."""
        tgt_mask = convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = convert_attention_mask(memory_mask, memory.dtype)
        output, new_caches = tgt, []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                               cache=None)
            else:
                output, new = layer(output, memory, tgt_mask=tgt_mask,
                                    memory_mask=memory_mask, cache=cache[i])
                new_caches.append(new)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory, do_zip=False):
        """One (Cache, StaticCache) per layer; do_zip: (all Caches), (all StaticCaches)."""
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


def _split_attrs(attr, arg):
    """Transformer's weight_attr/bias_attr as (encoder's, decoder's): a list of 1, 2
    (attention, feed-forward) or 3 (self-, cross-attention, feed-forward), or one for all."""
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return attr, [attr[0], attr[0], attr[-1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], attr
    raise LayerArgumentError(f"Transformer: a list {arg} must have 1, 2 or 3 entries; got: "
                             f"{len(attr)}")


class Transformer(Layer):
    """An encoder-decoder Transformer: TransformerEncoder and TransformerDecoder stacks, each
    with a final LayerNorm (or custom_encoder / custom_decoder).

    Args: d_model (512), nhead (8), num_encoder_layers (6), num_decoder_layers (6),
        dim_feedforward (2048), dropout (0.1), activation, attn_dropout, act_dropout,
        normalize_before, weight_attr, bias_attr (one, or a list of 1-3), custom_encoder,
        custom_decoder.

    Example:
        >>> model = opsdk.nn.Transformer(8, 2, 1, 1, 16)
        >>> mask = model.generate_square_subsequent_mask(3)
        >>> model(opsdk.rand([2, 4, 8]), opsdk.rand([2, 3, 8]), tgt_mask=mask).shape
        paddle.Size([2, 3, 8])
    """

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None,
                 custom_encoder=None, custom_decoder=None):
        super().__init__()
        positive("Transformer", d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward)
        enc_bias, dec_bias = _split_attrs(bias_attr, "bias_attr")
        enc_weight, dec_weight = _split_attrs(weight_attr, "weight_attr")
        common = (d_model, nhead, dim_feedforward, dropout, activation, attn_dropout,
                  act_dropout, normalize_before)
        parts = (("encoder", custom_encoder, TransformerEncoder, TransformerEncoderLayer,
                  num_encoder_layers, enc_weight, enc_bias),
                 ("decoder", custom_decoder, TransformerDecoder, TransformerDecoderLayer,
                  num_decoder_layers, dec_weight, dec_bias))
        for part, custom, stack, layer, num_layers, weight, bias in parts:
            setattr(self, part, custom if custom is not None else stack(
                layer(*common, weight, bias), num_layers, LayerNorm(d_model)))
        self.d_model = d_model
        self.nhead = nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None):
        src_mask = convert_attention_mask(src_mask, src.dtype)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = convert_attention_mask(memory_mask, memory.dtype)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length):
        """[length, length] of the default dtype: 0 on and below the diagonal, -inf above."""
        if isinstance(length, Tensor):
            length = int(length.item())
        return triu(full([length, length], -np.inf, get_default_dtype()), 1)
