"""The cache directory: where it is, what it holds, clearing it, verifying entries."""

import os

import platformdirs

from opsdk.kernels import build_c, cache_dir, cache_info, clear_cache
from opsdk.kernels.cache import verified_extension, write_manifest

from .sample import scale_source


def test_cache_dir_honours_opsdk_cache_dir(cache):
    assert cache_dir() == cache


def test_cache_dir_defaults_to_the_user_cache(monkeypatch):
    monkeypatch.delenv("OPSDK_CACHE_DIR", raising=False)
    assert cache_dir() == platformdirs.user_cache_dir("opsdk", appauthor=False)


def test_cache_info_counts_entries_and_bytes(cache):
    assert cache_info().entries == 0
    build_c(scale_source())
    info = cache_info()
    assert info.path == cache and info.entries == 1 and info.total_bytes > 1000


def test_clear_cache_removes_every_entry(cache):
    build_c(scale_source())
    assert clear_cache() == 1
    assert cache_info() == (cache, 0, 0)


def _entry(tmp_path, payload=b"\x7fELF fake extension"):
    entry = tmp_path / "entry"
    entry.mkdir()
    (entry / "mod.so").write_bytes(payload)
    write_manifest(str(entry), "mod.so")
    return entry


def test_entry_matching_its_manifest_is_verified(tmp_path):
    entry = _entry(tmp_path)
    assert verified_extension(str(entry)) == os.path.join(str(entry), "mod.so")


def test_truncated_entry_fails_verification(tmp_path):
    entry = _entry(tmp_path)
    (entry / "mod.so").write_bytes(b"\x7fELF")
    assert verified_extension(str(entry)) is None


def test_altered_entry_of_same_size_fails_verification(tmp_path):
    entry = _entry(tmp_path, b"abcd")
    (entry / "mod.so").write_bytes(b"abce")
    assert verified_extension(str(entry)) is None


def test_entry_with_garbled_manifest_fails_verification(tmp_path):
    entry = _entry(tmp_path)
    (entry / "MANIFEST").write_text("nonsense")
    assert verified_extension(str(entry)) is None
