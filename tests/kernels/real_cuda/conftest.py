"""test_real_cuda.py builds and runs every kernel of the pack under three schedules (minutes on 2
cores): its tests are marked ``slow`` and deselected (not skipped) unless the run selects slow
tests (``-m slow``), so the README's test command stays within its time budget. The fast
test_expected.py always runs."""
import pytest


def pytest_collection_modifyitems(config, items):
    wanted = config.getoption("markexpr") or ""
    if "slow" in wanted and "not slow" not in wanted:
        return
    slow = [item for item in items if item.get_closest_marker("slow") and "real_cuda" in item.nodeid]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item not in slow]
