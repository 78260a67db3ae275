"""F.scaled_dot_product_attention (opsdk/nn/functional/attention.py) against Paddle 3.3.1."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_raises_as_paddle, assert_same_as_paddle

RNG = np.random.default_rng(3)
Q = RNG.standard_normal((2, 3, 4, 4))
K = RNG.standard_normal((2, 5, 2, 4))
V = RNG.standard_normal((2, 5, 2, 6))
BOOL_MASK = RNG.random((3, 5)) > 0.2
FLOAT_MASK = RNG.standard_normal((2, 1, 3, 5))


def _sdpa(**options):
    return lambda P, q, k, v: P.nn.functional.scaled_dot_product_attention(q, k, v, **options)


@pytest.mark.paddle
@pytest.mark.parametrize("options", [{}, {"scale": 0.3}, {"is_causal": True},
                                     {"is_causal": True, "attn_mask": "float"}],
                         ids=["plain", "scale", "causal", "causal-ignores-mask"])
def test_grouped_query_attention_matches_paddle(options):
    def fn(P, q, k, v):
        kw = dict(options)
        if kw.get("attn_mask") == "float":
            kw["attn_mask"] = P.to_tensor(FLOAT_MASK)
        return _sdpa(**kw)(P, q, k, v)

    assert_same_as_paddle(fn, [Q, K, V], diff=(0, 1, 2))


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", ["bool", "float"])
def test_masks_match_paddle(dtype, kind):
    mask = BOOL_MASK if kind == "bool" else FLOAT_MASK.astype(dtype)
    assert_same_as_paddle(lambda P, q, k, v: _sdpa(attn_mask=P.to_tensor(mask))(P, q, k, v),
                          [Q, K, V], [dtype] * 3, diff=(0, 1, 2),
                          rtol=1e-5 if dtype == "float32" else 1e-6, atol=1e-6)


@pytest.mark.paddle
def test_unbatched_causal_square_matches_paddle():
    x = Q[0]
    assert_same_as_paddle(_sdpa(is_causal=True), [x, x * 0.5, x[..., :3]], diff=(0, 1, 2))


def test_dropout_acts_only_in_training():
    opsdk.seed(0)
    q = opsdk.rand([1, 4, 1, 8])
    dropped = F.scaled_dot_product_attention(q, q, q, dropout_p=0.9)
    kept = F.scaled_dot_product_attention(q, q, q, dropout_p=0.9, training=False)
    assert (dropped.numpy() == 0).any() and not (kept.numpy() == 0).any()


@pytest.mark.paddle
@pytest.mark.parametrize("call", [
    lambda P: _sdpa()(P, *[P.rand([3, 4])] * 3),
    lambda P: _sdpa()(P, P.rand([1, 3, 2, 4]), P.rand([1, 3, 2, 4]), P.rand([1, 3, 1, 4])),
    lambda P: _sdpa()(P, P.rand([1, 3, 3, 4]), P.rand([1, 3, 2, 4]), P.rand([1, 3, 2, 4])),
    lambda P: _sdpa(attn_mask=P.ones([3, 3], "int32"))(P, *[P.rand([1, 3, 2, 4])] * 3),
], ids=["rank", "kv-heads", "gqa-groups", "int-mask"])
def test_bad_input_raises_paddles_exception_class(call):
    assert "scaled_dot_product_attention" in str(assert_raises_as_paddle(call))
