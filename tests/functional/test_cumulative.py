"""cumsum, cumprod, logcumsumexp: values and dtypes (NumPy, Paddle), gradients to second order
(central differences, Paddle, PyTorch), zeros and special values, in-place forms, errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import LeafInplaceError, OpArgumentError
from helpers.frameworks import (assert_raises_as_paddle, assert_same_as_paddle, assert_same_as_torch,
                                paddle_cases)
from helpers.gradients import assert_gradients
from helpers.samples import signed
from helpers.strategies import axis_for, shapes

inf, nan = np.inf, np.nan


def np_lcse(a, axis):
    return np.logaddexp.accumulate(a, axis=axis)


SCANS = {
    "cumsum": (lambda P, x, a: P.cumsum(x, a), np.cumsum),
    "cumprod": (lambda P, x, a: P.cumprod(x, a), np.cumprod),
    "logcumsumexp": (lambda P, x, a: P.logcumsumexp(x, a), np_lcse),
}


def flat_ref(ref, a, axis):
    return ref(a.reshape(-1), 0) if axis is None else ref(a, axis)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("name", SCANS)
def test_scan_values_match_numpy(name, axis):
    fn, ref = SCANS[name]
    a = signed(2, 3)
    got = fn(opsdk, opsdk.to_tensor(a), axis)
    np.testing.assert_allclose(got.numpy(), flat_ref(ref, a, axis), rtol=1e-12)


@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("name", SCANS)
def test_scan_gradients_match_central_differences(name, axis):
    fn = SCANS[name][0]
    assert_gradients(lambda x: fn(opsdk, x, axis) ** 2, [signed(2, 3)])


@pytest.mark.parametrize("values", [[2.0, 0.0, 3.0, 0.0, 5.0], [0.0, 1.5, -2.0], [1.5, -2.0, 0.0],
                                    [0.0, 0.0, 0.0]], ids=["two_zeros", "lead", "last", "all"])
def test_cumprod_gradients_are_exact_at_zeros_to_second_order(values):
    assert_gradients(lambda x: opsdk.cumprod(x, 0), [np.array(values)])


def test_cumprod_gradients_with_zeros_in_some_rows_of_a_batch():
    a = signed(3, 4)
    a[1, 2] = 0.0
    assert_gradients(lambda x: opsdk.cumprod(x, 1) * 1.5, [a])


def test_cumprod_first_order_is_exact_where_products_overflow():
    x = opsdk.to_tensor([1e200, 1e200, 1e-200], dtype="float64", stop_gradient=False)
    (g,) = opsdk.grad([opsdk.cumprod(x, 0)], [x], [opsdk.to_tensor([1.0, 2, 3], "float64")])
    np.testing.assert_allclose(g.numpy()[:2], [2e200, 2e200])


@pytest.mark.parametrize("values", [[2.0, inf, 0.0], [inf, 0.04, -inf], [0.3, nan, 0.0],
                                    [1e300, 1e300, -0.5, -0.6]], ids=["inf0", "infs", "nan0",
                                                                      "overflow"])
def test_cumprod_special_values_agree_between_both_backward_paths(values):
    x = opsdk.to_tensor(values, dtype="float64", stop_gradient=False)
    ct = opsdk.to_tensor(np.arange(1.0, len(values) + 1), dtype="float64")
    (fast,) = opsdk.grad([opsdk.cumprod(x, 0)], [x], [ct])
    (graph,) = opsdk.grad([opsdk.cumprod(x, 0)], [x], [ct], create_graph=True)
    np.testing.assert_array_equal(fast.numpy(), graph.numpy())


def test_cumprod_gradient_at_a_zero_is_the_product_of_the_others():
    x = opsdk.to_tensor([2.0, 3.0, 0.0, 4.0, 5.0], dtype="float64", stop_gradient=False)
    opsdk.cumprod(x, 0).backward(opsdk.to_tensor([1.0, 2, 3, 4, 5], dtype="float64"))
    np.testing.assert_allclose(x.grad.numpy(), [7, 4, 714, 0, 0])


def test_logcumsumexp_is_stable_for_large_inputs_and_its_gradient_too():
    a = np.array([1000.0, 1000.0, -1000.0])
    assert_gradients(lambda x: opsdk.logcumsumexp(x, 0), [a])
    got = opsdk.logcumsumexp(opsdk.to_tensor(a, dtype="float32")).numpy()
    np.testing.assert_allclose(got, [1000, 1000 + np.log(2), 1000 + np.log(2)], rtol=1e-6)


def test_logcumsumexp_second_order_where_the_cotangent_has_zeros():
    # the cotangent shift (g + c) keeps log() away from 0, so zeros in g are exact
    x0 = signed(5)
    assert_gradients(lambda x: opsdk.logcumsumexp(x, 0) * opsdk.to_tensor(
        np.array([0.0, 1.0, 0.0, -2.0, 0.0])), [x0])


def test_logcumsumexp_of_minus_inf_is_minus_inf_with_zero_gradient():
    x = opsdk.to_tensor([-inf, -inf, 1.0, 2.0], dtype="float64", stop_gradient=False)
    y = opsdk.logcumsumexp(x)
    assert y.numpy()[:2].tolist() == [-inf, -inf]
    y.backward(opsdk.to_tensor([1.0, 1.0, 1.0, 1.0], dtype="float64"))
    g = x.grad.numpy()
    assert g[:2].tolist() == [0.0, 0.0] and np.isfinite(g).all()


def test_logcumsumexp_propagates_nan():
    got = opsdk.logcumsumexp(opsdk.to_tensor([1.0, nan, 2.0])).numpy()
    assert got[0] == 1.0 and np.isnan(got[1:]).all()


@pytest.mark.parametrize("dtype, want", [("int32", "int64"), ("int64", "int64"),
                                         ("float32", "float32")])
def test_cumsum_of_integers_sums_in_int64(dtype, want):
    assert opsdk.cumsum(opsdk.to_tensor([1, 0, 1], dtype=dtype)).dtype == want


def test_cumprod_keeps_the_integer_dtype_and_logcumsumexp_gives_float32():
    x = opsdk.to_tensor([1, 2, 3], dtype="int32")
    assert opsdk.cumprod(x, 0).dtype == "int32"
    assert opsdk.logcumsumexp(x).dtype == "float32"


def test_dtype_argument_casts_first_and_the_gradient_keeps_the_input_dtype():
    x = opsdk.to_tensor([1.0, 2.0], dtype="float32", stop_gradient=False)
    y = opsdk.cumsum(x, dtype="float64")
    assert y.dtype == "float64"
    y.sum().backward()
    assert x.grad.dtype == "float32" and x.grad.numpy().tolist() == [2.0, 1.0]


@pytest.mark.parametrize("name", SCANS)
def test_zero_d_input_scans_as_one_element(name):
    fn = SCANS[name][0]
    x = opsdk.to_tensor(0.5, dtype="float64", stop_gradient=False)
    assert fn(opsdk, x, 0).shape == [] and fn(opsdk, x, None).shape == [1]
    assert_gradients(lambda t: fn(opsdk, t, 0) * 3, [np.array(0.5)])


def test_zero_d_cumprod_takes_only_dim_0_as_paddle():
    assert opsdk.cumsum(opsdk.to_tensor(2.0), -1).item() == 2.0
    with pytest.raises(OpArgumentError, match="cumprod: argument 'dim' out of range"):
        opsdk.cumprod(opsdk.to_tensor(2.0), -1)


def test_a_scan_over_one_element_is_exactly_the_identity():
    x = opsdk.to_tensor([[0.3], [0.7]], stop_gradient=False)
    for op in (opsdk.cumsum, opsdk.cumprod, opsdk.logcumsumexp):
        (g,) = opsdk.grad([op(x, 1)], [x], [opsdk.to_tensor([[1.25], [0.5]])], create_graph=True)
        # a constant, but create_graph results report stop_gradient=False, as Paddle's do
        assert g.numpy().tolist() == [[1.25], [0.5]] and not g.stop_gradient


@pytest.mark.parametrize("name", SCANS)
def test_size_zero_axes_give_empty_results_and_gradients(name):
    fn = SCANS[name][0]
    x = opsdk.zeros([0, 3], dtype="float64")
    x.stop_gradient = False
    y = fn(opsdk, x, 1)
    assert y.shape == [0, 3]
    (g,) = opsdk.grad([y], [x], [opsdk.zeros([0, 3], dtype="float64")])
    assert g.shape == [0, 3]


def test_in_place_cumsum_updates_a_non_leaf_and_keeps_its_graph():
    x = opsdk.to_tensor([1.0, 2.0, 3.0], dtype="float64", stop_gradient=False)
    y = x * 2
    r = y.cumsum_()
    assert r is y and y.numpy().tolist() == [2.0, 6.0, 12.0]
    y.sum().backward()
    assert x.grad.numpy().tolist() == [6.0, 4.0, 2.0]


def test_in_place_cumprod_of_a_leaf_that_needs_grad_is_an_error():
    x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(LeafInplaceError, match="cumprod_"):
        opsdk.cumprod_(x, 0)


def test_in_place_cumsum_under_no_grad_writes_memory_and_bumps_the_version():
    x = opsdk.to_tensor([1, 2, 3], dtype="int32")
    before = x._version
    opsdk.cumsum_(x)
    assert x.dtype == "int32" and x.numpy().tolist() == [1, 3, 6] and x._version == before + 1


def test_in_place_scans_cast_and_flatten_the_tensor_first_as_paddle():
    # Paddle: cumprod_ without a dim flattens x (flatten_), a dtype other than x's casts x in
    # place (cast_), then the scan writes: each step counted in the version; the gradient
    # flows through all of them
    x = opsdk.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=False)
    y = x * 2
    assert opsdk.cumprod_(y, dtype="float64") is y
    assert y.dtype == "float64" and y.shape == [6] and y.inplace_version == 3
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[50362, 25180, 16784], [12576, 9984, 7680]])
    z = opsdk.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    opsdk.cumsum_(z, 1, dtype="float64")
    assert z.dtype == "float64" and z.inplace_version == 2
    assert z.numpy().tolist() == [[1.0, 3.0], [3.0, 7.0]]
    w = opsdk.to_tensor([1.0, 2.0])
    opsdk.cumsum_(w, dtype="float32")  # x's own dtype: no cast step
    assert w.inplace_version == 1


@pytest.mark.parametrize("name", SCANS)
def test_axis_out_of_range_names_the_op_and_the_argument(name):
    fn = SCANS[name][0]
    with pytest.raises(OpArgumentError, match=rf"{name}: argument 'axis' out of range.*got: 2"):
        fn(opsdk, opsdk.ones([2, 2]), 2)


def test_cumsum_truncates_a_fractional_axis_as_paddle_and_the_other_scans_refuse_it():
    # Paddle 3.3.1's cumsum reads axis=1.5 as 1; cumprod, logcumsumexp and cummax refuse a
    # float axis (a TypeError)
    assert_same_as_paddle(lambda P, x: P.cumsum(x, 1.5), [np.arange(6.0).reshape(2, 3)])
    for op in ("logcumsumexp", "cummax"):
        assert_raises_as_paddle(lambda P, op=op: getattr(P, op)(P.ones([2, 3]), 1.0))
    assert_raises_as_paddle(lambda P: P.cumprod(P.ones([2, 3]), dim=1.0))


def test_writing_into_the_cumprod_output_before_backward_is_an_error_as_in_paddle():
    # opsdk's backward recomputes the products from x, but Paddle's reads the output and
    # refuses after a write into it (RuntimeError): so does opsdk
    from opsdk.errors import InplaceModifiedError
    x = opsdk.to_tensor([1.0, 2.0, 3.0], dtype="float64", stop_gradient=False)
    y = opsdk.cumprod(x, 0)
    with opsdk.no_grad():
        y[0] = 5.0
    with pytest.raises(InplaceModifiedError, match="'cumprod' reads its own output"):
        y.sum().backward()


def test_writing_into_the_cumprod_input_before_backward_is_an_error():
    from opsdk.errors import InplaceModifiedError
    w = opsdk.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    x = w * 1
    y = opsdk.cumprod(x, 0)
    with opsdk.no_grad():
        x[0] = 5.0
    with pytest.raises(InplaceModifiedError, match="cumprod"):
        y.sum().backward()


@settings(max_examples=40, deadline=None)
@given(shape=shapes(max_dims=3, max_side=3), data=st.data())
def test_scans_over_any_shape_match_numpy_and_central_differences(shape, data):
    name = data.draw(st.sampled_from(sorted(SCANS)))
    axis = data.draw(st.none() | axis_for(len(shape)))
    if name == "cumprod" and not shape and axis == -1:
        axis = 0  # (Paddle refuses -1 there; tested above)
    fn, ref = SCANS[name]
    a = signed(*shape, seed=data.draw(st.integers(0, 99)))
    got = fn(opsdk, opsdk.to_tensor(a), axis)
    want = ref(a.reshape(-1), 0) if axis is None or a.ndim == 0 else ref(a, axis)
    np.testing.assert_allclose(got.numpy(), np.reshape(want, got.shape), rtol=1e-12)
    if a.size <= 9:
        assert_gradients(lambda x: fn(opsdk, x, axis) * 1.5, [a])


# -- against Paddle ---------------------------------------------------------------------------
PADDLE_CASES = {
    "cumsum_2d": (lambda P, x: P.cumsum(x, 1), [signed(2, 3)]),
    "cumsum_flat": (lambda P, x: P.cumsum(x), [signed(2, 3)]),
    "cumsum_neg_axis_3d": (lambda P, x: P.cumsum(x, -2), [signed(2, 3, 2)]),
    "cumprod_zeros": (lambda P, x: P.cumprod(x, 0), [np.array([2.0, 0.0, 3.0, 0.0, 5.0])]),
    "cumprod_one_zero": (lambda P, x: P.cumprod(x, 0), [np.array([2.0, 3.0, 0.0, 4.0, 5.0])]),
    "cumprod_inf": (lambda P, x: P.cumprod(x, 0), [np.array([2.0, inf, 3.0])]),
    "cumprod_nan": (lambda P, x: P.cumprod(x, 0), [np.array([2.0, nan, 3.0])]),
    "cumprod_overflow": (lambda P, x: P.cumprod(x, 0), [np.array([1e200, 1e200, 1e-200])]),
    "cumprod_inf_and_zero": (lambda P, x: P.cumprod(x, 0), [np.array([2.0, inf, 0.0, -1.5])]),
    "cumprod_infs": (lambda P, x: P.cumprod(x, 0), [np.array([inf, 0.5, -inf, 2.0])]),
    "cumprod_overflow_cancels": (lambda P, x: P.cumprod(x, 0),
                                 [np.array([1e300, 1e300, -0.5, -0.6])]),
    "cumprod_rows": (lambda P, x: P.cumprod(x, dim=1), [np.array([[2.0, 0, 4], [1, 2, 3]])]),
    "lcse": (lambda P, x: P.logcumsumexp(x, 0), [signed(5)]),
    "lcse_large": (lambda P, x: P.logcumsumexp(x, 0), [np.array([1000.0, -1000.0, 3.0])]),
    "lcse_axis1": (lambda P, x: P.logcumsumexp(x, 1), [signed(2, 4)]),
    "cumsum_0d": (lambda P, x: P.cumsum(x, 0), [np.array(2.5)]),
    "cumprod_0d_flat": (lambda P, x: P.cumprod(x), [np.array(2.5)]),
}


test_values_and_gradients_match_paddle = paddle_cases(PADDLE_CASES)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
@pytest.mark.parametrize("name", ["cumsum", "cumprod", "logcumsumexp"])
def test_dtypes_match_paddle(name, dtype):
    assert_same_as_paddle(lambda P, x: getattr(P, name)(x, 0), [np.array([1, 2, 3])],
                          dtypes=[dtype], diff=(), rtol=1e-6)


@pytest.mark.paddle
@settings(max_examples=25, deadline=None, derandomize=True)
@given(shape=shapes(min_dims=1, max_dims=3, min_side=1, max_side=4), data=st.data())
def test_random_scans_match_paddle(shape, data):
    name = data.draw(st.sampled_from(["cumsum", "cumprod", "logcumsumexp"]))
    axis = data.draw(axis_for(len(shape)))
    a = signed(*shape, seed=data.draw(st.integers(0, 99)))
    if name == "cumprod" and data.draw(st.booleans()):
        a.reshape(-1)[data.draw(st.integers(0, a.size - 1))] = 0.0
    assert_same_as_paddle(lambda P, x: getattr(P, name)(x, axis), [a], rtol=1e-9)


# -- against PyTorch --------------------------------------------------------------------------
@pytest.mark.torch
@pytest.mark.parametrize("values", [[2.0, 0.0, 3.0, 0.0, 5.0], [1.5, -0.5, 2.0, 0.7]])
def test_cumprod_matches_torch(values):
    assert_same_as_torch(lambda P, x: P.cumprod(x, 0), lambda x: x.cumprod(0),
                         [np.array(values)])


@pytest.mark.torch
def test_logcumsumexp_and_cumsum_match_torch():
    a = signed(3, 4)
    assert_same_as_torch(lambda P, x: P.logcumsumexp(x, 1), lambda x: x.logcumsumexp(1), [a])
    assert_same_as_torch(lambda P, x: P.cumsum(x, 0), lambda x: x.cumsum(0), [a])


def test_logcumsumexp_of_a_complex_tensor_is_a_dtype_error():
    from opsdk.errors import DTypeError
    with pytest.raises(DTypeError, match="logcumsumexp: expected: a real tensor"):
        opsdk.logcumsumexp(opsdk.to_tensor(np.ones(2, np.complex64)))


@pytest.mark.parametrize("op", ["cumsum", "cumsum_", "cumprod", "cummax", "cummin",
                                "logcumsumexp"])
def test_the_scans_refuse_bools_as_paddle(op):
    from helpers.frameworks import assert_raises_as_paddle
    err = assert_raises_as_paddle(lambda P: getattr(P.to_tensor([True, False, True]), op)(0),
                                  RuntimeError)
    assert f"{op}: argument 'x' must not be a bool tensor" in str(err)


def test_cumsum_of_bools_needs_a_dtype_as_in_paddle():
    got = opsdk.cumsum(opsdk.to_tensor([True, False, True]), dtype="int64")
    assert got.dtype == "int64" and got.numpy().tolist() == [1, 1, 2]


@pytest.mark.parametrize("op, builtin", [("cumsum", IndexError), ("logcumsumexp", IndexError),
                                         ("cumprod", ValueError)])
def test_an_axis_out_of_range_is_the_error_paddle_raises(op, builtin):
    from helpers.frameworks import assert_raises_as_paddle
    assert_raises_as_paddle(lambda P: getattr(P, op)(P.ones([2, 3]), 3), builtin)
    assert_raises_as_paddle(lambda P: getattr(P, op)(P.ones([2, 3]), -3), builtin)
