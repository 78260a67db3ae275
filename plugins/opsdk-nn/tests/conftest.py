"""Shared fixtures: a private kernel cache for the session, and the backends to test here."""
import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from opsdk.kernels import compiler_info


def _cpu_backends():
    """python always; c where this machine has a compiler (every CI machine does)."""
    return ("python", "c") if compiler_info().available else ("python",)


CPU_BACKENDS = _cpu_backends()


@pytest.fixture(scope="session", autouse=True)
def kernel_cache(tmp_path_factory):
    """Every test builds into one throw-away cache (never the user's), C sources built up front
    in parallel so no single test pays for a compile."""
    path = tmp_path_factory.mktemp("opsdk-cache")
    old = os.environ.get("OPSDK_CACHE_DIR")
    os.environ["OPSDK_CACHE_DIR"] = str(path)
    try:
        if "c" in CPU_BACKENDS:
            from opsdk_nn.kernels import activations, cross_entropy, norms, softmax

            rows = (softmax.SOFTMAX, softmax.LOG_SOFTMAX, norms.LAYER_NORM, norms.RMS_NORM, cross_entropy.CROSS_ENTROPY)
            first_of_each_source = (*(op.value_kernel for op in activations.OPS.values()),
                                    *(op.forward_kernel for op in rows))
            with ThreadPoolExecutor(len(first_of_each_source)) as pool:
                list(pool.map(lambda k: k.build_c(), first_of_each_source))
        yield path
    finally:
        if old is None:
            os.environ.pop("OPSDK_CACHE_DIR", None)
        else:
            os.environ["OPSDK_CACHE_DIR"] = old


@pytest.fixture(params=CPU_BACKENDS)
def backend(request):
    """Each CPU backend in turn, forced for the test."""
    from opsdk.kernels import use_backend

    with use_backend(request.param):
        yield request.param


@pytest.fixture(params=("float32", "float64"))
def dtype(request):
    return request.param
