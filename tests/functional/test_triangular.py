"""tril, triu and their in-place forms: values (NumPy, Paddle, PyTorch), diagonals, batches,
special values become 0, gradients to second order, errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import LeafInplaceError, OpArgumentError, ShapeError
from helpers.frameworks import assert_same_as_paddle, assert_same_as_torch
from helpers.gradients import assert_gradients
from helpers.samples import signed


@pytest.mark.parametrize("k", [0, 1, -1, 10, -10])
def test_tril_and_triu_match_numpy(k):
    a = signed(2, 3, 4)
    x = opsdk.to_tensor(a)
    np.testing.assert_array_equal(opsdk.tril(x, k).numpy(), np.tril(a, k))
    np.testing.assert_array_equal(opsdk.triu(x, k).numpy(), np.triu(a, k))
    assert_gradients(lambda t: opsdk.tril(t, k) ** 2 + opsdk.triu(t, k) ** 3, [a])


def test_values_outside_the_triangle_become_zero_even_nan():
    x = opsdk.to_tensor([[np.nan, np.nan], [np.inf, np.nan]])
    assert opsdk.tril(x).numpy()[0, 1] == 0.0 and opsdk.triu(x).numpy()[1, 0] == 0.0


def test_gradient_outside_the_triangle_is_zero_even_for_a_nan_cotangent():
    x = opsdk.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    (g,) = opsdk.grad([opsdk.tril(x)], [x], [opsdk.to_tensor([[1.0, np.nan], [1.0, 1.0]])])
    assert g.numpy().tolist() == [[1.0, 0.0], [1.0, 1.0]]


def test_integer_and_bool_dtypes_are_kept():
    assert opsdk.tril(opsdk.to_tensor([[1, 2], [3, 4]], dtype="int32")).dtype == "int32"
    b = opsdk.triu(opsdk.to_tensor([[True, True], [True, True]]))
    assert b.dtype == "bool" and b.numpy().tolist() == [[True, True], [False, True]]


def test_in_place_forms():
    x = opsdk.to_tensor(np.ones((2, 2)))
    assert opsdk.tril_(x) is x and x.numpy().tolist() == [[1, 0], [1, 1]]
    w = opsdk.to_tensor(np.ones((2, 2)), stop_gradient=False)
    y = w * 3
    y.triu_(1)
    y.sum().backward()
    assert w.grad.numpy().tolist() == [[0, 3], [0, 0]]
    with pytest.raises(LeafInplaceError, match="tril_"):
        w.tril_()


def test_errors():
    with pytest.raises(ShapeError, match="tril: expected: a tensor with at least 2 dims"):
        opsdk.tril(opsdk.ones([3]))
    with pytest.raises(OpArgumentError, match="triu: argument 'diagonal' must be an int"):
        opsdk.triu(opsdk.ones([2, 2]), 0.5)


@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(0, 4), min_size=2, max_size=3), k=st.integers(-4, 4))
def test_on_any_shape(shape, k):
    a = signed(*shape)
    np.testing.assert_array_equal(opsdk.tril(opsdk.to_tensor(a), k).numpy(), np.tril(a, k))
    np.testing.assert_array_equal(opsdk.triu(opsdk.to_tensor(a), k).numpy(), np.triu(a, k))


@pytest.mark.paddle
@pytest.mark.parametrize("k", [0, 1, -2])
def test_values_and_gradients_match_paddle(k):
    assert_same_as_paddle(lambda P, x: [P.tril(x, k), P.triu(x, k)], [signed(2, 3, 4)])


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["int32", "bool", "float32"])
def test_dtypes_match_paddle(dtype):
    assert_same_as_paddle(lambda P, x: [P.tril(x), P.triu(x, 1)], [np.array([[1, 0], [1, 1]])],
                          dtypes=[dtype], diff=())


@pytest.mark.torch
def test_match_torch():
    assert_same_as_torch(lambda P, x: P.tril(x, 1), lambda x: x.tril(1), [signed(3, 4)])
