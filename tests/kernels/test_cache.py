"""The cache directory: where it is, what it holds, clearing it, verifying entries."""

import os

import platformdirs

from opsdk.kernels import build_c, cache_dir, cache_info, clear_cache
from opsdk.kernels.entries import read_entry, write_manifest

from .sample import scale_source


def test_cache_dir_honours_opsdk_cache_dir(cache):
    assert cache_dir() == cache


def test_cache_dir_defaults_to_the_user_cache(monkeypatch):
    monkeypatch.delenv("OPSDK_CACHE_DIR", raising=False)
    assert cache_dir() == platformdirs.user_cache_dir("opsdk", appauthor=False)


def test_cache_dir_docs_suggest_no_fixed_name_under_tmp():
    # another user can make /tmp/<fixed name> first: the cache would then be refused
    assert "/tmp/" not in cache_dir.__doc__


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
    entry.mkdir(mode=0o700)
    (entry / "mod.so").write_bytes(payload)
    write_manifest(str(entry), "mod.so")
    return entry


def test_entry_matching_its_manifest_gives_its_bytes(tmp_path):
    entry = _entry(tmp_path)
    found = read_entry(str(entry))
    assert (found.name, found.data) == ("mod.so", b"\x7fELF fake extension")


def test_manifest_seals_the_build_against_group_and_others(tmp_path):
    entry = _entry(tmp_path)
    os.chmod(entry / "mod.so", 0o777)  # as a compiler under umask 000 leaves it
    write_manifest(str(entry), "mod.so")
    assert not any(os.stat(entry / name).st_mode & 0o022 for name in ("mod.so", "MANIFEST"))


def test_truncated_entry_fails_verification(tmp_path):
    entry = _entry(tmp_path)
    (entry / "mod.so").write_bytes(b"\x7fELF")
    assert read_entry(str(entry)) is None


def test_altered_entry_of_same_size_fails_verification(tmp_path):
    entry = _entry(tmp_path, b"abcd")
    (entry / "mod.so").write_bytes(b"abce")
    assert read_entry(str(entry)) is None


def test_entry_with_garbled_manifest_fails_verification(tmp_path):
    entry = _entry(tmp_path)
    (entry / "MANIFEST").write_text("nonsense")
    assert read_entry(str(entry)) is None


def test_manifest_naming_a_file_outside_its_entry_is_refused(tmp_path):
    entry = _entry(tmp_path)
    (tmp_path / "outside.so").write_bytes(b"x")
    text = (entry / "MANIFEST").read_text().replace("so mod.so", "so ../outside.so")
    (entry / "MANIFEST").write_text(text)
    assert read_entry(str(entry)) is None
