"""The initializers of opsdk/nn/initializer/common.py against Paddle 3.3.1: Normal's complex
mean (the same value for both parts, else Paddle's ValueError)."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle, import_paddle


@pytest.mark.paddle
def test_normal_takes_a_complex_mean_only_with_equal_parts_as_paddle():
    err = assert_raises_as_paddle(lambda P: P.nn.initializer.Normal(mean=0.1 + 0.2j, std=2.0),
                                  ValueError)
    assert "Normal: argument 'mean'" in str(err)
    paddle = import_paddle()
    for P in (paddle, opsdk):
        layer = P.nn.Linear(2, 2, weight_attr=P.nn.initializer.Normal(1 + 1j, 1e-6))
        np.testing.assert_allclose(layer.weight.numpy(), np.ones((2, 2)), atol=1e-4)
