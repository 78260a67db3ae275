"""A planted extension is never loaded: not from a cache others can write, not from an entry
another user owns, not through a link, not through index/ when there is no compiler.

Each test plants, at the exact key build_c looks for, a shared library whose constructor writes a
marker file the moment it is loaded, with a MANIFEST that matches it (whoever can write the
extension can write its MANIFEST). The control test shows the marker does appear when such a
library is loaded.
"""
import ctypes
import os
import shutil
import subprocess
import warnings
from importlib.machinery import EXTENSION_SUFFIXES

import numpy
import pytest

from opsdk.cli.doctor_cmd import _cache as doctor_cache
from opsdk.errors import BackendUnavailableError, OpsdkWarning
from opsdk.kernels import cbuild, kernel as kernel_module, trust
from opsdk.kernels.compiler import compiler_identity, find_compiler
from opsdk.kernels.entries import write_manifest
from opsdk.kernels.keys import build_key, source_key

from .sample import make_scale, scale_source

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="planting a library needs gcc")

PLANTED_C = r"""
#include <stdio.h>
__attribute__((constructor)) static void planted(void) {
    FILE *f = fopen(MARKER, "w");
    if (f) { fputs("the planted library ran", f); fclose(f); }
}
"""
FOREIGN_UID = 4242


@pytest.fixture(autouse=True)
def _fresh_process_state(monkeypatch):
    """Nothing loaded in-process and no cache warning given yet: as a new process would start."""
    monkeypatch.setattr(cbuild, "_loaded", {})
    monkeypatch.setattr(kernel_module, "_cache_warnings", set())


@pytest.fixture
def planted(tmp_path, cache):
    """Plant a library with a marker-writing constructor at the key of scale_source(); returns
    an object with .entry, .marker, .index (index/<source key>) and .ran()."""
    marker = tmp_path / "marker"
    src = tmp_path / "planted.c"
    src.write_text(PLANTED_C)
    library = tmp_path / "planted.so"
    subprocess.run(["gcc", "-shared", "-fPIC", f'-DMARKER="{marker}"', str(src), "-o", str(library)],
                   check=True)
    source = scale_source()
    skey = source_key(source, source.read())
    key = build_key(skey, compiler_identity(find_compiler()))

    class Planted:
        entry = os.path.join(cache, "c", key)
        index = os.path.join(cache, "index", skey)

        @staticmethod
        def ran():
            return marker.exists()

        @staticmethod
        def at(entry):
            os.makedirs(entry, 0o700)
            shutil.copy(library, os.path.join(entry, f"_opsdk_{key}{EXTENSION_SUFFIXES[0]}"))
            write_manifest(entry, f"_opsdk_{key}{EXTENSION_SUFFIXES[0]}")

    os.makedirs(os.path.join(cache, "c"), 0o700)
    os.makedirs(os.path.join(cache, "index"), 0o700)
    os.chmod(cache, 0o700)
    with open(Planted.index, "w") as f:
        f.write(key)
    return Planted


def _tree(path):
    for folder, dirs, files in os.walk(path):
        yield folder
        yield from (os.path.join(folder, n) for n in dirs + files)


def _told_foreign(monkeypatch, path):
    """opsdk's owner check is told that the tree at path is another user's (what a user, who
    cannot give files away, can do)."""
    # the change time too: a rebuilt entry may get the inode number of the one it replaced
    files = {(st.st_dev, st.st_ino, st.st_ctime_ns) for st in map(os.lstat, _tree(path))}
    real = trust._owner
    monkeypatch.setattr(trust, "_owner", lambda st: FOREIGN_UID if (st.st_dev, st.st_ino, st.st_ctime_ns)
                        in files else real(st))


@pytest.fixture(params=["chown", "owner check"])
def make_foreign(request, monkeypatch):
    """``make_foreign(path)``: the tree at path belongs to another user: chowned for real (as
    root), or opsdk's owner check is told so."""
    if request.param == "chown" and os.geteuid() != 0:
        pytest.skip("only root can give files to another user; the 'owner check' variant runs")

    def make(path):
        if request.param == "chown":
            for name in _tree(path):
                os.lchown(name, FOREIGN_UID, FOREIGN_UID)
        else:
            _told_foreign(monkeypatch, path)

    return make


def _call(kernel):
    """Call the kernel (y = 2x) and return its OpsdkWarnings; the result must be right."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        numpy.testing.assert_array_equal(kernel(numpy.ones(3), alpha=2.0), [2.0, 2.0, 2.0])
    return [str(w.message) for w in caught if issubclass(w.category, OpsdkWarning)]


def _doctor_flags(*words):
    """`opsdk doctor`'s cache line is an error (so doctor exits 1) that says each word."""
    finding = doctor_cache()
    assert finding.status == "error", finding
    assert all(w in finding.detail for w in words), finding.detail


def test_control_the_planted_library_runs_its_constructor_when_loaded(planted, tmp_path):
    planted.at(str(tmp_path / "elsewhere"))
    (so_name,) = [n for n in os.listdir(tmp_path / "elsewhere") if n.endswith(".so")]
    ctypes.CDLL(str(tmp_path / "elsewhere" / so_name))
    assert planted.ran()


def test_a_cache_others_can_write_is_not_used(planted, cache):
    planted.at(planted.entry)
    os.chmod(cache, 0o777)
    (message,) = _call(make_scale("tests.trust777"))
    assert not planted.ran()
    assert "writable by group and others (mode 0777)" in message and f"chmod -R go-w {cache}" in message
    _doctor_flags("writable by group and others")


def test_an_entry_of_another_user_is_not_loaded_but_rebuilt(planted, make_foreign):
    planted.at(planted.entry)
    make_foreign(planted.entry)
    _doctor_flags("belongs to uid 4242")
    (message,) = _call(make_scale("tests.trustforeign"))
    assert not planted.ran()
    assert "was not used and was rebuilt" in message and "belongs to uid 4242" in message


def test_an_entry_that_is_a_link_is_not_followed(planted, tmp_path):
    target = str(tmp_path / "elsewhere")
    planted.at(target)
    os.symlink(target, planted.entry)
    _doctor_flags("is a symbolic link")
    (message,) = _call(make_scale("tests.trustlink"))
    assert not planted.ran()
    assert "symbolic link" in message
    assert os.listdir(target)  # the link was replaced; what it pointed to is untouched


def test_a_cache_root_that_is_a_link_is_not_used(planted, cache, tmp_path, monkeypatch):
    planted.at(planted.entry)
    link = tmp_path / "link-to-cache"
    os.symlink(cache, link)
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(link))
    (message,) = _call(make_scale("tests.trustrootlink"))
    assert not planted.ran()
    assert f"{link} is a symbolic link" in message and f"OPSDK_CACHE_DIR to the directory itself ({cache})" in message
    _doctor_flags("is a symbolic link")


def test_a_cache_root_of_another_user_is_not_used(planted, cache, make_foreign):
    planted.at(planted.entry)
    make_foreign(cache)
    (message,) = _call(make_scale("tests.trustforeignroot"))
    assert not planted.ran()
    assert "belongs to uid 4242" in message and "use a cache of your own" in message
    _doctor_flags("belongs to uid 4242")


@pytest.mark.parametrize("how", ["cache 0777", "foreign entry", "linked entry", "linked index"])
def test_without_a_compiler_index_leads_to_no_untrusted_build(planted, cache, tmp_path, no_compiler,
                                                               monkeypatch, how):
    if how == "linked entry":
        planted.at(str(tmp_path / "elsewhere"))
        os.symlink(tmp_path / "elsewhere", planted.entry)
    else:
        planted.at(planted.entry)
    if how == "cache 0777":
        os.chmod(cache, 0o777)
    elif how == "foreign entry":
        _told_foreign(monkeypatch, planted.entry)
    elif how == "linked index":
        real_index = tmp_path / "index-elsewhere"
        os.rename(planted.index, real_index)
        os.symlink(real_index, planted.index)
    kernel = make_scale(f"tests.noccindex{how.replace(' ', '')}")
    (message,) = _call(kernel)
    assert not planted.ran()
    assert kernel.available_backends() == ("python",)
    _doctor_flags()


def test_a_trusted_build_that_does_not_load_falls_back_without_a_compiler(planted, no_compiler):
    # a build that matches its MANIFEST in a healthy cache is trusted and loaded; this one is
    # no Python extension: the op runs in python with a warning, never a raw ImportError
    planted.at(planted.entry)
    kernel = make_scale("tests.unloadable")
    (message,) = _call(kernel)
    assert planted.ran()  # it was trusted, so loaded: the control that loading is detected
    assert "falling back to 'python'" in message and "rebuild it where a compiler exists" in message
    with pytest.raises(BackendUnavailableError, match="rebuild it where a compiler exists"):
        cbuild.build_c(scale_source(), kernel="tests.unloadable")


def test_a_trusted_build_that_does_not_load_is_rebuilt_with_a_compiler(planted):
    planted.at(planted.entry)
    assert _call(make_scale("tests.unloadable_cc")) == []
    assert os.path.isfile(os.path.join(planted.entry, "MANIFEST"))


def test_builds_made_under_a_group_writable_umask_are_trusted_by_the_next_process(cache):
    from .sample import child_env, compile_count, finish, spawn_build

    old = os.umask(0o002)  # Debian's default for users with a private group
    try:
        cbuild.build_c(scale_source())
    finally:
        os.umask(old)
    finish(spawn_build(child_env()))  # a fresh process loads it: no rebuild, no warning
    assert compile_count(cache) == 1
    for folder, dirs, files in os.walk(cache):
        for name in [folder, *(os.path.join(folder, n) for n in files)]:
            assert not os.lstat(name).st_mode & 0o022, name


def test_without_a_compiler_an_index_folder_that_is_a_link_is_not_followed(planted, cache, tmp_path,
                                                                            no_compiler):
    planted.at(planted.entry)
    os.rename(os.path.join(cache, "index"), tmp_path / "index-elsewhere")
    os.symlink(tmp_path / "index-elsewhere", os.path.join(cache, "index"))
    (message,) = _call(make_scale("tests.linkedindexdir"))
    assert not planted.ran() and "symbolic link" in message
    _doctor_flags("is a symbolic link")
