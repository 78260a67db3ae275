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
