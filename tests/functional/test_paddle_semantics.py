"""Values, shapes and dtypes where Paddle 3.3.1, NumPy and PyTorch differ: Paddle's answer is
ours (the reproducers of issue 13, items 3, 4, 8-11)."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import DTypeError, OpArgumentError
from opsdk.nn import functional as F


def leaf(values, dtype="float64"):
    return opsdk.to_tensor(np.asarray(values, dtype), stop_gradient=False)


# -- remainder, floor_divide -----------------------------------------------------------------
def test_remainder_has_its_gradient():
    x = leaf([0.5, 1.5])
    (x % 1.0 + x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_remainder_gradient_for_the_divisor_is_minus_floor_of_the_quotient():
    x, y = leaf([5.5, -5.5, 5.5]), leaf([2.0, 2.0, -2.0])
    gx, gy = opsdk.grad(opsdk.remainder(x, y).sum(), [x, y])
    np.testing.assert_array_equal(opsdk.remainder(x, y).numpy(), [1.5, 0.5, -0.5])
    np.testing.assert_array_equal(gx.numpy(), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(gy.numpy(), [-2.0, 3.0, 3.0])


def test_reflected_remainder_and_floor_divide():
    x = opsdk.to_tensor([2.0, 3.0])
    np.testing.assert_array_equal((7 % x).numpy(), [1.0, 1.0])
    np.testing.assert_array_equal((7 // x).numpy(), [3.0, 2.0])
    assert (7 % opsdk.to_tensor([2, 3])).dtype == np.int64


def test_floor_divide_is_not_differentiable():
    x = leaf([5.0])
    assert (x // 2.0).stop_gradient


# -- undefined points --------------------------------------------------------------------------
def test_norm_at_zero_has_a_zero_gradient():
    x = leaf([0.0, 0.0, 0.0])
    (g,) = opsdk.grad(opsdk.norm(x), x)
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0, 0.0])


@pytest.mark.parametrize("p", [1, 2, 3, "fro", float("inf")])
def test_norm_gradient_where_the_norm_is_not_zero(p):
    x = leaf([0.0, 3.0, -4.0])
    (g,) = opsdk.grad(opsdk.norm(x, p=p), x)
    q = 2 if p == "fro" else float(p)
    if q == np.inf:
        expected = [0.0, 0.0, -1.0]
    else:
        n = (np.abs(x.numpy()) ** q).sum() ** (1 / q)
        expected = np.sign(x.numpy()) * np.abs(x.numpy()) ** (q - 1) / n ** (q - 1)
    np.testing.assert_allclose(g.numpy(), expected, rtol=1e-12)


def test_pow_of_zero_with_a_tensor_exponent_has_paddles_gradients():
    x, y = leaf([0.0, 0.0, 0.0, 0.0]), leaf([2.0, 0.0, 0.5, -1.0])
    gx, gy = opsdk.grad(opsdk.pow(x, y).sum(), [x, y])
    np.testing.assert_array_equal(gx.numpy(), [0.0, 0.0, np.inf, -np.inf])
    np.testing.assert_array_equal(gy.numpy(), [0.0, 0.0, 0.0, -np.inf])


def test_sqrt_at_zero_has_an_infinite_gradient():
    x = leaf([0.0])
    (g,) = opsdk.grad(opsdk.sqrt(x), x)
    assert g.item() == np.inf


@pytest.mark.parametrize("op", [opsdk.maximum, opsdk.minimum])
def test_maximum_and_minimum_split_a_tie_and_propagate_nan(op):
    x, y = leaf([1.0, np.nan, 1.0]), leaf([1.0, 1.0, np.nan])
    out = op(x, y)
    assert out.numpy()[0] == 1.0 and np.isnan(out.numpy()[1:]).all()
    gx, gy = opsdk.grad(out.sum(), [x, y])
    np.testing.assert_array_equal(gx.numpy(), [0.5, 0.0, 0.0])
    np.testing.assert_array_equal(gy.numpy(), [0.5, 0.0, 0.0])


def test_abs_and_relu_at_zero_have_a_zero_gradient():
    x = leaf([0.0])
    assert opsdk.grad(opsdk.abs(x), x)[0].item() == 0.0
    assert opsdk.grad(F.relu(x), x)[0].item() == 0.0


# -- NaN and stable forms ----------------------------------------------------------------------
def test_unbiased_std_and_var_of_one_element_are_nan():
    assert np.isnan(opsdk.std(opsdk.to_tensor([1.0])).item())
    assert np.isnan(opsdk.var(opsdk.to_tensor([1.0])).item())
    assert opsdk.var(opsdk.to_tensor([1.0]), unbiased=False).item() == 0.0


def test_log_of_sigmoid_far_out_on_the_negative_side_in_float32():
    y = opsdk.log(opsdk.sigmoid(opsdk.to_tensor([-20.0], dtype="float32")))
    assert y.item() == pytest.approx(-20.0, rel=1e-6)


def test_rsqrt_of_negative_zero_is_minus_infinity():
    assert opsdk.rsqrt(opsdk.to_tensor([-0.0])).item() == -np.inf


def test_sign_of_nan_is_nan():
    assert np.isnan(opsdk.sign(opsdk.to_tensor([np.nan])).item())


def test_relu_gradient_at_nan_is_zero():
    x = leaf([np.nan])
    assert opsdk.grad(F.relu(x), x)[0].item() == 0.0


def test_cross_entropy_whose_labels_are_all_ignored_is_zero():
    loss = F.cross_entropy(opsdk.zeros([2, 3]), opsdk.to_tensor([-100, -100]),
                           ignore_index=-100)
    assert loss.item() == 0.0


def test_divide_second_order_rule_survives_tiny_denominators():
    x, y = leaf([1e-200]), leaf([1e-200])
    (gy,) = opsdk.grad(x / y, y, create_graph=True)
    assert gy.item() == pytest.approx(-1e200)


# -- size-0 dimensions -------------------------------------------------------------------------
def test_unsqueeze_and_squeeze_keep_size_0_dimensions():
    assert opsdk.unsqueeze(opsdk.zeros([0, 3, 0, 3]), 1).shape == [0, 1, 3, 0, 3]
    assert opsdk.squeeze(opsdk.zeros([1, 0, 0])).shape == [0, 0]


def test_create_graph_backward_of_broadcasting_ops_on_size_0_tensors():
    x, y = leaf(np.zeros((0, 3))), leaf(np.zeros((1, 3)))
    gx, gy = opsdk.grad((x * y).sum(), [x, y], create_graph=True)
    assert gx.shape == [0, 3] and gy.shape == [1, 3]


@pytest.mark.parametrize("op", [F.softmax, F.log_softmax])
def test_softmax_over_a_size_0_axis_is_empty(op):
    x = leaf(np.zeros((2, 0)))
    y = op(x)
    assert y.shape == [2, 0]
    assert opsdk.grad(y.sum(), x)[0].shape == [2, 0]


def test_logsumexp_over_a_size_0_axis_is_minus_infinity():
    np.testing.assert_array_equal(opsdk.logsumexp(opsdk.zeros([2, 0]), axis=-1).numpy(),
                                  [-np.inf, -np.inf])


def test_nonzero_of_a_0_d_tensor_is_a_clear_error():
    with pytest.raises(OpArgumentError, match="nonzero: .*0-d"):
        opsdk.nonzero(opsdk.to_tensor(3.0))


def test_linear_with_zero_outputs():
    layer = opsdk.nn.Linear(3, 0)
    x = leaf(np.ones((2, 3)), "float32")
    y = layer(x)
    assert y.shape == [2, 0]
    y.sum().backward()
    assert x.grad.shape == [2, 3] and layer.weight.grad.shape == [3, 0]


def test_unbind_of_a_size_0_axis_is_an_empty_list():
    assert opsdk.unbind(opsdk.zeros([0, 3]), 0) == []


def test_max_and_min_of_a_tensor_with_a_size_0_dim():
    assert opsdk.max(opsdk.zeros([0, 3]), axis=1).shape == [0]
    with pytest.raises(OpArgumentError, match="min: cannot reduce along axis 1 of size 0"):
        opsdk.min(opsdk.zeros([2, 0]))


def test_indexing_with_an_empty_list_picks_nothing():
    assert opsdk.zeros([3, 2])[[]].shape == [0, 2]


# -- dtype promotion (Paddle 3.x, not NumPy) ---------------------------------------------------
def test_an_integer_tensor_times_a_python_float_is_float32():
    assert (opsdk.to_tensor([1, 2]) * 1.5).dtype == np.float32
    assert (opsdk.to_tensor([1, 2]) / 2).dtype == np.float32


def test_float32_times_an_int64_tensor_is_a_type_error():
    with pytest.raises(DTypeError) as info:
        opsdk.to_tensor([1.0], dtype="float32") * opsdk.to_tensor([2])
    assert isinstance(info.value, TypeError)


def test_float32_times_a_0_d_float64_tensor_is_float32():
    x = leaf([1.0, 2.0], "float32")
    s = leaf(3.0)
    y = x * s
    assert y.dtype == np.float32
    gx, gs = opsdk.grad(y.sum(), [x, s])
    assert gx.dtype == np.float32 and gs.dtype == np.float64 and gs.item() == 3.0


def test_an_int_tensor_times_a_0_d_float64_tensor_is_float64():
    assert (opsdk.to_tensor([1, 2]) * opsdk.to_tensor(1.5, dtype="float64")).dtype == np.float64


def test_float_dtypes_promote_and_gradients_come_back_in_the_inputs_dtype():
    x, y = leaf([1.0, 2.0], "float32"), leaf([3.0, 4.0], "float64")
    z = x * y
    assert z.dtype == np.float64
    gx, gy = opsdk.grad(z.sum(), [x, y], create_graph=True)
    assert gx.dtype == np.float32 and gy.dtype == np.float64
    (ggx,) = opsdk.grad(gx.sum(), [y])
    assert ggx.dtype == np.float64


@pytest.mark.parametrize("op", [opsdk.exp, opsdk.sqrt, opsdk.tanh, opsdk.sigmoid, opsdk.log])
def test_float_functions_of_integers_give_the_default_float(op):
    assert op(opsdk.to_tensor([1, 2])).dtype == np.float32


def test_integer_mean_and_var_keep_the_integer_dtype_as_in_paddle():
    assert opsdk.mean(opsdk.to_tensor([1, 2])).item() == 1
    assert opsdk.var(opsdk.to_tensor([1, 2, 4])).item() == 2
    assert opsdk.std(opsdk.to_tensor([1, 2, 4])).dtype == np.float32


def test_matmul_takes_an_integer_operand_into_the_float_dtype_and_refuses_two_floats():
    a = leaf(np.ones((2, 2)), "float32")
    assert opsdk.matmul(a, opsdk.to_tensor([[1, 2], [3, 4]])).dtype == np.float32
    with pytest.raises(DTypeError, match="matmul"):
        opsdk.matmul(a, opsdk.ones([2, 2], dtype="float64"))


def test_an_integer_tensor_to_a_negative_power_is_a_clear_error():
    with pytest.raises(OpArgumentError, match="pow: .*negative"):
        opsdk.to_tensor([2]) ** -1


def test_integer_division_by_zero_is_a_clear_error():
    with pytest.raises(OpArgumentError, match="division by zero"):
        opsdk.to_tensor([1, 2]) // opsdk.to_tensor([0, 1])


def test_pow_derivatives_at_minus_inf_follow_c_pow():
    # Paddle's kernels use C's pow: (-inf) ** 0.5 is +inf there (NumPy's fast path says nan)
    x = opsdk.to_tensor([-np.inf], dtype="float64", stop_gradient=False)
    (g,) = opsdk.grad((x ** 1.5).sum(), x, create_graph=True)
    (h,) = opsdk.grad(g.sum(), x)
    assert g.numpy().tolist() == [np.inf] and h.numpy().tolist() == [0.0]
    (g,) = opsdk.grad((x ** 2.5).sum(), x, create_graph=True)
    (h,) = opsdk.grad(g.sum(), x)
    assert h.numpy().tolist() == [np.inf]


def test_unbiased_var_and_std_of_a_0d_tensor_are_nan_with_a_nan_gradient():
    for fn in (opsdk.var, opsdk.std):
        x = opsdk.to_tensor(3.0, dtype="float64", stop_gradient=False)
        y = fn(x)
        (g,) = opsdk.grad(y, x, create_graph=True)
        (h,) = opsdk.grad(g, x)
        assert y.shape == [] and np.isnan([y.item(), g.item(), h.item()]).all()
    assert opsdk.var(opsdk.to_tensor(3.0, stop_gradient=False), unbiased=False).item() == 0.0


def test_advanced_index_of_a_size_0_tensor_has_numpy_shape():
    assert opsdk.zeros([0, 2])[:, None, [0]].shape == [0, 1, 1]
