"""nn.TransformerEncoder, nn.TransformerDecoder and nn.Transformer (opsdk/nn/transformer.py)
against Paddle 3.3.1."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle
from helpers.layers import assert_layer_as_paddle

RNG = np.random.default_rng(2)
SRC = RNG.standard_normal((2, 4, 8))
TGT = RNG.standard_normal((2, 3, 8))
SRC_MASK = RNG.random((4, 4)) > 0.2


def test_stacks_rebuild_later_layers_from_the_first_ones_arguments():
    first = opsdk.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu")
    enc = opsdk.nn.TransformerEncoder(first, 3, opsdk.nn.LayerNorm(8))
    assert enc.layers[0] is first and enc.num_layers == 3
    assert enc.layers[2].activation is opsdk.nn.functional.gelu
    assert not np.array_equal(enc.layers[1].linear1.weight.numpy(), first.linear1.weight.numpy())
    assert list(enc.state_dict())[-2:] == ["norm.weight", "norm.bias"]
    assert list(enc.state_dict())[16] == "layers.1.self_attn.q_proj.weight"


def test_transformer_keys_and_square_subsequent_mask():
    model = opsdk.nn.Transformer(8, 2, 1, 2, 16)
    keys = list(model.state_dict())
    assert keys[:2] == ["encoder.layers.0.self_attn.q_proj.weight",
                        "encoder.layers.0.self_attn.q_proj.bias"]
    assert "encoder.norm.bias" in keys and keys[-1] == "decoder.norm.bias"
    assert "decoder.layers.1.cross_attn.out_proj.bias" in keys
    mask = model.generate_square_subsequent_mask(opsdk.to_tensor(3))
    np.testing.assert_array_equal(mask.numpy(), [[0, -np.inf, -np.inf], [0, 0, -np.inf],
                                                 [0, 0, 0]])
    assert mask.dtype == opsdk.float32


@pytest.mark.paddle
def test_encoder_and_decoder_stacks_match_paddle():
    assert_layer_as_paddle(
        lambda P: P.nn.TransformerEncoder(P.nn.TransformerEncoderLayer(8, 2, 16), 2,
                                          P.nn.LayerNorm(8)),
        [SRC], lambda P, enc, src: enc(src, P.to_tensor(SRC_MASK)))
    assert_layer_as_paddle(
        lambda P: P.nn.TransformerDecoder(P.nn.TransformerDecoderLayer(8, 2, 16), 2), [TGT, SRC])



@pytest.mark.paddle
def test_stack_caches_match_paddle():
    def decode(P, dec, tgt, memory):
        caches = dec.gen_cache(memory)
        out, new = dec(tgt, memory, cache=caches)
        zipped = dec.gen_cache(memory, do_zip=True)
        return [out, new[1][0].k, zipped[1][0].k]

    assert_layer_as_paddle(
        lambda P: P.nn.TransformerDecoder(P.nn.TransformerDecoderLayer(8, 2, 16), 2,
                                          P.nn.LayerNorm(8)), [TGT, SRC], decode)

    def encode(P, enc, src):
        out, new = enc(src, cache=enc.gen_cache(src))
        return [out, new[1].v]

    assert_layer_as_paddle(
        lambda P: P.nn.TransformerEncoder(P.nn.TransformerEncoderLayer(8, 2, 16), 2), [SRC],
        encode)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_transformer_matches_paddle(dtype):
    def call(P, model, src, tgt):
        return model(src, tgt, src_mask=P.to_tensor(SRC_MASK),
                     tgt_mask=model.generate_square_subsequent_mask(3))

    assert_layer_as_paddle(lambda P: P.nn.Transformer(8, 2, 1, 1, 16, normalize_before=True,
                                                      bias_attr=[None, False]),
                           [SRC, TGT], call, dtype=dtype)


@pytest.mark.paddle
@pytest.mark.slow
def test_a_deeper_transformer_matches_paddle():
    src, tgt = RNG.standard_normal((4, 12, 32)), RNG.standard_normal((4, 10, 32))
    memory_mask = RNG.random((10, 12)) > 0.1

    def call(P, model, src, tgt):
        return model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(10),
                     memory_mask=P.to_tensor(memory_mask))

    assert_layer_as_paddle(lambda P: P.nn.Transformer(32, 4, 3, 3, 64, activation="gelu"),
                           [src, tgt], call)


def test_custom_encoder_and_decoder_are_used_as_given():
    enc = opsdk.nn.TransformerEncoder(opsdk.nn.TransformerEncoderLayer(8, 2, 16), 1)
    dec = opsdk.nn.TransformerDecoder(opsdk.nn.TransformerDecoderLayer(8, 2, 16), 1)
    model = opsdk.nn.Transformer(8, 2, custom_encoder=enc, custom_decoder=dec)
    assert model.encoder is enc and model.decoder is dec
    assert model(opsdk.rand([1, 4, 8]), opsdk.rand([1, 2, 8])).shape == [1, 2, 8]


@pytest.mark.paddle
@pytest.mark.parametrize("build", [
    lambda P: P.nn.Transformer(8, 0, 1, 1, 16),
    lambda P: P.nn.Transformer(8, 2, 1, 1, 16, weight_attr=[None] * 4),
    lambda P: P.nn.TransformerEncoder(P.nn.TransformerEncoderLayer(8, 2, 16), 1)(P.rand([2, 8])),
], ids=["nhead", "attr-list", "rank"])
def test_bad_arguments_raise_paddles_exception_class(build):
    assert_raises_as_paddle(build)
