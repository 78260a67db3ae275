"""c_pointer and device_of."""

import numpy
import pytest

from opsdk.errors import KernelArgumentError
from opsdk.kernels import CSource, build_c, c_pointer, device_of

from .sample import FakeGpuArray

SUM = CSource(
    code="#include <stdint.h>\n"
         "double sum_f64(const double *x, int64_t n) {\n"
         "    double s = 0; for (int64_t i = 0; i < n; i++) s += x[i]; return s;\n}\n"
         "int64_t sum_i32(const int32_t *x, int64_t n) {\n"
         "    int64_t s = 0; for (int64_t i = 0; i < n; i++) s += x[i]; return s;\n}\n",
    cdef="double sum_f64(const double *x, int64_t n); int64_t sum_i32(const int32_t *x, int64_t n);",
)


@pytest.fixture
def ffi_lib(cache):
    lib, ffi = build_c(SUM)
    return ffi, lib


def test_pointer_is_typed_by_the_array_dtype(ffi_lib):
    ffi, lib = ffi_lib
    assert lib.sum_f64(c_pointer(ffi, numpy.array([1.5, 2.5])), 2) == 4.0
    assert lib.sum_i32(c_pointer(ffi, numpy.array([1, 2, 3], dtype=numpy.int32)), 3) == 6


def test_pointer_shares_memory_with_the_array(ffi_lib):
    ffi, _ = ffi_lib
    x = numpy.zeros(3)
    c_pointer(ffi, x, writable=True)[1] = 7.0
    assert x[1] == 7.0


def test_non_contiguous_array_is_refused(ffi_lib):
    ffi, _ = ffi_lib
    with pytest.raises(KernelArgumentError, match="C-contiguous"):
        c_pointer(ffi, numpy.arange(6.0)[::2])


def test_read_only_array_is_refused_when_writable(ffi_lib):
    ffi, _ = ffi_lib
    x = numpy.zeros(3)
    x.flags.writeable = False
    c_pointer(ffi, x)  # reading is fine
    with pytest.raises(KernelArgumentError, match="writable"):
        c_pointer(ffi, x, writable=True)


def test_dtype_without_a_c_type_is_refused(ffi_lib):
    ffi, _ = ffi_lib
    with pytest.raises(KernelArgumentError, match="complex128"):
        c_pointer(ffi, numpy.zeros(2, dtype=numpy.complex128))


def test_non_array_is_refused(ffi_lib):
    ffi, _ = ffi_lib
    with pytest.raises(KernelArgumentError, match="list"):
        c_pointer(ffi, [1.0, 2.0])


def test_device_of_numpy_arrays_is_cpu():
    assert device_of((1.0, numpy.zeros(2))) == "cpu"


def test_device_of_cupy_arrays_is_gpu():
    assert device_of((2.0, FakeGpuArray([1.0]))) == "gpu"


def test_device_without_arrays_is_cpu():
    assert device_of((1, "x")) == "cpu"
