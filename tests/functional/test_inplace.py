"""In-place ops whose result has another shape: the tensor takes it, as in Paddle 3.3.1."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import ShapeError


def test_cumsum_without_axis_flattens_the_tensor_in_place():
    x = opsdk.arange(24, dtype="float32").reshape([2, 3, 4])
    r = x.cumsum_()
    assert r is x and x.shape == [24]
    np.testing.assert_array_equal(x.numpy(), np.cumsum(np.arange(24.0)))


def test_cumsum_without_axis_in_the_graph_keeps_the_gradient():
    a = opsdk.to_tensor([1.0, 2.0, 3.0, 4.0], stop_gradient=False)
    x = (a * 1).reshape([2, 2])
    x.cumsum_()
    x.sum().backward()
    assert x.shape == [4] and a.grad.numpy().tolist() == [4.0, 3.0, 2.0, 1.0]


def test_assign_into_a_tensor_of_another_shape_gives_it_the_source_shape():
    dst = opsdk.zeros([2, 3])
    r = opsdk.assign(opsdk.to_tensor([1.0, 2.0, 3.0]), dst)
    assert r is dst and dst.shape == [3] and dst.numpy().tolist() == [1.0, 2.0, 3.0]
    src = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    out = opsdk.assign(src, opsdk.zeros([2, 3]))
    out.sum().backward()
    assert out.shape == [2] and not out.stop_gradient and src.grad.numpy().tolist() == [1, 1]


@pytest.mark.paddle
def test_assign_gives_the_output_the_source_dtype_as_paddle():
    from helpers.frameworks import import_paddle

    def run(P):
        into_float = P.zeros([3, 3], dtype="float32")
        P.assign(np.array([[1, 1], [3, 4]], dtype=np.int64), into_float)  # Paddle's docstring
        same_shape = P.zeros([2], dtype="float32")
        P.assign(P.to_tensor([1, 2]), same_shape)
        leaf = P.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
        y = P.zeros([2], dtype="float32")
        y.stop_gradient = False
        y = y * 1
        P.assign(leaf, y)
        (g,) = P.grad([(y * y).sum()], [leaf])
        return [(str(t.dtype), list(t.shape), t.numpy().tolist())
                for t in (into_float, same_shape, y, g)]

    assert run(opsdk) == run(import_paddle())


def test_a_tensor_with_live_views_cannot_change_shape_in_place():
    dst = opsdk.zeros([2, 3], dtype="float32")
    dst.stop_gradient = False
    y = dst * 1
    view = y[0]
    with pytest.raises(ShapeError, match="views of the tensor"):
        opsdk.assign(opsdk.ones([3]), y)
    assert view.shape == [3] and y.shape == [2, 3]


@pytest.mark.parametrize("value", [[1], (1,), "a"])
def test_fill_refuses_a_value_that_is_not_a_number(value):
    # Paddle: TypeError for a list, tuple, tensor or string
    x = opsdk.to_tensor([2, 3, 4])
    with pytest.raises(TypeError, match="fill_: value: expected: an int or float; got: "):
        x.fill_(value)
    x.fill_(True)
    np.testing.assert_array_equal(x.numpy(), [1, 1, 1])


def test_uniform_fills_with_an_array_still():
    x = opsdk.zeros([3, 4])
    x.uniform_(-1.0, 1.0)
    assert (x.numpy() != 0).any() and (abs(x.numpy()) <= 1).all()


def test_fill_constant_makes_a_tensor_or_fills_out():
    made = opsdk.fill_constant([2, 2], "float32", 1.5)
    assert made.dtype == opsdk.float32 and made.numpy().tolist() == [[1.5, 1.5], [1.5, 1.5]]
    out = opsdk.zeros([3], dtype="int64")
    assert opsdk.fill_constant([3], "int64", 7, out=out) is out
    assert out.numpy().tolist() == [7, 7, 7]

