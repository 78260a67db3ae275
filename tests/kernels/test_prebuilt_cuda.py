"""Prebuilt CUDA kernels shipped in a package (PTX and cubins): CuPy loads the file for the GPU's
architecture when it matches the installed sources and nobody else could have changed it;
otherwise CuPy compiles the source, never a stale build.

CuPy is a stand-in (``fake_cupy``) whose RawModule records what it was given: from a file
(``path=``) or compiled from source (``code=``). The package's build holds stand-in files for
sm_80, sm_90 and compute_80 (``helpers.prebuilt_cuda_pack``).
"""
import os
import types
import warnings

import pytest

from opsdk.errors import OpsdkWarning
from opsdk.kernels import cuda, prebuilt, prebuilt_cuda, trust

from helpers.prebuilt_cuda_pack import HEADER, KERNEL_CU, NAMES, built_cuda_package, installed_copy  # noqa: F401


class RawModule:
    """Records how it was made; ``get_function`` raises what ``fails`` holds (a driver that cannot
    load the file)."""

    fails = None

    def __init__(self, code=None, *, path=None, options=(), name_expressions=None):
        self.code, self.path, self.options, self.asked = code, path, tuple(options), []

    def get_function(self, name):
        if self.path is not None and RawModule.fails is not None:
            raise RawModule.fails
        self.asked.append(name)
        return name


@pytest.fixture
def gpu(fake_cupy, monkeypatch):
    """The stand-in CuPy with a GPU of compute capability ``gpu.capability`` (default 9.0)."""
    monkeypatch.setattr(RawModule, "fails", None)
    monkeypatch.setattr(cuda, "_refused", set())
    monkeypatch.setattr(prebuilt, "_failed", {})
    fake_cupy.RawModule = RawModule
    fake_cupy.capability = "90"
    fake_cupy.cuda.Device = lambda: types.SimpleNamespace(id=0, attributes={"MultiProcessorCount": 2},
                                                          compute_capability=fake_cupy.capability)
    return fake_cupy


@pytest.fixture
def installed(built_cuda_package, tmp_path, request):
    """A fresh copy of the built package with its own kernel name; returns (folder, module)."""
    folder = tmp_path / "site" / "pkg"
    tag = "t" + request.node.name.replace("[", "_").replace("]", "_").replace("-", "_")
    return folder, installed_copy(built_cuda_package, folder, tag)


def _entry(folder):
    (key,) = os.listdir(folder / prebuilt.FOLDER)
    return folder / prebuilt.FOLDER / key


def _load(module):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a matching build, or none: no warning
        return cuda.load_module(module.SOURCE, "k")


@pytest.mark.parametrize("capability, label", [("90", "sm_90"), ("80", "sm_80"), ("86", "sm_80"), ("89", "sm_80")])
def test_the_cubin_of_the_gpus_architecture_is_loaded_from_the_package(gpu, installed, capability, label):
    folder, module = installed
    gpu.capability = capability
    raw = _load(module)
    assert raw.code is None and raw.path == os.path.join(os.path.realpath(_entry(folder)),
                                                         prebuilt_cuda.file_name(_entry(folder).name, label))
    assert raw.asked == list(NAMES)  # every kernel looked up at load: a file the driver refuses falls back


@pytest.mark.parametrize("capability", ["100", "120"])
def test_a_gpu_with_no_cubin_of_its_own_loads_the_ptx(gpu, installed, capability):
    folder, module = installed
    gpu.capability = capability
    assert _load(module).path.endswith(".compute_80.ptx")


def test_a_gpu_older_than_every_file_compiles_the_source(gpu, installed):
    _, module = installed
    gpu.capability = "75"
    raw = _load(module)
    assert raw.path is None and raw.code.endswith(KERNEL_CU)
    found = prebuilt_cuda.lookup(module.SOURCE, module.SOURCE.read(), 75)
    assert found.kind == "none" and "has nothing for this GPU (compute capability 7.5)" in found.why


def test_the_key_holds_no_path_so_a_copy_elsewhere_finds_its_build(installed):
    _, module = installed
    found = prebuilt_cuda.lookup(module.SOURCE, module.SOURCE.read(), 90)
    assert found.kind == "prebuilt" and found.build.chosen == "sm_90" and found.build.names == NAMES


def test_an_edited_source_is_compiled_not_run_stale(gpu, installed):
    folder, module = installed
    edited = KERNEL_CU.replace("HALF(x[i])", "HALF(x[i]) + 1")
    (folder / "cuda" / "halve.cu").write_text(edited)
    found = prebuilt_cuda.lookup(module.SOURCE, module.SOURCE.read(), 90)
    assert found.kind == "stale" and "edited since it was built" in found.why
    raw = _load(module)  # an edited editable install is normal: no warning
    assert raw.path is None and raw.code.endswith(edited)


def test_an_edited_header_is_compiled_not_run_stale(gpu, installed):
    folder, module = installed
    (folder / "cuda" / "half.cuh").write_text(HEADER.replace("0.5f", "0.25f"))
    assert prebuilt_cuda.lookup(module.SOURCE, module.SOURCE.read(), 90).kind == "stale"
    assert _load(module).path is None


def test_other_options_are_compiled_not_run_stale(gpu, installed, monkeypatch):
    _, module = installed
    monkeypatch.setattr(module.SOURCE, "options", (*module.SOURCE.options, "--use_fast_math"))
    assert _load(module).path is None


def test_a_tampered_cubin_is_refused_with_the_reason_and_the_source_compiled(gpu, installed):
    folder, module = installed
    cubin = _entry(folder) / prebuilt_cuda.file_name(_entry(folder).name, "sm_90")
    cubin.write_text(cubin.read_text().upper())  # same size, other bytes
    found = prebuilt_cuda.lookup(module.SOURCE, module.SOURCE.read(), 90)
    assert found.kind == "refused" and "does not match its MANIFEST" in found.why
    with pytest.warns(OpsdkWarning, match="prebuilt CUDA build was not used.*does not match its MANIFEST"):
        raw = cuda.load_module(module.SOURCE, "k")
    assert raw.path is None and raw.code.endswith(KERNEL_CU)


def test_a_tampered_file_another_gpu_would_load_does_not_matter_here(gpu, installed):
    folder, module = installed
    (_entry(folder) / prebuilt_cuda.file_name(_entry(folder).name, "sm_80")).write_text("altered")
    assert _load(module).path.endswith(".sm_90.cubin")


def test_a_foreign_owned_cubin_is_refused(gpu, installed, monkeypatch):
    folder, module = installed
    cubin = _entry(folder) / prebuilt_cuda.file_name(_entry(folder).name, "sm_90")
    foreign = os.lstat(cubin).st_ino
    monkeypatch.setattr(trust, "_owner", lambda st: 4242 if st.st_ino == foreign else st.st_uid)
    found = prebuilt_cuda.lookup(module.SOURCE, module.SOURCE.read(), 90)
    assert found.kind == "refused" and "belongs to uid 4242" in found.why


def test_a_group_writable_folder_above_the_package_is_refused(installed):
    folder, module = installed
    site = folder.parent
    site.chmod(0o775)
    try:
        found = prebuilt_cuda.lookup(module.SOURCE, module.SOURCE.read(), 90)
    finally:
        site.chmod(0o755)
    assert found.kind == "refused" and f"{site} is writable by its group" in found.why


def test_a_file_the_driver_cannot_load_falls_back_to_the_source_and_is_remembered(gpu, installed):
    _, module = installed
    RawModule.fails = RuntimeError("CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the provided PTX was compiled "
                                   "with an unsupported toolchain.")
    with pytest.warns(OpsdkWarning, match="does not load, the kernel is compiled from its source: "
                                          "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"):
        raw = cuda.load_module(module.SOURCE, "k")
    assert raw.path is None
    found = prebuilt_cuda.lookup(module.SOURCE, module.SOURCE.read(), 90)
    assert found.kind == "refused" and "did not load: CUDA_ERROR_UNSUPPORTED_PTX_VERSION" in found.why


def test_the_simulator_runs_the_source_though_a_build_matches(gpu, installed):
    _, module = installed
    gpu.__opsdk_simulator__ = True
    assert _load(module).path is None


def test_a_package_without_a_build_compiles_the_source_without_hashing(gpu, installed, monkeypatch):
    folder, module = installed
    import shutil

    shutil.rmtree(folder / prebuilt.FOLDER)
    monkeypatch.setattr(prebuilt_cuda, "lookup", lambda *a: pytest.fail("looked up"))
    assert _load(module).path is None


def test_a_c_build_beside_it_is_no_cuda_build(installed):
    folder, module = installed
    import shutil

    shutil.rmtree(_entry(folder))
    (folder / prebuilt.FOLDER / "c0ffee").mkdir()  # the folder holds other builds (C ones)
    found = prebuilt_cuda.lookup(module.SOURCE, module.SOURCE.read(), 90)
    assert found.kind == "none" and "built without nvcc, with OPSDK_CUDA_ARCHS=none or" in found.why


@pytest.mark.parametrize("labels, capability, chosen", [
    (["sm_80", "sm_90", "compute_80"], 90, "sm_90"),
    (["sm_80", "sm_86", "compute_80"], 89, "sm_86"),
    (["sm_80", "sm_90", "compute_80"], 87, "sm_80"),
    (["sm_75", "sm_80", "compute_75"], 90, "compute_75"),
    (["sm_90", "compute_90"], 86, None),
    (["sm_100", "compute_75"], 103, "sm_100"),
    (["sm_100", "compute_75"], 120, "compute_75"),
])
def test_choose_takes_the_cubin_of_the_major_version_else_the_ptx(labels, capability, chosen):
    assert prebuilt_cuda.choose(labels, capability) == chosen
