"""nn.Embedding: the seed example, padding_idx, sparse gradients and optimizers."""
import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import StateError
from opsdk.nn import SparseRowGrad


def test_seed000_embedding_gradient_is_ones_on_rows_1_3_5_and_zero_elsewhere():
    emb = paddle.nn.Embedding(num_embeddings=10000, embedding_dim=128)
    ids = paddle.to_tensor([[1, 3, 5]])
    e = emb(ids)
    loss = e.sum()
    loss.backward()
    g = emb.weight.grad.numpy()
    assert e.shape == [1, 3, 128] and g.shape == (10000, 128)
    np.testing.assert_array_equal(g[[1, 3, 5]], np.ones((3, 128)))
    assert np.flatnonzero(np.abs(g).sum(axis=1)).tolist() == [1, 3, 5]


def test_padding_idx_row_gets_no_gradient_and_outputs_zeros():
    emb = paddle.nn.Embedding(10, 4, padding_idx=0)
    out = emb(paddle.to_tensor([[0, 2, 0]]))
    np.testing.assert_array_equal(out.numpy()[0, [0, 2]], 0)
    out.sum().backward()
    np.testing.assert_array_equal(emb.weight.grad.numpy()[0], 0)
    np.testing.assert_array_equal(emb.weight.grad.numpy()[2], 1)


def test_sparse_embedding_gradient_reports_paddles_selected_rows_shape():
    emb = paddle.nn.Embedding(10, 4, sparse=True)
    emb(paddle.to_tensor([[1, 3, 5, 3]])).sum().backward()
    g = emb.weight.grad
    # as Paddle's SelectedRows: one row per looked-up id, shape [4, 4], numpy() those rows
    assert isinstance(g._data, SparseRowGrad) and g.shape == [4, 4] and g.is_selected_rows()
    assert g.rows() == [1, 3, 5, 3] and g.height == 10
    np.testing.assert_array_equal(g.numpy(), np.ones((4, 4), np.float32))
    dense = np.zeros((10, 4), np.float32)
    dense[[1, 5]], dense[3] = 1, 2
    np.testing.assert_array_equal(g.to_dense().numpy(), dense)
    assert "SparseGradTensor(rows=" in repr(g)


def test_sparse_gradients_accumulate_over_two_backward_calls():
    emb = paddle.nn.Embedding(6, 2, sparse=True)
    emb(paddle.to_tensor([1])).sum().backward()
    emb(paddle.to_tensor([4, 1])).sum().backward()
    assert emb.weight.grad.rows() == [1, 4, 1]
    np.testing.assert_array_equal(emb.weight.grad.to_dense().numpy()[:, 0], [0, 2, 0, 0, 1, 0])


def test_sparse_weight_also_used_densely_gets_the_sum_of_both_gradients():
    emb = paddle.nn.Embedding(5, 3, sparse=True)
    ids = paddle.to_tensor([2])
    loss = emb(ids).sum() + (emb.weight * 2.0).sum()
    loss.backward()
    want = np.full((5, 3), 2.0, np.float32)
    want[2] += 1
    np.testing.assert_array_equal(emb.weight.grad.numpy(), want)


@pytest.mark.parametrize("set_to_zero", [True, False])
def test_clear_gradient_of_a_sparse_gradient_leaves_none_as_paddle(set_to_zero):
    emb = paddle.nn.Embedding(5, 3, sparse=True)
    emb(paddle.to_tensor([2])).sum().backward()
    emb.weight.clear_gradient(set_to_zero)
    assert emb.weight.grad is None
    emb(paddle.to_tensor([4])).sum().backward()
    assert emb.weight.grad.rows() == [4] and not emb.weight.grad.stop_gradient


def test_sparse_gradient_flags_follow_paddle():
    # Paddle 3.3.1: a fresh SelectedRows gradient reports stop_gradient=False, an accumulated one
    # True; both are leaves
    emb = paddle.nn.Embedding(5, 2, sparse=True)
    emb(paddle.to_tensor([4, 1])).sum().backward()
    g = emb.weight.grad
    assert not g.stop_gradient and g.is_leaf
    assert not (g * 2).stop_gradient
    emb(paddle.to_tensor([0])).sum().backward()
    assert emb.weight.grad.stop_gradient and emb.weight.grad.is_leaf
    np.testing.assert_array_equal(emb.weight.grad.to_dense().numpy()[[0, 1, 4]], np.ones((3, 2)))


@pytest.mark.parametrize("make_opt", [
    lambda ps: paddle.optimizer.SGD(learning_rate=0.1, parameters=ps),
    lambda ps: paddle.optimizer.Momentum(learning_rate=0.1, parameters=ps),
    lambda ps: paddle.optimizer.Momentum(learning_rate=0.1, parameters=ps, use_nesterov=True),
    lambda ps: paddle.optimizer.Adagrad(learning_rate=0.1, parameters=ps),
    lambda ps: paddle.optimizer.RMSProp(learning_rate=0.1, momentum=0.5, parameters=ps),
    lambda ps: paddle.optimizer.Adamax(learning_rate=0.1, parameters=ps),
    lambda ps: paddle.optimizer.Lamb(learning_rate=0.1, parameters=ps),
])
def test_optimizers_apply_sparse_gradients_exactly_as_the_dense_ones(make_opt):
    ids = [paddle.to_tensor([[1, 3, 3]]), paddle.to_tensor([[0, 3]])]
    results = []
    for sparse in (False, True):
        paddle.seed(5)
        emb = paddle.nn.Embedding(6, 2, sparse=sparse)
        opt = make_opt(emb.parameters())
        for batch in ids + ids:
            (emb(batch) ** 2).sum().backward()
            opt.step()
            opt.clear_grad()
        results.append(emb.weight.numpy())
    np.testing.assert_allclose(results[1], results[0], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("opt_cls", [paddle.optimizer.Adam, paddle.optimizer.AdamW])
def test_lazy_mode_updates_only_the_rows_present(opt_cls):
    emb = paddle.nn.Embedding(6, 2, sparse=True)
    opt = opt_cls(learning_rate=0.1, parameters=emb.parameters(), lazy_mode=True)
    emb(paddle.to_tensor([1])).sum().backward()
    opt.step()
    opt.clear_grad()
    before = emb.weight.numpy().copy()
    emb(paddle.to_tensor([4])).sum().backward()
    opt.step()
    changed = np.flatnonzero(np.abs(emb.weight.numpy() - before).sum(axis=1)).tolist()
    assert changed == [4]


def test_sgd_on_a_sparse_gradient_changes_only_looked_up_rows():
    emb = paddle.nn.Embedding(100, 8, sparse=True)
    before = emb.weight.numpy().copy()
    emb(paddle.to_tensor([[7, 42]])).sum().backward()
    paddle.optimizer.SGD(learning_rate=1.0, parameters=emb.parameters()).step()
    diff = emb.weight.numpy() - before
    assert np.flatnonzero(np.abs(diff).sum(axis=1)).tolist() == [7, 42]
    np.testing.assert_allclose(diff[[7, 42]], -1.0)


def test_coupled_weight_decay_on_a_sparse_gradient_decays_every_row_as_paddle():
    emb = paddle.nn.Embedding(4, 2, sparse=True,
                              weight_attr=paddle.nn.initializer.Constant(1.0))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=emb.parameters(), weight_decay=0.5)
    emb(paddle.to_tensor([2])).sum().backward()
    opt.step()
    # Paddle adds the dense decay term to the sparse gradient: row 2 moves by
    # 0.1 * (1 + 0.5 * 1), every other row by 0.1 * 0.5 * 1
    np.testing.assert_allclose(emb.weight.numpy()[:, 0], [0.95, 0.95, 0.85, 0.95], rtol=1e-6)


@pytest.mark.parametrize("lazy", [False, True])
def test_adam_on_a_sparse_gradient_corrects_bias_one_step_ahead_as_paddle(lazy):
    # Paddle's sparse Adam kernel uses beta^(t+1) in the bias correction: these deltas are
    # Paddle 3.3.1's for a constant gradient of 1 on row 1, learning rate 0.1
    emb = paddle.nn.Embedding(3, 1, sparse=True, weight_attr=paddle.nn.initializer.Constant(0.0))
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=emb.parameters(), lazy_mode=lazy)
    deltas = []
    for _ in range(2):
        before = emb.weight.numpy()[1, 0]
        emb(paddle.to_tensor([1])).sum().backward()
        opt.step()
        opt.clear_grad()
        deltas.append(emb.weight.numpy()[1, 0] - before)
    np.testing.assert_allclose(deltas, [-0.07441343, -0.08584567], rtol=1e-5)


def test_adam_refuses_coupled_weight_decay_on_a_sparse_gradient_as_paddle():
    emb = paddle.nn.Embedding(3, 1, sparse=True)
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=emb.parameters(), weight_decay=0.1)
    emb(paddle.to_tensor([1])).sum().backward()
    with pytest.raises(StateError, match="sparse") as info:
        opt.step()
    assert isinstance(info.value, RuntimeError)


def test_embedding_takes_paddles_arguments_and_shows_them():
    emb = paddle.nn.Embedding(4, 2, padding_idx=-1, sparse=True, name="emb")
    assert emb.padding_idx == -1 and (emb.weight.numpy()[3] == 0).all()
    assert emb.extra_repr() == "4, 2, padding_idx=-1, sparse=True, scale_grad_by_freq=False, name=emb"
    frozen = paddle.nn.Embedding(3, 2, dtype="float64", _weight=paddle.ones([3, 2], "float64"),
                                 _freeze=True)
    assert frozen.weight.dtype == paddle.float64 and frozen.weight.stop_gradient
    capped = paddle.nn.Embedding(10, 3, padding_idx=9, max_norm=0.5, norm_type=3.0)
    capped.weight.set_value(np.full((10, 3), 2, "float32"))
    capped(paddle.to_tensor([[3], [4]]))
    # row [2, 2, 2]: its 3-norm 24^(1/3) above 0.5, so scaled by 0.5 / (norm + 1e-7)
    np.testing.assert_allclose(capped.weight.numpy()[3], 2 * 0.5 / (24 ** (1 / 3) + 1e-7),
                               rtol=1e-6)
    assert (capped.weight.numpy()[5] == 2).all()  # not looked up: untouched
    for args in ((10, 3, 11), (-1, 3), (10, -3)):  # ValueError, as in Paddle
        with pytest.raises(ValueError):
            paddle.nn.Embedding(*args)
    with pytest.raises(TypeError):  # sparse is keyword-only, max_norm the 4th argument
        paddle.nn.Embedding(4, 2, None, 1.0, 2.0, True)
