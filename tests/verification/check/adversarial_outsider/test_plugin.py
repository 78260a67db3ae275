"""The pytest plugin over the outsider's pack gives `opsdk check`'s verdicts, reports included."""
import pytest

from ..adversarial_helpers import (TESTS, cli_failed, plugin_failed, plugin_flagged, plugin_texts,
                                   without_collateral)
from .expected import BUGS, CORRECT

# a child pytest over the whole outsider pack (minutes): deselected unless -m slow (tests/conftest.py)
pytestmark = pytest.mark.slow

TEST_MODULE = '''
import sys
sys.path.insert(0, {tests!r})
import opsdk.plugins
import opsdk.testing
from verification.check.adversarial_outsider.pack import PACKAGE, import_pack

import_pack()
opsdk.plugins.register_pack(PACKAGE, name="out")
test_outsider = opsdk.testing.op_checks(pack="out")
'''


@pytest.fixture(scope="module")
def plugin_reports(tmp_path_factory):
    """{test id: failure text or None} from one child pytest over the pack."""
    from ..adversarial_helpers import plugin_reports as reports_of

    return reports_of(tmp_path_factory.mktemp("outsider"), TEST_MODULE.format(tests=TESTS))


# the isolation class (state outside ctx, in-place writes, shared buffers): their collateral
# failures depend on call order; the check that names each bug must agree
STATEFUL = {name: check for name, (cls, check, _) in BUGS.items() if cls == "state"}


def test_plugin_fails_exactly_the_cases_opsdk_check_fails(plugin_reports, outsider_seed0):
    assert without_collateral(plugin_failed(plugin_reports), STATEFUL) == \
        without_collateral(cli_failed(outsider_seed0), STATEFUL)


@pytest.mark.parametrize("name", sorted(BUGS))
def test_plugin_reports_each_bug_with_its_cause(plugin_reports, name):
    _, check, words = BUGS[name]
    texts = plugin_texts(plugin_reports, "out", name, check)
    assert texts and any(words in t for t in texts), texts[:1]


def test_plugin_passes_every_correct_op(plugin_reports):
    assert plugin_flagged(plugin_reports, "out", CORRECT) == []
