"""auto_cast: float16 for matmul/linear, float32 for losses, per thread."""
import threading

import numpy as np
import pytest

import opsdk as paddle
import opsdk.nn.functional as F
from opsdk.errors import OpArgumentError


def _model():
    paddle.seed(0)
    return paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 3))


def test_linear_runs_in_float16_and_the_loss_in_float32():
    model = _model()
    with paddle.amp.auto_cast():
        preds = model(paddle.randn([5, 4]))
        loss = F.cross_entropy(preds, paddle.to_tensor([0, 1, 2, 0, 1]))
    assert preds.dtype == np.float16 and loss.dtype == np.float32


def test_parameters_stay_float32_and_get_float32_gradients():
    model = _model()
    with paddle.amp.auto_cast():
        loss = F.mse_loss(model(paddle.randn([5, 4])), paddle.zeros([5, 3]))
    loss.backward()
    assert all(p.dtype == np.float32 and p.grad.dtype == np.float32 for p in model.parameters())


def test_float16_linear_equals_the_product_of_float16_rounded_inputs():
    x = paddle.randn([3, 4])
    fc = paddle.nn.Linear(4, 2)
    with paddle.amp.auto_cast():
        y = fc(x)
    x16 = x.numpy().astype(np.float16).astype(np.float32)
    w16 = fc.weight.numpy().astype(np.float16).astype(np.float32)
    b16 = fc.bias.numpy().astype(np.float16).astype(np.float32)
    np.testing.assert_array_equal(y.numpy(), (x16 @ w16 + b16).astype(np.float16))


def test_amp_gradients_are_close_to_the_float32_ones():
    model = _model()
    x, y = paddle.randn([16, 4]), paddle.to_tensor(np.arange(16) % 3)
    F.cross_entropy(model(x), y).backward()
    full = [p.grad.numpy().copy() for p in model.parameters()]
    model.clear_gradients()
    with paddle.amp.auto_cast():
        loss = F.cross_entropy(model(x), y)
    loss.backward()
    for a, p in zip(full, model.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), a, rtol=2e-2, atol=2e-3)


def test_outside_the_context_everything_is_float32_again():
    model = _model()
    with paddle.amp.auto_cast():
        pass
    assert model(paddle.randn([1, 4])).dtype == np.float32


def test_enable_false_and_level_o0_turn_it_off():
    model = _model()
    with paddle.amp.auto_cast(enable=False):
        assert model(paddle.randn([1, 4])).dtype == np.float32
    with paddle.amp.auto_cast(level="O0"):
        assert model(paddle.randn([1, 4])).dtype == np.float32


def test_custom_black_list_keeps_linear_in_float32():
    with paddle.amp.auto_cast(custom_black_list={"linear"}):
        assert _model()(paddle.randn([1, 4])).dtype == np.float32


def test_custom_white_list_moves_softmax_to_float16():
    x = paddle.randn([2, 3]).astype("float16")
    with paddle.amp.auto_cast():
        assert F.softmax(x).dtype == np.float32
    with paddle.amp.auto_cast(custom_white_list={"softmax"}):
        assert F.softmax(x).dtype == np.float16


def test_auto_cast_works_as_a_decorator():
    @paddle.amp.auto_cast()
    def forward(model, x):
        return model(x)
    assert forward(_model(), paddle.randn([1, 4])).dtype == np.float16


def test_auto_cast_state_is_per_thread():
    seen = []
    model = _model()
    with paddle.amp.auto_cast():
        t = threading.Thread(target=lambda: seen.append(model(paddle.randn([1, 4])).dtype))
        t.start()
        t.join()
    assert seen == [np.float32]


def test_bfloat16_is_refused_with_the_reason():
    with pytest.raises(OpArgumentError, match="bfloat16"):
        paddle.amp.auto_cast(dtype="bfloat16")
