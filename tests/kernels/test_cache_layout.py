"""The cache is opsdk's alone: tagged on first use, refused when a directory holds other files,
and cleared or counted only by the names of opsdk's layout."""
import os
import stat

import pytest

from opsdk.errors import CacheNotOursError
from opsdk.kernels import build_c, cache_info, cache_problem, clear_cache
from opsdk.kernels.cache import LAYOUT, TAG, subdir

from .sample import scale_source

SIGNATURE = b"Signature: 8a477f597d28d172789f06886806bc55"


def test_a_new_cache_is_tagged_and_private_on_first_use(cache):
    build_c(scale_source())
    with open(os.path.join(cache, TAG), "rb") as f:
        assert f.read().startswith(SIGNATURE)  # the Cache Directory Tagging convention, exactly
    assert os.path.isfile(os.path.join(cache, LAYOUT))
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700


def test_an_empty_directory_is_tagged_on_first_use(cache):
    os.mkdir(cache, 0o755)
    assert cache_problem() is None
    subdir("c")
    assert os.path.isfile(os.path.join(cache, TAG))


def test_an_untagged_cache_of_an_older_opsdk_is_adopted(cache):
    # the same layout, made before caches were tagged: only opsdk's names
    os.makedirs(os.path.join(cache, "c"), 0o700)
    os.mkdir(os.path.join(cache, "logs"), 0o700)
    open(os.path.join(cache, "builds.log"), "w").close()
    os.chmod(cache, 0o700)
    build_c(scale_source())
    assert os.path.isfile(os.path.join(cache, TAG))


def test_a_directory_with_other_files_is_refused_naming_them(cache):
    os.mkdir(cache, 0o700)
    for name in ("notes.txt", "thesis.tex"):
        open(os.path.join(cache, name), "w").close()
    problem = cache_problem()
    assert problem.kind == "not-ours"
    assert f"{cache} is not opsdk's" in problem and "notes.txt, thesis.tex" in problem
    with pytest.raises(CacheNotOursError, match="cannot clear"):
        clear_cache()
    assert sorted(os.listdir(cache)) == ["notes.txt", "thesis.tex"]  # not even tagged


def test_an_op_with_a_foreign_directory_as_cache_falls_back_and_writes_nothing(cache):
    from .sample import make_scale

    os.mkdir(cache, 0o700)
    open(os.path.join(cache, "notes.txt"), "w").close()
    kernel = make_scale("tests.notours")
    with pytest.warns(UserWarning, match="is not opsdk's"):
        kernel(__import__("numpy").ones(2), alpha=2.0)
    assert os.listdir(cache) == ["notes.txt"]


def test_clear_leaves_what_is_not_opsdks_in_a_tagged_cache(cache):
    build_c(scale_source())
    os.mkdir(os.path.join(cache, "logs"), 0o700)
    extra = [os.path.join(cache, "mine.txt"), os.path.join(cache, "c", "README"),
             os.path.join(cache, "logs", "keep me")]
    for path in extra:
        with open(path, "w") as f:
            f.write("not a build")
    assert clear_cache() == 1
    assert all(os.path.exists(p) for p in extra)
    assert os.path.isfile(os.path.join(cache, TAG))  # still opsdk's after clearing


def test_info_counts_only_opsdks_names(cache):
    build_c(scale_source())
    before = cache_info()
    with open(os.path.join(cache, "c", "big.bin"), "wb") as f:
        f.write(b"\0" * 100_000)
    assert cache_info() == before


def test_clear_removes_a_link_in_the_cache_but_not_what_it_points_to(cache, tmp_path):
    build_c(scale_source())
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "data").write_text("keep")
    os.mkdir(os.path.join(cache, "logs"), 0o700)
    os.symlink(precious, os.path.join(cache, "logs", "0123456789abcdef0123456789abcdef"))
    clear_cache()
    assert (precious / "data").read_text() == "keep"
    assert not os.path.lexists(os.path.join(cache, "logs", "0123456789abcdef0123456789abcdef"))


def test_info_of_the_filesystem_root_counts_nothing_and_does_not_recurse(monkeypatch):
    monkeypatch.setenv("OPSDK_CACHE_DIR", "/")
    info = cache_info()  # no RecursionError, no walk of the whole disk
    assert info.entries == 0
    assert cache_problem().kind == "not-ours"


def test_info_of_proc_counts_nothing(monkeypatch):
    if not os.path.isdir("/proc/self"):
        pytest.skip("no /proc on this system")
    monkeypatch.setenv("OPSDK_CACHE_DIR", "/proc")
    assert cache_info().total_bytes == 0


def test_a_tagging_killed_midway_does_not_make_the_cache_foreign(cache):
    os.mkdir(cache, 0o700)
    open(os.path.join(cache, TAG + ".1234123456"), "w").close()  # write_private's temporary file
    assert cache_problem() is None
