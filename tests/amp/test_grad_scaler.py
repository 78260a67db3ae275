"""GradScaler: scaling, unscaling, skipped steps, dynamic scale."""
import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpsdkError


def _setup(value=1.0):
    w = paddle.create_parameter([2], "float32",
                                default_initializer=paddle.nn.initializer.Constant(value))
    return w, paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])


def test_scale_multiplies_the_loss_by_the_scale():
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0)
    assert scaler.scale(paddle.to_tensor(2.0)).item() == 2048.0


def test_default_settings_are_paddles():
    s = paddle.amp.GradScaler()
    assert s.get_loss_scaling() == 2.0 ** 16 and s.get_incr_ratio() == 2.0
    assert s.get_decr_ratio() == 0.5 and s.get_incr_every_n_steps() == 2000
    assert s.get_decr_every_n_nan_or_inf() == 1 and s.is_use_dynamic_loss_scaling()


def test_step_unscales_the_gradients_before_the_update():
    w, opt = _setup()
    scaler = paddle.amp.GradScaler(init_loss_scaling=8.0)
    scaler.scale((w * 3.0).sum()).backward()
    assert w.grad.numpy().tolist() == [24.0, 24.0]
    scaler.step(opt)
    np.testing.assert_allclose(w.grad.numpy(), [3.0, 3.0])
    np.testing.assert_allclose(w.numpy(), [0.7, 0.7], rtol=1e-6)


def test_step_is_skipped_when_a_gradient_is_inf_and_the_scale_backs_off():
    w, opt = _setup()
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0)
    w.grad = paddle.to_tensor([np.inf, 1.0])
    scaler.step(opt)
    assert scaler.found_inf
    scaler.update()
    np.testing.assert_array_equal(w.numpy(), [1.0, 1.0])
    assert scaler.get_loss_scaling() == 512.0 and not scaler.found_inf


def test_step_is_skipped_on_nan_too():
    w, opt = _setup()
    scaler = paddle.amp.GradScaler()
    w.grad = paddle.to_tensor([np.nan, 1.0])
    scaler.minimize(opt)
    np.testing.assert_array_equal(w.numpy(), [1.0, 1.0])


def test_float16_overflow_in_backward_is_caught_and_skipped():
    paddle.seed(0)
    model = paddle.nn.Linear(4, 2)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    before = model.weight.numpy().copy()
    scaler = paddle.amp.GradScaler(init_loss_scaling=2.0 ** 30)
    with paddle.amp.auto_cast():
        loss = model(paddle.randn([8, 4]) * 100).mean()
    with np.errstate(invalid="ignore", over="ignore"):
        scaler.scale(loss).backward()
        scaler.step(opt)
    scaler.update()
    np.testing.assert_array_equal(model.weight.numpy(), before)
    assert scaler.get_loss_scaling() == 2.0 ** 29


def test_scale_grows_after_incr_every_n_good_steps():
    w, opt = _setup()
    scaler = paddle.amp.GradScaler(init_loss_scaling=4.0, incr_every_n_steps=3)
    for _ in range(3):
        scaler.scale((w * 1.0).sum()).backward()
        scaler.step(opt)
        scaler.update()
        opt.clear_grad()
    assert scaler.get_loss_scaling() == 8.0


def test_scale_backs_off_only_after_decr_every_n_bad_steps_and_never_below_one():
    w, opt = _setup()
    scaler = paddle.amp.GradScaler(init_loss_scaling=2.0, decr_every_n_nan_or_inf=2)
    for expected in (2.0, 1.0, 1.0, 1.0):
        w.grad = paddle.to_tensor([np.inf, 0.0])
        scaler.step(opt)
        scaler.update()
        assert scaler.get_loss_scaling() == expected


def test_static_scaling_never_changes_the_scale():
    w, opt = _setup()
    scaler = paddle.amp.GradScaler(init_loss_scaling=16.0, use_dynamic_loss_scaling=False)
    w.grad = paddle.to_tensor([np.inf, 0.0])
    scaler.step(opt)
    scaler.update()
    assert scaler.get_loss_scaling() == 16.0


def test_unscale_then_clip_then_step_unscales_once():
    w, opt = _setup()
    scaler = paddle.amp.GradScaler(init_loss_scaling=4.0)
    scaler.scale((w * 2.0).sum()).backward()
    scaler.unscale_(opt)
    np.testing.assert_allclose(w.grad.numpy(), [2.0, 2.0])
    scaler.step(opt)
    np.testing.assert_allclose(w.numpy(), [0.8, 0.8], rtol=1e-6)


def test_calling_step_or_unscale_twice_before_update_is_an_error():
    w, opt = _setup()
    scaler = paddle.amp.GradScaler()
    w.grad = paddle.to_tensor([1.0, 1.0])
    scaler.unscale_(opt)
    with pytest.raises(OpsdkError, match="unscale_: already called"):
        scaler.unscale_(opt)
    scaler.step(opt)
    with pytest.raises(OpsdkError, match="step: already called"):
        scaler.step(opt)
    scaler.update()
    scaler.step(opt)


def test_sparse_gradients_are_unscaled_too():
    emb = paddle.nn.Embedding(4, 2, sparse=True)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=emb.parameters())
    scaler = paddle.amp.GradScaler(init_loss_scaling=8.0)
    scaler.scale(emb(paddle.to_tensor([1])).sum()).backward()
    scaler.unscale_(opt)
    np.testing.assert_allclose(emb.weight.grad.to_dense().numpy()[1], [1.0, 1.0])


def test_disabled_scaler_passes_everything_through():
    w, opt = _setup()
    scaler = paddle.amp.GradScaler(enable=False)
    loss = (w * 1.0).sum()
    assert scaler.scale(loss) is loss
    loss.backward()
    scaler.step(opt)
    np.testing.assert_allclose(w.numpy(), [0.9, 0.9], rtol=1e-6)
    assert scaler.state_dict() == {}


def test_state_dict_round_trip():
    a = paddle.amp.GradScaler(init_loss_scaling=128.0, incr_every_n_steps=5)
    b = paddle.amp.GradScaler()
    b.load_state_dict(a.state_dict())
    assert b.get_loss_scaling() == 128.0 and b.get_incr_every_n_steps() == 5


def test_seed000_amp_loop_runs_as_written():
    paddle.seed(1)
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(),
                                 paddle.nn.Linear(8, 2))
    criterion = paddle.nn.CrossEntropyLoss()
    optimizer = paddle.optimizer.Adam(parameters=model.parameters())
    x, label = paddle.randn([16, 4]), paddle.to_tensor(np.arange(16) % 2)
    scaler = paddle.amp.GradScaler()
    with paddle.amp.auto_cast():
        preds = model(x)
        loss = criterion(preds, label)
    scaled = scaler.scale(loss)
    scaled.backward()
    before = model[0].weight.numpy().copy()
    scaler.step(optimizer)
    scaler.update()
    assert preds.dtype == np.float16 and np.isfinite(loss.item())
    assert not np.array_equal(before, model[0].weight.numpy())
