"""Session-wide test setup: compiled kernels go to a private cache, never the user's; a test
marked with an optional framework (torch, jax, paddle) is skipped, with the reason, where that
framework is not installed; sweeps (`sweep`), and slow tests of the directories in
SLOW_DESELECTED, are deselected unless the run selects them (`-m sweep`, `-m slow`)."""
import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

import pytest


OPTIONAL_FRAMEWORKS = ("torch", "jax", "paddle")


# directories whose `slow` tests (whole-pack sweeps, minutes each) are deselected unless the
# run selects them with `-m slow`: the README's test command stays within its time budget
SLOW_DESELECTED = ("check", "testing")
HERE = Path(__file__).resolve().parent


def _selects_slow(config):
    expression = config.getoption("markexpr") or ""
    return any(word in expression and f"not {word}" not in expression for word in ("slow", "sweep"))


def _deselect_slow(config, items):
    if _selects_slow(config):
        return
    roots = [HERE / name for name in SLOW_DESELECTED]
    slow = [item for item in items if item.get_closest_marker("sweep") is not None
            or (item.get_closest_marker("slow") is not None
                and any(root in Path(str(item.fspath)).resolve().parents for root in roots))]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item not in slow]


def pytest_collection_modifyitems(config, items):
    _deselect_slow(config, items)
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
