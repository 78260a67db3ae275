"""One function per dtype: suffixes, and c_function / cuda_function picking the dtype's function."""

import numpy
import pytest

from opsdk.errors import KernelArgumentError
from opsdk.kernels import CSource, build_c, c_function, cuda_function, dtype_suffix


@pytest.mark.parametrize("dtype, suffix", [("float32", "f32"), (numpy.float64, "f64"), ("int64", "i64"),
                                           ("float16", "f16"), ("bool", "b8")])
def test_suffixes(dtype, suffix):
    assert dtype_suffix(dtype) == suffix


def test_a_dtype_without_a_suffix_is_refused():
    with pytest.raises(KernelArgumentError, match="complex64"):
        dtype_suffix("complex64")


def test_c_function_picks_the_dtype_and_remembers_it(cache):
    lib, ffi = build_c(CSource("data/scale.c"))
    assert c_function(lib, "scale", numpy.dtype("float32")) is lib.scale_f32
    assert c_function(lib, "scale", numpy.dtype("float64")) is c_function(lib, "scale", numpy.dtype("float64"))


def test_c_function_names_what_the_source_has(cache):
    lib, _ = build_c(CSource("data/scale.c"))
    with pytest.raises(KernelArgumentError, match="(?s)scale_i32.*scale_f32, scale_f64"):
        c_function(lib, "scale", numpy.dtype("int32"))


def test_cuda_function_asks_the_module_for_the_suffixed_name():
    asked = []

    class Module:
        def get_function(self, name):
            asked.append(name)
            return name

    module = Module()
    assert cuda_function(module, "scale", numpy.dtype("float32")) == "scale_f32"
    cuda_function(module, "scale", numpy.dtype("float32"))
    assert asked == ["scale_f32"]
