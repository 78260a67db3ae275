import types

from opsdk.check.variants.thresholds import source_sizes
from opsdk.kernels import CSource


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
