"""Tensor methods defined in opsdk/tensor_methods.py, where they follow Paddle's checks."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import OpArgumentError


@pytest.mark.parametrize("low, high", [(0.0, 0.0), (1.0, 0.0)])
def test_uniform_inplace_refuses_an_empty_range_as_paddle_does(low, high):
    x = opsdk.to_tensor(np.array([1.5, 2.0]))
    with pytest.raises(ValueError, match="uniform_: 'min' must be less than 'max'") as info:
        x.uniform_(low, high)
    assert isinstance(info.value, OpArgumentError)
    assert x.numpy().tolist() == [1.5, 2.0] and x.inplace_version == 0


def test_uniform_inplace_draws_inside_the_range():
    x = opsdk.to_tensor(np.zeros(50))
    x.uniform_(2.0, 3.0)
    assert ((x.numpy() >= 2.0) & (x.numpy() < 3.0)).all() and x.inplace_version == 1
