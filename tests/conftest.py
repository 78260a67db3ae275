"""Session-wide test setup: compiled kernels go to a private cache, never the user's."""
import os
import shutil
import tempfile

import pytest


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
