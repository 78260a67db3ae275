"""paddle.distributed.fleet's recompute paths lead to opsdk.recompute."""
import numpy as np

import opsdk as paddle


def test_fleet_utils_recompute_is_opsdk_recompute():
    from opsdk.distributed.fleet.utils import recompute
    assert recompute is paddle.recompute is paddle.distributed.fleet.utils.recompute


def test_fleet_recompute_module_has_recompute_and_sequential():
    from opsdk.distributed.fleet.recompute import recompute, recompute_sequential
    assert recompute is paddle.recompute
    assert recompute_sequential is paddle.nn.recompute_sequential


def test_fleet_recompute_gives_the_gradients_of_the_plain_block():
    paddle.seed(3)
    block = paddle.nn.Sequential(paddle.nn.Linear(3, 3), paddle.nn.Tanh())
    x = paddle.to_tensor([[1.0, -2.0, 0.5]], stop_gradient=False)
    (block(x) ** 2).sum().backward()
    want = x.grad.numpy().copy(), block[0].weight.grad.numpy().copy()
    x.clear_gradient(set_to_zero=False)
    block.clear_gradients(set_to_zero=False)
    (paddle.distributed.fleet.utils.recompute(block, x) ** 2).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), want[0], rtol=1e-6)
    np.testing.assert_allclose(block[0].weight.grad.numpy(), want[1], rtol=1e-6)
