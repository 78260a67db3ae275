"""Fixtures of the built-in op tests: one private kernel cache per module, nothing forced."""
import pytest


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory):
    """An OPSDK_CACHE_DIR of this module's own: the C kernels compile once here, never in the user's cache."""
    with pytest.MonkeyPatch.context() as patch:
        path = tmp_path_factory.mktemp("opsdk-cache")
        patch.setenv("OPSDK_CACHE_DIR", str(path))
        patch.delenv("OPSDK_BACKEND", raising=False)
        yield str(path)
