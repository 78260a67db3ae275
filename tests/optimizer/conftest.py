"""Fixtures for optimizer tests."""
import pytest


@pytest.fixture
def torch():
    return pytest.importorskip("torch")
