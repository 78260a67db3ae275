"""The catch matrix of issue 21: every class caught, no correct op flagged, on seeds 0-4 with
each dtype alone, by the CLI and by the pytest plugin. Ten runs of the pack each: marked slow,
deselected unless `-m slow` (tests/verification/check/conftest.py); run_pack.py prints the matrix."""
import pytest

from .conftest import cli_failures
from .expected import false_alarms, missed

SEEDS = range(5)
DTYPES = ("float32", "float64")


@pytest.mark.slow
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_cli_catches_every_bug_and_flags_no_correct_op(seed, dtype):
    failed = cli_failures(seed, "--dtype", dtype)
    assert missed(failed, dtype) == {} and false_alarms(failed) == {}


@pytest.mark.slow
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_plugin_catches_every_bug_and_flags_no_correct_op(tmp_path, seed, dtype):
    from .test_plugin import caught, reports

    assert caught(reports(tmp_path, seed, dtype), dtype) == (set(), [])
