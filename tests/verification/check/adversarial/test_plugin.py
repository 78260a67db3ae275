"""The pytest plugin over the adversarial pack gives `opsdk check`'s verdicts, reports included."""
import pytest

from ..adversarial_helpers import (TESTS, cli_failed, plugin_failed, plugin_flagged, plugin_texts,
                                   without_collateral)
from .expected import BUGS, CORRECT

# a child pytest over the whole adversarial pack (minutes): deselected unless -m slow (tests/conftest.py)
pytestmark = pytest.mark.slow

TEST_MODULE = '''
import sys
sys.path.insert(0, {tests!r})
import opsdk.plugins
import opsdk.testing
from verification.check.adversarial.pack import PACKAGE, import_pack

import_pack()
opsdk.plugins.register_pack(PACKAGE, name="adv")
test_adversarial = opsdk.testing.op_checks(pack="adv")
'''


@pytest.fixture(scope="module")
def plugin_reports(tmp_path_factory):
    """{test id: failure text or None} from one child pytest over the pack."""
    from ..adversarial_helpers import plugin_reports as reports_of

    return reports_of(tmp_path_factory.mktemp("adversarial"), TEST_MODULE.format(tests=TESTS))


# the ops keeping state outside ctx (class or module state), with the check that names their bug
STATEFUL = {name: BUGS[name][1] for name in ("class_state", "shape_cache")}


def test_plugin_fails_exactly_the_cases_opsdk_check_fails(plugin_reports, seed0):
    assert without_collateral(plugin_failed(plugin_reports), STATEFUL) == \
        without_collateral(cli_failed(seed0), STATEFUL)


@pytest.mark.parametrize("name", sorted(BUGS))
def test_plugin_reports_each_bug_with_its_cause(plugin_reports, name):
    _, check, words = BUGS[name]
    texts = plugin_texts(plugin_reports, "adv", name, check)
    assert texts and any(words in t for t in texts), texts[:1]


def test_plugin_passes_every_correct_op(plugin_reports):
    assert plugin_flagged(plugin_reports, "adv", CORRECT) == []
