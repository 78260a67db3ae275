"""The pytest plugin: a pack's test module declares its checks in one line and gets them as tests."""
import importlib.metadata
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import pytest

from fixtures.packs import HERE as PACKS_DIR
from opsdk.kernels import cudasim

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTS = os.path.join(REPO, "tests")

TEST_MODULE = '''
import sys
sys.path.insert(0, {tests!r})
import opsdk.plugins
import opsdk.testing
from fixtures.packs import PACKAGE, import_packs

import_packs()
for module, name in (("good_pack", "goodpack"), ("bad_pack", "badpack"), ("broken_pack", "brokenpack")):
    try:
        opsdk.plugins.register_pack(f"{{PACKAGE}}.{{module}}", name=name)
    except opsdk.errors.PluginLoadError:
        pass  # brokenpack: recorded as failed, which the declaration must show

test_packs = opsdk.testing.op_checks(pack=["goodpack", "badpack", "brokenpack"])


def test_an_ordinary_test_still_runs():
    assert True
'''


def _plugin_args():
    """``-p`` for the plugin unless it is installed (then its entry point loads it already)."""
    installed = any(ep.value == "opsdk.testing.pytest_plugin"
                    for ep in importlib.metadata.entry_points(group="pytest11"))
    return [] if installed else ["-p", "opsdk.testing.pytest_plugin"]


def _pytest(tmp_path, *args):
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if cudasim.active():  # cli_verdicts runs in this process: the child must see the same CUDA
        env["OPSDK_CUDA_SIM"] = "1"
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", *_plugin_args(),
                           "--rootdir", str(tmp_path), *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


def _plugin_outcomes(tmp_path, *args):
    """A child pytest over the fixture packs: (outcome per test name, stdout)."""
    (tmp_path / "test_packs.py").write_text(TEST_MODULE.format(tests=TESTS))
    proc = _pytest(tmp_path, "-q", "--junitxml", str(tmp_path / "out.xml"), *args, "test_packs.py")
    outcomes = {}
    for case in ET.parse(tmp_path / "out.xml").getroot().iter("testcase"):
        kinds = {child.tag for child in case}
        outcomes[case.get("name")] = ("failed" if kinds & {"failure", "error"} else
                                      "skipped" if "skipped" in kinds else "passed")
    return outcomes, proc.stdout


@pytest.fixture(scope="module")
def plugin_run(tmp_path_factory, cache_dir):
    """Every case of the fixture packs through the plugin (a quarter of a minute)."""
    return _plugin_outcomes(tmp_path_factory.mktemp("plugin"))


@pytest.fixture(scope="module")
def plugin_sample(tmp_path_factory, cache_dir):
    """The cases the default suite reads, selected with -k as a user would (seconds)."""
    return _plugin_outcomes(tmp_path_factory.mktemp("plugin_sample"), "-k",
                            "ordinary or brokenpack or badpack.cube_f32_drift[c-float32-forward] "
                            "or goodpack.cube[c-float32-gradcheck]")


@pytest.fixture(scope="module")
def cli_verdicts(cache_dir):
    """`opsdk check` verdicts over the same packs, in this process, as pytest outcomes."""
    from fixtures.packs import registered
    from opsdk.verification.check import plan_cases, run_checks, select_ops

    with registered("good_pack", "goodpack"), registered("bad_pack", "badpack"), \
            registered("broken_pack", "brokenpack"):
        ops, failures = select_ops(packs=["goodpack", "badpack", "brokenpack"])
        results = run_checks(plan_cases(ops), failures)
    outcome = {"pass": "passed", "skip": "skipped", "n/a": "skipped"}
    return {(f"{r.op}[load]" if r.check == "load" else r.case_id): outcome.get(r.status, "failed")
            for r in results}


@pytest.mark.slow  # the fixture packs checked again in this process (a minute): -m slow
def test_plugin_gives_the_same_verdict_as_opsdk_check_for_every_case(plugin_run, cli_verdicts):
    outcomes, stdout = plugin_run
    from_plugin = {name: o for name, o in outcomes.items() if name != "test_an_ordinary_test_still_runs"}
    assert from_plugin == cli_verdicts, stdout[-3000:]


def test_ids_read_pack_op_backend_dtype_check(plugin_sample):
    outcomes, _ = plugin_sample
    assert outcomes["goodpack.cube[c-float32-gradcheck]"] == "passed"
    assert outcomes["badpack.cube_f32_drift[c-float32-forward]"] == "failed"
    assert outcomes["brokenpack[load]"] == "failed"


def test_ordinary_tests_beside_a_declaration_still_run(plugin_sample):
    outcomes, _ = plugin_sample
    assert outcomes["test_an_ordinary_test_still_runs"] == "passed"


def test_failure_shows_the_check_report(plugin_sample):
    _, stdout = plugin_sample
    assert "FAIL badpack.cube_f32_drift[c-float32-forward]" in stdout
    assert "forward on c (float32) disagrees with python in float64" in stdout


def test_importing_the_plugin_loads_no_pack_and_no_compiler_machinery():
    code = textwrap.dedent("""
        import sys
        import opsdk.testing.pytest_plugin
        heavy = [m for m in ("opsdk.packs.loading", "opsdk.verification.check", "opsdk.kernels", "cffi", "cupy", "pluggy")
                 if m in sys.modules]
        print(heavy)
    """)
    env = dict(os.environ, PYTHONPATH=REPO)
    env.pop("OPSDK_CUDA_SIM", None)  # the import as users get it, whatever this suite runs under
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_memory_budget_that_means_nothing_is_a_usage_error(tmp_path, cache_dir):
    (tmp_path / "test_plain.py").write_text("def test_one():\n    assert True\n")
    proc = _pytest(tmp_path, "-q", "--opsdk-max-memory", "lots", "test_plain.py")
    assert proc.returncode == 4
    assert "--opsdk-max-memory: expected: a size such as 4G" in proc.stderr


def test_the_memory_budget_reaches_the_checks(tmp_path, cache_dir):
    (tmp_path / "test_budget.py").write_text(
        "from opsdk.verification.check import memory\n\n"
        "def test_budget():\n    assert memory.budget() == 512 << 20\n")
    proc = _pytest(tmp_path, "-q", "--opsdk-max-memory", "512M", "test_budget.py")
    assert proc.returncode == 0, proc.stdout


def test_suite_without_declarations_is_untouched(tmp_path, cache_dir):
    (tmp_path / "test_plain.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
    proc = _pytest(tmp_path, "-q", "test_plain.py")
    assert proc.returncode == 0 and "1 passed" in proc.stdout
