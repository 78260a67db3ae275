"""Gradient clipping classes used through grad_clip=."""

import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpArgumentError
from opsdk.nn import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue, SparseRowGrad


def _params_with_grads(*grads):
    ps = []
    for g in grads:
        p = paddle.create_parameter([len(g)], "float64")
        p.grad = paddle.to_tensor(g, dtype="float64")
        ps.append(p)
    return ps


def _pairs(ps):
    return [(p, p.grad) for p in ps]


def test_global_norm_clip_scales_all_gradients_to_the_clip_norm():
    ps = _params_with_grads([3.0, 0.0], [0.0, 4.0])      # global norm 5
    out = ClipGradByGlobalNorm(clip_norm=1.0)(_pairs(ps))
    np.testing.assert_allclose(out[0][1].numpy(), [0.6, 0.0])
    np.testing.assert_allclose(out[1][1].numpy(), [0.0, 0.8])


def test_global_norm_clip_leaves_small_gradients_alone():
    ps = _params_with_grads([0.3, 0.4])
    out = ClipGradByGlobalNorm(clip_norm=1.0)(_pairs(ps))
    assert out[0][1] is ps[0].grad
    np.testing.assert_allclose(ps[0].grad.numpy(), [0.3, 0.4])


def test_global_norm_clip_scales_param_grad_in_place_as_paddle():
    ps = _params_with_grads([3.0, 4.0])
    grad = ps[0].grad
    out = ClipGradByGlobalNorm(clip_norm=1.0)(_pairs(ps))
    assert out[0][1] is grad and ps[0].grad is grad
    np.testing.assert_allclose(grad.numpy(), [0.6, 0.8], rtol=1e-6)


def test_need_clip_false_parameters_are_neither_counted_nor_scaled():
    ps = _params_with_grads([3.0, 4.0], [100.0, 0.0])
    ps[1].need_clip = False
    out = ClipGradByGlobalNorm(clip_norm=1.0)(_pairs(ps))
    np.testing.assert_allclose(out[0][1].numpy(), [0.6, 0.8])
    np.testing.assert_array_equal(out[1][1].numpy(), [100.0, 0.0])


def test_clip_by_norm_clips_each_gradient_separately():
    ps = _params_with_grads([3.0, 4.0], [0.1, 0.0])
    out = ClipGradByNorm(clip_norm=1.0)(_pairs(ps))
    np.testing.assert_allclose(out[0][1].numpy(), [0.6, 0.8])
    np.testing.assert_array_equal(out[1][1].numpy(), [0.1, 0.0])


def test_clip_by_value_clamps_elements_with_min_defaulting_to_minus_max():
    ps = _params_with_grads([-3.0, 0.5, 2.0])
    out = ClipGradByValue(max=1.0)(_pairs(ps))
    np.testing.assert_array_equal(out[0][1].numpy(), [-1.0, 0.5, 1.0])


def test_global_norm_of_a_sparse_gradient_sums_repeated_rows_first():
    p = paddle.create_parameter([4, 1], "float64")
    g = SparseRowGrad([1, 1], np.array([[3.0], [1.0]]), (4, 1))   # row 1 holds 4
    clip = ClipGradByGlobalNorm(clip_norm=2.0)
    assert clip.global_norm([(p, g)]) == pytest.approx(4.0)
    (_, clipped), = clip._clip_arrays([(p, g)])
    np.testing.assert_allclose(clipped.to_dense()[:, 0], [0, 2.0, 0, 0])


def test_optimizer_with_global_norm_clip_steps_with_clipped_gradients():
    w = paddle.create_parameter([2], "float32",
                                default_initializer=paddle.nn.initializer.Constant(0.0))
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=[w],
                               grad_clip=ClipGradByGlobalNorm(clip_norm=1.0))
    (w * paddle.to_tensor([30.0, 40.0])).sum().backward()
    opt.step()
    np.testing.assert_allclose(w.numpy(), [-0.6, -0.8], rtol=1e-6)
    # Paddle leaves the clipped values in .grad after step() (issue 14, item 11)
    np.testing.assert_allclose(w.grad.numpy(), [0.6, 0.8], rtol=1e-6)


@pytest.mark.parametrize("clip", [ClipGradByNorm(clip_norm=1.0), ClipGradByValue(0.5)])
def test_optimizer_with_norm_or_value_clip_leaves_param_grad_as_backward_left_it(clip):
    w = paddle.create_parameter([2], "float32",
                                default_initializer=paddle.nn.initializer.Constant(0.0))
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=[w], grad_clip=clip)
    (w * paddle.to_tensor([30.0, 40.0])).sum().backward()
    opt.step()
    np.testing.assert_array_equal(w.grad.numpy(), [30.0, 40.0])


def test_global_norm_clip_scales_a_sparse_gradient_in_place():
    emb = paddle.nn.Embedding(4, 2, sparse=True)
    emb(paddle.to_tensor([1, 1, 3])).sum().backward()
    grad = emb.weight.grad
    ClipGradByGlobalNorm(clip_norm=1.0)([(emb.weight, grad)])
    assert emb.weight.grad is grad
    np.testing.assert_allclose(np.linalg.norm(grad.to_dense().numpy()), 1.0, rtol=1e-6)


def test_seed000_clip_with_adam_keeps_the_first_adam_move_at_the_learning_rate():
    paddle.seed(0)
    model = paddle.nn.Linear(4, 1)
    clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=5.0)
    opt = paddle.optimizer.Adam(parameters=model.parameters(), grad_clip=clip)
    before = model.weight.numpy().copy()
    (1e4 * model(paddle.randn([8, 4]))).sum().backward()
    opt.step()
    np.testing.assert_allclose(np.abs(model.weight.numpy() - before), 1e-3, rtol=1e-3)


def test_clip_norm_must_be_positive():
    with pytest.raises(OpArgumentError, match="clip_norm must be positive"):
        ClipGradByGlobalNorm(0.0)
    with pytest.raises(OpArgumentError, match="min <= max"):
        ClipGradByValue(max=1.0, min=2.0)
