"""Finding the C compiler, memoising its identity, reading its first error."""

import os
import stat

import pytest

from opsdk.kernels import compiler
from opsdk.kernels.compiler import compiler_identity, compiler_info, find_compiler, first_error


def _fake_cc(folder, version="fake-cc 1.0"):
    path = folder / "fake-cc"
    path.write_text(f'#!/bin/sh\necho "{version}"\n')
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_cc_variable_chooses_the_compiler_and_keeps_its_flags(monkeypatch, tmp_path):
    cc = _fake_cc(tmp_path)
    monkeypatch.setenv("CC", f"{cc} -m64")
    assert find_compiler() == [str(cc), "-m64"]


def test_no_compiler_on_path_is_reported_with_a_reason(cache, no_compiler):
    info = compiler_info()
    assert not info.available
    assert "no C compiler found" in info.reason and "set CC" in info.reason


def test_compiler_info_reports_path_and_version(monkeypatch, tmp_path):
    cc = _fake_cc(tmp_path, "fake-cc 9.9")
    monkeypatch.setenv("CC", str(cc))
    info = compiler_info()
    assert info.available and info.path == str(cc) and info.version == "fake-cc 9.9"


def test_identity_is_memoised_on_disk_for_later_processes(cache, monkeypatch, tmp_path):
    cc = _fake_cc(tmp_path)
    first = compiler_identity([str(cc)])
    monkeypatch.setattr(compiler, "_identities", {})  # a later process: nothing in memory
    monkeypatch.setattr(compiler, "_version_text", lambda command: pytest.fail("ran the compiler again"))
    assert compiler_identity([str(cc)]) == first


def test_identity_changes_when_the_compiler_binary_changes(cache, tmp_path):
    cc = _fake_cc(tmp_path, "fake-cc 1.0")
    before = compiler_identity([str(cc)])
    _fake_cc(tmp_path, "fake-cc 2.0 (upgraded)")
    os.utime(cc, ns=(1, 1))  # a different mtime even on coarse-timestamp filesystems
    assert compiler_identity([str(cc)]) != before
    assert "fake-cc 2.0" in compiler_identity([str(cc)])


def test_first_error_is_the_first_file_line_error():
    log = "x.c: In function 'f':\nx.c:4:47: error: expected ';'\nx.c:9:1: error: later\n"
    assert first_error(log) == "x.c:4:47: error: expected ';'"


def test_first_error_falls_back_to_a_line_that_mentions_error():
    assert first_error("ld: something\ncollect2: error: ld returned 1\n") == "collect2: error: ld returned 1"


def test_cc_with_an_unterminated_quote_is_a_setting_error_naming_cc(monkeypatch):
    from opsdk.errors import CompilerSettingError

    monkeypatch.setenv("CC", "'unterminated")
    with pytest.raises(CompilerSettingError) as caught:
        find_compiler()
    message = str(caught.value)
    assert "\n" not in message and message.startswith("$CC is not a command line: \"'unterminated\"")
    assert not compiler_info().available and "$CC" in compiler_info().reason


def test_the_compiler_keeps_its_temporary_files_in_the_build_directory(tmp_path):
    # gcc puts cc*.s and cc*.o in $TMPDIR: a killed compile would leave them in /tmp
    script = tmp_path / "print-tmpdir"
    script.write_text('#!/bin/sh\necho "TMPDIR=$TMPDIR"\n')
    script.chmod(0o755)
    build = tmp_path / "build"
    build.mkdir()
    assert compiler.run_logged([str(script)], str(build), str(tmp_path / "log")) == 0
    assert f"TMPDIR={build}\n" in (tmp_path / "log").read_text()
