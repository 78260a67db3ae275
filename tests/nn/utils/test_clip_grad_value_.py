"""nn.utils.clip_grad_value_ (in place on param.grad)."""
import numpy as np

import opsdk as paddle


def _param(grad):
    p = paddle.create_parameter([len(grad)], "float32")
    p.grad = paddle.to_tensor(grad)
    return p


def test_clip_grad_value_clamps_in_place():
    p = _param([-5.0, 0.2, 5.0])
    grad = p.grad
    paddle.nn.utils.clip_grad_value_([p], 1.0)
    assert p.grad is grad
    np.testing.assert_allclose(p.grad.numpy(), [-1.0, 0.2, 1.0], rtol=1e-6)


def test_clip_grad_value_skips_parameters_without_gradient():
    a, b = _param([3.0]), paddle.create_parameter([1], "float32")
    paddle.nn.utils.clip_grad_value_([a, b], 1.0)
    assert b.grad is None and a.grad.item() == 1.0


def test_clip_grad_value_importable_from_its_module_path():
    from opsdk.nn.utils.clip_grad_value_ import clip_grad_value_
    assert clip_grad_value_ is paddle.nn.utils.clip_grad_value_
