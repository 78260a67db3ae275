"""Packs that hang, exit, crash or patch opsdk at import, installed next to a good one, through the
real `opsdk` command: each is named with what it did, the good pack is still listed and checked,
and `opsdk check` never ends green without its summary."""
import os
import subprocess
import sys

import pytest

from fixtures.hostile_packs import install, line_of

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="packs are isolated with fork, on Linux only")

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
HOSTILE = ("hangs", "exits", "crashes", "patches_opsdk")
QUICK_CHECK = ("--check", "gradcheck", "--backend", "python", "--dtype", "float64", "--no-progress")


@pytest.fixture(scope="module")
def opsdk_cmd(tmp_path_factory):
    """``opsdk_cmd(*args, packs=...)``: run the `opsdk` command with the hostile packs and the
    bystander installed (OPSDK_LOAD_PLUGINS limits it to ``packs``); its CompletedProcess."""
    site = tmp_path_factory.mktemp("site")
    install(site, *HOSTILE, "bystander")

    def run(*args, packs=(*HOSTILE, "bystander")):
        env = dict(os.environ, OPSDK_LOAD_PLUGINS=",".join(packs), OPSDK_PLUGIN_TIMEOUT="0.5",
                   PYTHONPATH=os.pathsep.join([REPO, str(site), os.environ.get("PYTHONPATH", "")]))
        return subprocess.run([sys.executable, "-m", "opsdk.cli", *args], env=env, cwd=site,
                              capture_output=True, text=True, timeout=300)

    return run


def _failed_line(output, pack):
    (line,) = [line for line in output.splitlines() if line.startswith(f"  {pack} (hostile-")]
    return line


def test_list_names_each_pack_with_what_it_did_and_lists_the_good_one(opsdk_cmd):
    done = opsdk_cmd("list")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "bystander.gate" in out and "Failed packs (4):" in out
    assert "PluginTimeoutError: pack 'hangs' did not finish loading (at import) within 0.5 s" \
        in _failed_line(out, "hangs")
    assert "PluginCrashError: pack 'exits' ended the process while loading (at import): exit " \
           "status 0" in _failed_line(out, "exits")
    assert "killed by signal SIGSEGV" in _failed_line(out, "crashes")
    assert "PluginTamperError: pack 'patches_opsdk' replaced opsdk's own names at import: " \
           "opsdk.autograd.grad" in _failed_line(out, "patches_opsdk")


def test_doctor_shows_where_the_hanging_pack_waits(opsdk_cmd):
    done = opsdk_cmd("doctor", "--verbose")
    assert done.returncode == 1
    assert "error  pack hangs" in done.stdout and "error  pack crashes" in done.stdout
    assert f"hostile_hangs.py\", line {line_of('hangs', 'recv')} in <module>" in done.stdout
    assert f"hostile_crashes.py\", line {line_of('crashes', 'string_at')} in <module>" in done.stdout


def test_check_of_the_good_pack_passes_next_to_the_hostile_ones(opsdk_cmd):
    done = opsdk_cmd("check", "--pack", "bystander", *QUICK_CHECK)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("OK: 1 op: 1 passed, 0 failed")


def test_check_of_every_pack_fails_naming_the_hostile_ones(opsdk_cmd):
    done = opsdk_cmd("check", *QUICK_CHECK)
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1].startswith("FAILED: 2 ops: 2 passed, 4 failed")
    assert done.stdout.splitlines()[-1].endswith(" s") and "4 packs failed to load" in done.stdout
    assert all(f"FAIL pack {pack} failed to load" in done.stdout for pack in HOSTILE)


def test_a_pack_that_exits_at_import_no_longer_makes_check_a_silent_success(opsdk_cmd):
    done = opsdk_cmd("check", *QUICK_CHECK, packs=("exits",))
    assert done.returncode == 1
    assert "FAIL pack exits failed to load" in done.stdout
    assert done.stdout.splitlines()[-1].startswith("FAILED: ")


def test_build_goes_on_without_the_hostile_packs_and_names_them(opsdk_cmd):
    done = opsdk_cmd("build")
    assert done.returncode == 0, done.stderr
    assert "4 pack(s) failed to load and were not built: " in done.stderr
    assert all(pack in done.stderr.splitlines()[-1] for pack in HOSTILE)
