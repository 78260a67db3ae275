"""``opsdk cache info|clear``: the C kernel cache's place, size, and clearing it."""
import json

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
