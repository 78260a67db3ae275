"""The extra activations: values against PyTorch, gradients against central differences to
second order, Paddle's choice at each kink, no nan from an overflowing branch."""
import numpy as np
import pytest

import opsdk as paddle
import opsdk.nn.functional as F
from helpers.frameworks import assert_raises_as_paddle, assert_same_as_paddle
from helpers.gradients import assert_gradients
from helpers.samples import signed

# name: (opsdk call, torch call); inputs stay away from the kinks
SMOOTH_CASES = {
    "elu": (lambda x: F.elu(x, 0.7), lambda t, x: t.nn.functional.elu(x, 0.7)),
    "selu": (F.selu, lambda t, x: t.nn.functional.selu(x)),
    "celu": (lambda x: F.celu(x, 1.5), lambda t, x: t.nn.functional.celu(x, 1.5)),
    "relu6": (lambda x: F.relu6(x * 4), lambda t, x: t.nn.functional.relu6(x * 4)),
    "hardtanh": (lambda x: F.hardtanh(x * 2, -1.5, 0.5),
                 lambda t, x: t.nn.functional.hardtanh(x * 2, -1.5, 0.5)),
    "hardsigmoid": (lambda x: F.hardsigmoid(x * 5), lambda t, x: t.nn.functional.hardsigmoid(x * 5)),
    "hardswish": (lambda x: F.hardswish(x * 5), lambda t, x: t.nn.functional.hardswish(x * 5)),
    "softplus": (lambda x: F.softplus(x, beta=2.0), lambda t, x: t.nn.functional.softplus(x, 2.0)),
    "softsign": (F.softsign, lambda t, x: t.nn.functional.softsign(x)),
    "tanhshrink": (F.tanhshrink, lambda t, x: t.nn.functional.tanhshrink(x)),
    "log_sigmoid": (F.log_sigmoid, lambda t, x: t.nn.functional.logsigmoid(x)),
    "mish": (F.mish, lambda t, x: t.nn.functional.mish(x)),
    "prelu": (lambda x: F.prelu(x, paddle.to_tensor([0.3], dtype="float64")),
              lambda t, x: t.nn.functional.prelu(x, t.tensor([0.3], dtype=t.float64))),
}


def _away_from_kinks(n=12, seed=3):
    x = signed(n, seed=seed)
    # the kinks sit at 0, +-0.125 (relu6 * 4 and hardtanh * 2 ends), +-0.6 (hard* * 5)
    for k in (0.0, 0.125, -0.125, 0.25, -0.75, 0.6, -0.6):
        x = np.where(np.abs(x - k) < 0.02, x + 0.05, x)
    return x


@pytest.mark.parametrize("name", sorted(SMOOTH_CASES))
def test_values_match_torch(name):
    torch = pytest.importorskip("torch")
    ours_fn, torch_fn = SMOOTH_CASES[name]
    x = _away_from_kinks() * 3
    ours = ours_fn(paddle.to_tensor(x, dtype="float64")).numpy()
    theirs = torch_fn(torch, torch.tensor(x)).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", sorted(SMOOTH_CASES))
def test_gradients_match_numeric_to_second_order(name):
    assert_gradients(SMOOTH_CASES[name][0], [_away_from_kinks()])


@pytest.mark.parametrize("fn, point, grad", [
    (F.relu6, 0.0, 0.0), (F.relu6, 6.0, 0.0), (F.hardtanh, 1.0, 0.0), (F.hardtanh, -1.0, 0.0),
    (F.hardsigmoid, 3.0, 0.0), (F.hardsigmoid, -3.0, 0.0), (F.hardswish, -3.0, 0.0),
    (F.hardswish, 3.0, 1.0), (F.elu, 0.0, 1.0), (F.celu, 0.0, 1.0),
    (F.selu, 0.0, F.activation_extra.SELU_SCALE * F.activation_extra.SELU_ALPHA),
    (F.leaky_relu, 0.0, 1.0)])
def test_gradient_at_the_kink_is_paddles(fn, point, grad):
    x = paddle.to_tensor([point], stop_gradient=False)
    (g,) = paddle.grad(fn(x).sum(), x)
    np.testing.assert_allclose(g.numpy(), [grad], rtol=1e-6)


@pytest.mark.parametrize("fn", [F.elu, F.selu, F.celu, F.softplus, F.mish, F.log_sigmoid])
def test_large_inputs_give_finite_values_and_gradients(fn):
    x = paddle.to_tensor([-200.0, -30.0, 30.0, 200.0], stop_gradient=False)
    y = fn(x)
    (g,) = paddle.grad(y.sum(), x)
    assert np.isfinite(y.numpy()).all() and np.isfinite(g.numpy()).all()


def test_prelu_per_channel_weight_broadcasts_on_the_channel_axis():
    x = paddle.to_tensor(-np.ones((2, 3, 2), dtype="float32"))
    w = paddle.to_tensor([0.1, 0.2, 0.3])
    np.testing.assert_allclose(F.prelu(x, w).numpy()[0, :, 0], [-0.1, -0.2, -0.3], rtol=1e-6)
    np.testing.assert_allclose(F.prelu(paddle.to_tensor(-np.ones((2, 2, 3), "float32")), w,
                                       data_format="NLC").numpy()[0, 0], [-0.1, -0.2, -0.3],
                               rtol=1e-6)


def test_integer_input_is_refused_naming_the_op():
    with pytest.raises(paddle.errors.DTypeError, match="softplus: argument 'x'"):
        F.softplus(paddle.to_tensor([1, 2]))


@pytest.mark.parametrize("fn, want_y, want_g", [
    (F.hardshrink, [-0.5, 0.5, 0.0, 1.0], [1, 1, 0, 1]),
    (F.softshrink, [0.0, 0.0, 0.0, 0.5], [0, 0, 0, 1]),
    (F.thresholded_relu, [0.0, 0.0, 0.0, 0.0], [0, 0, 0, 0])])
def test_shrinks_and_thresholded_relu_at_their_thresholds_are_paddles(fn, want_y, want_g):
    x = paddle.to_tensor([-0.5, 0.5, 0.2, 1.0], stop_gradient=False)
    y = fn(x)
    (g,) = paddle.grad(y.sum(), x)
    np.testing.assert_allclose(y.numpy(), want_y, rtol=1e-6)
    np.testing.assert_array_equal(g.numpy(), want_g)


def test_glu_gates_one_half_with_the_other_and_its_gradients_match_numeric():
    x = paddle.to_tensor([[1.0, 2.0, 3.0, 4.0]])
    np.testing.assert_allclose(F.glu(x).numpy(), [[1 / (1 + np.exp(-3)), 2 / (1 + np.exp(-4))]],
                               rtol=1e-6)
    assert_gradients(F.glu, [signed(2, 4, seed=9)])


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_swiglu_matches_paddle_with_and_without_y(dtype):
    x = signed(3, 6, seed=4)
    assert_same_as_paddle(lambda P, a: P.nn.functional.swiglu(a), [x], [dtype], rtol=1e-5,
                          atol=1e-7)
    assert_same_as_paddle(lambda P, a, b: P.nn.functional.swiglu(a, b), [x, x[::-1] * 2],
                          [dtype] * 2, diff=(0, 1), rtol=1e-5, atol=1e-7)


@pytest.mark.paddle
@pytest.mark.parametrize("call", [
    lambda P: P.nn.functional.swiglu(P.rand([2, 3])),
    lambda P: P.nn.functional.swiglu(P.rand([3]), P.rand([2])),
    lambda P: P.nn.functional.swiglu(P.to_tensor([1, 2])),
], ids=["odd", "shapes", "int"])
def test_swiglu_bad_input_raises_paddles_exception_class(call):
    assert "swiglu" in str(assert_raises_as_paddle(call))


@pytest.mark.paddle
@pytest.mark.parametrize("kwargs", [{"scale": 0.5}, {"scale": 1.0}, {"alpha": -1.0}])
def test_selu_refuses_the_parameters_paddle_refuses(kwargs):
    # batch 1217: Paddle requires scale > 1 and alpha >= 0
    err = assert_raises_as_paddle(
        lambda P: P.nn.functional.selu(P.to_tensor([1.0, -1.0]), **kwargs))
    assert "selu: argument" in str(err)
