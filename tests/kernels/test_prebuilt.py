"""Prebuilt C kernels shipped in a package: loaded from it when they match the installed sources
and nobody else could have changed them; otherwise built from the sources, never run stale.

A tiny package is compiled once per module the way a wheel build compiles it
(``helpers.prebuilt_pack``); each test works on its own copy.
"""
import os
import warnings

import numpy
import pytest

from opsdk.errors import OpsdkWarning
from opsdk.kernels import cache_info, prebuilt, trust

from helpers.prebuilt_pack import KERNEL_C, built_package, import_package, installed_copy  # noqa: F401

@pytest.fixture
def installed(built_package, tmp_path, request):
    """A fresh copy of the built package with its own kernel name; returns (folder, module)."""
    folder = tmp_path / "site" / "pkg"
    tag = "t" + request.node.name.replace("[", "_").replace("]", "_")
    return folder, installed_copy(built_package, folder, tag)


def _entry(folder):
    (key,) = os.listdir(folder / prebuilt.FOLDER)
    return folder / prebuilt.FOLDER / key


def test_a_matching_build_runs_without_a_compiler_and_without_a_warning(installed, cache, no_compiler):
    folder, module = installed
    x = numpy.arange(4.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert module.twice.available_backends() == ("python", "c")
        numpy.testing.assert_array_equal(module.twice.run("c", x), 2 * x)
        numpy.testing.assert_array_equal(module.twice(x), 2 * x)
    assert module.twice._lib is not None  # the call went to C
    assert not os.path.exists(os.path.join(cache, "c"))  # nothing compiled or copied into the cache


def test_lookup_says_where_the_build_is(installed):
    folder, module = installed
    found = prebuilt.lookup(module.SOURCE, module.SOURCE.read())
    assert found.kind == "prebuilt"
    assert found.entry == str(_entry(folder))


def test_the_manifest_records_the_key_and_the_source(installed):
    folder, _ = installed
    manifest = (_entry(folder) / "MANIFEST").read_text()
    assert f"key {_entry(folder).name}\n" in manifest
    assert "source csrc/twice.c\n" in manifest


def test_the_extension_uses_the_stable_abi(installed):
    folder, _ = installed
    names = os.listdir(_entry(folder))
    assert sorted(names) == ["MANIFEST", f"_opsdk_{_entry(folder).name}.abi3.so"]


def test_an_edited_source_is_compiled_not_run_stale(installed, cache):
    folder, module = installed
    (folder / "csrc" / "twice.c").write_text(KERNEL_C.replace("2 * x[i]", "3 * x[i]"))
    found = prebuilt.lookup(module.SOURCE, module.SOURCE.read())
    assert found.kind == "stale" and "edited since it was built" in found.why
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an edited editable install is normal: no warning
        numpy.testing.assert_array_equal(module.twice.run("c", numpy.ones(3)), 3 * numpy.ones(3))
    assert cache_info().entries == 1


def test_an_edited_source_without_a_compiler_falls_back_to_python(installed, cache, no_compiler):
    folder, module = installed
    (folder / "csrc" / "twice.c").write_text(KERNEL_C + "\n/* edited */\n")
    assert module.twice.available_backends() == ("python",)


def test_a_tampered_extension_is_refused_and_rebuilt(installed, cache):
    folder, module = installed
    so = next(p for p in _entry(folder).iterdir() if p.name.endswith(".so"))
    data = bytearray(so.read_bytes())
    data[-1] ^= 0xFF
    so.write_bytes(bytes(data))
    found = prebuilt.lookup(module.SOURCE, module.SOURCE.read())
    assert found.kind == "refused" and "does not match its MANIFEST" in found.why
    with pytest.warns(OpsdkWarning, match="prebuilt C build was not used"):
        numpy.testing.assert_array_equal(module.twice.run("c", numpy.ones(2)), 2 * numpy.ones(2))
    assert cache_info().entries == 1  # compiled from the sources instead


def test_a_foreign_owned_extension_is_refused(installed, cache, monkeypatch):
    folder, module = installed
    so = next(p for p in _entry(folder).iterdir() if p.name.endswith(".so"))
    foreign = os.lstat(so).st_ino
    monkeypatch.setattr(trust, "_owner", lambda st: 4242 if st.st_ino == foreign else st.st_uid)
    found = prebuilt.lookup(module.SOURCE, module.SOURCE.read())
    assert found.kind == "refused" and "belongs to uid 4242" in found.why


def test_a_group_writable_folder_above_the_package_is_refused(installed):
    folder, module = installed
    site = folder.parent
    site.chmod(0o775)
    try:
        found = prebuilt.lookup(module.SOURCE, module.SOURCE.read())
    finally:
        site.chmod(0o755)
    assert found.kind == "refused" and f"{site} is writable by its group" in found.why


def test_a_sticky_world_writable_folder_above_is_accepted(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    mine = shared / "mine"
    mine.mkdir(mode=0o755)
    assert prebuilt.chain_distrust(str(mine)) is None
    shared.chmod(0o777)
    assert "writable by" in prebuilt.chain_distrust(str(mine))


def test_a_build_renamed_to_the_current_key_is_refused(installed):
    folder, module = installed
    entry = _entry(folder)
    manifest = entry / "MANIFEST"
    manifest.write_text(manifest.read_text().replace(f"key {entry.name}", "key " + "0" * 32))
    found = prebuilt.lookup(module.SOURCE, module.SOURCE.read())
    assert found.kind == "refused"


def test_a_package_without_builds_says_so(tmp_path):
    (tmp_path / "kern.py").write_text('from opsdk.kernels import CSource\nSOURCE = CSource(code="int f(void) { return 1; }")\n')
    module = import_package(tmp_path, "nobuilds")
    found = prebuilt.lookup(module.SOURCE, module.SOURCE.read())
    assert found.kind == "none" and "ships no prebuilt build of <inline in kern.py:2>" in found.why
