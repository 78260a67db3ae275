"""Declarations read from C and CUDA sources: the cdef of a CSource, the prototypes adapters follow."""

import pytest

from opsdk.errors import KernelBuildError
from opsdk.kernels import CSource, CudaSource, build_c
from opsdk.kernels.declarations import c_declarations, c_prototypes, cuda_prototypes

from .sample import SCALE_C


def test_every_file_level_function_but_static_ones_is_declared():
    code = """
        #include <stdint.h>
        #define TWICE(v) (2 * (v))   /* a macro: { braces } in comments and "strings {" are no code */
        static inline double helper(double v) { return TWICE(v); }
        struct pair { double a, b; };
        static const double table[2] = {1.0, 2.0};
        void scale_f64(const double *restrict x, double *restrict y, int64_t n, double alpha)
        {
            const char *note = "}";
            for (int64_t i = 0; i < n; i++) { y[i] = alpha * helper(x[i]); }
        }
        __attribute__((visibility("default"))) int count(void) { return 2; }
    """
    assert c_declarations(code).splitlines() == [
        "void scale_f64(const double *x, double *y, int64_t n, double alpha);",
        "int count(void);",
    ]


def test_the_declarations_of_a_file_on_disk_bind_with_cffi(cache):
    source = CSource("data/scale.c")
    lib, _ = build_c(source)
    assert {"scale_f32", "scale_f64"} <= set(dir(lib))
    assert not source.cdef_given


def test_a_given_cdef_wins_over_the_source():
    source = CSource("data/scale.c", cdef="void scale_f64(const double *x, double *y, int64_t n, double a);")
    assert source.cdef_given and source.cdef.count(";") == 1


def test_the_derived_cdef_is_reread_when_the_file_changes(tmp_path):
    path = tmp_path / "k.c"
    path.write_text("void one(double *x) { x[0] = 1; }")
    source = CSource(str(path))
    assert "one" in source.cdef
    path.write_text("void two(double *x) { x[0] = 2; }")
    assert "two" in source.cdef and "one" not in source.cdef


def test_a_source_whose_functions_macros_define_needs_a_cdef():
    with pytest.raises(KernelBuildError, match="(?s)no function to call.*cdef="):
        c_declarations("#define MAKE(n) void n(void) {}\nMAKE(f)\n", "made.c")


def test_a_head_pycparser_cannot_read_names_the_function_and_line():
    code = "void ok(double *x) { }\n\nMY_EXPORT void odd(double *x) { }\n"
    with pytest.raises(KernelBuildError, match=r"(?s)odd.c, the function at line 3.*cdef=.*got: 'MY_EXPORT void odd\(double \*x\)'"):
        c_declarations(code, "odd.c")


def test_prototypes_sort_parameters_into_inputs_outputs_and_scalars():
    proto = c_prototypes("void f(const float *x, const float *g, float *y, int64_t n, double beta);")["f"]
    assert [p.name for p in proto.inputs] == ["x", "g"]
    assert [p.name for p in proto.outputs] == ["y"]
    assert [(p.name, p.ctype) for p in proto.scalars] == [("n", "int64_t"), ("beta", "double")]


def test_cuda_kernels_are_read_from_extern_c_global_functions():
    code = """
        __device__ float helper(float v) { return v; }
        // extern "C" __global__ void commented_out(float *y) {}
        extern "C" __global__ void __launch_bounds__(256) k_f32(const float *__restrict__ x, float *y, long long n, float a)
        { }
        extern "C" __global__ void k_f64(const double *x, double *y, long long n, double a) { }
    """
    found = cuda_prototypes(code)
    assert list(found) == ["k_f32", "k_f64"]
    assert [(p.name, p.ctype, p.pointer, p.const) for p in found["k_f32"].params] == [
        ("x", "float", True, True), ("y", "float", True, False), ("n", "long long", False, False),
        ("a", "float", False, False)]


def test_cuda_source_names_default_to_its_kernels():
    source = CudaSource(code='extern "C" __global__ void a(float *y) { }\nextern "C" __global__ void b(float *y) { }')
    assert source.names == ("a", "b")
    assert CudaSource(code="", names=("x<float>",)).names == ("x<float>",)


def test_scale_c_declares_both_dtypes():
    with open(SCALE_C, encoding="utf-8") as f:
        names = list(c_prototypes(c_declarations(f.read())))
    assert names == ["scale_f32", "scale_f64"]
