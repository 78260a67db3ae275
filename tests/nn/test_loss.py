"""Loss layers."""
import numpy as np

import opsdk as paddle
import opsdk.nn.functional as F


def test_cross_entropy_loss_layer_passes_its_options():
    x = paddle.randn([4, 3])
    y = paddle.to_tensor([0, 2, -1, 1])
    layer = paddle.nn.CrossEntropyLoss(ignore_index=-1, reduction="sum")
    assert layer(x, y).item() == F.cross_entropy(x, y, ignore_index=-1, reduction="sum").item()


def test_mse_loss_layer():
    x, y = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.0, 0.0])
    assert paddle.nn.MSELoss()(x, y).item() == 2.5
    np.testing.assert_array_equal(paddle.nn.MSELoss("none")(x, y).numpy(), [1.0, 4.0])
