"""RowMaths: the row and column reductions on arrays (the python kernels, [rows, K]) and on
Tensors (the reference, [..., K]), a row's element at an index, and the elementwise functions
through it."""
import numpy

import opsdk
from opsdk.kernels.rows import RowMaths


def test_row_reductions_keep_the_last_axis_and_col_sum_leaves_it():
    a = numpy.arange(12.0).reshape(3, 4)
    m = RowMaths(a)
    assert m.row_sum(a).shape == (3, 1) and m.row_max(a)[1, 0] == 7.0 and m.row_min(a)[2, 0] == 8.0
    numpy.testing.assert_allclose(m.row_mean(a)[:, 0], a.mean(axis=1))
    numpy.testing.assert_allclose(m.col_sum(a), a.sum(axis=0))
    numpy.testing.assert_allclose(m.sigmoid(numpy.zeros(2)), 0.5)


def test_on_tensors_they_reduce_every_leading_axis_and_stay_differentiable():
    t = opsdk.to_tensor(numpy.arange(24.0).reshape(2, 3, 4), stop_gradient=False)
    m = RowMaths(t)
    assert list(m.row_mean(t).shape) == [2, 3, 1] and list(m.col_sum(t).shape) == [4]
    numpy.testing.assert_allclose(m.col_sum(t).numpy(), t.numpy().sum(axis=(0, 1)))
    m.row_max(t).sum().backward()
    assert t.grad.numpy()[..., 3].sum() == 6.0 and t.grad.numpy()[..., :3].sum() == 0.0
    w = opsdk.to_tensor(numpy.ones(4))
    assert m.col_sum(w) is w  # a [K] array is already one value per feature


def test_row_take_and_row_index_on_arrays_and_tensors():
    a = numpy.arange(12.0).reshape(3, 4)
    index = numpy.array([[2], [0], [3]])
    m = RowMaths(a)
    numpy.testing.assert_array_equal(m.row_take(a, index), [[2.0], [4.0], [11.0]])
    numpy.testing.assert_array_equal(m.row_index(a) == index, numpy.eye(4, dtype=bool)[[2, 0, 3]])
    t = opsdk.to_tensor(a, stop_gradient=False)
    mt = RowMaths(t)
    picked = mt.row_take(t, opsdk.to_tensor(index))
    numpy.testing.assert_array_equal(picked.numpy(), [[2.0], [4.0], [11.0]])
    picked.sum().backward()  # the gradient reaches the picked elements only
    numpy.testing.assert_array_equal(t.grad.numpy(), numpy.eye(4)[[2, 0, 3]])
    assert mt.row_index(t).numpy().tolist() == [0, 1, 2, 3]
