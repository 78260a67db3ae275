"""affine_grid and grid_sample (4-D and 5-D): values, shapes and gradients (input, grid, theta)
vs Paddle 3.3.1 over every mode, padding mode and align_corners; Paddle's rounding, its NaN
grid of one place; second order against central differences; the errors as Paddle's classes."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_raises_as_paddle, assert_same_as_paddle
from helpers.gradients import assert_gradients

RNG = np.random.default_rng(7)
INPUTS = {2: (RNG.standard_normal((2, 3, 4, 5)), RNG.uniform(-1.3, 1.3, (2, 3, 4, 2))),
          3: (RNG.standard_normal((2, 2, 3, 4, 5)), RNG.uniform(-1.3, 1.3, (2, 2, 3, 2, 3)))}


@pytest.mark.paddle
@pytest.mark.parametrize("nd", [2, 3])
@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [True, False])
def test_grid_sample_matches_paddle(nd, mode, padding_mode, align_corners):
    assert_same_as_paddle(lambda P, a, g: P.nn.functional.grid_sample(
        a, g, mode, padding_mode, align_corners), list(INPUTS[nd]), diff=(0, 1))


@pytest.mark.paddle
def test_grid_sample_float32_defaults_and_half_rounding_match_paddle():
    x, grid = INPUTS[2]
    assert_same_as_paddle(lambda P, a, g: P.nn.functional.grid_sample(a, g), [x, grid],
                          dtypes=["float32", "float32"], diff=(0, 1), rtol=1e-5, atol=1e-6)
    # positions 0.5, 1.5, 2.5, -0.5, 3.5 along a width of 4: rounded half to even
    gx = np.array([0.5, 1.5, 2.5, -0.5, 3.5]) / 3 * 2 - 1
    half = np.stack([gx, np.zeros(5)], -1).reshape(1, 1, 5, 2)
    for padding_mode in ("zeros", "border"):
        assert_same_as_paddle(lambda P, a, g: P.nn.functional.grid_sample(
            a, g, "nearest", padding_mode), [np.arange(12.0).reshape(1, 1, 3, 4), half])


@pytest.mark.paddle
@pytest.mark.parametrize("shape", [[2, 3, 4, 5], [2, 1, 3, 4, 5], [2, 1, 1, 1], [2, 1, 1, 3]])
@pytest.mark.parametrize("align_corners", [True, False])
def test_affine_grid_matches_paddle(shape, align_corners):
    nd = len(shape) - 2
    theta = RNG.standard_normal((2, nd, nd + 1))
    assert_same_as_paddle(lambda P, t: P.nn.functional.affine_grid(t, shape, align_corners),
                          [theta])


@pytest.mark.paddle
def test_affine_grid_takes_a_shape_tensor_and_feeds_grid_sample_as_paddle():
    x, _ = INPUTS[2]
    theta = np.array([[[0.8, -0.3, 0.1], [0.2, 1.1, -0.2]]] * 2)
    def fn(P, a, t):
        grid = P.nn.functional.affine_grid(t, P.to_tensor([2, 3, 3, 6]), align_corners=False)
        return P.nn.functional.grid_sample(a, grid, align_corners=False)
    assert_same_as_paddle(fn, [x, theta], diff=(0, 1))


@pytest.mark.paddle
@pytest.mark.parametrize("call", [
    lambda P, x, g: P.nn.functional.grid_sample(x, g, mode="bicubic"),
    lambda P, x, g: P.nn.functional.grid_sample(x, g, padding_mode="circular"),
    lambda P, x, g: P.nn.functional.grid_sample(x, P.concat([g, g[..., :1]], -1)),
    lambda P, x, g: P.nn.functional.grid_sample(x, P.concat([g, g])),
    lambda P, x, g: P.nn.functional.grid_sample(x[0], g),
    lambda P, x, g: P.nn.functional.grid_sample(x, g[0]),
    lambda P, x, g: P.nn.functional.grid_sample(x.astype("int32"), g),
    lambda P, x, g: P.nn.functional.grid_sample(x.astype("float32"), g),
    lambda P, x, g: P.nn.functional.affine_grid(g[0, :, :, :1].astype("int32"), [1, 1, 2, 3]),
    lambda P, x, g: P.nn.functional.affine_grid(g[0, :2, :3, 0], [1, 1, 2, 3]),
    lambda P, x, g: P.nn.functional.affine_grid(g[:, :2, :3, 0], [1, 1, 2]),
    lambda P, x, g: P.nn.functional.affine_grid(g[:, :2, :3, 0], [1, 1, 2, 3, 4]),
    lambda P, x, g: P.nn.functional.affine_grid(g[:, :2, :3, 0], "not_valid"),
    lambda P, x, g: P.nn.functional.affine_grid(g[:, :2, :3, 0], 3),
])
def test_errors_are_paddles_classes(call):
    x, grid = INPUTS[2]
    assert_raises_as_paddle(lambda P: call(P, P.to_tensor(x[:1]), P.to_tensor(grid[:1])))


def test_error_messages_name_the_op_and_argument():
    x, grid = (opsdk.to_tensor(a) for a in INPUTS[2])
    with pytest.raises(ValueError, match="grid_sample: argument 'mode' must be one of"):
        F.grid_sample(x, grid, mode="bicubic")
    with pytest.raises(ValueError, match="grid_sample: grid must be \\[N, \\*out, 2\\]"):
        F.grid_sample(x, grid[:1])
    with pytest.raises(ValueError, match="affine_grid: argument 'out_shape' must be"):
        F.affine_grid(opsdk.ones([1, 2, 3]), [1, 2])


def test_grid_sample_second_order_in_the_input_is_exact():
    # linear in x: d2/dx2 of sum(y^2) is a Gram matrix; here a vector-Hessian product
    x0, g0 = INPUTS[2]
    x = opsdk.to_tensor(x0[:1, :1], stop_gradient=False)
    grid = opsdk.to_tensor(g0[:1])
    (gx,) = opsdk.grad((F.grid_sample(x, grid) ** 2).sum(), x, create_graph=True)
    (hv,) = opsdk.grad((gx * x).sum(), x)
    np.testing.assert_allclose(hv.numpy(), 2 * gx.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.slow  # central differences of second order
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_gradients_hold_to_second_order(padding_mode):
    x0, g0 = INPUTS[2]
    assert_gradients(lambda a, g: F.grid_sample(a, g, padding_mode=padding_mode,
                                                align_corners=False) ** 2,
                     [x0[:1, :1, :3, :3], g0[:1, :2, :2]])
    assert_gradients(lambda t: F.affine_grid(t, [1, 1, 2, 3]) ** 2,
                     [RNG.standard_normal((1, 2, 3))])
