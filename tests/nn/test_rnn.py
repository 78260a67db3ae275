"""Recurrent layers (opsdk/nn/rnn.py): RNN, BiRNN, SimpleRNN, LSTM, GRU, compared with Paddle
with the same parameters: outputs, final states, and the gradients of the inputs, the initial
states and every parameter."""
import itertools
import warnings

import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle, import_paddle
from helpers.gradients import assert_first_order
from helpers.recurrent import assert_layer_matches_paddle, default_dtype, paddle_layer_cases

RNG = np.random.default_rng(5)
X = RNG.standard_normal((2, 4, 3))          # [batch, time, input]
LENGTHS = np.array([4, 2], "int64")
H = RNG.standard_normal((2, 5))
C = RNG.standard_normal((2, 5))


def _states(kind, layers, directions, size=5):
    h = RNG.standard_normal((layers * directions, 2, size))
    if kind == "LSTM":
        return (h, RNG.standard_normal((layers * directions, 2, 5)))
    return h


def _case(kind, direction, layers, time_major, lengths, initial, dtype="float64"):
    directions = 2 if direction != "forward" else 1
    x = X.transpose(1, 0, 2) if time_major else X
    states = _states(kind, layers, directions) if initial else None

    def make(P):
        return getattr(P.nn, kind)(3, 5, layers, direction, time_major=time_major)
    return make, [x, states, LENGTHS if lengths else None], dtype


# a spread of the combinations for the default run; the slow test takes all of them
FAST = [
    ("SimpleRNN", "forward", 1, False, False, True),
    ("SimpleRNN", "bidirect", 2, True, True, False),
    ("GRU", "forward", 2, False, True, True),
    ("GRU", "bidirectional", 1, False, True, False),
    ("GRU", "bidirect", 2, True, False, True),
    ("LSTM", "forward", 1, True, True, True),
    ("LSTM", "bidirect", 2, False, True, False),
    ("LSTM", "bidirect", 1, False, False, True),
]


def _id(case):
    kind, direction, layers, time_major, lengths, initial = case[:6]
    return (f"{kind}-{direction}-{layers}l" + ("-tm" if time_major else "")
            + ("-lengths" if lengths else "") + ("-h0" if initial else ""))


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", FAST, ids=_id)
def test_networks_match_paddle(case, dtype):
    make, args, dtype = _case(*case, dtype=dtype)
    assert_layer_matches_paddle(make, args, dtype)


def _all_cases():
    for kind, direction, layers, tm, lengths, initial, dtype in itertools.product(
            ("SimpleRNN", "GRU", "LSTM"), ("forward", "bidirect"), (1, 2), (False, True),
            (False, True), (False, True), ("float64", "float32")):
        # Paddle's fused kernel differentiates a bidirectional network with both initial
        # states and padded sequences wrongly (see the test against finite differences)
        if not (direction == "bidirect" and lengths and initial):
            yield kind, direction, layers, tm, lengths, initial, dtype


@pytest.mark.slow
@pytest.mark.paddle
@pytest.mark.parametrize("case", list(_all_cases()), ids=lambda c: _id(c) + "-" + c[-1])
def test_every_combination_matches_paddle(case):
    make, args, dtype = _case(*case[:6], dtype=case[6])
    assert_layer_matches_paddle(make, args, dtype)


@pytest.mark.parametrize("kind", ["GRU", pytest.param("SimpleRNN", marks=pytest.mark.slow),
                                  pytest.param("LSTM", marks=pytest.mark.slow)])
def test_bidirectional_with_initial_states_and_padding_differentiates_exactly(kind):
    # Paddle 3.3.1's CPU rnn kernel gets the input gradient of the padded sequences wrong
    # here (it disagrees with its own finite differences by ~0.1); opsdk's is the exact one
    with default_dtype(opsdk, "float64"):
        net = getattr(opsdk.nn, kind)(2, 3, 1, "bidirect")
    lengths = opsdk.to_tensor(np.array([3, 1]))
    states = [RNG.standard_normal((2, 2, 3)) for _ in range(2 if kind == "LSTM" else 1)]

    def fn(x, *h0):
        out, final = net(x, tuple(h0) if kind == "LSTM" else h0[0], lengths)
        return [out, *(final if kind == "LSTM" else [final])]
    assert_first_order(fn, [X[:, :3, :2], *states], rtol=1e-5, atol=1e-7)


LSTM_PROJ = {
    "forward, 2 layers, h0": (lambda P: P.nn.LSTM(3, 5, 2, proj_size=2),
                              [X, (RNG.standard_normal((2, 2, 2)),
                                   RNG.standard_normal((2, 2, 5))), LENGTHS]),
    "bidirect": (lambda P: P.nn.LSTM(3, 5, 1, "bidirect", proj_size=2), [X, None, LENGTHS]),
}


@pytest.mark.paddle
@pytest.mark.parametrize("case", LSTM_PROJ)
def test_projected_lstm_matches_paddle(case):
    # Paddle runs it step by step (no fused kernel): outputs past the end are not zeroed
    make, args = LSTM_PROJ[case]
    assert_layer_matches_paddle(make, args)


WRAPPERS = {
    "RNN gru": (lambda P: P.nn.RNN(P.nn.GRUCell(3, 5)), [X, H, LENGTHS]),
    "RNN lstm reverse": (lambda P: P.nn.RNN(P.nn.LSTMCell(3, 5), is_reverse=True),
                         [X, (H, C), LENGTHS]),
    "RNN simple reverse time-major": (lambda P: P.nn.RNN(P.nn.SimpleRNNCell(3, 5), True, True),
                                      [X.transpose(1, 0, 2)]),
    "BiRNN lstm": (lambda P: P.nn.BiRNN(P.nn.LSTMCell(3, 5), P.nn.LSTMCell(3, 5)),
                   [X, ((H, C), (C, H)), LENGTHS]),
    "BiRNN gru time-major": (lambda P: P.nn.BiRNN(P.nn.GRUCell(3, 5), P.nn.GRUCell(3, 5), True),
                             [X.transpose(1, 0, 2), None, LENGTHS]),
}


test_rnn_and_birnn_match_paddle = paddle_layer_cases(WRAPPERS)


def test_outputs_past_the_end_are_zeros_and_states_stop_there():
    net = opsdk.nn.GRU(3, 4, direction="bidirect")
    x = opsdk.to_tensor(X.astype("float32"))
    out, h = net(x, sequence_length=opsdk.to_tensor(LENGTHS))
    assert out.shape == [2, 4, 8] and h.shape == [2, 2, 4]
    assert (out.numpy()[1, 2:] == 0).all() and (out.numpy()[1, :2] != 0).all()
    short, h_short = net(x[1:, :2])
    np.testing.assert_allclose(h.numpy()[:, 1:], h_short.numpy(), rtol=1e-6)
    # the wrappers leave the outputs past the end as the cell made them (as Paddle)
    out, _ = opsdk.nn.RNN(opsdk.nn.GRUCell(3, 4))(x, sequence_length=opsdk.to_tensor(LENGTHS))
    assert (out.numpy()[1, 2:] != 0).all()


@pytest.mark.paddle
@pytest.mark.parametrize("make", [
    lambda P: P.nn.LSTM(3, 4, 2, "bidirect"),
    lambda P: P.nn.GRU(3, 4, bias_ih_attr=False),
    lambda P: P.nn.SimpleRNN(3, 4, 2, bias_hh_attr=False),
    lambda P: P.nn.LSTM(3, 4, 2, "bidirect", proj_size=2),
    lambda P: P.nn.BiRNN(P.nn.GRUCell(3, 4), P.nn.GRUCell(3, 4)),
], ids=["lstm", "gru without bias_ih", "simple without bias_hh", "projected", "birnn"])
def test_parameter_names_shapes_and_state_dict_keys_are_paddles(make):
    # without a bias, or with a projection, Paddle pairs its names with the parameters in
    # order, so the names shift; opsdk pairs them the same way
    paddle = import_paddle()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = make(paddle)
    ours = make(opsdk)
    assert [(n, p.shape, p.stop_gradient) for n, p in ours.named_parameters()] == [
        (n, list(p.shape), p.stop_gradient) for n, p in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)
    assert getattr(ours, "could_use_cudnn", None) == getattr(theirs, "could_use_cudnn", None)


def test_the_network_attributes_are_its_cells_parameters():
    net = opsdk.nn.LSTM(3, 4, 2, "bidirect", time_major=True, dropout=0.5)
    assert net.weight_ih_l1_reverse is net[1].cell_bw.weight_ih
    assert net.bias_hh_l0 is net[0].cell_fw.bias_hh
    assert (net.num_directions, net.state_components, net.time_major) == (2, 2, True)
    with pytest.raises(TypeError):
        opsdk.nn.GRU(3, 4, proj_size=2)
    assert len(net.parameters()) == 16
    assert net.weight_ih_l1.shape == [16, 8]
    assert repr(net).startswith("LSTM(3, 4, num_layers=2, time_major=True, dropout=0.5\n")


def test_dropout_between_layers_only_in_training():
    net = opsdk.nn.SimpleRNN(3, 4, 2, dropout=0.5)
    x = opsdk.to_tensor(X.astype("float32"))
    net.eval()
    out_eval, _ = net(x)
    np.testing.assert_array_equal(net(x)[0].numpy(), out_eval.numpy())
    net.train()
    assert not np.allclose(net(x)[0].numpy(), out_eval.numpy())
    # one layer: nothing to drop between
    single = opsdk.nn.GRU(3, 4, dropout=0.5)
    np.testing.assert_array_equal(single(x)[0].numpy(), single.eval()(x)[0].numpy())


@pytest.mark.paddle
@pytest.mark.parametrize("fn", [
    lambda P: P.nn.LSTM(3, 4)(P.ones([5, 3])),
    lambda P: P.nn.LSTM(3, 4)(P.ones([2, 5, 3, 1])),
    lambda P: P.nn.GRU(3, 4)(P.ones([2, 5, 6])),
    lambda P: P.nn.LSTM(3, 4, direction="backward"),
    lambda P: P.nn.SimpleRNN(3, 4, activation="sigmoid"),
    lambda P: P.nn.GRU(3, 0),
    lambda P: P.nn.LSTM(3, 4, num_layers=0)(P.ones([2, 5, 3])),
    lambda P: P.nn.GRU(3, 4)(P.ones([2, 5, 3]), P.ones([2, 2, 4])),
    lambda P: P.nn.GRU(3, 4)(P.ones([2, 5, 3]), P.ones([1, 3, 4])),
    lambda P: P.nn.GRU(3, 4)(P.ones([2, 5, 3]), P.ones([2, 4])),
    lambda P: P.nn.LSTM(3, 4)(P.ones([2, 5, 3]), P.ones([1, 2, 4])),
    lambda P: P.nn.LSTM(3, 4)(P.ones([2, 5, 3]), (P.ones([1, 2, 4], "float64"),) * 2),
    lambda P: P.nn.LSTM(3, 4)(P.ones([2, 5, 3], "float64")),
    lambda P: P.nn.LSTM(3, 4)(P.ones([2, 5, 3], "int32")),
    lambda P: P.nn.LSTM(3, 4)(P.ones([2, 5, 3]), sequence_length=P.to_tensor([3, 2, 1])),
    lambda P: P.nn.RNN(P.nn.GRUCell(3, 4))(P.ones([5, 3])),
    lambda P: P.nn.RNN(P.nn.GRUCell(3, 4))(P.ones([2, 5, 3]), P.ones([2, 5])),
    lambda P: P.nn.BiRNN(P.nn.GRUCell(3, 4), P.nn.GRUCell(2, 4)),
    lambda P: P.nn.BiRNN(P.nn.GRUCell(3, 4), P.nn.GRUCell(3, 4))(P.ones([2, 5, 3]),
                                                                 [P.zeros([2, 4])] * 3),
], ids=["2-D input", "4-D input", "input size", "direction", "activation", "hidden 0",
        "no layers", "states count", "states batch", "states rank",
        "one LSTM state", "state dtype", "input dtype", "int input", "lengths batch",
        "RNN 2-D input", "RNN state size", "BiRNN input sizes", "BiRNN three states"])
def test_bad_arguments_raise_as_paddle(fn):
    assert_raises_as_paddle(fn)
