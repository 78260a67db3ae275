"""CSource / CudaSource: locating code relative to the file that declares it."""

import os

import pytest

from opsdk.errors import KernelBuildError
from opsdk.kernels import CSource, CudaSource
from opsdk.kernels.sources import SDK_INCLUDE_DIR

from .sample import DATA


def test_path_is_relative_to_the_creating_file():
    source = CSource("data/scale.c", cdef="")
    assert source.path == os.path.join(DATA, "scale.c")
    assert source.base_dir == DATA


def test_inline_code_is_named_after_where_it_was_written():
    source = CSource(code="int f(void);", cdef="int f(void);")
    assert source.display_name.startswith(f"<inline C from {os.path.abspath(__file__)}:")
    assert source.read() == "int f(void);"


def test_path_and_code_together_are_refused():
    with pytest.raises(TypeError, match="exactly one"):
        CSource("data/scale.c", code="int x;", cdef="")


def test_missing_file_is_a_build_error_naming_it():
    source = CSource("data/nowhere.c", cdef="")
    with pytest.raises(KernelBuildError, match="nowhere.c") as caught:
        source.read(kernel="tests.k")
    assert "kernel 'tests.k'" in str(caught.value)


def test_include_dirs_are_relative_to_the_creating_file_then_the_sdk_headers():
    source = CSource("data/scale.c", cdef="", include_dirs=("data",))
    assert source.include_dirs == (DATA, SDK_INCLUDE_DIR)
    assert os.path.isfile(os.path.join(SDK_INCLUDE_DIR, "opsdk", "elementwise.h"))


def test_macros_accept_bare_names_and_pairs():
    source = CSource(code="", cdef="", define_macros=("FAST", ("N", "4")))
    assert source.define_macros == (("FAST", None), ("N", "4"))


def test_cuda_source_keeps_names_and_options():
    source = CudaSource("data/scale.cu", names=("scale_f32",), options=("-std=c++17",))
    assert source.path == os.path.join(DATA, "scale.cu")
    assert (source.names, source.options) == (("scale_f32",), ("-std=c++17",))
