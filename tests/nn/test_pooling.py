"""MaxPool1D, AvgPool1D, the adaptive pool and the max-unpool layers: shapes, Paddle's
attributes, reprs and aliases, and a small network against Paddle."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import import_paddle


def test_layers_shapes_reprs_and_aliases():
    nn = opsdk.nn
    x1, x2, x3 = opsdk.randn([2, 3, 7]), opsdk.randn([2, 3, 5, 6]), opsdk.randn([1, 2, 3, 4, 5])
    assert nn.MaxPool1D(2)(x1).shape == [2, 3, 3]
    assert nn.AvgPool1D(3, 2, 1, ceil_mode=True)(x1).shape == [2, 3, 4]
    assert nn.AdaptiveAvgPool1D(4)(x1).shape == [2, 3, 4]
    y, mask = nn.AdaptiveMaxPool1D(5, return_mask=True)(x1)
    assert y.shape == mask.shape == [2, 3, 5] and mask.dtype == opsdk.int32
    assert nn.AdaptiveAvgPool2D([None, 2])(x2).shape == [2, 3, 5, 2]
    assert nn.AdaptiveAvgPool2D(2, data_format="NHWC")(x2).shape == [2, 2, 2, 6]
    assert nn.AdaptiveMaxPool2D(3)(x2).shape == [2, 3, 3, 3]
    assert nn.AdaptiveAvgPool3D([1, 2, None])(x3).shape == [1, 2, 1, 2, 5]
    assert nn.AdaptiveMaxPool3D(2, return_mask=True)(x3)[1].shape == [1, 2, 2, 2, 2]
    pool = nn.AdaptiveMaxPool2D([2, 3])
    pool.return_indices = True
    assert len(pool(x2)) == 2 and "output_size=[2, 3], return_mask=True" in repr(pool)
    assert "kernel_size=2, stride=None, padding=0" in repr(nn.MaxPool1D(2))
    assert nn.AdaptiveMaxPool1d is nn.AdaptiveMaxPool1D and nn.AdaptiveMaxPool3d is \
        nn.AdaptiveMaxPool3D and nn.AdaptiveAvgPool2d is nn.AdaptiveAvgPool2D
    assert nn.MaxPool1D(2).parameters() == []


@pytest.mark.paddle
def test_a_small_network_matches_paddle():
    paddle = import_paddle()
    x = np.random.default_rng(2).standard_normal((3, 2, 9, 7)).astype("float32")
    runs = {}
    for P in (paddle, opsdk):
        net = P.nn.Sequential(P.nn.AdaptiveMaxPool2D([5, 4]), P.nn.AdaptiveAvgPool2D([3, None]),
                              P.nn.Flatten(2), P.nn.MaxPool1D(3, 2, 1), P.nn.AvgPool1D(2),
                              P.nn.AdaptiveAvgPool1D(2))
        xt = P.to_tensor(x, stop_gradient=False)
        y = net(xt)
        (y * y).sum().backward()
        runs[P] = [y.numpy(), xt.grad.numpy()]
    for theirs, ours in zip(runs[paddle], runs[opsdk]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.paddle
def test_the_unpool_layers_match_paddle():
    paddle = import_paddle()
    base = np.random.default_rng(3).standard_normal((2, 3, 6, 8))
    for pool, layer, x in [
        ("max_pool1d", lambda P: P.nn.MaxUnPool1D(2), base[:, :, 0]),
        ("max_pool2d", lambda P: P.nn.MaxUnPool2D(2, output_size=[7, 7]), base),
        ("max_pool3d", lambda P: P.nn.MaxUnPool3D(2), base[:, :, :4, None, :4].repeat(4, 3)),
    ]:
        got, want = [layer(P)(*getattr(P.nn.functional, pool)(P.to_tensor(x), 2,
                                                                return_mask=True)).numpy()
                     for P in (opsdk, paddle)]
        np.testing.assert_array_equal(got, want)
        assert repr(layer(opsdk)) == repr(layer(paddle))


@pytest.mark.paddle
def test_the_fractional_max_pool_layers_match_paddle():
    paddle = import_paddle()
    x = np.random.default_rng(5).standard_normal((1, 2, 6, 7, 5))
    for layer, a in [(lambda P: P.nn.FractionalMaxPool2D([3, 4], random_u=0.3,
                                                        return_mask=True), x[:, :, 0]),
                     (lambda P: P.nn.FractionalMaxPool3D(3, kernel_size=2, random_u=0.6), x)]:
        got, want = [layer(P)(P.to_tensor(a)) for P in (opsdk, paddle)]
        for g, w in zip(got if isinstance(got, tuple) else [got],
                        want if isinstance(want, tuple) else [want]):
            np.testing.assert_array_equal(g.numpy(), w.numpy())
        assert repr(layer(opsdk)) == repr(layer(paddle))
