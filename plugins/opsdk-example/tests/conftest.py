"""Test setup of the example pack: opsdk's pytest plugin, a private kernel cache, the CPU backends."""
import os
import shutil
import tempfile

import pytest

from opsdk_example.swish import OP


_saved_cache_dir = []


def pytest_configure(config):
    # an installed opsdk brings its pytest plugin (entry point pytest11); an opsdk that is only
    # importable (a source checkout on PYTHONPATH) does not, and test_example_checks.py needs it
    if not config.pluginmanager.hasplugin("opsdk"):
        config.pluginmanager.import_plugin("opsdk.testing.pytest_plugin")
    # a kernel cache of this run's own, set before collection: collecting the checks already
    # builds the C kernels, so a fixture would be too late to keep them out of the user's cache
    _saved_cache_dir.append(os.environ.get("OPSDK_CACHE_DIR"))
    os.environ["OPSDK_CACHE_DIR"] = tempfile.mkdtemp(prefix="opsdk-example-cache-")


def pytest_unconfigure(config):
    if not _saved_cache_dir:
        return
    shutil.rmtree(os.environ["OPSDK_CACHE_DIR"], ignore_errors=True)
    saved = _saved_cache_dir.pop()
    if saved is None:
        os.environ.pop("OPSDK_CACHE_DIR", None)
    else:
        os.environ["OPSDK_CACHE_DIR"] = saved


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory):
    """An OPSDK_CACHE_DIR of this module's own: the C kernels compile there, never in the user's cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPSDK_CACHE_DIR", str(tmp_path_factory.mktemp("opsdk-cache")))
        patch.delenv("OPSDK_BACKEND", raising=False)
        yield


@pytest.fixture(params=["python", "c"])
def cpu_backend(request):
    """Each CPU backend in turn (c is skipped, with the reason, where no C compiler runs)."""
    if request.param not in OP.value_kernel.available_backends("cpu"):
        pytest.skip("no C compiler (set CC, or install gcc or clang) and no cached build")
    return request.param
