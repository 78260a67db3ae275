"""Loss layers."""
import numpy as np
import pytest

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


_CHECKED_AT_INIT = ["BCELoss", "BCEWithLogitsLoss", "CosineEmbeddingLoss", "GaussianNLLLoss",
                    "L1Loss", "MSELoss", "MarginRankingLoss", "MultiLabelMarginLoss",
                    "MultiLabelSoftMarginLoss", "MultiMarginLoss", "NLLLoss", "PoissonNLLLoss",
                    "SoftMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss"]


@pytest.mark.paddle
@pytest.mark.parametrize("name", _CHECKED_AT_INIT)
def test_a_loss_layer_refuses_an_unknown_reduction_when_built_as_paddle(name):
    from helpers.frameworks import assert_raises_as_paddle
    err = assert_raises_as_paddle(lambda P: getattr(P.nn, name)(reduction="max"), ValueError)
    assert name in str(err) and "'max'" in str(err)


@pytest.mark.parametrize("name", ["CrossEntropyLoss", "KLDivLoss", "SmoothL1Loss", "HuberLoss"])
def test_the_other_loss_layers_refuse_it_when_called_as_paddle(name):
    layer = getattr(paddle.nn, name)(reduction="max")  # Paddle builds these too
    with pytest.raises(ValueError, match="reduction"):
        layer(paddle.ones([2, 3]), paddle.to_tensor([0, 1]) if name == "CrossEntropyLoss"
              else paddle.ones([2, 3]))
