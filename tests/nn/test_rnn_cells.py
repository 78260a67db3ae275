"""Recurrent cells (opsdk/nn/rnn_cells.py): SimpleRNNCell, LSTMCell, GRUCell, RNNCellBase."""
import math

import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle
from helpers.gradients import assert_first_order, assert_second_order
from helpers.recurrent import default_dtype, paddle_layer_cases

RNG = np.random.default_rng(3)
X = RNG.standard_normal((2, 3))
H = RNG.standard_normal((2, 5))
C = RNG.standard_normal((2, 5))

CELLS = {
    "simple tanh": (lambda P: P.nn.SimpleRNNCell(3, 5), [X, H]),
    "simple relu, no state": (lambda P: P.nn.SimpleRNNCell(3, 5, "relu"), [X]),
    "gru": (lambda P: P.nn.GRUCell(3, 5), [X, H]),
    "gru, no state": (lambda P: P.nn.GRUCell(3, 5), [X]),
    "lstm": (lambda P: P.nn.LSTMCell(3, 5), [X, (H, C)]),
    "lstm, projected": (lambda P: P.nn.LSTMCell(3, 5, proj_size=2), [X, (H[:, :2], C)]),
    # a 1-D input broadcasts against the [3, 5] states Paddle makes from its length
    "lstm, 1-D input": (lambda P: P.nn.LSTMCell(3, 5), [X[0]]),
    "gru, frozen biases": (lambda P: P.nn.GRUCell(3, 5, bias_ih_attr=False, bias_hh_attr=False),
                           [X, H]),
    "simple, frozen weight_hh": (lambda P: P.nn.SimpleRNNCell(3, 5, weight_hh_attr=False),
                                 [X, H]),
}


# outputs, new states and the gradients of input, state and every parameter
test_cells_match_paddle_with_its_parameters = paddle_layer_cases(CELLS)


@pytest.mark.parametrize("make, shapes", [
    (lambda: opsdk.nn.SimpleRNNCell(3, 5), [[5, 3], [5, 5], [5], [5]]),
    (lambda: opsdk.nn.GRUCell(3, 5), [[15, 3], [15, 5], [15], [15]]),
    (lambda: opsdk.nn.LSTMCell(3, 5), [[20, 3], [20, 5], [20], [20]]),
    (lambda: opsdk.nn.LSTMCell(3, 5, proj_size=2), [[20, 3], [20, 2], [20], [20], [5, 2]]),
])
def test_parameters_are_uniform_in_one_over_root_hidden(make, shapes):
    cell = make()
    params = cell.parameters()
    assert [p.shape for p in params] == shapes
    names = ["weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_ho"][:len(shapes)]
    assert [n for n, _ in cell.named_parameters()] == names
    bound = 1 / math.sqrt(5)
    for p in params:
        assert not p.stop_gradient and np.abs(p.numpy()).max() <= bound
        assert p.numpy().std() > 0


def test_a_false_attr_gives_a_frozen_constant_and_an_attr_its_initializer():
    cell = opsdk.nn.GRUCell(3, 4, weight_ih_attr=False, bias_hh_attr=False,
                            weight_hh_attr=opsdk.nn.initializer.Constant(0.5))
    assert cell.weight_ih.stop_gradient and (cell.weight_ih.numpy() == 1).all()
    assert cell.bias_hh.stop_gradient and (cell.bias_hh.numpy() == 0).all()
    assert (cell.weight_hh.numpy() == 0.5).all() and not cell.weight_hh.stop_gradient
    named = opsdk.nn.SimpleRNNCell(2, 2, bias_ih_attr=opsdk.nn.ParamAttr(name="my_b"))
    assert named.bias_ih.name == "my_b"


def test_parameters_and_states_follow_the_default_dtype():
    with default_dtype(opsdk, "float64"):
        cell = opsdk.nn.LSTMCell(3, 4)
        h, c = cell.get_initial_states(opsdk.ones([2, 3], "float64"))
    assert cell.weight_ih.dtype == opsdk.float64 and h.dtype == opsdk.float64
    # outside, the states take the (float32) default dtype, as Paddle's
    assert cell.get_initial_states(opsdk.ones([2, 3]))[0].dtype == opsdk.float32


def test_state_shapes_and_initial_states():
    assert opsdk.nn.SimpleRNNCell(3, 4).state_shape == (4,)
    assert opsdk.nn.GRUCell(3, 4).state_shape == (4,)
    assert opsdk.nn.LSTMCell(3, 4).state_shape == ((4,), (4,))
    # Paddle's order puts the projected size on the second state
    assert opsdk.nn.LSTMCell(3, 4, proj_size=2).state_shape == ((4,), (2,))
    cell = opsdk.nn.GRUCell(3, 4)
    ref = opsdk.ones([6, 2, 3])
    assert cell.get_initial_states(ref, batch_dim_idx=1).shape == [2, 4]
    filled = cell.get_initial_states(ref, shape=[-1, 7], dtype="float64", init_value=1.5)
    assert filled.shape == [6, 7] and filled.dtype == opsdk.float64
    assert (filled.numpy() == 1.5).all()
    h, c = cell.get_initial_states([ref], shape=((3,), (2, 2)))
    assert h.shape == [6, 3] and c.shape == [6, 2, 2]


def test_reprs_are_paddles():
    assert repr(opsdk.nn.SimpleRNNCell(3, 4)) == "SimpleRNNCell(3, 4)"
    assert repr(opsdk.nn.SimpleRNNCell(3, 4, "relu")) == "SimpleRNNCell(3, 4, activation=relu)"
    assert repr(opsdk.nn.LSTMCell(3, 4)) == "LSTMCell(3, 4)"
    assert repr(opsdk.nn.GRUCell(3, 4)) == "GRUCell(3, 4)"
    assert opsdk.nn.LSTMCell(3, 4).full_name().startswith("lstm_cell_")
    assert opsdk.nn.SimpleRNNCell(3, 4).weight_ih.name.startswith("simple_rnn_cell_")


@pytest.mark.parametrize("make", [
    lambda: opsdk.nn.SimpleRNNCell(3, 4, "relu"),
    lambda: opsdk.nn.GRUCell(3, 4),
    lambda: opsdk.nn.LSTMCell(3, 4, proj_size=2),
])
def test_gradients_of_input_and_state_to_second_order(make):
    with default_dtype(opsdk, "float64"):
        cell = make()
    x = RNG.standard_normal((2, 3))
    if isinstance(cell, opsdk.nn.LSTMCell):
        states = [RNG.standard_normal((2, 2)), RNG.standard_normal((2, 4))]

        def fn(x, h, c):
            out, (h2, c2) = cell(x, (h, c))
            return [out, c2]
    else:
        states = [RNG.standard_normal((2, 4)) + 0.3]

        def fn(x, h):
            return cell(x, h)[0]
    assert_first_order(fn, [x, *states])
    assert_second_order(fn, [x, *states])


@pytest.mark.paddle
@pytest.mark.parametrize("fn", [
    lambda P: P.nn.SimpleRNNCell(3, 4, activation="sigmoid"),
    lambda P: P.nn.GRUCell(3, 0),
    lambda P: P.nn.LSTMCell(3, 4, proj_size=4),
    lambda P: P.nn.LSTMCell(3, 4, proj_size=-1),
    lambda P: P.nn.RNNCellBase().state_shape,
    lambda P: P.nn.RNNCellBase().get_initial_states(P.ones([2, 3])),
    lambda P: P.nn.GRUCell(3, 4)(P.ones([2, 5, 3])),
    lambda P: P.nn.GRUCell(3, 4)(P.ones([2, 5])),
    lambda P: P.nn.GRUCell(3, 4)(P.ones([3])),
    lambda P: P.nn.GRUCell(3, 4)(P.ones([2, 3], "float64")),
    # Paddle's own state_shape gives the projected LSTM cell states it cannot use
    lambda P: P.nn.LSTMCell(3, 4, proj_size=2)(P.ones([2, 3])),
], ids=["activation", "hidden 0", "proj too big", "proj negative", "base state_shape",
        "base initial states", "3-D input", "input size", "1-D GRU input", "dtypes differ",
        "projected default states"])
def test_bad_arguments_raise_as_paddle(fn):
    assert_raises_as_paddle(fn)
