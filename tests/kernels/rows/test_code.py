"""The C and CUDA sources written from a rows op's statements: double accumulation, the column
pass, the block reduction; the CUDA source compiles with nvcc and runs on the simulator."""
import shutil
import subprocess

import numpy
import pytest

from opsdk.kernels.rows.code import BLOCK
from opsdk.kernels.sources import SDK_INCLUDE_DIR

from .pack import module

RMS, LAYER, SOFTMAX = module("rms_norm"), module("layer_norm"), module("softmax")


def test_c_sums_in_double_and_max_in_t_with_simd_reductions():
    rms, softmax = RMS.OP.c_code(), SOFTMAX.OP.c_code()
    assert "double opsdk_a_ss = 0.0;\n" in rms and "#pragma omp simd reduction(+:opsdk_a_ss)" in rms
    assert "T opsdk_a_top = -INFINITY;" in softmax and "reduction(max:opsdk_a_top)" in softmax
    assert "#define exp opsdk_exp_f32" in softmax and "#define sqrt" not in softmax


def test_c_feature_outputs_have_a_column_pass_of_their_own():
    c = LAYER.OP.c_code()
    assert "double opsdk_a_dweight[64] = {0.0};" in c and "double opsdk_a_dbias[64] = {0.0};" in c
    assert c.count("OPSDK_PARALLEL_CHUNKS(K, rows * K, 64") == 2  # backward, both dtypes
    assert "_cols_" not in SOFTMAX.OP.c_code()


def test_cuda_reduces_per_block_and_adds_feature_blocks_after_the_rows():
    cuda = LAYER.OP.cuda_code()
    assert "__shared__ double red[33];" in cuda and "rows_reduce(opsdk_a_s, 0, red)" in cuda
    assert "t < rows + (K + blockDim.x - 1) / blockDim.x" in cuda  # backward: the feature blocks
    assert "t < rows;" in cuda  # forward: rows only


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")
@pytest.mark.parametrize("name", ["rms_norm", "layer_norm", "softmax"])
def test_the_written_cuda_source_compiles_with_nvcc_to_its_four_kernels(tmp_path, name):
    source = tmp_path / f"{name}.cu"
    source.write_text(module(name).OP.cuda_code())
    cubin = tmp_path / f"{name}.cubin"
    subprocess.run(["nvcc", "-cubin", "-arch=sm_80", "-Werror", "all-warnings", f"-I{SDK_INCLUDE_DIR}", str(source),
                    "-o", str(cubin)], check=True, capture_output=True, timeout=300)
    symbols = cubin.read_bytes()
    for stage in ("forward", "backward"):
        for sfx in ("f32", "f64"):
            assert f".text.{name}_{stage}_{sfx}".encode() in symbols


@pytest.mark.slow
@pytest.mark.parametrize("dtype, tol", [("float64", 1e-12), ("float32", 2e-6)])
def test_the_cuda_kernels_agree_with_python_on_the_simulator(dtype, tol, monkeypatch):
    from opsdk.kernels import cudasim

    monkeypatch.setenv("OPSDK_CUDA_SIM", "1")
    cudasim.install_unless_a_gpu()
    import cupy

    rng = numpy.random.default_rng(2)
    x = rng.standard_normal((3, BLOCK + 45)).astype(dtype)  # a row longer than a block, a partial warp
    w, b = (rng.uniform(0.5, 1.5, x.shape[1]).astype(dtype) for _ in range(2))
    dy = rng.standard_normal(x.shape).astype(dtype)
    fwd, bwd = LAYER.OP.kernels
    want = fwd.run("python", x, w, b, eps=1e-5)
    got = fwd.run("cuda", *map(cupy.asarray, (x, w, b)), eps=1e-5)
    grads = bwd.run("python", x, w, want[1], want[2], dy)
    got_grads = bwd.run("cuda", *map(cupy.asarray, (x, w, want[1], want[2], dy)))
    for g, e in zip((*got, *got_grads), (*want, *grads)):
        numpy.testing.assert_allclose(cupy.asnumpy(g), e, rtol=tol, atol=tol)
