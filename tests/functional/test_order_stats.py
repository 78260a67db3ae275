"""kthvalue, mode, median: values, int64 indices and dtypes (NumPy, Paddle, PyTorch), ties,
NaN, even counts, gradients to second order, 0-d and size-0 inputs, errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import OpArgumentError
from helpers.frameworks import assert_same_as_paddle, assert_same_as_torch, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import distinct
from helpers.strategies import axis_for, distinct_values, shapes

nan = np.nan


def leaf(v):
    return opsdk.to_tensor(np.asarray(v, dtype="float64"), dtype="float64", stop_gradient=False)


def grad_of(fn, v):
    x = leaf(v)
    y = fn(x)
    y = y[0] if isinstance(y, tuple) else y
    (g,) = opsdk.grad([y], [x], [opsdk.ones(y.shape, dtype="float64")])
    return g.numpy().tolist()


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_kthvalue_matches_numpy(k, axis):
    a = distinct(3, 4)
    v, i = opsdk.kthvalue(opsdk.to_tensor(a), k, axis)
    want = np.sort(a, axis=axis).take(k - 1, axis=axis)
    np.testing.assert_array_equal(v.numpy(), want)
    np.testing.assert_array_equal(np.take_along_axis(a, np.expand_dims(i.numpy(), axis), axis)
                                  .squeeze(axis), want)


def test_kthvalue_keepdim_and_default_last_axis():
    v, i = opsdk.kthvalue(opsdk.to_tensor([[1.0, 3, 2], [6, 5, 4]]), 2, keepdim=True)
    assert v.numpy().tolist() == [[2.0], [5.0]] and i.numpy().tolist() == [[2], [1]]


@pytest.mark.parametrize("axis", [0, -1])
def test_kthvalue_gradients_match_central_differences(axis):
    assert_gradients(lambda x: opsdk.kthvalue(x, 2, axis)[0] ** 2, [distinct(3, 4)])


def test_mode_picks_the_most_frequent_then_the_smallest_and_its_last_index():
    cases = [([3.0, 1, 2, 1, 3], 1.0, 3), ([2.0, 3, 3, 2], 2.0, 3), ([5.0, 4, 4, 5, 6, 6], 4.0, 2),
             ([5.0, 4, 7], 4.0, 1), ([nan, nan, 1.0], 1.0, 2), ([nan, nan], nan, 0)]
    for values, value, index in cases:
        v, i = opsdk.mode(opsdk.to_tensor(values))
        assert (np.isnan(v.item()) if np.isnan(value) else v.item() == value), values
        assert i.item() == index, values


def test_mode_gradient_goes_to_the_returned_index():
    assert grad_of(lambda x: opsdk.mode(x), [3.0, 1.0, 1.0]) == [0.0, 0.0, 1.0]
    # with every value held once the mode is the smallest, a differentiable choice
    assert_gradients(lambda x: opsdk.mode(x, 0)[0] ** 2, [distinct(3, 2)])


def test_median_values_for_odd_and_even_counts():
    assert opsdk.median(opsdk.to_tensor([3.0, 1, 2])).item() == 2.0
    assert opsdk.median(opsdk.to_tensor([3.0, 1, 2, 4])).item() == 2.5
    v, i = opsdk.median(opsdk.to_tensor([3.0, 1, 2, 4]), 0, mode="min")
    assert v.item() == 2.0 and i.item() == 2


def test_median_splits_the_gradient_between_the_two_middle_values():
    assert grad_of(lambda x: opsdk.median(x), [3.0, 1, 2, 4]) == [0.5, 0, 0.5, 0]


def test_median_gradient_among_equal_values_is_paddles():
    third = 1 / 3
    # equal middle values share the gradient with every element equal to them
    assert grad_of(lambda x: opsdk.median(x), [1.0, 1, 1]) == [third] * 3
    assert grad_of(lambda x: opsdk.median(x), [2.0, 1, 2, 3]) == [0.5, 0, 0.5, 0]
    assert grad_of(lambda x: opsdk.median(x, mode="min"), [1.0, 1, 2, 2]) == [0.5, 0.5, 0, 0]
    # two different middle values take half each, at the copies Paddle's selection picks
    assert grad_of(lambda x: opsdk.median(x), [1.0, 1, 2, 2]) == [0.5, 0, 0, 0.5]
    assert grad_of(lambda x: opsdk.median(x), [5.0, 1, 1, 5]) == [0.5, 0, 0.5, 0]
    v, i = opsdk.median(opsdk.to_tensor([1.0, 1, 1, 1]), 0, mode="min")
    assert i.item() == 3
    # elements equal to the (rounded) mean take it all, as in Paddle
    assert grad_of(lambda x: opsdk.median(x), [1.0, -np.inf]) == [0.0, 1.0]
    assert grad_of(lambda x: opsdk.median(x), [-np.inf, -np.inf, 1, 2]) == [0.5, 0.5, 0, 0]


def test_median_with_nan_is_nan_and_the_gradient_goes_to_the_nans():
    assert np.isnan(opsdk.median(opsdk.to_tensor([3.0, nan, 2])).item())
    assert grad_of(lambda x: opsdk.median(x), [3.0, nan, 2, nan]) == [0, 0.5, 0, 0.5]
    v, i = opsdk.median(opsdk.to_tensor([3.0, nan, 2, nan]), 0, mode="min")
    assert np.isnan(v.item()) and i.item() == 1


def test_a_nan_in_one_row_leaves_the_median_gradient_of_the_others_alone():
    # Paddle 3.3.1 gives row 0 [0, 1, 0, 0] here: a NaN anywhere turns its 'avg' gradient of
    # every even row into the lower middle's alone
    g = grad_of(lambda x: opsdk.median(x, 1), [[1.0, 2, 3, 4], [5, nan, 6, 7]])
    assert g == [[0, 0.5, 0.5, 0], [0, 1, 0, 0]]


@pytest.mark.parametrize("mode", ["avg", "min"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_median_gradients_match_central_differences(axis, mode):
    def fn(x):
        y = opsdk.median(x, axis, mode=mode)
        return (y[0] if isinstance(y, tuple) else y) ** 2
    assert_gradients(fn, [distinct(3, 4)])


def test_median_dtypes_follow_paddle():
    ints = opsdk.to_tensor([3, 1, 2, 4], dtype="int32")
    assert opsdk.median(ints).dtype == "float32" and opsdk.median(ints).item() == 2.5
    assert opsdk.median(ints, mode="min").dtype == "int32"
    v, i = opsdk.median(ints, 0, mode="min")
    assert v.dtype == "int32" and i.dtype == "int64"
    assert opsdk.median(opsdk.to_tensor([1.0], dtype="float64")).dtype == "float64"


def test_median_keepdim_shapes():
    x = opsdk.to_tensor([[3.0, 1], [2, 4]])
    assert opsdk.median(x, keepdim=True).shape == [1, 1]
    assert opsdk.median(x, 1, keepdim=True).shape == [2, 1]


def test_median_called_with_torch_aliases_defaults_to_the_lower_median_with_indices():
    v, i = opsdk.median(input=opsdk.to_tensor([3.0, 1, 2, 4]), dim=0)
    assert v.item() == 2.0 and i.item() == 2
    assert opsdk.median(input=opsdk.to_tensor([3.0, 1, 2, 4]), dim=0, mode="avg").item() == 2.5


def test_zero_d_and_size_zero_inputs():
    x = leaf(3.0)
    assert opsdk.median(x).shape == [] and opsdk.median(x, 0).item() == 3.0
    v, i = opsdk.kthvalue(x, 1)
    assert v.shape == [] and i.item() == 0
    v, i = opsdk.mode(x)
    assert v.item() == 3.0 and i.item() == 0
    empty = opsdk.zeros([0, 3])
    assert np.isnan(opsdk.median(empty).item())
    assert np.isnan(opsdk.median(empty, 0).numpy()).all() and opsdk.median(empty, 1).shape == [0]
    assert opsdk.kthvalue(empty, 1)[0].shape == [0] and opsdk.mode(empty)[0].shape == [0]


def test_zero_d_inputs_pass_the_cotangent_through():
    # Paddle 3.3.1's kthvalue and mode of a 0-d tensor return gradient 1 whatever comes in
    for op in (lambda x: opsdk.kthvalue(x, 1)[0], lambda x: opsdk.mode(x)[0]):
        x = leaf(2.0)
        (g,) = opsdk.grad([op(x)], [x], [opsdk.to_tensor(0.5, dtype="float64")])
        assert g.item() == 0.5


@pytest.mark.parametrize("call", [lambda x: opsdk.kthvalue(x, 1, 0), lambda x: opsdk.mode(x, 0),
                                  lambda x: opsdk.median(x, 0, mode="min")],
                         ids=["kthvalue", "mode", "median_min"])
def test_an_index_over_an_empty_axis_is_an_error(call):
    with pytest.raises(OpArgumentError, match="axis 0 is empty"):
        call(opsdk.zeros([0, 3]))


def test_argument_errors_name_the_op():
    x = opsdk.ones([2, 3])
    with pytest.raises(OpArgumentError, match="kthvalue: argument 'k' exceeds"):
        opsdk.kthvalue(x, 4)
    with pytest.raises(OpArgumentError, match="kthvalue: argument 'k' must be at least 1"):
        opsdk.kthvalue(x, 0)
    with pytest.raises(OpArgumentError, match="median: argument 'mode' must be 'avg' or 'min'"):
        opsdk.median(x, mode="max")
    with pytest.raises(OpArgumentError, match="median: argument 'axis' must be None or an int"):
        opsdk.median(x, [0, 1])
    with pytest.raises(OpArgumentError, match="mode: argument 'axis' out of range"):
        opsdk.mode(x, 2)


@settings(max_examples=40, deadline=None)
@given(shape=shapes(max_dims=3, max_side=4), data=st.data())
def test_order_statistics_on_any_shape(shape, data):
    a = distinct_values(shape, data.draw(st.integers(0, 99)))
    axis = data.draw(axis_for(len(shape)))
    ax = axis % max(a.ndim, 1)
    n = 1 if a.ndim == 0 else a.shape[ax]
    b = a.reshape(1) if a.ndim == 0 else a
    if n == 0:
        return
    np.testing.assert_allclose(opsdk.median(opsdk.to_tensor(a), axis).numpy(),
                               np.median(b, axis=ax).reshape(opsdk.median(
                                   opsdk.to_tensor(a), axis).shape))
    k = data.draw(st.integers(1, n))
    np.testing.assert_array_equal(opsdk.kthvalue(opsdk.to_tensor(a), k, axis)[0].numpy(),
                                  np.sort(b, axis=ax).take(k - 1, axis=ax).reshape(
                                      opsdk.kthvalue(opsdk.to_tensor(a), k, axis)[0].shape))
    if a.size <= 12:
        assert_gradients(lambda x: opsdk.median(x, axis) * opsdk.kthvalue(x, k, axis)[0], [a])


# -- against Paddle ---------------------------------------------------------------------------
PADDLE_CASES = {
    "kthvalue": (lambda P, x: P.kthvalue(x, 2), [distinct(3, 4)]),
    "kthvalue_axis0_keepdim": (lambda P, x: P.kthvalue(x, 3, 0, True), [distinct(4, 2)]),
    "kthvalue_nan": (lambda P, x: P.kthvalue(x, 2), [np.array([nan, 1.0, -np.inf, 2.0])]),
    "mode": (lambda P, x: P.mode(x), [np.array([[3.0, 1, 2, 1, 3], [2.0, 3, 3, 2, 5]])]),
    "mode_axis0": (lambda P, x: P.mode(x, 0, keepdim=True),
                   [np.array([[1.0, 2], [1, 3], [4, 3]])]),
    "mode_nan": (lambda P, x: P.mode(x), [np.array([nan, nan, 1.0, 1.0])]),
    "median_odd": (lambda P, x: P.median(x), [distinct(3, 3)]),
    "median_even_axis": (lambda P, x: P.median(x, 1), [distinct(3, 4)]),
    "median_min_axis": (lambda P, x: P.median(x, 0, mode="min"), [distinct(4, 3)]),
    "median_min_flat": (lambda P, x: P.median(x, mode="min"), [distinct(2, 3)]),
    "median_equal_middles": (lambda P, x: P.median(x, 0), [np.array([1.0, 2, 2, 2])]),
    "median_all_equal": (lambda P, x: P.median(x), [np.array([1.0, 1, 1, 1])]),
    "median_nan": (lambda P, x: P.median(x, 1), [np.array([[3.0, nan, 2, nan], [1, 2, 3, 4]])]),
    "median_keepdim": (lambda P, x: P.median(x, keepdim=True), [distinct(2, 3)]),
    "median_0d": (lambda P, x: P.median(x, 0, mode="min"), [np.array(2.0)]),
}


test_values_indices_and_gradients_match_paddle = paddle_cases(PADDLE_CASES)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_dtypes_match_paddle(dtype):
    a = [np.array([[3, 1, 2, 1], [4, 4, 2, 5]])]
    assert_same_as_paddle(lambda P, x: [*P.kthvalue(x, 2), *P.mode(x), P.median(x),
                                        P.median(x, 1), *P.median(x, 1, mode="min")],
                          a, dtypes=[dtype], diff=())


@pytest.mark.paddle
@settings(max_examples=40, deadline=None, derandomize=True)
@given(n=st.integers(1, 150), levels=st.integers(1, 4), seed=st.integers(0, 9999),
       data=st.data())
def test_indices_and_gradients_among_ties_match_paddle(n, levels, seed, data):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, levels, size=(2, n)).astype(float)
    if data.draw(st.booleans()):
        # a NaN in every row: Paddle's median gradient of NaN-free rows is wrong when another
        # row has one (see test_a_nan_in_one_row_leaves...)
        a[np.arange(len(a)), rng.integers(0, n, size=len(a))] = nan
    k = data.draw(st.integers(1, n))
    small = data.draw(st.integers(1, max(1, n // 64)))
    assert_same_as_paddle(lambda P, x: [*P.kthvalue(x, k), *P.kthvalue(x, small), P.median(x, 1),
                                        *P.median(x, 1, mode="min"), *P.mode(x)], [a])


@pytest.mark.paddle
@settings(max_examples=25, deadline=None, derandomize=True)
@given(shape=shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), data=st.data())
def test_random_order_statistics_match_paddle(shape, data):
    a = distinct_values(shape, data.draw(st.integers(0, 99)))
    axis = data.draw(axis_for(len(shape)))
    k = data.draw(st.integers(1, shape[axis]))
    assert_same_as_paddle(lambda P, x: [*P.kthvalue(x, k, axis), P.median(x, axis),
                                        *P.median(x, axis, mode="min")], [a])


# -- against PyTorch --------------------------------------------------------------------------
@pytest.mark.torch
def test_kthvalue_and_lower_median_match_torch():
    a = distinct(3, 5)
    assert_same_as_torch(lambda P, x: list(P.kthvalue(x, 2, 1)),
                         lambda x: list(x.kthvalue(2, 1)), [a])
    assert_same_as_torch(lambda P, x: list(P.median(x, 1, mode="min")),
                         lambda x: list(x.median(1)), [a])
