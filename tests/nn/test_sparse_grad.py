"""SparseRowGrad and the sink that routes an embedding's gradient into weight.grad."""
import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpsdkError
from opsdk.nn.sparse_grad import SparseRowGrad, accumulate_rows, coalesce_rows


def _grad():
    return SparseRowGrad([3, 1, 3], np.array([[1.0, 1.0], [2.0, 2.0], [4.0, 4.0]]), (5, 2))


def test_coalesce_rows_sorts_and_sums_repeats():
    rows, values = coalesce_rows(np.array([3, 1, 3]), np.array([[1.0], [2.0], [4.0]]))
    assert rows.tolist() == [1, 3] and values[:, 0].tolist() == [2.0, 5.0]


def test_to_dense_places_summed_rows():
    dense = _grad().to_dense()
    np.testing.assert_array_equal(dense[:, 0], [0, 2, 0, 5, 0])


def test_readers_see_the_dense_values():
    g = _grad()
    assert g.shape == (5, 2) and g.dtype == np.float64 and g.size == 10
    np.testing.assert_array_equal(np.asarray(g), g.to_dense())
    assert g.sum() == 14.0 and (g * 2).max() == 10.0


def test_numpy_math_sees_the_dense_view():
    g = _grad()
    assert np.isfinite(g).all() and (np.ones((5, 2)) + g)[3, 0] == 6.0
    acc = np.zeros((5, 2))
    acc += g
    np.testing.assert_array_equal(acc, g.to_dense())


def test_core_ops_on_a_sparse_weight_grad_see_the_dense_values():
    emb = paddle.nn.Embedding(4, 2, sparse=True)
    emb(paddle.to_tensor([1, 1])).sum().backward()
    g = emb.weight.grad
    assert not paddle.isnan(g).any().item()
    assert paddle.sum(g).item() == 4.0 and (g * 2).numpy()[1, 0] == 4.0


def test_adding_a_dense_gradient_in_place_keeps_the_object_and_covers_every_row():
    g = _grad()
    same = g
    g += np.ones((5, 2))
    assert g is same and g.rows.tolist() == [0, 1, 2, 3, 4]
    np.testing.assert_array_equal(g.to_dense()[:, 0], [1, 3, 1, 6, 1])


def test_clearing_in_place_empties_the_rows():
    g = _grad()
    g[...] = 0
    assert g.rows.size == 0 and g.to_dense().sum() == 0


def test_other_item_assignment_is_refused():
    with pytest.raises(OpsdkError, match="to_dense"):
        _grad()[1] = 3


def test_accumulate_rows_scatters_into_an_existing_dense_gradient():
    w = paddle.create_parameter([3, 2], "float32")
    w.grad = paddle.zeros([3, 2])
    accumulate_rows(w, np.array([2, 2]), np.ones((2, 2), np.float32))
    np.testing.assert_array_equal(w.grad.numpy()[:, 0], [0, 0, 2])
