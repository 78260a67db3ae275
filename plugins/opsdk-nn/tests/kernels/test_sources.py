"""The C and CUDA sources: warning-free C, CUDA that nvcc compiles (the CPU companion of the GPU
tests), and exactly the kernels the adapters launch."""
import os
import re
import subprocess
import sysconfig

import pytest

from opsdk.kernels import check_cuda_source, compiler_info, find_nvcc
from opsdk_nn.kernels import sources

C_IDS = [os.path.basename(s.path) for s in sources.C_SOURCES]
CUDA_IDS = [os.path.basename(s.path) for s in sources.CUDA_SOURCES]
needs_nvcc = pytest.mark.skipif(find_nvcc() is None,
                                reason="nvcc not found: CUDA sources cannot be compile-checked")


@pytest.mark.skipif(not compiler_info().available, reason="no C compiler")
@pytest.mark.parametrize("source", sources.C_SOURCES, ids=C_IDS)
def test_c_source_compiles_without_a_warning(source, tmp_path):
    command = [*compiler_info().command, "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-fopenmp",
               *sources.C_FLAGS, f"-I{sysconfig.get_paths()['include']}",
               *(f"-I{folder}" for folder in source.include_dirs), source.path]  # the SDK's headers too
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr


_ptx = {}


def _checked(source):
    """nvcc's check of a source (PTX for its default arch), once per session."""
    if source.path not in _ptx:
        _ptx[source.path] = check_cuda_source(source)
    return _ptx[source.path]


@needs_nvcc
@pytest.mark.parametrize("source", sources.CUDA_SOURCES, ids=CUDA_IDS)
def test_cuda_source_compiles_with_nvcc(source):
    assert _checked(source).checked


@needs_nvcc
@pytest.mark.parametrize("source", sources.CUDA_SOURCES, ids=CUDA_IDS)
def test_cuda_source_defines_exactly_the_kernels_the_adapters_launch(source):
    entries = set(re.findall(r"\.entry\s+(\w+)", _checked(source).ptx))
    assert entries == set(source.names)


def test_cuda_options_point_nvrtc_at_the_shared_header():
    include = sources.SOFTMAX_CUDA.options[0]
    assert include.startswith("-I") and os.path.isfile(os.path.join(include[2:], "nn_common.cuh"))
