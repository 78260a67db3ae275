"""Channel dropout, alpha dropout, rrelu and gumbel_softmax: the masks' structure and rates,
the gradients of the draw, eval mode against Paddle 3.3.1, and the errors."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_same_as_paddle

SELU_ALPHA_P = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946


def _leaf(shape, dtype="float64"):
    return opsdk.to_tensor(np.random.default_rng(0).standard_normal(shape) + 3.0, dtype=dtype,
                           stop_gradient=False)


@pytest.mark.parametrize("fn,shape,channel", [
    (lambda x: F.dropout1d(x, 0.5), (4, 8, 5), 1),
    (lambda x: F.dropout2d(x, 0.5), (4, 8, 3, 2), 1),
    (lambda x: F.dropout2d(x, 0.5, data_format="NHWC"), (4, 3, 2, 8), 3),
    (lambda x: F.dropout3d(x, 0.5), (4, 8, 2, 2, 2), 1),
    (lambda x: F.dropout3d(x, 0.5, data_format="NDHWC"), (4, 2, 2, 2, 8), 4),
])
def test_channel_dropout_zeroes_whole_channels(fn, shape, channel):
    opsdk.seed(5)
    x = _leaf(shape)
    y = fn(x)
    y.sum().backward()
    ratio = y.numpy() / x.numpy()
    kept = np.moveaxis(ratio, (0, channel), (0, 1)).reshape(shape[0], shape[channel], -1)
    # one value per (sample, channel): 0 or 2
    assert np.allclose(kept, kept[..., :1]) and set(np.unique(kept.round(12))) <= {0.0, 2.0}
    assert 0.2 < (kept[..., 0] == 0).mean() < 0.8
    np.testing.assert_allclose(x.grad.numpy(), ratio)


def test_dropout1d_takes_an_unbatched_input():
    opsdk.seed(1)
    y = F.dropout1d(opsdk.ones([6, 4]), 0.5)
    assert y.shape == [6, 4] and np.allclose(y.numpy(), y.numpy()[:, :1])


@pytest.mark.parametrize("feature", [False, True])
def test_alpha_dropout_is_an_affine_map_of_the_draw(feature):
    opsdk.seed(2)
    p = 0.3
    x = _leaf((64, 16, 3))
    y = (F.feature_alpha_dropout if feature else F.alpha_dropout)(x, p)
    y.sum().backward()
    a = ((1 - p) * (1 + p * SELU_ALPHA_P ** 2)) ** -0.5
    b = -a * SELU_ALPHA_P * p
    kept = np.isclose(y.numpy(), a * x.numpy() + b)
    dropped = np.isclose(y.numpy(), a * SELU_ALPHA_P + b)
    assert (kept ^ dropped).all()
    np.testing.assert_allclose(x.grad.numpy(), kept * a)
    if feature:
        assert (kept == kept[..., :1]).all()
    assert abs(dropped.mean() - p) < 0.06


def test_alpha_dropout_keeps_standard_normal_statistics():
    opsdk.seed(3)
    x = opsdk.to_tensor(np.random.default_rng(1).standard_normal(200000))
    y = F.alpha_dropout(x, 0.2).numpy()
    assert abs(y.mean()) < 0.01 and abs(y.std() - 1) < 0.01


@pytest.mark.paddle
def test_eval_mode_matches_paddle():
    x = np.random.default_rng(4).standard_normal((2, 4, 3, 2))
    for fn in (lambda P, a: P.nn.functional.alpha_dropout(a, 0.4, training=False),
               lambda P, a: P.nn.functional.feature_alpha_dropout(a, 0.4, training=False),
               lambda P, a: P.nn.functional.dropout2d(a, 0.4, training=False),
               lambda P, a: P.nn.functional.dropout1d(a[0], 0.4, training=False),
               lambda P, a: P.nn.functional.rrelu(a, 0.1, 0.3, training=False),
               lambda P, a: P.nn.functional.alpha_dropout(a, 1.0),
               lambda P, a: P.nn.functional.dropout2d(a, 0.0)):
        assert_same_as_paddle(fn, [x])


def test_rrelu_draws_slopes_within_the_bounds_and_differentiates_by_them():
    opsdk.seed(4)
    x = opsdk.to_tensor(np.linspace(-3, 3, 4001), stop_gradient=False)
    y = F.rrelu(x, 0.1, 0.4)
    y.sum().backward()
    xs, ys = x.numpy(), y.numpy()
    slope = ys[xs < 0] / xs[xs < 0]
    assert slope.min() >= 0.1 and slope.max() <= 0.4 and slope.std() > 0.05
    assert (ys[xs >= 0] == xs[xs >= 0]).all()
    np.testing.assert_allclose(x.grad.numpy()[xs < 0], slope)
    assert F.rrelu(opsdk.to_tensor([-2.0]), 0.1, 0.3, training=False).item() == pytest.approx(-0.4)


def test_gumbel_softmax_samples_the_softmax():
    opsdk.seed(6)
    logits = np.log(np.array([0.1, 0.2, 0.7]))
    x = opsdk.to_tensor(np.tile(logits, (20000, 1)))
    hard = F.gumbel_softmax(x, hard=True).numpy()
    assert set(np.unique(hard)) == {0.0, 1.0} and (hard.sum(-1) == 1).all()
    np.testing.assert_allclose(hard.mean(0), [0.1, 0.2, 0.7], atol=0.015)
    soft = F.gumbel_softmax(x, temperature=0.5, axis=1).numpy()
    np.testing.assert_allclose(soft.sum(-1), 1.0)


def test_gumbel_softmax_gradients_are_paddles():
    opsdk.seed(7)
    x = opsdk.to_tensor(np.random.default_rng(2).standard_normal((2, 5)), stop_gradient=False)
    g = opsdk.to_tensor(np.arange(10.0).reshape(2, 5))
    y = F.gumbel_softmax(x, temperature=0.5)
    (gx,) = opsdk.grad([y], [x], [g])
    yd = y.numpy()
    # the softmax gradient of (x + noise) / temperature
    want = yd * (g.numpy() - (g.numpy() * yd).sum(-1, keepdims=True)) / 0.5
    np.testing.assert_allclose(gx.numpy(), want, rtol=1e-10)
    # hard: Paddle's kernel takes the softmax gradient at the one-hot output, zero
    (gh,) = opsdk.grad([F.gumbel_softmax(x, hard=True)], [x], [g])
    assert not gh.numpy().any()


def test_bad_arguments_are_named():
    x = opsdk.ones([2, 3, 4, 4])
    with pytest.raises(ValueError, match="dropout2d: p must lie in \\[0, 1\\]"):
        F.dropout2d(x, 1.5)
    with pytest.raises(ValueError, match="dropout2d: x must be 4-D"):
        F.dropout2d(opsdk.ones([2, 3]))
    with pytest.raises(ValueError, match="dropout3d: data_format must be one of"):
        F.dropout3d(opsdk.ones([1, 1, 1, 1, 1]), data_format="NCHW")
    with pytest.raises(ValueError, match="dropout1d: expected a 2-D or 3-D input"):
        F.dropout1d(x)
    with pytest.raises(TypeError, match="alpha_dropout: p must be a float or an int"):
        F.alpha_dropout(x, "0.5")
    with pytest.raises(ValueError, match="feature_alpha_dropout: needs an input of at least 2"):
        F.feature_alpha_dropout(opsdk.ones([3]))
    with pytest.raises(TypeError, match="rrelu: lower and upper must be floats"):
        F.rrelu(x, 0, 1)
    with pytest.raises(ValueError, match="rrelu: upper must be >= lower"):
        F.rrelu(x, 0.5, 0.25)
    with pytest.raises(ValueError, match="gumbel_softmax: temperature must be > 0"):
        F.gumbel_softmax(x, 0.0)
