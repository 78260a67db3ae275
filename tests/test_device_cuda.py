"""opsdk.device.cuda: Paddle's older names for the GPU calls are opsdk.device's."""
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle
from helpers.simulator import simulated_cupy

# `pytest --opsdk-cuda-sim` gives the run a simulated GPU; these answers are the CPU's
from helpers.simulator import as_a_machine_without_gpu  # noqa: F401 -- an autouse fixture


def test_the_names_are_opsdk_devices():
    for name in opsdk.device.cuda.__all__:
        assert getattr(opsdk.device.cuda, name) is getattr(opsdk.device, name)


@pytest.mark.paddle
def test_cpu_answers_as_paddle():
    assert opsdk.device.cuda.device_count() == 0
    assert opsdk.device.cuda.empty_cache() is None
    assert_raises_as_paddle(lambda P: P.device.cuda.memory_allocated(), ValueError)


def test_on_the_simulated_gpu():
    with simulated_cupy():
        assert opsdk.device.cuda.device_count() >= 1
        opsdk.device.cuda.synchronize()
        assert opsdk.device.cuda.memory_reserved() >= 0
