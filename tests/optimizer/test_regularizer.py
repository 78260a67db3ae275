"""Weight-decay regularizers."""
import numpy as np
import pytest

from opsdk.errors import OpArgumentError
from opsdk.optimizer.regularizer import L1Decay, L2Decay, as_regularizer


def test_l2_decay_adds_coeff_times_param():
    np.testing.assert_allclose(L2Decay(0.5).apply(np.array([2.0, -4.0]), np.array([1.0, 1.0])),
                               [2.0, -1.0])


def test_l1_decay_adds_coeff_times_sign():
    np.testing.assert_allclose(L1Decay(0.5).apply(np.array([2.0, -4.0]), np.array([1.0, 1.0])),
                               [1.5, 0.5])


def test_as_regularizer_turns_floats_into_l2_and_zero_into_none():
    assert isinstance(as_regularizer(0.1, "SGD"), L2Decay)
    assert as_regularizer(0.0, "SGD") is None
    with pytest.raises(OpArgumentError, match="SGD: weight_decay"):
        as_regularizer("big", "SGD")
