"""`opsdk check` of an op whose code ends the process: never status 0 without the summary, the op
named; Ctrl-C ends it with 130. Run as the real command (its watching parent is what is tested),
but for --framework, whose failed packs are named in-process."""
import subprocess
import sys

import pytest

from fixtures.hostile_packs import command_env, interrupted, line_of

watched = pytest.mark.skipif(not sys.platform.startswith("linux"),
                             reason="the check runs in a watched worker (fork) on Linux only")

CHECK = ("check", "ends_in_op.twice", "--check", "gradcheck", "--backend", "python", "--dtype",
         "float64", "--no-progress")


@pytest.fixture
def site(ends_in_op_site):
    return ends_in_op_site


def _env(site, how, **extra):
    return command_env(site, "ends_in_op", HOSTILE_HOW=how, **extra)


def _check(site, how):
    return subprocess.run([sys.executable, "-m", "opsdk.cli", *CHECK], env=_env(site, how),
                          capture_output=True, text=True, timeout=300)


@pytest.mark.torch
def test_framework_check_fails_for_a_selected_pack_that_did_not_load(invoke, in_test_pack):
    pack = in_test_pack(fail=True)
    result = invoke("check", "--framework", "torch", "--pack", pack)
    assert result.exit_code == 1
    assert f"FAIL pack {pack} failed to load: pack '{pack}'" in result.stderr


@watched
def test_the_op_passes_when_it_behaves(site):
    done = _check(site, "none")
    assert done.returncode == 0 and done.stdout.splitlines()[-1].startswith("OK: 1 op: 1 passed")


@watched
def test_an_op_calling_os_exit_0_fails_the_run_and_is_named(site):
    done = _check(site, "os_exit")
    assert done.returncode == 1 and done.stdout == ""
    assert ("Error: the command ended abnormally: exit status 0 (os._exit(), or native code "
            "calling exit()) while checking op ends_in_op.twice; no summary was printed") in done.stderr


@watched
def test_an_op_calling_sys_exit_0_fails_the_run_and_is_named(site):
    done = _check(site, "sys_exit")
    assert done.returncode == 1
    assert ("Error: the command exited with status 0 before printing its summary while checking "
            "op ends_in_op.twice") in done.stderr


@watched
def test_an_op_that_segfaults_fails_the_run_with_the_line_it_crashed_at(site):
    done = _check(site, "segfault")
    assert done.returncode == 1
    assert "killed by signal SIGSEGV (a crash in native code) while checking op ends_in_op.twice" \
        in done.stderr
    line = line_of("ends_in_op", "ctypes.string_at(0)")
    assert f'hostile_ends_in_op.py", line {line} in forward' in done.stderr


@watched
def test_ctrl_c_during_check_exits_130_not_aborted(site, tmp_path):
    started = tmp_path / "started"
    code, _, err = interrupted(CHECK, _env(site, "sleep", HOSTILE_STARTED=str(started)), started)
    assert code == 130
    assert "Interrupted." in err and "Aborted!" not in err and "Traceback" not in err
