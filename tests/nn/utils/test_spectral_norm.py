"""spectral_norm as Paddle's, from the same weight and the same starting u and v: names,
power iteration (training) or none (eval), outputs, the refined u and v, and gradients."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle, import_paddle

pytestmark = pytest.mark.paddle

RNG = np.random.default_rng(4)
LAYERS = {
    "linear": (lambda P: P.nn.Linear(3, 4), [2, 3]),
    "conv": (lambda P: P.nn.Conv2D(2, 3, 3), [1, 2, 5, 5]),
    "conv transpose": (lambda P: P.nn.Conv2DTranspose(2, 3, 3), [1, 2, 4, 4]),
}


def run(P, kind, values, uv, iterations, training):
    make, x_shape = LAYERS[kind]
    layer = make(P)
    for p, v in zip(layer.parameters(), values):
        p.set_value(v)
    layer = P.nn.utils.spectral_norm(layer, n_power_iterations=iterations)
    if uv is not None:
        layer.weight_u.set_value(uv[0])
        layer.weight_v.set_value(uv[1])
    start = (layer.weight_u.numpy().copy(), layer.weight_v.numpy().copy())
    layer.train() if training else layer.eval()
    x = P.to_tensor(np.linspace(-1, 1, int(np.prod(x_shape)), dtype="float32").reshape(x_shape))
    y = layer(x)
    y = layer(x) * y
    y.sum().backward()
    return dict(names=[n for n, _ in layer.named_parameters()],
                buffers=[n for n, _ in layer.named_buffers()], start=start, y=y.numpy(),
                u=layer.weight_u.numpy(), v=layer.weight_v.numpy(),
                grad=layer.weight_orig.grad.numpy(), weight=layer.weight.numpy())


@pytest.mark.parametrize("kind", LAYERS)
@pytest.mark.parametrize("iterations, training", [(1, True), (3, True), (2, False)])
def test_spectral_norm_as_paddle(kind, iterations, training):
    paddle = import_paddle()
    values = [RNG.standard_normal(p.shape).astype("float32")
              for p in LAYERS[kind][0](opsdk).parameters()]
    want = run(paddle, kind, values, None, iterations, training)
    got = run(opsdk, kind, values, want["start"], iterations, training)
    assert (got["names"], got["buffers"]) == (want["names"], want["buffers"])
    for key in ("y", "u", "v", "grad", "weight"):
        assert got[key].shape == want[key].shape, key
        # float32 sums of terms near the array's largest value: the absolute error scales with it
        scale = float(np.abs(want[key]).max()) if want[key].size else 1.0
        np.testing.assert_allclose(got[key], want[key], rtol=5e-5, atol=max(1e-6, 2e-6 * scale),
                                   err_msg=key)


def test_u_and_v_start_as_unit_vectors():
    layer = opsdk.nn.utils.spectral_norm(opsdk.nn.Linear(3, 5))
    assert layer.weight_u.shape == [5] and layer.weight_v.shape == [3]
    for t in (layer.weight_u, layer.weight_v):
        assert np.linalg.norm(t.numpy()) == pytest.approx(1.0, rel=1e-5) and t.stop_gradient


def test_many_iterations_reach_the_spectral_norm():
    layer = opsdk.nn.utils.spectral_norm(opsdk.nn.Linear(4, 3), n_power_iterations=200)
    layer(opsdk.ones([1, 4]))
    assert np.linalg.norm(layer.weight.numpy(), 2) == pytest.approx(1.0, rel=1e-4)


def test_errors_as_paddle():
    def twice(P):
        layer = P.nn.utils.spectral_norm(P.nn.Linear(2, 2))
        P.nn.utils.spectral_norm(layer)
    assert_raises_as_paddle(twice, RuntimeError)
    assert_raises_as_paddle(
        lambda P: P.nn.utils.spectral_norm(P.nn.Linear(2, 2), n_power_iterations=0), ValueError)


@pytest.mark.parametrize("wrap", ["weight_norm", "spectral_norm"])
def test_state_dict_keys_as_paddle(wrap):
    paddle = import_paddle()
    keys = [list(getattr(P.nn.utils, wrap)(P.nn.Linear(2, 3)).state_dict())
            for P in (opsdk, paddle)]
    assert keys[0] == keys[1]
