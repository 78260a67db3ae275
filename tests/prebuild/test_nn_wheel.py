"""opsdk-nn's wheel, built here offline: every CUDA source ships as a cubin per default architecture
and PTX for the lowest, holding exactly the kernels the source declares (read from the files with
the toolchain's view: cubin ELF symbols, PTX .entry lines), beside the sources; installed, opsdk
finds them under the installed sources' keys. Slow: the build runs nvcc 24 times."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

from opsdk.env import CUDA_ARCHS
from opsdk.kernels import find_nvcc, prebuilt_cuda
from opsdk.kernels.compiler import find_compiler

from helpers.cubin import cubin_arch, cubin_kernels, ptx_kernels

PACK = pathlib.Path(__file__).resolve().parents[2] / "plugins" / "opsdk-nn"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(find_compiler() is None or find_nvcc() is None, reason="needs a C compiler and nvcc")]


def _env(**extra):
    ours = [p for p in sys.path if p]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(ours), "PYTHONDONTWRITEBYTECODE": "1", **extra}
    env.pop("OPSDK_CUDA_ARCHS", None)
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """opsdk-nn's wheel built from a copy of the pack (setuptools writes build/ beside the sources)."""
    work = tmp_path_factory.mktemp("nn-wheel")
    shutil.copytree(PACK, work / "src", ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "tests"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(work / "dist"), str(work / "src")], check=True, env=_env(), timeout=900)
    (built,) = (work / "dist").glob("opsdk_nn-*.whl")
    return built


@pytest.fixture(scope="module")
def unpacked(wheel, tmp_path_factory):
    site = tmp_path_factory.mktemp("nn-site")
    zipfile.ZipFile(wheel).extractall(site)
    return site


def _cuda_entries(site):
    """{source label: (entry folder, MANIFEST fields)} of the CUDA builds in the unpacked wheel."""
    from opsdk.kernels import prebuilt

    found = {}
    for manifest in site.glob(f"opsdk_nn/**/{prebuilt.FOLDER}/*/MANIFEST"):
        fields = prebuilt.manifest(str(manifest.parent))
        if fields.get("kind") == "cuda":
            found[fields["source"]] = (manifest.parent, fields)
    return found


def _declared():
    """{source label: kernel names} of the pack's CUDA sources: all written by the SDK, from the
    activations' scalar bodies and the row ops' statements (inline code, labelled by where it is
    written)."""
    from opsdk.kernels.prebuilt import source_label

    plugin = pytest.importorskip("opsdk_nn.plugin")
    written = {id(s): s for *_, kernels in plugin.OPS for k in kernels if (s := k.sources.get("cuda"))}
    return {source_label(s): set(s.names) for s in written.values()}


def test_each_cuda_source_ships_a_cubin_per_default_architecture_and_ptx(unpacked):
    entries = _cuda_entries(unpacked)
    assert set(entries) == set(_declared())
    for entry, fields in entries.values():
        assert list(prebuilt_cuda.targets(fields)) == prebuilt_cuda.arch_labels(CUDA_ARCHS)


def test_the_cubins_hold_the_sources_kernels_for_their_architecture(unpacked):
    declared = _declared()
    for label, (entry, fields) in _cuda_entries(unpacked).items():
        for arch, (name, _, _) in prebuilt_cuda.targets(fields).items():
            if arch.startswith("sm_"):
                assert cubin_kernels(str(entry / name)) == declared[label], (label, arch)
                assert cubin_arch(str(entry / name)) == arch


def test_the_ptx_defines_the_sources_kernels(unpacked):
    declared = _declared()
    for label, (entry, fields) in _cuda_entries(unpacked).items():
        (name, _, _) = prebuilt_cuda.targets(fields)[f"compute_{min(CUDA_ARCHS)}"]
        assert ptx_kernels((entry / name).read_text()) == declared[label] == set(fields["kernels"].split())


def test_the_modules_that_write_the_sources_ship_and_no_hand_written_kernel(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    # the CUDA and C are written at load time (activations from scalar bodies, the row ops from
    # statements): for the simulator and edited copies the modules are the sources
    assert {f"opsdk_nn/kernels/{n}.py" for n in ("activations", "softmax", "norms", "cross_entropy")} <= names
    assert not [n for n in names if n.endswith((".c", ".h", ".cu", ".cuh"))]


def test_installed_its_cuda_and_c_kernels_are_the_wheels(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target",
                    str(target), str(wheel)], check=True, timeout=300)
    env = _env(PYTHONPATH=os.pathsep.join([str(target), *[p for p in sys.path if p]]),
               OPSDK_CACHE_DIR=str(tmp_path / "cache"), OPSDK_LOAD_PLUGINS="nn")
    listed = subprocess.run([sys.executable, "-m", "opsdk.cli", "list", "--json"], env=env, capture_output=True,
                            text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    ops = [op for op in json.loads(listed.stdout)["ops"] if op["pack"] == "nn"]
    cuda = {k: v["from"] for op in ops for k, v in op["cuda_kernels"].items()}
    c = {k: v["from"] for op in ops for k, v in op["c_kernels"].items()}
    # no GPU here: the wheel's matching build is found, and a GPU would choose among its files
    assert cuda and set(cuda.values()) <= {"prebuilt", "cubin", "ptx"}, listed.stdout
    assert c and set(c.values()) == {"prebuilt"}
