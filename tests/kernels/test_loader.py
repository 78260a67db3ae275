"""Loading a compiled extension: from a private copy of the bytes that were checked."""

import os
import stat

from opsdk.kernels import build_c, loader
from opsdk.kernels.entries import read_entry
from opsdk.kernels.loader import load_extension, load_verified, private_copy

from .sample import scale_source


def _entry(cache):
    c_dir = os.path.join(cache, "c")
    (entry,) = [e for e in os.listdir(c_dir) if os.path.isdir(os.path.join(c_dir, e))]
    return os.path.join(c_dir, entry)


def test_extension_loads_from_its_path_with_lib_and_ffi(cache):
    build_c(scale_source())
    entry = _entry(cache)
    (so_name,) = [n for n in os.listdir(entry) if n.endswith(".so")]
    lib, ffi = load_extension(so_name.split(".")[0], os.path.join(entry, so_name))
    assert hasattr(lib, "scale_f64") and ffi.sizeof("double") == 8


def test_checked_bytes_load_from_a_private_copy_removed_once_loaded(cache, monkeypatch):
    build_c(scale_source())
    found = read_entry(_entry(cache))
    copies = []
    real = loader.load_extension
    monkeypatch.setattr(loader, "load_extension", lambda name, path: copies.append(path) or real(name, path))
    lib, _ = load_verified(found.name.split(".")[0], found)
    assert hasattr(lib, "scale_f64")
    (copy,) = copies
    assert not copy.startswith(_entry(cache))  # not the entry's own file
    assert not os.path.exists(copy)  # removed: the loaded library stays mapped


def test_private_copies_live_in_a_directory_only_this_process_writes(cache, monkeypatch):
    os.mkdir(cache, 0o700)
    monkeypatch.setattr(loader, "_dirs", {})
    path = private_copy("x.so", b"data")
    folder = os.path.dirname(path)
    assert folder.startswith(os.path.join(cache, "load") + os.sep)
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    with open(path, "rb") as f:
        assert f.read() == b"data"


def test_without_a_writable_cache_copies_go_to_a_private_temp_dir(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(tmp_path / "file"))
    monkeypatch.setattr(loader, "_dirs", {})
    path = private_copy("x.so", b"data")
    assert os.path.basename(os.path.dirname(path)).startswith("opsdk-load-")
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700


def test_a_private_directory_removed_meanwhile_is_made_again(cache, monkeypatch):
    import shutil

    os.mkdir(cache, 0o700)
    monkeypatch.setattr(loader, "_dirs", {})
    first = private_copy("x.so", b"1")
    shutil.rmtree(os.path.dirname(first))  # `opsdk cache clear` in another process
    second = private_copy("x.so", b"2")
    assert os.path.dirname(second) != os.path.dirname(first) and os.path.exists(second)
