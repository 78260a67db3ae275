"""An unusable kernel cache never breaks an op call: the C backend is unavailable, python runs.

A cache is unusable when OPSDK_CACHE_DIR is a file, under a file, an unwritable directory, or a
read-only cache of prebuilt kernels asked for a kernel it does not hold.
"""
import os
import sys
import warnings

import numpy
import pytest

from opsdk.errors import CacheUnusableError, OpsdkWarning
from opsdk.kernels import cache_problem, clear_cache, kernel as kernel_module, use_backend
from opsdk.kernels import cbuild, loader

from helpers.readonly import tree_snapshot

from .sample import child_env, finish, make_scale, scale_source, spawn_build


@pytest.fixture(autouse=True)
def _fresh_process_state(monkeypatch):
    """Nothing loaded in-process and no cache warning given yet: as a new process would start."""
    monkeypatch.setattr(cbuild, "_loaded", {})
    monkeypatch.setattr(loader, "_dirs", {})
    monkeypatch.setattr(kernel_module, "_cache_warnings", set())


def _calls_fall_back(*kernels):
    """Call each kernel; return the OpsdkWarnings raised (every result must be right)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for kernel in kernels:
            numpy.testing.assert_array_equal(kernel(numpy.ones(3), alpha=2.0), [2.0, 2.0, 2.0])
    return [str(w.message) for w in caught if issubclass(w.category, OpsdkWarning)]


def test_a_missing_cache_under_a_writable_parent_is_fine(cache):
    assert not os.path.exists(cache)
    assert cache_problem() is None


def test_cache_that_is_a_file_falls_back_to_python_with_one_warning(tmp_path, monkeypatch):
    path = tmp_path / "cache"
    path.write_text("not a directory")
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(path))
    messages = _calls_fall_back(make_scale("tests.cachefile_a"), make_scale("tests.cachefile_b"))
    assert len(messages) == 1, messages  # one cause, said once for every kernel
    assert f"{path} is not a directory" in messages[0] and "OPSDK_CACHE_DIR" in messages[0]
    assert "fall back to python" in messages[0]


def test_cache_under_a_file_falls_back_to_python(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(tmp_path / "file" / "cache"))
    (message,) = _calls_fall_back(make_scale("tests.underfile"))
    assert f"{tmp_path / 'file'} is not a directory" in message


def test_empty_read_only_cache_falls_back_to_python(tmp_path, monkeypatch, read_only):
    path = tmp_path / "cache"
    path.mkdir()
    read_only(path)
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(path))
    (message,) = _calls_fall_back(make_scale("tests.readonly_empty"))
    assert f"{path} is not writable" in message
    assert os.listdir(path) == []


def test_cache_under_a_read_only_parent_falls_back_to_python(tmp_path, monkeypatch, read_only):
    parent = tmp_path / "parent"
    parent.mkdir()
    read_only(parent)
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(parent / "cache"))
    (message,) = _calls_fall_back(make_scale("tests.readonly_parent"))
    assert f"cannot be created: {parent} is not writable" in message


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_cache_in_a_directory_nobody_can_write_falls_back_to_python(monkeypatch):
    # /proc refuses new files even to root: an unwritable parent with nothing simulated
    monkeypatch.setenv("OPSDK_CACHE_DIR", "/proc/opsdk-test-cache")
    (message,) = _calls_fall_back(make_scale("tests.proc"))
    assert "/proc is not writable" in message


def test_read_only_prebuilt_cache_serves_its_builds_and_refuses_new_ones(cache, read_only):
    cbuild.build_c(scale_source())
    read_only(cache)
    before = tree_snapshot(cache)
    # as a fresh process: the prebuilt kernel loads from the disk, copied where it may write
    cbuild._loaded.clear()
    loader._dirs.clear()
    prebuilt = make_scale("tests.prebuilt")
    new = make_scale("tests.new", source=scale_source(define_macros=[("UNUSED_FLAG", "1")]))
    (message,) = _calls_fall_back(prebuilt, new)
    assert prebuilt.available_backends() == ("python", "c")
    assert new.available_backends() == ("python",)
    assert "'tests.new'" in message and f"{cache} is not writable" in message
    assert tree_snapshot(cache) == before  # nothing written into the read-only cache


def test_forcing_c_with_an_unusable_cache_says_why(tmp_path, monkeypatch):
    (tmp_path / "cache").write_text("")
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(tmp_path / "cache"))
    with use_backend("c"), pytest.raises(CacheUnusableError, match="not a directory.*OPSDK_CACHE_DIR"):
        make_scale("tests.forced_broken")(numpy.ones(2), alpha=1.0)


def test_clearing_an_unusable_cache_is_an_error(tmp_path, monkeypatch):
    (tmp_path / "cache").write_text("")
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(CacheUnusableError, match="cannot clear.*not a directory"):
        clear_cache()


def test_clear_while_another_process_compiles_keeps_that_build(cache, tmp_path):
    from .test_cbuild import _slow_cc

    started = tmp_path / "compiling"
    child = spawn_build(child_env(CC=_slow_cc(tmp_path, started_marker=started, delay=1.5)))
    while not started.exists():
        assert child.poll() is None, child.stderr.read()
    assert clear_cache() == 0  # the build in progress is not a finished build, and stays
    result = finish(child)
    assert result["y"] == [0.0, 3.0, 6.0, 9.0]
    entries = [n for n in os.listdir(os.path.join(cache, "c")) if "." not in n]
    assert len(entries) == 1
    assert clear_cache() == 1  # once finished, it is cleared like any other


def test_a_cache_removed_mid_build_falls_back_instead_of_crashing(cache, monkeypatch):
    real = cbuild._compile_and_install

    def vanishing(*args, **kwargs):
        raise FileNotFoundError(2, "No such file or directory", os.path.join(cache, "c"))

    monkeypatch.setattr(cbuild, "_compile_and_install", vanishing)
    (message,) = _calls_fall_back(make_scale("tests.vanished"))
    assert "No such file or directory" in message
    monkeypatch.setattr(cbuild, "_compile_and_install", real)


def test_a_disk_filling_up_mid_build_says_so_and_falls_back(cache, monkeypatch):
    import errno

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", os.path.join(cache, "c"))

    monkeypatch.setattr(cbuild, "_compile_and_install", no_space)
    (message,) = _calls_fall_back(make_scale("tests.nospace"))
    assert "No space left on device" in message and "fix: free space on that filesystem" in message
    assert "writable directory" not in message
