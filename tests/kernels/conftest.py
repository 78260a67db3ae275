"""Fixtures of the kernel tests: a private cache directory per test."""

import sys
import types

import numpy
import pytest

from opsdk.kernels import cuda

from .sample import FakeGpuArray


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh OPSDK_CACHE_DIR, so tests never touch the user's cache."""
    path = tmp_path / "cache"
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(path))
    monkeypatch.delenv("OPSDK_BACKEND", raising=False)
    monkeypatch.delenv("CC", raising=False)
    return str(path)


@pytest.fixture
def fake_cupy(monkeypatch):
    """sys.modules['cupy'] replaced by a stand-in: `devices` GPUs of 2 multiprocessors; RawModule keeps its code."""
    module = types.ModuleType("cupy")
    module.ndarray = FakeGpuArray
    module.ascontiguousarray = lambda a: FakeGpuArray(numpy.ascontiguousarray(a.data))
    module.RawModule = lambda code, options, name_expressions: ("raw module", code)
    module.devices = 1
    module.cuda = types.SimpleNamespace(
        runtime=types.SimpleNamespace(getDeviceCount=lambda: module.devices),
        Device=lambda: types.SimpleNamespace(id=0, attributes={"MultiProcessorCount": 2}),
    )
    monkeypatch.setitem(sys.modules, "cupy", module)
    monkeypatch.setattr(cuda, "_status", None)
    monkeypatch.setattr(cuda, "_modules", {})
    monkeypatch.setattr(cuda, "_max_grid", {})
    return module


from helpers.compilers import no_compiler  # noqa: E402,F401 - a fixture
from helpers.readonly import read_only  # noqa: E402,F401 - a fixture for the broken-cache tests
