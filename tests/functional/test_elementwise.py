"""Elementwise ops: values against NumPy, gradients (first and second order) against the
central-difference oracle, broadcasting, dtypes, and the gradient conventions at kinks."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import ShapeError
from helpers.gradients import assert_gradients
from helpers.samples import positive, signed


def leaf(values, dtype="float64"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


# -- values --------------------------------------------------------------------------------
UNARY_VALUES = [
    (opsdk.neg, np.negative, signed), (opsdk.abs, np.abs, signed), (opsdk.exp, np.exp, signed),
    (opsdk.log, np.log, positive), (opsdk.sqrt, np.sqrt, positive), (opsdk.sin, np.sin, signed),
    (opsdk.cos, np.cos, signed), (opsdk.tanh, np.tanh, signed),
    (opsdk.sigmoid, lambda a: 1 / (1 + np.exp(-a)), signed),
    (opsdk.square, np.square, signed), (opsdk.rsqrt, lambda a: a ** -0.5, positive),
    (opsdk.reciprocal, np.reciprocal, positive), (opsdk.sign, np.sign, signed),
    (opsdk.floor, np.floor, signed), (opsdk.ceil, np.ceil, signed),
]


@pytest.mark.parametrize("op, ref, sample", UNARY_VALUES, ids=lambda v: getattr(v, "__name__", ""))
def test_unary_op_values_match_numpy(op, ref, sample):
    a = sample(2, 3)
    np.testing.assert_allclose(op(opsdk.to_tensor(a)).numpy(), ref(a), rtol=1e-12)


BINARY_VALUES = [
    (opsdk.add, np.add), (opsdk.subtract, np.subtract), (opsdk.multiply, np.multiply),
    (opsdk.divide, np.divide), (opsdk.pow, np.power), (opsdk.maximum, np.maximum),
    (opsdk.minimum, np.minimum),
]


@pytest.mark.parametrize("op, ref", BINARY_VALUES, ids=lambda v: getattr(v, "__name__", ""))
def test_binary_op_values_match_numpy_with_broadcasting(op, ref):
    a, b = positive(2, 1, 3), positive(4, 1, seed=1)
    got = op(opsdk.to_tensor(a), opsdk.to_tensor(b))
    assert got.shape == [2, 4, 3]
    np.testing.assert_allclose(got.numpy(), ref(a, b), rtol=1e-12)


def test_sigmoid_does_not_overflow_for_large_inputs():
    x = opsdk.to_tensor([-1000.0, 1000.0])
    np.testing.assert_array_equal(opsdk.sigmoid(x).numpy(), [0.0, 1.0])


def test_clip_values_clamp_into_the_bounds():
    x = opsdk.to_tensor([-2.0, 0.5, 3.0])
    np.testing.assert_array_equal(opsdk.clip(x, -1.0, 1.0).numpy(), [-1.0, 0.5, 1.0])


def test_clip_with_one_bound_leaves_the_other_side_open():
    x = opsdk.to_tensor([-2.0, 3.0])
    np.testing.assert_array_equal(opsdk.clip(x, min=0.0).numpy(), [0.0, 3.0])


def test_where_picks_x_where_condition_holds_else_y():
    cond = opsdk.to_tensor([True, False, True])
    out = opsdk.where(cond, opsdk.to_tensor([1.0, 2.0, 3.0]), opsdk.to_tensor(0.0))
    np.testing.assert_array_equal(out.numpy(), [1.0, 0.0, 3.0])


def test_comparisons_return_bool_tensors_without_gradient():
    x = leaf([1.0, 2.0, 3.0], "float32")
    for out in (x > 1.5, x >= 2.0, x < 2.0, x <= 2.0, x == 2.0, x != 2.0):
        assert out.dtype == np.bool_ and out.stop_gradient
    np.testing.assert_array_equal((x > 1.5).numpy(), [False, True, True])


# -- gradients against the oracle ------------------------------------------------------------
GRADIENT_CASES = {
    "add": (lambda x, y: x + y, [signed(2, 3), signed(2, 3, seed=1)]),
    "add_broadcast_row": (lambda x, y: opsdk.add(x, y), [signed(2, 3), signed(3, seed=1)]),
    "add_broadcast_both": (lambda x, y: x + y, [signed(2, 1, 3), signed(4, 1, seed=1)]),
    "add_scalar": (lambda x: x + 2.5, [signed(3)]),
    "radd_scalar": (lambda x: 2.5 + x, [signed(3)]),
    "subtract_broadcast": (lambda x, y: opsdk.subtract(x, y), [signed(2, 3), signed(2, 1, seed=1)]),
    "rsub_scalar": (lambda x: 1.0 - x, [signed(3)]),
    "multiply": (lambda x, y: x * y, [signed(2, 3), signed(2, 3, seed=1)]),
    "multiply_broadcast": (lambda x, y: opsdk.multiply(x, y),
                           [signed(2, 1, 3), signed(4, 1, seed=1)]),
    "multiply_self": (lambda x: x * x, [signed(3)]),
    "multiply_scalar": (lambda x: 3.0 * x, [signed(3)]),
    "divide": (lambda x, y: x / y, [signed(2, 3), positive(2, 3, seed=1)]),
    "divide_broadcast": (lambda x, y: opsdk.divide(x, y), [signed(2, 3), positive(3, seed=1)]),
    "rdivide_scalar": (lambda y: 2.0 / y, [positive(3)]),
    "pow_int": (lambda x: x ** 3, [signed(2, 3)]),
    "pow_square": (lambda x: x ** 2, [signed(2, 3)]),
    "pow_fraction": (lambda x: x ** 1.5, [positive(2, 3)]),
    "pow_negative": (lambda x: x ** -2, [positive(3)]),
    "pow_tensor_exponent": (lambda x, y: opsdk.pow(x, y), [positive(2, 3), signed(3, seed=1)]),
    "rpow_scalar_base": (lambda y: 2.0 ** y, [signed(3)]),
    "neg": (lambda x: -x * x, [signed(3)]),
    "abs": (opsdk.abs, [signed(2, 3)]),
    "exp": (opsdk.exp, [signed(2, 3)]),
    "log": (opsdk.log, [positive(2, 3)]),
    "sqrt": (opsdk.sqrt, [positive(2, 3)]),
    "rsqrt": (opsdk.rsqrt, [positive(3)]),
    "square": (opsdk.square, [signed(3)]),
    "reciprocal": (opsdk.reciprocal, [positive(3)]),
    "sin": (opsdk.sin, [signed(2, 3)]),
    "cos": (opsdk.cos, [signed(2, 3)]),
    "tanh": (opsdk.tanh, [signed(2, 3)]),
    "sigmoid": (opsdk.sigmoid, [signed(2, 3)]),
    "maximum": (lambda x, y: opsdk.maximum(x, y) ** 2, [signed(2, 3), signed(2, 3, seed=1)]),
    "maximum_broadcast": (lambda x, y: opsdk.maximum(x, y) ** 2, [signed(2, 3), signed(3, seed=1)]),
    "minimum": (lambda x, y: opsdk.minimum(x, y) ** 2, [signed(2, 3), signed(2, 1, seed=1)]),
    "clip": (lambda x: opsdk.clip(x, -1.0, 1.0) ** 2, [np.array([-1.4, -0.7, 0.6, 1.3])]),
    "where": (lambda x, y: opsdk.where(opsdk.to_tensor([True, False, True]), x, y) ** 2,
              [signed(2, 3), signed(3, seed=1)]),
    "sign_floor_ceil_round": (lambda x: (opsdk.sign(x) + opsdk.floor(x) + opsdk.ceil(x)
                                         + opsdk.round(x)) * x, [signed(3) + 0.25]),
    "cast_same_width": (lambda x: opsdk.cast(x, "float64") ** 2, [signed(3)]),
    "composition": (lambda x, y: opsdk.tanh(x * y) / (1.0 + opsdk.exp(-x)) + opsdk.sin(y) ** 2,
                    [signed(2, 3), signed(3, seed=1)]),
}


@pytest.mark.parametrize("fn, arrays", GRADIENT_CASES.values(), ids=GRADIENT_CASES.keys())
def test_gradients_match_central_differences_to_second_order(fn, arrays):
    assert_gradients(fn, arrays)


# -- gradient conventions --------------------------------------------------------------------
def test_abs_gradient_at_zero_is_zero():
    x = leaf([0.0, -2.0, 2.0])
    (g,) = opsdk.grad(opsdk.abs(x).sum(), x)
    np.testing.assert_array_equal(g.numpy(), [0.0, -1.0, 1.0])


def test_maximum_tie_splits_the_gradient_half_and_half_as_in_paddle():
    x, y = leaf([1.0, 2.0]), leaf([1.0, 3.0])
    gx, gy = opsdk.grad(opsdk.maximum(x, y).sum(), [x, y])
    np.testing.assert_array_equal(gx.numpy(), [0.5, 0.0])
    np.testing.assert_array_equal(gy.numpy(), [0.5, 1.0])


def test_minimum_tie_splits_the_gradient_half_and_half_as_in_paddle():
    x, y = leaf([1.0, 2.0]), leaf([1.0, 0.0])
    gx, gy = opsdk.grad(opsdk.minimum(x, y).sum(), [x, y])
    np.testing.assert_array_equal(gx.numpy(), [0.5, 0.0])
    np.testing.assert_array_equal(gy.numpy(), [0.5, 1.0])


def test_clip_gradient_is_one_inside_including_the_bounds_and_zero_outside():
    x = leaf([-2.0, 0.0, 0.5, 1.0, 3.0])
    (g,) = opsdk.grad(opsdk.clip(x, 0.0, 1.0).sum(), x)
    np.testing.assert_array_equal(g.numpy(), [0.0, 1.0, 1.0, 1.0, 0.0])


def test_where_sends_no_gradient_to_the_side_not_picked():
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    gx, gy = opsdk.grad(opsdk.where(opsdk.to_tensor([True, False]), x, y).sum(), [x, y])
    np.testing.assert_array_equal(gx.numpy(), [1.0, 0.0])
    np.testing.assert_array_equal(gy.numpy(), [0.0, 1.0])


def test_piecewise_constant_ops_have_zero_gradient():
    x = leaf([0.3, -1.7])
    for op in (opsdk.sign, opsdk.floor, opsdk.ceil, opsdk.round):
        (g,) = opsdk.grad(op(x).sum(), x)
        np.testing.assert_array_equal(g.numpy(), [0.0, 0.0])


def test_cast_gradient_comes_back_in_the_source_dtype():
    x = leaf([1.0, 2.0], "float64")
    y = opsdk.cast(x, "float32") * 3.0
    (g,) = opsdk.grad(y.sum(), x)
    assert y.dtype == np.float32 and g.dtype == np.float64
    np.testing.assert_array_equal(g.numpy(), [3.0, 3.0])


def test_cast_to_an_integer_dtype_cuts_the_gradient_but_reports_stop_gradient_false():
    x = leaf([1.5, 2.5])
    i = opsdk.cast(x, "int64")
    assert not i.stop_gradient and not i.is_leaf  # as in Paddle (an op result, not a leaf)
    (i.astype("float64") * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 2.0])


def test_pow_with_exponent_zero_has_zero_gradient_at_zero():
    x = leaf([0.0, 2.0])
    with np.errstate(all="ignore"):
        (g,) = opsdk.grad((x ** 0).sum(), x)
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0])


# -- broadcasting: gradients always have the input's shape ----------------------------------
@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=3), st.data())
def test_broadcast_binary_gradients_keep_input_shapes_and_sum_the_broadcast_axes(shape, data):
    # y drops leading axes and sets some axes to 1: the two ways broadcasting stretches a tensor
    lead = data.draw(st.integers(0, len(shape) - 1))
    yshape = [data.draw(st.sampled_from([1, s])) for s in shape[lead:]]
    x, y = leaf(np.ones(shape)), leaf(np.ones(yshape))
    gx, gy = opsdk.grad((x * y + x - y).sum(), [x, y])
    assert gx.shape == shape and gy.shape == yshape
    # d/dy sum(x*y - y) = sum over the broadcast copies of (x - 1) = 0 here, d/dx = y + 1 = 2
    np.testing.assert_array_equal(gx.numpy(), np.full(shape, 2.0))
    np.testing.assert_array_equal(gy.numpy(), np.zeros(yshape))


def test_broadcast_gradient_sums_over_the_stretched_axes():
    x, b = leaf(np.ones((4, 3))), leaf(np.zeros(3))
    (gb,) = opsdk.grad((x + b).sum(), b)
    np.testing.assert_array_equal(gb.numpy(), [4.0, 4.0, 4.0])


# -- dtypes --------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("fn", [
    lambda x: x + 1.0, lambda x: 2.0 * x, lambda x: x / 3.0, lambda x: 1.0 - x,
    lambda x: x ** 2, lambda x: 2.0 ** x, opsdk.exp, opsdk.log, opsdk.sqrt, opsdk.sin, opsdk.cos,
    opsdk.tanh, opsdk.sigmoid, opsdk.abs, lambda x: opsdk.clip(x, 0.0, 1.0),
    lambda x: opsdk.maximum(x, x * 0.5), lambda x: opsdk.where(x > 1.0, x, x * x),
], ids=["add", "mul", "div", "rsub", "pow", "rpow", "exp", "log", "sqrt", "sin", "cos", "tanh",
        "sigmoid", "abs", "clip", "maximum", "where"])
def test_float_dtype_is_kept_through_forward_and_backward(fn, dtype):
    x = leaf([0.5, 1.5], dtype)
    y = fn(x)
    y.sum().backward()
    assert y.dtype == np.dtype(dtype) and x.grad.dtype == np.dtype(dtype)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_float_dtype_is_kept_in_second_order_gradients(dtype):
    x = leaf([0.5, 1.5], dtype)
    (g,) = opsdk.grad((opsdk.tanh(x) * x * 3.0).sum(), x, create_graph=True)
    (h,) = opsdk.grad(g.sum(), x)
    assert g.dtype == np.dtype(dtype) and h.dtype == np.dtype(dtype)


def test_python_scalars_do_not_promote_float16():
    x = opsdk.to_tensor([1.0], dtype="float16")
    assert (x * 2.5 + 1).dtype == np.float16


def test_integer_tensor_never_gets_a_gradient_next_to_a_float_one():
    i = opsdk.to_tensor(2, stop_gradient=False)  # a 0-d int combines with a float tensor
    w = leaf([1.0, 1.0], "float32")
    (i * w).sum().backward()
    assert not i.stop_gradient and i.grad is None
    np.testing.assert_array_equal(w.grad.numpy(), [2.0, 2.0])


def test_integer_and_float_tensors_with_dimensions_do_not_combine_as_in_paddle():
    with pytest.raises(TypeError, match=r"int64 and float32"):
        opsdk.to_tensor([1, 2]) * opsdk.to_tensor([1.0, 1.0])


# -- errors --------------------------------------------------------------------------------
@pytest.mark.parametrize("op", [opsdk.add, opsdk.multiply, opsdk.maximum],
                         ids=["add", "multiply", "maximum"])
def test_binary_op_with_unbroadcastable_shapes_names_the_op_and_both_shapes(op):
    with pytest.raises(ShapeError, match=r"(?s)" + op.__name__ + r".*\[2, 3\].*\[4\]"):
        op(opsdk.ones([2, 3]), opsdk.ones([4]))


def test_elementwise_op_rejects_a_non_numeric_argument_naming_op_and_argument():
    with pytest.raises(opsdk.errors.OpArgumentError, match=r"add: argument 'y'.*got: str"):
        opsdk.add(opsdk.ones([2]), "abc")


def test_fmax_fmin_ignore_nan_and_send_the_gradient_to_the_side_chosen():
    nan = float("nan")
    for fn, out, to_x in ((opsdk.fmax, [1.0, 2.0, 2.0, nan, 3.0], [1, 1, 0, 1, 1]),
                          (opsdk.fmin, [1.0, 2.0, 2.0, nan, 1.0], [1, 1, 0, 1, 0])):
        x = opsdk.to_tensor([1.0, 2.0, nan, nan, 3.0], dtype="float64", stop_gradient=False)
        y = opsdk.to_tensor([1.0, nan, 2.0, nan, 1.0], dtype="float64", stop_gradient=False)
        z = fn(x, y)
        z.sum().backward()
        np.testing.assert_array_equal(z.numpy(), out)
        np.testing.assert_array_equal(x.grad.numpy(), to_x)
        np.testing.assert_array_equal(y.grad.numpy(), 1 - np.array(to_x))


def test_add_n_sums_a_list_and_refuses_mixed_shapes():
    a = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    b = opsdk.to_tensor([3.0, 4.0])
    s = opsdk.add_n([a, b, a])
    s.sum().backward()
    np.testing.assert_array_equal(s.numpy(), [5.0, 8.0])
    np.testing.assert_array_equal(a.grad.numpy(), [2.0, 2.0])
    assert opsdk.add_n(b) is not b
    with pytest.raises(ShapeError, match="add_n"):
        opsdk.add_n([a, opsdk.ones([3])])
