"""nn.Layer: registration, tree walking, modes, hooks, state."""
from collections import OrderedDict

import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpArgumentError
from opsdk.nn import Layer, Linear, ReLU, Sequential


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


def test_call_runs_forward():
    m = MLP()
    assert m(paddle.randn([3, 4])).shape == [3, 2]


def test_named_parameters_gives_structured_names_in_definition_order():
    names = [n for n, _ in MLP().named_parameters()]
    assert names == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]


def test_parameters_lists_a_shared_parameter_once():
    m = MLP()
    m.fc3 = m.fc1
    assert len(m.parameters()) == 4


def test_parameters_without_sublayers_are_only_the_layers_own():
    m = MLP()
    m.scale = m.create_parameter([1])
    assert [p.name for p in m.parameters(include_sublayers=False)] == [m.scale.name]


def test_sublayers_and_children_walk_the_tree():
    m = Sequential(MLP(), Linear(2, 2))
    assert len(m.children()) == 2
    assert [type(s).__name__ for s in m.sublayers()] == ["MLP", "Linear", "ReLU", "Linear",
                                                        "Linear"]
    assert m.sublayers(include_self=True)[0] is m


def test_train_and_eval_reach_every_sublayer():
    m = Sequential(MLP(), paddle.nn.Dropout(0.5))
    m.eval()
    assert not any(s.training for s in m.sublayers(include_self=True))
    m.train()
    assert all(s.training for s in m.sublayers(include_self=True))


def test_assigning_before_super_init_is_an_error_that_says_what_to_do():
    class Broken(Layer):
        def __init__(self):
            self.fc = Linear(2, 2)

    with pytest.raises(OpArgumentError, match=r"super\(\).__init__\(\)"):
        Broken()


def test_assigning_a_plain_tensor_to_a_parameter_slot_is_refused():
    m = Linear(2, 2)
    with pytest.raises(OpArgumentError, match="is a parameter"):
        m.weight = paddle.ones([2, 2])


def test_forward_pre_and_post_hooks_can_replace_inputs_and_outputs_and_be_removed():
    m = Linear(2, 2)
    pre = m.register_forward_pre_hook(lambda layer, inputs: (inputs[0] * 0,))
    post = m.register_forward_post_hook(lambda layer, inputs, out: out + 1)
    y = m(paddle.ones([1, 2]))
    np.testing.assert_allclose(y.numpy(), m.bias.numpy()[None] + 1)
    pre.remove()
    post.remove()
    np.testing.assert_allclose(m(paddle.zeros([1, 2])).numpy(), m.bias.numpy()[None])


def test_clear_gradients_zeroes_every_gradient():
    m = MLP()
    m(paddle.randn([2, 4])).sum().backward()
    m.clear_gradients()
    assert all(float(np.abs(p.grad.numpy()).sum()) == 0 for p in m.parameters())


def test_apply_visits_every_layer():
    seen = []
    MLP().apply(lambda layer: seen.append(type(layer).__name__))
    assert seen == ["Linear", "ReLU", "Linear", "MLP"]


def test_full_name_is_unique_per_class():
    a, b = Linear(1, 1), Linear(1, 1)
    assert a.full_name() != b.full_name() and a.full_name().startswith("linear_")
    assert a.weight.name == a.full_name() + ".w_0"


def test_repr_shows_the_tree():
    text = repr(Sequential(OrderedDict([("fc", Linear(2, 3)), ("act", ReLU())])))
    assert "(fc): Linear(in_features=2, out_features=3" in text and "(act): ReLU()" in text


def test_delattr_unregisters_a_sublayer():
    m = MLP()
    del m.fc2
    assert [n for n, _ in m.named_parameters()] == ["fc1.weight", "fc1.bias"]


def test_named_members_keep_duplicates_when_asked():
    # Paddle's remove_duplicate=False lists a layer, parameter or buffer under every name
    class Twice(Layer):
        def __init__(self):
            super().__init__()
            self.fc = Linear(1, 1)
            w = self.create_parameter([2, 3])
            self.add_parameter("w1", w)
            self.add_parameter("w2", w)
            b = paddle.ones([2])
            self.register_buffer("b1", b)
            self.register_buffer("b2", b)

    m = Twice()
    assert len(list(m.named_parameters())) == 3
    assert [n for n, _ in m.named_parameters(remove_duplicate=False)] == \
        ["w1", "w2", "fc.weight", "fc.bias"]
    assert len(list(m.named_buffers())) == 1
    assert len(list(m.named_buffers(remove_duplicate=False))) == 2
    fc = Linear(1, 1)
    seq = Sequential(fc, fc)
    assert [l for _, l in seq.named_sublayers()] == [fc]
    assert [n for n, _ in seq.named_sublayers(remove_duplicate=False)] == ["0", "1"]
