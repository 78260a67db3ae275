"""Session-wide test setup: compiled kernels go to a private cache, never the user's; a test
marked with an optional framework (torch, jax, paddle) is skipped, with the reason, where that
framework is not installed; `slow` and `sweep` tests are deselected unless the run selects them
(`-m "slow or sweep"`: the README's full verification)."""
import importlib.util
import os
import shutil
import sys
import tempfile

import pytest


OPTIONAL_FRAMEWORKS = ("torch", "jax", "paddle")


# the README's test command is the suite a contributor runs before every commit: minutes, with
# every test file's fast cases in it. Long cases (seconds each: whole-pack checks, pip installs,
# seed sweeps, the simulator over whole packs) are marked `slow` or `sweep` and run in the
# README's full verification, which CI runs as its own step
SLOW_MARKERS = ("slow", "sweep")


def _selects_slow(config):
    expression = config.getoption("markexpr") or ""
    return any(word in expression and f"not {word}" not in expression for word in ("slow", "sweep"))


def _deselect_slow(config, items):
    if _selects_slow(config):
        return
    slow = [item for item in items if any(item.get_closest_marker(m) for m in SLOW_MARKERS)]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item not in slow]


def pytest_collection_modifyitems(config, items):
    _deselect_slow(config, items)
    missing = {name for name in OPTIONAL_FRAMEWORKS if importlib.util.find_spec(name) is None}
    for item in items:
        for name in missing.intersection(mark.name for mark in item.iter_markers()):
            item.add_marker(pytest.mark.skip(reason=f"marked {name}: {name} is not installed"))


def pytest_configure(config):
    if hasattr(config, "workerinput"):
        return  # a pytest-xdist worker: it inherited what the run's first process set up
    # one private kernel cache for the run (compiled kernels never go to the user's), made before
    # pytest-xdist starts its workers so that they inherit it: each kernel compiles once per run,
    # not once per worker. A cache the caller chose is used as it is (CI may reuse a warm one)
    if "OPSDK_CACHE_DIR" not in os.environ:
        config.opsdk_test_cache = os.environ["OPSDK_CACHE_DIR"] = tempfile.mkdtemp(
            prefix="opsdk-test-cache-")
    # where the environment forbids bytecode files (PYTHONDONTWRITEBYTECODE), every process the
    # suite starts (workers, hundreds of opsdk commands and child pytest runs) compiled opsdk from
    # source again, half a second each: the run's processes share bytecode in a private
    # directory instead, removed at the end, so nothing is written beside the sources
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and "PYTHONPYCACHEPREFIX" not in os.environ:
        prefix = tempfile.mkdtemp(prefix="opsdk-test-pyc-")
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        config.opsdk_test_pyc = os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = prefix
        sys.dont_write_bytecode = False


def pytest_unconfigure(config):
    path = getattr(config, "opsdk_test_cache", None)
    if path:
        os.environ.pop("OPSDK_CACHE_DIR", None)
        shutil.rmtree(path, ignore_errors=True)
    prefix = getattr(config, "opsdk_test_pyc", None)
    if prefix:
        os.environ.pop("PYTHONPYCACHEPREFIX", None)
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        sys.pycache_prefix, sys.dont_write_bytecode = None, True
        shutil.rmtree(prefix, ignore_errors=True)
