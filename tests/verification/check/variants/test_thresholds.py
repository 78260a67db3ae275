import types

from opsdk.verification.check.drawing import Drawn
from opsdk.verification.check.runner import samples_for
from opsdk.verification.check.samples import CaseSample
from opsdk.verification.check.variants.thresholds import backend_sizes, source_sizes
from opsdk.kernels import CSource, CudaSource


def _op(code, tmp_path=None):
    kernel = types.SimpleNamespace(name="k", sources={"c": CSource(code=code, cdef="")})
    return types.SimpleNamespace(kernels=(kernel,))


def test_one_above_each_size_like_constant_of_the_source():
    op = _op("#define PAR_MIN 100000\nvoid f(int n) { if (n > 65536) {} for (int i = 0; i < 64; i++); }")
    assert source_sizes(op) == (100001, 65537)


def test_floats_names_and_small_or_huge_numbers_are_no_thresholds():
    op = _op("double c = 0.79788456; int x12345 = 1; int big = 123456789; int small = 512;")
    assert source_sizes(op) == ()


def test_quoted_headers_beside_the_source_are_read_too(tmp_path):
    (tmp_path / "par.h").write_text("#define CHUNK 8192\n")
    (tmp_path / "k.c").write_text('#include "par.h"\nvoid f(void) {}\n')
    kernel = types.SimpleNamespace(name="k", sources={"c": CSource(str(tmp_path / "k.c"), cdef="")})
    assert source_sizes(types.SimpleNamespace(kernels=(kernel,))) == (8193,)


def test_suffixed_hex_and_shifted_constants_are_read():
    op = _op("#define PAR_MIN (1 << 17)\nvoid f(long n) { if (n > 65536UL) {} if (n > 0x3000) {} }")
    assert source_sizes(op) == (131073, 65537, 12289)


def test_define_macros_of_the_source_are_read():
    kernel = types.SimpleNamespace(name="k", sources={"c": CSource(
        code="void f(long n) { if (n > PAR_N) {} }", cdef="", define_macros=(("PAR_N", "150000"),))})
    assert source_sizes(types.SimpleNamespace(kernels=(kernel,))) == (150001,)


PARALLEL_FROM = 250_000


def test_integers_the_python_adapter_holds_or_reads_from_its_module_are_read():
    def adapter(lib, ffi, x):
        return lib.f(x, PARALLEL_FROM, 3000)

    kernel = types.SimpleNamespace(name="k", sources={"c": CSource(code="void f(void) {}", cdef="")},
                                   _impls={"c": adapter})
    assert source_sizes(types.SimpleNamespace(kernels=(kernel,))) == (250001, 3001)


def test_each_threshold_names_the_backends_whose_sources_hold_it():
    kernel = types.SimpleNamespace(name="k", sources={
        "c": CSource(code="void f(long n) { if (n > 65536) {} if (n > 8192) {} }", cdef=""),
        "cuda": CudaSource(code="__global__ void k(int n) { if (n > 8192) {} }")})
    assert backend_sizes(types.SimpleNamespace(kernels=(kernel,))) == {65537: ("c",), 8193: ("c", "cuda")}


def test_a_size_sample_for_c_only_is_run_on_c_and_python_not_on_cuda():
    sizes = types.SimpleNamespace(KINDS=("size",))
    everywhere = CaseSample("size 7", (), {}, 0, kind="size")
    c_only = CaseSample("size 65537", (), {}, 0, kind="size", backends=("c",))
    drawn = Drawn([everywhere, c_only])
    assert samples_for(sizes, drawn, "c") == [everywhere, c_only]
    assert samples_for(sizes, drawn, "python") == [everywhere, c_only]
    assert samples_for(sizes, drawn, "cuda") == [everywhere]
