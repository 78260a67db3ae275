"""A package folder whose CUDA source ships prebuilt the way a pack's wheel build ships it
(``opsdk.prebuild.compile_cuda``), and imported from wherever it is copied.

``built_cuda_package`` holds stand-in files (their bytes are not PTX or cubins) under a real
key and MANIFEST: what the loader checks and chooses, with no nvcc needed. ``nvcc_package``
compiles the real files with nvcc.
"""
import os

import pytest

from helpers.prebuilt_pack import import_package

HEADER = "#define HALF(v) ((v) * 0.5f)\n"
KERNEL_CU = """#include "half.cuh"
extern "C" __global__ void halve_f32(const float *x, float *y, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        y[i] = HALF(x[i]);
}
extern "C" __global__ void halve_f64(const double *x, double *y, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        y[i] = HALF(x[i]);
}
"""
NAMES = ("halve_f32", "halve_f64")
# what the stand-in build holds: cubins for 8.x and 9.0, PTX for compute_80
LABELS = ("sm_80", "sm_90", "compute_80")

# {tag} makes each copy's kernel and pack names its own; the header is found through -I, as
# CuPy's NVRTC finds it, from wherever the package is
MODULE = '''\
import os

import opsdk
from opsdk.kernels import CudaSource, Kernel, array_of, tensor_of

CUDA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cuda")
SOURCE = CudaSource("cuda/halve.cu", options=(f"-I{{CUDA_DIR}}", "-DHALVE_UNROLL=1"))
halve = Kernel("{tag}.halve")
halve.python(lambda x: x / 2)


@halve.cuda(SOURCE)
def _halve_cuda(module, x):
    return module


class Halve(opsdk.Function):
    """Half the input."""

    @staticmethod
    def forward(ctx, x):
        return tensor_of(halve(array_of(x)))

    @staticmethod
    def backward(ctx, dy):
        return dy / 2


@opsdk.hookimpl
def register_ops(register):
    register(Halve, name="halve", inputs=[opsdk.TensorSpec(shape=(3,))], kernels=(halve,))
'''


def write_package(folder, tag):
    """Write the package's module (``kern.py``), CUDA source and header into folder (a pathlib.Path)."""
    (folder / "cuda").mkdir(parents=True, exist_ok=True)
    (folder / "cuda" / "halve.cu").write_text(KERNEL_CU)
    (folder / "cuda" / "half.cuh").write_text(HEADER)
    (folder / "kern.py").write_text(MODULE.format(tag=tag))


def stand_in_build(source, labels=LABELS):
    """Make the package's CUDA entry with stand-in files for labels; returns the entry (a str)."""
    from opsdk.kernels import prebuilt, prebuilt_cuda
    from opsdk.kernels.keys import prebuilt_cuda_key
    from opsdk.prebuild.compile_cuda import seal_entry

    key = prebuilt_cuda_key(source, source.read())
    entry = os.path.join(prebuilt.folder_of(source), key)
    os.makedirs(entry)
    for label in labels:
        with open(os.path.join(entry, prebuilt_cuda.file_name(key, label)), "w") as f:
            f.write(f"stand-in {label} of {key}\n")
    seal_entry(entry, source, key, labels, "stand-in")
    return entry


def installed_copy(built, folder, tag):
    """A copy of a built package at folder, its module made with tag; returns the module."""
    import shutil

    shutil.copytree(built, folder)
    (folder / "kern.py").write_text(MODULE.format(tag=tag))
    return import_package(folder, tag)


@pytest.fixture(scope="module")
def built_cuda_package(tmp_path_factory):
    """A package folder whose CUDA source has a stand-in prebuilt entry (LABELS), once per module."""
    folder = tmp_path_factory.mktemp("built") / "pkg"
    write_package(folder, "cudabuild")
    stand_in_build(import_package(folder, "cudabuild").SOURCE)
    return folder
