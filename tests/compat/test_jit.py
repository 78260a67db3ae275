"""opsdk.jit: to_static runs eagerly; save/load are refused with the way out."""
import pytest

import opsdk as paddle
from opsdk.errors import UnsupportedError


def test_to_static_returns_the_function_and_gradients_flow():
    def f(x):
        return x * x

    assert paddle.jit.to_static(f) is f
    g = paddle.jit.to_static(input_spec=[paddle.static.InputSpec([None, 2])])(f)
    x = paddle.to_tensor([3.0], stop_gradient=False)
    g(x).backward()
    assert x.grad.item() == 6.0


def test_to_static_on_a_layer_keeps_the_layer():
    layer = paddle.nn.Linear(2, 2)
    assert paddle.jit.to_static(layer) is layer


@pytest.mark.parametrize("call", [lambda: paddle.jit.save(paddle.nn.Linear(1, 1), "p"),
                                  lambda: paddle.jit.load("p")])
def test_jit_save_and_load_are_unsupported(call):
    with pytest.raises(UnsupportedError, match="opsdk has no static graphs"):
        call()


def test_input_spec_records_shape_dtype_name():
    spec = paddle.static.InputSpec([None, 10], "float64", name="x")
    assert spec.shape == (-1, 10) and spec.dtype == paddle.float64 and spec.name == "x"
    assert paddle.static.InputSpec.from_tensor(paddle.ones([2, 3])).shape == (2, 3)
