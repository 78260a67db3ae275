"""amp.autocast_matmul and the quiet float16 cast."""
import warnings

import numpy as np

import opsdk as paddle
from opsdk.amp.matmul import quiet_cast


def test_autocast_matmul_is_plain_matmul_outside_auto_cast():
    a, b = paddle.randn([2, 3]), paddle.randn([3, 2])
    np.testing.assert_array_equal(paddle.amp.autocast_matmul(a, b).numpy(),
                                  paddle.matmul(a, b).numpy())


def test_autocast_matmul_inside_auto_cast_returns_float16_with_float32_gradients():
    a = paddle.randn([2, 3])
    a.stop_gradient = False
    b = paddle.randn([3, 2])
    with paddle.amp.auto_cast():
        y = paddle.amp.autocast_matmul(a, b, transpose_y=False)
    assert y.dtype == np.float16
    y.sum().backward()
    assert a.grad.dtype == np.float32
    b16 = b.numpy().astype(np.float16).astype(np.float32)
    np.testing.assert_allclose(a.grad.numpy(), np.ones((2, 2)) @ b16.T, rtol=1e-3)


def test_quiet_cast_overflows_to_inf_without_a_warning():
    x = paddle.to_tensor([1e6], stop_gradient=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = quiet_cast(x, "float16")
        (quiet_cast(y, "float32") * 1e6).sum().backward()
    assert np.isinf(y.numpy()[0]) and y.dtype == np.float16
    # the gradient went through float16 too, and overflowed the same way
    assert x.grad.dtype == np.float32 and np.isinf(x.grad.numpy()[0])
