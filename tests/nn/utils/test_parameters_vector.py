"""parameters_to_vector / vector_to_parameters."""
import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import ShapeError


def test_round_trip_through_one_vector():
    a = paddle.create_parameter([2, 2], "float32")
    b = paddle.create_parameter([3], "float32")
    vec = paddle.nn.utils.parameters_to_vector([a, b])
    assert vec.shape == [7]
    paddle.nn.utils.vector_to_parameters(paddle.arange(7, dtype="float32"), [a, b])
    np.testing.assert_array_equal(a.numpy(), [[0, 1], [2, 3]])
    np.testing.assert_array_equal(b.numpy(), [4, 5, 6])


def test_vector_of_the_wrong_length_is_refused():
    with pytest.raises(ShapeError, match="7 elements"):
        paddle.nn.utils.vector_to_parameters(paddle.ones([6]), [
            paddle.create_parameter([2, 2], "float32"), paddle.create_parameter([3], "float32")])
