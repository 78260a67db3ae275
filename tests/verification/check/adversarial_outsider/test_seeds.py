"""The outsider's pack on a second seed: the same verdicts (run_pack.py runs ten and twenty)."""
import pytest

from .conftest import cli_failures
from .expected import false_alarms, missed

# the whole outsider pack again on another seed (minutes): deselected unless -m slow (tests/conftest.py)
pytestmark = pytest.mark.slow


def test_seed_1_catches_every_bug_and_flags_no_correct_op():
    failed = cli_failures(1)
    assert missed(failed) == {}
    assert sorted(false_alarms(failed)) == []
