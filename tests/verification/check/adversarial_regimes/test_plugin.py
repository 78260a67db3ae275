"""The pytest plugin over the regimes pack (seed 1, float64 alone: another seed and dtype than
test_cli.py's): every bug reported with its cause, no correct op flagged. A child pytest over
the whole pack (about a minute): marked slow, deselected unless `-m slow`."""
import pytest

pytestmark = pytest.mark.slow

from ..adversarial_helpers import TESTS, plugin_flagged, plugin_texts
from .expected import BUGS, CORRECT

TEST_MODULE = '''
import sys
sys.path.insert(0, {tests!r})
import opsdk.plugins
import opsdk.testing
from verification.check.adversarial_regimes.pack import PACKAGE, import_pack

import_pack()
opsdk.plugins.register_pack(PACKAGE, name="reg")
test_regimes = opsdk.testing.op_checks(pack="reg", dtype={dtype!r}, seed={seed})
'''


def reports(tmp, seed, dtype):
    """{test id: failure text or None} from one child pytest over the pack."""
    from ..adversarial_helpers import plugin_reports

    return plugin_reports(tmp, TEST_MODULE.format(tests=TESTS, dtype=dtype, seed=seed))


def caught(found, dtype):
    """The bugs the plugin's reports name with their cause, and the correct ops it flagged."""
    from .expected import ONLY_IN

    bugs = {n for n in BUGS if dtype in ONLY_IN.get(n, (dtype,))}
    named = {n for n in bugs
             if any(BUGS[n][2] in t for t in plugin_texts(found, "reg", n, BUGS[n][1]))}
    return bugs - named, plugin_flagged(found, "reg", CORRECT)


@pytest.fixture(scope="module")
def plugin_reports(tmp_path_factory):
    return reports(tmp_path_factory.mktemp("regimes"), 1, "float64")


def test_plugin_reports_every_bug_with_its_cause(plugin_reports):
    assert caught(plugin_reports, "float64")[0] == set()


def test_plugin_passes_every_correct_op(plugin_reports):
    assert caught(plugin_reports, "float64")[1] == []
