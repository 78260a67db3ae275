"""create_parameter and Parameter."""
import math

import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpArgumentError
from opsdk.nn import Parameter


def test_create_parameter_is_a_trainable_leaf_with_a_name():
    w = paddle.create_parameter(shape=[2, 3], dtype="float32")
    assert isinstance(w, Parameter) and isinstance(w, paddle.Tensor)
    assert w.stop_gradient is False and w.trainable and w.is_leaf
    assert w.name.startswith("create_parameter_") and w.shape == [2, 3]
    assert w.dtype == np.float32


def test_create_parameter_uses_the_default_initializer():
    w = paddle.create_parameter(shape=[1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(0.0))
    assert w.numpy().tolist() == [0.0]


def test_create_parameter_defaults_to_xavier_uniform_for_weights_and_zeros_for_biases():
    paddle.seed(0)
    w = paddle.create_parameter(shape=[40, 60], dtype="float32")
    limit = math.sqrt(6.0 / 100)
    assert np.abs(w.numpy()).max() <= limit and w.numpy().std() > limit / 3
    b = paddle.create_parameter(shape=[5], dtype="float64", is_bias=True)
    np.testing.assert_array_equal(b.numpy(), np.zeros(5))
    assert b.dtype == np.float64


def test_attr_initializer_wins_over_default_initializer():
    w = paddle.create_parameter(
        [2], "float32", attr=paddle.nn.ParamAttr(initializer=paddle.nn.initializer.Constant(2.0)),
        default_initializer=paddle.nn.initializer.Constant(1.0))
    assert w.numpy().tolist() == [2.0, 2.0]


def test_create_parameter_name_argument_names_it_without_touching_the_attr():
    attr = paddle.nn.ParamAttr()
    w = paddle.create_parameter([1], "float32", name="scale", attr=attr)
    assert w.name == "scale" and attr.name is None


def test_trainable_false_is_stop_gradient_true():
    w = paddle.create_parameter([1], "float32")
    w.trainable = False
    assert w.stop_gradient
    w.stop_gradient = False
    assert w.trainable


def test_parameter_gets_a_gradient_and_stays_a_leaf_after_an_update():
    w = paddle.create_parameter([1], "float32",
                                default_initializer=paddle.nn.initializer.Constant(2.0))
    (w * 3.0).sum().backward()
    assert w.grad.numpy().tolist() == [3.0]
    with paddle.no_grad():
        w -= 0.1 * w.grad
    assert w.is_leaf and w.numpy().tolist() == pytest.approx([1.7])


def test_create_parameter_rejects_negative_shapes():
    with pytest.raises(OpArgumentError, match="create_parameter"):
        paddle.create_parameter([-1, 2], "float32")


def test_parameter_repr_says_parameter():
    assert repr(paddle.create_parameter([1], "float32")).startswith("Parameter containing:")
