"""Paddle's manipulation helpers (manipulation.py): values, dtypes and gradients against
Paddle 3.3.1, views where Paddle makes views, second orders, errors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import DTypeError, IndexOutOfRangeError, OpArgumentError, ShapeError
from helpers.frameworks import assert_same_as_paddle, import_paddle, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import signed


def _i(P, v):
    return P.to_tensor(np.asarray(v, dtype=np.int64))


PADDLE_CASES = {
    "unstack": (lambda P, x: P.unstack(x, 1), [signed(2, 3, 2)]),
    "unstack_method": (lambda P, x: x.unstack(-1), [signed(2, 3)]),
    "hstack": (lambda P, x, y: P.hstack([x, y]), [signed(2, 3), signed(2, 1)]),
    "hstack_1d": (lambda P, x, y: P.hstack([x, y]), [signed(3), signed(2)]),
    "vstack": (lambda P, x, y: P.vstack([x, y]), [signed(3), signed(2, 3)]),
    "row_stack": (lambda P, x, y: P.row_stack([x, y]), [signed(3), signed(3)]),
    "dstack": (lambda P, x, y: P.dstack([x, y]), [signed(2, 3), signed(2, 3, 2)]),
    "dstack_1d": (lambda P, x, y: P.dstack([x, y]), [signed(3), signed(3)]),
    "column_stack": (lambda P, x, y, z: P.column_stack([x, y, z]),
                     [signed(3), signed(3, 2), signed(3)]),
    "hsplit": (lambda P, x: P.hsplit(x, [1, 3]), [signed(2, 4)]),
    "hsplit_1d": (lambda P, x: x.hsplit(2), [signed(4)]),
    "vsplit": (lambda P, x: P.vsplit(x, 2), [signed(4, 3)]),
    "dsplit": (lambda P, x: P.dsplit(x, [1]), [signed(2, 2, 3)]),
    "tensor_split_uneven": (lambda P, x: P.tensor_split(x, 3, axis=1), [signed(2, 7)]),
    "tensor_split_indices": (lambda P, x: P.tensor_split(x, [1, 4, 9]), [signed(6, 2)]),
    "tensor_split_more_parts": (lambda P, x: x.tensor_split(5), [signed(3)]),
    "atleast": (lambda P, x, y, z: P.atleast_1d(x, y) + P.atleast_2d(x, y) + P.atleast_3d(x, y)
                + P.atleast_3d(y, z), [np.array(1.5), signed(3), signed(2, 2)]),
    "atleast_list": (lambda P, x, y: P.atleast_2d([x, y]), [np.array(1.5), signed(2)]),
    "ravel": (lambda P, x: P.ravel(x.transpose([1, 0])), [signed(2, 3)]),
    "narrow": (lambda P, x: P.narrow(x, 1, -3, 2), [signed(2, 4)]),
    "narrow_method": (lambda P, x: x.narrow(0, 1, 1), [signed(2, 4)]),
    "swapaxes": (lambda P, x: P.swapaxes(x, 0, 2), [signed(2, 3, 4)]),
    "swapdims_perm": (lambda P, x: x.swapdims([1, 0, 2]), [signed(2, 3, 4)]),
    "matrix_transpose": (lambda P, x: P.matrix_transpose(x), [signed(2, 3, 4)]),
    "view_as": (lambda P, x, y: P.view_as(x, y) * y, [signed(2, 3), signed(3, 2)]),
    "unflatten": (lambda P, x: P.unflatten(x, -1, [2, -1]), [signed(3, 4)]),
    "take": (lambda P, x: P.take(x, _i(P, [[0, -1], [5, 2], [0, 0]])), [signed(2, 3)]),
    "take_wrap": (lambda P, x: x.take(_i(P, [7, -8, 3]), mode="wrap"), [signed(2, 3)]),
    "take_clip": (lambda P, x: P.take(x, _i(P, [7, -8, 3]), mode="clip"), [signed(2, 3)]),
    "take_along_dim": (lambda P, x: P.take_along_dim(x, _i(P, [[0, 2, 1, 1]]), 1),
                       [signed(3, 3)]),
    "slice": (lambda P, x: P.slice(x, [0, 2], [1, -3], [10, 3]), [signed(3, 2, 4)]),
    "strided_slice": (lambda P, x: P.strided_slice(x, [0, 1], [0, 4], [3, 0], [2, -2]),
                      [signed(3, 5)]),
    "reverse": (lambda P, x: P.reverse(x, [0, 1]), [signed(2, 3)]),
    "diag_embed": (lambda P, x: P.diag_embed(x), [signed(2, 3)]),
    "diag_embed_offset": (lambda P, x: P.diag_embed(x, 1, 0, 2), [signed(2, 3)]),
    "diag_embed_negative": (lambda P, x: x.diag_embed(-2, 2, 0), [signed(2, 3)]),
    "block_diag": (lambda P, x, y, z: P.block_diag([x, y, z]),
                   [signed(2, 3), signed(2), np.array(4.0)]),
}

test_values_and_gradients_match_paddle = paddle_cases(PADDLE_CASES)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_dtypes_match_paddle(dtype):
    assert_same_as_paddle(
        lambda P, x: P.unstack(x) + P.hsplit(x, 2) + [P.vstack([x, x]), P.ravel(x),
                                                      P.narrow(x, 0, 0, 1), P.swapaxes(x, 0, 1),
                                                      P.take(x, _i(P, [3])), P.reverse(x, 0),
                                                      P.slice(x, [1], [1], [2])],
        [np.array([[1, 0], [3, 4]])], dtypes=[dtype], diff=())


@pytest.mark.paddle
@pytest.mark.parametrize("op", [
    lambda P, x: P.narrow(x, 1, 1, 2), lambda P, x: P.ravel(x), lambda P, x: P.swapaxes(x, 0, 1),
    lambda P, x: P.matrix_transpose(x), lambda P, x: P.unflatten(x, 0, [1, 2]),
    lambda P, x: P.view_as(x, P.ones([4, 2])), lambda P, x: P.atleast_1d(x),
    lambda P, x: P.slice(x, [1], [1], [3]), lambda P, x: P.strided_slice(x, [1], [0], [4], [2]),
    lambda P, x: P.unstack(x)[0], lambda P, x: P.tensor_split(x, 2, 1)[0],
    lambda P, x: P.reverse(x, 0), lambda P, x: P.hstack([x])])
def test_views_share_memory_where_paddle_s_do(op):
    paddle = import_paddle()
    shared = []
    for P in (opsdk, paddle):
        x = P.to_tensor(np.arange(8.0).reshape(2, 4))
        with P.no_grad():
            op(P, x).fill_(-1.0)
        shared.append(bool((x.numpy() == -1).any()))
    assert shared[0] == shared[1]


@pytest.mark.paddle
def test_bool_tensors_match_paddle():
    assert_same_as_paddle(lambda P, x: P.hsplit(x, 2) + [P.vstack([x, x]), P.ravel(x),
                                                       P.take(x, _i(P, [3])), P.block_diag([x])],
                          [np.array([[True, False], [False, True]])], dtypes=["bool"], diff=())


def test_diag_embed_records_no_gradient_as_in_paddle():
    x = opsdk.ones([2, 3], dtype="float64")
    x.stop_gradient = False
    assert opsdk.diag_embed(x).stop_gradient


def test_atleast_returns_the_tensor_itself_when_it_has_the_dimensions():
    x = opsdk.ones([2, 3])
    assert opsdk.atleast_2d(x) is x and opsdk.atleast_1d(x) is x


def test_second_order_gradients():
    assert_gradients(lambda t: opsdk.narrow(t, 1, 1, 2) ** 2, [signed(2, 3)])
    assert_gradients(lambda t: opsdk.take(t, opsdk.to_tensor([0, 4, 4])) ** 3, [signed(2, 3)])
    assert_gradients(lambda t: opsdk.block_diag([t, t * 2]) ** 2, [signed(2, 2)])
    assert_gradients(lambda t: opsdk.tensor_split(t, 2)[1] ** 2, [signed(3, 2)])


def test_errors_name_the_op_and_the_argument():
    x = opsdk.ones([2, 3])
    with pytest.raises(OpArgumentError, match="unstack: argument 'num'"):
        opsdk.unstack(x, 0, 3)
    with pytest.raises(ShapeError, match="vsplit: expected: a tensor with at least 2"):
        opsdk.vsplit(opsdk.ones([4]), 2)
    with pytest.raises(ShapeError, match="dsplit: expected: a tensor with at least 3"):
        opsdk.dsplit(x, 2)
    with pytest.raises(IndexOutOfRangeError, match="take: index out of range"):
        opsdk.take(x, opsdk.to_tensor([6]))
    with pytest.raises(OpArgumentError, match="take: argument 'mode'"):
        opsdk.take(x, opsdk.to_tensor([1]), mode="nearest")
    with pytest.raises(AssertionError, match="narrow: start 2 and length 2"):  # as Paddle's
        opsdk.narrow(x, 0, 2, 2)
    with pytest.raises(IndexError, match="narrow: argument 'dim' out of range"):
        opsdk.narrow(x, 3, 0, 1)
    with pytest.raises(IndexError, match="swapaxes: argument 'dim1' out of range"):
        opsdk.swapaxes(x, 0, 2)
    with pytest.raises(AssertionError, match="unflatten: argument 'axis' out of range"):
        opsdk.unflatten(x, 3, [3])
    with pytest.raises(DTypeError, match="take: argument 'index' must be an int32"):
        opsdk.take(x, opsdk.to_tensor([1.0]))
    with pytest.raises(ShapeError, match="matrix_transpose: expected"):
        opsdk.matrix_transpose(opsdk.ones([3]))
    with pytest.raises(ShapeError, match="unflatten: shape"):
        opsdk.unflatten(x, 1, [2, 2])
    with pytest.raises(OpArgumentError, match="diag_embed: dim1 and dim2 must name different"):
        opsdk.diag_embed(x, 0, 0, -3)
    with pytest.raises(ShapeError, match="block_diag: expected: tensors of at most 2"):
        opsdk.block_diag([opsdk.ones([1, 1, 1])])
    with pytest.raises(DTypeError, match="block_diag: the tensors must share one dtype"):
        opsdk.block_diag([opsdk.ones([1]), opsdk.ones([1], dtype="int64")])


UNFOLD_X = np.random.default_rng(4).standard_normal((2, 3, 5))


@pytest.mark.paddle
@pytest.mark.parametrize("args", [(2, 2, 1), (-1, 3, 2), (1, 3, 1), (1, 0, 1), (0, 1, 1),
                                  (2, 5, 3), (1, 2, 2)])
def test_unfold_windows_and_gradients_match_paddle(args):
    # overlapping windows included: each element's gradient is that of its last window
    assert_same_as_paddle(lambda P, a: P.unfold(a, *args), [UNFOLD_X])
    assert_same_as_paddle(lambda P, a: a.unfold(*args), [UNFOLD_X])


@pytest.mark.paddle
def test_unfold_of_a_0d_and_an_int_tensor_match_paddle():
    assert_same_as_paddle(lambda P, a: P.unfold(a, 0, 1, 1), [np.array(3.0)])
    assert_same_as_paddle(lambda P, a: P.unfold(a, dimension=0, size=2, step=1),
                          [np.arange(5)], dtypes=["int32"], diff=())


@pytest.mark.paddle
@pytest.mark.parametrize("call", [
    lambda P: P.unfold(P.ones([2, 3]), 1, 4, 1), lambda P: P.unfold(P.ones([2, 3]), 1, 2, 0),
    lambda P: P.unfold(P.ones([2, 3]), 2, 2, 1), lambda P: P.unfold(P.ones([2, 3]), 1.0, 2, 1),
    lambda P: P.unfold(P.to_tensor(1.0), 0, 2, 1),
])
def test_unfold_errors_are_paddles_classes(call):
    from helpers.frameworks import assert_raises_as_paddle
    err = assert_raises_as_paddle(call)
    assert str(err).startswith("unfold: ")


def test_unfold_without_overlap_differentiates_to_second_order():
    assert_gradients(lambda a: opsdk.unfold(a, 1, 2, 2) ** 2, [UNFOLD_X[:1, :, :2]])
