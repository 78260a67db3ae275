"""One build in the cache: its private copy to load, and removing what sits at its name."""
import os

import pytest

from opsdk.errors import CacheUntrustedError
from opsdk.kernels import entries, trust
from opsdk.kernels.entries import discard_entry, verified_extension, write_manifest


def _entry(cache, payload=b"\x7fELF v1"):
    entry = os.path.join(cache, "cudasim", "0123456789abcdef0123456789abcdef")
    os.makedirs(entry, 0o700, exist_ok=True)
    with open(os.path.join(entry, "module.so"), "wb") as f:
        f.write(payload)
    write_manifest(entry, "module.so")
    os.chmod(cache, 0o700)
    os.chmod(os.path.dirname(entry), 0o700)
    return entry


def test_one_build_gets_one_private_copy_per_process(cache):
    # the simulator keeps loaded libraries by path: the same build must not load twice
    entry = _entry(cache)
    first = verified_extension(entry)
    assert verified_extension(entry) == first and first != os.path.join(entry, "module.so")
    with open(first, "rb") as f:
        assert f.read() == b"\x7fELF v1"


def test_a_rebuilt_entry_gets_a_new_copy(cache):
    entry = _entry(cache)
    first = verified_extension(entry)
    _entry(cache, b"\x7fELF v2")
    second = verified_extension(entry)
    assert second != first
    with open(second, "rb") as f:
        assert f.read() == b"\x7fELF v2"


def test_an_untrusted_entry_gives_no_copy(cache, monkeypatch):
    entry = _entry(cache)
    monkeypatch.setattr(trust, "_owner", lambda st: 4242)
    monkeypatch.setattr(entries, "_copies", {})
    assert verified_extension(entry) is None


def test_discarding_a_link_removes_the_link_only(tmp_path):
    (tmp_path / "target").mkdir()
    (tmp_path / "target" / "kept").write_text("x")
    os.symlink(tmp_path / "target", tmp_path / "entry")
    discard_entry(str(tmp_path / "entry"))
    assert not os.path.lexists(tmp_path / "entry") and (tmp_path / "target" / "kept").exists()


def test_an_entry_that_cannot_be_removed_says_so(tmp_path, monkeypatch):
    (tmp_path / "entry").mkdir()
    monkeypatch.setattr("shutil.rmtree", lambda *a, **k: None)  # as for another user's entry
    with pytest.raises(CacheUntrustedError, match="cannot be removed"):
        discard_entry(str(tmp_path / "entry"))
