"""nn.functional.embedding: lookups, padding_idx, dense and row-sparse gradients."""
import numpy as np
import pytest

import opsdk as paddle
import opsdk.nn.functional as F
from helpers.frameworks import assert_raises_as_paddle
from helpers.gradients import assert_first_order
from helpers.samples import signed
from opsdk.errors import DTypeError, OpArgumentError
from opsdk.nn import SparseRowGrad


def _weight(n=6, d=3):
    return paddle.to_tensor(signed(n, d), dtype="float64", stop_gradient=False)


def test_embedding_picks_rows_and_appends_the_embedding_axis():
    w = _weight()
    out = F.embedding(paddle.to_tensor([[1, 4], [4, 0]]), w)
    assert out.shape == [2, 2, 3]
    np.testing.assert_array_equal(out.numpy()[0, 1], w.numpy()[4])


def test_embedding_gradient_is_dense_zero_outside_looked_up_rows_and_adds_repeats():
    w = _weight()
    F.embedding(paddle.to_tensor([1, 4, 4]), w).sum().backward()
    g = w.grad.numpy()
    np.testing.assert_array_equal(g[[0, 2, 3, 5]], 0)
    np.testing.assert_array_equal(g[1], [1, 1, 1])
    np.testing.assert_array_equal(g[4], [2, 2, 2])


def test_embedding_gradient_matches_numeric():
    ids = paddle.to_tensor([[0, 2], [2, 3]])
    assert_first_order(lambda w: F.embedding(ids, w), [signed(4, 2)])


def test_embedding_padding_idx_outputs_zeros_and_gets_no_gradient():
    w = _weight()
    out = F.embedding(paddle.to_tensor([2, 0, 2]), w, padding_idx=2)
    np.testing.assert_array_equal(out.numpy()[[0, 2]], 0)
    out.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy()[2], 0)
    np.testing.assert_array_equal(w.grad.numpy()[0], 1)


def test_embedding_negative_padding_idx_counts_from_the_end():
    w = _weight()
    out = F.embedding(paddle.to_tensor([5]), w, padding_idx=-1)
    np.testing.assert_array_equal(out.numpy(), 0)


def test_embedding_sparse_gradient_holds_only_looked_up_rows():
    w = paddle.create_parameter([8, 2], "float32")
    F.embedding(paddle.to_tensor([3, 1, 3]), w, sparse=True).sum().backward()
    assert isinstance(w.grad._data, SparseRowGrad)
    assert w.grad.rows() == [3, 1, 3] and w.grad.shape == [3, 2]
    dense = np.zeros((8, 2), dtype=np.float32)
    dense[1], dense[3] = 1, 2
    np.testing.assert_array_equal(w.grad.to_dense().numpy(), dense)


def test_embedding_sparse_gradient_keeps_padding_ids_as_zero_rows():
    w = paddle.create_parameter([5, 2], "float32")
    F.embedding(paddle.to_tensor([0, 2, 2]), w, padding_idx=2, sparse=True).sum().backward()
    # Paddle's shape: one row per looked-up id; the padding rows carry no gradient
    assert w.grad.rows() == [0, 2, 2]
    np.testing.assert_array_equal(w.grad.numpy(), [[1, 1], [0, 0], [0, 0]])


def test_opsdk_grad_returns_the_gradient_of_a_sparse_embedding_weight():
    w = paddle.create_parameter([4, 2], "float64")
    out = F.embedding(paddle.to_tensor([1, 1]), w, sparse=True)
    (g,) = paddle.grad(out.sum(), w)
    want = np.zeros((4, 2))
    want[1] = 2
    np.testing.assert_array_equal(g.numpy(), want)


def test_embedding_rejects_out_of_range_ids():
    with pytest.raises(OpArgumentError, match=r"ids must lie in \[0, 6\)"):
        F.embedding(paddle.to_tensor([6]), _weight())


def test_embedding_rejects_float_ids():
    with pytest.raises(DTypeError, match="integer ids"):
        F.embedding(paddle.to_tensor([1.0]), _weight())


def test_embedding_max_norm_renorms_the_looked_up_rows_in_place_first():
    # Paddle: rows whose norm exceeds max_norm become row * max_norm / (norm + 1e-7), in
    # place (one write), outside the graph; rows not looked up stay
    w = paddle.to_tensor(np.arange(10, dtype="float32").reshape(5, 2), stop_gradient=False)
    before = w.inplace_version
    out = F.embedding(paddle.to_tensor([1, 1, 3, 0]), w, max_norm=3.0)
    rows = np.arange(10, dtype="float32").reshape(5, 2)
    for r in (1, 3):
        norm = np.sqrt((rows[r] ** 2).sum())
        rows[r] = rows[r] * np.float32(3.0 / (norm + 1e-7))
    np.testing.assert_allclose(w.numpy(), rows, rtol=1e-6)
    np.testing.assert_allclose(out.numpy(), rows[[1, 1, 3, 0]], rtol=1e-6)
    assert w.inplace_version == before + 1
    w1 = paddle.to_tensor([[1.0, -2.0, 2.0]], dtype="float64")
    F.embedding_renorm_(paddle.to_tensor([0]), w1, 2.5, 1.0)
    np.testing.assert_allclose(w1.numpy(), np.array([[1.0, -2.0, 2.0]]) * (2.5 / (5 + 1e-7)))


def test_embedding_scale_grad_by_freq_divides_each_rows_gradient_by_its_count():
    w = paddle.to_tensor(np.zeros((5, 2), "float32"), stop_gradient=False)
    out = F.embedding(paddle.to_tensor([1, 1, 3, 0]), w, padding_idx=0, scale_grad_by_freq=True)
    (out * paddle.to_tensor(np.arange(8, dtype="float32").reshape(4, 2))).sum().backward()
    assert w.grad.numpy().tolist() == [[0, 0], [1, 2], [0, 0], [4, 5], [0, 0]]
    with pytest.raises(AttributeError, match="scale_grad_by_freq=True is not supported with sparse"):
        F.embedding(paddle.to_tensor([1]), w, sparse=True, scale_grad_by_freq=True)


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["float32", "float64", "bool", "int16", "uint8"])
def test_embedding_ids_other_than_int32_and_int64_raise_as_paddle(dtype):
    err = assert_raises_as_paddle(
        lambda P: P.nn.functional.embedding(P.to_tensor([1, 2]).astype(dtype), P.ones([4, 3])))
    assert "embedding" in str(err) and dtype in str(err)
