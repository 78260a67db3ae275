"""Compiling for the simulator: rewriting CUDA as host C++, options, errors naming file:line, caching."""
import os

import pytest

from opsdk.errors import KernelBuildError
from opsdk.kernels.cudasim import build, rewrite
from opsdk.kernels.cudasim.options import compile_options

PREPROCESSED = '''# 1 "/src/k.cu"
typedef long long i64;
extern "C" __global__ void k(const float *__restrict__ x, float *y, i64 n, double) {
  __shared__ volatile float s[256], t;
  extern __shared__ double dyn[];
  s[0] = x[0];
}
namespace ns {
template <typename T> __global__ void tk(T *a, int n) { __shared__ T q[4][5]; }
}
extern "C" {
__global__ void k2(void) {}
}
'''


def test_kernels_their_parameters_and_where_they_are_defined_are_found():
    found = {k.name: k for k in rewrite.rewrite(PREPROCESSED).kernels}
    assert sorted(found) == ["k", "k2", "tk"]
    k = found["k"]
    assert [p.name for p in k.params] == ["x", "y", "n", ""]
    assert k.params[0].type == "const float *__restrict__"
    assert (k.file, k.line, k.extern_c, k.template) == ("/src/k.cu", 2, True, False)
    assert found["tk"].qualified == "::ns::tk" and found["tk"].template and not found["tk"].extern_c
    assert found["k2"].extern_c


def test_shared_declarations_become_arena_slots_and_lines_are_kept():
    text = rewrite.rewrite(PREPROCESSED).text
    assert "__shared__" not in text and "__global__" not in text
    assert text.count("\n") == PREPROCESSED.count("\n")
    # a function-scope declaration: a static key names its slot, a local reference holds it
    assert ('typedef volatile float opsdk_shared_t1_s[256]; static char opsdk_shared_k1_s; '
            'opsdk_shared_t1_s &s = ') in text
    assert '"s", "/src/k.cu", 3' in text and '"t", "/src/k.cu", 3' in text
    assert "double *const dyn = reinterpret_cast<double *>(::opsdk_sim_dynamic_shared);" in text
    assert "typedef T opsdk_shared_t3_q[4][5]" in text


def test_a_shared_variable_with_an_initializer_is_refused_as_cuda_does():
    with pytest.raises(KernelBuildError, match=r"/src/k.cu:2: error: initializer not allowed for a __shared__"):
        rewrite.rewrite('# 1 "/src/k.cu"\n__global__ void f() {\n  __shared__ int n = 0;\n}\n')


def test_nvrtc_options_are_honoured_and_unknown_ones_refused(tmp_path):
    opts = compile_options(("-I", str(tmp_path), "-DX=1", "--std=c++14", "-arch=sm_80", "--use_fast_math",
                            "-lineinfo"), "k.cu")
    assert opts.flags == (f"-I{tmp_path}", "-DX=1", "-DOPSDK_SIM_FAST_MATH") and opts.std == "-std=c++14"
    assert opts.fast_math
    with pytest.raises(KernelBuildError, match="NVRTC does not accept the compile option '--bogus'"):
        compile_options(("--bogus",), "k.cu")


def test_a_compile_error_names_the_users_file_and_line(cp):
    code = '#line 1 "/src/broken.cu"\nextern "C" __global__ void k(float *y) {\n  y[0] = undeclared;\n}\n'
    with pytest.raises(cp.cuda.compiler.CompileException, match=r"/src/broken.cu:2:\d+: error: .*undeclared"):
        cp.RawModule(code=code).get_function("k")


def test_an_unknown_kernel_name_lists_the_ones_there_are(cp, probe):
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="no kernel 'nope'.*'axpy<float>'"):
        probe.get_function("nope")


def test_a_module_compiles_once_then_comes_from_the_cache(cp, tmp_path, monkeypatch):
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(tmp_path))
    code = 'extern "C" __global__ void once(float *y) { y[threadIdx.x] = 2.0f; }\n'
    first = build.build_module(code)
    entries = sorted(os.listdir(tmp_path / "cudasim"))
    second = build.build_module(code)
    assert first.path == second.path and sorted(os.listdir(tmp_path / "cudasim")) == entries
    from opsdk.kernels.cudasim.toolchain import toolchain

    assert "once" in first.kernels and first.instrumented == bool(toolchain().hooks)
    with open(tmp_path / "builds.log", encoding="utf-8") as f:
        log = f.read()
    assert log.count("<CUDA source>") == 1  # compiled once
    y = cp.zeros(4, cp.float32)
    cp.RawKernel(code, "once")((1,), (4,), (y,))
    assert y.get().tolist() == [2.0] * 4
