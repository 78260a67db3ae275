"""`opsdk check -j`: ops checked in forked processes give the single process's results, in its
order; an op that ends its process costs its own checks only (named, with where it ended), and
Ctrl-C still exits 130. Run as the real command: the processes are forked by it."""
import json
import subprocess
import sys

import pytest

from fixtures.hostile_packs import command_env, interrupted, line_of

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="ops are checked in forked processes on Linux only")

BOTH = ("ends_in_op.twice", "ends_in_op.thrice", "--check", "gradcheck", "--check", "isolation",
        "--backend", "python", "--dtype", "float64", "--no-progress")


@pytest.fixture
def site(ends_in_op_site):
    return ends_in_op_site


def _env(site, how, **extra):
    return command_env(site, "ends_in_op", HOSTILE_HOW=how, **extra)


def _check(site, how, *args):
    return subprocess.run([sys.executable, "-m", "opsdk.cli", "check", *args], env=_env(site, how),
                          capture_output=True, text=True, timeout=300)


def _rows(done):
    return [(r["op"], r["check"], r["status"]) for r in json.loads(done.stdout)["results"]]


def test_two_processes_give_the_results_of_one_in_its_order(site):
    one = _check(site, "none", *BOTH, "--json", "-j", "1")
    two = _check(site, "none", *BOTH, "--json", "-j", "2")
    assert one.returncode == two.returncode == 0, (one.stderr, two.stderr)
    assert [r for _, _, r in _rows(two)] == ["pass"] * 4

    def timeless(done):  # every field of every result but how long it took
        return [{k: v for k, v in r.items() if k != "seconds"} for r in json.loads(done.stdout)["results"]]

    assert timeless(two) == timeless(one)


def test_a_segfault_fails_its_case_names_the_line_and_spares_the_other_op(site):
    done = _check(site, "segfault", *BOTH, "--json", "-j", "2")
    assert done.returncode == 1
    rows = _rows(done)
    assert rows == [("ends_in_op.twice", "gradcheck", "error"), ("ends_in_op.twice", "isolation", "blocked"),
                    ("ends_in_op.thrice", "gradcheck", "pass"), ("ends_in_op.thrice", "isolation", "pass")]
    crashed = json.loads(done.stdout)["results"][0]
    assert "killed by signal SIGSEGV (a crash in native code)" in crashed["detail"]
    line = line_of("ends_in_op", "ctypes.string_at(0)")
    assert f'hostile_ends_in_op.py", line {line} in forward' in crashed["detail"]
    assert "replay: opsdk check ends_in_op.twice --backend python --dtype float64 --check gradcheck" \
        in crashed["detail"]


@pytest.mark.parametrize("how, said", [("os_exit", "exit status 0 (os._exit(), or native code"),
                                       ("sys_exit", "called sys.exit(0)")])
def test_an_op_ending_its_process_fails_the_run_with_a_summary(site, how, said):
    done = _check(site, how, *BOTH, "-j", "2")
    assert done.returncode == 1
    assert said in done.stdout
    assert done.stdout.splitlines()[-1].startswith("FAILED: 2 ops: 2 passed, 0 failed, 1 error")


def test_ctrl_c_with_two_processes_exits_130(site, tmp_path):
    started = tmp_path / "started"
    code, _, err = interrupted(("check", *BOTH, "-j", "2"),
                               _env(site, "sleep", HOSTILE_STARTED=str(started)), started)
    assert code == 130
    assert "Interrupted." in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_a_bad_number_of_processes_is_a_usage_error(site, value):
    done = _check(site, "none", *BOTH, "-j", value)
    assert done.returncode == 2
    assert f"expected a whole number of processes >= 1, or auto; got '{value}'" in done.stderr
