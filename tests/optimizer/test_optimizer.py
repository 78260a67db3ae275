"""The Optimizer base: parameters, learning rate, clear_grad, groups, state."""
import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import ArgumentTypeError, OpArgumentError, StateError
from helpers.frameworks import assert_raises_as_paddle
from .stepping import make_param, run_steps


def test_parameters_are_required_and_say_so():
    with pytest.raises(OpArgumentError, match="parameters=model.parameters()"):
        paddle.optimizer.SGD(learning_rate=0.1)


def test_a_single_tensor_as_parameters_is_refused_with_a_hint():
    with pytest.raises(OpArgumentError, match="wrap it in a list"):
        paddle.optimizer.SGD(parameters=make_param([1.0]))


def test_generator_of_parameters_is_accepted():
    model = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.SGD(parameters=(p for p in model.parameters()))
    assert len(opt._parameter_list) == 2


def test_clear_grad_sets_gradients_to_zero_in_place_by_default():
    p = make_param([1.0, 2.0])
    (p * 3.0).sum().backward()
    g = p.grad
    opt = paddle.optimizer.SGD(parameters=[p])
    opt.clear_grad()
    assert p.grad is g and p.grad.numpy().tolist() == [0.0, 0.0]
    opt.clear_grad(set_to_zero=False)
    assert p.grad is None


def test_step_updates_in_place_keeps_leaves_and_bumps_the_version():
    p = make_param([1.0])
    data, version = p._data, p._version
    (p * 2.0).sum().backward()
    paddle.optimizer.SGD(learning_rate=0.5, parameters=[p]).step()
    assert p._data is data and p.is_leaf and p._version > version
    assert p.numpy().tolist() == [0.0]


def test_step_skips_parameters_without_gradients_or_with_stop_gradient():
    a, b = make_param([1.0]), make_param([1.0])
    b.stop_gradient = True
    b.grad = paddle.to_tensor([5.0], dtype="float64")
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=[a, b])
    opt.step()
    assert a.numpy().tolist() == [1.0] and b.numpy().tolist() == [1.0]


def test_learning_rate_scheduler_drives_the_rate():
    sched = paddle.optimizer.lr.StepDecay(learning_rate=1.0, step_size=1, gamma=0.5)
    p = make_param([0.0])
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=[p])
    moves = []
    for _ in range(3):
        before = p.numpy()[0]
        run_steps(opt, p, [[1.0]])
        moves.append(before - p.numpy()[0])
        sched.step()
    np.testing.assert_allclose(moves, [1.0, 0.5, 0.25])


def test_set_lr_changes_a_float_rate_and_refuses_with_a_scheduler():
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[make_param([0.0])])
    opt.set_lr(0.3)
    assert opt.get_lr() == 0.3
    opt.set_lr_scheduler(paddle.optimizer.lr.StepDecay(0.2, step_size=2))
    # Paddle raises RuntimeError here: StateError is one
    with pytest.raises(StateError, match="scheduler.step") as info:
        opt.set_lr(0.5)
    assert isinstance(info.value, RuntimeError)


def test_a_single_tensor_as_parameters_is_a_type_error_as_in_paddle():
    with pytest.raises(ArgumentTypeError, match="single Tensor") as info:
        paddle.optimizer.Adam(learning_rate=0.1, parameters=make_param([0.0]))
    assert isinstance(info.value, TypeError)


def test_parameter_groups_scale_the_rate_and_override_weight_decay():
    a, b = make_param([1.0]), make_param([1.0])
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[
        {"params": [a]}, {"params": [b], "learning_rate": 0.5, "weight_decay": 1.0}])
    a.grad = paddle.to_tensor([1.0], dtype="float64")
    b.grad = paddle.to_tensor([1.0], dtype="float64")
    opt.step()
    np.testing.assert_allclose(a.numpy(), [0.9])
    np.testing.assert_allclose(b.numpy(), [1.0 - 0.05 * (1.0 + 1.0)])


def test_param_attr_learning_rate_scales_that_parameters_update():
    fc = paddle.nn.Linear(1, 1, weight_attr=paddle.nn.ParamAttr(
        initializer=paddle.nn.initializer.Constant(1.0), learning_rate=0.1), bias_attr=False)
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=fc.parameters())
    fc(paddle.ones([1, 1])).sum().backward()
    opt.step()
    np.testing.assert_allclose(fc.weight.numpy(), [[0.9]])


def test_parameter_regularizer_overrides_the_optimizers_weight_decay():
    from opsdk.optimizer.regularizer import L1Decay
    fc = paddle.nn.Linear(1, 1, weight_attr=paddle.nn.ParamAttr(
        initializer=paddle.nn.initializer.Constant(2.0), regularizer=L1Decay(0.5)),
        bias_attr=False)
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=fc.parameters(), weight_decay=10.0)
    fc.weight.grad = paddle.zeros([1, 1])
    opt.step()
    np.testing.assert_allclose(fc.weight.numpy(), [[1.5]])


def test_state_dict_round_trip_resumes_adam_exactly():
    rng = np.random.default_rng(0)
    grads = rng.standard_normal((6, 3))
    p = make_param([0.1, 0.2, 0.3])
    p.name = "w"
    opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=[p])
    run_steps(opt, p, grads[:3])
    saved_param, saved_state = p.numpy().copy(), {
        k: (v.numpy().copy() if hasattr(v, "numpy") else v) for k, v in opt.state_dict().items()}
    assert {"w_moment1_0", "w_moment2_0", "w_beta1_pow_acc_0", "w_beta2_pow_acc_0"} <= set(
        saved_state)
    straight = run_steps(opt, p, grads[3:])[-1]

    q = make_param(saved_param)
    q.name = "w"
    opt2 = paddle.optimizer.Adam(learning_rate=0.05, parameters=[q])
    opt2.set_state_dict(saved_state)
    resumed = run_steps(opt2, q, grads[3:])[-1]
    np.testing.assert_allclose(resumed, straight, rtol=1e-12)


def test_state_dict_carries_the_scheduler():
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=1)
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=[make_param([0.0])])
    sched.step()
    state = opt.state_dict()
    sched2 = paddle.optimizer.lr.StepDecay(0.1, step_size=1)
    opt2 = paddle.optimizer.SGD(learning_rate=sched2, parameters=[make_param([0.0])])
    opt2.set_state_dict(state)
    assert sched2.last_epoch == 1 and opt2.get_lr() == pytest.approx(0.01)


def test_minimize_applies_the_computed_gradients():
    p = make_param([1.0])
    loss = (p * 2.0).sum()
    loss.backward()
    paddle.optimizer.SGD(learning_rate=0.25, parameters=[p]).minimize(loss)
    assert p.numpy().tolist() == [0.5]


def test_seed001_linear_regression_loss_drops_below_one_percent():
    paddle.seed(2026)
    x = paddle.to_tensor([[1.0], [2.0], [3.0], [4.0]], dtype="float32")
    y_true = paddle.to_tensor([[3.0], [5.0], [7.0], [9.0]], dtype="float32")
    w = paddle.create_parameter(shape=[1, 1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Normal(mean=0.0,
                                                                                 std=0.1))
    b = paddle.create_parameter(shape=[1], dtype="float32",
                                default_initializer=paddle.nn.initializer.Constant(0.0))
    optimizer = paddle.optimizer.SGD(learning_rate=0.01, parameters=[w, b])
    losses = []
    for step in range(100):
        y_pred = paddle.matmul(x, w) + b
        loss = paddle.mean((y_pred - y_true) ** 2)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss.numpy()))
    assert losses[0] > 10 and losses[-1] < 0.01
    assert abs(w.item() - 2.0) < 0.1


@pytest.mark.paddle
@pytest.mark.parametrize("name", ["SGD", "Momentum", "Adam", "AdamW", "RMSProp", "Adagrad"])
def test_an_optimizer_without_parameters_raises_as_paddle(name):
    err = assert_raises_as_paddle(lambda P: getattr(P.optimizer, name)(learning_rate=0.1))
    assert name in str(err) and "parameters" in str(err)
