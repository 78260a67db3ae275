"""The pytest plugin next to packs that hang, exit or crash at import: each is a failing
``pack[load]`` test naming what it did, the good pack's checks run, and pytest neither hangs nor
ends green."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from fixtures.hostile_packs import install

from .test_pytest_plugin import REPO, _plugin_args

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="packs are probed in a forked child on Linux only")

PACKS = ("hangs", "exits", "crashes", "patches_opsdk", "bystander")
DECLARATION = f"""
import opsdk.testing

test_packs = opsdk.testing.op_checks(pack={list(PACKS)!r}, backend="python", dtype="float64",
                                     check="gradcheck")
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory, cache_dir):
    """One child pytest over the declaration: (outcome per test name, completed process)."""
    root = tmp_path_factory.mktemp("hostile")
    install(root / "site", *PACKS)
    (root / "test_checks.py").write_text(DECLARATION)
    env = dict(os.environ, OPSDK_LOAD_PLUGINS=",".join(PACKS), OPSDK_PLUGIN_TIMEOUT="0.5",
               PYTHONPATH=os.pathsep.join([REPO, str(root / "site"), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", *_plugin_args(),
                           "--rootdir", str(root), "-q", "--junitxml", str(root / "out.xml"),
                           "test_checks.py"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)
    outcomes = {}
    for case in ET.parse(root / "out.xml").getroot().iter("testcase"):
        failed = any(child.tag in ("failure", "error") for child in case)
        outcomes[case.get("name")] = ("failed", case.find("failure").text) if failed else ("passed", "")
    return outcomes, proc


def test_pytest_ends_failed_not_green_and_not_stuck(run):
    outcomes, proc = run
    assert proc.returncode == 1, proc.stdout[-2000:]
    assert "4 failed, 1 passed" in proc.stdout


def test_the_good_packs_check_runs_and_passes(run):
    outcomes, _ = run
    assert outcomes["bystander.gate[python-float64-gradcheck]"] == ("passed", "")


@pytest.mark.parametrize("pack, says", [
    ("hangs", "PluginTimeoutError: pack 'hangs' did not finish loading (at import) within 0.5 s"),
    ("exits", "PluginCrashError: pack 'exits' ended the process while loading (at import): exit status 0"),
    ("crashes", "killed by signal SIGSEGV (a crash in native code)"),
    ("patches_opsdk", "PluginTamperError: pack 'patches_opsdk' replaced opsdk's own names at import"),
])
def test_each_hostile_pack_is_a_failing_load_test_saying_what_it_did(run, pack, says):
    outcomes, _ = run
    outcome, text = outcomes[f"{pack}[load]"]
    assert outcome == "failed" and says in text
