"""Kernel: implementations, dispatch by device and availability, forcing, argument checks."""

import warnings

import numpy
import pytest

from opsdk.errors import BackendUnavailableError, KernelArgumentError, KernelBuildError, OpsdkWarning
from opsdk.kernels import CSource, CudaSource, Kernel, all_kernels, c_pointer, use_backend

from .sample import FakeGpuArray, make_scale, scale_source


def _python_must_not_run(x, *, alpha):
    raise AssertionError("the python implementation ran")


def test_backends_lists_implementations_in_order():
    kernel = make_scale("tests.order")
    kernel.cuda(CudaSource("data/scale.cu", names=("scale_f32",)))(lambda module, x, *, alpha: None)
    assert kernel.backends == ("python", "c", "cuda")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(0,), (1,), (1000,), (7, 3)])
def test_c_and_python_implementations_agree(cache, dtype, shape):
    kernel = make_scale("tests.agree")
    x = numpy.random.default_rng(0).standard_normal(shape).astype(dtype)
    numpy.testing.assert_allclose(kernel.run("c", x, alpha=1.5), kernel.run("python", x, alpha=1.5), rtol=1e-6)


def test_cpu_arrays_run_the_c_implementation_first(cache):
    kernel = make_scale("tests.c_first", python=False)
    kernel.python(_python_must_not_run)
    numpy.testing.assert_array_equal(kernel(numpy.arange(3.0), alpha=2.0), [0.0, 2.0, 4.0])


def test_use_backend_forces_python(cache):
    kernel = make_scale("tests.force", c=False)
    kernel.c(CSource("data/bad.c", cdef="void broken(double *y, int64_t n);"))(lambda lib, ffi, x, *, alpha: None)
    with use_backend("python"):  # the broken C source is never even compiled
        numpy.testing.assert_array_equal(kernel(numpy.ones(2), alpha=3.0), [3.0, 3.0])


def test_environment_variable_forces_python(cache, monkeypatch):
    kernel = make_scale("tests.env", python=False)
    kernel.python(lambda x, *, alpha: "python ran")
    monkeypatch.setenv("OPSDK_BACKEND", "python")
    assert kernel(numpy.ones(2), alpha=1.0) == "python ran"


def test_run_uses_the_named_backend(cache):
    kernel = make_scale("tests.run", python=False)
    kernel.python(lambda x, *, alpha: "python ran")
    assert kernel.run("python", numpy.ones(2), alpha=1.0) == "python ran"
    numpy.testing.assert_array_equal(kernel.run("c", numpy.ones(2), alpha=2.0), [2.0, 2.0])


def test_forced_backend_that_is_not_implemented_raises(cache):
    kernel = make_scale("tests.no_c", c=False)
    with use_backend("c"), pytest.raises(BackendUnavailableError) as caught:
        kernel(numpy.ones(2), alpha=1.0)
    message = str(caught.value)
    assert "kernel 'tests.no_c'" in message and "backend 'c'" in message and "not implemented" in message


def test_forced_cuda_on_numpy_arrays_raises(cache):
    kernel = make_scale("tests.cuda_cpu")
    kernel.cuda(CudaSource("data/scale.cu", names=("scale_f32",)))(lambda module, x, *, alpha: None)
    with pytest.raises(BackendUnavailableError, match="CUDA backend runs on CuPy"):
        kernel.run("cuda", numpy.ones(2), alpha=1.0)


def test_forced_c_without_compiler_raises(cache, no_compiler):
    kernel = make_scale("tests.forced_c")
    with use_backend("c"), pytest.raises(BackendUnavailableError, match="no C compiler"):
        kernel(numpy.ones(2), alpha=1.0)


def test_missing_compiler_falls_back_to_python_with_one_warning(cache, no_compiler):
    kernel = make_scale("tests.fallback")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            numpy.testing.assert_array_equal(kernel(numpy.ones(2), alpha=2.0), [2.0, 2.0])
        kernel(numpy.ones(2, dtype=numpy.float32), alpha=2.0)
    assert [w.category for w in caught] == [OpsdkWarning]
    message = str(caught[0].message)
    assert "tests.fallback" in message and "'c' is unavailable" in message and "'python'" in message


def test_no_runnable_backend_for_the_device_raises(cache):
    kernel = Kernel("tests.gpu_only")
    kernel.cuda(CudaSource("data/scale.cu", names=("scale_f32",)))(lambda module, x: None)
    with pytest.raises(BackendUnavailableError, match="no backend runs on cpu arrays"):
        kernel(numpy.ones(2))


def test_c_compile_error_is_raised_not_hidden_by_a_fallback(cache):
    kernel = make_scale("tests.broken", c=False)
    kernel.c(CSource("data/bad.c", cdef="void broken(double *y, int64_t n);"))(lambda lib, ffi, x, *, alpha: None)
    with pytest.raises(KernelBuildError, match="bad.c:4"):
        kernel(numpy.ones(2), alpha=1.0)


def test_non_contiguous_input_is_made_contiguous_for_c(cache):
    kernel = make_scale("tests.strided")
    x = numpy.arange(10.0)[::3]
    numpy.testing.assert_array_equal(kernel(x, alpha=2.0), 2.0 * x)


def test_wrong_dtype_for_c_names_kernel_argument_expected_and_got(cache):
    kernel = make_scale("tests.dtype")
    with pytest.raises(KernelArgumentError) as caught:
        kernel.run("c", numpy.arange(3), alpha=2.0)
    message = str(caught.value)
    assert "kernel 'tests.dtype'" in message and "argument 'x'" in message
    assert "expected: float32 or float64" in message and "got: int64" in message


def test_python_implementation_takes_any_dtype(cache):
    kernel = make_scale("tests.any_dtype", c=False)
    numpy.testing.assert_array_equal(kernel(numpy.arange(3), alpha=2), [0, 2, 4])


TAKE = CSource(
    code="#include <stdint.h>\n"
         "void take(const double *x, const int64_t *idx, double *y, int64_t n) {\n"
         "    for (int64_t i = 0; i < n; i++) y[i] = x[idx[i]];\n}\n",
    cdef="void take(const double *x, const int64_t *idx, double *y, int64_t n);",
)


def _take_kernel(name):
    kernel = Kernel(name, dtypes=("float64",), arg_dtypes={"index": ("int64",)})

    @kernel.c(TAKE)
    def _(lib, ffi, x, index):
        y = numpy.empty(index.shape, dtype=x.dtype)
        lib.take(c_pointer(ffi, x), c_pointer(ffi, index), c_pointer(ffi, y, writable=True), index.size)
        return y

    return kernel


def test_arg_dtypes_override_the_dtypes_of_one_argument(cache):
    kernel = _take_kernel("tests.take")
    y = kernel(numpy.array([10.0, 20.0, 30.0]), numpy.array([2, 0]))
    numpy.testing.assert_array_equal(y, [30.0, 10.0])
    with pytest.raises(KernelArgumentError, match="argument 'index'.*\n.*expected: int64"):
        kernel(numpy.array([10.0, 20.0]), numpy.array([1.0]))


def test_one_arg_dtype_may_be_given_without_a_tuple():
    kernel = Kernel("tests.take_one", dtypes=("float64",), arg_dtypes={"index": "int64"})
    assert kernel._arg_dtypes == {"index": frozenset({numpy.dtype("int64")})}


def test_array_keyword_arguments_are_checked_and_made_contiguous(cache):
    kernel = _take_kernel("tests.take_kw")
    y = kernel(numpy.array([10.0, 20.0, 30.0]), index=numpy.array([2, 9, 0])[::2])
    numpy.testing.assert_array_equal(y, [30.0, 10.0])
    with pytest.raises(KernelArgumentError, match="argument 'x'"):
        kernel(x=numpy.array([1, 2]), index=numpy.array([0]))


def test_adding_an_implementation_changes_later_dispatch(cache):
    kernel = make_scale("tests.late_c", c=False, python=False)
    kernel.python(lambda x, *, alpha: "python ran")
    assert kernel(numpy.ones(1), alpha=1.0) == "python ran"
    kernel.c(scale_source())(lambda lib, ffi, x, *, alpha: "c ran")
    assert kernel(numpy.ones(1), alpha=1.0) == "c ran"


def test_all_kernels_lists_every_kernel_by_name():
    first, second = Kernel("tests.listed_b"), Kernel("tests.listed_a")
    names = [k.name for k in all_kernels()]
    assert first in all_kernels() and second in all_kernels()
    assert names == sorted(names)


def test_available_backends_on_cpu_include_c_when_a_compiler_exists(cache):
    assert make_scale("tests.avail").available_backends("cpu") == ("python", "c")


def test_available_backends_on_cpu_without_compiler_or_cache(cache, no_compiler):
    assert make_scale("tests.avail_nocc").available_backends("cpu") == ("python",)


def test_available_backends_on_gpu_exclude_c(cache):
    assert make_scale("tests.avail_gpu").available_backends("gpu") == ("python",)


def test_c_decorator_requires_a_csource():
    with pytest.raises(TypeError, match="CSource"):
        Kernel("tests.wrong_source").c("scale.c")


# -- GPU dispatch, exercised with a stand-in for CuPy (the real thing runs in test_cuda.py) --

def _gpu_scale(name):
    kernel = make_scale(name, c=False)

    @kernel.cuda(CudaSource(code="// scale", names=("scale_f64",)))
    def _(module, x, *, alpha):
        assert module[0] == "raw module" and module[1].endswith("\n// scale")
        return ("cuda ran", x.flags.c_contiguous)

    return kernel


def test_gpu_arrays_run_the_cuda_implementation(fake_cupy):
    assert _gpu_scale("tests.gpu")(FakeGpuArray(numpy.ones(2)), alpha=1.0) == ("cuda ran", True)


def test_gpu_arrays_are_made_contiguous_for_cuda(fake_cupy):
    assert _gpu_scale("tests.gpu_strided")(FakeGpuArray(numpy.ones(6)[::2]), alpha=1.0) == ("cuda ran", True)


def test_gpu_arrays_fall_back_to_python_without_a_device(fake_cupy):
    fake_cupy.devices = 0
    kernel = _gpu_scale("tests.gpu_fallback")
    kernel.python(lambda x, *, alpha: "python ran")
    with pytest.warns(OpsdkWarning, match="CuPy finds no CUDA device"):
        assert kernel(FakeGpuArray(numpy.ones(2)), alpha=1.0) == "python ran"


def test_forced_c_on_gpu_arrays_raises(fake_cupy, cache):
    with pytest.raises(BackendUnavailableError, match="C backend runs on NumPy"):
        make_scale("tests.c_gpu").run("c", FakeGpuArray(numpy.ones(2)), alpha=1.0)


# -- one float dtype per call, on every backend -------------------------------------------------

def _pair_kernel(name):
    """x * y in python and C (the C adapter picks its function from x's dtype, as adapters do)."""
    kernel = Kernel(name)
    kernel.python(lambda x, y: x * y)
    source = CSource(code="#include <stdint.h>\n"
                          "void mul_f32(const float *x, const float *y, float *z, int64_t n) {"
                          " for (int64_t i = 0; i < n; i++) z[i] = x[i] * y[i]; }\n"
                          "void mul_f64(const double *x, const double *y, double *z, int64_t n) {"
                          " for (int64_t i = 0; i < n; i++) z[i] = x[i] * y[i]; }\n",
                     cdef="void mul_f32(const float *x, const float *y, float *z, int64_t n);"
                          "void mul_f64(const double *x, const double *y, double *z, int64_t n);")

    @kernel.c(source)
    def _(lib, ffi, x, y):
        z = numpy.empty_like(x)
        fn = lib.mul_f32 if x.dtype == numpy.float32 else lib.mul_f64
        fn(c_pointer(ffi, x), c_pointer(ffi, y), c_pointer(ffi, z, writable=True), x.size)
        return z

    return kernel


@pytest.mark.parametrize("backend", ["python", "c"])
def test_arrays_of_two_float_dtypes_are_refused_on_every_backend(cache, backend):
    kernel = _pair_kernel(f"tests.mixed_{backend}")
    x, y = numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float64)
    with pytest.raises(KernelArgumentError) as caught:
        kernel.run(backend, x, y)
    message = str(caught.value)
    assert f"kernel 'tests.mixed_{backend}' (backend '{backend}')" in message
    assert "arguments 'x' and 'y' have different float dtypes" in message and "got: x float32, y float64" in message
    with use_backend(backend), pytest.raises(KernelArgumentError, match="different float dtypes"):
        kernel(x, y)


def test_one_float_dtype_and_other_kinds_pass(cache):
    kernel = _pair_kernel("tests.mixed_ok")
    assert kernel(numpy.ones(3, numpy.float32), numpy.full(3, 2, numpy.float32)).tolist() == [2.0] * 3
    assert kernel.run("python", numpy.ones(3), numpy.arange(3)).tolist() == [0.0, 1.0, 2.0]
    # a dtype the kernel does not implement (float16 on python) is not held against it
    assert kernel.run("python", numpy.ones(2, numpy.float16), numpy.ones(2, numpy.float32)).dtype == numpy.float32


def test_keyword_arrays_of_two_float_dtypes_are_refused_too(cache):
    kernel = _pair_kernel("tests.mixed_kw")
    with use_backend("python"), pytest.raises(KernelArgumentError, match="arguments 'x' and 'y'"):
        kernel(x=numpy.ones(2, numpy.float32), y=numpy.ones(2))


def test_a_python_implementation_taking_star_arrays_is_given_their_names(cache):
    kernel = Kernel("tests.star_arrays", dtypes=("float32", "float64"))
    kernel.python(lambda *arrays: arrays[0] * arrays[1], arguments=("scale", "values"))
    x, y = numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float64)
    with pytest.raises(KernelArgumentError, match="arguments 'scale' and 'values' have different float dtypes"):
        kernel.run("python", x, y)
