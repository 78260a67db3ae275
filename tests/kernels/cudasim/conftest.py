"""The simulator on for these tests only (the rest of the suite keeps CuPy as it finds it)."""
import os

import pytest

from helpers.simulator import simulated_cupy

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


@pytest.fixture(scope="package", autouse=True)
def simulator():
    """The simulated cupy module, installed for the package's tests and removed after."""
    with simulated_cupy() as cupy:
        yield cupy


def _instrumented():
    from opsdk.kernels.cudasim.toolchain import toolchain

    chain = toolchain()
    return chain is not None and bool(chain.hooks)


# checks that need every load and store reported (precise bounds, shared memory's shadow)
requires_hooks = pytest.mark.skipif(not _instrumented(), reason="the C++ compiler cannot instrument "
                                    "accesses (-fsanitize=thread) or OPSDK_CUDA_SIM_INSTRUMENT=0")


@pytest.fixture
def cp(simulator):
    return simulator


@pytest.fixture(scope="package")
def probe(simulator):
    """The RawModule of data/probe.cu (compiled once for the package)."""
    with open(os.path.join(DATA, "probe.cu"), encoding="utf-8") as f:
        code = f'#line 1 "{os.path.join(DATA, "probe.cu")}"\n' + f.read()
    return simulator.RawModule(code=code, name_expressions=("axpy<float>", "axpy<double>"))
