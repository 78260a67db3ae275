"""Session-wide test setup: compiled kernels go to a private cache, never the user's; a test
marked with an optional framework (torch, jax, paddle) is skipped, with the reason, where that
framework is not installed."""
import importlib.util
import os
import shutil
import tempfile

import pytest


OPTIONAL_FRAMEWORKS = ("torch", "jax", "paddle")


def pytest_collection_modifyitems(config, items):
    missing = {name for name in OPTIONAL_FRAMEWORKS if importlib.util.find_spec(name) is None}
    for item in items:
        for name in missing.intersection(mark.name for mark in item.iter_markers()):
            item.add_marker(pytest.mark.skip(reason=f"marked {name}: {name} is not installed"))


@pytest.fixture(autouse=True, scope="session")
def _private_kernel_cache():
    if "OPSDK_CACHE_DIR" in os.environ:  # the caller chose one (CI may reuse a warm cache)
        yield
        return
    path = tempfile.mkdtemp(prefix="opsdk-test-cache-")
    os.environ["OPSDK_CACHE_DIR"] = path
    try:
        yield
    finally:
        os.environ.pop("OPSDK_CACHE_DIR", None)
        shutil.rmtree(path, ignore_errors=True)
