"""The setuptools commands a pack's pyproject names: a wheel that ships its C kernels compiled."""
import os
import subprocess
import sys
import zipfile
from types import SimpleNamespace

import pytest

from opsdk.kernels.compiler import find_compiler
from opsdk.prebuild.hooks import entry_points

from .tiny_pack import write_tiny_pack


def test_entry_points_are_read_as_name_and_target():
    dist = SimpleNamespace(entry_points={"opsdk": ["tiny = tinypack", "other=pkg.mod:plugin"],
                                         "console_scripts": ["x = y"]})
    assert entry_points(dist) == ["tiny=tinypack", "other=pkg.mod:plugin"]


def test_a_distribution_without_opsdk_entry_points_has_none():
    assert entry_points(SimpleNamespace(entry_points=None)) == []


# the run of an installed pack on a machine without a compiler: C must dispatch, from the
# wheel's build, with no warning and nothing compiled or cached
_RUN = """
import os, warnings, numpy
warnings.simplefilter("error")
import tinypack.kern as kern
x = numpy.arange(5.0)
assert kern.twice.available_backends() == ("python", "c"), kern.twice.available_backends()
assert (kern.twice(x) == 2 * x).all() and kern.twice._lib is not None
assert not os.path.exists(os.path.join(os.environ["OPSDK_CACHE_DIR"], "c"))
print("ran from", kern.SOURCE.origin_dir)
"""


def _child_env(path_entries, **extra):
    return {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, path_entries)),
            "PYTHONDONTWRITEBYTECODE": "1", **extra}


@pytest.mark.slow
@pytest.mark.skipif(find_compiler() is None, reason="needs a C compiler to build the wheel")
def test_a_wheel_built_offline_runs_its_c_kernel_where_no_compiler_is(tmp_path):
    project = write_tiny_pack(tmp_path / "tinypack-src")
    ours = [p for p in sys.path if p]
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path / "dist"), str(project)], check=True, env=_child_env(ours),
                   timeout=300)
    (wheel,) = (tmp_path / "dist").iterdir()
    assert wheel.name == f"tinypack-0.1.0-cp{sys.version_info[0]}{sys.version_info[1]}-abi3-linux_x86_64.whl" \
        or not sys.platform.startswith("linux")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("tinypack/_opsdk_prebuilt/") and n.endswith(".abi3.so") for n in names)
    assert "tinypack/csrc/twice.c" in names  # the sources ship too: an edited copy rebuilds from them
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target",
                    str(target), str(wheel)], check=True, timeout=300)
    empty = tmp_path / "no-compiler"
    empty.mkdir()
    env = _child_env([target, *ours], PATH=str(empty), OPSDK_CACHE_DIR=str(tmp_path / "cache"),
                     OPSDK_LOAD_PLUGINS="")
    env.pop("CC", None)
    done = subprocess.run([sys.executable, "-c", _RUN], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"ran from {target / 'tinypack'}" in done.stdout


@pytest.mark.slow
@pytest.mark.skipif(find_compiler() is None, reason="needs a C compiler to build the wheel")
def test_a_wheel_builds_without_nvcc_with_its_cuda_as_source_and_says_so(tmp_path):
    project = write_tiny_pack(tmp_path / "tinypack-src", cuda=True)
    ours = [p for p in sys.path if p]
    path = os.pathsep.join(f for f in os.environ.get("PATH", "").split(os.pathsep)
                           if f and not os.path.exists(os.path.join(f, "nvcc")))
    env = _child_env(ours, PATH=path)
    for name in ("CUDA_HOME", "CUDA_PATH", "OPSDK_CUDA_ARCHS"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v",
                           "-w", str(tmp_path / "dist"), str(project)], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    said = [line for line in (done.stdout + done.stderr).splitlines() if "no nvcc" in line]
    assert len(said) == 1 and "the wheel ships the pack's CUDA kernels as sources, compiled by CuPy on first " \
                               "call" in said[0]
    (wheel,) = (tmp_path / "dist").iterdir()
    names = zipfile.ZipFile(wheel).namelist()
    assert "tinypack/cuda/twice.cu" in names
    assert not any(n.endswith((".ptx", ".cubin")) for n in names)
    assert any(n.endswith(".abi3.so") for n in names)  # the C kernel is prebuilt all the same
