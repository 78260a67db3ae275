"""The pytest plugin over the adversarial pack gives `opsdk check`'s verdicts, reports included."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from .expected import BUGS, CORRECT

TESTS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPO = os.path.dirname(TESTS)

TEST_MODULE = '''
import sys
sys.path.insert(0, {tests!r})
import opsdk.plugins
import opsdk.testing
from check.adversarial.pack import PACKAGE, import_pack

import_pack()
opsdk.plugins.register_pack(PACKAGE, name="adv")
test_adversarial = opsdk.testing.op_checks(pack="adv")
'''


@pytest.fixture(scope="module")
def plugin_reports(tmp_path_factory):
    """{test id: failure text or None} from one child pytest over the pack."""
    from testing.test_pytest_plugin import _plugin_args

    tmp = tmp_path_factory.mktemp("adversarial")
    (tmp / "test_adversarial.py").write_text(TEST_MODULE.format(tests=TESTS))
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *_plugin_args(),
                    "--rootdir", str(tmp), "--junitxml", str(tmp / "out.xml"),
                    "test_adversarial.py"], cwd=tmp, env=env, capture_output=True, text=True,
                   timeout=900)
    reports = {}
    for case in ET.parse(tmp / "out.xml").getroot().iter("testcase"):
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        reports[case.get("name")] = None if failure is None else (failure.text or "")
    return reports


def test_plugin_fails_exactly_the_cases_opsdk_check_fails(plugin_reports, seed0):
    from_plugin = {name for name, text in plugin_reports.items() if text is not None}
    from_cli = {f"{r['op']}[{r['backend']}-{r['dtype']}-{r['check']}]"
                for rows in seed0.values() for r in rows}
    assert from_plugin == from_cli


@pytest.mark.parametrize("name", sorted(BUGS))
def test_plugin_reports_each_bug_with_its_cause(plugin_reports, name):
    _, check, words = BUGS[name]
    texts = [t for n, t in plugin_reports.items()
             if t is not None and n.startswith(f"adv.{name}[") and n.endswith(f"-{check}]")]
    assert texts and any(words in t for t in texts), texts[:1]


def test_plugin_passes_every_correct_op(plugin_reports):
    flagged = [n for n, t in plugin_reports.items()
               if t is not None and n.split("[")[0] in {f"adv.{c}" for c in CORRECT}]
    assert flagged == []
