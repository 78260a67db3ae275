"""nvcc compile checks of CUDA sources, runnable without a GPU."""

import os
import shutil

import pytest

from opsdk.errors import CudaCompileError
from opsdk.kernels import CudaSource, Kernel, check_cuda_source

from .sample import DATA

requires_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")


@requires_nvcc
def test_good_source_compiles_to_ptx():
    result = check_cuda_source(CudaSource("data/scale.cu", names=("scale_f32", "scale_f64")))
    assert result.checked and result.reason == ""
    assert ".entry scale_f32" in result.ptx and ".entry scale_f64" in result.ptx


@requires_nvcc
def test_source_path_can_be_given_directly():
    assert check_cuda_source(os.path.join(DATA, "scale.cu"), arch="sm_80").checked


@requires_nvcc
def test_bad_source_reports_file_and_line():
    with pytest.raises(CudaCompileError) as caught:
        check_cuda_source(CudaSource("data/bad.cu"), kernel="tests.bad_cuda")
    message = str(caught.value)
    assert f"{os.path.join(DATA, 'bad.cu')}:3: error:" in message
    assert "not_declared_anywhere" in message and "kernel 'tests.bad_cuda'" in message


@requires_nvcc
def test_bad_inline_source_names_where_it_was_written():
    source = CudaSource(code='extern "C" __global__ void k(float *y) {\n  y[0] = 1\n}\n')
    with pytest.raises(CudaCompileError, match=r"<inline CUDA from .*test_nvcc.py:\d+>:3: error:"):
        check_cuda_source(source)


@requires_nvcc
def test_kernel_check_cuda_uses_its_cuda_source():
    kernel = Kernel("tests.nvcc_kernel")
    kernel.cuda(CudaSource("data/scale.cu", names=("scale_f32",)))(lambda module, x: None)
    assert kernel.check_cuda().checked


def test_without_nvcc_the_check_is_skipped_with_a_reason(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.delenv("CUDA_PATH", raising=False)
    result = check_cuda_source(CudaSource("data/scale.cu"))
    assert not result.checked
    assert result.reason.startswith("nvcc not found")
