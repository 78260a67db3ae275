"""compile_cuda: a CUDA source compiled for a wheel with nvcc into a cubin per architecture and the
PTX of the lowest, each holding the source's kernels, found by the loader under the source's key."""
import os

import pytest

from opsdk.errors import CudaCompileError
from opsdk.kernels import CudaSource, find_nvcc, prebuilt, prebuilt_cuda
from opsdk.prebuild.compile_cuda import aot_blocker, compile_cuda_into

from helpers.cubin import cubin_arch, cubin_kernels, ptx_kernels
from helpers.prebuilt_cuda_pack import NAMES, write_package
from helpers.prebuilt_pack import import_package

needs_nvcc = pytest.mark.skipif(find_nvcc() is None, reason="needs nvcc (the CUDA toolkit) to compile")


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """(module, entry, targets) of the helper package compiled for sm_80 and sm_90."""
    if find_nvcc() is None:
        pytest.skip("needs nvcc (the CUDA toolkit) to compile")
    folder = tmp_path_factory.mktemp("nvcc") / "pkg"
    write_package(folder, "nvccbuild")
    module = import_package(folder, "nvccbuild")
    entry, targets = compile_cuda_into(module.SOURCE, prebuilt.folder_of(module.SOURCE), find_nvcc(), (90, 80))
    return module, entry, targets


def _fields(entry):
    return prebuilt.manifest(entry)


@needs_nvcc
def test_a_cubin_per_architecture_and_ptx_for_the_lowest(compiled):
    _, entry, targets = compiled
    key = os.path.basename(entry)
    assert targets == ["sm_80", "sm_90", "compute_80"]
    assert sorted(os.listdir(entry)) == sorted(["MANIFEST", *(prebuilt_cuda.file_name(key, t) for t in targets)])


@needs_nvcc
def test_each_cubin_holds_the_sources_kernels_for_its_architecture(compiled):
    _, entry, _ = compiled
    for label in ("sm_80", "sm_90"):
        path = os.path.join(entry, prebuilt_cuda.file_name(os.path.basename(entry), label))
        assert cubin_kernels(path) == set(NAMES) and cubin_arch(path) == label


@needs_nvcc
def test_the_ptx_defines_the_sources_kernels_for_the_lowest_architecture(compiled):
    _, entry, _ = compiled
    with open(os.path.join(entry, prebuilt_cuda.file_name(os.path.basename(entry), "compute_80"))) as f:
        text = f.read()
    assert ptx_kernels(text) == set(NAMES) and "\n.target sm_80" in text


@needs_nvcc
def test_the_manifest_records_each_file_the_kernels_and_nvcc(compiled):
    _, entry, targets = compiled
    fields = _fields(entry)
    assert fields["kind"] == "cuda" and fields["key"] == os.path.basename(entry)
    assert fields["source"] == "cuda/halve.cu" and fields["kernels"] == " ".join(NAMES)
    assert "release" in fields["nvcc"]
    files = prebuilt_cuda.targets(fields)
    assert list(files) == targets
    for name, size, _ in files.values():
        assert os.path.getsize(os.path.join(entry, name)) == size


@needs_nvcc
def test_the_loader_finds_the_build_under_the_installed_sources_key(compiled):
    module, entry, _ = compiled
    found = prebuilt_cuda.lookup(module.SOURCE, module.SOURCE.read(), 90)
    assert found.kind == "prebuilt" and found.entry == entry and found.build.format == "cubin"


@needs_nvcc
def test_nvccs_first_error_names_the_users_file_and_line(tmp_path):
    (tmp_path / "bad.cu").write_text('extern "C" __global__ void k(float *y) {\n    y[0] = undefined_name;\n}\n')
    source = CudaSource(str(tmp_path / "bad.cu"))
    with pytest.raises(CudaCompileError, match=rf"{tmp_path / 'bad.cu'}:2: error: .*undefined_name"):
        compile_cuda_into(source, str(tmp_path / prebuilt.FOLDER), find_nvcc(), (80,))


def test_template_instances_are_left_to_nvrtc():
    source = CudaSource(code="template <typename T> __global__ void axpy(T *y) { }", names=("axpy<float>",))
    assert "axpy<float> are template instances" in aot_blocker(source)


def test_a_source_without_extern_c_kernels_is_left_to_run_time():
    assert "no extern" in aot_blocker(CudaSource(code="__global__ void k(float *y) { }"))
