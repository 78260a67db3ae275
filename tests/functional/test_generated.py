"""Generated tensors (generated.py): values, dtypes and gradients against Paddle 3.3.1."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import OpArgumentError, ShapeError
from helpers.frameworks import import_paddle, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import signed

PADDLE_CASES = {
    "cartesian_prod": (lambda P, x, y: P.cartesian_prod([x, y]), [signed(3), signed(2)]),
    "cartesian_prod_3": (lambda P, x, y: P.cartesian_prod([x, y, x]), [signed(2), signed(2)]),
    "combinations": (lambda P, x: P.combinations(x), [signed(4)]),
    "combinations_3": (lambda P, x: x.combinations(3), [signed(4)]),
    "combinations_replacement": (lambda P, x: P.combinations(x, 2, True), [signed(3)]),
    "combinations_more_than_n": (lambda P, x: P.combinations(x, 4), [signed(3)]),
    "vander": (lambda P, x: P.vander(x), [signed(3)]),
    "vander_n": (lambda P, x: x.vander(4, increasing=True), [np.array([0.0, 2.0, -1.5])]),
    "vander_1": (lambda P, x: P.vander(x, 1), [signed(3)]),
}

test_values_and_gradients_match_paddle = paddle_cases(PADDLE_CASES)


@pytest.mark.paddle
@pytest.mark.parametrize("case", [
    lambda P: P.range(3), lambda P: P.range(1, 4, dtype="int64"),
    lambda P: P.range(0, 1, 0.3, dtype="float64"), lambda P: P.range(5, 1, -2, "int32"),
    lambda P: P.tril_indices(3, 4, 1), lambda P: P.tril_indices(4, 3, -1, "int32"),
    lambda P: P.triu_indices(3), lambda P: P.triu_indices(3, 5, 2),
    lambda P: P.ones([2], "float64").new_zeros([2, 1]),
    lambda P: P.ones([2], "int32").new_ones(3),
    lambda P: P.ones([2], "float64").new_full([2], 3, dtype="int64"),
    lambda P: P.ones([2]).new_empty((1, 2)) * 0,
    lambda P: P.vander(P.to_tensor([1, 2, 3])), lambda P: P.combinations(P.to_tensor([1, 2, 3])),
])
def test_creation_matches_paddle(case):
    paddle = import_paddle()
    got, want = case(opsdk), case(paddle)
    assert str(got.dtype) == str(want.dtype) and got.shape == want.shape
    assert got.stop_gradient == want.stop_gradient
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_new_tensors_follow_requires_grad():
    x = opsdk.ones([2], dtype="float64")
    assert not x.new_zeros([1], requires_grad=True).stop_gradient
    assert x.new_full([2], 7).numpy().tolist() == [7.0, 7.0]


def test_second_order_gradients():
    assert_gradients(lambda t: opsdk.vander(t, 4) * 1.5, [np.array([0.0, 0.5, -1.25])])
    assert_gradients(lambda t: opsdk.combinations(t, 2) ** 2, [signed(3)])
    assert_gradients(lambda a, b: opsdk.cartesian_prod([a, b]) ** 2, [signed(2), signed(3)])


def test_errors_name_the_op_and_the_argument():
    with pytest.raises(TypeError, match="combinations: expected: a 1-D tensor"):  # as Paddle
        opsdk.combinations(opsdk.ones([2, 2]))
    with pytest.raises(ShapeError, match="vander: expected: a 1-D tensor"):
        opsdk.vander(opsdk.ones([2, 2]))
    with pytest.raises(OpArgumentError, match="range: argument 'step'"):
        opsdk.range(0, 3, 0)
    with pytest.raises(OpArgumentError, match="cartesian_prod: argument 'x'"):
        opsdk.cartesian_prod([])
