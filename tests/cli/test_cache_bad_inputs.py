"""Every row of docs/cli.md's table of bad cache and compiler settings: its exit status and its
message, no traceback.

As for the main table: each test runs one row and hands what it got to ``expect(row, ...)``,
which reads the wanted exit status and message from the table (tests/helpers/doc_tables.py); the
last test checks that every row has its test here.
"""
import os
import signal
import stat
import time
import warnings
from pathlib import Path

import numpy
import pytest

from helpers.doc_tables import expect_row, table_rows
from opsdk import writable
from opsdk.kernels import kernel as kernel_module

from .conftest import GOOD_C, make_kernel

ROWS = table_rows("cli.md", "cache-bad-inputs")


def expect(row, exit_code, output):
    """Assert that a row's input gave the documented exit status and message, and no traceback."""
    expect_row(ROWS, row, exit_code, output)


@pytest.fixture(autouse=True)
def _no_earlier_warnings(monkeypatch):
    """Each cause of an unusable cache is warned about once per process: here, once per test."""
    monkeypatch.setattr(kernel_module, "_cache_warnings", set())


def _call_op(name):
    """(exit status 0, the OpsdkWarnings) of calling a C kernel not built yet (its source is new),
    whose result must be right."""
    from opsdk.errors import OpsdkWarning

    kernel = make_kernel(name, c_code=f"/* {name} */\n{GOOD_C}", cuda=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        numpy.testing.assert_array_equal(kernel(numpy.ones(2)), [2.0, 2.0])
    return 0, "\n".join(str(w.message) for w in caught if issubclass(w.category, OpsdkWarning))


def test_build_with_an_unterminated_quote_in_cc(invoke, monkeypatch, in_test_pack):
    pack = in_test_pack(cuda=False)
    monkeypatch.setenv("CC", "'unterminated")
    result = invoke("build", "--pack", pack)
    assert result.stderr.count("\n") == 1  # one line
    expect("""`CC="'unterminated" opsdk build`""", result.exit_code, result.output)


def test_doctor_with_an_unterminated_quote_in_cc(invoke, monkeypatch):
    monkeypatch.setenv("CC", "'unterminated")
    result = invoke("doctor")
    expect("""`CC="'unterminated" opsdk doctor`""", result.exit_code, result.output)


def test_op_with_an_unterminated_quote_in_cc(monkeypatch):
    monkeypatch.setenv("CC", "'unterminated")
    expect("""an op called with `CC="'unterminated"`""", *_call_op("ccquote.twice"))


def _hanging_cc(tmp_path, flag):
    """A CC that, while flag exists, makes a temporary file as gcc does (cc*.s in $TMPDIR), says
    where, and hangs; otherwise it is gcc."""
    script = tmp_path / "hanging-cc"
    script.write_text(
        "#!/bin/sh\n"
        'case "$1" in --version) exec gcc --version;; esac\n'
        f'if [ -e "{flag}" ]; then t=$(mktemp "${{TMPDIR:-/tmp}}/ccXXXXXX.s"); '
        f'echo "$t" > "{tmp_path}/made.tmp" && mv "{tmp_path}/made.tmp" "{tmp_path}/made"; sleep 60; fi\n'
        'exec gcc "$@"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


@pytest.mark.skipif(os.name != "posix", reason="kills a child process with SIGKILL")
def test_a_compile_killed_midway_leaves_its_temporaries_in_the_build_dir(tmp_path):
    from kernels.sample import child_env, finish, spawn_build

    cache, outer_tmp, flag = tmp_path / "cache", tmp_path / "tmp", tmp_path / "hang"
    outer_tmp.mkdir()
    flag.touch()
    env = child_env(CC=_hanging_cc(tmp_path, flag), OPSDK_CACHE_DIR=str(cache), TMPDIR=str(outer_tmp))
    victim = spawn_build(env)
    deadline = time.monotonic() + 60
    while not (tmp_path / "made").exists():
        assert victim.poll() is None and time.monotonic() < deadline, victim.stderr.read()
        time.sleep(0.02)
    made = (tmp_path / "made").read_text().strip()
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    assert made.startswith(str(cache / "c")) and ".tmp-" in made  # in the build dir, not in $TMPDIR
    flag.unlink()
    finish(spawn_build(env))
    leftovers = [os.path.join(d, f) for d, _, files in os.walk(tmp_path) for f in files if f.startswith("cc")]
    assert not os.path.exists(made) and leftovers == [] and os.listdir(outer_tmp) == []
    log = (cache / "builds.log").read_text()
    expect("a compile killed midway, then the next build", 0, log)


@pytest.fixture
def full_filesystem(tmp_path, monkeypatch):
    """The cache's filesystem is full: statvfs says no space left (and, as on a real full disk,
    the write probe may fail too)."""
    make_kernel("fullfs.warmup", cuda=False).build_c()  # the cache exists, with one build
    real = os.statvfs
    cache = str(tmp_path / "cache")

    def statvfs(path):
        found = real(path)
        if not os.path.abspath(path).startswith(cache):
            return found
        fields = list(found)
        fields[3] = fields[4] = 0  # f_bfree, f_bavail
        return os.statvfs_result(fields)

    monkeypatch.setattr(os, "statvfs", statvfs)
    return cache


def test_cache_info_on_a_full_filesystem(invoke, full_filesystem):
    result = invoke("cache", "info")
    expect("`opsdk cache info`, the cache on a full filesystem", result.exit_code, result.output)
    assert "writable directory" not in result.output  # it is writable; it is full


def test_doctor_on_a_full_filesystem(invoke, full_filesystem):
    result = invoke("doctor")
    expect("`opsdk doctor`, the cache on a full filesystem", result.exit_code, result.output)


def test_op_on_a_full_filesystem(full_filesystem, monkeypatch):
    monkeypatch.setattr(writable, "can_create_in", lambda folder: False)  # ENOSPC, as for real
    expect("an op called, the cache on a full filesystem", *_call_op("fullfs.twice"))


def _fake_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("PRIVATE KEY")
    (home / "notes.txt").write_text("notes")
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(home))
    return home


def test_clear_of_a_home_directory(invoke, tmp_path, monkeypatch):
    home = _fake_home(tmp_path, monkeypatch)
    result = invoke("cache", "clear")
    expect("`OPSDK_CACHE_DIR=$HOME opsdk cache clear`", result.exit_code, result.output)
    assert (home / ".ssh" / "id_rsa").read_text() == "PRIVATE KEY"


def test_info_of_a_home_directory(invoke, tmp_path, monkeypatch):
    _fake_home(tmp_path, monkeypatch)
    result = invoke("cache", "info")
    expect("`OPSDK_CACHE_DIR=$HOME opsdk cache info`", result.exit_code, result.output)


def test_doctor_with_a_cache_others_can_write(invoke, tmp_path):
    make_kernel("loose.warmup", cuda=False).build_c()
    os.chmod(tmp_path / "cache", 0o777)
    result = invoke("doctor")
    expect("`opsdk doctor`, the cache writable by others (mode 0777)", result.exit_code, result.output)


def test_op_with_a_cache_others_can_write(tmp_path):
    make_kernel("loose.warmup2", cuda=False).build_c()
    os.chmod(tmp_path / "cache", 0o777)
    expect("an op called, the cache writable by others (mode 0777)", *_call_op("loose.twice"))


def test_every_row_of_the_table_has_its_test():
    source = Path(__file__).read_text(encoding="utf-8")
    untested = [row for row in ROWS if row not in source]
    assert not untested
    assert len(ROWS) >= 11
