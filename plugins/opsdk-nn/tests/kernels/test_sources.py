"""The C and CUDA the SDK writes for the pack's row ops (Rows): warning-free C, CUDA that nvcc
compiles (the CPU companion of the GPU tests), defining exactly the kernels the adapters launch."""
import re
import subprocess
import sysconfig

import pytest

from opsdk.kernels import check_cuda_source, compiler_info, find_nvcc
from opsdk.kernels.elementwise import C_FLAGS
from opsdk_nn.kernels.cross_entropy import CROSS_ENTROPY
from opsdk_nn.kernels.norms import LAYER_NORM, RMS_NORM
from opsdk_nn.kernels.softmax import LOG_SOFTMAX, SOFTMAX

OPS = {op.short_name: op for op in (SOFTMAX, LOG_SOFTMAX, LAYER_NORM, RMS_NORM, CROSS_ENTROPY)}


@pytest.mark.skipif(not compiler_info().available, reason="no C compiler")
@pytest.mark.parametrize("name", sorted(OPS))
def test_the_written_c_compiles_without_a_warning(name, tmp_path):
    source = OPS[name].forward_kernel.sources["c"]
    path = tmp_path / f"{name}.c"
    path.write_text(source.read())
    command = [*compiler_info().command, "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-fopenmp", *C_FLAGS,
               f"-I{sysconfig.get_paths()['include']}", *(f"-I{folder}" for folder in source.include_dirs), str(path)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc not found: CUDA sources cannot be compile-checked")
@pytest.mark.parametrize("name", sorted(OPS))
def test_the_written_cuda_compiles_with_nvcc_to_the_kernels_launched(name):
    source = OPS[name].forward_kernel.sources["cuda"]
    checked = check_cuda_source(source)
    assert checked.checked
    entries = set(re.findall(r"\.entry\s+(\w+)", checked.ptx))
    assert entries == set(source.names) == {f"{name}_{stage}_{s}" for stage in ("forward", "backward")
                                            for s in ("f32", "f64")}
