"""opsdk's CPU CUDA simulator as ``cupy`` for a block of tests, removed after (unless it was on before)."""
from contextlib import contextmanager

import pytest

from opsdk.kernels import cudasim


@contextmanager
def simulated_cupy():
    """Yield the simulated cupy module; uninstall it afterwards if this call installed it."""
    installed_here = not cudasim.active()
    cudasim.install()
    import cupy

    try:
        yield cupy
    finally:
        if installed_here:
            cudasim.uninstall()


def assert_gpu_run_equals_cpu_run(run):
    """run(on_gpu) -> tensors: on the simulated GPU every result stays there and equals the
    CPU run's exactly (the same maths on the same values; only placement may differ)."""
    import numpy as np

    want = run(False)
    with simulated_cupy():
        got = run(True)
        assert all(t.place.is_gpu_place() for t in got)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), w.numpy())


@contextmanager
def no_simulated_gpu():
    """The machine as opsdk sees it without the CUDA simulator (which `pytest --opsdk-cuda-sim`
    installs for the whole run): for tests that compare with Paddle's CPU build's answers.
    Reinstalled afterwards if it was on."""
    from opsdk import device_queries

    was_on = cudasim.active()
    if was_on:
        cudasim.uninstall()
    try:
        if device_queries.device_count() > 0:
            pytest.skip("compares with Paddle's CPU build: this machine has a real GPU "
                        "(CuPy finds one), so opsdk's answers are a GPU machine's")
        yield
    finally:
        if was_on:
            cudasim.install()


@pytest.fixture(autouse=True)
def as_a_machine_without_gpu():
    """For modules that compare opsdk's device answers with Paddle's CPU build: importing it
    (``from helpers.simulator import as_a_machine_without_gpu``) turns it on for the module."""
    with no_simulated_gpu():
        yield
