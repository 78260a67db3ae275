"""opsdk.device's names installed from above: the generator's state and seed, typed tensors,
device_guard."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle

# `pytest --opsdk-cuda-sim` gives the run a simulated GPU; these answers are the CPU's
from helpers.simulator import as_a_machine_without_gpu  # noqa: F401 -- an autouse fixture

D = opsdk.device


def test_rng_state_round_trip_repeats_draws():
    state = D.get_rng_state()
    a = opsdk.rand([3]).numpy()
    D.set_rng_state(state)
    np.testing.assert_array_equal(opsdk.rand([3]).numpy(), a)


def test_manual_seed_repeats_draws_and_returns_none():
    assert D.manual_seed(11) is None
    a = opsdk.randn([2]).numpy()
    D.manual_seed(11)
    np.testing.assert_array_equal(opsdk.randn([2]).numpy(), a)


def test_typed_tensors_are_the_top_level_ones():
    assert D.FloatTensor is opsdk.FloatTensor and D.LongTensor is opsdk.LongTensor


@pytest.mark.paddle
def test_device_guard_as_paddle():
    with D.device_guard("cpu"):
        assert opsdk.ones([1]).place.is_cpu_place()
    assert_raises_as_paddle(lambda P: P.device.device_guard("gpu").__enter__(), ValueError)
