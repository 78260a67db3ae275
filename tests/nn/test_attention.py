"""nn.MultiHeadAttention (opsdk/nn/attention.py) against Paddle 3.3.1."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle
from helpers.layers import assert_layer_as_paddle

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3, 8))
MEMORY = RNG.standard_normal((2, 4, 8))
BOOL_MASK = RNG.random((2, 1, 3, 3)) > 0.3
FLOAT_MASK = RNG.standard_normal((3, 3))


def test_sublayers_parameters_and_state_dict_keys_are_paddles():
    mha = opsdk.nn.MultiHeadAttention(8, 2, kdim=4, vdim=6)
    assert [n for n, _ in mha.named_sublayers()] == ["q_proj", "k_proj", "v_proj", "out_proj"]
    assert [(k, v.shape) for k, v in mha.state_dict().items()] == [
        ("q_proj.weight", [8, 8]), ("q_proj.bias", [8]), ("k_proj.weight", [4, 8]),
        ("k_proj.bias", [8]), ("v_proj.weight", [6, 8]), ("v_proj.bias", [8]),
        ("out_proj.weight", [8, 8]), ("out_proj.bias", [8])]
    assert (mha.head_dim, mha.kdim, mha.vdim) == (4, 4, 6)
    assert opsdk.nn.MultiHeadAttention(8, 2, bias_attr=False).q_proj.bias is None


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_self_attention_with_weights_matches_paddle(dtype):
    assert_layer_as_paddle(lambda P: P.nn.MultiHeadAttention(8, 2, need_weights=True), [X],
                           dtype=dtype)


@pytest.mark.paddle
@pytest.mark.parametrize("mask", [BOOL_MASK, BOOL_MASK.astype("int64"), FLOAT_MASK],
                         ids=["bool", "int", "float"])
def test_masks_convert_as_paddles(mask):
    assert_layer_as_paddle(
        lambda P: P.nn.MultiHeadAttention(8, 2, need_weights=True), [X],
        lambda P, layer, x: layer(x, attn_mask=P.to_tensor(mask)), dtype="float32")


@pytest.mark.paddle
def test_cross_attention_with_other_key_and_value_sizes_matches_paddle():
    key, value = RNG.standard_normal((2, 5, 4)), RNG.standard_normal((2, 5, 6))
    assert_layer_as_paddle(lambda P: P.nn.MultiHeadAttention(8, 4, kdim=4, vdim=6), [X, key, value])


@pytest.mark.paddle
def test_caches_match_paddle():
    """An incremental Cache grows by the new keys and values; a StaticCache replaces them."""
    def call(P, layer, x, memory):
        empty = layer.gen_cache(x)
        out1, cache = layer(x, cache=empty)
        out2, grown = layer(x[:, :1], cache=cache)
        static = layer.gen_cache(memory, memory, type=P.nn.MultiHeadAttention.StaticCache)
        out3, same = layer(x, attn_mask=P.ones([3, 4], "bool"), cache=static)
        kept = layer.gen_cache(grown.k, grown.v)
        return [out1, out2, grown.k, grown.v, out3, same.k, kept.v, empty.k]

    assert_layer_as_paddle(lambda P: P.nn.MultiHeadAttention(8, 2), [X, MEMORY], call)


def test_gen_cache_makes_empty_caches_and_keeps_given_tensors():
    mha = opsdk.nn.MultiHeadAttention(8, 2)
    empty = mha.gen_cache(opsdk.rand([3, 5, 8], dtype="float64"))
    assert type(empty) is opsdk.nn.MultiHeadAttention.Cache
    assert empty.k.shape == [3, 2, 0, 4] and empty.v.dtype == opsdk.float64
    k = opsdk.rand([3, 2, 1, 4])
    assert mha.gen_cache(k, k).k is k
    mha.need_weights = True
    out, weights, cache = mha(opsdk.rand([3, 1, 8]), cache=mha.gen_cache(opsdk.rand([3, 1, 8])))
    assert out.shape == [3, 1, 8]
    assert weights.shape == [3, 2, 1, 1] and cache.k.shape == [3, 2, 1, 4]


def test_attention_dropout_acts_in_training_only():
    opsdk.seed(3)
    mha = opsdk.nn.MultiHeadAttention(8, 2, dropout=0.5, need_weights=True)
    x = opsdk.rand([2, 3, 8])
    _, weights = mha(x)
    assert (weights.numpy() == 0).any()
    mha.eval()
    np.testing.assert_allclose(mha(x)[1].numpy().sum(-1), 1.0, rtol=1e-6)


@pytest.mark.paddle
@pytest.mark.parametrize("build", [
    lambda P: P.nn.MultiHeadAttention(6, 4),
    lambda P: P.nn.MultiHeadAttention(0, 2),
    lambda P: P.nn.MultiHeadAttention(8, 0),
    lambda P: P.nn.MultiHeadAttention(8, 2)(P.rand([3, 8])),
    lambda P: P.nn.MultiHeadAttention(8, 2)(P.rand([2, 3, 5])),
], ids=["indivisible", "embed_dim", "num_heads", "rank", "features"])
def test_bad_arguments_raise_paddles_exception_class(build):
    error = assert_raises_as_paddle(build)
    assert "MultiHeadAttention" in str(error)
