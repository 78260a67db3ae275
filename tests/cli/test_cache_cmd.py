"""``opsdk cache info|clear``: the C kernel cache's place, size, and clearing it."""
import json
import os

import numpy
import pytest

from .conftest import make_kernel


def test_info_of_an_empty_cache(invoke, tmp_path):
    result = invoke("cache", "info")
    assert result.exit_code == 0
    assert f"path:    {tmp_path / 'cache'}" in result.stdout
    assert "builds:  0" in result.stdout


def test_info_counts_a_built_kernel(invoke):
    make_kernel("clicache.twice").build_c()
    data = json.loads(invoke("cache", "info", "--json").stdout)
    assert data["entries"] == 1 and data["bytes"] > 0


def test_clear_removes_every_build(invoke):
    make_kernel("clicache.twice").build_c()
    result = invoke("cache", "clear")
    assert result.exit_code == 0
    assert "Removed 1 build(s)" in result.stdout
    assert json.loads(invoke("cache", "info", "--json").stdout)["entries"] == 0


def test_info_of_a_cache_that_is_a_file_exits_1_saying_why(invoke, tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(tmp_path / "file"))
    result = invoke("cache", "info")
    assert result.exit_code == 1
    assert f"Error: the kernel cache {tmp_path / 'file'} is not a directory" in result.stderr
    assert "OPSDK_CACHE_DIR" in result.stderr and "Traceback" not in result.output
    data = json.loads(invoke("cache", "info", "--json").stdout)
    assert data["ok"] is False and "not a directory" in data["problem"]


def test_info_of_a_read_only_cache_exits_1(invoke, tmp_path, read_only):
    read_only(tmp_path)
    result = invoke("cache", "info")
    assert result.exit_code == 1
    assert "not writable" in result.stderr


def test_clear_of_an_unusable_cache_exits_1_in_one_line(invoke, tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(tmp_path / "file"))
    result = invoke("cache", "clear")
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "cannot clear" in result.stderr


def _fake_home(tmp_path):
    """A directory a mistyped OPSDK_CACHE_DIR could name: keys, documents, a link pointing out."""
    home, outside = tmp_path / "home", tmp_path / "outside"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("PRIVATE KEY")
    (home / "Documents").mkdir()
    (home / "Documents" / "x").write_text("a document")
    (home / "notes.txt").write_text("notes")
    outside.mkdir()
    (outside / "kept").write_text("outside the home")
    (home / "link").symlink_to(outside)
    os.chmod(home, 0o700)
    return home


def _snapshot(*roots):
    """{path: content or link target} of everything under roots, links not followed."""
    found = {}
    for root in roots:
        for folder, dirs, files in os.walk(root):
            for name in dirs + files:
                path = os.path.join(folder, name)
                if os.path.islink(path):
                    found[path] = "-> " + os.readlink(path)
                elif os.path.isfile(path):
                    with open(path, encoding="utf-8") as f:
                        found[path] = f.read()
                else:
                    found[path] = "dir"
    return found


def test_a_fake_home_as_cache_survives_every_cache_command(invoke, tmp_path, monkeypatch, in_test_pack):
    home = _fake_home(tmp_path)
    before = _snapshot(home, tmp_path / "outside")
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(home))
    pack = in_test_pack(cuda=False)
    outcomes = {
        "cache info": invoke("cache", "info").exit_code,
        "cache clear": invoke("cache", "clear").exit_code,
        "build": invoke("build", "--pack", pack).exit_code,
        "check": invoke("check", "--pack", pack, "--no-progress").exit_code,
        "doctor": invoke("doctor").exit_code,
    }
    with pytest.warns(UserWarning, match="is not opsdk's"):
        numpy.testing.assert_array_equal(make_kernel("homecache.twice")(numpy.ones(2)), [2.0, 2.0])
    assert outcomes == {"cache info": 2, "cache clear": 2, "build": 2, "check": 0, "doctor": 1}
    assert _snapshot(home, tmp_path / "outside") == before  # nothing removed, changed or added


def test_info_and_clear_of_a_directory_that_is_not_opsdks_exit_2_naming_what_it_holds(invoke, tmp_path,
                                                                                      monkeypatch):
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(_fake_home(tmp_path)))
    for args in (("cache", "info"), ("cache", "clear")):
        result = invoke(*args)
        assert result.exit_code == 2
        (line,) = result.stderr.splitlines()
        assert f"{tmp_path / 'home'} is not opsdk's" in line and ".ssh, Documents, link, notes.txt" in line
    data = json.loads(invoke("cache", "info", "--json").stdout)
    assert data["kind"] == "not-ours" and data["entries"] == 0 and data["bytes"] == 0


def test_a_cache_others_can_write_is_refused_by_info_and_doctor(invoke, tmp_path):
    make_kernel("cliloose.twice").build_c()
    os.chmod(tmp_path / "cache", 0o777)
    result = invoke("cache", "info")
    assert result.exit_code == 1 and "writable by group and others" in result.stderr
    assert invoke("doctor").exit_code == 1
    assert invoke("cache", "clear").exit_code == 1  # refused: others could have planted links there
