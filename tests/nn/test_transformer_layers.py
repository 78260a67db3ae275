"""nn.TransformerEncoderLayer and nn.TransformerDecoderLayer (opsdk/nn/transformer_layers.py)
against Paddle 3.3.1."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle
from helpers.layers import assert_layer_as_paddle

RNG = np.random.default_rng(1)
TGT = RNG.standard_normal((2, 3, 8))
MEMORY = RNG.standard_normal((2, 4, 8))
BOOL_MASK = RNG.random((3, 3)) > 0.3
FLOAT_MASK = RNG.standard_normal((2, 1, 3, 4))


def test_sublayers_and_state_dict_keys_are_paddles():
    enc = opsdk.nn.TransformerEncoderLayer(8, 2, 16)
    assert [n for n, _ in enc.named_sublayers()] == [
        "self_attn", "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
        "self_attn.out_proj", "linear1", "dropout", "linear2", "norm1", "norm2", "dropout1",
        "dropout2"]
    dec = opsdk.nn.TransformerDecoderLayer(8, 2, 16)
    keys = list(dec.state_dict())
    assert keys[8:10] == ["cross_attn.q_proj.weight", "cross_attn.q_proj.bias"]
    assert keys[16:] == ["linear1.weight", "linear1.bias", "linear2.weight", "linear2.bias",
                         "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias",
                         "norm3.weight", "norm3.bias"]
    assert enc.activation is opsdk.nn.functional.relu
    assert enc.self_attn.dropout == 0.1 and enc.dropout.p == 0.1


def test_dropouts_default_to_dropout_and_attrs_split_per_block():
    layer = opsdk.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.2, act_dropout=0.3,
                                             bias_attr=[True, False, True])
    assert layer.self_attn.dropout == 0.2 and layer.dropout.p == 0.3 and layer.dropout3.p == 0.2
    assert layer.cross_attn.q_proj.bias is None and layer.linear1.bias is not None
    assert layer._config["act_dropout"] == 0.3


@pytest.mark.paddle
@pytest.mark.parametrize("normalize_before", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_encoder_layer_matches_paddle(normalize_before, activation):
    assert_layer_as_paddle(
        lambda P: P.nn.TransformerEncoderLayer(8, 2, 16, activation=activation,
                                               normalize_before=normalize_before),
        [TGT], lambda P, layer, x: layer(x, P.to_tensor(BOOL_MASK)))


@pytest.mark.paddle
@pytest.mark.parametrize("normalize_before", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_decoder_layer_matches_paddle(normalize_before, dtype):
    assert_layer_as_paddle(
        lambda P: P.nn.TransformerDecoderLayer(8, 2, 16, activation="gelu",
                                               normalize_before=normalize_before),
        [TGT, MEMORY], lambda P, layer, tgt, memory: layer(
            tgt, memory, P.to_tensor(BOOL_MASK), P.to_tensor(FLOAT_MASK.astype(dtype))),
        dtype=dtype)


@pytest.mark.paddle
def test_layer_caches_match_paddle():
    def call(P, layer, tgt, memory):
        cache = layer.gen_cache(memory)
        out, (incremental, static) = layer(tgt, memory, cache=cache)
        return [out, incremental.k, static.v]

    assert_layer_as_paddle(lambda P: P.nn.TransformerDecoderLayer(8, 2, 16), [TGT, MEMORY],
                           call)

    def encode(P, layer, src):
        out, cache = layer(src, cache=layer.gen_cache(src))
        return [out, cache.v]

    assert_layer_as_paddle(lambda P: P.nn.TransformerEncoderLayer(8, 2, 16), [TGT], encode)


@pytest.mark.paddle
@pytest.mark.parametrize("build", [
    lambda P: P.nn.TransformerEncoderLayer(8, 3, 16),
    lambda P: P.nn.TransformerEncoderLayer(8, 2, 0),
    lambda P: P.nn.TransformerDecoderLayer(0, 2, 16),
    lambda P: P.nn.TransformerDecoderLayer(8, 2, 16, activation="no_such_activation"),
    lambda P: P.nn.TransformerEncoderLayer(8, 2, 16, weight_attr=[None] * 3),
], ids=["indivisible", "dim_feedforward", "d_model", "activation", "attr-list"])
def test_bad_arguments_raise_paddles_exception_class(build):
    assert_raises_as_paddle(build)
