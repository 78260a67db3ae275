"""The simulator on for these tests only (the rest of the suite keeps CuPy as it finds it)."""
import os
import subprocess
import sys

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


def run_uninstrumented(script, tmp_path):
    """stdout of ``script`` (given DATA as argv[1]) in a fresh process whose simulator compiles
    kernels without access hooks (OPSDK_CUDA_SIM_INSTRUMENT=0), with a cache of its own."""
    env = dict(os.environ, OPSDK_CUDA_SIM_INSTRUMENT="0", OPSDK_CACHE_DIR=str(tmp_path))
    env.pop("OPSDK_CUDA_SIM", None)
    done = subprocess.run([sys.executable, "-c", script, DATA], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout
