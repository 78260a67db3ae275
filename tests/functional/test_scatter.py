"""scatter, index_add, masked_fill and their in-place forms: values (NumPy, Paddle, PyTorch),
repeated indices, broadcasting, gradients to second order, index checks."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import DTypeError, IndexOutOfRangeError, LeafInplaceError, ShapeError
from helpers.frameworks import (assert_same_as_paddle, assert_same_as_torch, paddle_cases,
                                grads_for_arange as grads, int_tensor as ix)
from helpers.gradients import assert_gradients
from helpers.samples import signed

nan = np.nan


# -- scatter ----------------------------------------------------------------------------------
def np_scatter(x, idx, upd, overwrite):
    out = x.copy()
    if overwrite:
        for i, u in zip(idx, upd):
            out[i] = u
    else:
        out[np.unique(idx)] = 0
        np.add.at(out, idx, upd)
    return out


@pytest.mark.parametrize("overwrite", [True, False])
def test_scatter_values_with_repeated_indices(overwrite):
    x, u = signed(4, 2), signed(3, 2, seed=1)
    got = opsdk.scatter(opsdk.to_tensor(x), ix([1, 1, -1]), opsdk.to_tensor(u), overwrite)
    np.testing.assert_array_equal(got.numpy(), np_scatter(x, [1, 1, 3], u, overwrite))


@pytest.mark.parametrize("overwrite", [True, False])
def test_scatter_gradients_match_central_differences(overwrite):
    assert_gradients(lambda x, u: opsdk.scatter(x, ix([2, 0, 2]), u, overwrite) ** 2,
                     [signed(3, 2), signed(3, 2, seed=1)])


def test_only_the_last_update_of_a_repeated_index_gets_a_gradient():
    # Paddle 3.3.1 gives every update the gradient of its row, [1, 1, 3, 1]; the first two
    # updates of index 0 are overwritten and never reach the output
    gx, gu = grads(lambda x, u: opsdk.scatter(x, ix([0, 0, 2, 0]), u), [1.0, 2, 3], [9.0, 8, 7, 6])
    assert gx == [0.0, 2.0, 0.0] and gu == [0.0, 0.0, 3.0, 1.0]


def test_scatter_index_forms():
    x = opsdk.zeros([3, 2])
    one = opsdk.ones([1, 2])
    assert opsdk.scatter(x, ix([[1]]), one).numpy()[1].tolist() == [1, 1]
    assert opsdk.scatter(x, ix(1), opsdk.ones([2])).numpy()[1].tolist() == [1, 1]
    assert opsdk.scatter(x, ix([]), opsdk.zeros([0, 2])).numpy().sum() == 0
    more = opsdk.scatter(x, ix([1]), opsdk.to_tensor([[1.0, 1], [5, 5]]))
    assert more.numpy().tolist() == [[0, 0], [1, 1], [0, 0]]


def test_scatter_argument_errors():
    x = opsdk.zeros([3, 2])
    with pytest.raises(IndexOutOfRangeError, match="scatter: argument 'index' has an index out "
                                                   "of range for axis 0 of size 3"):
        opsdk.scatter(x, ix([3]), opsdk.ones([1, 2]))
    with pytest.raises(DTypeError, match="scatter: argument 'index' must be an integer tensor"):
        opsdk.scatter(x, opsdk.to_tensor([1.0]), opsdk.ones([1, 2]))
    with pytest.raises(ShapeError, match=r"scatter: 'updates' must have shape \[2\]"):
        opsdk.scatter(x, ix([0, 1]), opsdk.ones([2, 3]))
    with pytest.raises(DTypeError, match="scatter: 'updates' must have the dtype of 'x'"):
        opsdk.scatter(x, ix([0]), opsdk.ones([1, 2], dtype="float64"))
    with pytest.raises(ShapeError, match="scatter: argument 'index' must be 1-D"):
        opsdk.scatter(x, ix([[0, 1]]), opsdk.ones([2, 2]))


def test_scatter_in_place_and_the_torch_style_form():
    x = opsdk.zeros([3])
    assert opsdk.scatter_(x, ix([1]), opsdk.ones([1])) is x and x.numpy().tolist() == [0, 1, 0]
    y = opsdk.scatter(opsdk.zeros([2, 2]), 1, ix([[1], [0]]), opsdk.ones([2, 1]))
    assert y.numpy().tolist() == [[0, 1], [1, 0]]
    z = opsdk.zeros([2, 2]).scatter_(1, ix([[1], [1]]), opsdk.ones([2, 1]), reduce="add")
    assert z.numpy().tolist() == [[0, 1], [0, 1]]


# -- index_add --------------------------------------------------------------------------------
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_index_add_values_and_gradients(axis):
    x = signed(3, 4)
    idx = [2, 0, 2]
    shape = [3, 4]
    shape[axis] = 3
    v = signed(*shape, seed=1)
    want = x.copy()
    np.add.at(want, (slice(None),) * (axis % 2) + (idx,), 2.0 * v)
    got = opsdk.index_add(opsdk.to_tensor(x), ix(idx), axis, opsdk.to_tensor(v), alpha=2.0)
    np.testing.assert_allclose(got.numpy(), want)
    assert_gradients(lambda a, b: opsdk.index_add(a, ix(idx), axis, b, 2.0) ** 2, [x, v])


def test_index_add_torch_order_in_place_and_errors():
    x = opsdk.ones([3])
    assert opsdk.index_add(x, 0, ix([1]), opsdk.ones([1])).numpy().tolist() == [1, 2, 1]
    assert x.index_add_(ix([0, 0]), 0, opsdk.ones([2])) is x and x.numpy().tolist() == [3, 1, 1]
    with pytest.raises(ShapeError, match="index_add: argument 'index' must be 1-D"):
        opsdk.index_add(x, ix([[0]]), 0, opsdk.ones([1]))
    with pytest.raises(ShapeError, match=r"index_add: 'value' must have x's shape .*expected: "
                                         r"\[1\]; got: \[2\]"):
        opsdk.index_add(x, ix([0]), 0, opsdk.ones([2]))
    with pytest.raises(DTypeError, match="index_add: a fractional 'alpha' needs a float"):
        opsdk.index_add(opsdk.to_tensor([1, 2]), ix([0]), 0, opsdk.to_tensor([1]), alpha=1.5)
    with pytest.raises(IndexOutOfRangeError, match="index_add: argument 'index'"):
        opsdk.index_add(x, ix([3]), 0, opsdk.ones([1]))


# -- masked_fill ------------------------------------------------------------------------------
def test_masked_fill_values_broadcast_and_dtypes():
    x = opsdk.to_tensor([[1.0, 2, 3], [4, 5, 6]])
    m = opsdk.to_tensor([[True, False, True], [False, False, True]])
    assert opsdk.masked_fill(x, m, 9.0).numpy().tolist() == [[9, 2, 9], [4, 5, 9]]
    assert opsdk.masked_fill(x, opsdk.to_tensor([1, 0, 0]), 0).numpy()[:, 0].tolist() == [0, 0]
    assert opsdk.masked_fill(opsdk.to_tensor([1.0, 2, 3]), m, 9.0).shape == [2, 3]
    filled = opsdk.masked_fill(x, m, opsdk.to_tensor([7.0, 8.0, 9.0]))
    assert filled.numpy().tolist() == [[7, 2, 9], [4, 5, 9]]
    ints = opsdk.masked_fill(opsdk.to_tensor([1, 2]), opsdk.to_tensor([True, False]), 2.7)
    assert ints.dtype == "int64" and ints.numpy().tolist() == [2, 2]


def test_masked_fill_gradients_reach_x_and_a_tensor_value():
    m = np.array([[True, False, True], [False, False, True]])
    gx, gv = grads(lambda x, v: opsdk.masked_fill(x, opsdk.to_tensor(m), v),
                   np.arange(6.0).reshape(2, 3), 9.0)
    # Paddle 3.3.1 returns 0 for the value here; 1 + 3 + 6 is its true gradient
    assert gx == [[0, 2, 0], [4, 5, 0]] and gv == 10.0
    assert_gradients(lambda x, v: opsdk.masked_fill(x, opsdk.to_tensor(m), v) ** 2,
                     [signed(3), signed(3, seed=1)])


def test_masked_fill_in_place_must_keep_the_shape():
    x = opsdk.to_tensor([1.0, 2.0])
    assert x.masked_fill_(opsdk.to_tensor([True, False]), 5.0) is x and x.numpy()[0] == 5.0
    with pytest.raises(ShapeError, match="masked_fill_: the result's shape"):
        x.masked_fill_(opsdk.to_tensor([[True, False], [True, True]]), 5.0)
    leaf = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(LeafInplaceError, match="masked_fill_"):
        leaf.masked_fill_(opsdk.to_tensor([True, False]), 0.0)
    with pytest.raises(DTypeError, match="masked_fill: 'value' must have the dtype of 'x'"):
        opsdk.masked_fill(x, opsdk.to_tensor([True, False]), opsdk.to_tensor(1.0, "float64"))


def test_in_place_writes_bump_the_version_of_saved_tensors():
    from opsdk.errors import InplaceModifiedError
    w = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    x = w * 1
    y = x * x
    with opsdk.no_grad():
        x.masked_fill_(opsdk.to_tensor([True, False]), 0.0)
    with pytest.raises(InplaceModifiedError):
        y.sum().backward()


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 4), cols=st.integers(1, 3), data=st.data())
def test_scatter_on_any_sizes(rows, cols, data):
    x = signed(rows, cols, seed=data.draw(st.integers(0, 99)))
    idx = np.array(data.draw(st.lists(st.integers(-rows, rows - 1), max_size=5)), np.int64)
    u = signed(len(idx), cols, seed=7) * 2
    ow = data.draw(st.booleans())
    got = opsdk.scatter(opsdk.to_tensor(x), ix(idx), opsdk.to_tensor(u), ow)
    np.testing.assert_array_equal(got.numpy(), np_scatter(x, idx % rows, u, ow))
    if x.size + u.size <= 12:
        assert_gradients(lambda a, b: opsdk.scatter(a, ix(idx), b, ow) * 1.5, [x, u])


def test_a_value_that_is_not_a_number_is_a_clear_error():
    from opsdk.errors import OpArgumentError
    with pytest.raises(OpArgumentError, match="masked_fill: argument 'value' must be a number"):
        opsdk.masked_fill(opsdk.zeros([3]), opsdk.to_tensor([True, False, True]), "v")


# -- against Paddle ---------------------------------------------------------------------------
PADDLE_CASES = {
    "scatter_add": (lambda P, x, u: P.scatter(x, P.to_tensor([1, 1, 3]), u, overwrite=False),
                    [signed(4, 2), signed(3, 2, seed=1)]),
    "scatter_unique": (lambda P, x, u: P.scatter(x, P.to_tensor([2, 0]), u),
                       [signed(4, 2), signed(2, 2, seed=1)]),
    "index_add": (lambda P, x, v: P.index_add(x, P.to_tensor([0, 2, 0]), 0, v, alpha=3),
                  [signed(3, 2), signed(3, 2, seed=1)]),
    "masked_fill_broadcast": (lambda P, x, v: P.masked_fill(
        x, P.to_tensor([[True, False, True], [False, False, True]]), v), [signed(3),
                                                                          np.array(9.0)]),
}


test_values_and_gradients_match_paddle = paddle_cases(PADDLE_CASES)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_dtypes_match_paddle(dtype):
    def fn(P, x, v):
        return [P.scatter(x, P.to_tensor([1]), x[:1]), P.index_add(x, P.to_tensor([0]), 1, v),
                P.masked_fill(x, P.to_tensor([[True, False], [False, True]]), 3)]
    assert_same_as_paddle(fn, [np.array([[1, 2], [3, 4]]), np.array([[5], [6]])],
                          dtypes=[dtype, dtype], diff=())


# -- against PyTorch --------------------------------------------------------------------------
@pytest.mark.torch
def test_index_add_and_masked_fill_match_torch():
    torch = __import__("torch")
    x = signed(2, 3)
    assert_same_as_torch(lambda P, a, b: P.index_add(a, P.to_tensor([1, 1]), 1, b),
                         lambda a, b: a.index_add(1, torch.tensor([1, 1]), b),
                         [x, signed(2, 2, seed=3)], (0, 1))
    m = np.array([True, False, True])
    assert_same_as_torch(lambda P, a: P.masked_fill(a, P.to_tensor(m), 0.5),
                         lambda a: a.masked_fill(torch.tensor(m), 0.5), [x])


# -- scatter_nd_add / scatter_nd ---------------------------------------------------------------
def test_scatter_nd_add_adds_repeated_coordinates_and_has_gradients():
    x, upd = np.zeros((3, 2)), np.arange(6.0).reshape(3, 2)
    out = opsdk.scatter_nd_add(opsdk.to_tensor(x), ix([[1], [1], [2]]), opsdk.to_tensor(upd))
    want = x.copy()
    np.add.at(want, [1, 1, 2], upd)
    assert np.array_equal(out.numpy(), want)
    assert_gradients(lambda a, u: opsdk.scatter_nd_add(a, ix([[0, 1], [0, 1], [2, 0]]), u) ** 2,
                     [signed(3, 2), signed(3, seed=1)])


def test_scatter_nd_builds_from_zeros_and_a_method_form():
    out = opsdk.scatter_nd(ix([[1], [3], [1]]), opsdk.to_tensor([1.0, 2.0, 3.0]), [4])
    assert out.numpy().tolist() == [0.0, 4.0, 0.0, 2.0] and out.dtype == opsdk.float32
    x = opsdk.zeros([2, 2])
    assert x.scatter_nd_add(ix([[0, 1]]), opsdk.ones([1])).numpy().tolist() == [[0, 1], [0, 0]]


def test_scatter_nd_add_refuses_bad_shapes_and_indices():
    x = opsdk.zeros([3, 2])
    with pytest.raises(ShapeError, match=r"'updates'.*\[2, 2\].*got: \[2\]"):
        opsdk.scatter_nd_add(x, ix([[0], [1]]), opsdk.ones([2]))
    with pytest.raises(ShapeError, match=r"'index'.*k <= 2"):
        opsdk.scatter_nd_add(x, ix([[0, 1, 0]]), opsdk.ones([1]))
    with pytest.raises(IndexOutOfRangeError, match="scatter_nd_add.*'index'"):
        opsdk.scatter_nd_add(x, ix([[3]]), opsdk.ones([1, 2]))
    with pytest.raises(DTypeError, match="scatter_nd_add"):
        opsdk.scatter_nd_add(x, ix([[0]]), opsdk.ones([1, 2], dtype="float64"))


test_scatter_nd_add_matches_paddle = paddle_cases({
    "rows": (lambda P, x, u: P.scatter_nd_add(x, P.to_tensor([[1], [1], [0]]), u) ** 2,
             [signed(3, 2), signed(3, 2, seed=1)]),
    "points": (lambda P, x, u: P.scatter_nd_add(x, P.to_tensor([[0, 1], [2, 0], [0, 1]]), u),
               [signed(3, 2), signed(3, seed=1)]),
})
