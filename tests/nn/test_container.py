"""Sequential and LayerList."""
from collections import OrderedDict

import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpArgumentError
from opsdk.nn import LayerList, Linear, ReLU, Sequential


def test_sequential_applies_layers_in_order():
    fc1, fc2 = Linear(3, 4), Linear(4, 2)
    x = paddle.randn([2, 3])
    np.testing.assert_array_equal(Sequential(fc1, ReLU(), fc2)(x).numpy(),
                                  fc2(paddle.nn.functional.relu(fc1(x))).numpy())


def test_sequential_indexing_slicing_length_and_names():
    m = Sequential(Linear(3, 4), ReLU(), Linear(4, 2))
    assert len(m) == 3 and isinstance(m[1], ReLU) and isinstance(m[-1], Linear)
    assert len(m[:2]) == 2
    named = Sequential(OrderedDict([("enc", Linear(2, 2)), ("act", ReLU())]))
    assert [n for n, _ in named.named_parameters()] == ["enc.weight", "enc.bias"]
    assert isinstance(named["act"], ReLU)
    pairs = Sequential(("a", Linear(1, 1)), ("b", ReLU()))
    assert [n for n, _ in pairs.named_children()] == ["a", "b"]


def test_sequential_index_out_of_range_says_how_many_layers():
    with pytest.raises(IndexError, match="2 layers"):
        Sequential(Linear(1, 1), ReLU())[5]


def test_layerlist_registers_parameters_and_supports_list_operations():
    blocks = LayerList([Linear(2, 2) for _ in range(3)])
    assert len(blocks.parameters()) == 6 and len(blocks) == 3
    blocks.append(Linear(2, 2))
    blocks[0] = Linear(2, 2)
    assert len(blocks) == 4 and len(blocks.parameters()) == 8
    assert [n for n, _ in blocks.named_parameters()][:2] == ["0.weight", "0.bias"]


def test_layerlist_inside_a_layer_is_seen_by_the_parent():
    class Stack(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.blocks = LayerList([Linear(2, 2), Linear(2, 2)])

        def forward(self, x):
            for blk in self.blocks:
                x = blk(x)
            return x

    s = Stack()
    assert [n for n, _ in s.named_parameters()][0] == "blocks.0.weight"
    assert s(paddle.ones([1, 2])).shape == [1, 2]


def test_layerlist_append_refuses_non_layers():
    with pytest.raises(OpArgumentError, match="LayerList.append"):
        LayerList().append(lambda x: x)


def test_layer_dict_registers_its_layers_by_name():
    heads = paddle.nn.LayerDict({"a": paddle.nn.Linear(2, 1), "b": paddle.nn.Linear(2, 3)})
    heads["c"] = paddle.nn.Linear(2, 2)
    assert list(heads.keys()) == ["a", "b", "c"] and "b" in heads and len(heads) == 3
    assert len(heads.parameters()) == 6
    heads.pop("a")
    assert sorted(heads) == ["b", "c"]


def test_layer_dict_update_refuses_what_is_not_pairs_as_paddle_does():
    heads = paddle.nn.LayerDict()
    # Paddle asserts a mapping or an iterable: code catching AssertionError keeps working
    with pytest.raises(AssertionError, match="LayerDict.update: argument 'sublayers'.*got: int"):
        heads.update(1)
    with pytest.raises(OpArgumentError, match="element 0 of 'sublayers'.*pair"):
        heads.update([("a", paddle.nn.Linear(2, 1), "extra")])
    heads.update([("a", paddle.nn.Linear(2, 1))])
    assert list(heads.keys()) == ["a"]


def test_parameter_list_registers_parameters_for_the_optimizer():
    ps = paddle.nn.ParameterList([paddle.create_parameter([2], "float32") for _ in range(2)])
    ps.append(paddle.create_parameter([1], "float32"))
    assert len(ps) == 3 and len(ps.parameters()) == 3 and ps[2].shape == [1]


def test_sequential_setitem_delitem_insert_extend_as_paddle():
    # the list operations Paddle's test_imperative_container_sequential uses
    x = paddle.randn([5, 10])
    m = Sequential(Linear(10, 1), Linear(1, 2))
    m[1] = Linear(1, 3)
    assert m(x).shape == [5, 3]
    m.insert(0, Linear(10, 10))
    m.extend([Linear(3, 4)])
    assert len(m) == 4 and m(x).shape == [5, 4]
    named = Sequential(("l1", Linear(10, 1)), ("l2", Linear(1, 3)))
    del named["l2"]
    assert len(named) == 1 and named(x).shape == [5, 1]
    with pytest.raises(AssertionError):  # Paddle's error for a non-Layer
        Sequential().insert(0, 1)
    with pytest.raises(IndexError):
        Sequential().insert(1, Linear(1, 1))
    with pytest.raises(KeyError, match="no sublayer named 'x'"):
        del named["x"]


def test_layerlist_delitem_by_index_and_slice_renumbers():
    layers = [Linear(1, 1) for _ in range(4)]
    ll = LayerList(layers)
    del ll[-1]
    assert list(ll) == layers[:3]
    del ll[1:]
    assert list(ll) == layers[:1] and list(ll._sub_layers) == ["0"]
    with pytest.raises(IndexError):
        del ll[5]


def test_parameter_dict_registers_its_parameters():
    from opsdk.nn import ParameterDict
    a, b = paddle.create_parameter([2], "float32"), paddle.create_parameter([3], "float32")
    pd = ParameterDict({"a": a})
    pd.update([("b", b)])
    assert list(pd) == ["a", "b"] and len(pd) == 2 and pd["b"] is b
    assert [p is q for p, q in zip(pd.parameters(), [a, b])] == [True, True]
    c = paddle.create_parameter([1], "float32")
    pd["a"] = c
    assert pd["a"] is c and len(pd) == 2
    assert list(ParameterDict(pd)) == ["a", "b"]
    with pytest.raises(OpArgumentError, match="element 0 of 'parameters' must be a"):
        pd.update([("x", a, 1)])
    with pytest.raises(OpArgumentError, match="add_parameter: expected: a Parameter"):
        pd["t"] = paddle.ones([1])
