"""Nested structures of tensors for recurrent layers (opsdk/nn/rnn_structure.py)."""
from opsdk.nn.rnn_structure import flatten, map_structure


def test_flatten_and_map_keep_the_nesting():
    nest = (1, [2, (3, 4)], 5)
    assert flatten(nest) == [1, 2, 3, 4, 5]
    assert flatten(7) == [7]
    assert map_structure(lambda x: x * 10, nest) == (10, [20, (30, 40)], 50)
    assert map_structure(lambda x, y: x + y, (1, [2]), (10, [20])) == (11, [22])


def test_a_leaf_test_stops_the_descent():
    shapes = ((3,), [2, 2])
    is_shape = lambda s: all(isinstance(d, int) for d in s)  # noqa: E731
    assert map_structure(len, shapes, leaf=is_shape) == (1, 2)
    assert flatten(shapes, leaf=is_shape) == [(3,), [2, 2]]
