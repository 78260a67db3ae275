"""collect: a pack's CUDA sources compiled into its build tree with nvcc, for the architectures the
builder or the pack asks for; without nvcc the build goes on, with CUDA from source, and says so."""
import os
import subprocess
import sys

import pytest

from opsdk.kernels import find_nvcc
from opsdk.kernels.compiler import find_compiler
from opsdk.prebuild.hooks import declared_cuda_archs

from .tiny_pack import write_tiny_pack

needs_compilers = pytest.mark.skipif(find_compiler() is None or find_nvcc() is None,
                                     reason="needs a C compiler and nvcc")


def _prebuild(build_lib, *args, **env):
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join([str(build_lib), *filter(None, sys.path)]),
               "OPSDK_LOAD_PLUGINS": "", "PYTHONDONTWRITEBYTECODE": "1", **env}
    for name in [n for n, v in env.items() if v is None]:
        del environ[name]
    return subprocess.run([sys.executable, "-m", "opsdk.prebuild.collect", str(build_lib), "tiny=tinypack", *args],
                          env=environ, cwd=build_lib, capture_output=True, text=True, timeout=300)


def _without_nvcc():
    """PATH less every folder that holds nvcc (the C compiler stays)."""
    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(f for f in folders if f and not os.path.exists(os.path.join(f, "nvcc")))


def _manifests(build_lib):
    folder = build_lib / "tinypack" / "_opsdk_prebuilt"
    return {entry.name: (entry / "MANIFEST").read_text() for entry in folder.iterdir()}


@needs_compilers
def test_the_cuda_source_is_compiled_for_the_architectures_asked_for(tmp_path):
    build_lib = write_tiny_pack(tmp_path / "lib", cuda=True)
    done = _prebuild(build_lib, "--cuda-archs=sm_90,80")
    assert done.returncode == 0, done.stderr
    assert "compiled cuda/twice.cu (tiny.twice) into tinypack/_opsdk_prebuilt/" in done.stdout
    assert done.stdout.rstrip().endswith(": sm_80 sm_90 compute_80")
    cuda = [text for text in _manifests(build_lib).values() if "kind cuda\n" in text]
    assert len(cuda) == 1 and "kernels twice_f32\n" in cuda[0] and "\nsm_90 " in cuda[0]


@needs_compilers
def test_the_builders_variable_chooses_the_architectures(tmp_path):
    build_lib = write_tiny_pack(tmp_path / "lib", cuda=True)
    done = _prebuild(build_lib, OPSDK_CUDA_ARCHS="8.6")
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(": sm_86 compute_86")


@pytest.mark.skipif(find_compiler() is None, reason="needs a C compiler")
def test_without_nvcc_the_build_goes_on_and_says_so_in_one_line(tmp_path):
    build_lib = write_tiny_pack(tmp_path / "lib", cuda=True)
    done = _prebuild(build_lib, PATH=_without_nvcc(), CUDA_HOME=None, CUDA_PATH=None)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "opsdk: no nvcc (not on PATH, nor under $CUDA_HOME/bin or $CUDA_PATH/bin): the wheel ships the "
        "pack's CUDA kernels as sources, compiled by CuPy on first call"]
    assert "compiled csrc/twice.c" in done.stdout  # the C kernel is prebuilt all the same
    assert not any("kind cuda" in text for text in _manifests(build_lib).values())


@pytest.mark.skipif(find_compiler() is None, reason="needs a C compiler")
def test_no_architecture_builds_no_cuda_and_says_so(tmp_path):
    build_lib = write_tiny_pack(tmp_path / "lib", cuda=True)
    done = _prebuild(build_lib, OPSDK_CUDA_ARCHS="none")
    assert done.returncode == 0, done.stderr
    assert "OPSDK_CUDA_ARCHS=none" in done.stderr and len(done.stderr.splitlines()) == 1


def test_a_pack_declares_its_architectures_in_its_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.opsdk]\ncuda-archs = ["sm_80", "sm_90"]\n')
    assert declared_cuda_archs(str(tmp_path)) == "sm_80,sm_90"


def test_a_pack_that_declares_none_gets_the_default(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\n')
    assert declared_cuda_archs(str(tmp_path)) is None


def test_a_declared_list_that_is_no_list_of_architectures_stops_the_build(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.opsdk]\ncuda-archs = ["hopper"]\n')
    with pytest.raises(ValueError, match=r"cuda-archs = \['hopper'\] is not valid; expected: architectures"):
        declared_cuda_archs(str(tmp_path))
