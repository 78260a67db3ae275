"""opsdk.device's waiting and memory calls: nothing to do on the CPU, where the statistics
refuse as Paddle's CPU build does; CuPy's pool (the simulator's here) on a GPU."""
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle
from helpers.simulator import simulated_cupy

# `pytest --opsdk-cuda-sim` gives the run a simulated GPU; these answers are the CPU's
from helpers.simulator import as_a_machine_without_gpu  # noqa: F401 -- an autouse fixture

D = opsdk.device


def test_synchronize_and_empty_cache_do_nothing_on_the_cpu():
    assert D.synchronize() is None and D.empty_cache() is None


@pytest.mark.paddle
@pytest.mark.parametrize("name", ["max_memory_allocated", "max_memory_reserved",
                                  "reset_max_memory_allocated", "reset_max_memory_reserved",
                                  "reset_peak_memory_stats"])
def test_statistics_refuse_on_the_cpu_as_paddle(name):
    assert_raises_as_paddle(lambda P: getattr(P.device, name)(), ValueError)


@pytest.mark.paddle
@pytest.mark.parametrize("name", ["memory_allocated", "memory_reserved"])
def test_names_paddles_cpu_build_lacks_raise_its_attribute_error(name):
    assert_raises_as_paddle(lambda P: getattr(P.device, name)(), AttributeError)


def test_statistics_on_the_simulated_gpu():
    with simulated_cupy():
        D.reset_peak_memory_stats()
        before = D.memory_allocated()
        x = opsdk.ones([1024], dtype="float32", place="gpu")
        assert D.memory_allocated() >= before + 4096
        assert D.max_memory_allocated() >= D.memory_allocated()
        assert D.memory_reserved() >= D.memory_allocated() and D.max_memory_reserved() >= 4096
        D.synchronize()
        D.synchronize("gpu:0")
        del x
        D.empty_cache()
        D.reset_max_memory_allocated(0)
        assert D.max_memory_allocated() == D.memory_allocated()
