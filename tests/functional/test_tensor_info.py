"""Questions about a tensor (tensor_info.py), answered as Paddle 3.3.1 answers them."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import import_paddle


@pytest.mark.paddle
def test_tensor_questions_match_paddle():
    paddle = import_paddle()
    for dtype in ("float16", "float32", "float64", "int32", "int64", "uint8", "bool"):
        got, want = opsdk.ones([2, 3], dtype), paddle.ones([2, 3], dtype)
        for q in (lambda t: t.ndimension(), lambda t: t.is_floating_point(),
                  lambda t: t.is_integer(), lambda t: t.element_size(), lambda t: t.itemsize,
                  lambda t: t.is_same_shape(t[0:1]), lambda t: t.is_same_shape(t * 1)):
            assert q(got) == q(want), dtype
        assert opsdk.is_floating_point(got) == paddle.is_floating_point(want)
        assert opsdk.is_integer(got) == paddle.is_integer(want)


@pytest.mark.paddle
@pytest.mark.parametrize("case", [
    lambda P: P.is_empty(P.ones([0, 2])), lambda P: P.is_empty(P.ones([1])),
    lambda P: P.ones([2], "float64").type_as(P.ones([1], "int32")),
    lambda P: P.ones([2], "int32").type_as(P.ones([1], "float32")),
])
def test_tensor_results_match_paddle(case):
    paddle = import_paddle()
    got, want = case(opsdk), case(paddle)
    assert str(got.dtype) == str(want.dtype) and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_type_as_keeps_the_gradient_path_for_floats():
    x = opsdk.to_tensor([1.0, 2.0], dtype="float32", stop_gradient=False)
    y = x.type_as(opsdk.ones([1], dtype="float64"))
    assert str(y.dtype) == "paddle.float64" and not y.stop_gradient
