"""Layer.state_dict / set_state_dict / to (opsdk/nn/layer_state.py)."""
import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import ShapeError
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


def test_set_state_dict_rejects_a_wrong_shape_naming_the_key():
    with pytest.raises(ShapeError, match="fc1.bias"):
        MLP().set_state_dict({"fc1.bias": np.ones(3)})


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
