"""nn.functional activations: values, first and second order gradients, stability."""
import math

import numpy as np
import pytest

import opsdk as paddle
import opsdk.nn.functional as F
from helpers.frameworks import assert_raises_as_paddle, assert_same_as_paddle
from helpers.gradients import assert_gradients
from helpers.samples import signed


def _leaf(values, dtype="float32"):
    return paddle.to_tensor(values, dtype=dtype, stop_gradient=False)


def test_relu_values_and_gradient_is_one_above_zero_and_zero_elsewhere():
    x = _leaf([-2.0, -0.5, 0.0, 1.5, 3.0])
    y = F.relu(x)
    y.sum().backward()
    np.testing.assert_array_equal(y.numpy(), [0, 0, 0, 1.5, 3.0])
    # the kink at 0 gets gradient 0, as Paddle
    np.testing.assert_array_equal(x.grad.numpy(), [0, 0, 0, 1, 1])


def test_relu_gradients_match_numeric_to_second_order():
    assert_gradients(F.relu, [signed(3, 4)])


def test_relu_keeps_float16_and_float64():
    for dt in ("float16", "float64"):
        assert F.relu(paddle.ones([2], dtype=dt)).dtype == np.dtype(dt)


def test_relu_refuses_integer_input_naming_the_op():
    with pytest.raises(paddle.errors.DTypeError, match="relu"):
        F.relu(paddle.to_tensor([1, 2]))


def test_leaky_relu_scales_negatives_by_the_slope():
    x = _leaf([-2.0, 3.0])
    y = F.leaky_relu(x, 0.1)
    y.sum().backward()
    np.testing.assert_allclose(y.numpy(), [-0.2, 3.0])
    np.testing.assert_allclose(x.grad.numpy(), [0.1, 1.0])


def test_gelu_exact_matches_x_times_normal_cdf():
    xs = np.linspace(-5, 5, 41)
    want = [v * 0.5 * (1 + math.erf(v / math.sqrt(2))) for v in xs]
    np.testing.assert_allclose(F.gelu(paddle.to_tensor(xs, dtype="float64")).numpy(), want,
                               rtol=1e-14, atol=1e-300)


def test_gelu_exact_gradients_match_numeric_to_second_order():
    assert_gradients(F.gelu, [signed(2, 5) * 2])


def test_gelu_third_derivative_matches_closed_form():
    # gelu''(x) = phi(x) (2 - x^2); d/dx of that = phi(x) (x^3 - 4x)
    x = _leaf([0.7, -1.3], "float64")
    (d1,) = paddle.grad(F.gelu(x).sum(), x, create_graph=True)
    (d2,) = paddle.grad(d1.sum(), x, create_graph=True)
    (d3,) = paddle.grad(d2.sum(), x)
    xv = x.numpy()
    phi = np.exp(-xv ** 2 / 2) / math.sqrt(2 * math.pi)
    np.testing.assert_allclose(d2.numpy(), phi * (2 - xv ** 2), rtol=1e-12)
    np.testing.assert_allclose(d3.numpy(), phi * (xv ** 3 - 4 * xv), rtol=1e-12)


def test_gelu_approximate_uses_the_tanh_form():
    x = np.array([-1.5, 0.3, 2.0])
    k = math.sqrt(2 / math.pi)
    want = 0.5 * x * (1 + np.tanh(k * (x + 0.044715 * x ** 3)))
    got = F.gelu(paddle.to_tensor(x, dtype="float64"), approximate=True).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-14)


def test_gelu_approximate_gradients_match_numeric_to_second_order():
    assert_gradients(lambda x: F.gelu(x, approximate=True), [signed(2, 3)])


def test_silu_is_x_times_sigmoid_and_its_gradients_match_numeric():
    x = np.array([-3.0, 0.0, 2.5])
    got = F.silu(paddle.to_tensor(x, dtype="float64")).numpy()
    np.testing.assert_allclose(got, x / (1 + np.exp(-x)), rtol=1e-14)
    assert_gradients(F.silu, [signed(3, 2)])


def test_silu_does_not_overflow_for_large_negative_inputs():
    with np.errstate(over="raise"):
        y = F.silu(paddle.to_tensor([-1000.0, 1000.0]))
    np.testing.assert_array_equal(y.numpy(), [-0.0, 1000.0])


def test_softmax_rows_sum_to_one_even_for_huge_logits():
    x = paddle.to_tensor([[1000.0, 1000.0, 990.0], [-1000.0, 0.0, 1000.0]])
    with np.errstate(over="raise", invalid="raise"):
        p = F.softmax(x)
    np.testing.assert_allclose(p.numpy().sum(axis=-1), [1.0, 1.0], rtol=1e-6)
    np.testing.assert_allclose(p.numpy()[0, :2], [0.5, 0.5], rtol=1e-4)


def test_softmax_along_axis_zero_normalizes_columns():
    p = F.softmax(paddle.randn([3, 4]), axis=0)
    np.testing.assert_allclose(p.numpy().sum(axis=0), np.ones(4), rtol=1e-6)


def test_softmax_gradients_match_numeric_to_second_order():
    assert_gradients(lambda x: F.softmax(x, axis=-1), [signed(2, 4)])
    assert_gradients(lambda x: F.softmax(x, axis=0), [signed(3, 2)])


def test_softmax_dtype_argument_casts_first():
    assert F.softmax(paddle.ones([2, 2]), dtype="float64").dtype == np.float64


def test_log_softmax_is_stable_for_huge_logits():
    x = paddle.to_tensor([[1000.0, 0.0]])
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        y = F.log_softmax(x)
    np.testing.assert_allclose(y.numpy(), [[0.0, -1000.0]], atol=1e-4)


def test_log_softmax_equals_log_of_softmax():
    x = paddle.to_tensor(signed(3, 5), dtype="float64")
    np.testing.assert_allclose(F.log_softmax(x).numpy(), np.log(F.softmax(x).numpy()),
                               rtol=1e-12)


def test_log_softmax_gradients_match_numeric_to_second_order():
    assert_gradients(lambda x: F.log_softmax(x, axis=-1), [signed(2, 4)])


def test_torch_agrees_on_activations_and_their_gradients():
    torch = pytest.importorskip("torch")
    x = signed(4, 6, seed=3) * 2
    pairs = [(F.relu, torch.relu), (F.gelu, torch.nn.functional.gelu),
             (lambda t: F.gelu(t, approximate=True),
              lambda t: torch.nn.functional.gelu(t, approximate="tanh")),
             (F.silu, torch.nn.functional.silu),
             (lambda t: F.softmax(t, axis=1), lambda t: torch.softmax(t, 1)),
             (lambda t: F.log_softmax(t, axis=1), lambda t: torch.log_softmax(t, 1))]
    w = signed(4, 6, seed=4)
    for ours, theirs in pairs:
        xo = paddle.to_tensor(x, dtype="float64", stop_gradient=False)
        (ours(xo) * paddle.to_tensor(w)).sum().backward()
        xt = torch.tensor(x, requires_grad=True)
        (theirs(xt) * torch.tensor(w)).sum().backward()
        np.testing.assert_allclose(ours(paddle.to_tensor(x)).numpy(),
                                   theirs(torch.tensor(x)).numpy(), rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(xo.grad.numpy(), xt.grad.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.paddle
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", ["int64", "int32", "bool"])
def test_softmax_of_a_non_float_tensor_raises_as_paddle_which_has_no_such_kernel(op, dtype):
    err = assert_raises_as_paddle(
        lambda P: getattr(P.nn.functional, op)(P.to_tensor([1, 0, 1]).astype(dtype)))
    assert isinstance(err, paddle.errors.NoKernelDTypeError) and op in str(err)


@pytest.mark.paddle
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_with_dtype_casts_an_integer_tensor_first_as_paddle(op):
    assert_same_as_paddle(lambda P, x: getattr(P.nn.functional, op)(x, dtype="float64"),
                          [np.array([1, 2, 4])], dtypes=["int64"], diff=())


@pytest.mark.paddle
@pytest.mark.parametrize("op", ["relu", "gelu", "softmax", "leaky_relu", "softplus"])
def test_an_integer_input_is_the_runtime_error_paddle_raises(op):
    assert_raises_as_paddle(lambda P: getattr(P.nn.functional, op)(P.to_tensor([-1, 2])),
                            RuntimeError)
    with pytest.raises(paddle.errors.DTypeError, match=f"{op}: argument 'x' must be a float"):
        getattr(F, op)(paddle.to_tensor([-1, 2]))
