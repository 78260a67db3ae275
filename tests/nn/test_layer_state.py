"""Layer.state_dict / set_state_dict / to (opsdk/nn/layer_state.py)."""
import warnings

import numpy as np
import pytest

import opsdk as paddle
from helpers.frameworks import import_paddle
from opsdk.errors import OpsdkWarning
from opsdk.nn import Layer, Linear, ReLU


class MLP(Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = Linear(4, 8)
        self.act = ReLU()
        self.fc2 = Linear(8, 2)
        self.register_buffer("steps", paddle.zeros([1]))
        self.register_buffer("cache", paddle.zeros([2]), persistable=False)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def test_state_dict_has_parameters_and_persistable_buffers_only_own_entries_first():
    sd = MLP().state_dict()
    assert list(sd) == ["steps", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]


@pytest.mark.paddle
def test_a_shared_parameter_or_layer_is_listed_under_each_name_as_paddle():
    real = import_paddle()

    def keys(P):
        class Tied(P.nn.Layer):
            def __init__(self):
                super().__init__()
                self.a = P.nn.Linear(2, 2)
                self.b = self.a
                self.w = self.a.weight
        net = Tied()
        missing, unexpected = net.set_state_dict(net.state_dict())
        return list(net.state_dict()), list(missing), list(unexpected)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = keys(real)
    assert keys(paddle) == theirs
    assert theirs[0] == ["w", "a.weight", "a.bias", "b.weight", "b.bias"]


def test_set_state_dict_copies_values_into_another_model():
    a, b = MLP(), MLP()
    missing, unexpected = b.set_state_dict(a.state_dict())
    assert missing == [] and unexpected == []
    for (_, pa), (_, pb) in zip(a.named_parameters(), b.named_parameters()):
        np.testing.assert_array_equal(pa.numpy(), pb.numpy())
        assert pa._data is not pb._data


def test_set_state_dict_accepts_numpy_arrays_and_reports_missing_and_unexpected_keys():
    m = MLP()
    missing, unexpected = m.set_state_dict({"fc1.bias": np.ones(8), "extra": np.zeros(1)})
    np.testing.assert_array_equal(m.fc1.bias.numpy(), np.ones(8, np.float32))
    assert "fc1.weight" in missing and unexpected == ["extra"]


def test_set_state_dict_skips_a_wrong_shape_with_a_warning_naming_the_key():
    m = MLP()
    with pytest.warns(OpsdkWarning, match="fc1.bias"):
        missing, unexpected = m.set_state_dict({"fc1.bias": np.ones(3), "fc2.bias": np.ones(2)})
    assert "fc1.bias" in missing and unexpected == ["fc1.bias"]
    np.testing.assert_array_equal(m.fc2.bias.numpy(), np.ones(2, np.float32))


@pytest.mark.paddle
def test_set_state_dict_with_a_wrong_shape_loads_and_reports_as_paddle():
    real = import_paddle()

    def load(P):
        net = P.nn.Linear(3, 2, bias_attr=P.nn.initializer.Constant(0.0))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            missing, unexpected = net.set_state_dict({"weight": P.ones([2, 3]),
                                                      "bias": P.ones([2])})
        return list(missing), list(unexpected), net.bias.numpy().tolist()

    assert load(paddle) == load(real)


def test_set_state_dict_by_parameter_name():
    a, b = MLP(), MLP()
    by_name = {p.name: p for p in a.parameters()}
    b_names = [p.name for p in b.parameters()]
    state = {bn: by_name[an] for an, bn in zip(by_name, b_names)}
    b.set_state_dict(state, use_structured_name=False)
    np.testing.assert_array_equal(a.fc2.weight.numpy(), b.fc2.weight.numpy())


def test_to_casts_parameters_and_buffers():
    m = MLP().to(dtype="float64")
    assert all(p.dtype == np.float64 for p in m.parameters())
    assert m.steps.dtype == np.float64
    assert m(paddle.randn([1, 4], dtype="float64")).dtype == np.float64
