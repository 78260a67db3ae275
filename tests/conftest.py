"""Session-wide test setup: compiled kernels go to a private cache, never the user's; a test
marked with an optional framework (torch, jax, paddle) is skipped, with the reason, where that
framework is not installed; `slow` and `sweep` tests are deselected unless the run selects them
(`-m "slow or sweep"`: the README's full verification)."""
import importlib.util
import os
import shutil
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
    # one private kernel cache for the run (compiled kernels never go to the user's), made before
    # pytest-xdist starts its workers so that they inherit it: each kernel compiles once per run,
    # not once per worker
    if hasattr(config, "workerinput") or "OPSDK_CACHE_DIR" in os.environ:
        return  # a worker, given the run's cache; or the caller chose one (CI may reuse a warm one)
    path = tempfile.mkdtemp(prefix="opsdk-test-cache-")
    os.environ["OPSDK_CACHE_DIR"] = path
    config.opsdk_test_cache = path


def pytest_unconfigure(config):
    path = getattr(config, "opsdk_test_cache", None)
    if path:
        os.environ.pop("OPSDK_CACHE_DIR", None)
        shutil.rmtree(path, ignore_errors=True)
