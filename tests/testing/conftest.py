"""Fixtures of the pytest-plugin tests: a private kernel cache shared with the child pytest runs."""
import pytest


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory):
    """An OPSDK_CACHE_DIR for this session and the pytest processes it starts."""
    path = tmp_path_factory.mktemp("opsdk-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPSDK_CACHE_DIR", str(path))
        patch.delenv("OPSDK_BACKEND", raising=False)
        yield str(path)
