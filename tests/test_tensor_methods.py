"""Tensor methods defined in opsdk/tensor_methods.py, where they follow Paddle's checks."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import OpArgumentError


@pytest.mark.parametrize("low, high", [(0.0, 0.0), (1.0, 0.0)])
def test_uniform_inplace_refuses_an_empty_range_as_paddle_does(low, high):
    x = opsdk.to_tensor(np.array([1.5, 2.0]))
    with pytest.raises(ValueError, match="uniform_: 'min' must be less than 'max'") as info:
        x.uniform_(low, high)
    assert isinstance(info.value, OpArgumentError)
    assert x.numpy().tolist() == [1.5, 2.0] and x.inplace_version == 0


def test_uniform_inplace_draws_inside_the_range():
    x = opsdk.to_tensor(np.zeros(50))
    x.uniform_(2.0, 3.0)
    assert ((x.numpy() >= 2.0) & (x.numpy() < 3.0)).all() and x.inplace_version == 1


def test_module_in_place_functions_refuse_a_non_tensor_to_write_into():
    # Paddle: a TypeError (hypot_, ldexp_) or ValueError (abs_, tanh_): ArgumentTypeError is both
    for name, args in (("abs_", (3.0,)), ("tanh_", ([1.0],)), ("hypot_", (3.0, opsdk.ones([1])))):
        with pytest.raises(TypeError, match=rf"{name}: x must be tensor type, but got <class"):
            getattr(opsdk, name)(*args)
        with pytest.raises(ValueError):
            getattr(opsdk, name)(*args)
    # the checked argument is the first, whatever its name: addmm_'s x is another operand
    inp = opsdk.zeros([2, 2])
    assert opsdk.addmm_(inp, x=opsdk.ones([2, 3]), y=opsdk.ones([3, 2])) is inp
    assert inp.numpy().tolist() == [[3.0, 3.0], [3.0, 3.0]]


def test_pow_in_place_takes_a_python_number_only_as_paddle():
    x = opsdk.to_tensor([2.0, 3.0])
    assert opsdk.pow_(x, 2) is x and x.numpy().tolist() == [4.0, 9.0]
    assert x.pow_(0.5).numpy().tolist() == [2.0, 3.0]
    for y in ([2], opsdk.to_tensor(2.0), np.float32(2.0)):
        with pytest.raises(TypeError, match="pow_: y must be scalar type, but received: <class"):
            opsdk.pow_(x, y)


def test_where_in_place_needs_tensors_and_a_bool_condition_as_paddle():
    cond = opsdk.to_tensor([True, False])
    x, y = opsdk.to_tensor([1.0, 2.0]), opsdk.to_tensor([5.0, 6.0])
    assert opsdk.where_(cond, x, y) is x and x.numpy().tolist() == [1.0, 6.0]
    for a, b in ((1, 2), (None, None), (x, 2.0)):
        with pytest.raises(ValueError, match="where_: x and y must both be Tensors"):
            opsdk.where_(cond, a, b)
    with pytest.raises(ValueError, match="where_: condition must be a bool Tensor"):
        opsdk.where_(opsdk.to_tensor([1, 0]), x, y)


def test_mT_swaps_the_last_two_axes_and_needs_two():
    x = opsdk.to_tensor(np.arange(24.0).reshape(2, 3, 4), stop_gradient=False)
    (x.mT * opsdk.arange(24.0).reshape([2, 4, 3])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.arange(24.0).reshape(2, 4, 3).swapaxes(1, 2))
    with pytest.raises(OpArgumentError, match="mT"):
        opsdk.to_tensor([1.0]).mT


def test_invert_and_or_xor_are_bitwise_on_integers_logical_on_bools():
    a, b = opsdk.to_tensor([6, -3]), opsdk.to_tensor([3, 5])
    assert (~a).tolist() == [-7, 2] and (a & b).tolist() == [2, 5]
    assert (a | b).tolist() == [7, -3] and (a ^ b).tolist() == [5, -8]
    t, f = opsdk.to_tensor([True, False]), opsdk.to_tensor([True, True])
    assert (~t).tolist() == [False, True] and (t & f).tolist() == [True, False]


def test_cpu_of_a_cpu_tensor_is_the_tensor_itself():
    x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    assert x.cpu() is x


def test_set_value_of_another_shape_is_an_assertion_error_as_in_paddle():
    x = opsdk.to_tensor([1.0, 2.0, 3.0])
    with pytest.raises(AssertionError, match="set_value"):
        x.set_value(np.zeros([2]))
    with pytest.raises(ValueError):
        x.copy_(opsdk.zeros([2]))


@pytest.mark.paddle
def test_equality_with_none_or_a_string_is_paddle_s():
    from helpers.frameworks import import_paddle
    paddle = import_paddle()
    for P in (paddle, opsdk):
        t = P.to_tensor([1.0, 2.0])
        assert (t == None) is False and (t != None) is True  # noqa: E711 (the idiom tested)
        assert (t == "a").numpy().tolist() == [False, False]
        assert (t != "a").numpy().tolist() == [True, True]
        assert (t == 1.0).numpy().tolist() == [True, False]
