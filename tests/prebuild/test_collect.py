"""collect: a pack loaded from its build tree gets each of its C sources compiled into the tree."""
import os
import subprocess
import sys

import pytest

from opsdk.kernels.compiler import find_compiler

from .tiny_pack import write_tiny_pack


def _prebuild(build_lib, **env):
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join([str(build_lib), *filter(None, sys.path)]),
               "OPSDK_LOAD_PLUGINS": "", "PYTHONDONTWRITEBYTECODE": "1", **env}
    return subprocess.run([sys.executable, "-m", "opsdk.prebuild.collect", str(build_lib), "tiny=tinypack"],
                          env=environ, cwd=build_lib, capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(find_compiler() is None, reason="needs a C compiler")
def test_each_c_source_is_compiled_beside_the_module_that_declares_it(tmp_path):
    build_lib = write_tiny_pack(tmp_path / "lib")
    done = _prebuild(build_lib)
    assert done.returncode == 0, done.stderr
    assert "compiled csrc/twice.c (tiny.twice)" in done.stdout
    (entry,) = (build_lib / "tinypack" / "_opsdk_prebuilt").iterdir()
    assert f"key {entry.name}\nsource csrc/twice.c\n" in (entry / "MANIFEST").read_text()
    assert not list(build_lib.rglob("__pycache__"))  # nothing but the builds is added to the wheel


def test_without_a_compiler_the_build_fails_and_says_how_to_build_sources_only(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    build_lib = write_tiny_pack(tmp_path / "lib")
    done = _prebuild(build_lib, PATH=str(empty), CC="")
    assert done.returncode == 1
    assert "no C compiler" in done.stderr and "OPSDK_PREBUILD=0" in done.stderr
