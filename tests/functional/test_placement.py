"""Ops that place values into a copy of a tensor (placement.py): values, dtypes and gradients
of every input against Paddle 3.3.1, in-place forms, second orders, errors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import IndexOutOfRangeError, OpArgumentError, ShapeError, WrittenShapeError
from helpers.frameworks import assert_same_as_paddle, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import signed


def _i(P, v, dtype="int64"):
    return P.to_tensor(np.asarray(v), dtype=dtype)


PADDLE_CASES = {
    "scatter_add": (lambda P, x, s: P.scatter_add(x, 0, _i(P, [[0, 1, 0], [0, 0, 1]]), s),
                    [signed(2, 3), signed(2, 3)]),
    "scatter_add_method": (lambda P, x, s: x.scatter_add(1, _i(P, [[2, 2]]), s),
                           [signed(2, 3), signed(1, 2)]),
    "scatter_reduce_sum": (lambda P, x, s: P.scatter_reduce(x, 0, _i(P, [[1, 1, 0]]), s, "sum"),
                           [signed(2, 3), signed(1, 3)]),
    "scatter_reduce_prod": (lambda P, x, s: P.scatter_reduce(x, 1, _i(P, [[0, 0], [1, 2]]), s,
                                                             "prod", include_self=False),
                            [signed(2, 3), signed(2, 2)]),
    "scatter_reduce_mean": (lambda P, x, s: P.scatter_reduce(x, 0, _i(P, [[1, 1, 0]]), s, "mean"),
                            [signed(2, 3), signed(1, 3)]),
    "scatter_reduce_amax": (lambda P, x, s: P.scatter_reduce(x, 0, _i(P, [[1, 0, 0]]), s, "amax"),
                            [signed(2, 3), signed(1, 3)]),
    "index_sample": (lambda P, x: P.index_sample(x, _i(P, [[0, 2, 2], [1, 0, 3]])),
                     [signed(2, 4)]),
    "index_sample_int32": (lambda P, x: x.index_sample(_i(P, [[3], [1]], "int32")),
                           [signed(2, 4)]),
    "index_put": (lambda P, x, v: P.index_put(x, (_i(P, [0, 2]), _i(P, [1, 1])), v),
                  [signed(3, 2), signed(2)]),
    "index_put_broadcast": (lambda P, x, v: x.index_put((_i(P, [2, 0]),), v),
                            [signed(3, 2), signed(2)]),
    "index_put_accumulate": (lambda P, x, v: P.index_put(x, (_i(P, [0, 0, 2]),), v, True),
                             [signed(3, 2), signed(3, 2)]),
    "index_put_mask": (lambda P, x, v: P.index_put(x, (P.to_tensor([True, False, True]),), v),
                       [signed(3, 2), signed(2)]),
    "select_scatter": (lambda P, x, v: P.select_scatter(x, v, 1, -1), [signed(2, 3, 2),
                                                                       signed(2, 2)]),
    "slice_scatter": (lambda P, x, v: P.slice_scatter(x, v, [1], [0], [3], [2]),
                      [signed(2, 4), signed(2, 2)]),
    "slice_scatter_axes": (lambda P, x, v: x.slice_scatter(v, [0, 1], [1, 1], [2, 4], [1, 1]),
                           [signed(2, 4), signed(1, 3)]),
    # value broadcasts to the slice (Paddle's docstring example: [3, 1] into [3, 2])
    "slice_scatter_broadcast": (lambda P, x, v: P.slice_scatter(x, v, [1], [2], [6], [2]),
                                [signed(3, 9), signed(3, 1)]),
    "slice_scatter_leading_ones": (lambda P, x, v: P.slice_scatter(x, v, [1], [2], [6], [2]),
                                   [signed(3, 9), signed(1, 1, 2)]),
    "diagonal_scatter": (lambda P, x, y: P.diagonal_scatter(x, y), [signed(3, 3), signed(3)]),
    "diagonal_scatter_offset": (lambda P, x, y: x.diagonal_scatter(y, 1, 2, 0),
                                [signed(3, 2, 4), signed(2, 2)]),
    "multiplex": (lambda P, x, y, z: P.multiplex([x, y, z], _i(P, [[2], [0], [2]], "int32")),
                  [signed(3, 2), signed(3, 2), signed(3, 2)]),
}

test_values_and_gradients_match_paddle = paddle_cases(PADDLE_CASES)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_dtypes_match_paddle(dtype):
    assert_same_as_paddle(
        lambda P, x: [P.scatter_add(x, 0, _i(P, [[1, 0]]), x[:1]), P.index_sample(x, _i(P, [[1], [0]])),
                      P.index_put(x, (_i(P, [1]),), x[0]), P.select_scatter(x, x[1], 0, 0),
                      P.slice_scatter(x, x[:1], [0], [1], [2], [1]),
                      P.diagonal_scatter(x, x[0]), P.multiplex([x, x * 2], _i(P, [[1], [0]], "int32"))],
        [np.array([[1, 2], [3, 4]])], dtypes=[dtype], diff=())


@pytest.mark.paddle
def test_in_place_forms_match_paddle():
    def fn(P, x, s):
        y = x * 1
        y.scatter_add_(0, _i(P, [[1, 0]]), s)
        z = x * 2
        P.index_put_(z, (_i(P, [0, 0]), _i(P, [1, 0])), s[0], True)
        return [y, z]
    assert_same_as_paddle(fn, [signed(2, 2), signed(1, 2)], diff=(0, 1))


def test_second_order_gradients():
    idx = opsdk.to_tensor([[1, 0]])
    assert_gradients(lambda x, s: opsdk.scatter_add(x, 0, idx, s) ** 2,
                     [signed(2, 2), signed(1, 2)])
    y = opsdk.to_tensor(signed(2))
    assert_gradients(lambda x: opsdk.diagonal_scatter(x, y) ** 3, [signed(2, 2)])
    assert_gradients(lambda x, y: opsdk.multiplex([x, y], opsdk.to_tensor([[1], [0]])) ** 2,
                     [signed(2, 2), signed(2, 2)])


def test_diagonal_scatter_gives_y_no_gradient_as_paddle():
    x = opsdk.ones([2, 2], dtype="float64")
    y = opsdk.ones([2], dtype="float64")
    x.stop_gradient = y.stop_gradient = False
    gx, gy = opsdk.grad([opsdk.diagonal_scatter(x, y).sum()], [x, y], allow_unused=True)
    assert gy is None and gx.numpy().tolist() == [[0, 1], [1, 0]]


def test_errors_name_the_op_and_the_argument():
    x = opsdk.zeros([3, 3])
    with pytest.raises(WrittenShapeError, match="select_scatter: expected: a value of") as e:
        opsdk.select_scatter(x, opsdk.ones([2]), 0, 0)
    assert isinstance(e.value, RuntimeError)  # as Paddle's
    with pytest.raises(AssertionError, match="diagonal_scatter: expected: a value"):
        opsdk.diagonal_scatter(x, opsdk.ones([2]))
    with pytest.raises(ValueError, match=r"slice_scatter: cannot assign a value of shape \[2, 2\]"):
        opsdk.slice_scatter(x, opsdk.ones([2, 2]), [0], [0], [1], [1])
    with pytest.raises(ShapeError, match="index_sample: expected: a 2-D x"):
        opsdk.index_sample(x, opsdk.to_tensor([[0]]))
    with pytest.raises(OpArgumentError, match="scatter_reduce: argument 'reduce'"):
        opsdk.scatter_reduce(x, 0, opsdk.to_tensor([[0]]), x, "max")
    with pytest.raises(IndexOutOfRangeError, match="multiplex: expected: an index of 3"):
        opsdk.multiplex([x, x], opsdk.to_tensor([[0], [3], [1]]))
    with pytest.raises(IndexOutOfRangeError, match="index_put: an index is out of range"):
        opsdk.index_put(x, (opsdk.to_tensor([5]),), opsdk.ones([3]), True)
