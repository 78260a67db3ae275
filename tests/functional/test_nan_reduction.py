"""nansum, nanmean, count_nonzero: values and dtypes (NumPy, Paddle), NaN positions get
gradient 0, all-NaN slices, gradients to second order, 0-d and size-0 inputs."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import OpArgumentError
from helpers.frameworks import assert_same_as_paddle, assert_same_as_torch, paddle_cases
from helpers.gradients import assert_first_order
from helpers.samples import signed
from helpers.strategies import shapes

nan = np.nan
WITH_NAN = np.array([[nan, 1.0, 2.0], [3.0, nan, nan], [nan, nan, nan]])


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1, [0, 1]])
def test_nansum_nanmean_count_nonzero_match_numpy(axis, keepdim):
    ax = tuple(axis) if isinstance(axis, list) else axis
    x = opsdk.to_tensor(WITH_NAN)
    np.testing.assert_allclose(opsdk.nansum(x, axis, keepdim=keepdim).numpy(),
                               np.nansum(WITH_NAN, axis=ax, keepdims=keepdim))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy warns about the all-NaN row
        want = np.nanmean(WITH_NAN, axis=ax, keepdims=keepdim)
    np.testing.assert_allclose(opsdk.nanmean(x, axis, keepdim).numpy(), want, equal_nan=True)
    c = opsdk.count_nonzero(x, axis, keepdim)
    assert c.dtype == "int64"
    np.testing.assert_array_equal(c.numpy(), np.count_nonzero(WITH_NAN, axis=ax,
                                                              keepdims=keepdim))


def test_nan_positions_get_zero_gradient():
    x = opsdk.to_tensor(WITH_NAN, dtype="float64", stop_gradient=False)
    (gs,) = opsdk.grad([opsdk.nansum(x)], [x])
    np.testing.assert_array_equal(gs.numpy(), np.where(np.isnan(WITH_NAN), 0, 1))
    (gm,) = opsdk.grad([opsdk.nanmean(x, 1)], [x], [opsdk.ones([3], dtype="float64")])
    np.testing.assert_allclose(gm.numpy(), [[0, 0.5, 0.5], [1, 0, 0], [0, 0, 0]])


def test_gradients_away_from_nan_match_central_differences():
    a = signed(3, 4)
    mask = np.zeros((3, 4), bool)
    mask[0, 1] = mask[2, 3] = True

    def with_nan(x):
        return opsdk.where(opsdk.to_tensor(mask), opsdk.to_tensor(nan, dtype="float64"), x)
    # the oracle differentiates through NaN-free values; the NaN positions get exactly 0
    for fn in (lambda x: opsdk.nansum(with_nan(x), 1) ** 2,
               lambda x: opsdk.nanmean(with_nan(x), 0) ** 2):
        assert_first_order(fn, [a])


def test_nanmean_second_order():
    from helpers.gradients import assert_second_order
    assert_second_order(lambda x: opsdk.nanmean(x * x, 1) ** 2, [signed(2, 3)])


def test_dtypes_follow_paddle():
    ints = opsdk.to_tensor([1, 2, 3], dtype="int32")
    assert opsdk.nansum(ints).dtype == "int64" and opsdk.nanmean(ints).dtype == "float32"
    assert opsdk.nansum(opsdk.to_tensor([nan, 1.0]), dtype="float64").dtype == "float64"


def test_zero_d_and_size_zero():
    assert opsdk.nansum(opsdk.to_tensor(nan)).item() == 0.0
    assert opsdk.nanmean(opsdk.to_tensor(2.0)).item() == 2.0
    assert opsdk.count_nonzero(opsdk.to_tensor(2.0)).item() == 1
    e = opsdk.zeros([0, 3])
    assert opsdk.nansum(e, 0).numpy().tolist() == [0, 0, 0]
    assert np.isnan(opsdk.nanmean(e, 0).numpy()).all()
    assert opsdk.count_nonzero(e, 0).numpy().tolist() == [0, 0, 0]


def test_bad_axis_is_an_error():
    with pytest.raises(OpArgumentError, match="nanmean: argument 'axis' out of range"):
        opsdk.nanmean(opsdk.ones([2]), 3)


@settings(max_examples=40, deadline=None)
@given(shape=shapes(max_dims=3, max_side=3), data=st.data())
def test_nan_reductions_on_any_shape(shape, data):
    a = signed(*shape, seed=data.draw(st.integers(0, 99)))
    if a.size:
        a.reshape(-1)[data.draw(st.integers(0, a.size - 1))] = nan
    nd = len(shape)
    axis = data.draw(st.none() | st.integers(-max(nd, 1), max(nd, 1) - 1))
    ax = None if axis is None or nd == 0 else axis
    x = opsdk.to_tensor(a)
    np.testing.assert_allclose(opsdk.nansum(x, axis).numpy(),
                               np.reshape(np.nansum(a, axis=ax), opsdk.nansum(x, axis).shape))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.nanmean(a, axis=ax)
    got = opsdk.nanmean(x, axis).numpy()
    np.testing.assert_allclose(got, np.reshape(want, got.shape), equal_nan=True)


PADDLE_CASES = {
    "nansum": (lambda P, x: P.nansum(x), [WITH_NAN]),
    "nansum_axis": (lambda P, x: P.nansum(x, 1, keepdim=True), [WITH_NAN]),
    "nanmean": (lambda P, x: P.nanmean(x), [WITH_NAN]),
    "nanmean_axis": (lambda P, x: P.nanmean(x, 0), [WITH_NAN]),
    "nanmean_axes": (lambda P, x: P.nanmean(x, [0, 1], keepdim=True), [WITH_NAN]),
    "count_nonzero": (lambda P, x: P.count_nonzero(x, 1), [np.array([[0.0, nan, 2], [0, 0, 1]])]),
}


test_values_and_gradients_match_paddle = paddle_cases(PADDLE_CASES)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_dtypes_match_paddle(dtype):
    # (Paddle's nanmean of int32 with an axis raises a type-promotion error; opsdk gives float32)
    assert_same_as_paddle(lambda P, x: [P.nansum(x, 0), P.nanmean(x), P.count_nonzero(x)],
                          [np.array([[1, 0], [3, 4]])], dtypes=[dtype], diff=())


@pytest.mark.torch
def test_nansum_and_nanmean_match_torch():
    assert_same_as_torch(lambda P, x: [P.nansum(x, 1), P.nanmean(x, 1)],
                         lambda x: [x.nansum(1), x.nanmean(1)], [WITH_NAN[:2]])
