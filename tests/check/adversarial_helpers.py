"""What both adversarial packs' tests share: the CLI's failures over a pack, and the pytest
plugin's reports over it from a child pytest."""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

from click.testing import CliRunner

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)


def cli_failures(registered, pack, seed, *extra):
    """{'pack.op': [failed result dicts]} from `opsdk check --pack PACK --json` in this process,
    with the pack registered by the context manager ``registered``."""
    from opsdk.cli import main

    with registered():
        result = CliRunner().invoke(main, ["check", "--pack", pack, "--json", "--seed", str(seed),
                                           *extra], catch_exceptions=False)
    failed = {}
    # stdout only: an op's RuntimeWarnings go to stderr, which click's output mixes in
    for row in json.loads(result.stdout)["results"]:
        failed.setdefault(row["op"], [])
        if row["status"] in ("fail", "error", "blocked"):
            failed[row["op"]].append(row)
    return failed


def plugin_reports(tmp, module_text, timeout=900):
    """{test id: failure text or None} from one child pytest of ``module_text`` in ``tmp``."""
    from testing.test_pytest_plugin import _plugin_args

    (tmp / "test_pack_checks.py").write_text(module_text)
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *_plugin_args(),
                    "--rootdir", str(tmp), "--junitxml", str(tmp / "out.xml"),
                    "test_pack_checks.py"], cwd=tmp, env=env, capture_output=True, text=True,
                   timeout=timeout)
    reports = {}
    for case in ET.parse(tmp / "out.xml").getroot().iter("testcase"):
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        reports[case.get("name")] = None if failure is None else (failure.text or "")
    return reports
