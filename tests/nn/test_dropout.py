"""nn.Dropout follows train()/eval()."""
import numpy as np

import opsdk as paddle


def test_dropout_layer_drops_in_training_and_is_identity_in_eval():
    drop = paddle.nn.Dropout(p=0.5)
    paddle.seed(0)
    y = drop(paddle.ones([1000])).numpy()
    assert set(np.unique(y)) == {0.0, 2.0}
    drop.eval()
    np.testing.assert_array_equal(drop(paddle.ones([5])).numpy(), np.ones(5))


def test_dropout_layer_repr_shows_p():
    assert "p=0.3" in repr(paddle.nn.Dropout(0.3))


def test_the_random_layers_follow_train_and_eval():
    import opsdk.nn.functional as F
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((4, 6, 3, 2)))
    for layer, fn in [(paddle.nn.Dropout2D(0.4), lambda t: F.dropout2d(t, 0.4)),
                      (paddle.nn.Dropout3D(0.4), lambda t: F.dropout3d(t.unsqueeze(-1), 0.4)),
                      (paddle.nn.AlphaDropout(0.4), lambda t: F.alpha_dropout(t, 0.4)),
                      (paddle.nn.FeatureAlphaDropout(0.4),
                       lambda t: F.feature_alpha_dropout(t, 0.4)),
                      (paddle.nn.RReLU(0.1, 0.3), lambda t: F.rrelu(t, 0.1, 0.3))]:
        inp = x.unsqueeze(-1) if isinstance(layer, paddle.nn.Dropout3D) else x
        paddle.seed(3)
        got = layer(inp).numpy()
        paddle.seed(3)
        np.testing.assert_array_equal(got, fn(x).numpy())
        layer.eval()
        want = x.numpy() * np.where(x.numpy() < 0, 0.2, 1.0) if \
            isinstance(layer, paddle.nn.RReLU) else inp.numpy()
        np.testing.assert_allclose(layer(inp).numpy(), want)


def test_the_random_layers_repr_as_paddle():
    assert repr(paddle.nn.Dropout2D(0.3)) == "Dropout2D(p=0.3, data_format=NCHW)"
    assert repr(paddle.nn.AlphaDropout(0.2, name="a")) == "AlphaDropout(p=0.2, name=a)"
    assert paddle.nn.Dropout3D().p == 0.5


def test_dropout_inplace_writes_into_its_input_as_paddle():
    # Paddle 3.3.1: nn.Dropout(p, inplace, axis, mode); the layer returns the input itself
    x = paddle.ones([1000])
    paddle.seed(0)
    y = paddle.nn.Dropout(0.5, True)(x)
    assert y is x and set(np.unique(x.numpy())) == {0.0, 2.0}
    x = paddle.ones([3])
    assert paddle.nn.functional.dropout(x, 0.5, training=False, inplace=True) is x


def test_dropout_inplace_refuses_a_leaf_that_needs_a_gradient():
    x = paddle.ones([3])
    x.stop_gradient = False
    with np.testing.assert_raises(ValueError):  # Paddle: ValueError (InvalidArgument)
        paddle.nn.functional.dropout(x, 0.5, inplace=True)
