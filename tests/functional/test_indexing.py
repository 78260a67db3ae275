"""Indexing: x[idx] and x[idx] = v with gradients, gather, index_select, take_along_axis,
masked_select, nonzero, one_hot."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import LeafInplaceError, OpArgumentError
from helpers.frameworks import assert_same_as_paddle
from helpers.gradients import assert_gradients
from helpers.samples import signed


def leaf(values, dtype="float64"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


INDICES = {
    "int": 1,
    "negative_int": -1,
    "slice": slice(1, None),
    "step_slice": (slice(None), slice(None, None, 2)),
    "int_and_slice": (0, slice(1, 3)),
    "none_and_ellipsis": (None, Ellipsis, 1),
    "int_list_with_repeats": [0, 2, 0],
    "bool_mask": np.array([True, False, True]),
}


@pytest.mark.parametrize("idx", INDICES.values(), ids=INDICES.keys())
def test_getitem_values_match_numpy(idx):
    a = signed(3, 4)
    got = opsdk.to_tensor(a)[idx]
    np.testing.assert_array_equal(got.numpy(), a[idx])


@pytest.mark.parametrize("idx", INDICES.values(), ids=INDICES.keys())
def test_getitem_gradients_match_central_differences_to_second_order(idx):
    assert_gradients(lambda x: x[idx] ** 3, [signed(3, 4)])


def test_getitem_with_a_tensor_index_matches_the_array_index():
    a = signed(3, 4)
    idx = opsdk.to_tensor([2, 0])
    np.testing.assert_array_equal(opsdk.to_tensor(a)[idx].numpy(), a[[2, 0]])


def test_repeated_rows_accumulate_their_gradients():
    x = leaf(np.zeros((3, 2)))
    (g,) = opsdk.grad(x[[0, 0, 2, 0]].sum(), x)
    np.testing.assert_array_equal(g.numpy(), [[3.0, 3.0], [0.0, 0.0], [1.0, 1.0]])


def test_setitem_on_a_graph_tensor_routes_gradients_to_tensor_and_value():
    x, v = leaf([1.0, 2.0, 3.0]), leaf([5.0])
    y = x * 1.0
    y[1:2] = v
    gx, gv = opsdk.grad((y * y).sum(), [x, v])
    np.testing.assert_array_equal(gx.numpy(), [2.0, 0.0, 6.0])
    np.testing.assert_array_equal(gv.numpy(), [10.0])


def test_setitem_with_a_broadcast_value_sums_its_gradient():
    x, v = leaf(np.ones((2, 3))), leaf([0.5])
    y = x * 2.0
    y[:, 1] = v
    (gv,) = opsdk.grad(y.sum(), v)
    np.testing.assert_array_equal(gv.numpy(), [2.0])


def test_setitem_gradients_match_central_differences_to_second_order():
    def fn(x, v):
        y = x * x
        y[0, 1:] = v * v
        return y * x
    assert_gradients(fn, [signed(2, 3), signed(2, seed=1)])


def test_setitem_on_a_leaf_that_needs_grad_is_refused_outside_no_grad():
    x = leaf([1.0, 2.0])
    with pytest.raises(LeafInplaceError, match=r"__setitem__.*no_grad"):
        x[0] = 5.0


def test_setitem_on_a_leaf_under_no_grad_writes_in_place():
    x = leaf([1.0, 2.0])
    with opsdk.no_grad():
        x[0] = 5.0
    assert x.numpy().tolist() == [5.0, 2.0] and x.is_leaf and not x.stop_gradient


def test_index_select_values_and_gradients():
    a = signed(3, 4)
    idx = opsdk.to_tensor([3, 0, 3])
    got = opsdk.index_select(opsdk.to_tensor(a), idx, axis=1)
    np.testing.assert_array_equal(got.numpy(), a[:, [3, 0, 3]])
    assert_gradients(lambda x: opsdk.index_select(x, idx, axis=1) ** 2, [a])


def test_gather_picks_rows_by_default():
    a = signed(3, 2)
    got = opsdk.gather(opsdk.to_tensor(a), opsdk.to_tensor([2, 2, 0]))
    np.testing.assert_array_equal(got.numpy(), a[[2, 2, 0]])
    assert_gradients(lambda x: opsdk.gather(x, opsdk.to_tensor([2, 2, 0])) ** 2, [a])


def test_take_along_axis_values_and_gradients():
    a = signed(3, 4)
    ind = np.array([[0, 3], [1, 1], [2, 0]])
    got = opsdk.take_along_axis(opsdk.to_tensor(a), opsdk.to_tensor(ind), axis=1)
    np.testing.assert_array_equal(got.numpy(), np.take_along_axis(a, ind, axis=1))
    assert_gradients(lambda x: opsdk.take_along_axis(x, opsdk.to_tensor(ind), 1) ** 2, [a])


def test_masked_select_keeps_the_true_positions_and_routes_their_gradient():
    x = leaf([[1.0, -2.0], [-3.0, 4.0]])
    out = opsdk.masked_select(x, x > 0)
    (g,) = opsdk.grad(out.sum(), x)
    np.testing.assert_array_equal(out.numpy(), [1.0, 4.0])
    np.testing.assert_array_equal(g.numpy(), [[1.0, 0.0], [0.0, 1.0]])


def test_nonzero_returns_int64_coordinates():
    out = opsdk.nonzero(opsdk.to_tensor([[0.0, 1.0], [2.0, 0.0]]))
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out.numpy(), [[0, 1], [1, 0]])


def test_one_hot_encodes_labels_as_float32_rows():
    out = opsdk.one_hot(opsdk.to_tensor([2, 0]), 3)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out.numpy(), [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_indexing_keeps_the_dtype_forward_and_backward(dtype):
    x = leaf(np.ones((3, 2)), dtype)
    y = x[[0, 2]] + opsdk.index_select(x, opsdk.to_tensor([1, 1]))
    y.sum().backward()
    assert y.dtype == x.grad.dtype == np.dtype(dtype)


# -- errors --------------------------------------------------------------------------------
def test_getitem_out_of_range_names_the_index_and_the_shape():
    with pytest.raises(OpArgumentError, match=r"getitem: index 5 does not fit .*\[2, 3\]"):
        opsdk.ones([2, 3])[5]


def test_index_select_out_of_range_names_axis_size_and_indices():
    with pytest.raises(OpArgumentError, match=r"index_select: index out of range for axis 0 of "
                       r"size 2; got: min 5, max 5"):
        opsdk.index_select(opsdk.ones([2, 3]), opsdk.to_tensor([5]))


def test_index_select_with_a_float_index_names_the_argument_and_dtype():
    with pytest.raises(OpArgumentError, match=r"index_select: argument 'index' must be an "
                       r"integer tensor; got: float32"):
        opsdk.index_select(opsdk.ones([2, 3]), opsdk.to_tensor([0.0]))


def test_index_select_with_an_axis_out_of_range_is_an_error():
    with pytest.raises(OpArgumentError, match=r"index_select: argument 'axis' out of range"):
        opsdk.index_select(opsdk.ones([2, 3]), opsdk.to_tensor([0]), axis=2)


def test_take_along_axis_with_indices_of_other_rank_is_an_error():
    with pytest.raises(OpArgumentError, match=r"take_along_axis: 'indices' must have 2 dims"):
        opsdk.take_along_axis(opsdk.ones([2, 3]), opsdk.to_tensor([0]), 0)


def test_one_hot_label_out_of_range_is_an_error():
    with pytest.raises(OpArgumentError, match=r"one_hot: labels must lie in \[0, 3\); got: "
                       r"min 3, max 3"):
        opsdk.one_hot(opsdk.to_tensor([3]), 3)


# -- gather_nd -----------------------------------------------------------------------------------
def test_gather_nd_picks_points_or_slices_and_repeats_add_gradients():
    x = np.arange(12.0).reshape(3, 4)
    idx = np.array([[0, 1], [2, 3], [0, 1]])
    assert opsdk.gather_nd(opsdk.to_tensor(x), opsdk.to_tensor(idx)).numpy().tolist() == \
        [1.0, 11.0, 1.0]
    rows = opsdk.to_tensor(x).gather_nd(opsdk.to_tensor([[2], [0]]))
    assert rows.shape == [2, 4] and np.array_equal(rows.numpy(), x[[2, 0]])
    assert_gradients(lambda a: opsdk.gather_nd(a, opsdk.to_tensor(idx)) ** 2, [signed(3, 4)])


def test_gather_nd_with_no_coordinates_repeats_x_and_checks_its_index():
    x = opsdk.to_tensor([1.0, 2.0])
    out = opsdk.gather_nd(x, opsdk.to_tensor(np.zeros((3, 0), dtype=np.int64)))
    assert out.numpy().tolist() == [[1.0, 2.0]] * 3
    with pytest.raises(IndexError, match="gather_nd.*'index'"):
        opsdk.gather_nd(x, opsdk.to_tensor([[2]]))
    with pytest.raises(ValueError, match=r"gather_nd.*k <= 1"):
        opsdk.gather_nd(x, opsdk.to_tensor([[0, 0]]))


@pytest.mark.paddle
def test_gather_nd_matches_paddle():
    assert_same_as_paddle(lambda P, x: P.gather_nd(x, P.to_tensor([[[1, 0]], [[1, 0]]])) ** 3,
                          [signed(2, 3, 2)])


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_gather_by_a_0d_index_drops_the_axis_as_paddle(axis):
    assert_same_as_paddle(lambda P, x: P.gather(x, P.to_tensor(1), axis=axis) ** 2,
                          [np.arange(6.0).reshape([2, 3])])


def test_gather_by_a_1d_index_keeps_the_axis():
    assert opsdk.gather(opsdk.ones([2, 3]), opsdk.to_tensor([1])).shape == [1, 3]


def test_masked_select_refuses_a_mask_that_is_not_bool_as_paddle():
    from helpers.frameworks import assert_raises_as_paddle
    for dtype in ("int64", "int32", "float32"):
        assert_raises_as_paddle(lambda P: P.masked_select(
            P.ones([2, 2]), P.to_tensor([[1, 0], [0, 1]], dtype=dtype)), ValueError)


@pytest.mark.parametrize("index", [[[0, 1]], [[[0]]], 1, [[]]])
def test_index_select_takes_an_index_of_paddle_s_shapes_only(index):
    from helpers.frameworks import assert_raises_as_paddle
    assert_raises_as_paddle(lambda P: P.index_select(
        P.ones([3, 4]), P.to_tensor(index, dtype="int64")), ValueError)


@pytest.mark.parametrize("index", [[[0, 1]], [[[0]]]])
def test_gather_takes_an_index_of_paddle_s_shapes_only(index):
    from helpers.frameworks import assert_raises_as_paddle
    assert_raises_as_paddle(lambda P: P.gather(P.ones([3, 4]), P.to_tensor(index)), ValueError)


@pytest.mark.parametrize("op, index", [("index_select", [[0], [2]]), ("gather", [[0], [2]]),
                                       ("gather", [[]]), ("index_select", [])])
def test_an_index_of_shape_n_1_or_empty_picks_rows_as_paddle(op, index):
    assert_same_as_paddle(lambda P, x: getattr(P, op)(x, P.to_tensor(index, dtype="int64")) ** 2,
                          [np.arange(12.0).reshape([3, 4])])


@pytest.mark.paddle
def test_one_hot_without_num_classes_takes_the_largest_label_plus_one_as_paddle():
    assert_same_as_paddle(lambda P, x: P.nn.functional.one_hot(x), [np.array([0, 2, 1])],
                          dtypes=["int64"], diff=())
    assert_same_as_paddle(lambda P, x: P.nn.functional.one_hot(x, num_classes=-1),
                          [np.array([[3], [0]])], dtypes=["int64"], diff=())


@pytest.mark.parametrize("index", [slice(None), Ellipsis, (Ellipsis, slice(None)),
                                   (slice(0, 2), Ellipsis), slice(-100, 100),
                                   (slice(None), slice(None, None, 1)), (slice(0, 2), slice(0, 3)),
                                   (slice(None), slice(1, None)), slice(None, None, -1),
                                   (None, slice(None))])
def test_an_index_that_keeps_every_element_gives_the_tensor_as_paddle(index):
    from helpers.frameworks import import_paddle
    paddle = import_paddle()
    got = {}
    for P in (paddle, opsdk):
        x = P.to_tensor(np.arange(6.0).reshape(2, 3), stop_gradient=False)
        y = x[index]
        (y * y).sum().backward()
        got[P.__name__] = (y.is_leaf, y.stop_gradient, list(y.shape), x.grad.numpy(),
                           None if y.grad is None else y.grad.numpy())
    ours, theirs = got["opsdk"], got["paddle"]
    assert ours[:3] == theirs[:3]
    np.testing.assert_array_equal(ours[3], theirs[3])
    assert (ours[4] is None) == (theirs[4] is None)
    if ours[4] is not None:
        np.testing.assert_array_equal(ours[4], theirs[4])


def test_a_whole_slice_of_a_leaf_needing_a_gradient_refuses_a_write_as_paddle():
    from helpers.frameworks import assert_raises_as_paddle

    def write(P):
        y = P.to_tensor([1.0, 2.0], stop_gradient=False)[:]
        y[0] = 5.0

    assert_raises_as_paddle(write, ValueError)
    x = opsdk.to_tensor([1.0, 2.0])
    y = x[...]
    y[0] = 5.0
    assert x.numpy().tolist() == [5.0, 2.0]
