"""A fixture for tests of machines without a C compiler."""
import pytest


@pytest.fixture
def no_compiler(tmp_path, monkeypatch):
    """A PATH without any C compiler (and no CC)."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("CC", raising=False)
    return str(empty)
