"""sort, argsort, topk: values and int64 indices (NumPy, Paddle, PyTorch), stable tie order,
NaN placement, gradients to second order, 0-d and size-0 inputs, errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import OpArgumentError
from helpers.frameworks import assert_same_as_paddle, assert_same_as_torch, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import distinct
from helpers.strategies import axis_for, distinct_values, shapes

inf, nan = np.inf, np.nan
TIES = np.array([3.0, 1.0, 2.0, 1.0, 3.0, 1.0])
SPECIAL = np.array([nan, 1.0, -inf, inf, nan, 0.0, -0.0])


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_and_argsort_match_numpy(axis, descending):
    a = distinct(3, 4)
    x = opsdk.to_tensor(a)
    want = np.sort(a, axis=axis)
    if descending:
        want = np.flip(want, axis)
    np.testing.assert_array_equal(opsdk.sort(x, axis, descending).numpy(), want)
    idx = opsdk.argsort(x, axis, descending)
    assert idx.dtype == "int64"
    np.testing.assert_array_equal(np.take_along_axis(a, idx.numpy(), axis), want)


def test_ties_keep_their_input_order_in_both_directions():
    x = opsdk.to_tensor(TIES)
    assert opsdk.argsort(x).numpy().tolist() == [1, 3, 5, 2, 0, 4]
    assert opsdk.argsort(x, descending=True).numpy().tolist() == [0, 4, 2, 1, 3, 5]


def test_long_rows_with_ties_come_in_paddles_order_unless_stable():
    # Paddle's std::sort is an insertion sort up to 16 elements (stable), an introsort beyond
    x = opsdk.to_tensor(np.array([1.0, 0.0] * 10))
    # measured on paddlepaddle 3.3.1
    assert opsdk.argsort(x).numpy().tolist() == [1, 19, 17, 15, 13, 11, 9, 7, 5, 3, 8, 6, 10,
                                                 12, 4, 14, 16, 2, 18, 0]
    assert opsdk.argsort(x, stable=True).numpy().tolist() == (list(range(1, 20, 2)) +
                                                             list(range(0, 20, 2)))


def test_nan_sorts_last_going_up_and_first_going_down():
    x = opsdk.to_tensor(SPECIAL)
    assert opsdk.argsort(x).numpy().tolist() == [2, 5, 6, 1, 3, 0, 4]
    assert opsdk.argsort(x, descending=True).numpy().tolist() == [0, 4, 3, 1, 5, 6, 2]


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("axis", [0, -1])
def test_sort_gradients_match_central_differences(axis, descending):
    assert_gradients(lambda x: opsdk.sort(x, axis, descending) ** 2 *
                     opsdk.to_tensor(distinct(3, 4, seed=1)), [distinct(3, 4)])


def test_sort_routes_the_gradient_of_tied_values_by_their_order():
    x = opsdk.to_tensor([1.0, 1.0, 2.0], dtype="float64", stop_gradient=False)
    opsdk.sort(x).backward(opsdk.to_tensor([1.0, 2.0, 3.0], dtype="float64"))
    assert x.grad.numpy().tolist() == [1.0, 2.0, 3.0]


@pytest.mark.parametrize("largest", [True, False])
def test_topk_values_indices_and_gradients(largest):
    a = distinct(3, 5)
    v, i = opsdk.topk(opsdk.to_tensor(a), 2, axis=1, largest=largest)
    order = np.argsort(-a if largest else a, axis=1)[:, :2]
    np.testing.assert_array_equal(i.numpy(), order)
    np.testing.assert_array_equal(v.numpy(), np.take_along_axis(a, order, 1))
    assert_gradients(lambda x: opsdk.topk(x, 2, axis=0, largest=largest)[0] ** 2, [a])


def test_topk_returns_a_named_tuple_as_paddle():
    res = opsdk.to_tensor([1.0, 3.0, 2.0]).topk(2)
    assert res.values.numpy().tolist() == [3.0, 2.0] and res.indices.numpy().tolist() == [1, 2]
    assert res._fields == ("values", "indices") and isinstance(res, tuple)


def test_topk_defaults_to_the_last_axis_and_picks_among_ties_as_paddle():
    v, i = opsdk.topk(opsdk.to_tensor(TIES), 4)
    assert v.numpy().tolist() == [3, 3, 2, 1] and i.numpy().tolist() == [4, 0, 2, 3]
    v, i = opsdk.topk(opsdk.to_tensor(TIES), 4, largest=False)
    assert i.numpy().tolist() == [3, 5, 1, 2]
    v, i = opsdk.topk(opsdk.to_tensor(SPECIAL), 3)
    assert np.isnan(v.numpy()[:2]).all() and i.numpy().tolist() == [0, 4, 3]


def test_zero_d_inputs_sort_as_one_element():
    x = opsdk.to_tensor(2.5, dtype="float64", stop_gradient=False)
    assert opsdk.sort(x).shape == [] and opsdk.argsort(x).numpy() == 0
    v, i = opsdk.topk(x, 1)
    assert v.shape == [] and i.numpy() == 0
    assert_gradients(lambda t: opsdk.sort(t) * 2, [np.array(2.5)])


def test_size_zero_inputs_give_empty_results():
    x = opsdk.zeros([0, 3])
    assert opsdk.sort(x, 0).shape == [0, 3] and opsdk.argsort(x, 1).shape == [0, 3]
    v, i = opsdk.topk(x, 2)
    assert v.shape == [0, 2] and i.shape == [0, 2]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 999), k=st.integers(1, 5), largest=st.booleans(),
       special=st.booleans())
def test_topk_of_a_few_among_many_agrees_with_the_sort(seed, k, largest, special):
    # k * 8 < n takes the partition path; without ties there is one right answer
    rng = np.random.default_rng(seed)
    a = rng.permutation(np.linspace(-1, 1, 150)).reshape(3, 50)
    if special:
        a[0, rng.integers(0, 50)], a[1, rng.integers(0, 50)] = inf, -inf
        a[2, rng.integers(0, 50)] = nan
    v, i = opsdk.topk(opsdk.to_tensor(a), k, 1, largest)
    want = opsdk.argsort(opsdk.to_tensor(a), 1, descending=largest).numpy()[:, :k]
    np.testing.assert_array_equal(i.numpy(), want)
    np.testing.assert_array_equal(v.numpy(), np.take_along_axis(a, want, 1))


@pytest.mark.parametrize("k", [0, -1, 7])
def test_topk_k_out_of_range_is_an_error(k):
    with pytest.raises(OpArgumentError, match="topk: argument 'k'"):
        opsdk.topk(opsdk.to_tensor(TIES), k)


def test_sort_axis_out_of_range_names_the_op():
    with pytest.raises(OpArgumentError, match="sort: argument 'axis' out of range"):
        opsdk.sort(opsdk.ones([2]), 1)
    with pytest.raises(OpArgumentError, match="argsort: argument 'axis' out of range"):
        opsdk.argsort(opsdk.ones([2]), -2)


def test_sort_refuses_torch_keywords_as_paddle_does():
    with pytest.raises(TypeError):
        opsdk.sort(opsdk.ones([2]), dim=0)


def test_topk_accepts_paddle_aliases_and_a_tensor_k():
    v, _ = opsdk.topk(input=opsdk.to_tensor([1.0, 3.0, 2.0]), k=opsdk.to_tensor(2), dim=0)
    assert v.numpy().tolist() == [3.0, 2.0]


@settings(max_examples=40, deadline=None)
@given(shape=shapes(max_dims=3, max_side=4), data=st.data())
def test_sort_and_topk_on_any_shape(shape, data):
    a = distinct_values(shape, data.draw(st.integers(0, 99)))
    axis = data.draw(axis_for(len(shape)))
    descending = data.draw(st.booleans())
    got = opsdk.sort(opsdk.to_tensor(a), axis, descending).numpy()
    want = np.sort(a.reshape(-1) if a.ndim == 0 else a, axis=0 if a.ndim == 0 else axis)
    want = np.flip(want, 0 if a.ndim == 0 else axis) if descending else want
    np.testing.assert_array_equal(got, want.reshape(got.shape))
    n = 1 if a.ndim == 0 else a.shape[axis]
    if n and a.size <= 12:
        k = data.draw(st.integers(1, n))
        assert_gradients(lambda x: opsdk.topk(x, k, axis, largest=descending)[0] * 1.5, [a])


# -- against Paddle ---------------------------------------------------------------------------
PADDLE_CASES = {
    "sort": (lambda P, x: P.sort(x), [distinct(2, 5)]),
    "sort_axis0_desc": (lambda P, x: P.sort(x, 0, descending=True), [distinct(3, 2)]),
    "sort_nan": (lambda P, x: P.sort(x), [SPECIAL]),
    "sort_nan_desc": (lambda P, x: P.sort(x, descending=True), [SPECIAL]),
    "argsort_stable": (lambda P, x: P.argsort(x, stable=True), [TIES]),
    "argsort_stable_desc": (lambda P, x: P.argsort(x, descending=True, stable=True), [TIES]),
    "argsort_nan": (lambda P, x: P.argsort(x), [SPECIAL]),
    "topk": (lambda P, x: P.topk(x, 3), [distinct(2, 5)]),
    "topk_axis0_smallest": (lambda P, x: P.topk(x, 2, axis=0, largest=False), [distinct(4, 3)]),
    "topk_nan": (lambda P, x: P.topk(x, 3), [SPECIAL]),
    "topk_0d": (lambda P, x: P.topk(x, 1), [np.array(2.0)]),
    "sort_0d": (lambda P, x: P.sort(x), [np.array(2.0)]),
}


test_values_indices_and_gradients_match_paddle = paddle_cases(PADDLE_CASES)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_dtypes_match_paddle(dtype):
    a = [np.array([3, 1, 2])]
    assert_same_as_paddle(lambda P, x: [P.sort(x), P.argsort(x), *P.topk(x, 2)], a,
                          dtypes=[dtype], diff=())


@pytest.mark.paddle
@settings(max_examples=40, deadline=None, derandomize=True)
@given(n=st.integers(1, 150), rows=st.integers(1, 3), levels=st.integers(1, 5),
       seed=st.integers(0, 9999), data=st.data())
def test_indices_among_ties_match_paddle(n, rows, levels, seed, data):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, levels, size=(rows, n)).astype(float)
    if data.draw(st.booleans()):
        a.reshape(-1)[rng.integers(0, a.size, size=2)] = nan
    k = data.draw(st.integers(1, n))
    small = data.draw(st.integers(1, max(1, n // 64)))
    desc = data.draw(st.booleans())
    assert_same_as_paddle(lambda P, x: [P.argsort(x, descending=desc), P.sort(x, descending=desc),
                                        *P.topk(x, k, largest=desc), *P.topk(x, small)], [a])


@pytest.mark.paddle
@settings(max_examples=25, deadline=None, derandomize=True)
@given(shape=shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), data=st.data())
def test_random_sorts_match_paddle(shape, data):
    a = distinct_values(shape, data.draw(st.integers(0, 99)))
    axis = data.draw(axis_for(len(shape)))
    k = data.draw(st.integers(1, shape[axis]))
    largest = data.draw(st.booleans())
    assert_same_as_paddle(lambda P, x: [P.sort(x, axis, not largest), *P.topk(x, k, axis,
                                                                           largest)], [a])


# -- against PyTorch --------------------------------------------------------------------------
@pytest.mark.torch
def test_sort_and_topk_match_torch():
    a = distinct(3, 4)
    assert_same_as_torch(lambda P, x: list(P.topk(x, 2, 1)), lambda x: list(x.topk(2, 1)), [a])
    assert_same_as_torch(lambda P, x: P.sort(x, 0, descending=True),
                         lambda x: x.sort(0, descending=True).values, [a])


def test_index_outputs_report_the_input_stop_gradient_in_grad_mode():
    # Paddle: argsort's and topk's indices say stop_gradient=False (no gradient flows)
    x = opsdk.to_tensor([3.0, 1.0, 2.0], stop_gradient=False)
    idx, (_, top_idx) = opsdk.argsort(x), opsdk.topk(x, 2)
    for t in (idx, top_idx, opsdk.kthvalue(x, 1)[1], opsdk.mode(x)[1]):
        assert not t.stop_gradient and not t.is_leaf
    with opsdk.no_grad():
        assert opsdk.argsort(x).stop_gradient and opsdk.topk(x, 2)[1].stop_gradient
    assert opsdk.argsort(opsdk.to_tensor([3.0, 1.0])).stop_gradient
    assert opsdk.argmax(x).stop_gradient  # argmax stays True, as in Paddle
